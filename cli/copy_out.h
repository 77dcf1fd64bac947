/* The program's side of copying out of the review (app/app.h,
 * SBX_APP_OUTPUT): to the terminal's clipboard when app/copyout.h's rule
 * lets it (SBXVIEW_CLIPBOARD: on, off or auto, the terminal's Ms deciding),
 * or to $PAGER (default less) through tui/. The outcome, or why nothing
 * was sent, is the app's status message. Internal to cli/. */
#ifndef SBX_COPY_OUT_H
#define SBX_COPY_OUT_H

#include <stdbool.h>

#include "app/app.h"

/* Sends what the app has to send; on_terminal false (--dump) sends
 * nothing and says so. */
void sbx_copy_out(struct sbx_app *app, bool on_terminal);

#endif
