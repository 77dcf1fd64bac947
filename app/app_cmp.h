/* The compare view, without a terminal: two runs' commands aligned
 * (analyses/compare/compare.h), keys in, a grid out.
 *
 * Wide screens (100 columns and more) show the two timelines side by side,
 * A on the left, B on the right, one row per aligned pair, its kind marked
 * as the printed comparison marks it (= same, ! changed, ~ replaced, - only
 * in A, + only in B, > moved) and one cursor over both. Narrower screens show one line per pair (the mark,
 * both exit codes, the command) and, under it, the selected pair with A
 * above B. The header names the runs and counts the rows of each kind; the
 * line under it counts the run-level differences. ] and [ go to the next
 * and previous row that is not the same; Enter shows the pair's stdout and
 * stderr as a line diff (q comes back). Its keys come from the runs list's
 * (app/app_runs.h), which holds the view.
 *
 * Ownership: the view owns the two runs it loads (timelines, summaries) and
 * the comparison; sbx_cmpview_free releases everything. */
#ifndef SBX_APP_CMP_H
#define SBX_APP_CMP_H

#include <stdbool.h>
#include <stddef.h>

#include "render/grid.h"
#include "app/app.h"

struct sbx_allowlist;
struct sbx_cmpview;
struct sbx_format;

/* One side of a comparison: a file or a run folder, its files' names in
 * outputs (importers/load.h's names; NULL: path), its name in the header,
 * the format it is read as (NULL: detected). All borrowed. */
struct sbx_cmp_input {
    const char *path, *source, *name;
    const struct sbx_format *fmt;
};

/* Loads run A and run B, summarises and compares them. NULL with a reason
 * in err when either cannot be read. */
struct sbx_cmpview *sbx_cmpview_open(const struct sbx_cmp_input *a, const struct sbx_cmp_input *b,
                                     const struct sbx_allowlist *allow,
                                     const struct sbx_app_opts *opts, int cols, int rows,
                                     char *err, size_t errsz);
/* NULL is fine. */
void sbx_cmpview_free(struct sbx_cmpview *v);
void sbx_cmpview_resize(struct sbx_cmpview *v, int cols, int rows);
/* What the runs list's keys (app/app_runs.c) do in the view: move by
 * delta rows of the pairs or of the output diff (to_end: to the first, or
 * the last); the rows a page moves; the next (or previous) row that is not
 * the same; a mouse key at screen row mrow. */
void sbx_cmpview_move(struct sbx_cmpview *v, long delta, bool to_end);
long sbx_cmpview_page(const struct sbx_cmpview *v);
void sbx_cmpview_next_diff(struct sbx_cmpview *v, bool back);
void sbx_cmpview_mouse(struct sbx_cmpview *v, int key, int mrow);
/* The output diff shown (Enter on a pair), or closed (q). */
void sbx_cmpview_open_diff(struct sbx_cmpview *v);
void sbx_cmpview_close_diff(struct sbx_cmpview *v);
/* A line for the view's status line until the next key ("" clears it). */
void sbx_cmpview_message(struct sbx_cmpview *v, const char *text);
/* An output diff is showing (q goes back to the pairs). */
bool sbx_cmpview_showing_diff(const struct sbx_cmpview *v);
void sbx_cmpview_draw(struct sbx_cmpview *v, struct sbx_grid *g);

#endif
