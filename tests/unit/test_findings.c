/* The findings table (model/findings.h): complete and consistent, its
 * lookups, one heaviest-first order seen alike by the timeline's marks and
 * by `sbxview check`; importers that store facts and leave the findings to
 * the summary; and sbx_command_failed's cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/loadtest.h"

#include "analyses/summary.h"
#include "importers/formats/runtime/runtime.h"
#include "model/findings.h"
#include "render/findings.h"
#include "render/views/views.h"

static void table_is_consistent(void **state)
{
    (void)state;
    uint32_t all = 0;
    assert_true(sbx_nfindings >= 15);
    for (size_t i = 0; i < sbx_nfindings; i++) {
        const struct sbx_finding_info *f = &sbx_findings[i];
        assert_int_equal(__builtin_popcount(f->bit), 1);
        if (all & f->bit)
            fail_msg("%s: its bit is another row's too", f->name);
        all |= f->bit;
        assert_true(f->name[0] && f->words[0] && f->mark != ' ');
        for (const char *p = f->name; *p; p++)
            assert_true((*p >= 'a' && *p <= 'z') || *p == '-');
        for (size_t j = 0; j < i; j++) {
            if (strcmp(sbx_findings[j].name, f->name) == 0)
                fail_msg("the name %s twice", f->name);
            if (sbx_findings[j].mark == f->mark)
                fail_msg("the mark %c twice", f->mark);
        }
    }
    /* every bit from 0 up is in the order once: no gap, none left out */
    assert_int_equal(all, (1u << sbx_nfindings) - 1);
    /* the serious set is the table's */
    for (size_t i = 0; i < sbx_nfindings; i++)
        assert_int_equal(!!(SBX_F_SERIOUS & sbx_findings[i].bit), sbx_findings[i].serious);
    /* the heaviest: an account change made from inside a sandbox; the
       lightest a field of the wrong type */
    assert_int_equal(sbx_findings[0].bit, SBX_F_ACCOUNT_INSIDE);
    assert_int_equal(sbx_findings[sbx_nfindings - 1].bit, SBX_F_BAD_FIELD);
}

static void lookups(void **state)
{
    (void)state;
    for (size_t i = 0; i < sbx_nfindings; i++) {
        const struct sbx_finding_info *f = &sbx_findings[i];
        assert_int_equal(sbx_finding_by_name(f->name), f->bit);
        assert_int_equal(sbx_finding_by_mark(f->mark), f->bit);
        assert_ptr_equal(sbx_finding_of(f->bit), f);
        assert_int_equal(sbx_finding_rank(f->bit), i);
    }
    /* check's spelling is the one name */
    assert_int_equal(sbx_finding_by_name("account-change"), SBX_F_ACCOUNT_INSIDE);
    assert_int_equal(sbx_finding_by_name("account-inside"), 0);
    assert_int_equal(sbx_finding_by_name("failed"), SBX_F_FAILED);
    assert_int_equal(sbx_finding_by_name("Failed"), 0);
    assert_int_equal(sbx_finding_by_mark(' '), 0);
    assert_null(sbx_finding_of(0));
    assert_null(sbx_finding_of(SBX_F_SECRET | SBX_F_FAILED));
    assert_int_equal(sbx_finding_rank(0), sbx_nfindings);
    /* filter words: one word may stand for several bits */
    assert_int_equal(sbx_findings_by_word("mismatch", 8, false),
                     SBX_F_HASH_MISMATCH | SBX_F_EXIT_MISMATCH);
    assert_int_equal(sbx_findings_by_word("refused", 7, false), SBX_F_REFUSED_HOST);
    assert_int_equal(sbx_findings_by_word("Refused", 7, false), 0);
    assert_int_equal(sbx_findings_by_word("Refused", 7, true), SBX_F_REFUSED_HOST);
    assert_int_equal(sbx_findings_by_word("refusedx", 7, false), SBX_F_REFUSED_HOST);
    assert_int_equal(sbx_findings_by_word("refuse", 6, false), 0);
    /* the heaviest of several */
    assert_int_equal(sbx_finding_heaviest(0), 0);
    assert_int_equal(sbx_finding_heaviest(SBX_F_FAILED | SBX_F_OUTSIDE_WRAPPER | SBX_F_REFUSED_HOST),
                     SBX_F_OUTSIDE_WRAPPER);
    assert_int_equal(sbx_finding_heaviest(SBX_F_HIDDEN_TEXT | SBX_F_HASH_MISMATCH), SBX_F_HASH_MISMATCH);
}

