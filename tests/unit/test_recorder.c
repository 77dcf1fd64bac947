/* The recorder importer and the loader: both spellings, every kind, and the
 * broken lines of docs/hostile-inputs.md rows 13-28 (reported with line and reason;
 * the rest loads). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/loadtest.h"

#include "importers/format.h"
#include "importers/load.h"
#include "model/files.h"
#include "tests/unit/cases.h"

struct loaded {
    struct sbx_timeline tl;
};

static struct sbx_timeline *load_bytes(const char *bytes, size_t n, int threads)
{
    return loadtest_bytes(&sbx_format_recorder, "test.jsonl", bytes, n, threads, 0);
}
#define LOAD(s) load_bytes((s), sizeof(s) - 1, 1)

static void drop(struct sbx_timeline *tl)
{
    loadtest_drop(tl);
}

static const char *skip_reason(const struct sbx_timeline *tl, uint32_t line)
{
    return loadtest_skip_reason(tl, line);
}

static void python_spelling(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(
        "{\"at\": \"2026-11-29T08:38:48.291532+00:00\", \"sandbox\": \"b4d49ff8\", \"kind\": \"command\", "
        "\"command\": \"python3 csvsum.py prices.csv price\", \"cwd\": \"/workspace\", \"exit\": 1, "
        "\"timed_out\": false, \"ms\": 113, \"stdout\": \"\", \"stderr\": \"Trace\\nback\", "
        "\"stdout_hash\": \"e3b0c44298fc1c14\"}\n");
    assert_int_equal(tl->n, 1);
    const struct sbx_event *e = sbx_tl_at(tl, 0);
    assert_int_equal(e->kind, SBX_EV_COMMAND);
    assert_int_equal(e->end, 1795941528291532000LL);
    assert_int_equal(e->start, e->end - 113000000LL);
    assert_string_equal(sbx_str(tl, e->sandbox), "b4d49ff8");
    assert_string_equal(sbx_str(tl, e->u.cmd.program), "python3");
    assert_string_equal(sbx_str(tl, e->u.cmd.cwd), "/workspace");
    assert_int_equal(sbx_cmd_exit(&e->u.cmd), 1);
    assert_true(e->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
    assert_false(e->u.cmd.flags & SBX_CMD_TIMED_OUT);
    assert_int_equal(e->u.cmd.stdout_hash, 0xe3b0c44298fc1c14ULL);
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t len;
    const struct sbx_text err_text = sbx_cmd_err(&e->u.cmd);
    const char *err = sbx_text_get(tl, e, &err_text, &scratch, &len);
    assert_int_equal(len, 10);
    assert_memory_equal(err, "Trace\nback", 10);
    sbx_buf_free(&scratch);
    assert_int_equal(sbx_ev_line_no(e), 1);
    drop(tl);
}

static void typescript_spelling(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(
        "{\"kind\":\"command\",\"at\":\"2026-10-08T14:10:03.123Z\",\"sandbox\":\"7f3a2c10\","
        "\"command\":\"bash -c \\\"pytest -q\\\"\",\"exit\":124,\"timedOut\":true,\"ms\":2000,"
        "\"stdout\":\"\",\"stderr\":\"\",\"stdoutHash\":\"E3B0C44298FC1C14\"}\n");
    assert_int_equal(tl->n, 1);
    const struct sbx_event *e = sbx_tl_at(tl, 0);
    assert_true(e->u.cmd.flags & SBX_CMD_TIMED_OUT);
    assert_string_equal(sbx_str(tl, e->u.cmd.program), "pytest");
    assert_true(e->u.cmd.flags & SBX_CMD_HASH_PRESENT);
    assert_int_equal(e->u.cmd.stdout_hash, 0xe3b0c44298fc1c14ULL);
    drop(tl);
}

static void files_and_notes(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(
        "{\"at\": \"2026-11-29T08:38:49.9Z\", \"kind\": \"files\", \"added\": [\"./a/b.py\"], "
        "\"removed\": [], \"changed\": [\"./csvsum.py\"]}\n"
        "{\"at\": \"2026-11-29T08:38:50Z\", \"kind\": \"files\", \"root\": \"/etc\", \"added\": [], "
        "\"removed\": [\"./hosts\"], \"changed\": []}\n"
        "{\"at\": \"2026-11-29T08:38:51Z\", \"kind\": \"checkpoint\", \"extra\": {\"x\": [1, 2]}}\n");
    assert_int_equal(tl->n, 3);
    const struct sbx_files *f = sbx_tl_at(tl, 0)->u.files;
    assert_int_equal(f->root, 0);
    assert_string_equal(sbx_files_path(tl, f, SBX_ADDED, 0), "a/b.py");
    assert_string_equal(sbx_files_path(tl, f, SBX_CHANGED, 0), "csvsum.py");
    f = sbx_tl_at(tl, 1)->u.files;
    assert_string_equal(sbx_str(tl, f->root), "/etc");
    assert_string_equal(sbx_files_path(tl, f, SBX_REMOVED, 0), "/etc/hosts");
    assert_int_equal(sbx_tl_at(tl, 2)->kind, SBX_EV_NOTE);
    assert_string_equal(sbx_kind_name(sbx_tl_at(tl, 0)->kind), "files");
    assert_string_equal(sbx_kind_name(sbx_tl_at(tl, 2)->kind), "note");
    assert_string_equal(sbx_str(tl, sbx_tl_at(tl, 2)->label), "checkpoint");
    drop(tl);
}

/* A files line's paths as the analyses get them: the leading "./" gone
 * (only there), under the root, whose trailing slash goes; "." under a
 * root is the root itself; ".." and doubled slashes stay as written. */
