/* Tests for app/app: the interface driven with keys over a run made here,
 * looking at its state and at the grid it draws. Moving and paging, the
 * filter narrowing and clearing, findings mode, search with n/N and wrap,
 * marks, the detail, summary and help views and back, Enter on a summary
 * line, resizing (too small, and a prompt that survives it), ASCII
 * terminals, and a long run of random keys at random sizes. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "render/views/views.h"
#include "tests/unit/apptest.h"
#include "tests/unit/cellcheck.h"
#include "app/app.h"
#include "app/keymap.h"
#include "app/view.h"
#include "app/keys.h"

/* ---- the run ---- */

enum { NEVENTS = 40, T0 = 10 * 3600 }; /* event i starts at 10:00:00 + 3 i s */

/* What is special about some events; the rest are "step-NN", exit 0. */
enum { EV_FLOAT_ERR = 3, EV_REFUSED = 7, EV_FLOAT_CMD = 12, EV_SYSTEM = 15, EV_MAKE = 20,
       EV_SECRET = 25, EV_LONG = 28, EV_TIMEOUT = 30, EV_FLOAT_OUT = 33, EV_S2 = 35,
       EV_MISMATCH = 37, EV_HOSTILE = 38 };

static void add_line(struct sbx_buf *b, int i)
{
    int t = T0 + 3 * i;
    const char *sb = i >= EV_S2 ? "s2" : "s1";
    char at[64];
    snprintf(at, sizeof at, "2026-01-01T%02d:%02d:%02d.000Z", t / 3600, t / 60 % 60, t % 60);
    if (i == EV_SYSTEM) {
        sbx_buf_addf(b, "{\"at\": \"%s\", \"sandbox\": \"%s\", \"kind\": \"files\", \"root\": \"/etc\", "
                        "\"added\": [], \"removed\": [], \"changed\": [\"./hosts\"]}\n", at, sb);
        return;
    }
    char cmd[128], out[160] = "", err[160] = "";
    int exit = 0;
    snprintf(cmd, sizeof cmd, "step-%02d", i);
    switch (i) {
    case EV_FLOAT_ERR:
        snprintf(cmd, sizeof cmd, "python3 calc.py");
        snprintf(err, sizeof err, "ValueError: could not convert string to FLOAT: '2,5'\\n");
        exit = 1;
        break;
    case EV_REFUSED:
        snprintf(cmd, sizeof cmd, "curl -sS https://paste.example.com/x");
        snprintf(err, sizeof err, "curl: (6) Could not resolve host: paste.example.com\\n");
        exit = 6;
        break;
    case EV_FLOAT_CMD: snprintf(cmd, sizeof cmd, "echo float twice float"); break;
    case EV_MAKE:
        snprintf(cmd, sizeof cmd, "make test");
        snprintf(err, sizeof err, "make: *** [test] Error 2\\n");
        exit = 2;
        break;
    case EV_SECRET: snprintf(cmd, sizeof cmd, "echo ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"); break;
    case EV_TIMEOUT: snprintf(cmd, sizeof cmd, "sleep 99"); exit = 124; break;
    case EV_FLOAT_OUT: snprintf(out, sizeof out, "a float here\\n"); break;
    case EV_MISMATCH: snprintf(out, sizeof out, "x\\n"); break;
    case EV_HOSTILE:
        snprintf(cmd, sizeof cmd, "printf ok # \\u202eevil\\u202c");
        snprintf(out, sizeof out, "\\u001b]52;c;ZXZpbA==\\u0007\\u001b]0;pwned\\u0007"
                                  "\\u001b[2J\\u001b[HAll tests passed\\r\\n");
        break;
    default: snprintf(out, sizeof out, "out %d\\n", i); break;
    }
    sbx_buf_addf(b, "{\"at\": \"%s\", \"sandbox\": \"%s\", \"kind\": \"command\", \"command\": \"%s\", "
                    "\"cwd\": \"/w\", \"exit\": %d, \"timed_out\": %s, \"ms\": 5, \"stdout\": \"",
                 at, sb, cmd, exit, exit == 124 ? "true" : "false");
    if (i == EV_LONG)
        for (int k = 1; k <= 100; k++)
            sbx_buf_addf(b, "line %d of a long output\\n", k);
    else
        sbx_buf_adds(b, out);
    sbx_buf_addf(b, "\", \"stderr\": \"%s\"%s}\n", err,
                 i == EV_MISMATCH ? ", \"stdout_hash\": \"0123456789abcdef\"" : "");
}

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    const struct sbx_event *ev[NEVENTS]; /* by i */
};

