/* Following a log as it grows (-F, the F key): the cursor follows the
 * newest row while it is on the last one, as less +F does, and stays on its
 * event when it is anywhere else or following is off. The log is a file
 * written here, grown the way a recorder does, and polled as the review
 * polls it. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "importers/follow.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "tests/unit/apptest.h"
#include "app/app.h"

struct fixture {
    char dir[64], path[96];
    struct sbx_timeline tl;
    struct sbx_summary sum;
    struct sbx_follow *follow;
    struct sbx_app app;
    int lines;
};

static void append_lines(struct fixture *fx, int n)
{
    FILE *f = fopen(fx->path, "a");
    assert_non_null(f);
    for (int i = 0; i < n; i++) {
        fx->lines++;
        fprintf(f, "{\"at\": \"2026-01-01T00:%02d:%02dZ\", \"sandbox\": \"s1\", \"kind\": \"%s\", "
                   "\"command\": \"step %d\", \"exit\": 0, \"ms\": 1, \"text\": \"note %d\"}\n",
                fx->lines / 60, fx->lines % 60, fx->lines % 3 ? "command" : "note", fx->lines, fx->lines);
    }
    assert_int_equal(fclose(f), 0);
}

/* A log of `lines` lines loaded into the app (following or not). */
static struct fixture *open_log(int lines, bool following)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/sbxview-app-follow-XXXXXX");
    assert_non_null(mkdtemp(fx->dir));
    snprintf(fx->path, sizeof fx->path, "%s/run.jsonl", fx->dir);
    fclose(fopen(fx->path, "w"));
    append_lines(fx, lines);
    sbx_timeline_init(&fx->tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts lo = {.threads = 1, .formats = (const struct sbx_format *[]){&sbx_format_recorder}};
    const char *paths[] = {fx->path};
    sbx_load_paths(&fx->tl, paths, 1, &lo, &rep);
    sbx_load_report_free(&rep);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&fx->tl, &so, &fx->sum, err, sizeof err));
    struct sbx_app_opts o = {.threads = 1};
    sbx_app_init(&fx->app, &o, 80, 24);
    fx->app.following = following;
    sbx_app_set_data(&fx->app, &fx->tl, &fx->sum, false);
    fx->follow = sbx_follow_start(&fx->tl, &(struct sbx_import_opts){0});
    return fx;
}

/* The log grows by n lines; the review polls it and gives the app the
 * grown timeline, as cli/cmd_view.c does. */
static void grow(struct fixture *fx, int n)
{
    append_lines(fx, n);
    struct sbx_follow_report rep = {0};
    assert_int_equal(sbx_follow_poll(fx->follow, &fx->tl, &rep), (size_t)n);
    sbx_follow_report_free(&rep);
    sbx_summary_free(&fx->sum);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&fx->tl, &so, &fx->sum, err, sizeof err));
    sbx_app_set_data(&fx->app, &fx->tl, &fx->sum, false);
}

static void close_log(struct fixture *fx)
{
    sbx_app_free(&fx->app);
    sbx_follow_free(fx->follow);
    sbx_summary_free(&fx->sum);
    sbx_timeline_free(&fx->tl);
    unlink(fx->path);
    rmdir(fx->dir);
    free(fx);
}

/* The timeline's rows as the app shows them (app/app.h: vis, or every event). */
static size_t rows_of(const struct sbx_app *a) { return a->vis ? a->nvis : a->tl->n; }
static size_t last_row(const struct sbx_app *a) { return rows_of(a) - 1; }
static const struct sbx_event *event_at(const struct sbx_app *a, size_t row)
{
    assert_true(row < rows_of(a));
    return sbx_tl_at(a->tl, a->vis ? a->vis[row] : row);
}

/* On the last row the cursor follows the newest, whatever the log held
 * first (nothing, one line, a screenful) and however much it grows. */
static void on_the_last_row_it_follows(void **state)
{
    (void)state;
    static const int first[] = {0, 1, 2, 40};
    static const int more[] = {1, 3, 30};
    for (size_t i = 0; i < sizeof first / sizeof *first; i++) {
        struct fixture *fx = open_log(first[i], true);
        apptest_keys(&fx->app, "G");
        for (size_t k = 0; k < sizeof more / sizeof *more; k++) {
            grow(fx, more[k]);
            assert_int_equal(fx->app.cur, last_row(&fx->app));
            const struct sbx_event *e = event_at(&fx->app, fx->app.cur);
            assert_int_equal(sbx_ev_line_no(e), (uint32_t)fx->lines);
        }
        close_log(fx);
    }
}

/* Anywhere else, or not following, the cursor stays on its event. */
static void elsewhere_it_stays(void **state)
{
    (void)state;
    for (int following = 0; following < 2; following++) {
        struct fixture *fx = open_log(10, following);
        apptest_keys(&fx->app, following ? "Gk" : "G");
        const struct sbx_event *was = event_at(&fx->app, fx->app.cur);
        grow(fx, 5);
        assert_ptr_equal(event_at(&fx->app, fx->app.cur), was);
        assert_true(fx->app.cur < last_row(&fx->app));
        close_log(fx);
    }
}

/* With a filter, the last row is the last one the filter shows. */
static void with_a_filter_it_follows_what_shows(void **state)
{
    (void)state;
    struct fixture *fx = open_log(6, true);
    apptest_keys(&fx->app, "&kind:command\nG");
    grow(fx, 4); /* lines 7-10: 7, 8 and 10 commands, 9 a note */
    const struct sbx_event *e = event_at(&fx->app, fx->app.cur);
    assert_int_equal(fx->app.cur, last_row(&fx->app));
    assert_int_equal(sbx_ev_line_no(e), 10);
    grow(fx, 2); /* 11 a command, 12 a note the filter hides */
    e = event_at(&fx->app, fx->app.cur);
    assert_int_equal(sbx_ev_line_no(e), 11);
    assert_int_equal(fx->app.cur, last_row(&fx->app));
    close_log(fx);
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(on_the_last_row_it_follows),
        cmocka_unit_test(elsewhere_it_stays),
        cmocka_unit_test(with_a_filter_it_follows_what_shows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
