/* Tests for the review's outbox (app/review_outbox.h): a fake store that
 * answers each send from a table (written or refused), on the worker thread
 * and without one. Every line reaches the store once, in the order it was
 * queued; a refused send keeps its lines for the next one; finishing sends
 * what is left once more and gives what is still not written. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "app/review_outbox.h"

/* The fake store: send k is refused when refuse[k] is 'x', written when '.'
 * (or past the end of the table). */
struct fake {
    const char *refuse;
    size_t sends;
    struct sbx_buf stored;
    bool freed;
};

static bool fake_send(void *ctx, const char *lines, size_t n, struct sbx_buf *now, char *err,
                      size_t errsz)
{
    struct fake *f = ctx;
    assert_true(n > 0); /* no read was asked for */
    size_t k = f->sends++;
    if (k < strlen(f->refuse) && f->refuse[k] == 'x') {
        snprintf(err, errsz, "403 AccessDenied (send %zu)", k + 1);
        return false;
    }
    assert_true(n > 0 && lines[n - 1] == '\n'); /* whole lines only */
    sbx_buf_add(&f->stored, lines, n);
    sbx_buf_add(now, f->stored.p, f->stored.len);
    return true;
}

static void fake_free(void *ctx)
{
    ((struct fake *)ctx)->freed = true;
}

/* Waits until no send is in flight (the worker took what was queued). */
static void settle(struct sbx_outbox *o)
{
    while (sbx_outbox_sending(o))
        ;
}

static const struct {
    const char *refuse; /* the store's answers, send by send */
    size_t lines;       /* queued one by one, each after the last send ended */
    const char *stored; /* what the store holds after finishing */
    size_t unsent;      /* lines finish gives back */
    size_t sends;
} cases[] = {
    {"", 3, "1\n2\n3\n", 0, 3},
    {"x", 3, "1\n2\n3\n", 0, 3},    /* refused once: 1 goes with 2 */
    {"xx", 3, "1\n2\n3\n", 0, 3},   /* 1 and 2 go with 3 */
    {"xxx", 3, "1\n2\n3\n", 0, 4},  /* all go when quitting */
    {"xxxx", 3, "", 3, 4},          /* refused to the end: all given back */
    {".x.", 3, "1\n2\n3\n", 0, 3},
    {"..xx", 3, "1\n2\n", 1, 4},    /* the last refused twice: it is given back */
    {"", 0, "", 0, 0},              /* nothing queued: nothing sent */
};

static void run_case(size_t i, bool background)
{
    struct fake f = {.refuse = cases[i].refuse};
    struct sbx_review_sender s = {fake_send, fake_free, &f};
    struct sbx_outbox *o = sbx_outbox_new(&s, background, false);
    for (size_t l = 1; l <= cases[i].lines; l++) {
        char line[16];
        int n = snprintf(line, sizeof line, "%zu\n", l);
        sbx_outbox_add(o, line, (size_t)n);
        settle(o);
        assert_true(sbx_outbox_has_news(o)); /* the program wakes to show it */
        struct sbx_outbox_news news;
        assert_true(sbx_outbox_poll(o, &news));
        assert_false(sbx_outbox_has_news(o));
        if (news.failed) {
            assert_non_null(strstr(news.err, "AccessDenied"));
            assert_int_equal(news.queued, l - f.stored.len / 2);
        }
    }
    size_t n;
    char err[512];
    const char *left = sbx_outbox_finish(o, &n, err, sizeof err);
    char got[64];
    snprintf(got, sizeof got, "%.*s", (int)f.stored.len, f.stored.p ? f.stored.p : "");
    assert_string_equal(got, cases[i].stored);
    assert_int_equal(f.sends, cases[i].sends);
    size_t lines = 0;
    for (size_t k = 0; k < n; k++)
        lines += left[k] == '\n';
    assert_int_equal(lines, cases[i].unsent);
    assert_true(cases[i].unsent ? strstr(err, "AccessDenied") != NULL : err[0] == '\0');
    if (cases[i].unsent) /* the lines given back are the last ones queued, whole */
        assert_int_equal(left[n - 1], '\n');
    sbx_outbox_free(o);
    assert_true(f.freed);
    sbx_buf_free(&f.stored);
}

static void each_answer_in_turn(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_case(i, true);
        run_case(i, false);
    }
}

/* Lines queued while a send is in flight wait for the next send: none is
 * lost and the order holds. */
