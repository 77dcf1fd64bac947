/* render/skips.h: every skipped line and unread file of a run, as check and
 * compare print them, redacted and sanitised. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/summary.h"
#include "render/skips.h"
#include "tests/unit/loadtest.h"

static const char TOKEN[] = "ghp_Q3v9ZkLm2Xp7Rt5Wb8Yc1Nd4Fh6Jg0SaEu2M";

struct run {
    struct sbx_timeline *tl;
    struct sbx_summary sum;
};

/* A recorder log with `bad` broken lines among good ones, and `unread`
 * files the load could not read (one named after a token). */
static void make_run(struct run *r, size_t bad, size_t unread, const char *source_name)
{
    struct sbx_buf log = SBX_BUF_INIT;
    for (size_t i = 0; i < bad + 2; i++) { /* line 1 and the last good, lines 2..bad+1 broken */
        if (i >= 1 && i <= bad)
            sbx_buf_addf(&log, "{\"at\": \"2026-01-01T00:00:0%zuZ\", broken\n", i % 10);
        else
            sbx_buf_addf(&log, "{\"at\": \"2026-01-01T00:00:0%zuZ\", \"kind\": \"command\", "
                               "\"command\": \"ls\", \"exit\": 0, \"ms\": 1}\n", i % 10);
    }
    r->tl = loadtest_bytes(&sbx_format_recorder, source_name, log.p, log.len, 1, 0);
    sbx_buf_free(&log);
    struct sbx_unread files[2] = {
        {(char *)"run/notes.bin", (char *)"binary (NUL bytes)", true},
        {(char *)"run/GITHUB_TOKEN=ghp_Q3v9ZkLm2Xp7Rt5Wb8Yc1Nd4Fh6Jg0SaEu2M.txt",
         (char *)"empty file", true},
    };
    struct sbx_summary_opts o = {.threads = 1, .unread = files, .nunread = unread};
    char err[128];
    assert_true(sbx_summarize(r->tl, &o, &r->sum, err, sizeof err));
}

static void drop_run(struct run *r)
{
    sbx_summary_free(&r->sum);
    loadtest_drop(r->tl);
}

static size_t count_lines(const char *s, const char *lead)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, lead)); p++)
        n += p == s || p[-1] == '\n';
    return n;
}

static void nothing_when_all_read(void **state)
{
    (void)state;
    struct run r;
    make_run(&r, 0, 0, "run/agent-run.jsonl");
    struct sbx_skips_counts c = sbx_skips_count(r.tl, &r.sum);
    assert_int_equal(c.lines + c.files, 0);
    struct sbx_buf out = SBX_BUF_INIT;
    sbx_skips_text(r.tl, &r.sum, "L ", "F ", false, &out);
    assert_int_equal(out.len, 0);
    sbx_buf_free(&out);
    drop_run(&r);
}

/* Every skipped line and every unread file, for several counts of each. */
static void every_line_and_file(void **state)
{
    (void)state;
    for (size_t bad = 1; bad <= 4; bad++)
        for (size_t unread = 0; unread <= 2; unread++) {
            struct run r;
            make_run(&r, bad, unread, "run/agent-run.jsonl");
            struct sbx_skips_counts c = sbx_skips_count(r.tl, &r.sum);
            assert_int_equal(c.lines, bad);
            assert_int_equal(c.listed, bad);
            assert_int_equal(c.files, unread);
            struct sbx_buf out = SBX_BUF_INIT;
            sbx_skips_text(r.tl, &r.sum, "skipped-line ", "unread-file ", false, &out);
            assert_int_equal(count_lines(out.p, "skipped-line run/agent-run.jsonl:"), bad);
            assert_int_equal(count_lines(out.p, "unread-file "), unread);
            if (unread)
                assert_non_null(strstr(out.p, "unread-file run/notes.bin: binary (NUL bytes)\n"));
            assert_non_null(strstr(out.p, "run/agent-run.jsonl:2: not JSON"));
            sbx_buf_free(&out);
            drop_run(&r);
        }
}

static void json_members(void **state)
{
    (void)state;
    struct run r;
    make_run(&r, 2, 2, "run/agent-run.jsonl");
    struct sbx_buf out = SBX_BUF_INIT;
    struct sbx_jsonw w;
    sbx_jw_init(&w, &out, false);
    sbx_jw_object(&w);
    sbx_skips_json(r.tl, &r.sum, &w);
    sbx_jw_end_object(&w);
    assert_non_null(strstr(out.p, "\"skipped_lines\":[{\"source\":\"run/agent-run.jsonl\",\"line\":2,"));
    assert_non_null(strstr(out.p, "\"skipped_lines_total\":2"));
    assert_non_null(strstr(out.p, "\"unread_files\":[{\"path\":\"run/notes.bin\",\"reason\":\"binary (NUL bytes)\"}"));
    assert_null(strstr(out.p, TOKEN)); /* the file named after a token: redacted */
    assert_non_null(strstr(out.p, "ghp_"));
    sbx_buf_free(&out);
    drop_run(&r);
}

/* A token in a source's path or an unread file's name never comes out whole. */
static void redacted_and_sanitised(void **state)
{
    (void)state;
    struct run r;
    make_run(&r, 1, 2, "run/\x1b]2;TITLE\x07ghp_Q3v9ZkLm2Xp7Rt5Wb8Yc1Nd4Fh6Jg0SaEu2M.jsonl");
    struct sbx_buf out = SBX_BUF_INIT;
    sbx_skips_text(r.tl, &r.sum, "", "", true, &out);
    assert_null(strstr(out.p, TOKEN));
    assert_null(strchr(out.p, '\x1b'));
    for (size_t i = 0; i < out.len; i++)
        assert_true((unsigned char)out.p[i] < 0x80); /* ascii asked */
    assert_int_equal(count_lines(out.p, "run/"), 3);
    sbx_buf_free(&out);
    drop_run(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_when_all_read), cmocka_unit_test(every_line_and_file),
        cmocka_unit_test(json_members),          cmocka_unit_test(redacted_and_sanitised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
