/* Copying out of the review: the selected event's command line, its output
 * (stdout, then stderr) or its detail as text for the terminal's clipboard,
 * a file or a pager — every string from the log redacted and sanitised
 * (render/untrusted.h: lines kept, control characters shown as inert
 * escapes) — and the clipboard's escape, OSC 52, with the rule for when it
 * is sent. The program around the app (tui/, cli/) sends it; nothing here
 * touches a terminal.
 *
 * Ownership: texts are appended to the caller's sbx_buf; why gets a
 * message (quoting nothing from the log). */
#ifndef SBX_APP_COPYOUT_H
#define SBX_APP_COPYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "model/timeline.h"
#include "render/views/views.h"

/* What is copied, by the letter after Y, w or |: X(letter, name). */
#define SBX_COPY_WHAT(X) X('c', "command line") X('o', "output") X('d', "detail")

/* The name of what letter copies ("command line", …), or NULL when it
 * copies nothing. */
const char *sbx_copy_name(int letter);

/* The text of what letter names for event e (look: the rows' look, for the
 * detail), redacted and sanitised, appended to out; false with why when
 * there is none (no event, not a command, no output). */
bool sbx_copy_text(const struct sbx_timeline *tl, struct sbx_rows_look *look,
                   const struct sbx_event *e, int letter, bool ascii, struct sbx_buf *out,
                   char *why, size_t whysz);

/* The clipboard escape for text: ESC ] 52 ; c ; BASE64 BEL. */
void sbx_osc52(const char *text, size_t n, struct sbx_buf *out);

/* Whether the clipboard escape is sent. The setting (SBXVIEW_CLIPBOARD,
 * read by cli/): on sends it whatever the terminal says, off never; auto
 * sends it when the terminal's terminfo entry has Ms (its way to set the
 * selection: tui/ asks tigetstr). An escape longer than SBX_OSC52_MAX bytes
 * is never sent (terminals drop or cut long ones). False with why: what
 * held it back, and what to do instead. */
enum sbx_clip_setting { SBX_CLIP_AUTO, SBX_CLIP_ON, SBX_CLIP_OFF };
enum { SBX_OSC52_MAX = 100000 };
bool sbx_osc52_allowed(enum sbx_clip_setting setting, bool terminal_has_ms, size_t escape_len,
                       char *why, size_t whysz);
/* The setting named by s ("on", "off", "auto"; NULL or "" auto); false for
 * anything else. */
bool sbx_clip_setting_parse(const char *s, enum sbx_clip_setting *out);

#endif
