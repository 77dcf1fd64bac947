/* Tests for analyses/cmdlink: a proxy request (or any event) linked to the
 * command running in its sandbox at that moment: inside, at both edges,
 * between commands, nested commands, no sandbox with one and with two
 * sandboxes in the run, unknown times and ends, a wrapper command before a
 * provider record; the commands before an event; the one that ended just
 * before; the index agreeing with the scan on random runs; and its order
 * by end kept only for commands that ended out of order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/cmdlink.h"
#include "tests/unit/fixture.h"

#define S(x) ((int64_t)(x) * 1000000000LL)

/* The events: commands with a start and an end, requests at a moment. */
static struct sbx_event *cmd(struct fixture *r, const char *sandbox, int64_t start, int64_t end)
{
    return fixture_event(r, SBX_EV_COMMAND, sandbox, start, end);
}

static struct sbx_event *req(struct fixture *r, const char *sandbox, int64_t start)
{
    return fixture_request(r, sandbox, start, NULL);
}

/* The scan and the index must give the same answer: both are checked. */
static const struct sbx_event *during(const struct fixture *r, const struct sbx_event *e)
{
    struct sbx_cmdindex *ix = sbx_cmdindex_new(&r->tl);
    const struct sbx_event *a = sbx_command_during(&r->tl, e), *b = sbx_cmdindex_during(ix, e);
    sbx_cmdindex_free(ix);
    assert_ptr_equal(a, b);
    return a;
}

static void inside_edges_and_between(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *c1 = cmd(&r, "s1", S(10), S(20));
    struct sbx_event *c2 = cmd(&r, "s1", S(30), S(40));
    struct sbx_event *in = req(&r, NULL, S(15));
    struct sbx_event *at_start = req(&r, NULL, S(30));
    struct sbx_event *at_end = req(&r, NULL, S(20));
    struct sbx_event *between = req(&r, NULL, S(25));
    struct sbx_event *before = req(&r, NULL, S(5));
    struct sbx_event *after = req(&r, NULL, S(41));
    fixture_finish(&r);
    assert_int_equal(sbx_only_sandbox(&r.tl), fixture_id(&r, "s1"));
    assert_ptr_equal(during(&r, in), c1);
    assert_ptr_equal(during(&r, at_start), c2);
    assert_ptr_equal(during(&r, at_end), c1);
    assert_null(during(&r, between));
    assert_null(during(&r, before));
    assert_null(during(&r, after));
    fixture_free(&r);
}

static void nested_takes_the_innermost(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *outer = cmd(&r, "s1", S(0), S(100));
    struct sbx_event *inner = cmd(&r, "s1", S(10), S(20));
    struct sbx_event *r1 = req(&r, "s1", S(12));
    struct sbx_event *r2 = req(&r, "s1", S(50));
    fixture_finish(&r);
    assert_ptr_equal(during(&r, r1), inner);
    assert_ptr_equal(during(&r, r2), outer); /* the inner one ended: the outer still runs */
    fixture_free(&r);
}

static void sandboxes_decide(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *a = cmd(&r, "s1", S(10), S(20));
    struct sbx_event *b = cmd(&r, "s2", S(10), S(20));
    struct sbx_event *in_a = req(&r, "s1", S(15));
    struct sbx_event *in_b = req(&r, "s2", S(15));
    struct sbx_event *none = req(&r, NULL, S(15)); /* two sandboxes: which one is unknown */
    struct sbx_event *other = req(&r, "s3", S(15));
    fixture_finish(&r);
    assert_int_equal(sbx_only_sandbox(&r.tl), 0);
    assert_ptr_equal(during(&r, in_a), a);
    assert_ptr_equal(during(&r, in_b), b);
    assert_null(during(&r, none));
    assert_null(during(&r, other));
    fixture_free(&r);
}

static void audit_entries_are_not_a_sandbox(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *c = cmd(&r, "s1", S(10), S(20));
    struct sbx_event *audit = req(&r, "s9", S(1));
    audit->kind = SBX_EV_AUDIT;
    struct sbx_event *q = req(&r, NULL, S(11));
    fixture_finish(&r);
    assert_int_equal(sbx_only_sandbox(&r.tl), fixture_id(&r, "s1"));
    assert_ptr_equal(during(&r, q), c);
    fixture_free(&r);
}