static int setup(void **state)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        return -1;
    struct run *r = calloc(1, sizeof *r);
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < NEVENTS; i++)
        add_line(&b, i);
    sbx_timeline_init(&r->tl);
    uint32_t src = sbx_timeline_add_source(&r->tl, "run.jsonl", b.p, b.len, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(&r->tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (r->tl.n != NEVENTS || !sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err))
        return -1;
    for (size_t k = 0; k < r->tl.n; k++)
        r->ev[k] = sbx_tl_at(&r->tl, k); /* times rise with i, so order is i */
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

/* ---- helpers ---- */

static void start(struct sbx_app *a, struct run *r, int cols, int rows, bool ascii)
{
    struct sbx_app_opts o = {.ascii = ascii, .threads = 1};
    sbx_app_init(a, &o, cols, rows);
    sbx_app_set_data(a, &r->tl, &r->sum, false);
}

static size_t count(const struct sbx_app *a)
{
    return a->vis ? a->nvis : a->tl->n;
}

static const struct sbx_event *visible(const struct sbx_app *a, size_t i)
{
    return i < count(a) ? sbx_tl_at(a->tl, a->vis ? a->vis[i] : i) : NULL;
}

static const struct sbx_event *selected(const struct sbx_app *a)
{
    return visible(a, a->cur);
}

/* Which of the run's events e is. */
static int index_of(const struct run *r, const struct sbx_event *e)
{
    for (int i = 0; i < NEVENTS; i++)
        if (r->ev[i] == e)
            return i;
    return -1;
}

#define assert_selected(a, r, i) assert_int_equal(index_of((r), selected(a)), (i))

static bool row_has(const struct sbx_grid *g, int r, const char *text)
{
    char *s = apptest_row(g, r);
    bool yes = strstr(s, text) != NULL;
    free(s);
    return yes;
}

static bool screen_has(const struct sbx_grid *g, const char *text)
{
    for (int r = 0; r < g->rows; r++)
        if (row_has(g, r, text))
            return true;
    return false;
}

#define assert_screen_has(g, text)                                                            \
    do {                                                                                      \
        if (!screen_has((g), (text)))                                                         \
            fail_msg("no \"%s\" on the screen", (text));                                      \
    } while (0)

#define assert_status_has(g, text)                                                            \
    do {                                                                                      \
        if (!row_has((g), (g)->rows - 1, (text))) {                                           \
            char *s_ = apptest_row((g), (g)->rows - 1);                                          \
            fail_msg("status [%s] has no \"%s\"", s_, (text));                                \
        }                                                                                     \
    } while (0)

static int body(const struct sbx_app *a)
{
    return a->rows - 2;
}

/* The selection is on the screen, and on the row the grid shows it. */
static void assert_selection_shown(struct sbx_app *a, struct sbx_grid *g)
{
    assert_true(a->cur < count(a));
    assert_true(a->top <= a->cur && a->cur < a->top + (size_t)body(a));
    apptest_draw(a, g);
    int row = 1 + (int)(a->cur - a->top);
    for (int c = 0; c < g->cols; c++)
        assert_int_equal(sbx_grid_cat(g, row, c)->style, SBX_STYLE_CURSOR);
    for (int r = 1; r <= body(a); r++)
        if (r != row)
            assert_int_not_equal(sbx_grid_cat(g, r, 2)->style, SBX_STYLE_CURSOR);
}

/* The events of the run for which pred holds. */
static size_t count_where(const struct run *r, bool (*pred)(const struct run *, const struct sbx_event *))
{
    size_t n = 0;
    for (int i = 0; i < NEVENTS; i++)
        n += pred(r, r->ev[i]);
    return n;
}

static bool is_failed(const struct run *r, const struct sbx_event *e)
{
    (void)r;
    return e->kind == SBX_EV_COMMAND &&
           ((e->u.cmd.flags & SBX_CMD_TIMED_OUT) ||
            ((e->u.cmd.flags & SBX_CMD_EXIT_KNOWN) && sbx_cmd_exit(&e->u.cmd) != 0));
}

static bool in_s2(const struct run *r, const struct sbx_event *e)
{
    return strncmp(sbx_str(&r->tl, e->sandbox), "s2", 2) == 0;
}

static bool failed_in_s2(const struct run *r, const struct sbx_event *e)
{
    return is_failed(r, e) && in_s2(r, e);
}

static bool any_finding(const struct run *r, const struct sbx_event *e)
{
    (void)r;
    return (e->findings & ~(uint32_t)SBX_F_BAD_FIELD) != 0;
}

static bool serious_finding(const struct run *r, const struct sbx_event *e)
{
    (void)r;
    return (e->findings & (SBX_F_REFUSED_HOST | SBX_F_OUTSIDE_WRAPPER | SBX_F_ACCOUNT_CHANGE |
                           SBX_F_SYSTEM_FILES | SBX_F_SECRET | SBX_F_HIDDEN_TEXT |
                           SBX_F_HASH_MISMATCH)) != 0;
}

static bool after_10_01(const struct run *r, const struct sbx_event *e)
{
    (void)r;
    return e->start != SBX_TIME_UNKNOWN && (e->start / 1000000000) % 86400 >= T0 + 60;
}

/* "float" anywhere in command, stdout or stderr, any case. */
static bool has_float(const struct run *r, const struct sbx_event *e)
{
    if (e->kind != SBX_EV_COMMAND)
        return false;
    const struct sbx_text err = sbx_cmd_err(&e->u.cmd);
    const struct sbx_text *t[] = {&e->u.cmd.command, &e->u.cmd.out, &err};
    bool yes = false;
    for (int k = 0; k < 3 && !yes; k++) {
        struct sbx_buf tmp = SBX_BUF_INIT;
        size_t n;
        const char *s = sbx_text_get(&r->tl, e, t[k], &tmp, &n);
        char *z = sbx_xstrndup(s, n);
        yes = strcasestr(z, "float") != NULL;
        free(z);
        sbx_buf_free(&tmp);
    }
    return yes;
}

/* The i-th (0-based) event for which pred holds, as its index. */
static int nth_where(const struct run *r, bool (*pred)(const struct run *, const struct sbx_event *), size_t nth)
{
    for (int i = 0; i < NEVENTS; i++)
        if (pred(r, r->ev[i]) && nth-- == 0)
            return i;
    return -1;
}

static void every_visible(const struct sbx_app *a, const struct run *r,
                          bool (*pred)(const struct run *, const struct sbx_event *))
{
    for (size_t i = 0; i < count(a); i++)
        if (!pred(r, visible(a, i)))
            fail_msg("visible row %zu (event %d) should not show", i, index_of(r, visible(a, i)));
}

/* ---- the tests ---- */

static void the_fixture(void **state)
{
    struct run *r = *state;
    /* the findings the tests below lean on are there */
    assert_true(r->ev[EV_REFUSED]->findings & SBX_F_REFUSED_HOST);
    assert_true(r->ev[EV_SECRET]->findings & SBX_F_SECRET);
    assert_true(r->ev[EV_SYSTEM]->findings & SBX_F_SYSTEM_FILES);
    assert_true(r->ev[EV_TIMEOUT]->findings & SBX_F_TIMED_OUT);
    assert_true(r->ev[EV_MAKE]->findings & SBX_F_FAILED);
    assert_true(r->ev[EV_MISMATCH]->findings & SBX_F_HASH_MISMATCH);
    assert_true(count_where(r, has_float) == 3);
    assert_true(count_where(r, failed_in_s2) == 0);
    assert_true(count_where(r, in_s2) > 0);
}

static void first_screen(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_selected(&a, r, 0);
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 0, " sbxview"));
    /* the findings come first in the header; the count of rows is on the
     * status line, and in the header too when there is room */
    char n[32];
    snprintf(n, sizeof n, "1/%d", NEVENTS);
    assert_true(row_has(&g, 23, n));
    struct sbx_grid wide;
    sbx_grid_init(&wide, false);
    sbx_app_resize(&a, 200, 24);
    apptest_draw(&a, &wide);
    snprintf(n, sizeof n, "%d events", NEVENTS);
    assert_true(row_has(&wide, 0, n));
    sbx_grid_free(&wide);
    sbx_app_resize(&a, 80, 24);
    assert_true(row_has(&g, 1, "step-00"));
    /* one row per event until the status line */
    for (int i = 0; i < body(&a); i++) {
        char want[32];
        snprintf(want, sizeof want, "step-%02d", i);
        const char *cmd = i == EV_FLOAT_ERR ? "python3 calc.py" : i == EV_REFUSED ? "curl -sS" :
                          i == EV_FLOAT_CMD ? "echo float" : i == EV_SYSTEM ? "/etc" :
                          i == EV_MAKE ? "make test" : want;
        if (!row_has(&g, 1 + i, cmd))
            fail_msg("row %d has no %s", 1 + i, cmd);
    }
    char pos[32];
    snprintf(pos, sizeof pos, "1/%d", NEVENTS);
    assert_status_has(&g, pos);
    /* the refused event carries its mark */
    assert_int_equal(sbx_grid_cat(&g, 1 + EV_REFUSED, 0)->text[0], 'R');
    assert_int_equal(sbx_grid_cat(&g, 1 + EV_REFUSED, 0)->style, SBX_STYLE_REFUSED);
    assert_selection_shown(&a, &g);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* A load still running shows on the status line at once, before the
 * opening message, not hidden behind it until a key is pressed; once the
 * load is done the message alone is left. */
