/* Where the review of a run read from the store lives (cli/review_cli.h,
 * sbx_review_s3_beside): beside the run's objects, for a prefix with and
 * without its slash and for a single object. This test links the command
 * line (see the Makefile). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <string.h>

#include "cli/review_cli.h"
#include "cli/review_store.h"

static void beside_the_run(void **state)
{
    (void)state;
    static const struct {
        const char *url;
        bool folder;
        const char *want;
    } cases[] = {
        {"s3://runs/2026-06/run-7/", true, "s3://runs/2026-06/run-7/sbxview-review.jsonl"},
        {"s3://runs/2026-06/run-7", true, "s3://runs/2026-06/run-7/sbxview-review.jsonl"},
        {"s3://runs/run-7", true, "s3://runs/run-7/sbxview-review.jsonl"},
        {"s3://runs/", true, "s3://runs/sbxview-review.jsonl"},
        {"s3://runs/2026-06/run-7/agent-run.jsonl", false,
         "s3://runs/2026-06/run-7/sbxview-review.jsonl"},
        {"s3://runs/agent-run.jsonl", false, "s3://runs/sbxview-review.jsonl"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = sbx_review_s3_beside(cases[i].url, cases[i].folder);
        assert_string_equal(got, cases[i].want);
        free(got);
    }
}

/* Where the interface keeps the lines it could not send to a review in
 * the store (cli/review_store.h): under the state folder, named by the
 * review's URL alone. */
static void unsent_lines_kept(void **state)
{
    (void)state;
    static const struct {
        const char *state_home, *home, *prefix;
    } cases[] = {
        {"/srv/state", "/home/dana", "/srv/state/sbxview/reviews/unsent/"},
        {NULL, "/home/dana", "/home/dana/.local/state/sbxview/reviews/unsent/"},
        {"relative/state", "/home/dana", "/home/dana/.local/state/sbxview/reviews/unsent/"},
        {"", "/home/dana", "/home/dana/.local/state/sbxview/reviews/unsent/"},
    };
    const char *url = "s3://runs/2026-06/run-7/sbxview-review.jsonl";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = sbx_review_unsent_path(url, cases[i].state_home, cases[i].home);
        size_t np = strlen(cases[i].prefix);
        assert_int_equal(strncmp(got, cases[i].prefix, np), 0);
        assert_int_equal(strlen(got), np + 16 + strlen(".jsonl"));
        for (size_t k = np; k < np + 16; k++)
            assert_non_null(strchr("0123456789abcdef", got[k]));
        assert_string_equal(got + np + 16, ".jsonl");
        free(got);
    }
    /* one file a review: another URL, another name; the same, the same */
    char *a = sbx_review_unsent_path(url, "/s", NULL), *b = sbx_review_unsent_path(url, "/s", NULL),
         *c = sbx_review_unsent_path("s3://runs/2026-06/run-8/sbxview-review.jsonl", "/s", NULL);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    free(a);
    free(b);
    free(c);
}

/* What `sbxview review show` says of the unsent file: the lines in it that
 * the store does not hold yet (one the store has, written since, does not
 * count), none without the file, a last line cut short not at all. */
static void unsent_lines_counted(void **state)
{
    (void)state;
    char dir[] = "/tmp/sbx-unsent-XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("XDG_STATE_HOME", dir, 1);
    const char *url = "s3://runs/run-7/sbxview-review.jsonl";
    char *path;
    assert_int_equal(sbx_review_unsent_count(url, "", 0, &path), 0); /* no file */
    assert_null(path);
    char *file = sbx_review_unsent_path(url, dir, NULL);
    char folder[512];
    snprintf(folder, sizeof folder, "%s/sbxview", dir);
    mkdir(folder, 0700);
    snprintf(folder, sizeof folder, "%s/sbxview/reviews", dir);
    mkdir(folder, 0700);
    snprintf(folder, sizeof folder, "%s/sbxview/reviews/unsent", dir);
    mkdir(folder, 0700);
    static const struct {
        const char *unsent, *store;
        size_t want;
    } cases[] = {
        {"a\nb\n", "", 2},
        {"a\nb\n", "x\na\n", 1},   /* a is in the store already */
        {"a\nb\n", "b\na\n", 0},
        {"a\nb", "", 1},            /* b is cut short: not a line */
        {"", "", 0},
        {"a\n", "ab\n", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(file, "w");
        assert_non_null(f);
        fputs(cases[i].unsent, f);
        fclose(f);
        size_t got = sbx_review_unsent_count(url, cases[i].store, strlen(cases[i].store), &path);
        if (got != cases[i].want)
            fail_msg("case %zu: %zu lines, wanted %zu", i, got, cases[i].want);
        if (got)
            assert_string_equal(path, file);
        else
            assert_null(path);
        free(path);
        /* another review's file is not this one's */
        assert_int_equal(sbx_review_unsent_count("s3://runs/run-8/sbxview-review.jsonl", "", 0, &path), 0);
    }
    unlink(file);
    free(file);
    rmdir(folder);
    snprintf(folder, sizeof folder, "%s/sbxview/reviews", dir);
    rmdir(folder);
    snprintf(folder, sizeof folder, "%s/sbxview", dir);
    rmdir(folder);
    rmdir(dir);
    unsetenv("XDG_STATE_HOME");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unsent_lines_kept),
        cmocka_unit_test(beside_the_run),
        cmocka_unit_test(unsent_lines_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
