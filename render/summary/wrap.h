/* Wrapping one line of safe text (already sanitised) to a width: where each
 * row of it ends. Rows break only at spaces: a word (a run of non-spaces)
 * that does not fit in what is left of a row goes whole onto the next row
 * when it fits there, and is split (between two characters, never inside
 * one) only when it is longer than a row itself: starting on the next row
 * when this one is more than half full, else where it is. Rows after the first
 * start `indent` columns in, so a long fact goes on beneath itself instead
 * of being cut. Internal to render/summary/.
 *
 * Ownership: the rows are written into the caller's array; nothing is
 * allocated. Safe from any thread. */
#ifndef SBX_SUMMARY_WRAP_H
#define SBX_SUMMARY_WRAP_H

#include <stddef.h>

struct sbx_wrap_row {
    size_t begin, end; /* bytes of the line this row shows (spaces at a break left out) */
};

/* The next row of s[from..n) when `avail` columns are free for it and
 * `cont` for each row after it: fills *row and returns where the next row
 * starts (n at the end). At least one character is taken, so a row
 * narrower than a character still moves on. */
size_t sbx_wrap_next(const char *s, size_t n, size_t from, int avail, int cont, struct sbx_wrap_row *row);

/* The columns the rows after the first start at: a topic line's label
 * width, or a detail line's own indent and four more; at most half of cols. */
int sbx_wrap_indent(const char *s, size_t n, int label_width, int cols);

#endif
