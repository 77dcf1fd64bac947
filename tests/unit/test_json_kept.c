/* JSON that is valid though hostile is kept, in every JSON format: a \u0000
 * in a string value, a key given twice (the last value is read, and the
 * line is marked for the field-twice finding), an integer beyond int64 in a
 * field sbxview does not need. Each format gets the three lines, and each
 * must load them all, mark only the one with the key given twice, and the
 * summary must make that one a finding (and a NUL in a command's output
 * hidden text). docs/hostile-inputs.md has the rows. */
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

#define BIG "123456789012345678901234567890"
#define SBIO "\"sandbox_id\":\"b4d49ff8e1d2\",\"backend\":\"docker\",\"isolation\":\"container\"," \
             "\"tenant_id\":\"acme\",\"session_id\":\"s-3\",\"duration_ms\":1,\"bytes_in\":0,"      \
             "\"bytes_out\":0,\"network_denials\":0"
#define WEBHOOK_BODY(extra)                                                                       \
    "\"{\\\"id\\\":\\\"ev-1\\\",\\\"type\\\":\\\"sandbox.stopped\\\",\\\"createdAt\\\":"           \
    "\\\"2026-05-04T10:00:09.500Z\\\",\\\"resourceId\\\":\\\"a1\\\"" extra "}\""
#define SPAN(extra)                                                                               \
    "{\"resourceSpans\":[{\"resource\":{\"attributes\":[]},\"scopeSpans\":[{\"scope\":{\"name\":" \
    "\"s\"},\"spans\":[{\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":"             \
    "\"7a3c000000001111\",\"name\":\"execute_tool bash\",\"kind\":1,\"startTimeUnixNano\":"        \
    "\"1791450842010000000\",\"endTimeUnixNano\":\"1791450842028123456\"" extra "}]}]}]}\n"

struct kept_case {
    const char *name;
    const struct sbx_format *fmt;
    const char *log; /* line 1: a NUL; line 2: a key twice; line 3: a big integer */
    bool command;    /* line 1 is a command whose text holds the NUL: hidden text */
};

static const struct kept_case *cases(size_t *n)
{
    static const struct kept_case c[] = {
        {"recorder", &sbx_format_recorder,
         "{\"at\":\"2026-01-01T00:00:00Z\",\"kind\":\"command\",\"command\":\"find . -print0\","
         "\"exit\":0,\"ms\":1,\"stdout\":\"a\\u0000b\"}\n"
         "{\"at\":\"2026-01-01T00:00:01Z\",\"kind\":\"command\",\"command\":\"ls\",\"exit\":1,"
         "\"ms\":1,\"exit\":0}\n"
         "{\"at\":\"2026-01-01T00:00:02Z\",\"kind\":\"command\",\"command\":\"ls\",\"exit\":0,"
         "\"ms\":1,\"pid\":" BIG "}\n",
         true},
        {"sandboxio", &sbx_format_sandboxio,
         "{\"ts\":\"2026-11-29T08:38:48.178532+00:00\",\"event\":\"exec\"," SBIO ","
         "\"argv\":[\"printf\",\"a\\u0000b\"],\"exit_code\":0}\n"
         "{\"ts\":\"2026-11-29T08:38:49.178532+00:00\",\"event\":\"exec\"," SBIO ","
         "\"argv\":[\"ls\"],\"exit_code\":1,\"exit_code\":0}\n"
         "{\"ts\":\"2026-11-29T08:38:50.178532+00:00\",\"event\":\"exec\"," SBIO ","
         "\"argv\":[\"ls\"],\"exit_code\":0,\"pid\":-" BIG "}\n",
         true},
        {"runtime commands", &sbx_format_runtime_commands,
         "{\"id\":\"rec-1\",\"sandboxId\":\"a1\",\"program\":\"echo\",\"exitCode\":0,\"state\":"
         "\"exited\",\"startedAt\":\"2026-05-04T10:00:08.990Z\",\"durationMs\":5,\"note\":\"a\\u0000\"}\n"
         "{\"id\":\"rec-2\",\"sandboxId\":\"a1\",\"program\":\"echo\",\"exitCode\":1,\"state\":"
         "\"exited\",\"startedAt\":\"2026-05-04T10:00:09.990Z\",\"durationMs\":5,\"exitCode\":0}\n"
         "{\"id\":\"rec-3\",\"sandboxId\":\"a1\",\"program\":\"echo\",\"exitCode\":0,\"state\":"
         "\"exited\",\"startedAt\":\"2026-05-04T10:00:10.990Z\",\"durationMs\":5,\"seq\":" BIG "}\n",
         false},
        {"runtime events", &sbx_format_runtime_events,
         "{\"id\":\"ev-1\",\"type\":\"sandbox.stopped\",\"createdAt\":\"2026-05-04T10:00:09.500Z\","
         "\"resourceId\":\"a1\",\"data\":{\"sandbox\":{\"id\":\"a1\",\"name\":\"x\\u0000y\"}}}\n"
         "{\"id\":\"ev-2\",\"type\":\"sandbox.stopped\",\"createdAt\":\"2026-05-04T10:00:10.500Z\","
         "\"resourceId\":\"a1\",\"data\":{\"sandbox\":{\"id\":\"a1\",\"state\":\"x\",\"state\":"
         "\"stopped\"}}}\n"
         "{\"id\":\"ev-3\",\"type\":\"sandbox.stopped\",\"createdAt\":\"2026-05-04T10:00:11.500Z\","
         "\"resourceId\":\"a1\",\"data\":{\"sandbox\":{\"id\":\"a1\",\"memoryMiB\":" BIG "}}}\n",
         false},
        {"runtime webhooks", &sbx_format_runtime_webhooks,
         "{\"headers\":{},\"note\":\"a\\u0000b\",\"body\":" WEBHOOK_BODY("") "}\n"
         "{\"headers\":{},\"body\":" WEBHOOK_BODY(",\\\"type\\\":\\\"sandbox.stopped\\\"") "}\n"
         "{\"headers\":{},\"attempt\":" BIG ",\"body\":" WEBHOOK_BODY(",\\\"n\\\":" BIG) "}\n",
         false},
        {"otlp", &sbx_format_otlp,
         SPAN(",\"attributes\":[{\"key\":\"gen_ai.tool.name\",\"value\":{\"stringValue\":\"a\\u0000b\"}}]")
         SPAN(",\"kind\":2")
         SPAN(",\"droppedAttributesCount\":" BIG),
         false},
    };
    *n = sizeof c / sizeof c[0];
    return c;
}

