/* A list's cursor and the window of rows it shows: the one rule every list
 * of the interface keeps (the timeline, the files and network views, the
 * runs list, the compare view). Header only; internal to app/. */
#ifndef SBX_LIST_WINDOW_H
#define SBX_LIST_WINDOW_H

#include <stddef.h>

/* Puts the cursor on row i of n (the last row when i is past it) and moves
 * the window of h rows, starting at *top, as little as shows it, never past
 * the list's end. An empty list leaves both at 0. */
static inline void sbx_list_select(size_t *cur, size_t *top, size_t i, size_t n, size_t h)
{
    if (!n) {
        *cur = *top = 0;
        return;
    }
    *cur = i >= n ? n - 1 : i;
    if (*cur < *top)
        *top = *cur;
    if (*cur >= *top + h)
        *top = *cur - h + 1;
    if (*top + h > n)
        *top = n > h ? n - h : 0;
}

#endif
