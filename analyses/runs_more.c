#include "analyses/runs_more.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/deadline.h"

struct offered {
    char *name, *path, *source;
};

struct sbx_runs_more {
    pthread_rwlock_t rows; /* shared: a worker at a row; exclusive: rows taken in */
    pthread_mutex_t lock;  /* what follows */
    pthread_cond_t changed;
    struct offered *staged;
    size_t nstaged, cap;
    size_t n_in; /* rows taken in, as the workers may see them */
    bool ended;
    char *error;
};

void sbx_runs_expect_more(struct sbx_runs *r)
{
    struct sbx_runs_more *m = sbx_xcalloc(1, sizeof *m);
    pthread_rwlock_init(&m->rows, NULL);
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->changed, NULL);
    m->n_in = r->n;
    r->more = m;
}

static char *dup_or_null(const char *s)
{
    return s ? sbx_xstrndup(s, strlen(s)) : NULL;
}

void sbx_runs_offer(struct sbx_runs *r, const char *name, const char *path, const char *source)
{
    struct sbx_runs_more *m = r->more;
    pthread_mutex_lock(&m->lock);
    SBX_GROW(m->staged, m->nstaged, m->cap);
    m->staged[m->nstaged++] =
        (struct offered){dup_or_null(name), dup_or_null(path), dup_or_null(source)};
    pthread_mutex_unlock(&m->lock);
}

void sbx_runs_offer_end(struct sbx_runs *r, const char *error)
{
    struct sbx_runs_more *m = r->more;
    pthread_mutex_lock(&m->lock);
    m->ended = true;
    m->error = dup_or_null(error);
    pthread_cond_broadcast(&m->changed);
    pthread_mutex_unlock(&m->lock);
}

size_t sbx_runs_take(struct sbx_runs *r)
{
    struct sbx_runs_more *m = r->more;
    if (!m)
        return 0;
    pthread_mutex_lock(&m->lock);
    struct offered *got = m->staged;
    size_t n = m->nstaged;
    m->staged = NULL;
    m->nstaged = m->cap = 0;
    pthread_mutex_unlock(&m->lock);
    if (!n)
        return 0;
    pthread_rwlock_wrlock(&m->rows);
    for (size_t i = 0; i < n; i++) {
        sbx_runs_add(r, got[i].name, got[i].path);
        if (got[i].source)
            sbx_runs_set_source(r, r->n - 1, got[i].source);
    }
    pthread_rwlock_unlock(&m->rows);
    for (size_t i = 0; i < n; i++) {
        free(got[i].name);
        free(got[i].path);
        free(got[i].source);
    }
    free(got);
    pthread_mutex_lock(&m->lock);
    m->n_in = r->n;
    pthread_cond_broadcast(&m->changed);
    pthread_mutex_unlock(&m->lock);
    return n;
}

enum sbx_runs_listing sbx_runs_listing(struct sbx_runs *r, char *why, size_t whysz)
{
    struct sbx_runs_more *m = r->more;
    if (!m)
        return SBX_RUNS_WHOLE;
    pthread_mutex_lock(&m->lock);
    enum sbx_runs_listing s = !m->ended || m->nstaged ? SBX_RUNS_LISTING
                              : m->error               ? SBX_RUNS_LIST_FAILED
                                                       : SBX_RUNS_LISTED;
    if (s == SBX_RUNS_LIST_FAILED && why)
        snprintf(why, whysz, "%s", m->error);
    pthread_mutex_unlock(&m->lock);
    return s;
}

bool sbx_runs_wait_row(struct sbx_runs *r, size_t i, const _Atomic bool *stop)
{
    struct sbx_runs_more *m = r->more;
    if (!m)
        return i < r->n;
    pthread_mutex_lock(&m->lock);
    while (i >= m->n_in && !(m->ended && !m->nstaged) && !atomic_load(stop)) {
        /* the stop flag is not signalled: looked at often */
        struct timespec until = sbx_realtime_in(50000000L);
        pthread_cond_timedwait(&m->changed, &m->lock, &until);
    }
    bool there = i < m->n_in && !atomic_load(stop);
    pthread_mutex_unlock(&m->lock);
    return there;
}

void sbx_runs_hold(struct sbx_runs *r)
{
    if (r->more)
        pthread_rwlock_rdlock(&r->more->rows);
}

void sbx_runs_release(struct sbx_runs *r)
{
    if (r->more)
        pthread_rwlock_unlock(&r->more->rows);
}

void sbx_runs_more_free(struct sbx_runs_more *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nstaged; i++) {
        free(m->staged[i].name);
        free(m->staged[i].path);
        free(m->staged[i].source);
    }
    free(m->staged);
    free(m->error);
    pthread_rwlock_destroy(&m->rows);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->changed);
    free(m);
}