static struct sbx_timeline *load_path(const char *path)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {path};
    assert_true(sbx_load_paths(tl, paths, 1, NULL, &rep) >= 1); /* files read */
    sbx_load_report_free(&rep);
    return tl;
}

/* check lists its kinds heaviest first, and the timeline marks the heavier
 * of any two of them: the same order at both call sites. The runtime run
 * holds an account change from inside, commands outside the wrapper and a
 * refused host; the hostile log refused hosts, secrets, a system file
 * change and hidden text. */
static void timeline_and_check_agree(void **state)
{
    (void)state;
    static const char *const runs[] = {"tests/fixtures/runtime-run",
                                       "tests/golden/cases/hostile/agent-run.jsonl"};
    size_t pairs = 0;
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        struct sbx_timeline *tl = load_path(runs[r]);
        struct sbx_summary sum;
        char err[200];
        assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
        struct sbx_findings found = {0};
        sbx_findings_collect(tl, &sum, 0, &found);
        assert_true(found.n >= 4);
        uint32_t kinds = 0;
        for (size_t i = 0; i < found.n; i++) {
            uint32_t k = found.f[i].kind;
            assert_non_null(sbx_finding_of(k)->check); /* check reports only its kinds */
            kinds |= k;
            if (i == 0 || k == found.f[i - 1].kind)
                continue;
            uint32_t before = found.f[i - 1].kind;
            char mark;
            sbx_finding_look(before | k, &mark);
            if (mark != sbx_finding_of(before)->mark)
                fail_msg("check lists %s before %s; the timeline marks %c", sbx_finding_of(before)->name,
                         sbx_finding_of(k)->name, mark);
            pairs++;
        }
        char mark;
        sbx_finding_look(kinds, &mark);
        assert_int_equal(mark, sbx_finding_of(found.f[0].kind)->mark);
        sbx_findings_free(&found);
        sbx_summary_free(&sum);
        loadtest_drop(tl);
    }
    assert_true(pairs >= 5);
}

/* No finding bit but SBX_F_BAD_FIELD on any event, before the summary. */
static void assert_no_findings(const struct sbx_timeline *tl)
{
    assert_true(tl->n > 0);
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_tl_at(tl, i)->findings & ~(uint32_t)SBX_F_BAD_FIELD)
            fail_msg("line %u: the importer set findings %#x", sbx_ev_line_no(sbx_tl_at(tl, i)),
                     sbx_tl_at(tl, i)->findings);
}

static void summarize(struct sbx_timeline *tl)
{
    struct sbx_summary sum;
    char err[200];
    assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
    sbx_summary_free(&sum);
}

static void squid_denial_is_the_summarys(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load_path("tests/fixtures/squid/native.log");
    assert_no_findings(tl);
    summarize(tl);
    size_t refused = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        bool denied = e->u.net.flags & SBX_NET_DENIED;
        assert_int_equal(!!(e->findings & SBX_F_REFUSED_HOST), denied);
        refused += denied;
    }
    assert_int_equal(refused, 3); /* the log's three TCP_DENIED lines */
    loadtest_drop(tl);
}

static void otlp_failure_and_denials_are_the_summarys(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load_path("tests/fixtures/otlp/traces.jsonl");
    assert_no_findings(tl);
    summarize(tl);
    size_t failed = 0, refused = 0, errors = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        bool error = e->tflags & SBX_EVT_ERROR;
        bool exit_failed = e->kind == SBX_EV_COMMAND && sbx_command_failed(&e->u.cmd);
        assert_int_equal(!!(e->findings & SBX_F_FAILED), error || exit_failed);
        assert_int_equal(!!(e->findings & SBX_F_REFUSED_HOST), sbx_event_denials(e) != 0);
        errors += error;
        failed += (e->findings & SBX_F_FAILED) != 0;
        refused += (e->findings & SBX_F_REFUSED_HOST) != 0;
    }
    /* as the golden summary counts them (tests/golden/cases/otlp) */
    assert_int_equal(errors, 1);
    assert_int_equal(failed, 3);
    assert_int_equal(refused, 1);
    loadtest_drop(tl);

    /* an error status alone, whatever the span: a tool call with no exit
       code, a model call; and a tool call without one */
