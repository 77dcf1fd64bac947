/* The review's lines on their way to the store: see app/review_outbox.h. */
#include "app/review_outbox.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

struct sbx_outbox {
    struct sbx_review_sender s;
    bool background, started, stop;
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t wake, idle;
    struct sbx_buf queue; /* the lines not sent yet, in order */
    size_t nqueued;
    bool want;            /* lines came, or finish asked: send (once) */
    bool want_read;       /* read the review even with nothing queued */
    struct sbx_buf review; /* the review as the last send found it */
    bool fresh;           /* review is newer than the last sbx_outbox_take_review */
    bool sending;
    size_t sent;          /* since the last poll */
    bool failed, news;
    char err[512];
};

static void *worker(void *arg);
static void send_queued(struct sbx_outbox *o);

/* With mu held: the worker started if there is to be one, and woken; or,
 * without, the send made here. */
static void kick(struct sbx_outbox *o)
{
    o->want = true;
    if (o->background && !o->started)
        o->started = pthread_create(&o->tid, NULL, worker, o) == 0;
    if (o->started)
        pthread_cond_signal(&o->wake);
    else
        send_queued(o); /* no thread: the caller waits */
}

struct sbx_outbox *sbx_outbox_new(const struct sbx_review_sender *s, bool background,
                                  bool read_first)
{
    struct sbx_outbox *o = sbx_xmalloc(sizeof *o);
    memset(o, 0, sizeof *o);
    o->s = *s;
    o->background = background;
    pthread_mutex_init(&o->mu, NULL);
    pthread_cond_init(&o->wake, NULL);
    pthread_cond_init(&o->idle, NULL);
    if (read_first) {
        pthread_mutex_lock(&o->mu);
        o->want_read = true;
        kick(o);
        pthread_mutex_unlock(&o->mu);
    }
    return o;
}

static size_t count_lines(const char *p, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += p[i] == '\n';
    return k;
}

/* One send of everything queued; called with mu held, which it lets go of
 * while the sender works. Lines queued meanwhile stay for the next send. */
static void send_queued(struct sbx_outbox *o)
{
    o->want = o->want_read = false;
    o->sending = true;
    size_t n = o->queue.len, lines = o->nqueued;
    char *copy = n ? sbx_xstrndup(o->queue.p, n) : NULL;
    pthread_mutex_unlock(&o->mu);
    char err[512] = "";
    struct sbx_buf now = SBX_BUF_INIT;
    bool ok = o->s.send(o->s.ctx, copy ? copy : "", n, &now, err, sizeof err);
    free(copy);
    pthread_mutex_lock(&o->mu);
    if (ok) {
        sbx_buf_free(&o->review);
        o->review = now;
        o->fresh = true;
    } else {
        sbx_buf_free(&now);
    }
    o->sending = false;
    o->news = true;
    o->failed = !ok;
    if (ok && n) {
        memmove(o->queue.p, o->queue.p + n, o->queue.len - n);
        o->queue.len -= n;
        o->queue.p[o->queue.len] = '\0';
        o->nqueued -= lines;
        o->sent += lines;
        o->err[0] = '\0';
    } else if (ok) {
        o->err[0] = '\0';
    } else {
        snprintf(o->err, sizeof o->err, "%s", err[0] ? err : "the write failed");
    }
    pthread_cond_broadcast(&o->idle);
}

static void *worker(void *arg)
{
    struct sbx_outbox *o = arg;
    pthread_mutex_lock(&o->mu);
    while (!o->stop) {
        if (o->want && (o->queue.len || o->want_read))
            send_queued(o);
        else
            pthread_cond_wait(&o->wake, &o->mu);
    }
    pthread_mutex_unlock(&o->mu);
    return NULL;
}

void sbx_outbox_add(struct sbx_outbox *o, const char *line, size_t n)
{
    if (!n)
        return;
    pthread_mutex_lock(&o->mu);
    sbx_buf_add(&o->queue, line, n);
    o->nqueued += count_lines(line, n);
    kick(o);
    pthread_mutex_unlock(&o->mu);
}

bool sbx_outbox_take_review(struct sbx_outbox *o, struct sbx_buf *review, struct sbx_buf *queued)
{
    pthread_mutex_lock(&o->mu);
    bool fresh = o->fresh;
    if (fresh) {
        sbx_buf_free(review);
        *review = o->review;
        o->review = (struct sbx_buf)SBX_BUF_INIT;
        sbx_buf_clear(queued);
        sbx_buf_add(queued, o->queue.p ? o->queue.p : "", o->queue.len);
        o->fresh = false;
    }
    pthread_mutex_unlock(&o->mu);
    return fresh;
}

bool sbx_outbox_poll(struct sbx_outbox *o, struct sbx_outbox_news *news)
{
    pthread_mutex_lock(&o->mu);
    bool any = o->news;
    news->sent = o->sent;
    news->queued = o->nqueued;
    news->failed = o->failed;
    snprintf(news->err, sizeof news->err, "%s", o->failed ? o->err : "");
    o->sent = 0;
    o->news = false;
    pthread_mutex_unlock(&o->mu);
    return any;
}

bool sbx_outbox_sending(struct sbx_outbox *o)
{
    pthread_mutex_lock(&o->mu);
    bool busy = o->sending || (o->want && (o->queue.len || o->want_read));
    pthread_mutex_unlock(&o->mu);
    return busy;
}

void *sbx_outbox_ctx(struct sbx_outbox *o)
{
    return o->s.ctx;
}

bool sbx_outbox_has_news(struct sbx_outbox *o)
{
    pthread_mutex_lock(&o->mu);
    bool news = o->news;
    pthread_mutex_unlock(&o->mu);
    return news;
}

const char *sbx_outbox_finish(struct sbx_outbox *o, size_t *n, char *err, size_t errsz)
{
    pthread_mutex_lock(&o->mu);
    while (o->sending || (o->started && o->want && (o->queue.len || o->want_read)))
        pthread_cond_wait(&o->idle, &o->mu);
    if (o->queue.len) { /* once more, here: the worker is idle */
        o->want = true;
        send_queued(o);
    }
    *n = o->queue.len;
    snprintf(err, errsz, "%s", o->queue.len ? o->err : "");
    const char *p = o->queue.len ? o->queue.p : NULL;
    pthread_mutex_unlock(&o->mu);
    return p;
}

void sbx_outbox_free(struct sbx_outbox *o)
{
    if (!o)
        return;
    pthread_mutex_lock(&o->mu);
    o->stop = true;
    pthread_cond_signal(&o->wake);
    pthread_mutex_unlock(&o->mu);
    if (o->started)
        pthread_join(o->tid, NULL);
    if (o->s.free)
        o->s.free(o->s.ctx);
    sbx_buf_free(&o->queue);
    sbx_buf_free(&o->review);
    pthread_cond_destroy(&o->wake);
    pthread_cond_destroy(&o->idle);
    pthread_mutex_destroy(&o->mu);
    free(o);
}
