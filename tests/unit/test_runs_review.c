/* The runs list's review columns (analyses/runs.h): the state rule (not
 * reviewed: no operation; in progress: operations, no verdict; done: a
 * verdict, the last one), the filter words review: and verdict:, the sort
 * by each, and a fill that reads each run's review through the list's
 * reader. */
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

#include "importers/runs.h"
#include "base/buf.h"
#include "analyses/runs.h"
#include "model/review.h"
#include "model/timeline.h"

/* A review of ops given as "kind:state" words ("note", "verdict:clean"). */
static void review_of_words(struct sbx_review *r, const char *const *ops, size_t n)
{
    sbx_review_init(r);
    for (size_t i = 0; i < n; i++) {
        struct sbx_review_op *o = sbx_review_push(r);
        const char *colon = strchr(ops[i], ':');
        size_t kl = colon ? (size_t)(colon - ops[i]) : strlen(ops[i]);
        o->kind = sbx_review_op_by_name(ops[i], kl);
        assert_int_not_equal(o->kind, SBX_REVIEW_OP_COUNT);
        o->author = sbx_xstrndup("a", 1);
        o->at = (int64_t)(i + 1) * 1000000000;
        o->line = (uint32_t)i + 1;
        if (o->kind != SBX_REVIEW_VERDICT)
            o->item = sbx_xstrndup("ab12cd34ef", 10);
        if (o->kind == SBX_REVIEW_NOTE)
            o->text = sbx_xstrndup("n", 1);
        if (o->kind == SBX_REVIEW_TAG || o->kind == SBX_REVIEW_UNTAG)
            o->tag = sbx_xstrndup("t", 1);
        if (colon) {
            o->state = sbx_xstrndup(colon + 1, strlen(colon + 1));
            o->text = o->text ? o->text : sbx_xstrndup("why", 3);
        }
    }
}

static const struct {
    const char *ops[4];
    size_t n;
    bool problem; /* a broken line besides */
    const char *review, *verdict;
    size_t progress, rank;
} state_cases[] = {
    {{0}, 0, false, "not reviewed", "", 0, 0},
    {{0}, 0, true, "not reviewed", "", 0, 0}, /* only a broken line: nothing was said */
    {{"note"}, 1, false, "in progress", "", 1, 0},
    {{"mark", "unmark"}, 2, false, "in progress", "", 1, 0}, /* taken back, but reviewed */
    {{"triage:benign"}, 1, false, "in progress", "", 1, 0},
    {{"verdict:clean"}, 1, false, "done", "clean", 2, 1},
    {{"note", "verdict:malicious"}, 2, false, "done", "malicious", 2, 5},
    {{"verdict:malicious", "verdict:benign"}, 2, false, "done", "benign", 2, 2}, /* the last wins */
    {{"verdict:suspicious", "note"}, 2, true, "done", "suspicious", 2, 4},
    {{"verdict:inconclusive"}, 1, false, "done", "inconclusive", 2, 3},
};

static void state_rule(void **state)
{
    (void)state;
    struct sbx_runs r;
    sbx_runs_init(&r, "runs");
    sbx_runs_add(&r, "one", "one");
    for (size_t k = 0; k < sizeof state_cases / sizeof state_cases[0]; k++) {
        struct sbx_review rv;
        review_of_words(&rv, state_cases[k].ops, state_cases[k].n);
        if (state_cases[k].problem)
            sbx_review_problem(&rv, 0, 9, "not JSON");
        struct sbx_review_state st;
        sbx_review_state_make(&rv, &st);
        sbx_run_row_review(&r, 0, &st);
        const struct sbx_run_row *row = &r.rows[0];
        if (strcmp(sbx_run_row_review_word(row), state_cases[k].review) != 0 ||
            strcmp(sbx_run_row_verdict_word(row), state_cases[k].verdict) != 0 ||
            row->count[SBX_RUN_REVIEW] != state_cases[k].progress ||
            row->count[SBX_RUN_VERDICT] != state_cases[k].rank)
            fail_msg("case %zu: %s / %s (%zu, %zu)", k, sbx_run_row_review_word(row),
                     sbx_run_row_verdict_word(row), row->count[SBX_RUN_REVIEW],
                     row->count[SBX_RUN_VERDICT]);
        sbx_review_state_free(&st);
        sbx_review_free(&rv);
    }
    sbx_run_row_review(&r, 0, NULL);
    assert_string_equal(sbx_run_row_review_word(&r.rows[0]), "not reviewed");
    sbx_runs_free(&r);
}

/* Rows read, with the review given as (progress, verdict rank); one more
 * row still pending and one unreadable. */
static void rows_with_reviews(struct sbx_runs *r)
{
    static const struct {
        const char *name;
        size_t progress, rank;
    } rows[] = {
        {"a-clean", 2, 1}, {"b-none", 0, 0},      {"c-open", 1, 0},
        {"d-malicious", 2, 5}, {"e-suspicious", 2, 4}, {"f-open", 1, 0},
    };
    sbx_runs_init(r, "runs");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        sbx_runs_add(r, rows[i].name, rows[i].name);
        r->rows[i].count[SBX_RUN_REVIEW] = rows[i].progress;
        r->rows[i].count[SBX_RUN_VERDICT] = rows[i].rank;
        r->rows[i].known = ~0u;
        atomic_store(&r->rows[i].state, SBX_RUN_READY);
    }
    sbx_runs_add(r, "g-pending", "g-pending");
    sbx_runs_add(r, "h-unreadable", "h-unreadable");
    atomic_store(&r->rows[r->n - 1].state, SBX_RUN_UNREADABLE);
}

