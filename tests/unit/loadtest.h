/* Helpers the importers' tests share: load bytes as one source of a given
 * format into a new timeline, and read its skips and events. Header-only
 * (each test is one program); include after <cmocka.h>. The timeline
 * returned is the caller's: free with loadtest_drop. */
#ifndef SBX_TEST_LOADTEST_H
#define SBX_TEST_LOADTEST_H

#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"

/* split_min 1 lets two threads split even a tiny file. */
static inline struct sbx_timeline *loadtest_bytes(const struct sbx_format *fmt, const char *name,
                                                  const char *bytes, size_t n, int threads,
                                                  size_t split_min)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    char *copy = malloc(n + 1);
    memcpy(copy, bytes, n);
    uint32_t src = sbx_timeline_add_source(tl, name, copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts opts = {.threads = threads, .split_min = split_min};
    sbx_load_source(tl, src, fmt, &opts);
    sbx_timeline_finish(tl);
    return tl;
}

static inline void loadtest_drop(struct sbx_timeline *tl)
{
    sbx_timeline_free(tl);
    free(tl);
}

/* The reason the line was skipped, or NULL. */
static inline const char *loadtest_skip_reason(const struct sbx_timeline *tl, uint32_t line)
{
    for (size_t i = 0; i < tl->nskips; i++)
        if (tl->skips[i].line == line)
            return tl->skips[i].reason;
    return NULL;
}

/* The event of a line (events are in time order; tests look them up by
 * line); fails the test when there is none. */
static inline const struct sbx_event *loadtest_at_line(const struct sbx_timeline *tl, uint32_t line)
{
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_ev_line_no(sbx_tl_at(tl, i)) == line)
            return sbx_tl_at(tl, i);
    fail_msg("no event for line %u", line);
    return NULL;
}

#endif
