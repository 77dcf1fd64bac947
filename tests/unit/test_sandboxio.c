/* The sandboxio audit-line importer: commands from argv (null, redacted,
 * not an array), run_code with and without its code, file operations,
 * unknown operations, network denials through to the summary, fields of the
 * wrong type, bad lines with their reasons, the fields the detail lists,
 * and detection both ways against the recorder, Runtime and Squid. */
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
#include "importers/load.h"
#include "model/sandboxio_line.h"
#include "query/query.h"
#include "analyses/summary.h"
#include "render/findings.h"

#define MS INT64_C(1000000)
/* 2026-11-29T08:38:48Z */
#define T0 INT64_C(1795941528000000000)

static struct sbx_timeline *load_bytes(const char *bytes, size_t n, int threads)
{
    return loadtest_bytes(&sbx_format_sandboxio, "audit.jsonl", bytes, n, threads, 1);
}
#define LOAD(s) load_bytes((s), sizeof(s) - 1, 1)

/* The event's command line as sbx_text_get gives it ("(absent)" when the
 * field is not there). */
static const char *command_of(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    static char out[512];
    if (!(e->u.cmd.command.flags & SBX_TEXT_PRESENT))
        return "(absent)";
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t n;
    const char *s = sbx_text_get(tl, e, &e->u.cmd.command, &scratch, &n);
    assert_true(n < sizeof out);
    memcpy(out, s, n);
    out[n] = '\0';
    sbx_buf_free(&scratch);
    return out;
}

#define COMMON "\"sandbox_id\":\"b4d49ff8e1d2\",\"backend\":\"docker\",\"isolation\":\"container\"," \
               "\"tenant_id\":\"acme\",\"session_id\":\"s-3\""
#define EMPTY_SHA "\"code_sha256\":\"" SBX_SANDBOXIO_EMPTY_SHA256 "\""

static const char LOG[] =
    /* 1 */ "{\"ts\":\"2026-11-29T08:38:48.178532+00:00\",\"event\":\"exec\"," COMMON "," EMPTY_SHA ","
            "\"argv\":[\"python3\",\"csvsum.py\",\"prices.csv\",\"price\"],\"exit_code\":1,\"duration_ms\":113,"
            "\"bytes_in\":0,\"bytes_out\":550,\"network_denials\":0}\n"
    /* 2 */ "{\"ts\":\"2026-11-29T08:38:48.309532+00:00\",\"event\":\"file_read\"," COMMON "," EMPTY_SHA ","
            "\"argv\":null,\"exit_code\":0,\"duration_ms\":3,\"bytes_in\":0,\"bytes_out\":1615,\"network_denials\":0}\n"
    /* 3 */ "{\"ts\":\"2026-11-29T08:38:48.333196+00:00\",\"event\":\"exec\"," COMMON "," EMPTY_SHA ","
            "\"argv\":[\"curl\",\"-fsS\",\"https://pastebin.com/raw/Zx81\"],\"exit_code\":6,\"duration_ms\":72,"
            "\"bytes_in\":0,\"bytes_out\":47,\"network_denials\":2}\n"
    /* 4 */ "{\"ts\":\"2026-11-29T08:38:48.405329+00:00\",\"event\":\"run_code\"," COMMON ","
            "\"code_sha256\":\"ac906c2168c6bb959faa9212c254d1051ba9833c46e76caae43bcef23c41d175\","
            "\"argv\":null,\"exit_code\":0,\"duration_ms\":128,\"bytes_in\":166,\"bytes_out\":0,\"network_denials\":0}\n"
    /* 5 */ "{\"ts\":\"2026-11-29T08:38:48.600000+00:00\",\"event\":\"run_code\"," COMMON ","
            "\"code_sha256\":\"0d1e\",\"argv\":null,\"code\":\"import os\\nprint(os.environ['TOKEN'])\\n\","
            "\"exit_code\":null,\"duration_ms\":20,\"bytes_in\":40,\"bytes_out\":4,\"network_denials\":0}\n"
    /* 6 */ "{\"ts\":\"2026-11-29T08:38:49.546722+00:00\",\"event\":\"exec\"," COMMON "," EMPTY_SHA ","
            "\"argv\":[\"bash\",\"-c\",\"***\"],\"exit_code\":0,\"duration_ms\":59,\"bytes_in\":0,\"bytes_out\":2,"
            "\"network_denials\":0}\n"
    /* 7 */ "{\"ts\":\"2026-11-29T08:38:49.700000+00:00\",\"event\":\"file_write\"," COMMON "," EMPTY_SHA ","
            "\"argv\":null,\"exit_code\":0,\"duration_ms\":4,\"bytes_in\":120,\"bytes_out\":0,\"network_denials\":1}\n"
    /* 8 */ "{\"ts\":\"2026-11-29T08:38:49.800000+00:00\",\"event\":\"snapshot\"," COMMON "," EMPTY_SHA ","
            "\"argv\":null,\"exit_code\":null,\"duration_ms\":900,\"bytes_in\":0,\"bytes_out\":0,"
            "\"network_denials\":3,\"snapshot_id\":\"snap-1\"}\n"
    /* 9 */ "{\"ts\":\"2026-11-29T08:38:49.900000+00:00\",\"event\":\"stream\"," COMMON "," EMPTY_SHA ","
            "\"argv\":[\"tail\",\"-f\",\"log file.txt\"],\"exit_code\":null,\"duration_ms\":1500,"
            "\"bytes_in\":0,\"bytes_out\":9000,\"network_denials\":0}\n"
    /* 10 */ "{\"ts\":\"2026-11-29T08:38:50.000000+00:00\",\"event\":\"file_list\"," COMMON "," EMPTY_SHA ","
             "\"argv\":null,\"exit_code\":0,\"duration_ms\":1,\"bytes_in\":null,\"bytes_out\":88,\"network_denials\":0}\n";