static void files_paths_under_root(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(
        "{\"at\": \"2026-01-01T10:00:01Z\", \"kind\": \"files\", \"root\": \"/usr/local/\", "
        "\"added\": [\"./bin/tool\"], \"removed\": [], \"changed\": []}\n"
        "{\"at\": \"2026-01-01T10:00:02Z\", \"kind\": \"files\", "
        "\"added\": [\"./a//b/./c\", \"../x\"], \"removed\": [], \"changed\": [\"src\"]}\n"
        "{\"at\": \"2026-01-01T10:00:03Z\", \"kind\": \"files\", \"root\": \"/etc\", "
        "\"added\": [\".\"], \"removed\": [\"./x\"], \"changed\": []}\n");
    assert_int_equal(tl->n, 3);
    const struct sbx_files *f = sbx_tl_at(tl, 0)->u.files;
    assert_string_equal(sbx_str(tl, f->root), "/usr/local");
    assert_string_equal(sbx_files_path(tl, f, SBX_ADDED, 0), "/usr/local/bin/tool");
    f = sbx_tl_at(tl, 1)->u.files;
    assert_int_equal(f->root, 0);
    assert_int_equal(f->n[SBX_ADDED], 2);
    assert_string_equal(sbx_files_path(tl, f, SBX_ADDED, 0), "a//b/./c");
    assert_string_equal(sbx_files_path(tl, f, SBX_ADDED, 1), "../x");
    assert_string_equal(sbx_files_path(tl, f, SBX_CHANGED, 0), "src");
    f = sbx_tl_at(tl, 2)->u.files;
    assert_string_equal(sbx_files_path(tl, f, SBX_ADDED, 0), "/etc/.");
    assert_string_equal(sbx_files_path(tl, f, SBX_REMOVED, 0), "/etc/x");
    drop(tl);
}

/* Rows 13-21: each broken line is reported with its number, the rest loads.
 * A \u0000 and a key given twice are JSON: those lines load (their rows at
 * the end of the table; tests/unit/test_json_kept.c has every format). */
