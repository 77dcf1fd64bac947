/* The runs list's manifests (importers/runs_manifest.h): the row read back
 * from a run's JSON summary is the row its logs give, for runs of every
 * shape the fixtures hold; bad manifests are refused (a case table); the
 * freshness rule by mtimes; discovery and a fill over manifests alone. */
#include <fcntl.h>
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

#include "tests/unit/cases.h"

#include "analyses/runs.h"
#include "analyses/summary.h"
#include "base/buf.h"
#include "importers/load.h"
#include "importers/runs.h"
#include "importers/runs_manifest.h"
#include "model/review.h"
#include "model/timeline.h"
#include "render/summary/summary.h"

static const char *const fixture_runs[] = {
    "examples/csv-fix",          "tests/fixtures/runtime-run", "tests/fixtures/story-run",
    "tests/fixtures/risky-run",  "tests/fixtures/witness-run", "tests/fixtures/sandboxio",
    "tests/fixtures/otlp",       "tests/fixtures/proxy-run",   "tests/fixtures/runs/broken",
    "tests/fixtures/runs/retry", "tests/fixtures/runtime-run-shifted",
    "tests/golden/cases/typescript", /* a stdout hash mismatch */
};
enum { NRUNS = sizeof fixture_runs / sizeof fixture_runs[0] };

/* The run's row from its logs into runs (row 0) and its JSON summary into json. */
static void row_and_json(const char *dir, struct sbx_runs *runs, struct sbx_buf *json)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = 1};
    const char *paths[1] = {dir};
    assert_true(sbx_load_paths(&tl, paths, 1, &opts, &rep) > 0);
    struct sbx_summary sum;
    char err[256];
    struct sbx_summary_opts sopts = {.threads = 1, .unread = rep.unread, .nunread = rep.nunread};
    assert_true(sbx_summarize(&tl, &sopts, &sum, err, sizeof err));
    sbx_runs_init(runs, "");
    sbx_runs_add(runs, "r", dir);
    sbx_run_row_fill(runs, 0, &tl, &sum);
    assert_true(sbx_render_summary(&tl, &sum, SBX_SUMMARY_JSON, NULL, json, err, sizeof err));
    sbx_summary_free(&sum);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
}

static void rows_read_back_are_the_logs_rows(void **state)
{
    (void)state;
    for (size_t i = 0; i < NRUNS; i++) {
        struct sbx_runs runs;
        struct sbx_buf json = SBX_BUF_INIT;
        row_and_json(fixture_runs[i], &runs, &json);
        const struct sbx_run_row *a = &runs.rows[0];
        struct sbx_run_row b = {.start = 1, .end = 2, .known = 0xffff};
        char err[256] = "";
        if (!sbx_run_manifest_parse(json.p, json.len, &b, err, sizeof err))
            fail_msg("%s: %s", fixture_runs[i], err);
        assert_int_equal(b.start, a->start);
        assert_int_equal(b.end, a->end);
        assert_memory_equal(b.count, a->count, sizeof a->count);
        assert_int_equal(b.known, a->known);
        assert_int_equal(b.events, a->events);
        if (b.findings != a->findings)
            fail_msg("%s: findings %#x, not %#x", fixture_runs[i], b.findings, a->findings);
        sbx_buf_free(&json);
        sbx_runs_free(&runs);
    }
}

static void check_parse(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 2);
    struct sbx_run_row row = {.start = 7};
    char err[256] = "";
    bool ok = sbx_run_manifest_parse(c->field[0], c->len[0], &row, err, sizeof err);
    if (strcmp(c->field[1], "ok") == 0) {
        if (!ok)
            case_fail(c, "refused: %s", err);
        return;
    }
    if (ok)
        case_fail(c, "read, not refused (%s)", c->field[1]);
    if (!strstr(err, c->field[1]))
        case_fail(c, "refused as \"%s\", not \"%s\"", err, c->field[1]);
    if (row.start != 7)
        case_fail(c, "a refused manifest changed the row");
}

static void bad_manifests_are_refused(void **state)
{
    (void)state;
    cases_run("run_manifests.test", check_parse, NULL);
}

/* ---- the freshness rule ---- */

