/* Tests for render/during.h: which events are set against what ran then
 * (every kind that did not come from the wrapper, not the wrapper's own
 * lines, manifests or metrics), the words check says for each at the edges
 * of nested commands, between them, in another sandbox and in none
 * (tests/unit/cases/during.test), the bound with its count, and the JSON
 * members in their order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/cmdlink.h"
#include "analyses/summary.h"
#include "render/during.h"
#include "tests/unit/cases.h"
#include "tests/unit/fixture.h"
#include "tests/unit/shifted.h"
#include "importers/load.h"

#define T0 INT64_C(1767225600000000000) /* 2026-01-01T00:00:00Z */

/* A source of the given format, for the events of one log. */
static uint16_t source_of(struct fixture *fx, const char *name, const char *format)
{
    uint32_t s = sbx_timeline_add_source(&fx->tl, name, NULL, 0, SBX_DATA_HEAP);
    fx->tl.sources[s].format = format;
    return (uint16_t)s;
}

/* The wrapper's commands of the case file's run (its comment says them). */
static void wrapper_commands(struct fixture *fx)
{
    fixture_init(fx, "agent-run.jsonl");
    fx->tl.sources[fx->src].format = "recorder";
    fixture_command(fx, "sb", T0, 10000, "make test", 0);
    fixture_command(fx, "sb", T0 + 1000 * FX_MS, 4000, "pytest -q", 0);
    fixture_command(fx, "sb", T0 + 2000 * FX_MS, 1000, "python3 x.py", 0);
    fixture_command(fx, "sb", T0 + 6000 * FX_MS, 500, "ls", 0);
    fixture_command(fx, "other", T0, 10000, "git status", 0);
}

static const struct {
    const char *kind, *file, *format;
    enum sbx_kind ev;
} kinds[] = {
    {"request", "access.log", "squid", SBX_EV_NETWORK},
    {"audit", "runtime-audit.jsonl", "runtime-audit", SBX_EV_AUDIT},
    {"lifecycle", "runtime-events.jsonl", "runtime-events", SBX_EV_LIFECYCLE},
    {"webhook", "webhooks.jsonl", "runtime-webhooks", SBX_EV_NOTE},
    {"sandboxio", "audit.jsonl", "sandboxio", SBX_EV_COMMAND},
    {"span", "traces.jsonl", "otlp", SBX_EV_SPAN},
    {"watch", "runtime-events.jsonl", "runtime-events", SBX_EV_FILES},
    {"wrapper-note", NULL, "recorder", SBX_EV_NOTE},
    {"manifest", "after.manifest", "manifest", SBX_EV_FILES},
    {"metric", "runtime-metrics.jsonl", "runtime-metrics", SBX_EV_METRIC},
};

/* One event of kind at t in sandbox sb (NULL: none), in a source of its
 * format ("record": Runtime's command record). */
static struct sbx_event *add_kind(struct fixture *fx, const char *kind, const char *sb, int64_t t)
{
    if (strcmp(kind, "record") == 0) {
        struct sbx_event *e = fixture_record(fx, sb, t, "npm", 0, 0);
        return e;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        if (strcmp(kinds[i].kind, kind) != 0)
            continue;
        struct sbx_event *e;
        if (kinds[i].ev == SBX_EV_FILES) {
            e = fixture_files(fx, sb, t, NULL);
        } else if (kinds[i].ev == SBX_EV_NETWORK) {
            e = fixture_request(fx, sb, t, NULL);
        } else if (kinds[i].ev == SBX_EV_COMMAND) { /* its texts would be the recorder's bytes */
            e = fixture_event(fx, SBX_EV_COMMAND, sb, t, t + 10 * FX_MS);
            e->u.cmd.program = fixture_id(fx, "cat");
        } else {
            e = fixture_event(fx, kinds[i].ev, sb, t, t);
        }
        e->source = kinds[i].file ? source_of(fx, kinds[i].file, kinds[i].format) : (uint16_t)fx->src;
        return e;
    }
    fail_msg("no kind %s", kind);
    return NULL;
}

