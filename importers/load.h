/* Loading inputs into a timeline: files, run folders (every file whose
 * content a format recognises) and standard input ("-"). Large files are
 * split at line boundaries and imported by several threads.
 *
 * Problems with a whole input (missing, unreadable, not a log) are returned as
 * messages; problems with single lines become the timeline's skips and the
 * rest loads. A load can run in a thread of its own: another thread may read
 * its progress counters and ask it to stop (struct sbx_load_progress).
 * Ownership: the report's strings are freed by sbx_load_report_free; the
 * timeline owns everything loaded; the caller owns the progress struct, which
 * must outlive the load. */
#ifndef SBX_LOAD_H
#define SBX_LOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importers/format.h"
#include "model/timeline.h"
#include "model/unread.h"

/* Written by the loading threads, read by anyone: byte counts are updated
 * every few MiB and exact when a file is done. bytes_total and files_total
 * are known before the first byte is read (every input is stat'ed first,
 * folders included), except that standard input and FIFOs add their size
 * when they have been read. Zero it before the load. */
struct sbx_load_progress {
    _Atomic uint64_t bytes_done, bytes_total;
    _Atomic uint64_t events; /* events imported so far */
    _Atomic uint32_t files_done, files_total;
    /* Set by another thread to stop the load: it returns soon after (within
     * one step of a few MiB per thread), with what it read so far. */
    _Atomic bool cancel;
};

struct sbx_load_opts {
    int threads; /* 0: one per online CPU, at most 8 */
    size_t split_min; /* files smaller than this load on one thread; 0: 4 MiB */
    /* Non-zero: a quick preview. Each file (named or found in a folder) is
     * read only up to its first `prefix` bytes, cut after the last complete
     * line, and its source is marked preview. Standard input and FIFOs are not
     * read at all (they cannot be read twice): the report lists them. */
    size_t prefix;
    /* Optional: progress another thread can poll, and the cancel flag. */
    struct sbx_load_progress *shared;
    /* Called now and then from the loading thread while a big file loads. */
    void (*progress)(void *ctx, const char *path, uint64_t done, uint64_t total);
    void *progress_ctx;
    /* Optional: a format for each path (parallel to paths), read without
     * detection; a NULL array or entry: detected from the content. A folder
     * given with a format has every file in it read as that format. */
    const struct sbx_format *const *formats;
    /* Optional: the name each path is known by (parallel to paths), for
     * the sources, the skips, the report and every output: a file's name
     * is its source's path, a folder's files are NAME/FILE (a NULL array
     * or entry: the path itself). A run fetched from object storage into
     * a cache is named by its s3:// URL, not the cache's place. */
    const char *const *names;
    /* True: regular files are read into the heap, not mapped
     * (sbx_read_input_copy), so that truncating one later leaves what was
     * loaded readable. The interactive review asks for it. */
    bool private_copy;
    /* Handed to every import (importers/format.h); its strings are borrowed
     * for the load. */
    struct sbx_import_opts import;
};

struct sbx_load_report {
    char **errors;   /* "path: reason", one per input that could not be read */
    size_t nerrors;
    /* Every file not read, and why: those named (also in errors) and those
     * in folders that no format recognised (only here). */
    struct sbx_unread *unread;
    size_t nunread;
    /* With a prefix: inputs the preview did not load but a full load would
     * read: standard input and FIFOs, and files whose first bytes hold no
     * line a format recognises. */
    char **deferred;
    size_t ndeferred;
    bool cancelled;  /* the load was stopped: the timeline holds only part */
};

/* Loads every path; returns the number of sources added. Finishes the
 * timeline (sorted) before returning, also when cancelled. */
size_t sbx_load_paths(struct sbx_timeline *tl, const char *const *paths, size_t npaths,
                      const struct sbx_load_opts *opts, struct sbx_load_report *report);

/* Imports the bytes already added as source `source` with format fmt
 * (adopted, not yet sorted: call sbx_timeline_finish). Returns false when the
 * load was cancelled before the end (the lines before the stop are kept). */
bool sbx_load_source(struct sbx_timeline *tl, uint32_t source, const struct sbx_format *fmt,
                     const struct sbx_load_opts *opts);

/* What sbx_import_range read. bufs (an array of nbufs, in line order) belongs
 * to the caller: adopt or append each buffer, then free the array. */
struct sbx_imported {
    struct sbx_evbuf *bufs;
    size_t nbufs;
    uint32_t lines;  /* lines read, the last one perhaps without its newline */
    bool stopped;    /* cancelled: only the lines before the stop are in bufs */
};

/* Imports the lines of source `source` from byte `from` (where a line
 * starts) to the end of its bytes, numbering them from first_line + 1. Sets
 * the source's `incomplete` (the bytes of a partial last line held back and
 * reported as a skip, or 0). The timeline is not changed otherwise. */
void sbx_import_range(struct sbx_timeline *tl, uint32_t source, const struct sbx_format *fmt,
                      size_t from, uint32_t first_line, const struct sbx_load_opts *opts,
                      struct sbx_imported *out);

void sbx_load_report_free(struct sbx_load_report *r);

#endif