#define OTLP_SPAN(id, name, status)                                                               \
    "{\"traceId\": \"0af7651916cd43dd8448eb211c80319c\", \"spanId\": \"" id "\", "               \
    "\"name\": \"" name "\", \"startTimeUnixNano\": \"1791469920000000000\", "                    \
    "\"endTimeUnixNano\": \"1791469921000000000\"" status "}"
    static const char SPANS[] =
        "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": ["
        OTLP_SPAN("b7ad6b7169203331", "execute_tool exec", ", \"status\": {\"code\": 2}") ", "
        OTLP_SPAN("b7ad6b7169203332", "chat model", ", \"status\": {\"code\": \"STATUS_CODE_ERROR\"}") ", "
        OTLP_SPAN("b7ad6b7169203333", "execute_tool exec", "") "]}]}]}\n";
    tl = loadtest_bytes(&sbx_format_otlp, "traces.jsonl", SPANS, sizeof SPANS - 1, 1, 0);
    assert_int_equal(tl->n, 3);
    assert_no_findings(tl);
    summarize(tl);
    failed = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        assert_int_equal(!!(e->findings & SBX_F_FAILED), !!(e->tflags & SBX_EVT_ERROR));
        failed += (e->findings & SBX_F_FAILED) != 0;
    }
    assert_int_equal(failed, 2);
    loadtest_drop(tl);
}

#define BODY                                                                                     \
    "{\\\"id\\\": \\\"e1\\\", \\\"type\\\": \\\"sandbox.paused\\\", \\\"createdAt\\\": "           \
    "\\\"2026-10-08T14:32:00Z\\\", \\\"resourceId\\\": \\\"7f3a2c10\\\"}"

static void webhook_signature_is_the_summarys(void **state)
{
    (void)state;
    /* a delivery signed with another secret than the one given */
    static const char HOOKS[] =
        "{\"headers\": {\"Runtime-Signature\": \"t=1791469920,v1=00ff\"}, \"body\": \"" BODY "\"}\n"
        "{\"headers\": {}, \"body\": \"" BODY "\"}\n";
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    char *copy = malloc(sizeof HOOKS - 1);
    memcpy(copy, HOOKS, sizeof HOOKS - 1);
    uint32_t src = sbx_timeline_add_source(tl, "hooks.jsonl", copy, sizeof HOOKS - 1, SBX_DATA_HEAP);
    struct sbx_load_opts opts = {.threads = 1, .import.webhook_secrets = "whsec_test"};
    sbx_load_source(tl, src, &sbx_format_runtime_webhooks, &opts);
    sbx_timeline_finish(tl);
    assert_int_equal(tl->n, 2);
    assert_no_findings(tl);
    for (size_t i = 0; i < tl->n; i++)
        assert_true(sbx_tl_at(tl, i)->tflags & SBX_EVT_SIG_BAD); /* mismatch; no header */
    summarize(tl);
    for (size_t i = 0; i < tl->n; i++)
        assert_true(sbx_tl_at(tl, i)->findings & SBX_F_BAD_SIGNATURE);
    loadtest_drop(tl);
}

static void command_failed_cases(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        uint32_t flags;
        int32_t exit;
        bool failed;
    } cases[] = {
        {"exit 0", SBX_CMD_EXIT_KNOWN, 0, false},
        {"exit 1", SBX_CMD_EXIT_KNOWN, 1, true},
        {"exit -1", SBX_CMD_EXIT_KNOWN, -1, true},
        {"SIGINT: 128+2", SBX_CMD_EXIT_KNOWN, 130, true},
        {"SIGKILL: 128+9", SBX_CMD_EXIT_KNOWN, 137, true},
        {"timed out, exit unknown", SBX_CMD_TIMED_OUT, 0, true},
        {"timed out with exit 0", SBX_CMD_TIMED_OUT | SBX_CMD_EXIT_KNOWN, 0, true},
        {"exit unknown", 0, 0, false},
        {"exit unknown, a stale code", 0, 2, false},
        {"still running", SBX_CMD_RECORD | SBX_CMD_RUNNING, 0, false},
    };
    struct sbx_evbuf buf = {0}; /* an exit outside 0 to 254 is kept in the event's block */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sbx_command *c = &sbx_evbuf_push(&buf)->u.cmd;
        c->flags = cases[i].flags;
        sbx_cmd_set_exit(c, cases[i].exit);
        if (sbx_command_failed(c) != cases[i].failed)
            fail_msg("%s: failed is %d", cases[i].what, !cases[i].failed);
    }
    sbx_evbuf_free(&buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_consistent),
        cmocka_unit_test(lookups),
        cmocka_unit_test(timeline_and_check_agree),
        cmocka_unit_test(squid_denial_is_the_summarys),
        cmocka_unit_test(otlp_failure_and_denials_are_the_summarys),
        cmocka_unit_test(webhook_signature_is_the_summarys),
        cmocka_unit_test(command_failed_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