static void unknown_times(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *open_end = cmd(&r, "s1", S(10), SBX_TIME_UNKNOWN);
    cmd(&r, "s1", SBX_TIME_UNKNOWN, SBX_TIME_UNKNOWN);
    struct sbx_event *at = req(&r, NULL, S(10));
    struct sbx_event *later = req(&r, NULL, S(11));
    struct sbx_event *unknown = req(&r, NULL, SBX_TIME_UNKNOWN);
    struct sbx_event *by_end = req(&r, NULL, SBX_TIME_UNKNOWN);
    by_end->end = S(10); /* a start unknown: its end is its time */
    fixture_finish(&r);
    assert_ptr_equal(during(&r, at), open_end); /* an unknown end counts as the start */
    assert_null(during(&r, later));
    assert_null(during(&r, unknown));
    assert_ptr_equal(during(&r, by_end), open_end);
    fixture_free(&r);
}

static void wrapper_before_record(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *wrapper = cmd(&r, "s1", S(10), S(20));
    struct sbx_event *record = cmd(&r, "s1", S(11), S(19));
    record->u.cmd.flags = SBX_CMD_RECORD;
    struct sbx_event *only_record = cmd(&r, "s1", S(30), S(40));
    only_record->u.cmd.flags = SBX_CMD_RECORD;
    struct sbx_event *q1 = req(&r, NULL, S(15));
    struct sbx_event *q2 = req(&r, NULL, S(35));
    fixture_finish(&r);
    assert_ptr_equal(during(&r, q1), wrapper); /* the record started later, but is a record */
    assert_ptr_equal(during(&r, q2), only_record);
    fixture_free(&r);
}

static void a_command_is_not_during_itself(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *outer = cmd(&r, "s1", S(0), S(100));
    struct sbx_event *inner = cmd(&r, "s1", S(10), S(20));
    fixture_finish(&r);
    assert_ptr_equal(during(&r, inner), outer);
    assert_null(during(&r, outer));
    fixture_free(&r);
}

static const struct sbx_event *ended_before(const struct fixture *r, const struct sbx_event *e)
{
    struct sbx_cmdindex *ix = sbx_cmdindex_new(&r->tl);
    const struct sbx_event *b = sbx_cmdindex_ended_before(ix, e);
    sbx_cmdindex_free(ix);
    return b;
}

/* The command that ended last before a moment: not one still running, not
 * another sandbox's, a wrapper command before a record. */
static void ended_just_before(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *long_one = cmd(&r, "s1", S(0), S(50));
    struct sbx_event *c1 = cmd(&r, "s1", S(10), S(20));
    struct sbx_event *c2 = cmd(&r, "s1", S(22), S(24));
    cmd(&r, "s2", S(25), S(26));
    struct sbx_event *rec = cmd(&r, "s1", S(27), S(28));
    rec->u.cmd.flags = SBX_CMD_RECORD;
    struct sbx_event *early = req(&r, "s1", S(5));
    struct sbx_event *mid = req(&r, "s1", S(21));
    struct sbx_event *later = req(&r, "s1", S(30));
    struct sbx_event *at_end = req(&r, "s1", S(24));
    struct sbx_event *last = req(&r, "s1", S(60));
    struct sbx_event *none = req(&r, "s3", S(60));
    fixture_finish(&r);
    assert_null(ended_before(&r, early));
    assert_ptr_equal(ended_before(&r, mid), c1);
    assert_ptr_equal(ended_before(&r, later), c2); /* not s2's, not the record */
    assert_ptr_equal(ended_before(&r, at_end), c1); /* ending at the moment is running then */
    assert_ptr_equal(ended_before(&r, last), long_one);
    assert_null(ended_before(&r, none));
    assert_ptr_equal(ended_before(&r, c2), c1); /* a command: not itself */
    fixture_free(&r);
}

/* ended_before against a scan of every command: the latest end before t in
 * e's sandbox, wrapper commands first (ends that tie may pick either). */
