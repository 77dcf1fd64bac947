/* The clock skew against a real run: tests/fixtures/runtime-run with every
 * Runtime time moved by a table of offsets (sub-second to 15 minutes, either
 * way) reads as the run does unshifted: the same commands outside the
 * wrapper at the same places on the wrapper's clock, the same counts, and
 * the offset reported within 50 ms. Then the estimator itself
 * (analyses/skew.h): an alignment that is not the nearest start, and ties. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/skew.h"
#include "analyses/summary.h"
#include "importers/load.h"
#include "fixture.h"

static const int64_t MS = 1000000;

struct loaded {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

/* The fixture run with Runtime's own times moved by shift_ms (as a provider
 * clock that far ahead would have written them), summarised. */
static struct loaded *load_shifted(int64_t shift_ms)
{
    struct loaded *l = calloc(1, sizeof *l);
    sbx_timeline_init(&l->tl);
    const char *paths[] = {"tests/fixtures/runtime-run"};
    struct sbx_load_report rep = {0};
    assert_true(sbx_load_paths(&l->tl, paths, 1, NULL, &rep) > 0);
    sbx_load_report_free(&rep);
    for (size_t i = 0; i < l->tl.n; i++) {
        struct sbx_event *e = sbx_tl_at(&l->tl, i);
        if (strncmp(l->tl.sources[e->source].format, "runtime-", 8) != 0)
            continue;
        if (e->start != SBX_TIME_UNKNOWN)
            e->start += shift_ms * MS;
        if (e->end != SBX_TIME_UNKNOWN)
            e->end += shift_ms * MS;
    }
    sbx_timeline_resort(&l->tl);
    char err[160];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&l->tl, &so, &l->sum, err, sizeof err));
    return l;
}

static void drop(struct loaded *l)
{
    sbx_summary_free(&l->sum);
    sbx_timeline_free(&l->tl);
    free(l);
}

static int64_t dist(int64_t a, int64_t b)
{
    return a > b ? a - b : b - a;
}

static void shifted_runtime_reads_the_same(void **state)
{
    (void)state;
    static const int64_t shifts_ms[] = {2500,   45000,   -90000, 300,    -300,   -1700, 1999,
                                        -2001,  5000,    -12345, 59999,  -299000, 600000,
                                        -600000, 899000, -899000, 900000, -900000};
    struct loaded *base = load_shifted(0);
    const struct sbx_crosscheck *b = &base->sum.cross;
    assert_int_equal(b->skew.how, SBX_SKEW_MEASURED);
    assert_int_equal(b->noutside, 1);       /* the unread sleep */
    assert_int_equal(base->sum.ngaps, 1);   /* the curl between lines 3 and 4 */
    for (size_t k = 0; k < sizeof shifts_ms / sizeof *shifts_ms; k++) {
        struct loaded *l = load_shifted(shifts_ms[k]);
        const struct sbx_crosscheck *x = &l->sum.cross;
        if (x->skew.how != SBX_SKEW_MEASURED || dist(x->skew_ns, b->skew_ns + shifts_ms[k] * MS) > 50 * MS)
            fail_msg("shifted %lld ms: skew %lld ms (how %d), want %lld within 50", (long long)shifts_ms[k],
                     (long long)(x->skew_ns / MS), x->skew.how,
                     (long long)((b->skew_ns + shifts_ms[k] * MS) / MS));
        if (x->npairs != b->npairs || x->noutside != b->noutside || l->sum.ngaps != base->sum.ngaps ||
            x->nmissing != b->nmissing ||
            x->nexit_mismatch != b->nexit_mismatch || x->older_than_record != b->older_than_record)
            fail_msg("shifted %lld ms: %zu pairs, %zu outside, %zu missing; unshifted %zu, %zu, %zu",
                     (long long)shifts_ms[k], x->npairs, x->noutside, x->nmissing, b->npairs,
                     b->noutside, b->nmissing);
        for (size_t i = 0; i < x->noutside; i++) {
            assert_int_equal(x->outside[i]->u.cmd.program, b->outside[i]->u.cmd.program);
            assert_true(dist(x->outside[i]->start, b->outside[i]->start) <= 50 * MS);
        }
        /* the same counts, and the run on the wrapper's clock */
        assert_int_equal(l->sum.commands, base->sum.commands);
        assert_int_equal(l->sum.failed, base->sum.failed);
        assert_int_equal(l->sum.lifecycle, base->sum.lifecycle);
        assert_int_equal(l->sum.naccount, base->sum.naccount);
        assert_int_equal(l->sum.metrics, base->sum.metrics);
        assert_true(dist(l->sum.start, base->sum.start) <= 50 * MS);
        assert_true(dist(l->sum.end, base->sum.end) <= 50 * MS);
        /* the timeline in the same order: an outside command between the
         * wrapper commands it ran between */
        for (size_t i = 0; i < l->tl.n; i++)
            if (sbx_ev_line_no(sbx_tl_at(&l->tl, i)) != sbx_ev_line_no(sbx_tl_at(&base->tl, i)) ||
                strcmp(l->tl.sources[sbx_tl_at(&l->tl, i)->source].path,
                       base->tl.sources[sbx_tl_at(&base->tl, i)->source].path) != 0)
                fail_msg("shifted %lld ms: event %zu of the timeline differs", (long long)shifts_ms[k], i);
        drop(l);
    }
    drop(base);
}

