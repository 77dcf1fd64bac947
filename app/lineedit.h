/* The one-line editor of the status line (a note, a tag, a reason): a text
 * and a cursor, moved and edited by keys (app/keys.h codes), always on a
 * code point's boundary so the text stays valid UTF-8 whatever is typed.
 * What it holds is untrusted on screen like log text (the caller draws it
 * through render/untrusted.h). Internal to app/.
 *
 * Keys: a character inserts at the cursor; Left, Right, Home, End, Ctrl-A,
 * Ctrl-E, Ctrl-B, Ctrl-F move; Backspace (Ctrl-H, 127) and Delete (Ctrl-D)
 * delete a code point; Ctrl-U deletes to the start, Ctrl-K to the end,
 * Ctrl-W the word before the cursor; Enter accepts; Esc, Ctrl-C and Ctrl-G
 * cancel.
 *
 * Ownership: the editor owns its text (sbx_lineedit_free); nothing else is
 * kept. */
#ifndef SBX_LINEEDIT_H
#define SBX_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

enum { SBX_LINEEDIT_MAX = 4096 }; /* bytes: what a key would add past it is ignored */

struct sbx_lineedit {
    struct sbx_buf text; /* valid UTF-8, no control characters */
    size_t cursor;       /* a byte offset on a code point's start, or text.len */
};

enum sbx_lineedit_result { SBX_EDIT_GOING, SBX_EDIT_ACCEPT, SBX_EDIT_CANCEL };

/* Starts with initial[0..n) (its control characters and bad UTF-8 left
 * out), the cursor at its end. */
void sbx_lineedit_start(struct sbx_lineedit *ed, const char *initial, size_t n);
void sbx_lineedit_free(struct sbx_lineedit *ed);
enum sbx_lineedit_result sbx_lineedit_key(struct sbx_lineedit *ed, int key);
/* The text (NUL-terminated; valid until the next key). */
const char *sbx_lineedit_text(const struct sbx_lineedit *ed);

#endif