static void check_ended_before(const struct fixture *r, const struct sbx_cmdindex *ix,
                               const struct sbx_event *e)
{
    int64_t t = e->start != SBX_TIME_UNKNOWN ? e->start : e->end;
    uint32_t sb = e->sandbox ? e->sandbox : sbx_only_sandbox(&r->tl);
    const struct sbx_event *b = sbx_cmdindex_ended_before(ix, e);
    int64_t best[2] = {INT64_MIN, INT64_MIN};
    for (size_t i = 0; t != SBX_TIME_UNKNOWN && sb && i < r->tl.n; i++) {
        const struct sbx_event *c = sbx_tl_at(&r->tl, i);
        if (c == e || c->kind != SBX_EV_COMMAND || c->start == SBX_TIME_UNKNOWN || c->sandbox != sb)
            continue;
        int64_t end = c->end != SBX_TIME_UNKNOWN && c->end > c->start ? c->end : c->start;
        int k = !!(c->u.cmd.flags & SBX_CMD_RECORD);
        if (end < t && end > best[k])
            best[k] = end;
    }
    int k = best[0] != INT64_MIN ? 0 : 1;
    if (best[k] == INT64_MIN) {
        assert_null(b);
        return;
    }
    assert_non_null(b);
    int64_t end = b->end != SBX_TIME_UNKNOWN && b->end > b->start ? b->end : b->start;
    assert_true(end == best[k]);
    assert_int_equal(!!(b->u.cmd.flags & SBX_CMD_RECORD), k);
}

/* sbx_cmdindex_running against a scan of every command: all those running
 * at t in e's sandbox (the wrapper's, else the records), e aside, by start
 * then timeline order; the last of them is sbx_command_during's. */
static void check_running(const struct fixture *r, const struct sbx_cmdindex *ix,
                          const struct sbx_event *e)
{
    int64_t t = e->start != SBX_TIME_UNKNOWN ? e->start : e->end;
    uint32_t sb = e->sandbox ? e->sandbox : sbx_only_sandbox(&r->tl);
    const struct sbx_event *want[2][400];
    size_t nwant[2] = {0, 0};
    for (size_t i = 0; t != SBX_TIME_UNKNOWN && sb && i < r->tl.n; i++) {
        const struct sbx_event *c = sbx_tl_at(&r->tl, i);
        if (c == e || c->kind != SBX_EV_COMMAND || c->start == SBX_TIME_UNKNOWN || c->sandbox != sb)
            continue;
        int64_t end = c->end != SBX_TIME_UNKNOWN && c->end > c->start ? c->end : c->start;
        int k = !!(c->u.cmd.flags & SBX_CMD_RECORD);
        if (c->start <= t && t <= end)
            want[k][nwant[k]++] = c;
    }
    int k = nwant[0] ? 0 : 1;
    const struct sbx_event *got[400];
    size_t n = sbx_cmdindex_running(ix, e, got, 400);
    assert_int_equal(n, nwant[k]);
    for (size_t i = 0; i < n; i++)
        assert_ptr_equal(got[i], want[k][i]);
    assert_ptr_equal(n ? got[n - 1] : NULL, sbx_cmdindex_during(ix, e));
    /* a bound keeps the outermost and still counts them all */
    const struct sbx_event *two[2];
    assert_int_equal(sbx_cmdindex_running(ix, e, two, 2), n);
    for (size_t i = 0; i < n && i < 2; i++)
        assert_ptr_equal(two[i], want[k][i]);
}

/* Every command running then, outermost first: nested three deep, at a
 * command's start and at its end, between two, another sandbox's not, a
 * command itself not among them, the records only when no wrapper command
 * runs. */