static void progress_before_the_message(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 120, 24, false);
    sbx_app_message(&a, false, "the opening message");
    sbx_app_set_progress(&a, "loading 12% (3 MiB of 25 MiB), 4,000 events so far");
    apptest_draw(&a, &g);
    char *line = apptest_row(&g, g.rows - 1);
    const char *p = strstr(line, "loading 12%"), *m = strstr(line, "the opening message");
    if (!p || !m || p > m)
        fail_msg("status [%s]: the progress not before the message", line);
    free(line);
    sbx_app_set_progress(&a, "");
    apptest_draw(&a, &g);
    assert_status_has(&g, "the opening message");
    line = apptest_row(&g, g.rows - 1);
    assert_null(strstr(line, "loading"));
    free(line);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void moving(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "jjj");
    assert_selected(&a, r, 3);
    apptest_keys(&a, "k<Down><Down><Up>");
    assert_selected(&a, r, 3);
    assert_selection_shown(&a, &g);
    apptest_keys(&a, "kkkkkk");
    assert_selected(&a, r, 0);
    apptest_keys(&a, "G");
    assert_selected(&a, r, NEVENTS - 1);
    assert_selection_shown(&a, &g);
    assert_int_equal(a.top, NEVENTS - body(&a));
    apptest_keys(&a, "j<Down>");
    assert_selected(&a, r, NEVENTS - 1);
    assert_true(sbx_app_at_end(&a));
    apptest_keys(&a, "g");
    assert_selected(&a, r, 0);
    assert_int_equal(a.top, 0);
    apptest_keys(&a, "<End>");
    assert_selected(&a, r, NEVENTS - 1);
    apptest_keys(&a, "<Home>");
    assert_selected(&a, r, 0);
    apptest_keys(&a, ">");
    assert_selected(&a, r, NEVENTS - 1);
    apptest_keys(&a, "<");
    assert_selected(&a, r, 0);
    /* walking down one row at a time scrolls one row at a time */
    for (int i = 1; i < NEVENTS; i++) {
        apptest_keys(&a, "j");
        assert_selected(&a, r, i);
        assert_int_equal(a.top, i < body(&a) ? 0 : i - body(&a) + 1);
    }
    assert_selection_shown(&a, &g);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void paging(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    int h = body(&a);
    apptest_keys(&a, " ");
    assert_selected(&a, r, h);
    assert_selection_shown(&a, &g);
    apptest_keys(&a, "b");
    assert_selected(&a, r, 0);
    assert_int_equal(a.top, 0);
    apptest_keys(&a, "<PgDn>");
    assert_selected(&a, r, h);
    apptest_keys(&a, "<PgUp>");
    assert_selected(&a, r, 0);
    apptest_keys(&a, "<C-f>");
    assert_selected(&a, r, h);
    apptest_keys(&a, "<C-b>");
    assert_selected(&a, r, 0);
    apptest_keys(&a, "<C-d>");
    assert_selected(&a, r, h / 2);
    apptest_keys(&a, "<C-d>");
    assert_selected(&a, r, 2 * (h / 2));
    assert_selection_shown(&a, &g);
    apptest_keys(&a, "<C-u><C-u>");
    assert_selected(&a, r, 0);
    /* past the end: the last event, the last page */
    apptest_keys(&a, "   ");
    assert_selected(&a, r, NEVENTS - 1);
    assert_int_equal(a.top, NEVENTS - h);
    assert_selection_shown(&a, &g);
    /* the page keeps the selection's place on the screen, as less does */
    apptest_keys(&a, "gjj ");
    assert_selected(&a, r, 2 + h < NEVENTS ? 2 + h : NEVENTS - 1);
    assert_selection_shown(&a, &g);
    apptest_keys(&a, "bbbb");
    assert_selected(&a, r, 0);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void filter(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    /* typing shows in the status line */
    apptest_keys(&a, "&fail");
    assert_int_equal(a.prompt, '&');
    apptest_draw(&a, &g);
    assert_status_has(&g, "filter: fail");
    apptest_keys(&a, "ed\n");
    assert_int_equal(a.prompt, 0);
    assert_string_equal(a.filter_text, "failed");
    assert_int_equal(count(&a), count_where(r, is_failed));
    every_visible(&a, r, is_failed);
    assert_selected(&a, r, nth_where(r, is_failed, 0));
    apptest_draw(&a, &g);
    assert_status_has(&g, "& failed");
    char pos[32];
    snprintf(pos, sizeof pos, "1/%zu", count_where(r, is_failed));
    assert_status_has(&g, pos);
    /* moving stays within what shows */
    apptest_keys(&a, "j");
    assert_selected(&a, r, nth_where(r, is_failed, 1));
    apptest_keys(&a, "G");
    assert_selected(&a, r, nth_where(r, is_failed, count_where(r, is_failed) - 1));
    apptest_keys(&a, "k");
    const struct sbx_event *keep = selected(&a);
    /* & opens an empty prompt and the filter shows on the status line until
     * then; Enter on the empty prompt clears it, and the selection stays on
     * the same event */
    apptest_draw(&a, &g);
    assert_status_has(&g, "& failed");
    apptest_keys(&a, "&");
    apptest_draw(&a, &g);
    assert_status_has(&g, "filter: ");
    apptest_keys(&a, "\n");
    assert_null(a.filter_text);
    assert_int_equal(count(&a), NEVENTS);
    assert_ptr_equal(selected(&a), keep);
    assert_selection_shown(&a, &g);
    /* terms combine */
    apptest_keys(&a, "&sandbox:s2\n");
    assert_int_equal(count(&a), count_where(r, in_s2));
    every_visible(&a, r, in_s2);
    apptest_keys(&a, "&<C-u>since:10:01\n");
    assert_int_equal(count(&a), count_where(r, after_10_01));
    every_visible(&a, r, after_10_01);
    apptest_keys(&a, "&<C-u>since:10:01 failed\n");
    assert_true(count(&a) > 0);
    for (size_t i = 0; i < count(&a); i++)
        assert_true(is_failed(r, visible(&a, i)) && after_10_01(r, visible(&a, i)));
    apptest_keys(&a, "&<C-u>kind:files\n");
    assert_int_equal(count(&a), 1);
    assert_selected(&a, r, EV_SYSTEM);
    apptest_keys(&a, "&<C-u>refused\n");
    assert_int_equal(count(&a), 1);
    assert_selected(&a, r, EV_REFUSED);
    /* a bad filter is an error and keeps the filter there was */
    apptest_keys(&a, "&<C-u>(\n");
    assert_true(a.msg_error);
    assert_string_equal(a.filter_text, "refused");
    assert_int_equal(count(&a), 1);
    apptest_draw(&a, &g);
    assert_int_equal(sbx_grid_cat(&g, g.rows - 1, 1)->style, SBX_STYLE_ERROR);
    /* Esc leaves the prompt without changing anything; so does
     * backspace on an empty prompt */
    apptest_keys(&a, "&<C-u>failed\\e");
    assert_int_equal(a.prompt, 0);
    assert_string_equal(a.filter_text, "refused");
    apptest_keys(&a, "&<C-u><BS>");
    assert_int_equal(a.prompt, 0);
    /* an empty filter clears */
    apptest_keys(&a, "&<C-u>\n");
    assert_null(a.filter_text);
    assert_int_equal(count(&a), NEVENTS);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* A filter that matches nothing shows nothing. The trap: sbx_query_run
 * leaves its array NULL when nothing matches, and a NULL vis means "no
 * filter" to the app, so every event would show under the filter. */
static void filter_matching_nothing(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "&failed sandbox:s2\n");
    assert_int_equal(count_where(r, failed_in_s2), 0);
    assert_string_equal(a.filter_text, "failed sandbox:s2");
    apptest_draw(&a, &g);
    assert_false(screen_has(&g, "step-"));
    assert_screen_has(&g, "No event matches");
    assert_int_equal(count(&a), 0);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* After a backward search, / and Enter searches forward and \ and Enter
 * backward, as in less (not in the last search's direction for /, nor in
 * the opposite one for \). */
static void empty_search_direction(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r, 80, 24, false);
    size_t nh = count_where(r, has_float);
    apptest_keys(&a, "\\\\float\n");
    assert_selected(&a, r, nth_where(r, has_float, nh - 1));
    apptest_keys(&a, "g/\n");
    assert_selected(&a, r, nth_where(r, has_float, 0));
    apptest_keys(&a, "G\\\\\n");
    assert_selected(&a, r, nth_where(r, has_float, nh - 1));
    sbx_app_free(&a);
}

static void findings_mode(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "f");
    assert_int_equal(a.findings_mode, 1);
    assert_int_equal(count(&a), count_where(r, any_finding));
    every_visible(&a, r, any_finding);
    apptest_draw(&a, &g);
    assert_status_has(&g, "events with findings");
    apptest_keys(&a, "j"); /* the message goes; the mode stays in the status */
    apptest_draw(&a, &g);
    assert_status_has(&g, "findings only");
    apptest_keys(&a, "f");
    assert_int_equal(a.findings_mode, 2);
    assert_int_equal(count(&a), count_where(r, serious_finding));
    every_visible(&a, r, serious_finding);
    assert_true(count_where(r, serious_finding) < count_where(r, any_finding));
    apptest_keys(&a, "f");
    assert_int_equal(a.findings_mode, 0);
    assert_int_equal(count(&a), NEVENTS);
    /* with a filter: both apply */
    apptest_keys(&a, "&sandbox:s1\nf");
    for (size_t i = 0; i < count(&a); i++)
        assert_true(any_finding(r, visible(&a, i)) && !in_s2(r, visible(&a, i)));
    apptest_keys(&a, "ff&<C-u>\n");
    assert_int_equal(count(&a), NEVENTS);
    /* ] and [ go from finding to finding, and wrap */
    apptest_keys(&a, "g]");
    assert_selected(&a, r, nth_where(r, any_finding, 0));
    apptest_keys(&a, "]");
    assert_selected(&a, r, nth_where(r, any_finding, 1));
    apptest_keys(&a, "[[");
    size_t nf = count_where(r, any_finding);
    assert_selected(&a, r, nth_where(r, any_finding, nf - 1));
    assert_non_null(strstr(a.msg, "from the end"));
    apptest_keys(&a, "]");
    assert_selected(&a, r, nth_where(r, any_finding, 0));
    assert_non_null(strstr(a.msg, "from the top"));
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* The first occurrence of word on row r is in the match style, and the
 * column before it is not. */
static bool row_has_match_over(const struct sbx_grid *g, int r, const char *word)
{
    char *s = apptest_row(g, r);
    char *p = strstr(s, word);
    bool yes = p != NULL;
    if (p) {
        /* the text before the word is ASCII in these rows: bytes are columns */
        int c0 = (int)(p - s);
        for (int c = c0; c < c0 + (int)strlen(word); c++)
            yes = yes && sbx_grid_cat(g, r, c)->style == SBX_STYLE_MATCH;
        yes = yes && (c0 == 0 || sbx_grid_cat(g, r, c0 - 1)->style != SBX_STYLE_MATCH);
    }
    free(s);
    return yes;
}

static void search(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    size_t nh = count_where(r, has_float);
    apptest_keys(&a, "/float");
    apptest_draw(&a, &g);
    assert_status_has(&g, "/float");
    apptest_keys(&a, "\n");
    assert_string_equal(a.search_text, "float");
    assert_int_equal(a.nhits, nh);
    assert_selected(&a, r, nth_where(r, has_float, 0));
    /* the match in a command is highlighted */
    apptest_draw(&a, &g);
    assert_true(row_has_match_over(&g, 1 + EV_FLOAT_CMD - (int)a.top, "float"));
    apptest_keys(&a, "n");
    assert_selected(&a, r, nth_where(r, has_float, 1));
    char want[64];
    snprintf(want, sizeof want, "match 2 of %zu", nh);
    assert_string_equal(a.msg, want);
    apptest_keys(&a, "n");
    assert_selected(&a, r, nth_where(r, has_float, 2));
    assert_selection_shown(&a, &g);
    /* past the last: from the top */
    apptest_keys(&a, "n");
    assert_selected(&a, r, nth_where(r, has_float, 0));
    assert_non_null(strstr(a.msg, "from the top"));
    /* N before the first: from the end */
    apptest_keys(&a, "N");
    assert_selected(&a, r, nth_where(r, has_float, nh - 1));
    assert_non_null(strstr(a.msg, "from the end"));
    apptest_keys(&a, "N");
    assert_selected(&a, r, nth_where(r, has_float, nh - 2));
    /* the status line keeps the search once the message is gone */
    apptest_keys(&a, "k");
    apptest_draw(&a, &g);
    snprintf(want, sizeof want, "/float (%zu)", nh);
    assert_status_has(&g, want);
    /* backward: from the top it wraps to the last; n keeps going back */
    apptest_keys(&a, "g\\\\float\n");
    assert_selected(&a, r, nth_where(r, has_float, nh - 1));
    apptest_keys(&a, "n");
    assert_selected(&a, r, nth_where(r, has_float, nh - 2));
    apptest_keys(&a, "N");
    assert_selected(&a, r, nth_where(r, has_float, nh - 1));
    apptest_keys(&a, "g<Alt-/>float\n");
    assert_selected(&a, r, nth_where(r, has_float, nh - 1));
    /* upper case in the pattern: case matters */
    apptest_keys(&a, "g/FLOAT\n");
    assert_int_equal(a.nhits, 1);
    assert_selected(&a, r, EV_FLOAT_ERR);
    /* no match; a bad pattern */
    apptest_keys(&a, "/zzqqzz\n");
    assert_int_equal(a.nhits, 0);
    apptest_keys(&a, "n");
    assert_non_null(strstr(a.msg, "not found"));
    apptest_keys(&a, "/(\n");
    assert_true(a.msg_error);
    /* matches are counted within what shows */
    apptest_keys(&a, "&failed\n/float\n");
    assert_int_equal(a.nhits, 1);
    assert_selected(&a, r, EV_FLOAT_ERR);
    sbx_app_free(&a);

    /* n with no search yet */
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "n");
    assert_true(a.msg_error);
    assert_non_null(strstr(a.msg, "no search"));
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void marks(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "jjjjjma");
    assert_string_equal(a.msg, "marked a");
    apptest_keys(&a, "GmZg");
    apptest_keys(&a, "'a");
    assert_selected(&a, r, 5);
    apptest_keys(&a, "'Z");
    assert_selected(&a, r, NEVENTS - 1);
    apptest_keys(&a, "'b");
    assert_true(a.msg_error);
    assert_selected(&a, r, NEVENTS - 1);
    apptest_keys(&a, "m1");
    assert_true(a.msg_error);
    /* Esc after m cancels it */
    apptest_keys(&a, "m\\ej");
    assert_selected(&a, r, NEVENTS - 1);
    assert_string_equal(a.msg, "");
    /* a mark the filter hides: the filter goes so the event can show */
    apptest_keys(&a, "&failed\n'a");
    assert_null(a.filter_text);
    assert_selected(&a, r, 5);
    sbx_app_free(&a);
}

