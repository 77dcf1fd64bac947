/* Where the review of a run read from the store lives (cli/review_cli.h,
 * sbx_review_s3_beside): beside the run's objects, for a prefix with and
 * without its slash and for a single object. This test links the command
 * line (see the Makefile). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cli/review_cli.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(beside_the_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