static void commands(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(LOG);
    assert_int_equal(tl->nskips, 0);
    assert_int_equal(tl->n, 10);

    const struct sbx_event *e = loadtest_at_line(tl, 1);
    assert_int_equal(e->kind, SBX_EV_COMMAND);
    assert_string_equal(sbx_str(tl, e->label), "exec");
    /* ts is the start, to the microsecond; the end is ts + duration_ms */
    assert_int_equal(e->start, T0 + 178532000);
    assert_int_equal(e->end, e->start + 113 * MS);
    assert_int_equal(e->tflags, 0);
    assert_string_equal(sbx_str(tl, e->sandbox), "b4d49ff8e1d2");
    assert_true(e->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
    assert_int_equal(sbx_cmd_exit(&e->u.cmd), 1);
    assert_true(e->u.cmd.flags & SBX_CMD_MS_KNOWN);
    assert_int_equal(sbx_cmd_ms(&e->u.cmd), 113);
    assert_true(e->u.cmd.command.flags & SBX_TEXT_ARGV);
    assert_false(e->u.cmd.command.flags & SBX_TEXT_UNUSUAL);
    assert_string_equal(command_of(tl, e), "python3 csvsum.py prices.csv price");
    assert_string_equal(sbx_str(tl, e->u.cmd.program), "python3");
    assert_false(e->u.cmd.flags & SBX_CMD_DENIALS);
    assert_int_equal(e->findings, 0);

    e = loadtest_at_line(tl, 3);
    assert_string_equal(command_of(tl, e), "curl -fsS https://pastebin.com/raw/Zx81");
    assert_string_equal(sbx_str(tl, e->u.cmd.program), "curl");
    assert_true(e->u.cmd.flags & SBX_CMD_DENIALS);
    assert_int_equal(e->u.cmd.denials, 2);

    /* run_code: no argv; without captured code there is no command line */
    e = loadtest_at_line(tl, 4);
    assert_int_equal(e->kind, SBX_EV_COMMAND);
    assert_string_equal(command_of(tl, e), "(absent)");
    assert_string_equal(sbx_str(tl, e->u.cmd.program), "run_code");
    assert_int_equal(sbx_cmd_exit(&e->u.cmd), 0);
    /* with it, the code is the command; exit_code null is unknown, not bad */
    e = loadtest_at_line(tl, 5);
    assert_string_equal(command_of(tl, e), "import os\nprint(os.environ['TOKEN'])\n");
    assert_false(e->u.cmd.command.flags & SBX_TEXT_ARGV);
    assert_false(e->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
    assert_int_equal(e->findings, 0);

    /* the redacted script: shown as ***, the shell is the program */
    e = loadtest_at_line(tl, 6);
    assert_string_equal(command_of(tl, e), "bash -c ***");
    assert_string_equal(sbx_str(tl, e->u.cmd.program), "bash");

    e = loadtest_at_line(tl, 9);
    assert_int_equal(e->kind, SBX_EV_COMMAND);
    assert_string_equal(sbx_str(tl, e->label), "stream");
    assert_string_equal(command_of(tl, e), "tail -f 'log file.txt'");
    assert_int_equal(e->end - e->start, 1500 * MS);
    loadtest_drop(tl);
}

static void files_and_notes(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(LOG);
    static const struct {
        uint32_t line;
        const char *op;
        int64_t in, out;
        uint64_t denials;
    } ops[] = {{2, "file_read", 0, 1615, 0}, {7, "file_write", 120, 0, 1}, {10, "file_list", -1, 88, 0}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const struct sbx_event *e = loadtest_at_line(tl, ops[i].line);
        assert_int_equal(e->kind, SBX_EV_FILES);
        assert_string_equal(sbx_str(tl, e->label), ops[i].op);
        const struct sbx_files *f = e->u.files;
        assert_non_null(f);
        assert_true(f->flags & SBX_FILES_OPERATION);
        for (int c = 0; c < SBX_CHANGE_COUNT; c++)
            assert_int_equal(f->n[c], 0);
        assert_true(f->flags & SBX_FILES_MORE);
        assert_int_equal(sbx_files_more(f)->bytes_in, ops[i].in);
        assert_int_equal(sbx_files_more(f)->bytes_out, ops[i].out);
        assert_int_equal(sbx_files_more(f)->denials, ops[i].denials);
        assert_int_equal(sbx_event_denials(e), ops[i].denials);
    }
    /* an operation sbxview does not know: a note, never dropped */
    const struct sbx_event *e = loadtest_at_line(tl, 8);
    assert_int_equal(e->kind, SBX_EV_NOTE);
    assert_string_equal(sbx_str(tl, e->label), "snapshot");
    assert_int_equal(e->end - e->start, 900 * MS);
    assert_int_equal(sbx_event_denials(e), 3);
    loadtest_drop(tl);
}

static void denials_in_the_summary(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(LOG);
    struct sbx_summary sum;
    char err[256];
    assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
    /* curl (2), file_write (1), snapshot (3), in time order */
    assert_int_equal(sum.ndenials, 3);
    assert_int_equal(sum.denied_connections, 6);
    assert_ptr_equal(sum.denials[0], loadtest_at_line(tl, 3));
    assert_ptr_equal(sum.denials[1], loadtest_at_line(tl, 7));
    assert_ptr_equal(sum.denials[2], loadtest_at_line(tl, 8));
    for (uint32_t line = 1; line <= 10; line++) {
        bool refused = line == 3 || line == 7 || line == 8;
        assert_int_equal(!!(loadtest_at_line(tl, line)->findings & SBX_F_REFUSED_HOST), refused);
    }
    /* no host is known: none is listed as refused */
    assert_int_equal(sum.nrefused, 0);
    /* but sbxview check and the exports list each operation as a refusal */
    struct sbx_findings found = {0};
    sbx_findings_collect(tl, &sum, 0, &found);
    size_t refusals = 0;
    for (size_t i = 0; i < found.n; i++)
        if (found.f[i].kind == SBX_F_REFUSED_HOST) {
            assert_ptr_equal(found.f[i].event, sum.denials[refusals]);
            assert_non_null(strstr(found.f[i].evidence, "refused by the sandbox's network policy"));
            refusals++;
        }
    assert_int_equal(refusals, 3);
    sbx_findings_free(&found);
    /* file operations name no path: nothing says the workspace was checked */
    assert_int_equal(sum.workspace_manifests, 0);
    assert_int_equal(sum.commands, 6);
    assert_int_equal(sum.failed, 2);
    sbx_summary_free(&sum);
    loadtest_drop(tl);
}

static void search_finds_argv_words(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(LOG);
    char err[128];
    const char *pat = "python3 csvsum.py";
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_SEARCH, pat, strlen(pat), NULL, err, sizeof err);
    assert_non_null(q);
    uint32_t *pos;
    struct sbx_query_job job = {.threads = 1};
    size_t n = sbx_query_run(q, tl, NULL, 0, &pos, &job);
    assert_int_equal(n, 1);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, pos[0])), 1);
    free(pos);
    sbx_query_free(q);
    loadtest_drop(tl);
}

