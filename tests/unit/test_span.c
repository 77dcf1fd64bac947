/* The run's span (analyses/span.c): the sandbox's life where lifecycle
 * events give it, else the commands'; metrics, audit entries, proxy lines
 * and notes never stretch it, whichever side of it they fall. A table of
 * runs, each with the span, the life and the active span it must give, and
 * the runs list's duration read from the same summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/fixture.h"

#include "analyses/runs.h"
#include "analyses/summary.h"

#define U SBX_TIME_UNKNOWN
#define END {0, NULL, 0, 0}

/* kinds: 'c' a wrapper command, 'r' a record, 'l' a lifecycle event
 * (type), 'm' a metrics reading, 'a' an audit entry, 'n' a proxy line,
 * 'o' a note; times in ms from T0 (U: not known) */
struct ev {
    char kind;
    const char *type;
    int64_t start, end;
};

struct span_case {
    const char *name;
    struct ev ev[12];
    int64_t start, end, life_start, life_end, active_start, active_end;
};

static const struct span_case cases[] = {
    {"the issue's run: a reading 6 s before the sandbox, a proxy line after its stop",
     {{'m', NULL, -6000, U}, {'l', "sandbox.created", 0, U}, {'c', NULL, 10000, 12000},
      {'c', NULL, 13000, 14000}, {'l', "sandbox.stopped", 37900, U}, {'n', NULL, 40000, 40001}, END},
     0, 37900, 0, 37900, 10000, 14000},
    {"no lifecycle: the commands, not the metrics, audit or proxy around them",
     {{'m', NULL, -6000, U}, {'a', NULL, -86400000, U}, {'c', NULL, 1000, 2500},
      {'r', NULL, 4000, 5000}, {'n', NULL, 8000, 9000}, {'o', NULL, 12000, U}, END},
     1000, 5000, U, U, 1000, 5000},
    {"created only: the life's start, the commands' end",
     {{'l', "sandbox.created", 0, U}, {'c', NULL, 2000, 6000}, {'m', NULL, 9000, U}, END},
     0, 6000, 0, U, 2000, 6000},
    {"stopped only: the commands' start, the life's end",
     {{'m', NULL, 500, U}, {'c', NULL, 2000, 6000}, {'l', "sandbox.stopped", 10000, U}, END},
     2000, 10000, U, 10000, 2000, 6000},
    {"a command the clocks put before the creation still counts",
     {{'c', NULL, 2000, 3000}, {'l', "sandbox.created", 5000, U}, {'c', NULL, 6000, 7000},
      {'l', "sandbox.stopped", 9000, U}, END},
     2000, 9000, 5000, 9000, 2000, 7000},
    {"a command past the stop still counts",
     {{'l', "sandbox.created", 0, U}, {'l', "sandbox.stopped", 9000, U}, {'c', NULL, 8000, 9500}, END},
     0, 9500, 0, 9000, 8000, 9500},
    {"a stop before the creation is no life",
     {{'l', "sandbox.created", 10000, U}, {'l', "sandbox.stopped", 5000, U}, {'c', NULL, 6000, 7000}, END},
     6000, 7000, U, U, 6000, 7000},
    {"two sandboxes: the first creation to the last stop",
     {{'l', "sandbox.created", 2000, U}, {'l', "sandbox.created", 0, U}, {'c', NULL, 3000, 4000},
      {'l', "sandbox.stopped", 8000, U}, {'l', "sandbox.stopped", 9000, U}, END},
     0, 9000, 0, 9000, 3000, 4000},
    {"other lifecycle events are no life",
     {{'l', "sandbox.woken", 0, U}, {'l', "sandbox.paused", 20000, U}, {'c', NULL, 1000, 2000}, END},
     1000, 2000, U, U, 1000, 2000},
    {"a command with no end: its start",
     {{'c', NULL, 1000, 2000}, {'c', NULL, 4000, U}, END},
     1000, 4000, U, U, 1000, 4000},
    {"no life, no command: whatever has a time, the audit log aside",
     {{'a', NULL, -86400000, U}, {'m', NULL, 3000, U}, {'n', NULL, 5000, 6000}, END},
     3000, 6000, U, U, U, U},
    {"nothing has a time", {{'c', NULL, U, U}, {'a', NULL, 1000, U}, END}, U, U, U, U, U, U},
};

static const int64_t T0 = INT64_C(1780000000) * FX_S;

static int64_t at(int64_t ms)
{
    return ms == U ? U : T0 + ms * FX_MS;
}

static void push(struct fixture *fx, const struct ev *v)
{
    struct sbx_event *e;
    switch (v->kind) {
    case 'c':
        e = fixture_command(fx, "sb1", at(v->start), v->end == U ? 0 : v->end - v->start, "make", 0);
        e->end = at(v->end);
        break;
    case 'r':
        /* a command only Runtime's record saw: no wrapper command to align
           its clock to, so it stays where it is */
        e = fixture_record(fx, "sb1", at(v->start), "rm", 0, 0);
        e->end = at(v->end);
        break;
    case 'l':
        e = fixture_event(fx, SBX_EV_LIFECYCLE, "sb1", at(v->start), U);
        e->label = fixture_id(fx, v->type);
        break;
    case 'm':
        e = fixture_event(fx, SBX_EV_METRIC, "sb1", at(v->start), U);
        e->u.metric = (struct sbx_metric){.cpu_percent = -1, .cpu_peak_percent = -1,
                                          .memory_bytes = -1, .memory_peak_bytes = -1};
        break;
    case 'a': fixture_event(fx, SBX_EV_AUDIT, NULL, at(v->start), U); break;
    case 'n': fixture_request(fx, "sb1", at(v->start), "example.com")->end = at(v->end); break;
    default: fixture_event(fx, SBX_EV_NOTE, "sb1", at(v->start), U); break;
    }
}

static void want_time(const struct span_case *c, const char *what, int64_t got, int64_t want_ms)
{
    if (got != at(want_ms))
        fail_msg("%s: %s is %lld ms, want %lld", c->name, what,
                 got == U ? -1LL : (long long)((got - T0) / FX_MS), (long long)want_ms);
}

static void the_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct span_case *c = &cases[i];
        struct fixture fx;
        fixture_init(&fx, "run.jsonl");
        for (const struct ev *v = c->ev; v->kind; v++)
            push(&fx, v);
        fixture_finish(&fx);
        struct sbx_summary sum;
        char err[200];
        assert_true(sbx_summarize(&fx.tl, NULL, &sum, err, sizeof err));
        want_time(c, "start", sum.start, c->start);
        want_time(c, "end", sum.end, c->end);
        want_time(c, "the life's start", sum.sandbox_start, c->life_start);
        want_time(c, "the life's end", sum.sandbox_end, c->life_end);
        want_time(c, "the active start", sum.active_start, c->active_start);
        want_time(c, "the active end", sum.active_end, c->active_end);
        int64_t len = c->start == U ? -1 : (c->end - c->start) * FX_MS;
        assert_int_equal(sbx_summary_span_ns(&sum), len);
        /* the runs list reads the same span */
        struct sbx_runs runs;
        sbx_runs_init(&runs, "runs");
        sbx_runs_add(&runs, "r", "runs/r");
        sbx_run_row_fill(&runs, 0, &fx.tl, &sum);
        assert_int_equal(sbx_run_row_value(&runs.rows[0], SBX_RUN_DURATION), len);
        sbx_runs_free(&runs);
        sbx_summary_free(&sum);
        fixture_free(&fx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