static void detail(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    for (int i = 0; i < EV_REFUSED; i++)
        apptest_keys(&a, "j");
    apptest_keys(&a, "\n");
    assert_int_equal(a.view, SBX_VIEW_DETAIL);
    apptest_draw(&a, &g);
    char want[64];
    snprintf(want, sizeof want, "event %d of %d", EV_REFUSED + 1, NEVENTS);
    assert_true(row_has(&g, 0, want));
    assert_screen_has(&g, "curl -sS https://paste.example.com/x");
    assert_screen_has(&g, "refused paste.example.com");
    assert_screen_has(&g, "stderr: 1 line");
    assert_screen_has(&g, "curl: (6) Could not resolve host: paste.example.com");
    assert_screen_has(&g, "run.jsonl:8");
    /* o: the raw line, o again: the fields */
    apptest_keys(&a, "o");
    assert_true(a.raw);
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 0, "raw line"));
    assert_true(apptest_doc_has(&a, "\"kind\": \"command\""));
    apptest_keys(&a, "o");
    assert_false(a.raw);
    /* q: back to the timeline, on the same event */
    assert_int_equal(apptest_keys(&a, "q"), 0);
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_selected(&a, r, EV_REFUSED);
    apptest_keys(&a, "\n\\e");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    /* a long detail scrolls */
    apptest_keys(&a, "g");
    for (int i = 0; i < EV_LONG; i++)
        apptest_keys(&a, "j");
    apptest_keys(&a, "\n");
    assert_true(a.doc.nrows > 100);
    size_t max_top = a.doc.nrows - (size_t)body(&a);
    apptest_keys(&a, "j");
    assert_int_equal(a.doc_top, 1);
    apptest_keys(&a, " ");
    assert_int_equal(a.doc_top, 1 + (size_t)body(&a));
    apptest_keys(&a, "G");
    assert_int_equal(a.doc_top, max_top);
    apptest_draw(&a, &g);
    assert_screen_has(&g, "line 100 of a long output");
    assert_status_has(&g, "100%");
    apptest_keys(&a, "j");
    assert_int_equal(a.doc_top, max_top);
    apptest_keys(&a, "g");
    assert_int_equal(a.doc_top, 0);
    /* searching in the detail scrolls to the matching row */
    apptest_keys(&a, "/line 57 of\n");
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 1, "line 57 of"));
    assert_true(row_has_match_over(&g, 1, "line 57 of"));
    apptest_keys(&a, "/^line 5\\\\d\n");
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 1, "line 57 of"));
    apptest_keys(&a, "n");
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 1, "line 58 of"));
    apptest_keys(&a, "NN");
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 1, "line 56 of"));
    /* from the end, n wraps to the first match */
    apptest_keys(&a, "Gn");
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 1, "line 50 of"));
    /* the timeline's keys that do nothing here say so */
    apptest_keys(&a, "&");
    assert_int_equal(a.prompt, 0);
    assert_non_null(strstr(a.msg, "does nothing here"));
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_selected(&a, r, EV_LONG);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void summary(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "s");
    assert_int_equal(a.view, SBX_VIEW_SUMMARY);
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 0, "summary"));
    assert_screen_has(&g, "Commands:");
    assert_screen_has(&g, "refused (paste.example.com)");
    assert_true(a.nslines > 3);
    /* the selected line is drawn as the cursor */
    apptest_keys(&a, "j");
    assert_int_equal(a.doc_sel, 1);
    apptest_draw(&a, &g);
    for (size_t rr = 0; rr < a.doc.nrows && rr < (size_t)body(&a); rr++)
        assert_int_equal(sbx_grid_cat(&g, 1 + (int)rr, 0)->style == SBX_STYLE_CURSOR,
                         a.doc.rows[rr].target == 1);
    /* Enter on the line about the refused host goes to its event */
    size_t refused_line = SIZE_MAX;
    for (size_t i = 0; i < a.nslines; i++)
        if (a.slines[i].event == r->ev[EV_REFUSED] && refused_line == SIZE_MAX)
            refused_line = i;
    assert_true(refused_line != SIZE_MAX);
    apptest_keys(&a, "g");
    for (size_t i = 0; i < refused_line; i++)
        apptest_keys(&a, "j");
    apptest_keys(&a, "\n");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_selected(&a, r, EV_REFUSED);
    /* a line that stands for several events applies its filter */
    apptest_keys(&a, "s");
    size_t fl = SIZE_MAX;
    for (size_t i = 0; i < a.nslines; i++)
        if (a.slines[i].filter && fl == SIZE_MAX)
            fl = i;
    assert_true(fl != SIZE_MAX);
    for (size_t i = 0; i < fl; i++)
        apptest_keys(&a, "j");
    apptest_keys(&a, "\n");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_string_equal(a.filter_text, a.slines ? a.slines[fl].filter : "");
    assert_int_equal(a.cur, 0);
    /* q goes back from the summary */
    apptest_keys(&a, "s");
    assert_int_equal(apptest_keys(&a, "q"), 0);
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void help(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 200, 60, false);
    apptest_keys(&a, "?");
    assert_int_equal(a.view, SBX_VIEW_HELP);
    /* made from the key map: the words of every action a view takes are
     * in it, and none of the runs list's */
    unsigned taken = 0;
    for (int v = 0; v < SBX_VIEW_COUNT; v++)
        taken |= sbx_views[v]->keys;
    for (size_t i = 0; i < sbx_keymap_len; i++) {
        bool listed = apptest_doc_has(&a, sbx_keymap[i].help);
        if (listed != ((sbx_keymap[i].group & taken) != 0))
            fail_msg("the help %s \"%s\"", listed ? "has" : "has no", sbx_keymap[i].help);
    }
    apptest_draw(&a, &g);
    assert_true(row_has(&g, 0, "help"));
    /* back to where it came from */
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    apptest_keys(&a, "\n<F1>");
    assert_int_equal(a.view, SBX_VIEW_HELP);
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_DETAIL);
    apptest_keys(&a, "s?");
    assert_int_equal(a.view, SBX_VIEW_HELP);
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_SUMMARY);
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    /* help from help, then back */
    apptest_keys(&a, "??\\e");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    /* Q quits from anywhere; q only from the timeline */
    assert_int_equal(apptest_keys(&a, "\n") & SBX_APP_QUIT, 0);
    assert_int_equal(apptest_keys(&a, "Q") & SBX_APP_QUIT, SBX_APP_QUIT);
    assert_int_equal(apptest_keys(&a, "q") & SBX_APP_QUIT, 0);
    assert_int_equal(apptest_keys(&a, "q") & SBX_APP_QUIT, SBX_APP_QUIT);
    /* a key that is not in the map */
    apptest_keys(&a, "Z");
    assert_non_null(strstr(a.msg, "no key Z"));
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* The help lists the mark column "heaviest finding first": each mark must
 * outweigh the next, as sbx_finding_look ranks them, not follow the order
 * of the finding bits. */
