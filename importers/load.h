/* Loading inputs into a timeline: files, run folders (every file whose
 * content a format recognises) and standard input ("-"). Large files are
 * split at line boundaries and imported by several threads.
 *
 * Problems with a whole input (missing, unreadable, not a log) are returned as
 * messages; problems with single lines become the timeline's skips and the
 * rest loads. Ownership: the report's strings are freed by
 * sbx_load_report_free; the timeline owns everything loaded. */
#ifndef SBX_LOAD_H
#define SBX_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

struct sbx_load_opts {
    int threads; /* 0: one per online CPU, at most 8 */
    size_t split_min; /* files smaller than this load on one thread; 0: 4 MiB */
    /* Called now and then from the loading thread while a big file loads. */
    void (*progress)(void *ctx, const char *path, uint64_t done, uint64_t total);
    void *progress_ctx;
};

struct sbx_load_report {
    char **errors;   /* "path: reason", one per input that could not be read */
    size_t nerrors;
    char **ignored;  /* files in folders that no format recognised */
    size_t nignored;
};

/* Loads every path; returns the number of sources added. Finishes the
 * timeline (sorted) before returning. */
size_t sbx_load_paths(struct sbx_timeline *tl, const char *const *paths, size_t npaths,
                      const struct sbx_load_opts *opts, struct sbx_load_report *report);

/* Imports the bytes already added as source `source` with format fmt. */
struct sbx_format;
void sbx_load_source(struct sbx_timeline *tl, uint32_t source, const struct sbx_format *fmt,
                     const struct sbx_load_opts *opts);

void sbx_load_report_free(struct sbx_load_report *r);

#endif
