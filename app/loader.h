/* Loading a run behind the interface: a thread loads and analyses while the
 * terminal stays live, says how far it got, and can be stopped; a preview of
 * each file's first bytes gives the first screen meanwhile. Internal to tui/.
 *
 * Ownership: the loader owns the timeline, summary and report it makes
 * until sbx_loader_free; the inputs it is given (and what they point to)
 * must outlive it. */
#ifndef SBX_LOADER_H
#define SBX_LOADER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "importers/load.h"
#include "analyses/summary.h"

/* What to load and how to analyse it. */
struct sbx_loader_inputs {
    const char *const *paths;
    const struct sbx_format *const *formats; /* per path, or NULL: detect (importers/load.h) */
    const char *const *names;               /* per path, or NULL: the path (importers/load.h) */
    size_t n;
    const struct sbx_allowlist *allow;      /* or NULL (analyses/summary.h) */
    struct sbx_import_opts import;          /* importers/format.h */
    const struct sbx_skew_given *skews;     /* --skew (analyses/crosscheck.h), or NULL */
    size_t nskews;
};

struct sbx_loader {
    const struct sbx_loader_inputs *in;
    int threads;
    pthread_t tid;
    bool started;
    struct sbx_timeline tl;
    struct sbx_summary sum;
    bool summarized;
    struct sbx_load_report report;
    size_t loaded;              /* inputs that loaded */
    char err[256];              /* the analyses could not run */
    struct sbx_load_progress progress;
    _Atomic bool done;
    _Atomic int phase;          /* 0 loading, 1 analysing */
};

/* Starts loading in a thread (or, when background is false, loads right
 * here and returns when done). */
void sbx_loader_start(struct sbx_loader *l, const struct sbx_loader_inputs *in, int threads,
                      bool background);
bool sbx_loader_done(struct sbx_loader *l);
/* "loading 43% · 412,003 events" / "analysing 1,000,000 events" into buf. */
void sbx_loader_progress(struct sbx_loader *l, char *buf, size_t n);
/* Waits for the thread (if any) to finish. */
void sbx_loader_wait(struct sbx_loader *l);
/* Stops the load as soon as it can and waits for it. */
void sbx_loader_stop(struct sbx_loader *l);
void sbx_loader_free(struct sbx_loader *l);

/* The preview: the first prefix bytes of each file, loaded and analysed here
 * (one thread). tl and sum are the caller's (free both). False when nothing
 * could be previewed. */
bool sbx_loader_preview(const struct sbx_loader_inputs *in, size_t prefix, struct sbx_timeline *tl,
                        struct sbx_summary *sum);

#endif
