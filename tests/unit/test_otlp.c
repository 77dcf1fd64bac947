/* The OTLP/JSON traces importer and the span trees: old and new key names,
 * integers as strings and numbers (int64 extremes, never through a double),
 * one trace over several lines in any order, orphans and loops, a failed
 * tool (error.type, exit 137), timeouts, durations from the times rounded, denials, other spans as notes, bad lines and
 * bad spans, array and kvlist attributes, each event's own JSON range,
 * detection, two threads, and the summary's counts.
 *
 * Fixtures are written with ' for JSON's quotes (turned into " on load) so
 * they read as JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/loadtest.h"

#include "importers/format.h"
#include "model/spans.h"
#include "analyses/summary.h"

#define T1 "0af7651916cd43dd8448eb211c80319c"
#define T2 "4bf92f3577b34da6a3ce929d0e0e4736"

#define S(k, v) "{'key':'" k "','value':{'stringValue':'" v "'}}"
#define I(k, v) "{'key':'" k "','value':{'intValue':'" v "'}}"
#define N(k, v) "{'key':'" k "','value':{'intValue':" v "}}"
#define TOOL(t) S("gen_ai.operation.name", "execute_tool") "," S("gen_ai.tool.name", t)
#define SPAN(trace, id, parent, name, start, end, attrs, status)                                \
    "{'traceId':'" trace "','spanId':'" id "','parentSpanId':'" parent "','name':'" name         \
    "','kind':1,'startTimeUnixNano':" start ",'endTimeUnixNano':" end ",'attributes':[" attrs \
    "],'status':{" status "}}"
#define LINE(spans)                                                                            \
    "{'resourceSpans':[{'resource':{'attributes':[" S("service.name", "runner")                \
    "]},'scopeSpans':[{'scope':{'name':'sandboxio.agent'},'spans':[" spans "]}]}]}\n"
#define OLD_LINE(spans)                                                                        \
    "{'resourceSpans':[{'resource':{'attributes':[]},'instrumentationLibrarySpans':[{"         \
    "'instrumentationLibrary':{'name':'old'},'spans':[" spans "]}]}]}\n"

static char *quotes(const char *s)
{
    char *c = strdup(s);
    for (char *p = c; *p; p++)
        if (*p == '\'')
            *p = '"';
    return c;
}

static struct sbx_timeline *load(const char *fixture, int threads)
{
    char *text = quotes(fixture);
    struct sbx_timeline *tl = loadtest_bytes(&sbx_format_otlp, "traces.jsonl", text, strlen(text),
                                             threads, 1);
    free(text);
    return tl;
}

/* The event whose span JSON holds spanId id. */
static const struct sbx_event *span_event(const struct sbx_timeline *tl, const char *id)
{
    char key[40];
    snprintf(key, sizeof key, "\"spanId\":\"%s\"", id);
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (memmem(sbx_event_line(tl, e), sbx_ev_line_len(e), key, strlen(key)))
            return e;
    }
    fail_msg("no event for span %s", id);
    return NULL;
}

static void assert_command(const struct sbx_timeline *tl, const struct sbx_event *e, const char *want)
{
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t n;
    const char *s = sbx_text_get(tl, e, &e->u.cmd.command, &scratch, &n);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(s, want, n);
    sbx_buf_free(&scratch);
}

static const char NEW_KEYS[] = LINE(
    SPAN(T1, "a000000000000001", "", "invoke_agent fixer", "'1795942252469000001'",
         "'1795942254295000003'", S("gen_ai.operation.name", "invoke_agent") "," S("gen_ai.agent.name", "fixer"),
         "'code':1") ","
    SPAN(T1, "a000000000000002", "a000000000000001", "execute_tool exec", "'1795942252478000001'",
         "'1795942252503532801'",
         TOOL("exec") "," S("sandboxio.argv", "[\\'cat\\',\\'a b.py\\']") ","
         S("sandboxio.sandbox.id", "sbx-1") "," N("sandboxio.exit_code", "0") ","
         I("sandboxio.duration_ms", "24"),
         "") ","
    SPAN(T1, "a000000000000003", "a000000000000001", "chat gpt-x", "'1795942252400000000'",
         "'1795942252410000000'", S("gen_ai.operation.name", "chat"), ""));

