/* The cross-check of the wrapper's log against the provider's command
 * record (docs/formats/runtime.md, "Cross-check"): matching by sandbox, time, program and exit;
 * the closest start wins ties; the skew measured and used; commands outside
 * the wrapper, missing from the record or older than it; exit mismatches;
 * background records. The events are made here (tests/unit/fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/crosscheck.h"
#include "analyses/summary.h"
#include "tests/unit/fixture.h"

static const int64_t T0 = 1764405000LL * 1000000000LL; /* a start for every test */
static const int64_t MS = 1000000;

struct run {
    struct fixture fx;
    struct sbx_summary sum;
};

/* A wrapper command: ends at T0 + end_ms, ran ms. */
static void wrapper(struct run *r, const char *sandbox, int64_t end_ms, int ms, const char *cmd, int exit)
{
    fixture_command(&r->fx, sandbox, T0 + (end_ms - ms) * MS, ms, cmd, exit);
}

/* A record in the provider's command record, starting at T0 + start_ms. */
static void record(struct run *r, const char *sandbox, int64_t start_ms, const char *program,
                   int exit, unsigned state_flags)
{
    fixture_record(&r->fx, sandbox, T0 + start_ms * MS, program, exit, state_flags);
}

static struct run *start(void)
{
    struct run *r = calloc(1, sizeof *r);
    fixture_init(&r->fx, "agent-run.jsonl");
    return r;
}

/* Sorts the events and analyses. */
static void finish(struct run *r)
{
    fixture_finish(&r->fx);
    char err[160];
    assert_true(sbx_summarize(&r->fx.tl, NULL, &r->sum, err, sizeof err));
}

static void done(struct run *r)
{
    sbx_summary_free(&r->sum);
    fixture_free(&r->fx);
    free(r);
}

/* A record's start as its own source gave it (the timeline shows it on the wrapper's clock). */
static int64_t own_start(struct run *r, const struct sbx_event *e)
{
    return sbx_event_own_time(&r->fx.tl, e, e->start);
}

static const struct sbx_event *only_wrapper(struct run *r, const char *cmd_prefix)
{
    struct sbx_buf tmp = SBX_BUF_INIT;
    const struct sbx_event *found = NULL;
    for (size_t i = 0; i < r->fx.tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&r->fx.tl, i);
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD))
            continue;
        size_t n;
        const char *s = sbx_text_get(&r->fx.tl, e, &e->u.cmd.command, &tmp, &n);
        if (n >= strlen(cmd_prefix) && memcmp(s, cmd_prefix, strlen(cmd_prefix)) == 0)
            found = e;
    }
    sbx_buf_free(&tmp);
    assert_non_null(found);
    return found;
}

static void matched_and_outside(void **state)
{
    (void)state;
    struct run *r = start();
    /* starts: ls at 0, curl at 1000, FOO=1 python3 at 2000 (bash -c unwrapped) */
    wrapper(r, "s1", 10, 10, "ls -la", 0);
    wrapper(r, "s1", 1020, 20, "curl -s https://x", 6);
    wrapper(r, "s1", 2050, 50, "FOO=1 bash -c \"cd /w && python3 t.py\"", 0);
    record(r, "s1", 3, "ls", 0, 0);
    record(r, "s1", 1004, "curl", 6, 0);
    record(r, "s1", 2001, "python3", 0, 0);
    /* nobody ran this one through the wrapper: it ran beside the python3
       (one in the gap between two lines would be possibly removed, test_gaps.c) */
    record(r, "s1", 2010, "curl", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->records, 4);
    assert_int_equal(x->npairs, 3);
    assert_int_equal(x->noutside, 1);
    assert_int_equal(own_start(r, x->outside[0]), T0 + 2010 * MS);
    assert_true(x->outside[0]->findings & SBX_F_OUTSIDE_WRAPPER);
    assert_int_equal(x->nmissing, 0);
    const struct sbx_event *py = only_wrapper(r, "FOO=1");
    const struct sbx_event *rec = sbx_crosscheck_record_of(x, py);
    assert_non_null(rec);
    assert_string_equal(sbx_str(&r->fx.tl, rec->u.cmd.program), "python3");
    /* the records are not counted as the run's commands */
    assert_int_equal(r->sum.commands, 3);
    done(r);
}