static void help_marks_by_weight(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r, 120, 80, false);
    apptest_keys(&a, "?");
    char *text = apptest_doc_text(&a.doc);
    const char *p = strstr(text, "heaviest finding first\n");
    assert_non_null(p);
    p = strchr(p, '\n') + 1;
    uint32_t bits[32];
    size_t n = 0;
    /* "  R  refused host" lines until a blank one */
    while (*p == ' ' && p[1] == ' ' && p[2] != ' ' && n < 32) {
        char mark = p[2];
        uint32_t bit = 0;
        for (int k = 0; k < 32 && !bit; k++) {
            char m;
            sbx_finding_look(1u << k, &m);
            if (m == mark)
                bit = 1u << k;
        }
        if (!bit)
            fail_msg("the help lists a mark %c that no finding has", mark);
        bits[n++] = bit;
        p = strchr(p, '\n') + 1;
    }
    assert_true(n >= 8);
    for (size_t i = 0; i + 1 < n; i++) {
        char m1, m2, both;
        sbx_finding_look(bits[i], &m1);
        sbx_finding_look(bits[i + 1], &m2);
        sbx_finding_look(bits[i] | bits[i + 1], &both);
        if (both != m1)
            fail_msg("the help lists %c before %c, but %c is heavier", m1, m2, m2);
    }
    free(text);
    sbx_app_free(&a);
}