static void new_keys_string_ints(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(NEW_KEYS, 1);
    assert_int_equal(tl->nskips, 0);
    assert_int_equal(tl->n, 3);
    const struct sbx_event *agent = span_event(tl, "a000000000000001");
    assert_int_equal(agent->kind, SBX_EV_SPAN);
    assert_string_equal(sbx_str(tl, agent->label), "fixer");
    /* 1795942252469000001 is no double: read as an integer */
    assert_true(agent->start == 1795942252469000001LL);
    assert_true(agent->end == 1795942254295000003LL);
    assert_int_equal(sbx_ev_line_no(agent), 1);

    const struct sbx_event *tool = span_event(tl, "a000000000000002");
    assert_int_equal(tool->kind, SBX_EV_COMMAND);
    assert_string_equal(sbx_str(tl, tool->label), "exec");
    assert_command(tl, tool, "cat 'a b.py'");
    assert_string_equal(sbx_str(tl, tool->u.cmd.program), "cat");
    assert_string_equal(sbx_str(tl, tool->sandbox), "sbx-1");
    assert_true(tool->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
    assert_int_equal(sbx_cmd_exit(&tool->u.cmd), 0);
    assert_true(tool->u.cmd.flags & SBX_CMD_MS_KNOWN);
    assert_int_equal(sbx_cmd_ms(&tool->u.cmd), 24);
    assert_int_equal(tool->findings, 0);

    const struct sbx_event *note = span_event(tl, "a000000000000003");
    assert_int_equal(note->kind, SBX_EV_NOTE);
    assert_string_equal(sbx_str(tl, note->label), "chat gpt-x");
    loadtest_drop(tl);
}

/* Each event's raw range is exactly its span object: the raw view and the
 * detail show that span alone. */
static void own_json_range(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(NEW_KEYS, 1);
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        const char *s = sbx_event_line(tl, e);
        assert_int_equal(s[0], '{');
        assert_int_equal(s[sbx_ev_line_len(e) - 1], '}');
        assert_null(memmem(s, sbx_ev_line_len(e), "resourceSpans", 13));
        assert_int_equal(memcmp(s, "{\"traceId\"", 10), 0);
        struct sbx_span_ids ids;
        assert_true(sbx_span_ids_parse(s, sbx_ev_line_len(e), &ids));
        assert_true(ids.trace_hi == 0x0af7651916cd43ddull && ids.trace_lo == 0x8448eb211c80319cull);
    }
    loadtest_drop(tl);
}

static const char OLD_KEYS[] = OLD_LINE(
    "{'traceId':'" T2 "','spanId':'b000000000000001','name':'execute_tool run_code','kind':1,"
    "'startTimeUnixNano':1795942252000000000,'endTimeUnixNano':1795942252250000000,"
    "'attributes':[" S("gen_ai.tool.name", "run_code") "," N("sandboxio.exit_code", "3") "],'status':{}}");

static void old_keys_number_ints(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(OLD_KEYS, 1);
    assert_int_equal(tl->nskips, 0);
    assert_int_equal(tl->n, 1);
    const struct sbx_event *e = sbx_tl_at(tl, 0);
    /* no gen_ai.operation.name: the name says execute_tool */
    assert_int_equal(e->kind, SBX_EV_COMMAND);
    assert_true(e->start == 1795942252000000000LL);
    assert_int_equal(sbx_cmd_exit(&e->u.cmd), 3);
    /* no duration attribute: end - start */
    assert_int_equal(sbx_cmd_ms(&e->u.cmd), 250);
    /* no argv: the tool's name is the command */
    assert_command(tl, e, "run_code");
    assert_string_equal(sbx_str(tl, e->u.cmd.program), "run_code");
    loadtest_drop(tl);
}

static const char EXTREMES[] = LINE(
    SPAN(T1, "c000000000000001", "", "max", "'9223372036854775807'", "9223372036854775807", "", "") ","
    SPAN(T1, "c000000000000002", "", "over", "'9223372036854775808'", "'0'", "", "") ","
    SPAN(T1, "c000000000000003", "", "negative", "'-1'", "'5'", "", "") ","
    SPAN(T1, "c000000000000004", "", "real", "1.7e18", "'0'", "", "") ","
    SPAN(T1, "c000000000000005", "", "unset", "'0'", "'0'", "", "") ","
    SPAN(T1, "c000000000000006", "", "backwards", "'20'", "'10'", "", "") ","
    SPAN(T1, "c000000000000007", "", "exit", "'1'", "'2'",
         TOOL("x") "," I("sandboxio.exit_code", "4294967296") "," S("sandboxio.duration_ms", "5"), ""));

