/* The recorder's `files` lines read without jansson, against jansson's
 * reading (tests/fuzz/files_oracle.h): a table of lines (escapes, keys given
 * twice, NUL, elements that are no string, roots), huge lists, repeated
 * lists taking their ids from the cache, and many lines on several threads. */
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
#include "importers/formats/recorder_files.h"
#include "importers/json/jsonline.h"
#include "model/files.h"

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

/* A live manifest: the same lists line after line. A repeated list takes
 * the earlier one's ids (equal paths, one interned string); the same text
 * under another root is another list; a repeated list keeps its finding. */
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
    assert_int_equal(f2->n[SBX_CHANGED], 2);
    assert_memory_equal(sbx_files_ids(f1, SBX_CHANGED), sbx_files_ids(f2, SBX_CHANGED), 2 * sizeof(uint32_t));
    assert_int_not_equal(sbx_files_ids(f1, SBX_CHANGED)[0], sbx_files_ids(f3, SBX_CHANGED)[0]);
    assert_string_equal(sbx_files_path(tl, f3, SBX_CHANGED, 0), "/etc/a");
    assert_int_equal(sbx_files_ids(f1, SBX_CHANGED)[1], sbx_files_ids(f4, SBX_ADDED)[0]); /* "b", interned */
    assert_int_equal(f5->n[SBX_ADDED], 1);
    assert_int_equal(sbx_files_ids(f4, SBX_ADDED)[0], sbx_files_ids(f5, SBX_ADDED)[0]);
    assert_true(sbx_tl_at(tl, 4)->findings & SBX_F_BAD_FIELD); /* a repeated list keeps its finding */
    for (int i = 0; i < 5; i++) /* a recorder's line keeps no rare fields */
        assert_false(sbx_tl_at(tl, i)->u.files->flags & SBX_FILES_MORE);
    loadtest_drop(tl);
}

/* Two lists of one line in one slot of the cache: the second, a repeat,
 * takes what the slot held before the first replaced it. Every pair of
 * one-path lists whose texts meet in a slot is tried. */
static void lists_of_one_line_share_a_slot(void **state)
{
    (void)state;
    int first_in[SBX_RECFILES_CACHE];
    for (int s = 0; s < SBX_RECFILES_CACHE; s++)
        first_in[s] = -1;
    int tried = 0;
    for (int i = 0; i < 4 * SBX_RECFILES_CACHE && tried < 8; i++) {
        char t[32];
        snprintf(t, sizeof t, "[\"./p%d\"]", i);
        int s = (int)(sbx_jline_hash(t, strlen(t)) % SBX_RECFILES_CACHE);
        if (first_in[s] < 0) {
            first_in[s] = i;
            continue;
        }
        char x[32]; /* x's slot is y's (t's) */
        snprintf(x, sizeof x, "[\"./p%d\"]", first_in[s]);
        char line[256];
        struct sbx_buf b = SBX_BUF_INIT;
        snprintf(line, sizeof line, "{\"at\": \"2026-01-01T10:00:01Z\", \"kind\": \"files\", \"changed\": %s}\n", x);
        sbx_buf_adds(&b, line);
        snprintf(line, sizeof line, "{\"at\": \"2026-01-01T10:00:02Z\", \"kind\": \"files\", \"added\": %s, \"changed\": %s}\n", t, x);
        sbx_buf_adds(&b, line);
        struct sbx_timeline *tl = load(b.p, b.len, 1);
        assert_int_equal(agree_all(tl), 2);
        const struct sbx_files *f = sbx_tl_at(tl, 1)->u.files;
        char want[32];
        snprintf(want, sizeof want, "p%d", first_in[s]);
        assert_int_equal(f->n[SBX_CHANGED], 1);
        assert_string_equal(sbx_files_path(tl, f, SBX_CHANGED, 0), want);
        snprintf(want, sizeof want, "p%d", i);
        assert_string_equal(sbx_files_path(tl, f, SBX_ADDED, 0), want);
        loadtest_drop(tl);
        sbx_buf_free(&b);
        tried++;
    }
    assert_int_equal(tried, 8);
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
        cmocka_unit_test(lists_of_one_line_share_a_slot),
        cmocka_unit_test(many_lines_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
