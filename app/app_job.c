/* Searches and filters over the whole timeline, run on a thread of their
 * own so that a search over a million events leaves the interface live. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app_internal.h"
#include "app/app_review.h"

enum { BACKGROUND_MIN_EVENTS = 100000 };

static void *run(void *arg)
{
    struct sbx_app_job *j = arg;
    j->n = sbx_query_run(j->q, j->tl, j->subset, j->nsubset, &j->out, &j->qj);
    atomic_store(&j->finished, true);
    return NULL;
}

static void job_free(struct sbx_app_job *j)
{
    free(j->owned);
    free(j->out);
    free(j);
}

void sbx_app_start_job(struct sbx_app *a, enum sbx_job_kind kind, const struct sbx_query *q,
                       uint32_t *owned, const uint32_t *subset, size_t nsubset,
                       int jump)
{
    if (a->job && a->job->kind == SBX_JOB_FILTER && kind == SBX_JOB_SEARCH) {
        /* a search counts what the filter shows: let the filter land first */
        if (a->job->threaded)
            pthread_join(a->job->tid, NULL);
        a->job->threaded = false;
        atomic_store(&a->job->finished, true);
        sbx_app_poll(a);
    }
    if (kind == SBX_JOB_SEARCH) { /* a search is over what shows now */
        subset = a->vis;
        nsubset = a->vis ? a->nvis : 0;
    }
    sbx_app_cancel(a, false);
    struct sbx_app_job *j = sbx_xmalloc(sizeof *j);
    memset(j, 0, sizeof *j);
    j->kind = kind;
    j->q = q;
    j->tl = a->tl;
    j->owned = owned;
    j->subset = subset;
    j->nsubset = subset ? nsubset : 0;
    j->jump = jump;
    j->qj.threads = a->opts.threads;
    atomic_init(&j->finished, false);
    /* a small run is searched at once: faster than a thread, and the keys
     * typed after the search see its result */
    size_t events = subset ? nsubset : a->tl->n;
    if (a->opts.background && events >= BACKGROUND_MIN_EVENTS &&
        pthread_create(&j->tid, NULL, run, j) == 0) {
        j->threaded = true;
        a->job = j;
        return;
    }
    run(j);
    a->job = j;
    sbx_app_poll(a);
}

bool sbx_app_busy(const struct sbx_app *a)
{
    return a->job != NULL || sbx_app_export_busy(a);
}

bool sbx_app_poll(struct sbx_app *a)
{
    bool exported = sbx_app_export_poll(a) | sbx_app_review_poll(a);
    struct sbx_app_job *j = a->job;
    if (!j || !atomic_load(&j->finished))
        return exported;
    if (j->threaded)
        pthread_join(j->tid, NULL);
    a->job = NULL;
    if (j->n == SIZE_MAX) { /* stopped from outside: nothing to take in */
        job_free(j);
        return true;
    }
    if (atomic_load(&j->qj.too_complex))
        sbx_app_message(a, true, "%zu texts were too complex for the pattern and count as not matching",
                        (size_t)atomic_load(&j->qj.too_complex));
    sbx_app_job_finished(a, j);
    job_free(j);
    return true;
}

void sbx_app_cancel(struct sbx_app *a, bool say)
{
    struct sbx_app_job *j = a->job;
    if (!j)
        return;
    atomic_store(&j->qj.cancel, true);
    if (j->threaded)
        pthread_join(j->tid, NULL);
    a->job = NULL;
    enum sbx_job_kind kind = j->kind;
    job_free(j);
    if (!say)
        return;
    if (kind == SBX_JOB_FILTER) {
        sbx_app_set_filter(a, NULL); /* what shows stays consistent: no half filter */
        sbx_app_message(a, false, "filter stopped and cleared");
    } else {
        sbx_app_message(a, false, "search stopped");
        free(a->search_text);
        a->search_text = NULL;
        sbx_query_free(a->search);
        a->search = NULL;
        a->look.find = NULL;
        free(a->hits);
        a->hits = NULL;
        a->nhits = 0;
    }
}

void sbx_app_job_progress(const struct sbx_app *a, char *buf, size_t n)
{
    const struct sbx_app_job *j = a->job;
    if (!j) {
        if (sbx_app_export_busy(a))
            snprintf(buf, n, "sending to %s (Esc stops)", sbx_app_export_name(a));
        else
            buf[0] = '\0';
        return;
    }
    size_t done = atomic_load(&j->qj.done), total = atomic_load(&j->qj.total);
    snprintf(buf, n, "%s %zu%% (Esc stops)", j->kind == SBX_JOB_FILTER ? "filtering" : "searching",
             total ? done * 100 / total : 0);
}