/* The run the case file describes, and one event of kind at ms. */
static struct sbx_event *build(struct fixture *fx, const char *kind, const char *sandbox, int64_t ms)
{
    wrapper_commands(fx);
    struct sbx_event *rec = fixture_record(fx, "sb", T0 + 20000 * FX_MS, "node", 0, 0);
    rec->end = T0 + 21000 * FX_MS;
    return add_kind(fx, kind, strcmp(sandbox, "-") == 0 ? NULL : sandbox, T0 + ms * FX_MS);
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 4);
    struct fixture fx;
    struct sbx_event *e = build(&fx, c->field[0], c->field[1], case_int(c, 2));
    fixture_finish(&fx);
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(&fx.tl, NULL, &sum, err, sizeof err));
    struct sbx_during d;
    struct sbx_buf got = SBX_BUF_INIT;
    if (sbx_during_of(&fx.tl, &sum, e, &d))
        sbx_during_text(&fx.tl, &d, &got);
    else
        sbx_buf_adds(&got, "-");
    if (strcmp(got.p, c->field[3]) != 0)
        case_fail(c, "got  %s\nwant %s", got.p, c->field[3]);
    sbx_buf_free(&got);
    sbx_summary_free(&sum);
    fixture_free(&fx);
}

static void the_case_file(void **state)
{
    (void)state;
    cases_run("during.test", check_case, NULL);
}

/* The summary keeps the command index only for a run with an event that
 * asks what ran then: the wrapper's commands alone, and with one event of
 * each kind (a provider's record in the wrapper's own log too). */
static void an_index_only_when_asked(void **state)
{
    (void)state;
    static const struct {
        const char *kind;
        bool asks;
    } want[] = {
        {NULL, false},          {"request", true},      {"audit", true},     {"lifecycle", true},
        {"webhook", true},      {"sandboxio", true},    {"span", true},      {"watch", true},
        {"wrapper-note", false}, {"manifest", false},   {"metric", false},   {"record", true},
        {"record-in-wrapper-log", true},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct fixture fx;
        wrapper_commands(&fx);
        struct sbx_event *e = NULL;
        if (want[i].kind && strcmp(want[i].kind, "record-in-wrapper-log") == 0) {
            e = add_kind(&fx, "record", "sb", T0 + 2500 * FX_MS);
            e->source = (uint16_t)fx.src;
        } else if (want[i].kind) {
            e = add_kind(&fx, want[i].kind, "sb", T0 + 2500 * FX_MS);
        }
        fixture_finish(&fx);
        bool asks = sbx_timeline_has_not_wrapper(&fx.tl);
        if (asks != want[i].asks || (e && sbx_event_not_wrapper(&fx.tl, e) != asks))
            fail_msg("%s: asks %d, want %d", want[i].kind ? want[i].kind : "(wrapper only)", asks,
                     want[i].asks);
        struct sbx_summary sum;
        char err[160];
        assert_true(sbx_summarize(&fx.tl, NULL, &sum, err, sizeof err));
        assert_int_equal(sum.cmds != NULL, want[i].asks);
        struct sbx_during d;
        if (e)
            assert_int_equal(sbx_during_of(&fx.tl, &sum, e, &d), want[i].asks);
        sbx_summary_free(&sum);
        fixture_free(&fx);
    }
}

/* Forty commands nested in one another: the outermost sixteen are named,
 * all forty counted, the innermost is "during"; the JSON's members in
 * their order. */