static void running_outermost_first(void **state)
{
    (void)state;
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    struct sbx_event *outer = cmd(&r, "s1", S(0), S(100));
    struct sbx_event *mid = cmd(&r, "s1", S(10), S(50));
    struct sbx_event *inner = cmd(&r, "s1", S(20), S(30));
    struct sbx_event *later = cmd(&r, "s1", S(60), S(70));
    cmd(&r, "s2", S(0), S(100));
    struct sbx_event *rec = cmd(&r, "s1", S(110), S(120));
    rec->u.cmd.flags = SBX_CMD_RECORD;
    struct sbx_event *rec_in = cmd(&r, "s1", S(25), S(26));
    rec_in->u.cmd.flags = SBX_CMD_RECORD;
    struct sbx_event *q_inner = req(&r, "s1", S(25));
    struct sbx_event *q_at_start = req(&r, "s1", S(20));
    struct sbx_event *q_at_end = req(&r, "s1", S(30));
    struct sbx_event *q_between = req(&r, "s1", S(55));
    struct sbx_event *q_rec = req(&r, "s1", S(115));
    struct sbx_event *q_none = req(&r, "s1", S(105));
    struct sbx_event *q_s3 = req(&r, "s3", S(25));
    fixture_finish(&r);
    struct sbx_cmdindex *ix = sbx_cmdindex_new(&r.tl);
    const struct sbx_event *got[8];
    assert_int_equal(sbx_cmdindex_running(ix, q_inner, got, 8), 3);
    assert_ptr_equal(got[0], outer);
    assert_ptr_equal(got[1], mid);
    assert_ptr_equal(got[2], inner); /* the record running too is not among them */
    assert_int_equal(sbx_cmdindex_running(ix, q_at_start, got, 8), 3);
    assert_ptr_equal(got[2], inner);
    assert_int_equal(sbx_cmdindex_running(ix, q_at_end, got, 8), 3);
    assert_ptr_equal(got[2], inner);
    assert_int_equal(sbx_cmdindex_running(ix, q_between, got, 8), 1);
    assert_ptr_equal(got[0], outer);
    assert_int_equal(sbx_cmdindex_running(ix, inner, got, 8), 2); /* not itself */
    assert_ptr_equal(got[1], mid);
    assert_int_equal(sbx_cmdindex_running(ix, later, got, 8), 1);
    assert_int_equal(sbx_cmdindex_running(ix, q_rec, got, 8), 1);
    assert_ptr_equal(got[0], rec);
    assert_int_equal(sbx_cmdindex_running(ix, q_none, got, 8), 0);
    assert_int_equal(sbx_cmdindex_running(ix, q_s3, got, 8), 0);
    assert_int_equal(sbx_cmdindex_running(ix, q_inner, got, 1), 3); /* bounded: counted whole */
    assert_ptr_equal(got[0], outer);
    sbx_cmdindex_free(ix);
    fixture_free(&r);
}

/* Random runs: the index agrees with the scan for every event. */
static void index_agrees_with_scan(void **state)
{
    (void)state;
    srand(7);
    static const char *const sandboxes[] = {NULL, "a", "b"};
    size_t linked = 0;
    for (int round = 0; round < 60; round++) {
        struct fixture r;
        fixture_init(&r, "made.jsonl");
        int nsb = 1 + round % 2; /* one sandbox, then two */
        int n = 5 + rand() % 300;
        for (int i = 0; i < n; i++) {
            /* one rand() per statement: the order of calls is the same in every build */
            int64_t s = rand() % 10 == 0 ? SBX_TIME_UNKNOWN : 0;
            if (s != SBX_TIME_UNKNOWN)
                s = S(rand() % 200);
            int64_t e = rand() % 8 == 0 ? SBX_TIME_UNKNOWN : 0;
            int span = rand() % 4 ? 5 : 80;
            if (e != SBX_TIME_UNKNOWN)
                e = s == SBX_TIME_UNKNOWN ? S(rand() % 200) : s + S(rand() % span);
            const char *sb = sandboxes[1 + rand() % nsb];
            if (rand() % 3) {
                struct sbx_event *c = cmd(&r, sb, s, e);
                if (rand() % 4 == 0)
                    c->u.cmd.flags = SBX_CMD_RECORD;
            } else {
                struct sbx_event *q = req(&r, rand() % 2 ? NULL : sb, s);
                if (s == SBX_TIME_UNKNOWN)
                    q->end = e;
            }
        }
        fixture_finish(&r);
        struct sbx_cmdindex *ix = sbx_cmdindex_new(&r.tl);
        for (size_t i = 0; i < r.tl.n; i++) {
            const struct sbx_event *e = sbx_tl_at(&r.tl, i);
            const struct sbx_event *a = sbx_command_during(&r.tl, e);
            assert_ptr_equal(a, sbx_cmdindex_during(ix, e));
            check_ended_before(&r, ix, e);
            check_running(&r, ix, e);
            if (a) {
                int64_t t = e->start != SBX_TIME_UNKNOWN ? e->start : e->end;
                assert_true(a->start <= t);
                linked++;
            }
        }
        sbx_cmdindex_free(ix);
        fixture_free(&r);
    }
    assert_true(linked > 100); /* the runs did link: the comparison was not empty */
}