static void closest_start_wins(void **state)
{
    (void)state;
    struct run *r = start();
    /* two ls 1.5 s apart, records in between: each takes the nearer one */
    wrapper(r, "s1", 1000, 0, "ls a", 0);
    wrapper(r, "s1", 2500, 0, "ls b", 0);
    record(r, "s1", 2400, "ls", 0, 0);
    record(r, "s1", 1100, "ls", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->npairs, 2);
    assert_int_equal(own_start(r, sbx_crosscheck_record_of(x, only_wrapper(r, "ls a"))), T0 + 1100 * MS);
    assert_int_equal(own_start(r, sbx_crosscheck_record_of(x, only_wrapper(r, "ls b"))), T0 + 2400 * MS);
    done(r);
}

/* The window is 2 s either way around the measured skew, its edge
 * included: with four commands agreeing on the skew, a record 2000 ms before
 * or after the skew's place is the same command, 2001 ms is not. */
static void window_edges(void **state)
{
    (void)state;
    static const struct {
        int64_t offset_ms;
        bool matched;
    } cases[] = {
        {-2001, false}, {-2000, true}, {-1999, true}, {0, true},
        {1999, true},   {2000, true},  {2001, false},
    };
    static const int64_t skews_ms[] = {0, 45000, -90000};
    for (size_t k = 0; k < sizeof skews_ms / sizeof *skews_ms; k++)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            struct run *r = start();
            int64_t sk = skews_ms[k];
            for (int a = 0; a < 4; a++) { /* the anchors that measure the skew */
                wrapper(r, "s1", 1000 + a * 1000, 0, "ls", 0);
                record(r, "s1", 1000 + a * 1000 + sk, "ls", 0, 0);
            }
            wrapper(r, "s1", 10000, 0, "make", 0);
            record(r, "s1", 10000 + sk + cases[i].offset_ms, "make", 0, 0);
            finish(r);
            const struct sbx_crosscheck *x = &r->sum.cross;
            assert_int_equal(x->skew.how, SBX_SKEW_MEASURED);
            assert_int_equal(x->skew_ns, sk * MS);
            /* not matched: outside the wrapper, or possibly removed from its log */
            size_t unexplained = x->noutside + r->sum.ngaps;
            if ((x->npairs == 5) != cases[i].matched || (unexplained == 0) != cases[i].matched)
                fail_msg("skew %lld ms, a record %lld ms off: %zu pairs, %zu outside; want %s",
                         (long long)sk, (long long)cases[i].offset_ms, x->npairs, unexplained,
                         cases[i].matched ? "matched" : "not matched");
            done(r);
        }
}

/* Two records for one command, the closer one after or before the farther:
 * the closer one is its record, the other ran outside the wrapper. */
static void closest_record_wins_either_order(void **state)
{
    (void)state;
    static const int64_t starts[][3] = { /* farther, closer (ms from the command's start) */
        {-1500, 300}, {1500, -300}, {-1900, -1800}, {1900, 1800},
    };
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        struct run *r = start();
        wrapper(r, "s1", 10000, 0, "ls", 0);
        record(r, "s1", 10000 + starts[i][0], "ls", 0, 0);
        record(r, "s1", 10000 + starts[i][1], "ls", 0, 0);
        finish(r);
        const struct sbx_event *rec = sbx_crosscheck_record_of(&r->sum.cross, only_wrapper(r, "ls"));
        assert_non_null(rec);
        if (own_start(r, rec) != T0 + (10000 + starts[i][1]) * MS)
            fail_msg("records %lld and %lld ms off: the one %lld ms off was taken",
                     (long long)starts[i][0], (long long)starts[i][1],
                     (long long)((own_start(r, rec) - T0) / MS - 10000));
        assert_int_equal(r->sum.cross.noutside, 1);
        done(r);
    }
}

/* Two commands for one record, the closer one first or second: the record
 * is the closer one's, the other is missing from the record. */
static void closest_command_wins_either_order(void **state)
{
    (void)state;
    static const int64_t starts[][2] = { /* the commands' starts; the record is at 1000 */
        {100, 1200}, {1900, 800},
    };
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        struct run *r = start();
        wrapper(r, "s1", starts[i][0], 0, "ls first", 0);
        wrapper(r, "s1", starts[i][1], 0, "ls second", 0);
        record(r, "s1", 1000, "ls", 0, 0);
        finish(r);
        const struct sbx_crosscheck *x = &r->sum.cross;
        assert_int_equal(x->npairs, 1);
        assert_non_null(sbx_crosscheck_record_of(x, only_wrapper(r, "ls second")));
        assert_null(sbx_crosscheck_record_of(x, only_wrapper(r, "ls first")));
        assert_int_equal(x->nmissing, 1);
        done(r);
    }
}

