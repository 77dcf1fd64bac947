/* Where a run's review lives (cli/review_cli.h, docs/review-file.md "Where
 * it lives"): the rule with the environment and the "writable?" answer
 * given, a table over --review, a run folder, a single file, standard
 * input, a folder that can or cannot be written, and XDG_STATE_HOME set,
 * relative or unset (then HOME's ~/.local/state). The folder asked about
 * is checked too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/review_cli.h"

#define D "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

struct answer {
    bool writable;
    char asked[512]; /* the folder the rule asked about, "" when none */
};

static bool writable(const char *dir, void *ctx)
{
    struct answer *a = ctx;
    snprintf(a->asked, sizeof a->asked, "%s", dir);
    return a->writable;
}

static void rule_table(void **state)
{
    (void)state;
    char root[] = "/tmp/sbxview-place-XXXXXX";
    assert_non_null(mkdtemp(root));
    char run[600], file[700];
    snprintf(run, sizeof run, "%s/run", root);
    snprintf(file, sizeof file, "%s/run/agent-run.jsonl", root);
    assert_int_equal(mkdir(run, 0755), 0);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    /* "R" stands for the run folder in the expected paths */
    static const struct {
        const char *given, *input; /* input "F": the file, "R": the folder, "-" */
        bool writable;
        const char *xdg, *home;
        const char *asked, *read0, *read1, *write; /* NULL: none */
        bool make_dirs;
    } cases[] = {
        {"/x/mine.jsonl", "R", false, "/st", "/h", NULL, "/x/mine.jsonl", NULL, "/x/mine.jsonl", false},
        {NULL, "R", true, "/st", "/h", "R", "R/sbxview-review.jsonl", NULL, "R/sbxview-review.jsonl", false},
        {NULL, "F", true, "/st", "/h", "R", "R/sbxview-review.jsonl", NULL, "R/sbxview-review.jsonl", false},
        {NULL, "R", false, "/st", "/h", "R", "R/sbxview-review.jsonl", "/st/sbxview/reviews/" D ".jsonl",
         "/st/sbxview/reviews/" D ".jsonl", true},
        {NULL, "F", false, "/st", "/h", "R", "R/sbxview-review.jsonl", "/st/sbxview/reviews/" D ".jsonl",
         "/st/sbxview/reviews/" D ".jsonl", true},
        {NULL, "R", false, NULL, "/h", "R", "R/sbxview-review.jsonl",
         "/h/.local/state/sbxview/reviews/" D ".jsonl", "/h/.local/state/sbxview/reviews/" D ".jsonl", true},
        {NULL, "R", false, "", "/h", "R", "R/sbxview-review.jsonl",
         "/h/.local/state/sbxview/reviews/" D ".jsonl", "/h/.local/state/sbxview/reviews/" D ".jsonl", true},
        {NULL, "R", false, "rel/state", "/h", "R", "R/sbxview-review.jsonl",
         "/h/.local/state/sbxview/reviews/" D ".jsonl", "/h/.local/state/sbxview/reviews/" D ".jsonl", true},
        {NULL, "-", true, "/st", "/h", NULL, "/st/sbxview/reviews/" D ".jsonl", NULL,
         "/st/sbxview/reviews/" D ".jsonl", true},
        {NULL, "-", true, NULL, "/h", NULL, "/h/.local/state/sbxview/reviews/" D ".jsonl", NULL,
         "/h/.local/state/sbxview/reviews/" D ".jsonl", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *in = cases[i].input[0] == 'R' ? run : cases[i].input[0] == 'F' ? file : "-";
        struct answer a = {cases[i].writable, ""};
        struct sbx_review_where w = {cases[i].xdg, cases[i].home, writable, &a};
        struct sbx_review_place p;
        sbx_review_place_rule(&p, cases[i].given, (const char *const[]){in}, 1, D, &w);
        const char *want[4] = {cases[i].asked, cases[i].read0, cases[i].read1, cases[i].write};
        const char *got[4] = {a.asked[0] ? a.asked : NULL, p.nread > 0 ? p.read[0] : NULL,
                              p.nread > 1 ? p.read[1] : NULL, p.write};
        static const char *const what[4] = {"asked", "read[0]", "read[1]", "write"};
        for (int k = 0; k < 4; k++) {
            char expect[800] = "";
            if (want[k])
                snprintf(expect, sizeof expect, "%s%s", want[k][0] == 'R' ? run : "",
                         want[k][0] == 'R' ? want[k] + 1 : want[k]);
            if (!want[k] != !got[k] || (want[k] && strcmp(expect, got[k]) != 0))
                fail_msg("case %zu: %s is %s, wanted %s", i, what[k], got[k] ? got[k] : "none",
                         want[k] ? expect : "none");
        }
        if (p.make_dirs != cases[i].make_dirs)
            fail_msg("case %zu: make_dirs %d", i, p.make_dirs);
        sbx_review_place_free(&p);
    }
    unlink(file);
    rmdir(run);
    rmdir(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(rule_table)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
