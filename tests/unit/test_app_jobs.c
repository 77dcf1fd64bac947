/* The interface's searches and filters on a thread of their own (the
 * terminal's mode): they land with the same result as when run at once, keys
 * work while they run, and Esc stops them leaving a consistent state. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "query/query.h"
#include "analyses/summary.h"
#include "app/app.h"
#include "app/keys.h"

/* Enough events that the app runs its queries on a thread. */
enum { NEVENTS = 150000 };

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

static int setup(void **state)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        return -1;
    struct run *r = calloc(1, sizeof *r);
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < NEVENTS; i++)
        sbx_buf_addf(&b,
                     "{\"at\": \"2026-01-01T10:%02d:%02d.%03dZ\", \"sandbox\": \"s1\", \"kind\": "
                     "\"command\", \"command\": \"step %d\", \"exit\": %d, \"ms\": 1, \"stdout\": "
                     "\"%s\\n\", \"stderr\": \"\"}\n",
                     i / 60000 % 60, i / 1000 % 60, i % 1000, i, i % 7 == 0, i % 5 ? "ok" : "float");
    sbx_timeline_init(&r->tl);
    uint32_t src = sbx_timeline_add_source(&r->tl, "big.jsonl", b.p, b.len, SBX_DATA_HEAP);
    sbx_load_source(&r->tl, src, &sbx_format_recorder, NULL);
    sbx_timeline_finish(&r->tl);
    char err[256];
    if (r->tl.n != NEVENTS || !sbx_summarize(&r->tl, NULL, &r->sum, err, sizeof err))
        return -1;
    *state = r;
    return 0;
}

static int teardown(void **state)
{
    struct run *r = *state;
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
    return 0;
}

static void start(struct sbx_app *a, struct run *r)
{
    struct sbx_app_opts o = {.background = true};
    sbx_app_init(a, &o, 100, 30);
    sbx_app_set_data(a, &r->tl, &r->sum, false);
}

static void type(struct sbx_app *a, const char *script)
{
    size_t n = strlen(script);
    for (size_t i = 0; i < n;) {
        int key, c, w;
        size_t used = sbx_key_parse(script + i, n - i, &key, &c, &w);
        assert_true(used && used != SIZE_MAX);
        sbx_app_key(a, key, 1, 0);
        i += used;
    }
}

/* Polls as the terminal's loop does until the job lands (at most 30 s). */
static void wait_idle(struct sbx_app *a)
{
    for (int i = 0; i < 30000 && sbx_app_busy(a); i++) {
        sbx_app_poll(a);
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    assert_false(sbx_app_busy(a));
}

/* How many events a query matches, run directly. */
static size_t direct_count(struct run *r, enum sbx_query_kind kind, const char *text)
{
    char err[256];
    struct sbx_query *q = sbx_query_compile(kind, text, strlen(text), NULL, err, sizeof err);
    assert_non_null(q);
    uint32_t *out = NULL;
    size_t n = sbx_query_run(q, &r->tl, NULL, 0, &out, NULL);
    free(out);
    sbx_query_free(q);
    return n;
}

static void search_lands(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r);
    type(&a, "/float\n");
    assert_true(sbx_app_busy(&a) || a.nhits > 0); /* on a thread, unless it already landed */
    wait_idle(&a);
    assert_int_equal(a.nhits, direct_count(r, SBX_QUERY_SEARCH, "float"));
    /* it jumped to the first match from the top */
    assert_int_equal(a.cur, 0);
    type(&a, "n");
    assert_int_equal(a.cur, 5);
    sbx_app_free(&a);
}

static void filter_lands_and_keys_work_meanwhile(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r);
    type(&a, "&failed\n");
    type(&a, "jjj"); /* moves in what shows now, while the filter runs */
    wait_idle(&a);
    size_t want = direct_count(r, SBX_QUERY_FILTER, "failed");
    assert_non_null(a.vis);
    assert_int_equal(a.nvis, want);
    for (size_t i = 0; i < a.nvis; i++)
        assert_true(sbx_cmd_exit(&sbx_tl_at(&r->tl, a.vis[i])->u.cmd) != 0);
    sbx_app_free(&a);
}

static void esc_stops_a_filter(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r);
    type(&a, "&step\n");
    if (!sbx_app_busy(&a)) /* it landed before Esc could stop it: nothing to check here */
        skip();
    type(&a, "\\e");
    assert_false(sbx_app_busy(&a));
    assert_null(a.filter_text);
    assert_null(a.vis);
    assert_non_null(strstr(a.msg, "filter stopped"));
    sbx_app_free(&a);
}

static void esc_stops_a_search(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r);
    type(&a, "/step\n");
    if (!sbx_app_busy(&a))
        skip();
    type(&a, "\\e");
    assert_false(sbx_app_busy(&a));
    assert_null(a.search_text);
    assert_int_equal(a.nhits, 0);
    assert_non_null(strstr(a.msg, "search stopped"));
    sbx_app_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(search_lands),
        cmocka_unit_test(filter_lands_and_keys_work_meanwhile),
        cmocka_unit_test(esc_stops_a_filter),
        cmocka_unit_test(esc_stops_a_search),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
