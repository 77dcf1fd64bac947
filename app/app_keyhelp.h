/* app_keyhelp: the lines of the key map (app/keymap.h) on a help screen,
 * one run's views' or the runs list's. Internal to app/. Lines are written into the
 * caller's doc; where is written into the caller's buffer. */
#ifndef SBX_APP_KEYHELP_H
#define SBX_APP_KEYHELP_H

#include <stddef.h>

#include "render/doc.h"

/* " [timeline, detail]": where a key works (names[i] names bit i, for
 * i < count), or "" when bits is all, everywhere; cut to b's n bytes. */
void sbx_keyhelp_where(unsigned bits, unsigned all, const char *const *names, int count, char *b,
                       size_t n);
/* One entry: its keys (up to four, a 0 ends them), its help and where, as a
 * line; below 48 columns the keys stand on a line of their own. */
void sbx_keyhelp_line(struct sbx_doc *d, int cols, const int keys[4], const char *help,
                      const char *where);

#endif