static void broken_lines_reported(void **state)
{
    (void)state;
    static const char log[] =
        "{\"at\": \"2026-01-01T00:00:00Z\", \"kind\": \"command\", \"command\": \"ok\", \"exit\": 0}\n" /* 1 */
        "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"command\", \"command\": \"a\x1b b\"}\n"      /* 2 raw ESC */
        "{\"kind\": \"command\", \"stdout\": \"\\udcff\"}\n"                                        /* 3 */
        "{\"kind\": \"command\", \"exit\": NaN}\n"                                                  /* 4 */
        "{\"kind\": \"command\", \"command\": \"a\\u0000b\"}\n"                                     /* 5 kept */
        "{\"kind\": \"command\", \"exit\": 1, \"exit\": 0}\n"                                       /* 6 kept */
        "{\"kind\": \"command\", \"command\": \"\xff\"}\n"                                          /* 7 */
        "{\"kind\": \"command\", \"command\": \"\xc0\xaf\"}\n"                                      /* 8 */
        "{\"kind\": \"command\", \"command\": \"\xed\xa0\x80\"}\n"                                  /* 9 */
        "{\"at\": \"2026-01-01T00:00:02Z\", \"kind\": \"command\", \"command\": \"last\", \"exit\": 0}\n"; /* 10 */
    struct sbx_timeline *tl = LOAD(log);
    assert_int_equal(tl->n, 4);
    assert_int_equal(tl->nskips, 6);
    for (uint32_t line = 2; line <= 9; line++) {
        const char *r = skip_reason(tl, line);
        if (line == 5 || line == 6) {
            assert_null(r);
            continue;
        }
        assert_non_null(r);
        assert_non_null(strstr(r, "not JSON"));
    }
    assert_true(loadtest_at_line(tl, 6)->tflags & SBX_EVT_DUP_FIELD);
    assert_false(loadtest_at_line(tl, 5)->tflags & SBX_EVT_DUP_FIELD);
    assert_int_equal(tl->sources[0].skipped, 6);
    assert_int_equal(tl->sources[0].events, 4);
    drop(tl);
}

/* Row 19: deep nesting is rejected without blowing any stack. */
static void deep_nesting(void **state)
{
    (void)state;
    size_t n = 200000;
    char *s = malloc(n + 2);
    memset(s, '[', n);
    s[n] = '\n';
    struct sbx_timeline *tl = load_bytes(s, n + 1, 1);
    assert_int_equal(tl->n, 0);
    assert_int_equal(tl->nskips, 1);
    drop(tl);
    free(s);
}

/* Rows 20-21: wrong values load, shown as unknown, and are flagged. */
static void bad_values_are_unknown(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(
        "{\"at\": \"2026-01-01T00:00:00Z\", \"kind\": \"command\", \"exit\": 9223372036854775807}\n"
        "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"command\", \"exit\": 1e308}\n"
        "{\"at\": null, \"kind\": \"command\", \"exit\": \"0\", \"ms\": \"5\"}\n"
        "{\"at\": \"2026-01-01T00:00:03Z\", \"kind\": \"command\", \"exit\": -0}\n"
        "{\"at\": \"2026-01-01T00:00:04Z\", \"kind\": \"files\", \"added\": \"x\"}\n");
    assert_int_equal(tl->n, 5);
    int unknown_time = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->start == SBX_TIME_UNKNOWN)
            unknown_time++;
        assert_true(e->findings & SBX_F_BAD_FIELD);
        /* 2^63, 1e308, "0" and -0 are not exit codes a process returns */
        if (sbx_ev_line_no(e) <= 4)
            assert_false(e->u.cmd.flags & SBX_CMD_EXIT_KNOWN);
    }
    assert_int_equal(unknown_time, 1);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 0)), 3); /* unknown times sort first */
    drop(tl);
}

/* Row 23: a partial last line is held back as incomplete. */
static void incomplete_last_line(void **state)
{
    (void)state;
    static const char partial[] = "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"comm";
    struct sbx_timeline *tl = LOAD(
        "{\"at\": \"2026-01-01T00:00:00Z\", \"kind\": \"command\", \"exit\": 0}\n"
        "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"comm");
    assert_int_equal(tl->n, 1);
    assert_int_equal(tl->sources[0].incomplete, strlen(partial));
    assert_non_null(strstr(skip_reason(tl, 2), "incomplete"));
    drop(tl);
}

/* Row 24: BOM, CRLF, blank lines and no final newline load without errors. */
static void bom_crlf_blank(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(
        "\xEF\xBB\xBF{\"at\": \"2026-01-01T00:00:00Z\", \"kind\": \"command\", \"exit\": 0}\r\n"
        "\r\n"
        "   \n"
        "\n"
        "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"command\", \"exit\": 0}");
    assert_int_equal(tl->n, 2);
    assert_int_equal(tl->nskips, 0);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 1)), 5);
    drop(tl);
}

/* Row 28: equal and out-of-order times give a fixed order (time, source, line),
 * the same whether one thread or several loaded the file. */