/* Commands (start, end in seconds; -1 for an unknown end) of one sandbox,
 * and whether they end in the order they start (ties counted as in order). */
struct end_shape {
    const char *name;
    int n;
    int start[8], end[8];
    bool in_order;
};

static const struct end_shape end_shapes[] = {
    {"one after another", 4, {0, 10, 20, 30}, {5, 15, 25, 35}, true},
    {"overlapping, in order", 4, {0, 3, 6, 9}, {10, 12, 14, 16}, true},
    {"ends that tie", 4, {0, 2, 4, 6}, {10, 10, 10, 12}, true},
    {"starts and ends that tie", 3, {0, 0, 0}, {7, 7, 7}, true},
    {"unknown ends at their starts", 3, {0, 5, 9}, {-1, -1, 20}, true},
    {"nested: the outer ends last", 3, {0, 10, 20}, {100, 50, 30}, false},
    {"one ends before an earlier one", 4, {0, 10, 20, 30}, {15, 40, 25, 45}, false},
    {"an unknown end before an earlier end", 3, {0, 5, 9}, {20, -1, 30}, false},
};

/* The bytes the index of n commands run one after another keeps. */
static size_t sequential_bytes(int n)
{
    struct fixture r;
    fixture_init(&r, "made.jsonl");
    for (int i = 0; i < n; i++)
        cmd(&r, "s1", S(100 * i), S(100 * i + 1));
    fixture_finish(&r);
    struct sbx_cmdindex *ix = sbx_cmdindex_new(&r.tl);
    size_t b = sbx_cmdindex_bytes(ix);
    sbx_cmdindex_free(ix);
    fixture_free(&r);
    return b;
}

/* The index by end answers the same whether it is kept (commands ended
 * out of order) or left out (ev's own order is by end): ended_before and
 * running against the scans, at every moment of the run and at each
 * command; a run ended in order keeps fewer bytes than one that did not. */
static void order_by_end_kept_only_when_needed(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof end_shapes / sizeof *end_shapes; s++) {
        const struct end_shape *sh = &end_shapes[s];
        struct fixture r;
        fixture_init(&r, "made.jsonl");
        struct sbx_event *c[8];
        for (int i = 0; i < sh->n; i++)
            c[i] = cmd(&r, "s1", S(sh->start[i]), sh->end[i] < 0 ? SBX_TIME_UNKNOWN : S(sh->end[i]));
        struct sbx_event *q[2 * 120 + 1];
        for (int t = 0; t <= 2 * 120; t++)
            q[t] = req(&r, NULL, S(t) / 2);
        fixture_finish(&r);
        struct sbx_cmdindex *ix = sbx_cmdindex_new(&r.tl);
        for (int t = 0; t <= 2 * 120; t++) {
            check_ended_before(&r, ix, q[t]);
            check_running(&r, ix, q[t]);
        }
        for (int i = 0; i < sh->n; i++) {
            check_ended_before(&r, ix, c[i]);
            check_running(&r, ix, c[i]);
        }
        size_t b = sbx_cmdindex_bytes(ix), in_order = sequential_bytes(sh->n);
        if (sh->in_order)
            assert_int_equal(b, in_order);
        else
            assert_true(b > in_order);
        sbx_cmdindex_free(ix);
        fixture_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inside_edges_and_between),
        cmocka_unit_test(nested_takes_the_innermost),
        cmocka_unit_test(sandboxes_decide),
        cmocka_unit_test(audit_entries_are_not_a_sandbox),
        cmocka_unit_test(unknown_times),
        cmocka_unit_test(wrapper_before_record),
        cmocka_unit_test(a_command_is_not_during_itself),
        cmocka_unit_test(ended_just_before),
        cmocka_unit_test(running_outermost_first),
        cmocka_unit_test(index_agrees_with_scan),
        cmocka_unit_test(order_by_end_kept_only_when_needed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