/* Three commands a second apart and their records 1 s later each: the
 * nearest start would pair each record with the next command; in order,
 * program by program, the offset is +1000 ms. */
static void alignment_beats_nearest_start(void **state)
{
    (void)state;
    /* a: ls(0) cat(1) id(2); b: ls(0) cat(1) id(2); starts 0, 1000, 2000 and 1000, 2000, 3000 */
    struct sbx_skew_pair p[] = {{0, 0, 1000 * MS}, {1, 1, 1000 * MS}, {2, 2, 1000 * MS}};
    struct sbx_skew s;
    sbx_skew_estimate(p, 3, 3, 3, &s);
    assert_int_equal(s.how, SBX_SKEW_MEASURED);
    assert_int_equal(s.ns, 1000 * MS);
    assert_int_equal(s.pairs, 3);
    assert_int_equal(s.spread_ns, 0);
}

/* Repeated programs: every ls pairs with every ls record; only one offset
 * lets each command pair once, and it wins over the others' crowds. */
static void repeated_programs(void **state)
{
    (void)state;
    struct sbx_skew_pair p[64];
    size_t n = 0;
    for (uint32_t a = 0; a < 6; a++)
        for (uint32_t b = 0; b < 6; b++) /* a at a s, b at b s + 45.2 s */
            p[n++] = (struct sbx_skew_pair){a, b, ((int64_t)b * 1000 + 45200 - (int64_t)a * 1000) * MS};
    struct sbx_skew s;
    sbx_skew_estimate(p, n, 6, 6, &s);
    assert_int_equal(s.how, SBX_SKEW_MEASURED);
    assert_int_equal(s.ns, 45200 * MS);
    assert_int_equal(s.pairs, 6);
}

/* Few pairs: uncertain below 3 (unless they are the whole smaller side) and
 * below half of the smaller side; none at all is uncertain too. */
/* More candidate pairs than the estimator takes (SBX_SKEW_MAX_PAIRS): every
 * k-th wrapper command is used, numbered among those taken, and the offset
 * is still found (under ASan, a command numbered among all would write past
 * the estimator's marks). */
static void many_candidates_are_thinned(void **state)
{
    (void)state;
    enum { N = 1100 }; /* N x N candidates, all within the wide window */
    assert_true((size_t)N * N > SBX_SKEW_MAX_PAIRS);
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    const int64_t t0 = INT64_C(1780000000) * 1000 * MS;
    for (int i = 0; i < N; i++) {
        fixture_command(&fx, "sb1", t0 + (int64_t)i * 1000 * MS, 5, "ls", 0);
        fixture_record(&fx, "sb1", t0 + ((int64_t)i * 1000 + 30250) * MS, "ls", 0, 0);
    }
    fixture_finish(&fx);
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(&fx.tl, NULL, &sum, err, sizeof err));
    const struct sbx_skew *k = &sum.cross.skew;
    assert_int_equal(k->how, SBX_SKEW_MEASURED);
    assert_true(dist(k->ns, 30250 * MS) <= 50 * MS);
    sbx_summary_free(&sum);
    fixture_free(&fx);
}

static void few_pairs_are_uncertain(void **state)
{
    (void)state;
    static const struct {
        size_t agree, na, nb;
        enum sbx_skew_how how;
    } cases[] = {
        {1, 1, 5, SBX_SKEW_MEASURED},  {1, 2, 2, SBX_SKEW_UNCERTAIN}, {2, 2, 9, SBX_SKEW_MEASURED},
        {2, 5, 5, SBX_SKEW_UNCERTAIN}, {3, 5, 5, SBX_SKEW_MEASURED},  {3, 7, 8, SBX_SKEW_UNCERTAIN},
        {4, 7, 8, SBX_SKEW_MEASURED},  {0, 3, 3, SBX_SKEW_UNCERTAIN}, {0, 0, 3, SBX_SKEW_NONE},
        {2, 3, 3, SBX_SKEW_UNCERTAIN}, {3, 3, 3, SBX_SKEW_MEASURED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sbx_skew_pair p[16];
        for (uint32_t k = 0; k < cases[i].agree; k++)
            p[k] = (struct sbx_skew_pair){k, k, 7000 * MS};
        struct sbx_skew s;
        sbx_skew_estimate(p, cases[i].agree, cases[i].na, cases[i].nb, &s);
        if (s.how != cases[i].how)
            fail_msg("%zu agreeing of %zu and %zu: how %d, want %d", cases[i].agree, cases[i].na,
                     cases[i].nb, s.how, cases[i].how);
    }
}

/* Pairs 400 ms and 600 ms off the others: within the tolerance they count
 * and widen the spread; past it they do not. */
static void tolerance_edge(void **state)
{
    (void)state;
    struct sbx_skew_pair p[] = {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}, {3, 3, 500 * MS}, {4, 4, 501 * MS}};
    struct sbx_skew s;
    sbx_skew_estimate(p, 5, 5, 5, &s);
    assert_int_equal(s.ns, 0);
    assert_int_equal(s.pairs, 4);
    assert_int_equal(s.spread_ns, 500 * MS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shifted_runtime_reads_the_same),
        cmocka_unit_test(alignment_beats_nearest_start),
        cmocka_unit_test(repeated_programs),
        cmocka_unit_test(many_candidates_are_thinned),
        cmocka_unit_test(few_pairs_are_uncertain),
        cmocka_unit_test(tolerance_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