static void names_of(const struct sbx_runs *r, const uint32_t *out, size_t n, char *buf, size_t sz)
{
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, sz - len, "%s%.*s", i ? " " : "", 1, r->rows[out[i]].name);
    }
}

static void filter_and_sort(void **state)
{
    (void)state;
    struct sbx_runs r;
    rows_with_reviews(&r);
    uint32_t out[16];
    char got[64];
    static const struct {
        const char *filter;
        const char *want; /* the first letter of each name shown, by name */
    } filters[] = {
        {"review:done", "a d e"},
        {"REVIEW:Done", "a d e"},
        {"review:progress", "c f"},
        {"review:in-progress", "c f"},
        {"review:none", "b"},
        {"review:not-reviewed", "b"},
        {"!review:none", "a c d e f h"}, /* an unreadable run holds no word, as for findings */
        {"verdict:malicious", "d"},
        {"verdict:clean", "a"},
        {"verdict:none", "b c f"},
        {"review:done !verdict:clean", "d e"},
        {"verdict:nosuch", ""},
        {"review:nosuch", ""},
        {"open", "c f"}, /* any other word: the name */
    };
    for (size_t k = 0; k < sizeof filters / sizeof filters[0]; k++) {
        struct sbx_runs_query q = {SBX_RUN_NAME, false, filters[k].filter};
        names_of(&r, out, sbx_runs_view(&r, &q, out), got, sizeof got);
        if (strcmp(got, filters[k].want) != 0)
            fail_msg("& %s: %s, wanted %s", filters[k].filter, got, filters[k].want);
    }
    /* sorted: done first, then in progress, then none; the heaviest verdict
     * first; ties by name; the pending and unreadable rows last */
    struct sbx_runs_query q = {SBX_RUN_REVIEW, false, NULL};
    names_of(&r, out, sbx_runs_view(&r, &q, out), got, sizeof got);
    assert_string_equal(got, "a d e c f b g h");
    q.reverse = true;
    names_of(&r, out, sbx_runs_view(&r, &q, out), got, sizeof got);
    assert_string_equal(got, "b c f a d e g h");
    q = (struct sbx_runs_query){SBX_RUN_VERDICT, false, NULL};
    names_of(&r, out, sbx_runs_view(&r, &q, out), got, sizeof got);
    assert_string_equal(got, "d e a b c f g h");
    assert_int_equal(sbx_run_col_by_name("review"), SBX_RUN_REVIEW);
    assert_int_equal(sbx_run_col_by_name("verdict"), SBX_RUN_VERDICT);
    sbx_runs_free(&r);
}

/* ---- a fill reads each run's review through the reader ---- */

static void write_run(const char *root, const char *name, int day)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, name);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/%s/agent-run.jsonl", root, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"at\": \"2026-11-%02dT10:00:00Z\", \"sandbox\": \"s1\", \"kind\": \"command\", "
               "\"command\": \"ls\", \"exit\": 0, \"ms\": 5}\n", day);
    fclose(f);
}

/* The reader: a run called *-done gets a verdict, *-open a note, the rest
 * nothing; it counts its calls. */
static void reader(void *ctx, const char *path, const struct sbx_timeline *tl, struct sbx_review *out)
{
    (void)tl;
    _Atomic int *calls = ctx;
    atomic_fetch_add(calls, 1);
    size_t n = strlen(path);
    if (n > 5 && strcmp(path + n - 5, "-done") == 0) {
        static const char *const ops[] = {"note", "verdict:malicious"};
        sbx_review_free(out);
        review_of_words(out, ops, 2);
    } else if (n > 5 && strcmp(path + n - 5, "-open") == 0) {
        static const char *const ops[] = {"note"};
        sbx_review_free(out);
        review_of_words(out, ops, 1);
    }
}

static void fill_reads_reviews(void **state)
{
    (void)state;
    char root[64];
    snprintf(root, sizeof root, "/tmp/sbx-runs-review-XXXXXX");
    assert_non_null(mkdtemp(root));
    write_run(root, "a-done", 1);
    write_run(root, "b-open", 2);
    write_run(root, "c-new", 3);
    for (int threads = 1; threads <= 3; threads += 2) {
        struct sbx_runs r;
        assert_true(sbx_runs_discover(root, &r));
        _Atomic int calls = 0;
        r.review_of = reader;
        r.review_ctx = &calls;
        sbx_runs_fill_free(sbx_runs_fill_start(&r, NULL, NULL, threads, false));
        assert_int_equal(atomic_load(&calls), 3);
        assert_int_equal(r.n, 3);
        assert_string_equal(sbx_run_row_review_word(&r.rows[0]), "done");
        assert_string_equal(sbx_run_row_verdict_word(&r.rows[0]), "malicious");
        assert_string_equal(sbx_run_row_review_word(&r.rows[1]), "in progress");
        assert_string_equal(sbx_run_row_verdict_word(&r.rows[1]), "");
        assert_string_equal(sbx_run_row_review_word(&r.rows[2]), "not reviewed");
        sbx_runs_free(&r);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(state_rule),
        cmocka_unit_test(filter_and_sort),
        cmocka_unit_test(fill_reads_reviews),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