static void skew_measured_and_used(void **state)
{
    (void)state;
    struct run *r = start();
    /* the provider's clock runs 1.8 s ahead: within the window at first, and
     * the skew found lets a command 2.5 s off match too */
    wrapper(r, "s1", 0, 0, "echo a", 0);
    wrapper(r, "s1", 5000, 0, "echo b", 0);
    wrapper(r, "s1", 10000, 0, "echo c", 0);
    wrapper(r, "s1", 20000, 0, "pwd", 0);
    record(r, "s1", 1800, "echo", 0, 0);
    record(r, "s1", 6800, "echo", 0, 0);
    record(r, "s1", 11800, "echo", 0, 0);
    record(r, "s1", 22500, "pwd", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_true(x->skew_known);
    assert_int_equal(x->skew_ns / MS, 1800);
    assert_int_equal(x->npairs, 4);
    assert_int_equal(x->noutside, 0);
    done(r);
}

static void missing_older_and_exit_mismatch(void **state)
{
    (void)state;
    struct run *r = start();
    wrapper(r, "s1", -20000, 0, "make old", 0); /* before the record's first entry */
    for (int a = 0; a < 3; a++) {               /* the skew: measured from these */
        wrapper(r, "s1", 2000 + a * 500, 0, "git status", 0);
        record(r, "s1", 2000 + a * 500, "git", 0, 0);
    }
    wrapper(r, "s1", 1000, 0, "make build", 2);
    wrapper(r, "s1", 5000, 0, "rm -rf x", 0);   /* the record lacks it */
    wrapper(r, "s2", 5000, 0, "ls", 0);         /* s2 has no record: not checked */
    record(r, "s1", 0, "echo", 0, 0);
    record(r, "s1", 1000, "make", 0, 0);        /* the record says it exited 0 */
    record(r, "s1", 9000, "sleep", 0, SBX_CMD_RUNNING);
    record(r, "s1", 9500, "tail", 0, SBX_CMD_UNREAD);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->checked_commands, 6);
    assert_int_equal(x->older_than_record, 1);
    assert_int_equal(x->nmissing, 1);
    assert_true(x->missing[0]->findings & SBX_F_MISSING_FROM_RECORD);
    assert_int_equal(x->nexit_mismatch, 1);
    assert_true(x->exit_mismatch[0].wrapper->findings & SBX_F_EXIT_MISMATCH);
    assert_int_equal(x->running, 1);
    assert_int_equal(x->unread, 1);
    /* sleep and tail ran outside the wrapper (in the background); echo fits
       the gap between make old's line and make build's */
    assert_int_equal(x->noutside, 2);
    assert_int_equal(r->sum.ngaps, 1);
    assert_int_equal(own_start(r, r->sum.gaps[0].record), T0);
    done(r);
}

static void running_matches_any_exit(void **state)
{
    (void)state;
    struct run *r = start();
    wrapper(r, "s1", 3000, 3000, "sleep 3", 124);
    record(r, "s1", 0, "sleep", 0, SBX_CMD_UNREAD);
    finish(r);
    assert_int_equal(r->sum.cross.npairs, 1);
    assert_int_equal(r->sum.cross.noutside, 0);
    done(r);
}

static void several_sandboxes(void **state)
{
    (void)state;
    struct run *r = start();
    wrapper(r, "a", 1000, 0, "git status", 0);
    wrapper(r, "b", 1000, 0, "git status", 0);
    record(r, "b", 1000, "git", 0, 0);
    record(r, "a", 1001, "git", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->npairs, 2);
    for (size_t i = 0; i < x->npairs; i++)
        assert_int_equal(x->pairs[i].wrapper->sandbox, x->pairs[i].record->sandbox);
    done(r);
}

/* Two of five commands agree on an offset: too few to trust. The skew is
 * uncertain, not applied, and what is left unmatched is not called outside
 * the wrapper or missing from the record. */
