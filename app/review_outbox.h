/* sbx_outbox: the review's lines on their way to a place where a write
 * takes a while (an object in the store, cli/review_store.h). The reviewer's
 * keys queue lines and go on at once; a worker thread sends what is queued,
 * in order, through the sender cli/ gives. A send that fails keeps its lines
 * queued: they go with the next line queued (the next write) or with
 * sbx_outbox_finish (quitting), never lost and never reordered. The worker
 * may read the review first, and every send brings it back as the place
 * holds it (sbx_outbox_take_review), other writers' lines too.
 *
 * Without background (--dump, tests), sbx_outbox_add sends at once, on the
 * caller's thread.
 *
 * Ownership: the outbox copies every line queued; sbx_outbox_free frees it
 * and the sender's ctx (sender.free). What sbx_outbox_unsent returns is the
 * outbox's, valid until the next call. */
#ifndef SBX_APP_REVIEW_OUTBOX_H
#define SBX_APP_REVIEW_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

struct sbx_review_sender {
    /* Appends lines[0..n) (whole lines, each ending with a newline) to the
     * review, n 0: only reads it; the whole review as it is then (other
     * writers' lines too) into *now (cleared first). False with a one-line
     * reason in err (the store's words: hostile). Called on the worker
     * thread, one call at a time. */
    bool (*send)(void *ctx, const char *lines, size_t n, struct sbx_buf *now, char *err,
                 size_t errsz);
    void (*free)(void *ctx); /* NULL: nothing to free */
    void *ctx;
};

struct sbx_outbox;

/* read_first: the review is read at once (off the caller's thread with
 * background), for sbx_outbox_take_review. */
struct sbx_outbox *sbx_outbox_new(const struct sbx_review_sender *s, bool background,
                                  bool read_first);
/* Waits for a send in flight, then frees (the lines still queued are dropped:
 * take them with sbx_outbox_finish first). */
void sbx_outbox_free(struct sbx_outbox *o);

/* Queues line[0..n) and wakes the worker: what an earlier send left is sent
 * with it. */
void sbx_outbox_add(struct sbx_outbox *o, const char *line, size_t n);

/* What happened since the last call: lines sent, and whether the last send
 * failed (its reason in err, "" otherwise). True when something did. */
struct sbx_outbox_news {
    size_t sent;   /* lines sent since the last call */
    size_t queued; /* lines waiting now */
    bool failed;   /* the last send failed: err says why */
    char err[512];
};
bool sbx_outbox_poll(struct sbx_outbox *o, struct sbx_outbox_news *news);

/* The review as the last send (or read) found it, moved into *review,
 * and a copy of the lines still queued (not in it) into *queued; false when
 * no send has brought a newer one since the last call. */
bool sbx_outbox_take_review(struct sbx_outbox *o, struct sbx_buf *review, struct sbx_buf *queued);

/* A send is in flight. */
bool sbx_outbox_sending(struct sbx_outbox *o);
/* How a send ended is not polled yet. */
bool sbx_outbox_has_news(struct sbx_outbox *o);

/* The sender's ctx (still the outbox's). */
void *sbx_outbox_ctx(struct sbx_outbox *o);

/* Quitting: waits for a send in flight, tries once more what is still
 * queued, waits for that, and gives the lines that could not be sent
 * (NULL, *n 0: none) with the last reason in err. */
const char *sbx_outbox_finish(struct sbx_outbox *o, size_t *n, char *err, size_t errsz);

#endif
