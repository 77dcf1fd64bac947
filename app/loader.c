#include "app/loader.h"

#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "render/views/views.h"

static void *run(void *arg)
{
    struct sbx_loader *l = arg;
    /* private_copy: a log truncated while it is reviewed keeps its loaded lines */
    struct sbx_load_opts opts = {.threads = l->threads, .shared = &l->progress,
                                 .formats = l->in->formats, .names = l->in->names, .import = l->in->import,
                                 .private_copy = true};
    l->loaded = sbx_load_paths(&l->tl, l->in->paths, l->in->n, &opts, &l->report);
    atomic_store(&l->phase, 1);
    if (l->loaded && !l->report.cancelled) {
        struct sbx_summary_opts sopts = {.threads = l->threads, .allow = l->in->allow,
                                         .unread = l->report.unread, .nunread = l->report.nunread,
                                         .skews = l->in->skews, .nskews = l->in->nskews};
        l->summarized = sbx_summarize(&l->tl, &sopts, &l->sum, l->err, sizeof l->err);
    }
    atomic_store(&l->done, true);
    return NULL;
}

void sbx_loader_start(struct sbx_loader *l, const struct sbx_loader_inputs *in, int threads,
                      bool background)
{
    memset(l, 0, sizeof *l);
    l->in = in;
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
    char events[32];
    if (atomic_load(&l->done)) {
        buf[0] = '\0';
    } else if (atomic_load(&l->phase) == 1) {
        sbx_thousands(atomic_load(&l->progress.events), events);
        snprintf(buf, n, "analysing %s events", events);
    } else {
        unsigned long long done = atomic_load(&l->progress.bytes_done),
                           total = atomic_load(&l->progress.bytes_total);
        sbx_thousands(atomic_load(&l->progress.events), events);
        char d[SBX_NUM_BUFSZ], t[SBX_NUM_BUFSZ];
        if (total) /* the percentage truncated: 100% only when done */
            snprintf(buf, n, "loading %llu%% (%s of %s), %s events so far", done * 100 / total,
                     sbx_size_text((int64_t)done, d), sbx_size_text((int64_t)total, t), events);
        else
            snprintf(buf, n, "loading, %s events so far", events);
    }
}

void sbx_loader_wait(struct sbx_loader *l)
{
    if (l->started) {
        pthread_join(l->tid, NULL);
        l->started = false;
    }
}

void sbx_loader_stop(struct sbx_loader *l)
{
    atomic_store(&l->progress.cancel, true);
    sbx_loader_wait(l);
}

void sbx_loader_free(struct sbx_loader *l)
{
    sbx_loader_stop(l);
    if (l->summarized)
        sbx_summary_free(&l->sum);
    sbx_load_report_free(&l->report);
    sbx_timeline_free(&l->tl);
    memset(l, 0, sizeof *l);
}

bool sbx_loader_preview(const struct sbx_loader_inputs *in, size_t prefix, struct sbx_timeline *tl,
                        struct sbx_summary *sum)
{
    struct sbx_load_opts opts = {.threads = 1, .prefix = prefix, .formats = in->formats,
                                 .names = in->names,
                                 .import = in->import};
    struct sbx_load_report rep = {0};
    sbx_timeline_init(tl);
    size_t loaded = sbx_load_paths(tl, in->paths, in->n, &opts, &rep);
    sbx_load_report_free(&rep); /* the full load reports the same problems */
    char err[256];
    struct sbx_summary_opts sopts = {.threads = 1, .allow = in->allow, .skews = in->skews,
                                     .nskews = in->nskews};
    if (!loaded || !sbx_summarize(tl, &sopts, sum, err, sizeof err)) {
        sbx_timeline_free(tl);
        return false;
    }
    return true;
}