static void each_line_kept(void **state)
{
    (void)state;
    size_t n;
    const struct kept_case *c = cases(&n);
    for (size_t i = 0; i < n; i++) {
        for (int threads = 1; threads <= 2; threads++) {
            struct sbx_timeline *tl =
                loadtest_bytes(c[i].fmt, "kept.jsonl", c[i].log, strlen(c[i].log), threads, 1);
            if (tl->nskips)
                fail_msg("%s: line %u skipped: %s", c[i].name, tl->skips[0].line,
                         tl->skips[0].reason);
            if (tl->n != 3)
                fail_msg("%s: %zu events for 3 lines", c[i].name, tl->n);
            for (uint32_t line = 1; line <= 3; line++) {
                const struct sbx_event *e = loadtest_at_line(tl, line);
                bool twice = e->tflags & SBX_EVT_DUP_FIELD;
                if (twice != (line == 2))
                    fail_msg("%s: line %u %s a field twice", c[i].name, line,
                             twice ? "marked as giving" : "not marked as giving");
            }
            struct sbx_summary sum;
            char err[256];
            assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
            for (uint32_t line = 1; line <= 3; line++) {
                const struct sbx_event *e = loadtest_at_line(tl, line);
                if (!(e->findings & SBX_F_DUP_FIELD) != (line != 2))
                    fail_msg("%s: line %u field-twice finding wrong", c[i].name, line);
                if (c[i].command && line == 1 && !(e->findings & SBX_F_HIDDEN_TEXT))
                    fail_msg("%s: a NUL in the command's text is no hidden text", c[i].name);
                if (line > 1 && (e->findings & SBX_F_HIDDEN_TEXT))
                    fail_msg("%s: line %u hidden text without a NUL", c[i].name, line);
            }
            sbx_summary_free(&sum);
            loadtest_drop(tl);
        }
    }
}

/* The last value is the one read, as jansson reads it. */
static void last_value_read(void **state)
{
    (void)state;
    size_t n;
    const struct kept_case *c = cases(&n);
    for (size_t i = 0; i < 3; i++) { /* the three whose line 2 gives exit 1, then exit 0 */
        struct sbx_timeline *tl =
            loadtest_bytes(c[i].fmt, "kept.jsonl", c[i].log, strlen(c[i].log), 1, 0);
        const struct sbx_event *e = loadtest_at_line(tl, 2);
        assert_int_equal(e->kind, SBX_EV_COMMAND);
        assert_true(e->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
        assert_int_equal(sbx_cmd_exit(&e->u.cmd), 0);
        loadtest_drop(tl);
    }
    /* and a value in a nested object: the lifecycle's state */
    struct sbx_timeline *tl =
        loadtest_bytes(c[3].fmt, "kept.jsonl", c[3].log, strlen(c[3].log), 1, 0);
    assert_string_equal(sbx_str(tl, loadtest_at_line(tl, 2)->u.life.state), "stopped");
    loadtest_drop(tl);
}

/* The NUL is in the text an event keeps, decoded. */
static void nul_kept_in_text(void **state)
{
    (void)state;
    size_t n;
    const struct kept_case *c = cases(&n);
    struct sbx_timeline *tl = loadtest_bytes(c[0].fmt, "kept.jsonl", c[0].log, strlen(c[0].log), 1, 0);
    const struct sbx_event *e = loadtest_at_line(tl, 1);
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t len;
    const char *out = sbx_text_get(tl, e, &e->u.cmd.out, &scratch, &len);
    assert_int_equal(len, 3);
    assert_memory_equal(out, "a\0b", 3);
    sbx_buf_free(&scratch);
    loadtest_drop(tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_line_kept),
        cmocka_unit_test(last_value_read),
        cmocka_unit_test(nul_kept_in_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