static void too_small(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "jj<Resize:20x5>");
    apptest_draw(&a, &g);
    assert_int_equal(g.cols, 20);
    assert_int_equal(g.rows, 5);
    assert_screen_has(&g, "Terminal too small");
    assert_false(screen_has(&g, "step-"));
    /* keys still work and nothing breaks (the summary stays in sight: its
     * first line, the verdict, would lead to the heaviest finding) */
    apptest_keys(&a, "jjG\n?s/x");
    apptest_draw(&a, &g);
    assert_screen_has(&g, "Terminal too small");
    /* the edges of "too small" */
    static const int sizes[][3] = {{39, 24, 1}, {40, 9, 1}, {40, 10, 0}, {1, 1, 1},
                                   {2, 1, 1},  {1, 30, 1}, {300, 2, 1}, {41, 11, 0}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        sbx_app_resize(&a, sizes[i][0], sizes[i][1]);
        apptest_draw(&a, &g);
        /* the notice starts with "Terminal too small" in the error style,
         * as much of it as fits; the header is gone */
        bool small = false;
        for (int rr = 0; rr < g.rows; rr++)
            small = small || (sbx_grid_cat(&g, rr, 0)->text[0] == 'T' &&
                              sbx_grid_cat(&g, rr, 0)->style == SBX_STYLE_ERROR);
        small = small && !row_has(&g, 0, "sbxview");
        if (small != (bool)sizes[i][2])
            fail_msg("%dx%d: too small shown %d, want %d", sizes[i][0], sizes[i][1], small, sizes[i][2]);
    }
    /* and back: the view is there again, the selection in sight */
    apptest_keys(&a, "<Resize:80x24>");
    apptest_draw(&a, &g);
    assert_false(screen_has(&g, "too small"));
    assert_true(row_has(&g, 0, " sbxview"));
    assert_int_equal(apptest_keys(&a, "q") & SBX_APP_QUIT, 0);
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_selection_shown(&a, &g);
    /* q still quits while too small */
    apptest_keys(&a, "<Resize:20x5>");
    assert_int_equal(apptest_keys(&a, "q") & SBX_APP_QUIT, SBX_APP_QUIT);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void prompt_survives_resize(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "/fl");
    apptest_keys(&a, "<Resize:20x5>");
    apptest_draw(&a, &g);
    assert_screen_has(&g, "Terminal too small");
    apptest_keys(&a, "<Resize:50x12>");
    assert_int_equal(a.prompt, '/');
    apptest_draw(&a, &g);
    assert_status_has(&g, "/fl");
    apptest_keys(&a, "<Resize:100x30>oat\n");
    assert_string_equal(a.search_text, "float");
    assert_selected(&a, r, nth_where(r, has_float, 0));
    /* the filter prompt too, and with a detail open behind it */
    apptest_keys(&a, "&fail<Resize:60x15>ed\n");
    assert_string_equal(a.filter_text, "failed");
    apptest_keys(&a, "\n/line<Resize:45x11>");
    apptest_draw(&a, &g);
    assert_status_has(&g, "/line");
    assert_int_equal(a.view, SBX_VIEW_DETAIL);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* Text from the log reaches the screen inert, in the escape style, in the
 * timeline, the detail and the raw line; so does a message quoting it. */