static void bounded_and_json(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    fx.tl.sources[fx.src].format = "recorder";
    struct sbx_event *cmds[40];
    for (int i = 0; i < 40; i++) {
        char line[32];
        snprintf(line, sizeof line, "step%d", i);
        cmds[i] = fixture_command(&fx, "sb", T0 + i * FX_MS, 1000 - 2 * i, line, 0);
    }
    struct sbx_event *q = fixture_request(&fx, "sb", T0 + 100 * FX_MS, NULL);
    q->source = source_of(&fx, "access.log", "squid");
    fixture_finish(&fx);
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(&fx.tl, NULL, &sum, err, sizeof err));
    struct sbx_during d;
    assert_true(sbx_during_of(&fx.tl, &sum, q, &d));
    assert_int_equal(d.total, 40);
    assert_int_equal(d.nrunning, SBX_DURING_MAX);
    for (size_t i = 0; i < d.nrunning; i++)
        assert_ptr_equal(d.running[i], cmds[i]);
    assert_ptr_equal(d.inner, cmds[39]);
    struct sbx_buf text = SBX_BUF_INIT, out = SBX_BUF_INIT;
    sbx_during_text(&fx.tl, &d, &text);
    assert_non_null(strstr(text.p, "$ step15 (started 00:00:00.015Z), and 24 more; ended just before: no command"));
    assert_null(strstr(text.p, "step16"));
    struct sbx_jsonw w;
    sbx_jw_init(&w, &out, false);
    sbx_jw_object(&w);
    sbx_during_json(&fx.tl, &d, &w);
    sbx_jw_end_object(&w);
    assert_non_null(strstr(out.p, "{\"during\":{\"at\":\"2026-01-01T00:00:00.039Z\",\"command\":\"step39\","
                                  "\"source\":\"agent-run.jsonl\",\"line\":40},\"during_all\":[{\"at\":"
                                  "\"2026-01-01T00:00:00.000Z\",\"command\":\"step0\""));
    assert_non_null(strstr(out.p, "\"during_count\":40,\"ended_before\":null}"));
    sbx_buf_free(&text);
    sbx_buf_free(&out);
    sbx_summary_free(&sum);
    fixture_free(&fx);
}

/* The words for every event of the story run that did not come from the
 * wrapper, "; "-joined, in timeline order. */
static char *story_words(const char *dir)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    const char *paths[] = {dir};
    struct sbx_load_opts lo = {.threads = 1};
    struct sbx_load_report rep = {0};
    assert_true(sbx_load_paths(&tl, paths, 1, &lo, &rep) > 0);
    sbx_load_report_free(&rep);
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(&tl, NULL, &sum, err, sizeof err));
    struct sbx_buf b = SBX_BUF_INIT;
    for (size_t i = 0; i < tl.n; i++) {
        struct sbx_during d;
        if (!sbx_during_of(&tl, &sum, sbx_tl_at(&tl, i), &d))
            continue;
        sbx_buf_addf(&b, "%s: ", sbx_kind_name(sbx_tl_at(&tl, i)->kind));
        sbx_during_text(&tl, &d, &b);
        sbx_buf_adds(&b, "\n");
    }
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
    return b.p;
}

/* Runtime's clock 45 s and -90 s off the wrapper's: once the clocks are
 * aligned, every event of Runtime's (the node beside pytest, the change,
 * the lifecycle) is set against the same wrapper commands as on one clock. */
static void skewed_sources_on_the_one_clock(void **state)
{
    (void)state;
    char *base = story_words("tests/fixtures/story-run");
    assert_non_null(strstr(base, "running then: $ python3 -m pytest -q tests (started 09:30:16.000Z)"));
    static const int64_t offsets[] = {45000, -90000};
    for (size_t k = 0; k < 2; k++) {
        char dir[64];
        shifted_run_make(dir, sizeof dir, "tests/fixtures/story-run", offsets[k]);
        char *got = story_words(dir);
        if (strcmp(got, base) != 0)
            fail_msg("%+lld ms:\n%s\nnot\n%s", (long long)offsets[k], got, base);
        free(got);
        shifted_run_remove(dir);
    }
    free(base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_case_file),
        cmocka_unit_test(bounded_and_json),
        cmocka_unit_test(an_index_only_when_asked),
        cmocka_unit_test(skewed_sources_on_the_one_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
