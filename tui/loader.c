#include "tui/loader.h"

#include <stdio.h>
#include <string.h>

static void on_progress(void *ctx, const char *path, uint64_t done, uint64_t total)
{
    struct sbx_loader *l = ctx;
    (void)path;
    atomic_store(&l->bytes_done, done);
    atomic_store(&l->bytes_total, total);
}

static void *run(void *arg)
{
    struct sbx_loader *l = arg;
    struct sbx_load_opts opts = {.threads = l->threads, .progress = on_progress, .progress_ctx = l};
    l->loaded = sbx_load_paths(&l->tl, l->paths, l->npaths, &opts, &l->report);
    atomic_store(&l->phase, 1);
    if (l->loaded) {
        struct sbx_summary_opts sopts = {.threads = l->threads};
        l->summarized = sbx_summarize(&l->tl, &sopts, &l->sum, l->err, sizeof l->err);
    }
    atomic_store(&l->done, true);
    return NULL;
}

void sbx_loader_start(struct sbx_loader *l, const char *const *paths, size_t npaths, int threads,
                      bool background)
{
    memset(l, 0, sizeof *l);
    l->paths = paths;
    l->npaths = npaths;
    l->threads = threads;
    sbx_timeline_init(&l->tl);
    if (background && pthread_create(&l->tid, NULL, run, l) == 0) {
        l->started = true;
        return;
    }
    run(l);
}

bool sbx_loader_done(struct sbx_loader *l)
{
    return atomic_load(&l->done);
}

void sbx_loader_progress(struct sbx_loader *l, char *buf, size_t n)
{
    if (atomic_load(&l->done)) {
        buf[0] = '\0';
    } else if (atomic_load(&l->phase) == 1) {
        snprintf(buf, n, "analysing %zu events", l->tl.n);
    } else {
        unsigned long long done = atomic_load(&l->bytes_done), total = atomic_load(&l->bytes_total);
        if (total)
            snprintf(buf, n, "loading %llu%% (%llu of %llu MB)", done * 100 / total, done >> 20,
                     total >> 20);
        else
            snprintf(buf, n, "loading");
    }
}

void sbx_loader_wait(struct sbx_loader *l)
{
    if (l->started) {
        pthread_join(l->tid, NULL);
        l->started = false;
    }
}

void sbx_loader_free(struct sbx_loader *l)
{
    sbx_loader_wait(l);
    if (l->summarized)
        sbx_summary_free(&l->sum);
    sbx_load_report_free(&l->report);
    sbx_timeline_free(&l->tl);
    memset(l, 0, sizeof *l);
}