static void uncertain_skew_concludes_nothing(void **state)
{
    (void)state;
    struct run *r = start();
    static const char *const cmds[] = {"ls", "cat a", "id", "env", "uname"};
    for (int i = 0; i < 5; i++)
        wrapper(r, "s1", 1000 + i * 1000, 0, cmds[i], 0);
    record(r, "s1", 1000 + 45000, "ls", 0, 0);
    record(r, "s1", 2000 + 45000, "cat", 0, 0);
    record(r, "s1", 0, "curl", 0, 0); /* the record's span starts before the commands */
    record(r, "s1", 31000, "wget", 0, 0);
    record(r, "s1", 32000, "nc", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->skew.how, SBX_SKEW_UNCERTAIN);
    assert_int_equal(x->skew.pairs, 2);
    assert_int_equal(x->skew.ns, 45000 * MS); /* the best guess, reported */
    assert_false(x->skew_known);
    assert_int_equal(x->noutside + x->nmissing + x->nexit_mismatch, 0);
    assert_int_equal(x->nunmatched_records, 5);
    assert_int_equal(x->nunmatched_commands, 5);
    for (size_t i = 0; i < r->fx.tl.n; i++)
        assert_false(sbx_tl_at(&r->fx.tl, i)->findings & (SBX_F_OUTSIDE_WRAPPER | SBX_F_MISSING_FROM_RECORD));
    /* not applied: the records keep their own clock */
    assert_int_equal(r->fx.tl.sources[r->fx.rec_src].clock, SBX_CLOCK_OWN);
    done(r);
}

/* Three of five agree: enough, and the two others are concluded. */
static void three_pairs_are_enough(void **state)
{
    (void)state;
    struct run *r = start();
    for (int i = 0; i < 5; i++)
        wrapper(r, "s1", 1000 + i * 1000, 0, i < 3 ? "ls" : "id", 0);
    for (int i = 0; i < 3; i++)
        record(r, "s1", 1000 + i * 1000 - 90000, "ls", 0, 0);
    record(r, "s1", 50000, "curl", 0, 0);
    record(r, "s1", 51000, "nc", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->skew.how, SBX_SKEW_MEASURED);
    assert_int_equal(x->skew_ns, -90000 * MS);
    assert_int_equal(x->noutside, 2);
    assert_int_equal(x->nmissing, 2);
    assert_int_equal(r->fx.tl.sources[r->fx.rec_src].clock, SBX_CLOCK_MEASURED);
    done(r);
}

/* A given skew is applied as given, whatever the estimate says. */
static void given_skew_wins(void **state)
{
    (void)state;
    struct run *r = start();
    for (int i = 0; i < 4; i++) {
        wrapper(r, "s1", 1000 + i * 1000, 0, "ls", 0);
        record(r, "s1", 1000 + i * 1000 + 45000, "ls", 0, 0);
    }
    fixture_finish(&r->fx);
    static const struct sbx_skew_given g[] = {{"runtime", 10000 * MS}};
    struct sbx_summary_opts so = {.threads = 1, .skews = g, .nskews = 1};
    char err[160];
    assert_true(sbx_summarize(&r->fx.tl, &so, &r->sum, err, sizeof err));
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->skew.how, SBX_SKEW_GIVEN);
    assert_int_equal(x->skew_ns, 10000 * MS);
    assert_int_equal(x->skew.pairs, 0);
    assert_int_equal(x->noutside, 4);
    assert_int_equal(r->fx.tl.sources[r->fx.rec_src].clock, SBX_CLOCK_GIVEN);
    done(r);
}

static void no_record_no_check(void **state)
{
    (void)state;
    struct run *r = start();
    wrapper(r, "s1", 1000, 0, "ls", 0);
    finish(r);
    assert_int_equal(r->sum.cross.records, 0);
    assert_int_equal(r->sum.cross.nmissing, 0);
    assert_false(sbx_tl_at(&r->fx.tl, 0)->findings & SBX_F_MISSING_FROM_RECORD);
    done(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matched_and_outside),
        cmocka_unit_test(closest_start_wins),
        cmocka_unit_test(window_edges),
        cmocka_unit_test(closest_record_wins_either_order),
        cmocka_unit_test(closest_command_wins_either_order),
        cmocka_unit_test(skew_measured_and_used),
        cmocka_unit_test(missing_older_and_exit_mismatch),
        cmocka_unit_test(running_matches_any_exit),
        cmocka_unit_test(several_sandboxes),
        cmocka_unit_test(no_record_no_check),
        cmocka_unit_test(uncertain_skew_concludes_nothing),
        cmocka_unit_test(three_pairs_are_enough),
        cmocka_unit_test(given_skew_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
