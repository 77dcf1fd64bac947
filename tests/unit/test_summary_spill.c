/* The JSON summary handed out in pieces as it is made (the look's spill,
 * for `summary` writing to a file or standard output): over runs of every
 * source kind and a spill point from one byte up, the pieces joined with
 * what stays in the buffer are the summary made whole, byte for byte, and
 * each piece is at least the spill point long. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/summary.h"
#include "importers/load.h"
#include "render/summary/summary.h"

struct pieces {
    struct sbx_buf joined;
    size_t n, shortest, at;
};

static void take(void *ctx, const char *text, size_t len)
{
    struct pieces *p = ctx;
    sbx_buf_add(&p->joined, text, len);
    if (!p->n || len < p->shortest)
        p->shortest = len;
    p->n++;
}

/* The run's timeline and summary, into the caller's structs. */
static void load_summarized(const char *run, struct sbx_timeline *tl, struct sbx_summary *sum)
{
    sbx_timeline_init(tl);
    const char *paths[] = {run};
    struct sbx_load_report rep = {0};
    assert_true(sbx_load_paths(tl, paths, 1, NULL, &rep) > 0);
    sbx_load_report_free(&rep);
    char err[256];
    assert_true(sbx_summarize(tl, NULL, sum, err, sizeof err));
}

static void run_spills(const char *run)
{
    struct sbx_timeline tl;
    struct sbx_summary sum;
    load_summarized(run, &tl, &sum);
    char err[256];
    struct sbx_buf whole = SBX_BUF_INIT;
    assert_true(sbx_render_summary(&tl, &sum, SBX_SUMMARY_JSON, NULL, &whole, err, sizeof err));
    size_t ats[] = {1, 2, 7, 64, 1000, whole.len / 2, whole.len - 1, whole.len, whole.len + 1};
    for (size_t k = 0; k < sizeof ats / sizeof *ats; k++) {
        struct pieces p = {SBX_BUF_INIT, 0, 0, ats[k]};
        struct sbx_summary_look look = {.spill = take, .spill_ctx = &p, .spill_at = ats[k]};
        struct sbx_buf rest = SBX_BUF_INIT;
        assert_true(sbx_render_summary(&tl, &sum, SBX_SUMMARY_JSON, &look, &rest, err, sizeof err));
        if (ats[k] < whole.len / 2)
            assert_true(p.n > 0); /* a summary twice the point long is spilled */
        if (ats[k] >= whole.len)
            assert_int_equal(p.n, 0);
        if (p.n)
            assert_true(p.shortest >= ats[k]);
        sbx_buf_add(&p.joined, rest.p ? rest.p : "", rest.len);
        if (p.joined.len != whole.len || memcmp(p.joined.p, whole.p, whole.len) != 0)
            fail_msg("%s, spilled at %zu: the pieces differ from the whole summary", run, ats[k]);
        sbx_buf_free(&rest);
        sbx_buf_free(&p.joined);
    }
    sbx_buf_free(&whole);
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
}

static void pieces_are_the_whole(void **state)
{
    (void)state;
    static const char *const runs[] = {"tests/fixtures/story-run", "tests/fixtures/risky-run",
                                       "tests/fixtures/runtime-run", "tests/fixtures/witness-run",
                                       "tests/fixtures/proxy-run", "tests/fixtures/sandboxio"};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++)
        run_spills(runs[i]);
}

/* Without a spill, or for text and markdown, everything stays in out. */
static void no_spill_no_pieces(void **state)
{
    (void)state;
    struct sbx_timeline tl;
    struct sbx_summary sum;
    load_summarized("tests/fixtures/story-run", &tl, &sum);
    char err[256];
    static const enum sbx_summary_format fmts[] = {SBX_SUMMARY_TEXT, SBX_SUMMARY_MARKDOWN};
    for (size_t f = 0; f < 2; f++) {
        struct pieces p = {SBX_BUF_INIT, 0, 0, 1};
        struct sbx_summary_look look = {.spill = take, .spill_ctx = &p, .spill_at = 1};
        struct sbx_buf out = SBX_BUF_INIT;
        assert_true(sbx_render_summary(&tl, &sum, fmts[f], &look, &out, err, sizeof err));
        assert_int_equal(p.n, 0);
        assert_true(out.len > 100);
        sbx_buf_free(&out);
    }
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pieces_are_the_whole),
        cmocka_unit_test(no_spill_no_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