static void int64_extremes(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(EXTREMES, 1);
    assert_int_equal(tl->nskips, 0);
    const struct sbx_event *e = span_event(tl, "c000000000000001");
    assert_true(e->start == INT64_MAX && e->end == INT64_MAX);
    assert_int_equal(e->findings, 0);
    e = span_event(tl, "c000000000000002");
    assert_true(e->start == SBX_TIME_UNKNOWN && e->end == SBX_TIME_UNKNOWN);
    assert_true(e->findings & SBX_F_BAD_FIELD);
    e = span_event(tl, "c000000000000003");
    assert_true(e->start == SBX_TIME_UNKNOWN && e->end == 5);
    assert_true(e->findings & SBX_F_BAD_FIELD);
    e = span_event(tl, "c000000000000004");
    assert_true(e->start == SBX_TIME_UNKNOWN);
    assert_true(e->findings & SBX_F_BAD_FIELD);
    e = span_event(tl, "c000000000000005");
    assert_true(e->start == SBX_TIME_UNKNOWN && e->end == SBX_TIME_UNKNOWN);
    assert_int_equal(e->findings, 0);
    e = span_event(tl, "c000000000000006");
    assert_true(e->findings & SBX_F_BAD_FIELD);
    e = span_event(tl, "c000000000000007");
    assert_false(e->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
    assert_true(e->findings & SBX_F_BAD_FIELD);
    /* the duration given as a string value: not read; end - start instead */
    assert_int_equal(sbx_cmd_ms(&e->u.cmd), 0);
    loadtest_drop(tl);
}

/* One trace over three lines, children before their parent, a grandchild
 * on a line of its own, another trace beside it. */
static const char SPREAD[] =
    LINE(SPAN(T1, "d000000000000002", "d000000000000001", "execute_tool exec", "'300'", "'400'", TOOL("exec"), "") ","
         SPAN(T1, "d000000000000003", "d000000000000001", "execute_tool exec", "'200'", "'250'", TOOL("exec"), ""))
    LINE(SPAN(T1, "d000000000000004", "d000000000000003", "http get", "'210'", "'220'", "", "") ","
         SPAN(T2, "d000000000000009", "", "invoke_agent other", "'50'", "'60'", "", ""))
    "\n"
    LINE(SPAN(T1, "d000000000000001", "", "invoke_agent fixer", "'100'", "'500'", "", ""));

static void one_trace_over_lines(void **state)
{
    (void)state;
    for (int threads = 1; threads <= 2; threads++) {
        struct sbx_timeline *tl = load(SPREAD, threads);
        assert_int_equal(tl->nskips, 0);
        assert_int_equal(tl->n, 5);
        struct sbx_spans sp;
        sbx_spans_build(tl, &sp);
        assert_int_equal(sp.n, 5);
        assert_int_equal(sp.traces, 2);
        assert_int_equal(sp.nroots, 2);
        assert_int_equal(sp.orphans, 0);
        uint32_t agent = sbx_spans_find(&sp, span_event(tl, "d000000000000001"));
        uint32_t first = sbx_spans_find(&sp, span_event(tl, "d000000000000003"));
        uint32_t grand = sbx_spans_find(&sp, span_event(tl, "d000000000000004"));
        uint32_t second = sbx_spans_find(&sp, span_event(tl, "d000000000000002"));
        assert_int_equal(sp.nodes[agent].descendants, 3);
        assert_int_equal(sp.nodes[agent].depth, 0);
        assert_int_equal(sp.nodes[grand].depth, 2);
        assert_int_equal(sp.nodes[grand].parent, first);
        assert_int_equal(sbx_spans_agent_of(&sp, grand), agent);
        /* pre-order, children by start: first, its child, then second */
        assert_int_equal(sbx_spans_next_in(&sp, agent, agent), first);
        assert_int_equal(sbx_spans_next_in(&sp, agent, first), grand);
        assert_int_equal(sbx_spans_next_in(&sp, agent, grand), second);
        assert_int_equal(sbx_spans_next_in(&sp, agent, second), SBX_SPAN_NONE);
        assert_int_equal(sbx_ev_line_no(span_event(tl, "d000000000000004")), 2);
        assert_int_equal(sbx_ev_line_no(span_event(tl, "d000000000000001")), 4);
        sbx_spans_free(&sp);
        loadtest_drop(tl);
    }
}

static const char ORPHANS[] = LINE(
    SPAN(T1, "e000000000000001", "ffffffffffffffff", "execute_tool exec", "'10'", "'20'", TOOL("exec"), "") ","
    SPAN(T1, "e000000000000002", "e000000000000001", "child", "'11'", "'12'", "", "") ","
    /* a loop: 3 -> 4 -> 3, and 5 its own parent */
    SPAN(T1, "e000000000000003", "e000000000000004", "loop a", "'30'", "'31'", "", "") ","
    SPAN(T1, "e000000000000004", "e000000000000003", "loop b", "'32'", "'33'", "", "") ","
    SPAN(T1, "e000000000000005", "e000000000000005", "self", "'34'", "'35'", "", "") ","
    SPAN(T1, "e000000000000002", "", "same ids", "'40'", "'41'", "", ""));

static void orphans_and_loops(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(ORPHANS, 1);
    struct sbx_spans sp;
    sbx_spans_build(tl, &sp);
    assert_int_equal(sp.n, 6);
    assert_int_equal(sp.orphans, 1);
    assert_int_equal(sp.cycles, 2);
    uint32_t orphan = sbx_spans_find(&sp, span_event(tl, "e000000000000001"));
    assert_int_equal(sp.nodes[orphan].parent, SBX_SPAN_NONE);
    assert_true(sp.nodes[orphan].flags & SBX_SPAN_ORPHAN);
    assert_int_equal(sp.nodes[orphan].descendants, 1);
    /* every span is reachable from a root */
    size_t reached = 0;
    for (size_t r = 0; r < sp.nroots; r++) {
        reached++;
        for (uint32_t c = sbx_spans_next_in(&sp, sp.roots[r], sp.roots[r]); c != SBX_SPAN_NONE;
             c = sbx_spans_next_in(&sp, sp.roots[r], c))
            reached++;
    }
    assert_int_equal(reached, sp.n);
    size_t dup = 0, cut = 0;
    for (size_t i = 0; i < sp.n; i++) {
        dup += (sp.nodes[i].flags & SBX_SPAN_DUPLICATE) != 0;
        cut += (sp.nodes[i].flags & SBX_SPAN_CYCLE) != 0;
    }
    assert_int_equal(dup, 1);
    assert_int_equal(cut, 2);
    sbx_spans_free(&sp);
    loadtest_drop(tl);
}

static const char FAILURES[] = LINE(
    SPAN(T1, "f000000000000001", "", "execute_tool run_code", "'10'", "'20'",
         TOOL("run_code") "," N("sandboxio.exit_code", "137") "," S("error.type", "timeout"),
         "'code':2,'message':'killed'") ","
    SPAN(T1, "f000000000000002", "", "execute_tool exec", "'30'", "'40'",
         TOOL("exec") "," I("sandboxio.network_denials", "2") "," N("sandboxio.exit_code", "0"), "") ","
    SPAN(T1, "f000000000000003", "", "execute_tool exec", "'50'", "'60'",
         TOOL("exec") "," N("sandboxio.network_denials", "0"), "'code':'STATUS_CODE_ERROR'") ","
    SPAN(T1, "f000000000000004", "", "invoke_agent a", "'5'", "'70'", "", "'code':1"));

static void failed_and_denied(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(FAILURES, 1);
    const struct sbx_event *e = span_event(tl, "f000000000000001");
    /* facts only: the summary makes them findings (test_findings.c) */
    assert_true(e->tflags & SBX_EVT_ERROR);
    assert_int_equal(sbx_cmd_exit(&e->u.cmd), 137);
    assert_true(e->u.cmd.flags & SBX_CMD_TIMED_OUT);
    assert_int_equal(e->findings, 0);
    e = span_event(tl, "f000000000000002");
    assert_false(e->tflags & SBX_EVT_ERROR);
    assert_true(e->u.cmd.flags & SBX_CMD_DENIALS);
    assert_int_equal(e->u.cmd.denials, 2);
    e = span_event(tl, "f000000000000003");
    assert_true(e->tflags & SBX_EVT_ERROR);
    assert_false(e->u.cmd.flags & SBX_CMD_DENIALS);
    assert_false(span_event(tl, "f000000000000004")->tflags & SBX_EVT_ERROR);

    struct sbx_summary sum;
    char err[200];
    assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
    assert_int_equal(sum.traces.spans, 4);
    assert_int_equal(sum.traces.traces, 1);
    assert_int_equal(sum.traces.tool_calls, 3);
    assert_int_equal(sum.traces.failed, 2);
    assert_int_equal(sum.traces.refused, 1);
    assert_int_equal(sum.traces.agents.n, 1);
    assert_string_equal(sum.traces.agents.s[0], "a");
    assert_int_equal(sum.spans.n, 4);
    sbx_summary_free(&sum);
    loadtest_drop(tl);
}

/* When a tool call timed out: error.type "timeout" (any case), or exit 137
 * with a status message that says so; nothing else. */
static void timeouts(void **state)
{
    (void)state;
    static const struct {
        const char *attrs, *status;
        bool timed_out;
    } cases[] = {
        {S("error.type", "timeout"), "", true},
        {S("error.type", "TimeOut"), "'code':2", true},
        {S("error.type", "timeout") "," N("sandboxio.exit_code", "0"), "", true},
        {S("error.type", "timeout_not"), "", false},
        {S("error.type", "java.net.SocketException"), "'code':2", false},
        {N("sandboxio.exit_code", "137"), "'code':2,'message':'timed out after 30 s'", true},
        {N("sandboxio.exit_code", "137"), "'code':2,'message':'Deadline Exceeded'", true},
        {N("sandboxio.exit_code", "137"), "'message':'TIMEOUT'", true},
        {N("sandboxio.exit_code", "137"), "'code':2,'message':'killed'", false},
        {N("sandboxio.exit_code", "137"), "'code':2", false},
        {N("sandboxio.exit_code", "136"), "'code':2,'message':'timed out'", false},
        {N("sandboxio.exit_code", "1"), "'code':2,'message':'timeout'", false},
        {"", "'code':2,'message':'timeout'", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[2048];
        snprintf(line, sizeof line,
                 "{'resourceSpans':[{'scopeSpans':[{'spans':[{'traceId':'" T1 "','spanId':"
                 "'a000000000000001','name':'execute_tool run','startTimeUnixNano':'10',"
                 "'endTimeUnixNano':'20','attributes':[" TOOL("run") "%s%s],'status':{%s}}]}]}]}\n",
                 cases[i].attrs[0] ? "," : "", cases[i].attrs, cases[i].status);
        struct sbx_timeline *tl = load(line, 1);
        assert_int_equal(tl->n, 1);
        const struct sbx_command *c = &sbx_tl_at(tl, 0)->u.cmd;
        if (((c->flags & SBX_CMD_TIMED_OUT) != 0) != cases[i].timed_out)
            fail_msg("case %zu (%s / %s): timed out %d", i, cases[i].attrs, cases[i].status,
                     (c->flags & SBX_CMD_TIMED_OUT) != 0);
        struct sbx_summary sum;
        char err[200];
        assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
        assert_int_equal(sum.timed_out, cases[i].timed_out);
        assert_int_equal((sbx_tl_at(tl, 0)->findings & SBX_F_TIMED_OUT) != 0, cases[i].timed_out);
        sbx_summary_free(&sum);
        loadtest_drop(tl);
    }
}

/* A duration from the span's times is rounded to the millisecond, halves
 * up, as every output rounds. */
static void derived_duration_rounds(void **state)
{
    (void)state;
    static const struct {
        const char *start, *end;
        long long ms;
    } cases[] = {
        {"'1000'", "'507500999'", 507}, {"'1000'", "'507501000'", 508}, {"'1'", "'507600001'", 508},
        {"'5'", "'5'", 0},                {"'5'", "'500004'", 0},      {"'5'", "'500005'", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[1024];
        snprintf(line, sizeof line,
                 "{'resourceSpans':[{'scopeSpans':[{'spans':[{'traceId':'" T1 "','spanId':"
                 "'a000000000000001','name':'execute_tool run','startTimeUnixNano':%s,"
                 "'endTimeUnixNano':%s,'attributes':[" TOOL("run") "]}]}]}]}\n",
                 cases[i].start, cases[i].end);
        struct sbx_timeline *tl = load(line, 1);
        assert_int_equal(tl->n, 1);
        assert_true(sbx_tl_at(tl, 0)->u.cmd.flags & SBX_CMD_MS_KNOWN);
        if (sbx_cmd_ms(&sbx_tl_at(tl, 0)->u.cmd) != cases[i].ms)
            fail_msg("case %zu: %lld ms, want %lld", i, (long long)sbx_cmd_ms(&sbx_tl_at(tl, 0)->u.cmd), cases[i].ms);
        loadtest_drop(tl);
    }
}

static const char BAD[] =
    LINE(SPAN(T1, "1000000000000001", "", "good", "'1'", "'2'", "", ""))
    "{'resourceSpans':[{'scopeSpans':[{'spans':[{'traceId':'" T1 "'\n"
    "{'something':'else'}\n"
    "not json at all\n"
    LINE(SPAN("0af7651916", "1000000000000002", "", "short trace", "'1'", "'2'", "", "") ","
         "7,"
         SPAN(T1, "10000000000000zz", "", "bad span id", "'1'", "'2'", "", "") ","
         SPAN(T1, "1000000000000003", "nothex!!nothex!!", "bad parent", "'1'", "'2'", "", "") ","
         "{'traceId':'" T1 "','spanId':'1000000000000004','name':5}" ","
         SPAN(T1, "1000000000000005", "", "good too", "'3'", "'4'", "", ""))
    "{'resourceSpans':[]}\n"
    LINE(SPAN(T1, "1000000000000006", "", "last", "'5'", "'6'", "", ""));

static void bad_lines_and_spans(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(BAD, 1);
    assert_int_equal(tl->n, 3);
    span_event(tl, "1000000000000001");
    span_event(tl, "1000000000000005");
    span_event(tl, "1000000000000006");
    const char *want[][2] = {
        {"2", "not JSON: "},
        {"3", "not OTLP traces: no resourceSpans list"},
        {"4", "not JSON: invalid syntax"},
        {"5", "span 1 of the line: traceId is not 32 hex digits"},
        {"5", "span 2 of the line: not a span: not a JSON object"},
        {"5", "span 3 of the line: spanId is not 16 hex digits"},
        {"5", "span 4 of the line: parentSpanId is not 16 hex digits"},
        {"5", "span 5 of the line: the span's name is not a string"},
    };
    assert_int_equal(tl->nskips, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < tl->nskips; i++) {
        assert_int_equal(tl->skips[i].line, (uint32_t)atoi(want[i][0]));
        assert_int_equal(strncmp(tl->skips[i].reason, want[i][1], strlen(want[i][1])), 0);
    }
    /* an empty resourceSpans list is no error */
    assert_int_equal(tl->sources[0].skipped, tl->nskips);
    loadtest_drop(tl);
}

static const char ATTRS[] = LINE(
    SPAN(T1, "2000000000000001", "", "execute_tool exec", "'1'", "'2'",
         TOOL("exec") ","
         "{'key':'sandboxio.argv','value':{'arrayValue':{'values':[{'stringValue':'ls'}]}}},"
         "{'key':'meta','value':{'kvlistValue':{'values':[{'key':'a','value':{'boolValue':true}}]}}},"
         "{'key':'ratio','value':{'doubleValue':0.5}},"
         "{'key':'blob','value':{'bytesValue':'AAEC'}},"
         "{'key':'flag','value':{'boolValue':false}},"
         "{'key':'esc\\u0061ped','value':{}},"
         "{'key':'big','value':{'intValue':'-9223372036854775808'}}",
         ""));

static void array_and_kvlist_attributes(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(ATTRS, 1);
    assert_int_equal(tl->nskips, 0);
    const struct sbx_event *e = sbx_tl_at(tl, 0);
    /* an argv given as an array value is no JSON string: the tool's name stands */
    assert_command(tl, e, "exec");
    static const char *const kinds[] = {"string", "string", "array", "kvlist", "double",
                                        "bytes",  "bool",   "empty", "int"};
    static const char *const values[] = {"\"execute_tool\"", "\"exec\"", NULL, NULL, "0.5",
                                         "\"AAEC\"", "false", NULL, "\"-9223372036854775808\""};
    struct sbx_jwk it;
    struct sbx_span_attr a;
    size_t n = 0;
    sbx_span_attrs_begin(&it, sbx_event_line(tl, e), sbx_ev_line_len(e));
    while (sbx_span_attrs_next(&it, &a)) {
        assert_true(n < sizeof kinds / sizeof kinds[0]);
        assert_string_equal(a.kind, kinds[n]);
        if (values[n]) {
            assert_int_equal((size_t)(a.val_end - a.val), strlen(values[n]));
            assert_memory_equal(a.val, values[n], strlen(values[n]));
        }
        if (n == 3)
            assert_int_equal(a.val[0], '{');
        if (n == 7)
            assert_true(sbx_jwk_key_is(a.key, a.key_len, "escaped"));
        n++;
    }
    assert_int_equal(n, 9);
    loadtest_drop(tl);
}

static void resource_of_a_span(void **state)
{
    (void)state;
    struct sbx_timeline *tl = load(NEW_KEYS, 1);
    const struct sbx_event *e = span_event(tl, "a000000000000003");
    const char *res, *res_end;
    const struct sbx_source *src = &tl->sources[0];
    assert_true(sbx_span_resource(src->data, src->size, e->line_off, &res, &res_end));
    struct sbx_jwk it;
    struct sbx_span_attr a;
    sbx_span_attrs_begin(&it, res, (size_t)(res_end - res));
    assert_true(sbx_span_attrs_next(&it, &a));
    assert_true(sbx_jwk_key_is(a.key, a.key_len, "service.name"));
    assert_memory_equal(a.val, "\"runner\"", 8);
    assert_false(sbx_span_attrs_next(&it, &a));
    loadtest_drop(tl);
}

static bool detects(const char *fixture)
{
    char *text = quotes(fixture);
    bool r = sbx_format_otlp.detect(text, strlen(text));
    const struct sbx_format *any = sbx_detect_format(text, strlen(text));
    if (r)
        assert_ptr_equal(any, &sbx_format_otlp);
    free(text);
    return r;
}

static void detection(void **state)
{
    (void)state;
    assert_true(detects(NEW_KEYS));
    assert_true(detects(OLD_KEYS));
    assert_true(detects("\n  " LINE("")));
    assert_true(detects("{'other':1,'resourceSpans':[]}\n"));
    assert_false(detects("{'kind':'command','at':'2026-01-01T00:00:00Z','cmd':'resourceSpans'}\n"));
    assert_false(detects("{'resourceSpans':{}}\n"));
    assert_false(detects("{'ts':'2026-09-19T10:00:00+00:00','event':'exec'}\n"));
    assert_false(detects("{\n  'name': 'execute_tool exec',\n  'context': {}\n}\n"));
    assert_false(detects("[]"));
    assert_false(detects(""));
    /* a first line longer than the window: the key before the cut decides */
    size_t big = (64u << 10) + 100;
    char *text = malloc(big + 1);
    memset(text, ' ', big);
    memcpy(text, "{\"resourceSpans\":[", 18);
    text[big] = '\0';
    assert_true(sbx_format_otlp.detect(text, big));
    memcpy(text, "{\"resourceSpanz\":[", 18);
    assert_false(sbx_format_otlp.detect(text, big));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_keys_string_ints),
        cmocka_unit_test(own_json_range),
        cmocka_unit_test(old_keys_number_ints),
        cmocka_unit_test(int64_extremes),
        cmocka_unit_test(one_trace_over_lines),
        cmocka_unit_test(orphans_and_loops),
        cmocka_unit_test(failed_and_denied),
        cmocka_unit_test(timeouts),
        cmocka_unit_test(derived_duration_rounds),
        cmocka_unit_test(bad_lines_and_spans),
        cmocka_unit_test(array_and_kvlist_attributes),
        cmocka_unit_test(resource_of_a_span),
        cmocka_unit_test(detection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