static const char WRONG[] =
    /* 1 */ "{\"ts\":\"2026-11-29T08:38:48.1+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"ls\"],\"exit_code\":\"1\"}\n"
    /* 2 */ "{\"ts\":1795941528,\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"ls\"],\"exit_code\":0}\n"
    /* 3 */ "{\"ts\":\"yesterday\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"ls\"],\"exit_code\":0}\n"
    /* 4 */ "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"ls\",1],\"exit_code\":0}\n"
    /* 5 */ "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":\"ls -la\",\"exit_code\":0}\n"
    /* 6 */ "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"ls\"],\"duration_ms\":-5}\n"
    /* 7 */ "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"ls\"],\"network_denials\":\"2\"}\n"
    /* 8 */ "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"sandbox_id\":\"s\",\"argv\":[\"ls\"]}\n"
    /* 9 */ "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"exec\",\"sandbox_id\":7,\"argv\":[\"ls\"],\"backend\":false}\n"
    /* 10 */ "{\"ts\":\"2026-11-29T08:38:48\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"ls\"],\"duration_ms\":2.6,\"exit_code\":-0}\n";

static void wrong_types(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(WRONG);
    assert_int_equal(tl->nskips, 0);
    assert_int_equal(tl->n, 10);
    for (uint32_t line = 1; line <= 10; line++)
        if (!(loadtest_at_line(tl, line)->findings & SBX_F_BAD_FIELD))
            fail_msg("line %u: no bad field", line);
    const struct sbx_event *e = loadtest_at_line(tl, 1);
    assert_false(e->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
    assert_string_equal(command_of(tl, e), "ls");
    assert_int_equal(loadtest_at_line(tl, 2)->start, SBX_TIME_UNKNOWN);
    assert_int_equal(loadtest_at_line(tl, 3)->start, SBX_TIME_UNKNOWN);
    /* an argv that is not an array of strings: shown as it is */
    e = loadtest_at_line(tl, 4);
    assert_false(e->u.cmd.command.flags & SBX_TEXT_ARGV);
    assert_string_equal(command_of(tl, e), "[\"ls\",1]");
    assert_string_equal(command_of(tl, loadtest_at_line(tl, 5)), "ls -la");
    e = loadtest_at_line(tl, 6);
    assert_false(e->u.cmd.flags & SBX_CMD_MS_KNOWN);
    assert_int_equal(e->end, e->start);
    assert_false(loadtest_at_line(tl, 7)->u.cmd.flags & SBX_CMD_DENIALS);
    /* no event name: a note */
    assert_int_equal(loadtest_at_line(tl, 8)->kind, SBX_EV_NOTE);
    assert_int_equal(loadtest_at_line(tl, 9)->sandbox, 0);
    /* no zone: read as UTC and said so; a real duration rounds; -0 is no exit */
    e = loadtest_at_line(tl, 10);
    assert_true(e->tflags & SBX_EVT_NO_ZONE);
    assert_int_equal(sbx_cmd_ms(&e->u.cmd), 3);
    assert_false(e->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
    loadtest_drop(tl);
}

static void bad_lines(void **state)
{
    (void)state;
    static const char log[] =
        "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"a\"]}\n"
        "not json\n"
        "\n"
        "{\"ts\":\"2026-11-29T08:38:49+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"b\",]}\n"
        "[\"ts\",\"event\"]\n"
        "{\"ts\":\"2026-11-29T08:38:50+00:00\",\"event\":\"exec\",\"event\":\"exec\"}\n"
        "{\"ts\":\"2026-11-29T08:38:51+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"c\"]}\n"
        "{\"ts\":\"2026-11-29T08:38:52+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"d";
    struct sbx_timeline *tl = load_bytes(log, sizeof log - 1, 1);
    /* line 6 gives "event" twice: JSON, read with its last value, marked */
    assert_int_equal(tl->n, 3);
    assert_string_equal(command_of(tl, loadtest_at_line(tl, 1)), "a");
    assert_string_equal(command_of(tl, loadtest_at_line(tl, 7)), "c");
    assert_true(loadtest_at_line(tl, 6)->tflags & SBX_EVT_DUP_FIELD);
    assert_int_equal(tl->nskips, 4);
    static const uint32_t bad[] = {2, 4, 5};
    for (size_t i = 0; i < 3; i++) {
        const char *why = loadtest_skip_reason(tl, bad[i]);
        if (!why || strncmp(why, "not JSON: ", 10) != 0)
            fail_msg("line %u: %s", bad[i], why ? why : "not skipped");
    }
    assert_non_null(strstr(loadtest_skip_reason(tl, 4), "nested value"));
    assert_non_null(strstr(loadtest_skip_reason(tl, 5), "not a JSON object"));
    /* the last line, cut short while it was written */
    assert_non_null(loadtest_skip_reason(tl, 8));
    loadtest_drop(tl);
}

static void unusual_argv(void **state)
{
    (void)state;
    static const char log[] =
        "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"echo\",\"a\\u200bb\"]}\n"
        "{\"ts\":\"2026-11-29T08:38:49+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"echo\",\"caf\xc3\xa9\"]}\n"
        "{\"ts\":\"2026-11-29T08:38:50+00:00\",\"event\":\"exec\",\"sandbox_id\":\"s\",\"argv\":[\"echo\",\"plain\"]}\n";
    struct sbx_timeline *tl = LOAD(log);
    assert_true(loadtest_at_line(tl, 1)->u.cmd.command.flags & SBX_TEXT_UNUSUAL);
    assert_true(loadtest_at_line(tl, 2)->u.cmd.command.flags & SBX_TEXT_UNUSUAL);
    assert_false(loadtest_at_line(tl, 3)->u.cmd.command.flags & SBX_TEXT_UNUSUAL);
    struct sbx_summary sum;
    char err[256];
    assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
    assert_true(loadtest_at_line(tl, 1)->findings & SBX_F_HIDDEN_TEXT);
    assert_false(loadtest_at_line(tl, 2)->findings & SBX_F_HIDDEN_TEXT);
    sbx_summary_free(&sum);
    loadtest_drop(tl);
}

static void two_threads_agree(void **state)
{
    (void)state;
    struct sbx_buf big = SBX_BUF_INIT;
    for (int i = 0; i < 200; i++)
        sbx_buf_add(&big, LOG, sizeof LOG - 1);
    struct sbx_timeline *one = load_bytes(big.p, big.len, 1), *two = load_bytes(big.p, big.len, 2);
    assert_int_equal(one->n, 2000);
    assert_int_equal(two->n, one->n);
    for (size_t i = 0; i < one->n; i++) {
        const struct sbx_event *a = sbx_tl_at(one, i), *b = sbx_tl_at(two, i);
        assert_int_equal(sbx_ev_line_no(a), sbx_ev_line_no(b));
        assert_int_equal(a->start, b->start);
        assert_int_equal(a->kind, b->kind);
        assert_string_equal(sbx_str(one, a->label), sbx_str(two, b->label));
    }
    sbx_buf_free(&big);
    loadtest_drop(one);
    loadtest_drop(two);
}

struct collected {
    char text[1024];
};

static void collect(void *ctx, const char *key, size_t klen, const char *val, size_t vlen,
                    bool string)
{
    struct collected *c = ctx;
    snprintf(c->text + strlen(c->text), sizeof c->text - strlen(c->text), "%s%.*s=%s%.*s%s",
             c->text[0] ? " " : "", (int)klen, key, string ? "'" : "", (int)vlen, val,
             string ? "'" : "");
}

static void extras_for_the_detail(void **state)
{
    (void)state;
    static const char line[] =
        "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"run_code\",\"sandbox_id\":\"s\",\"backend\":\"docker\","
        "\"isolation\":\"gvisor\",\"tenant_id\":null,\"session_id\":\"s\\u002d1\",\"code_sha256\":\"ab\","
        "\"argv\":null,\"code\":\"print(\\\"***\\\")\",\"exit_code\":0,\"duration_ms\":1,\"bytes_in\":4,"
        "\"bytes_out\":5,\"network_denials\":0,\"region\":{\"a\":1}}";
    struct collected c = {""};
    assert_true(sbx_sandboxio_extras(line, sizeof line - 1, collect, &c));
    assert_string_equal(c.text, "backend='docker' isolation='gvisor' tenant_id=null session_id='s-1' "
                                "code_sha256='ab' bytes_in=4 bytes_out=5 region={\"a\":1}");
    struct collected code = {""};
    assert_true(sbx_sandboxio_code(line, sizeof line - 1, collect, &code));
    assert_string_equal(code.text, "code='print(\"***\")'");
    struct collected none = {""};
    assert_false(sbx_sandboxio_code("{\"code\":null}", 13, collect, &none));
    assert_false(sbx_sandboxio_extras("not json", 8, collect, &none));
    assert_string_equal(none.text, "");
}

#define DETECT(s) sbx_detect_format((s), sizeof(s) - 1)

static void detection(void **state)
{
    (void)state;
    assert_ptr_equal(DETECT(LOG), &sbx_format_sandboxio);
    /* a damaged first line does not hide the format */
    assert_ptr_equal(DETECT("{\"ts\": \n" "{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"exec\","
                            "\"sandbox_id\":\"s\",\"exit_code\":0}\n"),
                     &sbx_format_sandboxio);
    /* ts, event and sandbox_id alone could be anyone's */
    assert_null(DETECT("{\"ts\":\"2026-11-29T08:38:48+00:00\",\"event\":\"login\",\"sandbox_id\":\"s\"}\n"));
    /* ts must be a string, event too */
    assert_null(DETECT("{\"ts\":1,\"event\":\"exec\",\"sandbox_id\":\"s\",\"exit_code\":0}\n"));
    /* sandboxio is no other format */
    for (size_t i = 0; sbx_formats[i]; i++)
        if (sbx_formats[i] != &sbx_format_sandboxio && sbx_formats[i]->detect(LOG, sizeof LOG - 1))
            fail_msg("%s claims a sandboxio log", sbx_formats[i]->name);
    /* and no other format is sandboxio */
    static const char *const others[] = {
        /* recorder */
        "{\"at\": \"2026-11-29T08:38:48.291532+00:00\", \"sandbox\": \"b4d49ff8\", \"kind\": \"command\", "
        "\"command\": \"ls\", \"exit\": 0, \"ms\": 3}\n",
        /* Runtime's command record, lifecycle events, audit entries, metrics */
        "{\"id\": \"c1\", \"sandboxId\": \"s1\", \"program\": \"ls\", \"startedAt\": \"2026-11-29T08:38:48Z\", "
        "\"exitCode\": 0}\n",
        "{\"type\": \"sandbox.started\", \"sandboxId\": \"s1\", \"createdAt\": \"2026-11-29T08:38:48Z\"}\n",
        "{\"action\": \"network.rules_changed\", \"at\": \"2026-11-29T08:38:48Z\", \"seq\": 4, \"actor\": {}}\n",
        "{\"sandbox_id\": \"s1\", \"points\": [{\"ts\": \"2026-11-29T08:38:48Z\", \"cpu\": 3}]}\n",
        /* Squid */
        "1795942225.114     13 127.0.0.1 TCP_MISS/200 428 GET http://a/ - HIER_DIRECT/127.0.0.1 text/html\n",
        /* OpenTelemetry */
        "{\"resourceSpans\":[{\"resource\":{\"attributes\":[]},\"scopeSpans\":[]}]}\n",
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        if (sbx_format_sandboxio.detect(others[i], strlen(others[i])))
            fail_msg("sandboxio claims: %s", others[i]);
        const struct sbx_format *f = sbx_detect_format(others[i], strlen(others[i]));
        if (f == &sbx_format_sandboxio)
            fail_msg("detected as sandboxio: %s", others[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commands),           cmocka_unit_test(files_and_notes),
        cmocka_unit_test(denials_in_the_summary), cmocka_unit_test(search_finds_argv_words),
        cmocka_unit_test(wrong_types),        cmocka_unit_test(bad_lines),
        cmocka_unit_test(unusual_argv),       cmocka_unit_test(two_threads_agree),
        cmocka_unit_test(extras_for_the_detail), cmocka_unit_test(detection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