static void put(const char *dir, const char *name, const char *text, time_t mtime)
{
    struct sbx_buf p = SBX_BUF_INIT;
    sbx_buf_addf(&p, "%s/%s", dir, name);
    FILE *f = fopen(p.p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    struct timespec ts[2] = {{.tv_sec = mtime}, {.tv_sec = mtime}};
    assert_int_equal(utimensat(AT_FDCWD, p.p, ts, 0), 0);
    sbx_buf_free(&p);
}

static void freshness_by_mtime(void **state)
{
    (void)state;
    static const struct {
        long manifest; /* its mtime, -1: none */
        long log, other, review; /* -1: no such file */
        bool fresh;
    } cases[] = {
        {-1, 100, -1, -1, false},   {100, 100, -1, -1, true},  {101, 100, -1, -1, true},
        {100, 101, -1, -1, false},  {200, 100, 150, -1, true}, {200, 100, 201, -1, false},
        {200, 100, -1, 300, true},  {200, -1, -1, -1, true},   {99, 100, 50, 300, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[] = "/tmp/sbx-manifest-XXXXXX";
        assert_non_null(mkdtemp(dir));
        if (cases[i].manifest >= 0)
            put(dir, SBX_RUN_MANIFEST_NAME, "{}", cases[i].manifest);
        if (cases[i].log >= 0)
            put(dir, "agent-run.jsonl", "", cases[i].log);
        if (cases[i].other >= 0)
            put(dir, "squid.log", "", cases[i].other);
        if (cases[i].review >= 0)
            put(dir, "sbxview-review.jsonl", "", cases[i].review);
        if (sbx_run_manifest_fresh(dir) != cases[i].fresh)
            fail_msg("case %zu: fresh should be %d", i, cases[i].fresh);
        char cmd[64];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        assert_int_equal(system(cmd), 0);
    }
}

/* The review reader of the fill below: run-00 has a verdict; it counts its
 * calls and the calls given a loaded run (none: the rows are manifests'). */
struct review_calls {
    _Atomic int calls, with_run;
};

static void verdict_for_first(void *ctx, const char *path, const struct sbx_timeline *tl,
                              struct sbx_review *out)
{
    struct review_calls *c = ctx;
    atomic_fetch_add(&c->calls, 1);
    atomic_fetch_add(&c->with_run, tl != NULL);
    size_t n = strlen(path);
    if (n < 6 || strcmp(path + n - 6, "run-00") != 0)
        return;
    struct sbx_review_op *o = sbx_review_push(out);
    o->kind = SBX_REVIEW_VERDICT;
    o->state = sbx_xstrndup("malicious", 9);
    o->text = sbx_xstrndup("why", 3);
    o->author = sbx_xstrndup("a", 1);
    o->at = 1000000000;
    o->line = 1;
}

/* A folder of runs whose runs have only manifests is still one, and a fill
 * reads their rows from them: the log columns, findings and first hash
 * mismatch from the manifest, the review's columns from the review file
 * (read once a run, without loading it). */
static void fill_from_manifests_alone(void **state)
{
    (void)state;
    char root[] = "/tmp/sbx-manifests-XXXXXX";
    assert_non_null(mkdtemp(root));
    struct sbx_runs logs[NRUNS];
    for (size_t i = 0; i < NRUNS; i++) {
        struct sbx_buf json = SBX_BUF_INIT, dir = SBX_BUF_INIT;
        row_and_json(fixture_runs[i], &logs[i], &json);
        sbx_buf_addf(&dir, "%s/run-%02zu", root, i);
        assert_int_equal(mkdir(dir.p, 0700), 0);
        put(dir.p, SBX_RUN_MANIFEST_NAME, json.p, 1000);
        sbx_buf_free(&json);
        sbx_buf_free(&dir);
    }
    struct sbx_runs r;
    assert_true(sbx_runs_discover(root, &r));
    assert_int_equal(r.n, NRUNS);
    struct review_calls calls = {0, 0};
    r.review_of = verdict_for_first;
    r.review_ctx = &calls;
    sbx_runs_fill_free(sbx_runs_fill_start(&r, NULL, NULL, 2, false));
    assert_int_equal(atomic_load(&calls.calls), NRUNS);
    assert_int_equal(atomic_load(&calls.with_run), 0);
    size_t mismatched = 0;
    for (size_t i = 0; i < NRUNS; i++) {
        const struct sbx_run_row *a = &logs[i].rows[0], *b = &r.rows[i];
        assert_int_equal(atomic_load(&b->state), SBX_RUN_READY);
        assert_int_equal(b->start, a->start);
        for (int c = 0; c < SBX_RUN_LOG_END; c++)
            assert_int_equal(b->count[c], a->count[c]);
        assert_int_equal(b->known, a->known);
        assert_int_equal(b->findings, a->findings);
        assert_string_equal(b->mismatch, a->mismatch);
        assert_int_equal(b->mismatches, a->mismatches);
        mismatched += b->mismatches > 0;
        assert_string_equal(sbx_run_row_review_word(b), i == 0 ? "done" : "not reviewed");
        assert_string_equal(sbx_run_row_verdict_word(b), i == 0 ? "malicious" : "");
        sbx_runs_free(&logs[i]);
    }
    assert_true(mismatched > 0); /* some fixture has a hash mismatch to carry */
    sbx_runs_free(&r);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_read_back_are_the_logs_rows),
        cmocka_unit_test(bad_manifests_are_refused),
        cmocka_unit_test(freshness_by_mtime),
        cmocka_unit_test(fill_from_manifests_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
