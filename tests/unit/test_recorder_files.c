/* The recorder's `files` lines read without jansson, against jansson's
 * reading (tests/fuzz/files_oracle.h): a table of lines (escapes, keys given
 * twice, NUL, elements that are no string, roots), huge lists, repeated
 * lists sharing their arrays, and many lines on several threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/cases.h"
#include "tests/unit/loadtest.h"
#include "tests/fuzz/files_oracle.h"

#include "importers/format.h"
#include "importers/load.h"

static struct sbx_timeline *load(const char *bytes, size_t n, int threads)
{
    return loadtest_bytes(&sbx_format_recorder, "files.jsonl", bytes, n, threads, threads > 1 ? 1 : 0);
}

/* Every files event of tl agrees with jansson; returns how many there were. */
static size_t agree_all(const struct sbx_timeline *tl)
{
    size_t files = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const char *why = files_oracle_diff(tl, sbx_tl_at(tl, i));
        if (why)
            fail_msg("event %zu (line %u): %s", i, sbx_ev_line_no(sbx_tl_at(tl, i)), why);
        files += sbx_tl_at(tl, i)->kind == SBX_EV_FILES;
    }
    return files;
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 1);
    struct sbx_timeline *tl = load(c->field[0], c->len[0], 1);
    if (tl->n != 1 || sbx_tl_at(tl, 0)->kind != SBX_EV_FILES)
        case_fail(c, "%zu events, want one files event", tl->n);
    const char *why = files_oracle_diff(tl, sbx_tl_at(tl, 0));
    if (why)
        case_fail(c, "%s", why);
    loadtest_drop(tl);
}

static void table_of_lines(void **state)
{
    (void)state;
    assert_true(cases_run("files_lines.test", check_case, NULL) > 20);
}

/* Lists of 100,000 paths (a few repeated, some escaped) and 50,000
 * elements that are no string. */
static void huge_lists(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "{\"at\": \"2026-01-01T10:00:00Z\", \"kind\": \"files\", \"root\": \"/srv\", \"added\": [");
    for (int i = 0; i < 100000; i++)
        sbx_buf_addf(&b, "%s\"./d%d/f\\u00e9%d\"", i ? ", " : "", i % 997, i % 5000);
    sbx_buf_addf(&b, "], \"changed\": [");
    for (int i = 0; i < 50000; i++)
        sbx_buf_addf(&b, "%s%s", i ? "," : "", i % 3 == 0 ? "[1,[2]]" : i % 3 == 1 ? "null" : "\"x\"");
    sbx_buf_addf(&b, "]}\n");
    struct sbx_timeline *tl = load(b.p, b.len, 1);
    assert_int_equal(agree_all(tl), 1);
    assert_int_equal(sbx_tl_at(tl, 0)->u.files->n[SBX_ADDED], 100000);
    assert_int_equal(sbx_tl_at(tl, 0)->u.files->n[SBX_CHANGED], 16666);
    loadtest_drop(tl);
    sbx_buf_free(&b);
}

/* A live manifest: the same lists line after line. Equal list text shares
 * one array, equal paths one string; the same text under another root is
 * another list. */
static void repeated_lists_share(void **state)
{
    (void)state;
    static const char log[] =
        "{\"at\": \"2026-01-01T10:00:01Z\", \"kind\": \"files\", \"changed\": [\"./a\", \"./b\"]}\n"
        "{\"at\": \"2026-01-01T10:00:02Z\", \"kind\": \"files\", \"changed\": [\"./a\", \"./b\"]}\n"
        "{\"at\": \"2026-01-01T10:00:03Z\", \"kind\": \"files\", \"root\": \"/etc\", \"changed\": [\"./a\", \"./b\"]}\n"
        "{\"at\": \"2026-01-01T10:00:04Z\", \"kind\": \"files\", \"added\": [\"./b\", 1]}\n"
        "{\"at\": \"2026-01-01T10:00:05Z\", \"kind\": \"files\", \"added\": [\"./b\", 1]}\n";
    struct sbx_timeline *tl = load(log, sizeof log - 1, 1);
    assert_int_equal(agree_all(tl), 5);
    const struct sbx_files *f1 = sbx_tl_at(tl, 0)->u.files, *f2 = sbx_tl_at(tl, 1)->u.files,
                           *f3 = sbx_tl_at(tl, 2)->u.files, *f4 = sbx_tl_at(tl, 3)->u.files,
                           *f5 = sbx_tl_at(tl, 4)->u.files;
    assert_ptr_equal(f1->paths[SBX_CHANGED], f2->paths[SBX_CHANGED]);
    assert_ptr_not_equal(f1->paths[SBX_CHANGED], f3->paths[SBX_CHANGED]);
    assert_string_equal(f3->paths[SBX_CHANGED][0], "/etc/a");
    assert_ptr_equal(f1->paths[SBX_CHANGED][1], f4->paths[SBX_ADDED][0]); /* "b", interned */
    assert_ptr_equal(f4->paths[SBX_ADDED], f5->paths[SBX_ADDED]);
    assert_true(sbx_tl_at(tl, 4)->findings & SBX_F_BAD_FIELD); /* a shared list keeps its finding */
    loadtest_drop(tl);
}

/* Many lines of many shapes, split over threads: each state keeps its own
 * cache, every event still agrees. */
static void many_lines_threads(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < 3000; i++) {
        const char *root = i % 7 == 0 ? "\"root\": \"/etc/\", " : i % 11 == 0 ? "\"root\": 5, " : "";
        sbx_buf_addf(&b, "{\"at\": \"2026-01-01T10:%02d:%02dZ\", \"kind\": \"files\", %s"
                         "\"added\": [\"./p%d\", \"./q\\\"%d\"], \"changed\": [%s\"./r%d\"]}\n",
                     i / 60 % 60, i % 60, root, i % 13, i % 5, i % 17 == 0 ? "7, " : "", i % 29);
    }
    struct sbx_timeline *tl = load(b.p, b.len, 4);
    assert_int_equal(agree_all(tl), 3000);
    loadtest_drop(tl);
    sbx_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_of_lines),
        cmocka_unit_test(huge_lists),
        cmocka_unit_test(repeated_lists_share),
        cmocka_unit_test(many_lines_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