struct slow {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool go;
    struct sbx_buf stored;
    size_t sends;
};

static bool slow_send(void *ctx, const char *lines, size_t n, struct sbx_buf *now, char *err,
                      size_t errsz)
{
    (void)now;
    (void)err;
    (void)errsz;
    struct slow *s = ctx;
    pthread_mutex_lock(&s->mu);
    while (!s->go)
        pthread_cond_wait(&s->cv, &s->mu);
    sbx_buf_add(&s->stored, lines, n);
    s->sends++;
    pthread_mutex_unlock(&s->mu);
    return true;
}

static void lines_while_sending(void **state)
{
    (void)state;
    struct slow s = {.go = false};
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    struct sbx_review_sender snd = {slow_send, NULL, &s};
    struct sbx_outbox *o = sbx_outbox_new(&snd, true, false);
    sbx_outbox_add(o, "a\n", 2); /* the worker takes it and waits in the store */
    sbx_outbox_add(o, "b\n", 2);
    sbx_outbox_add(o, "c\n", 2);
    assert_true(sbx_outbox_sending(o)); /* the adds came back at once */
    pthread_mutex_lock(&s.mu);
    s.go = true;
    pthread_cond_broadcast(&s.cv);
    pthread_mutex_unlock(&s.mu);
    size_t n;
    char err[64];
    assert_null(sbx_outbox_finish(o, &n, err, sizeof err));
    assert_int_equal(n, 0);
    assert_int_equal(s.stored.len, 6);
    assert_memory_equal(s.stored.p, "a\nb\nc\n", 6);
    assert_true(s.sends >= 1 && s.sends <= 3);
    sbx_outbox_free(o);
    sbx_buf_free(&s.stored);
    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
}

/* read_first: the review is read before anything is sent, and every send
 * brings it back as the store holds it; a refused one brings nothing, and
 * the lines still queued come with the review taken. */
struct store {
    struct sbx_buf held;
    bool refuse;
    size_t reads;
};

static bool store_send(void *ctx, const char *lines, size_t n, struct sbx_buf *now, char *err,
                       size_t errsz)
{
    struct store *s = ctx;
    if (s->refuse) {
        snprintf(err, errsz, "503 SlowDown");
        return false;
    }
    s->reads += n == 0;
    sbx_buf_add(&s->held, lines, n);
    sbx_buf_add(now, s->held.p ? s->held.p : "", s->held.len);
    return true;
}

static void the_review_read_back(void **state)
{
    (void)state;
    for (int background = 0; background < 2; background++) {
        struct store s = {.held = SBX_BUF_INIT};
        sbx_buf_adds(&s.held, "theirs\n");
        struct sbx_review_sender snd = {store_send, NULL, &s};
        struct sbx_outbox *o = sbx_outbox_new(&snd, background, true);
        settle(o);
        struct sbx_buf review = SBX_BUF_INIT, queued = SBX_BUF_INIT;
        assert_true(sbx_outbox_take_review(o, &review, &queued));
        assert_int_equal(s.reads, 1);
        assert_int_equal(review.len, 7);
        assert_memory_equal(review.p, "theirs\n", 7);
        assert_int_equal(queued.len, 0);
        assert_false(sbx_outbox_take_review(o, &review, &queued)); /* nothing newer */
        s.refuse = true;
        sbx_outbox_add(o, "mine\n", 5);
        settle(o);
        assert_false(sbx_outbox_take_review(o, &review, &queued));
        sbx_buf_adds(&s.held, "more of theirs\n");
        s.refuse = false;
        sbx_outbox_add(o, "mine again\n", 11);
        settle(o);
        assert_true(sbx_outbox_take_review(o, &review, &queued));
        const char *want = "theirs\nmore of theirs\nmine\nmine again\n";
        assert_int_equal(review.len, strlen(want));
        assert_memory_equal(review.p, want, review.len);
        assert_int_equal(queued.len, 0);
        assert_int_equal(s.reads, 1); /* the writes read it themselves */
        size_t n;
        char err[64];
        assert_null(sbx_outbox_finish(o, &n, err, sizeof err));
        sbx_outbox_free(o);
        sbx_buf_free(&review);
        sbx_buf_free(&queued);
        sbx_buf_free(&s.held);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_answer_in_turn),
        cmocka_unit_test(lines_while_sending),
        cmocka_unit_test(the_review_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
