/* sbx_query_run: a query over the whole timeline (or a subset of it) on
 * several threads.
 *
 * Work is handed out in small runs of consecutive positions from one atomic
 * counter, so threads balance by the bytes they actually read (one 4 MB
 * stdout or a thousand small events) rather than by a fixed share of events.
 * Each thread writes only its own positions of a byte map; the map is then
 * read in order, so the result is sorted and identical for any number of
 * threads. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/buf.h"
#include "query/impl.h"

enum { CHUNK = 256, MAX_THREADS = 8 };

struct run {
    const struct sbx_query *q;
    const struct sbx_timeline *tl;
    const uint32_t *subset;
    size_t n;
    unsigned char *hit;
    struct sbx_query_job *job;
    _Atomic size_t next;
    _Atomic bool stopped;
};

static void *worker(void *arg)
{
    struct run *r = arg;
    struct sbx_query_scratch *sc = sbx_query_scratch_new();
    _Atomic bool never = false;
    _Atomic bool *cancel = r->job ? &r->job->cancel : &never;
    _Atomic size_t *begun = r->job && r->job->count_work ? &r->job->begun : NULL;
    while (!atomic_load_explicit(&r->stopped, memory_order_relaxed)) {
        size_t from = atomic_fetch_add_explicit(&r->next, CHUNK, memory_order_relaxed);
        if (from >= r->n)
            break;
        size_t to = from + CHUNK < r->n ? from + CHUNK : r->n, i;
        for (i = from; i < to; i++) {
            /* every event: one that hits PCRE2's limits takes milliseconds */
            if (atomic_load_explicit(cancel, memory_order_relaxed)) {
                atomic_store(&r->stopped, true);
                break;
            }
            if (begun)
                atomic_fetch_add_explicit(begun, 1, memory_order_relaxed);
            size_t pos = r->subset ? r->subset[i] : i;
            if (pos < r->tl->n)
                r->hit[i] = sbx_query_match(r->q, r->tl, sbx_tl_at(r->tl, pos), sc);
        }
        if (r->job)
            atomic_fetch_add_explicit(&r->job->done, i - from, memory_order_relaxed);
    }
    if (r->job)
        atomic_fetch_add(&r->job->too_complex, sbx_query_scratch_too_complex(sc));
    sbx_query_scratch_free(sc);
    return NULL;
}

static int thread_count(const struct sbx_query_job *job, size_t n)
{
    long t = job && job->threads > 0 ? job->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (t < 1)
        t = 1;
    if (t > MAX_THREADS)
        t = MAX_THREADS;
    size_t chunks = (n + CHUNK - 1) / CHUNK;
    if ((size_t)t > chunks)
        t = chunks ? (long)chunks : 1;
    return (int)t;
}

size_t sbx_query_run(const struct sbx_query *q, const struct sbx_timeline *tl,
                     const uint32_t *subset, size_t nsubset, uint32_t **out,
                     struct sbx_query_job *job)
{
    *out = NULL;
    size_t n = subset ? nsubset : tl->n;
    if (job) {
        atomic_store(&job->done, 0);
        atomic_store(&job->total, n);
        atomic_store(&job->too_complex, 0);
        atomic_store(&job->begun, 0);
        if (atomic_load(&job->cancel))
            return SIZE_MAX;
    }
    struct run r = {.q = q, .tl = tl, .subset = subset, .n = n, .job = job};
    r.hit = sbx_xcalloc(n ? n : 1, 1);
    int threads = thread_count(job, n);
    pthread_t tid[MAX_THREADS];
    int started = 0;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&tid[started], NULL, worker, &r) == 0)
            started++; /* fewer threads only make it slower */
    worker(&r);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    if (atomic_load(&r.stopped)) {
        free(r.hit);
        return SIZE_MAX;
    }
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += r.hit[i];
    if (count) {
        uint32_t *res = sbx_xmalloc(count * sizeof *res);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (r.hit[i])
                res[k++] = subset ? subset[i] : (uint32_t)i;
        *out = res;
    }
    free(r.hit);
    return count;
}
