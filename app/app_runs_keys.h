/* The screens of the runs list (app/app_runs.h) as the key map
 * (app/keymap.h) sees them: each one's name for the help and the groups of
 * keys it takes; and their help screen, made from the one key map. Internal
 * to app/. Ownership: nothing returned needs freeing; the help is written
 * into the caller's doc. */
#ifndef SBX_APP_RUNS_KEYS_H
#define SBX_APP_RUNS_KEYS_H

#include "render/doc.h"

/* The screens, in the order the help names them. */
enum sbx_runs_keyscreen { SBX_RK_LIST, SBX_RK_COMPARE, SBX_RK_DIFF, SBX_RK_HELP, SBX_RK_COUNT };

/* The groups of keys screen s takes (SBX_KEYS_*). */
unsigned sbx_runs_screen_keys(enum sbx_runs_keyscreen s);
/* The help document: every key the screens take, and where it works. */
void sbx_runs_help_doc(struct sbx_doc *d, int cols);

#endif
