/* A runs list that grows while it is shown and filled: a store's listing,
 * read page after page behind the list (cli/s3_fetch.h), offers each run
 * once every object of it is listed, and the list's own thread takes the
 * runs offered in between two screens. Rows only ever go at the end of
 * struct sbx_runs's rows, so an index (a mark, an order) stays its run's.
 *
 * Threads: sbx_runs_offer and sbx_runs_offer_end from one thread (the
 * lister); sbx_runs_take, and reading rows without a lock, from one other
 * (the list's); the fill's workers (importers/runs.h) wait for their next
 * row with sbx_runs_wait_row, and read or write a row only between
 * sbx_runs_hold and sbx_runs_release (the rows may move while taken in).
 * On a list made whole (no sbx_runs_expect_more) hold and release do
 * nothing and wait_row asks only whether the row is there.
 *
 * Ownership: the list owns what sbx_runs_expect_more makes (sbx_runs_free
 * frees it, after the lister and the fill are stopped); what is offered is
 * copied. */
#ifndef SBX_ANALYSES_RUNS_MORE_H
#define SBX_ANALYSES_RUNS_MORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "analyses/runs.h"

enum sbx_runs_listing {
    SBX_RUNS_WHOLE,       /* never grew: every row was there from the start */
    SBX_RUNS_LISTING,     /* more may come */
    SBX_RUNS_LISTED,      /* the listing is complete and every run taken in */
    SBX_RUNS_LIST_FAILED, /* the listing stopped with an error; every run before it taken in */
};

/* From now on rows may come (before the fill starts). */
void sbx_runs_expect_more(struct sbx_runs *r);
/* A run whose objects are all listed (name, path and source as
 * sbx_runs_add and sbx_runs_set_source take them; source may be NULL). */
void sbx_runs_offer(struct sbx_runs *r, const char *name, const char *path, const char *source);
/* No more runs: the listing is complete (error NULL) or stopped (error, a
 * one-line reason, copied). */
void sbx_runs_offer_end(struct sbx_runs *r, const char *error);
/* The runs offered since the last call appended to the rows (PENDING);
 * returns how many. */
size_t sbx_runs_take(struct sbx_runs *r);
/* Where the listing stands; why gets the error of SBX_RUNS_LIST_FAILED. */
enum sbx_runs_listing sbx_runs_listing(struct sbx_runs *r, char *why, size_t whysz);
/* Waits until row i is there (true) or will never be, or *stop is set
 * (false). */
bool sbx_runs_wait_row(struct sbx_runs *r, size_t i, const _Atomic bool *stop);
void sbx_runs_hold(struct sbx_runs *r);
void sbx_runs_release(struct sbx_runs *r);

struct sbx_runs_more;
void sbx_runs_more_free(struct sbx_runs_more *m);

#endif
