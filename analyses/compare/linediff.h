/* sbx_linediff: two texts compared line by line, as the compare view shows
 * a pair's stdout and stderr. Lines end at '\n' (a last line without one
 * counts; the empty text has none); the first SBX_LINEDIFF_MAX_LINES of
 * each text are compared, and the result says when either reached that. The lines
 * are aligned by the longest common subsequence of whole lines
 * (sbx_cmp_lcs), and listed as a unified diff lists them: within each
 * stretch between two kept lines, A's deleted lines before B's inserted
 * ones.
 *
 * Ownership: the result's lines point into the two texts, which must
 * outlive it; its array is the caller's, freed with sbx_linediff_free. */
#ifndef SBX_LINEDIFF_H
#define SBX_LINEDIFF_H

#include <stdbool.h>
#include <stddef.h>

enum { SBX_LINEDIFF_MAX_LINES = 5000 };

enum sbx_linediff_op {
    SBX_LINE_KEPT,    /* in both */
    SBX_LINE_DELETED, /* only in A */
    SBX_LINE_ADDED,   /* only in B */
};

struct sbx_linediff_line {
    enum sbx_linediff_op op;
    const char *p;    /* into A's text (kept, deleted) or B's (added); no '\n' */
    size_t len;
};

struct sbx_linediff {
    struct sbx_linediff_line *lines;
    size_t n;
    bool limited;     /* a text reached SBX_LINEDIFF_MAX_LINES: any after were not compared */
};

void sbx_linediff(const char *a, size_t na, const char *b, size_t nb, struct sbx_linediff *out);
void sbx_linediff_free(struct sbx_linediff *d);

#endif