static void hostile_text_inert(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    apptest_keys(&a, "G");
    while (index_of(r, selected(&a)) > EV_HOSTILE)
        apptest_keys(&a, "k");
    apptest_draw(&a, &g); /* apptest_draw() checks every cell */
    int row = 1 + (int)(a.cur - a.top);
    assert_true(row_has(&g, row, "printf ok # <U+202E>evil<U+202C>"));
    char *text = apptest_row(&g, row);
    int c0 = (int)(strstr(text, "<U+202E>") - text);
    free(text);
    apptest_keys(&a, "k"); /* off the row, so its own styles show */
    apptest_draw(&a, &g);
    for (int c = c0; c < c0 + 8; c++)
        assert_int_equal(sbx_grid_cat(&g, row, c)->style, SBX_STYLE_ESCAPE);
    /* the rest of the row in the style of its finding: hidden text */
    assert_int_equal(sbx_grid_cat(&g, row, c0 + 8)->style, SBX_STYLE_HIDDEN);
    apptest_keys(&a, "j\n");
    apptest_draw(&a, &g);
    assert_screen_has(&g, "⟨ESC]52;c;ZXZpbA==⟩⟨ESC]0;pwned⟩⟨ESC[2J⟩⟨ESC[H⟩All tests passed^M");
    apptest_keys(&a, "o");
    apptest_draw(&a, &g);
    assert_screen_has(&g, "\\u001b]52"); /* the raw line shows the JSON escapes as written */
    /* a message that quotes the log */
    sbx_app_message(&a, true, "line 3: not JSON: \x1b]0;pwned\x07\x9b");
    apptest_draw(&a, &g);
    assert_status_has(&g, "⟨ESC]0;pwned⟩\\x9B");
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* Resizing a document view rewraps it and keeps the place in range. */
static void resize_docs(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24, false);
    for (int i = 0; i < EV_LONG; i++)
        apptest_keys(&a, "j");
    apptest_keys(&a, "\nG");
    size_t rows80 = a.doc.nrows;
    apptest_keys(&a, "<Resize:40x10>");
    assert_true(a.doc.nrows >= rows80);
    assert_true(a.doc_top + (size_t)body(&a) <= a.doc.nrows);
    apptest_draw(&a, &g);
    apptest_keys(&a, "<Resize:200x100>");
    assert_true(a.doc_top + (size_t)body(&a) <= a.doc.nrows || a.doc_top == 0);
    apptest_draw(&a, &g);
    apptest_keys(&a, "q<Resize:80x10>");
    assert_selection_shown(&a, &g);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* A terminal that is not UTF-8 gets ASCII only, in every view: the help's
 * "⟨ESC...⟩" and a hash mismatch's "the record says sha256 …" too. */
static void ascii_terminal(void **state)
{
    struct run *r = *state;
    static const char *const scripts[] = {"", "f", "jjjjjjj\n", "jjjjjjj\no", "s", "?", "?G",
                                          "/float\n", "&zzqq\n", "Gkk\n"};
    struct sbx_grid g;
    sbx_grid_init(&g, true);
    int bad = 0;
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        struct sbx_app a;
        start(&a, r, 80, 24, true);
        apptest_keys(&a, scripts[i]);
        sbx_app_draw(&a, &g);
        int row, col;
        const char *why = cc_grid(&g, &row, &col);
        if (why) {
            char *s = apptest_row(&g, row);
            print_error("after \"%s\": row %d col %d: %s: [%s]\n", scripts[i], row, col, why, s);
            free(s);
            bad++;
        }
        sbx_app_free(&a);
    }
    sbx_grid_free(&g);
    assert_int_equal(bad, 0);
}