static void fixed_order_any_threads(void **state)
{
    (void)state;
    struct sbx_buf log = SBX_BUF_INIT;
    for (int i = 0; i < 200000; i++)
        sbx_buf_addf(&log,
                     "{\"at\": \"2026-01-01T00:00:%02dZ\", \"kind\": \"command\", \"command\": \"c%d\", "
                     "\"exit\": %d, \"ms\": %d}\n",
                     (i * 7) % 60, i, i % 3, i % 1000);
    struct sbx_timeline *one = load_bytes(log.p, log.len, 1);
    struct sbx_timeline *two = load_bytes(log.p, log.len, 2);
    assert_int_equal(one->n, 200000);
    assert_int_equal(two->n, one->n);
    for (size_t i = 0; i < one->n; i++) {
        assert_int_equal(sbx_ev_line_no(sbx_tl_at(one, i)), sbx_ev_line_no(sbx_tl_at(two, i)));
        if (i)
            assert_true(sbx_tl_at(one, i - 1)->start < sbx_tl_at(one, i)->start ||
                        (sbx_tl_at(one, i - 1)->start == sbx_tl_at(one, i)->start &&
                         sbx_ev_line_no(sbx_tl_at(one, i - 1)) < sbx_ev_line_no(sbx_tl_at(one, i))));
    }
    drop(one);
    drop(two);
    sbx_buf_free(&log);
}

/* Row 25: detection by content. */
static void detection(void **state)
{
    (void)state;
    static const char rec[] = "garbage first\n{\"at\": \"2026-01-01T00:00:00Z\", \"kind\": \"command\"}\n";
    assert_ptr_equal(sbx_detect_format(rec, sizeof rec - 1), &sbx_format_recorder);
    static const char other[] = "{\"ts\": \"2026-01-01\", \"event\": \"exec\"}\n";
    assert_null(sbx_detect_format(other, sizeof other - 1));
    assert_null(sbx_detect_format("", 0));
}

/* tests/unit/cases/recorder_hash.test: each stdout_hash body in a command's
 * line, read back as the hash or as a bad field. */
static void check_hash_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 2);
    struct sbx_buf line = SBX_BUF_INIT;
    sbx_buf_adds(&line, "{\"at\": \"2026-10-08T14:00:03Z\", \"kind\": \"command\", "
                        "\"command\": \"ls\", \"stdout_hash\": \"");
    sbx_buf_add(&line, c->field[0], c->len[0]);
    sbx_buf_adds(&line, "\"}\n");
    struct sbx_timeline *tl = load_bytes(line.p, line.len, 1);
    if (tl->n != 1)
        case_fail(c, "%zu events", tl->n);
    const struct sbx_event *e = sbx_tl_at(tl, 0);
    bool bad = strcmp(c->field[1], "bad") == 0;
    bool present = (e->u.cmd.flags & SBX_CMD_HASH_PRESENT) != 0;
    if (present == bad || ((e->findings & SBX_F_BAD_FIELD) != 0) != bad)
        case_fail(c, "%s: present %d, bad field %d", c->field[0], present,
                  (e->findings & SBX_F_BAD_FIELD) != 0);
    if (!bad && e->u.cmd.stdout_hash != strtoull(c->field[1], NULL, 16))
        case_fail(c, "%s: read as %016llx, want %s", c->field[0],
                  (unsigned long long)e->u.cmd.stdout_hash, c->field[1]);
    drop(tl);
    sbx_buf_free(&line);
}

static void test_hash_values(void **state)
{
    (void)state;
    assert_true(cases_run("recorder_hash.test", check_hash_case, NULL) >= 25);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(python_spelling),      cmocka_unit_test(typescript_spelling),
        cmocka_unit_test(files_and_notes),      cmocka_unit_test(files_paths_under_root),
        cmocka_unit_test(broken_lines_reported),
        cmocka_unit_test(deep_nesting),         cmocka_unit_test(bad_values_are_unknown),
        cmocka_unit_test(incomplete_last_line), cmocka_unit_test(bom_crlf_blank),
        cmocka_unit_test(fixed_order_any_threads), cmocka_unit_test(detection),
        cmocka_unit_test(test_hash_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