/* Random keys at random sizes: the app never loses its place and every
 * screen it draws is sane. */
static void random_keys(void **state)
{
    struct run *r = *state;
    static const char *const pieces[] = {
        "j", "k", " ", "b", "<C-d>", "<C-u>", "g", "G", "\n", "o", "s", "?", "q", "\\e", "n",
        "N", "f", "]", "[", "ma", "'a", "mb", "'b", "<Down>", "<Up>", "<PgDn>", "<F1>",
        "/float\n", "/fl", "\\\\o\n", "&failed\n", "&<C-u>\n", "&sandbox:s2\n", "&(", "<BS>",
        "x", "\xe4\xb8\xad", "<WheelDown>", "<WheelUp>", "<Resize:20x5>", "<Resize:80x24>",
        "<Resize:40x10>", "<Resize:1x1>", "<Resize:133x7>", "<Resize:41x50>", "<Home>", "<End>",
    };
    uint64_t x = 0x9e3779b97f4a7c15u;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    struct sbx_app a;
    start(&a, r, 80, 24, false);
    for (int iter = 0; iter < 20000; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const char *p = pieces[x % (sizeof pieces / sizeof pieces[0])];
        if (apptest_keys(&a, p) & SBX_APP_QUIT) {
            sbx_app_free(&a);
            start(&a, r, 80, 24, false);
            continue;
        }
        size_t n = count(&a);
        if (n) {
            assert_true(a.cur < n);
            if (a.rows > 2)
                assert_true(a.top <= a.cur && a.cur < a.top + (size_t)body(&a));
        }
        if (a.view != SBX_VIEW_TIMELINE)
            assert_true(a.doc_top == 0 || a.doc_top + (size_t)body(&a) <= a.doc.nrows);
        if (iter % 7 == 0)
            apptest_draw(&a, &g);
    }
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_fixture),
        cmocka_unit_test(first_screen),
        cmocka_unit_test(moving),
        cmocka_unit_test(paging),
        cmocka_unit_test(filter),
        cmocka_unit_test(filter_matching_nothing),
        cmocka_unit_test(empty_search_direction),
        cmocka_unit_test(findings_mode),
        cmocka_unit_test(search),
        cmocka_unit_test(marks),
        cmocka_unit_test(detail),
        cmocka_unit_test(summary),
        cmocka_unit_test(help),
        cmocka_unit_test(help_marks_by_weight),
        cmocka_unit_test(too_small),
        cmocka_unit_test(prompt_survives_resize),
        cmocka_unit_test(resize_docs),
        cmocka_unit_test(hostile_text_inert),
        cmocka_unit_test(ascii_terminal),
        cmocka_unit_test(random_keys),
        cmocka_unit_test(progress_before_the_message),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
