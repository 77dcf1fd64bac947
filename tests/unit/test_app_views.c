/* Tests for the files view (Tab, F2) and the network view (F3) of app/app,
 * driven with keys over a run made here (a wrapper log, a proxy log and a
 * diff): the tree with system roots first in the system style, folding,
 * a file's changes, the commands before it and its diff in colour; hosts
 * refused first, Enter to a host's events as a filter that clears; moving,
 * paging, mouse clicks, Tab round the views, q back; resizing down to the
 * smallest screen; hostile paths shown inert; empty runs saying what would
 * fill them; new data keeping the place; a proxy request's detail naming
 * the command that was running. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "importers/mdiff.h"
#include "analyses/summary.h"
#include "tests/unit/apptest.h"
#include "tests/unit/cellcheck.h"
#include "app/app.h"
#include "app/keys.h"
#include "app/app_internal.h" /* sbx_app_event: the detail's event */

static const char WRAPPER[] =
    "{\"at\": \"2026-11-29T10:00:02Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": "
    "\"pip install requests\", \"exit\": 0, \"ms\": 2000, \"stdout\": \"Downloading "
    "https://files.pythonhosted.org/r.whl\\n\", \"stderr\": \"\"}\n"
    "{\"at\": \"2026-11-29T10:00:04Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": "
    "\"curl https://paste.example.com/x\", \"exit\": 6, \"ms\": 1000, \"stdout\": \"\", "
    "\"stderr\": \"curl: (6) Could not resolve host: paste.example.com\\n\"}\n"
    "{\"at\": \"2026-11-29T10:00:05Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": "
    "\"python3 fix.py\", \"exit\": 0, \"ms\": 500}\n"
    "{\"at\": \"2026-11-29T10:00:05.500Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": "
    "\"git clone https://github.com/x/y\", \"exit\": 0, \"ms\": 100}\n"
    "{\"at\": \"2026-11-29T10:00:06Z\", \"sandbox\": \"s1\", \"kind\": \"files\", "
    "\"added\": [\"./notes.txt\", \"./evil\\u001b]0;pwned\\u0007.txt\"], \"removed\": [], "
    "\"changed\": [\"./src/app.py\"]}\n"
    "{\"at\": \"2026-11-29T10:00:07Z\", \"sandbox\": \"s1\", \"kind\": \"files\", \"root\": \"/etc\", "
    "\"added\": [], \"removed\": [], \"changed\": [\"./hosts\"]}\n";

/* 2026-11-29T10:00:00Z is 1795946400 */
static const char PROXY[] =
    "1795946400.600    100 10.0.0.7 TCP_MISS/200 1210 GET http://pypi.org/simple/requests/ - HIER_DIRECT/1.1.1.1 text/html\n"
    "1795946403.200      0 10.0.0.7 TCP_DENIED/403 3490 CONNECT paste.example.com:443 - HIER_NONE/- text/html\n";

static const char DIFF[] =
    "diff --git a/src/app.py b/src/app.py\n"
    "--- a/src/app.py\n"
    "+++ b/src/app.py\n"
    "@@ -1,2 +1,2 @@\n"
    "-print('a')\n"
    "+print('b')\n"
    " done()\n";

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

static void add(struct sbx_timeline *tl, const struct sbx_format *fmt, const char *name, const char *s)
{
    size_t n = strlen(s);
    char *copy = malloc(n + 1);
    memcpy(copy, s, n + 1);
    uint32_t src = sbx_timeline_add_source(tl, name, copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(tl, src, fmt, &lo);
}

static struct run *make_run(bool proxy, bool files)
{
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    if (files) {
        add(&r->tl, &sbx_format_recorder, "agent-run.jsonl", WRAPPER);
        add(&r->tl, &sbx_format_diff, "changes.patch", DIFF);
    } else {
        add(&r->tl, &sbx_format_recorder, "agent-run.jsonl",
            "{\"at\": \"2026-11-29T10:00:05Z\", \"sandbox\": \"s1\", \"kind\": \"command\", "
            "\"command\": \"ls\", \"exit\": 0}\n");
    }
    if (proxy)
        add(&r->tl, &sbx_format_squid, "access.log", PROXY);
    sbx_mdiff_link(&r->tl);
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (!sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err))
        fail_msg("summary: %s", err);
    return r;
}

static void drop_run(struct run *r)
{
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
}

static int setup(void **state)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        return -1;
    *state = make_run(true, true);
    return 0;
}

static int teardown(void **state)
{
    drop_run(*state);
    return 0;
}

static void start(struct sbx_app *a, struct run *r, int cols, int rows)
{
    struct sbx_app_opts o = {.threads = 1};
    sbx_app_init(a, &o, cols, rows);
    sbx_app_set_data(a, &r->tl, &r->sum, false);
}

/* The first row holding text, or -1. */
static int row_with(const struct sbx_grid *g, const char *text)
{
    for (int r = 0; r < g->rows; r++) {
        char *s = apptest_row(g, r);
        bool yes = strstr(s, text) != NULL;
        free(s);
        if (yes)
            return r;
    }
    return -1;
}

#define assert_screen_has(g, text)                                                            \
    do {                                                                                      \
        if (row_with((g), (text)) < 0)                                                        \
            fail_msg("no \"%s\" on the screen", (text));                                      \
    } while (0)

/* The style of the cell where text starts on the screen. */
static int style_at(const struct sbx_grid *g, const char *text)
{
    int r = row_with(g, text);
    if (r < 0)
        fail_msg("no \"%s\" on the screen", text);
    char *s = apptest_row(g, r);
    size_t off = (size_t)(strstr(s, text) - s), bytes = 0;
    free(s);
    for (int c = 0; c < g->cols; c++) {
        if (bytes >= off)
            return sbx_grid_cat(g, r, c)->style;
        bytes += sbx_grid_cat(g, r, c)->len;
    }
    return -1;
}

#define assert_doc_has(a, text)                                                               \
    do {                                                                                      \
        if (!apptest_doc_has((a), (text))) {                                                  \
            char *d_ = apptest_doc_text(&(a)->doc);                                           \
            fail_msg("no \"%s\" in the doc:\n%s", (text), d_);                                \
        }                                                                                     \
    } while (0)

static const char *selected_path(const struct sbx_app *a)
{
    return a->tree.nodes[a->frows[a->fcur]].path;
}

/* ---- the files view ---- */

static void files_tree(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24);
    apptest_keys(&a, "<F2>");
    assert_int_equal(a.view, SBX_VIEW_FILES);
    apptest_draw(&a, &g);
    /* /etc first, in the system style; then the workspace */
    assert_int_equal(row_with(&g, "/etc"), 1);
    assert_int_equal(style_at(&g, "/etc"), SBX_STYLE_CURSOR); /* selected */
    assert_int_equal(row_with(&g, "C hosts"), 2);
    assert_int_equal(style_at(&g, "hosts"), SBX_STYLE_SYSTEM);
    assert_int_equal(row_with(&g, "workspace"), 3);
    assert_true(row_with(&g, "A notes.txt") > 3);
    assert_true(row_with(&g, "src/") > 3);
    assert_true(row_with(&g, "C app.py") > row_with(&g, "src/"));
    assert_int_equal(style_at(&g, "A notes.txt"), SBX_STYLE_DIFF_ADD);
    assert_screen_has(&g, "2 added, 1 changed");
    assert_true(row_with(&g, "files") == 0);
    assert_screen_has(&g, "1/");
    /* a path from the log is shown inert */
    assert_screen_has(&g, "evil\xe2\x9f\xa8" "ESC]0;pwned");
    /* G, g, j, k */
    size_t n = a.nfrows;
    assert_int_equal(n, 7); /* /etc hosts workspace evil notes.txt src app.py */
    apptest_keys(&a, "G");
    assert_int_equal(a.fcur, n - 1);
    assert_string_equal(selected_path(&a), "src/app.py");
    apptest_keys(&a, "gjj");
    assert_int_equal(a.fcur, 2);
    apptest_keys(&a, "k");
    assert_string_equal(selected_path(&a), "/etc/hosts");
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void folding(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24);
    apptest_keys(&a, "<F2>");
    size_t all = a.nfrows;
    apptest_keys(&a, "\n"); /* /etc is a folder: Enter folds it */
    assert_int_equal(a.view, SBX_VIEW_FILES);
    assert_int_equal(a.nfrows, all - 1);
    apptest_draw(&a, &g);
    assert_int_equal(row_with(&g, "hosts"), -1);
    assert_screen_has(&g, "1 changed"); /* a folded folder says what it holds */
    apptest_keys(&a, "\n");
    assert_int_equal(a.nfrows, all);
    /* Left on a file goes up to its folder; Left there folds it; Right unfolds */
    apptest_keys(&a, "G");
    apptest_keys(&a, "<Left>");
    assert_string_equal(selected_path(&a), "src");
    apptest_keys(&a, "h");
    assert_int_equal(a.nfrows, all - 1);
    apptest_keys(&a, "l");
    assert_int_equal(a.nfrows, all);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void one_file(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 40);
    apptest_keys(&a, "<F2>G\n");
    assert_int_equal(a.view, SBX_VIEW_FILE);
    assert_doc_has(&a, "src/app.py");
    assert_doc_has(&a, "changed");
    /* the commands before it name no write target of it */
    assert_doc_has(&a, "Written by");
    assert_doc_has(&a, "No command names this path.");
    assert_doc_has(&a, "Diff: 1 hunk, +1 -1");
    apptest_draw(&a, &g);
    assert_int_equal(style_at(&g, "+print('b')"), SBX_STYLE_DIFF_ADD);
    assert_int_equal(style_at(&g, "-print('a')"), SBX_STYLE_DIFF_DEL);
    assert_int_equal(style_at(&g, "@@ -1,2 +1,2 @@"), SBX_STYLE_DIFF_HUNK);
    /* q: back to the tree, on the same file; q again: the timeline */
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_FILES);
    assert_string_equal(selected_path(&a), "src/app.py");
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    /* a file no diff names says how to get one */
    apptest_keys(&a, "<F2>g");
    while (strcmp(selected_path(&a), "notes.txt") != 0)
        apptest_keys(&a, "j");
    apptest_keys(&a, "\n");
    assert_doc_has(&a, "does not name this file");
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* ---- the network view ---- */

static void network_hosts(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 120, 30);
    apptest_keys(&a, "<F3>");
    assert_int_equal(a.view, SBX_VIEW_NETWORK);
    apptest_draw(&a, &g);
    /* the column titles, then the refused host first */
    assert_int_equal(row_with(&g, "state"), 1);
    assert_int_equal(row_with(&g, "paste.example.com"), 2);
    assert_int_equal(style_at(&g, "refused  paste"), SBX_STYLE_CURSOR);
    apptest_keys(&a, "j");
    apptest_draw(&a, &g);
    assert_int_equal(style_at(&g, "refused  paste"), SBX_STYLE_REFUSED);
    int pypi = row_with(&g, "pypi.org");
    assert_true(pypi > 2);
    char *row = apptest_row(&g, pypi);
    assert_non_null(strstr(row, "allowed"));
    assert_non_null(strstr(row, "1.2 KiB")); /* base/numfmt.h's units, as the summary's */
    assert_non_null(strstr(row, "10:00:00"));
    assert_non_null(strstr(row, "pip install requests")); /* ran while the request was made */
    free(row);
    /* a host only a command names: no requests, that command */
    int gh = row_with(&g, "github.com");
    assert_true(gh > pypi);
    row = apptest_row(&g, gh);
    assert_non_null(strstr(row, "named"));
    assert_non_null(strstr(row, "git clone https://github.com/x/y"));
    free(row);
    assert_screen_has(&g, "1 refused");
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void host_to_timeline(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24);
    apptest_keys(&a, "<F3>\n");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_string_equal(a.filter_text, "host:paste.example.com");
    /* the curl that named it, and the proxy's denial */
    assert_int_equal(a.nvis, 2);
    assert_non_null(strstr(a.msg, "& then Enter clears"));
    apptest_draw(&a, &g);
    assert_screen_has(&g, "curl https://paste.example.com/x");
    assert_screen_has(&g, "DENIED CONNECT paste.example.com:443");
    apptest_keys(&a, "&\n");
    assert_null(a.filter_text);
    assert_int_equal(a.nvis, 0);
    assert_null(a.vis);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void request_detail_names_the_command(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r, 100, 40);
    apptest_keys(&a, "/simple/requests\n\n");
    assert_int_equal(a.view, SBX_VIEW_DETAIL);
    assert_doc_has(&a, "Request      GET http://pypi.org/simple/requests/");
    assert_doc_has(&a, "During       $ pip install requests");
    assert_doc_has(&a, "Sandbox      not named (a proxy's log does not say)");
    assert_doc_has(&a, "The line as logged (o: the line alone)");
    assert_false(apptest_doc_has(&a, "JSON")); /* a Squid line is text */
    assert_false(apptest_doc_has(&a, "Sandbox      ?"));
    apptest_keys(&a, "q/paste.example.com:443\n\n");
    assert_doc_has(&a, "DENIED by the proxy's rules");
    assert_doc_has(&a, "During       $ curl https://paste.example.com/x");
    assert_doc_has(&a, "Sandbox      not named (a proxy's log does not say)");
    assert_false(apptest_doc_has(&a, "JSON"));
    /* a command's detail names its sandbox as ever */
    apptest_keys(&a, "q/python3 fix\n\n");
    assert_doc_has(&a, "Sandbox      s1");
    sbx_app_free(&a);
}

/* ---- both ---- */

static void tab_round_and_back(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r, 80, 24);
    apptest_keys(&a, "<Tab>");
    assert_int_equal(a.view, SBX_VIEW_FILES);
    apptest_keys(&a, "<Tab>");
    assert_int_equal(a.view, SBX_VIEW_NETWORK);
    apptest_keys(&a, "<Tab>");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    apptest_keys(&a, "<F3><F2>");
    assert_int_equal(a.view, SBX_VIEW_FILES);
    /* help and back returns to the files view; q from there to the timeline */
    apptest_keys(&a, "?");
    assert_int_equal(a.view, SBX_VIEW_HELP);
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_FILES);
    assert_int_equal(apptest_keys(&a, "q"), 0);
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    apptest_keys(&a, "<F3>\e");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    /* the summary from a list, and s works there */
    apptest_keys(&a, "<F2>s");
    assert_int_equal(a.view, SBX_VIEW_SUMMARY);
    sbx_app_free(&a);
}

static void mouse_and_pages(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r, 80, 10);
    apptest_keys(&a, "<F2>");
    /* body rows 1..8 show rows top..top+7 */
    sbx_app_key(&a, SBX_KEY_CLICK, 3, 5);
    assert_int_equal(a.fcur, 2);
    sbx_app_key(&a, SBX_KEY_CLICK, 9, 5); /* the status line */
    assert_int_equal(a.fcur, 2);
    apptest_keys(&a, "<PgDn>");
    assert_int_equal(a.fcur, a.nfrows - 1);
    apptest_keys(&a, "<PgUp>");
    assert_int_equal(a.fcur, 0);
    sbx_app_key(&a, SBX_KEY_WHEEL_DOWN, 3, 5);
    assert_true(a.ftop <= a.fcur);
    apptest_keys(&a, "g");
    /* a double click on a file opens it */
    size_t row = 0;
    while (strcmp(a.tree.nodes[a.frows[row]].path, "notes.txt") != 0)
        row++;
    sbx_app_key(&a, SBX_KEY_DOUBLE_CLICK, 1 + (int)(row - a.ftop), 5);
    assert_int_equal(a.view, SBX_VIEW_FILE);
    apptest_keys(&a, "q<F3>");
    /* the network view: row 1 holds the titles; row 3 is the second host */
    sbx_app_key(&a, SBX_KEY_CLICK, 1, 5);
    assert_int_equal(a.ncur, 0);
    sbx_app_key(&a, SBX_KEY_CLICK, 3, 5);
    assert_int_equal(a.ncur, 1);
    sbx_app_key(&a, SBX_KEY_DOUBLE_CLICK, 2, 5);
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_string_equal(a.filter_text, "host:paste.example.com");
    sbx_app_free(&a);
}

static void sizes(void **state)
{
    struct run *r = *state;
    static const int dims[][2] = {{80, 24}, {40, 10}, {39, 10}, {40, 9}, {20, 5}, {300, 100},
                                  {41, 11}, {60, 12}, {75, 20}, {100, 30}};
    static const char *const views[] = {"<F2>", "<F3>", "<F2>G\n", "<F2>G"};
    for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
        struct sbx_app a;
        struct sbx_grid g;
        sbx_grid_init(&g, false);
        start(&a, r, 80, 24);
        apptest_keys(&a, views[v]);
        enum sbx_view view = a.view;
        for (size_t k = 0; k < sizeof dims / sizeof *dims; k++) {
            sbx_app_resize(&a, dims[k][0], dims[k][1]);
            apptest_draw(&a, &g);
            bool small = dims[k][0] < 40 || dims[k][1] < 10;
            assert_int_equal(row_with(&g, "too small") >= 0, small);
            assert_int_equal(a.view, view);
            if (view == SBX_VIEW_FILES && !small) /* the selection stays in sight */
                assert_true(a.fcur >= a.ftop && a.fcur < a.ftop + (size_t)(dims[k][1] - 2));
            if (view == SBX_VIEW_NETWORK && !small)
                assert_true(a.ncur >= a.ntop && a.ncur < a.ntop + (size_t)(dims[k][1] - 3));
            apptest_keys(&a, "jGk");
            apptest_draw(&a, &g);
        }
        sbx_app_free(&a);
        sbx_grid_free(&g);
    }
}

static void ascii_terminal(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, true);
    struct sbx_app_opts o = {.threads = 1, .ascii = true};
    sbx_app_init(&a, &o, 80, 24);
    sbx_app_set_data(&a, &r->tl, &r->sum, false);
    apptest_keys(&a, "<F2>");
    apptest_draw(&a, &g);
    for (int row = 0; row < g.rows; row++)
        for (int c = 0; c < g.cols; c++)
            assert_true((unsigned char)sbx_grid_cat(&g, row, c)->text[0] < 0x80);
    assert_screen_has(&g, "-   /etc");
    apptest_keys(&a, "<F3>");
    apptest_draw(&a, &g);
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

static void empty_states(void **state)
{
    (void)state;
    struct run *r = make_run(false, false);
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    start(&a, r, 80, 24);
    apptest_keys(&a, "<F2>");
    apptest_draw(&a, &g);
    assert_screen_has(&g, "No file changes recorded.");
    assert_screen_has(&g, "manifests");
    apptest_keys(&a, "jG\n<Left>");
    assert_int_equal(a.view, SBX_VIEW_FILES);
    apptest_keys(&a, "<F3>");
    apptest_draw(&a, &g);
    assert_screen_has(&g, "No network activity recorded.");
    apptest_keys(&a, "jG\n");
    assert_int_equal(a.view, SBX_VIEW_NETWORK);
    sbx_app_free(&a);
    /* nothing loaded at all */
    struct sbx_app_opts o = {.threads = 1};
    sbx_app_init(&a, &o, 80, 24);
    apptest_keys(&a, "<F2><F3><Tab>");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    apptest_draw(&a, &g);
    sbx_app_free(&a);
    sbx_grid_free(&g);
    drop_run(r);
}

/* New data (a followed log, the full load after a preview): the lists are
 * made again and the selection stays on the same path and host. */
static void new_data_keeps_the_place(void **state)
{
    struct run *r = *state;
    struct run *again = make_run(true, true);
    struct sbx_app a;
    start(&a, r, 80, 24);
    apptest_keys(&a, "<F3>j");
    char *host = sbx_xstrndup(a.net.hosts[1].host, strlen(a.net.hosts[1].host));
    apptest_keys(&a, "<F2>");
    while (strcmp(selected_path(&a), "notes.txt") != 0)
        apptest_keys(&a, "j");
    sbx_app_set_data(&a, &again->tl, &again->sum, false);
    assert_int_equal(a.view, SBX_VIEW_FILES);
    assert_string_equal(selected_path(&a), "notes.txt");
    apptest_keys(&a, "\n");
    assert_int_equal(a.view, SBX_VIEW_FILE);
    sbx_app_set_data(&a, &r->tl, &r->sum, false);
    assert_int_equal(a.view, SBX_VIEW_FILE);
    assert_string_equal(a.tree.nodes[a.fnode].path, "notes.txt");
    apptest_keys(&a, "q<F3>");
    assert_string_equal(a.net.hosts[a.ncur].host, host);
    free(host);
    sbx_app_free(&a);
    drop_run(again);
}

/* Random keys at random sizes over every view: the lists never lose their
 * place and every screen drawn is sane. */
static void random_keys(void **state)
{
    struct run *r = *state;
    static const char *const pieces[] = {
        "j", "k", " ", "b", "<C-d>", "<C-u>", "g", "G", "\n", "s", "?", "q", "\\e", "<F2>",
        "<F3>", "<Tab>", "<Left>", "<Right>", "h", "l", "<PgDn>", "<PgUp>", "<WheelDown>",
        "<WheelUp>", "&failed\n", "&<C-u>\n", "<Resize:20x5>", "<Resize:80x24>", "<Resize:40x10>",
        "<Resize:1x1>", "<Resize:133x7>", "<Resize:41x50>", "<Home>", "<End>", "o", "f",
    };
    uint64_t x = 0x2545f4914f6cdd1du;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    struct sbx_app a;
    start(&a, r, 80, 24);
    for (int iter = 0; iter < 20000; iter++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        unsigned flags;
        if (x % 11 == 0)
            flags = sbx_app_key(&a, x % 3 ? SBX_KEY_CLICK : SBX_KEY_DOUBLE_CLICK, (int)(x >> 8) % 30, 3);
        else
            flags = apptest_keys(&a, pieces[(x >> 4) % (sizeof pieces / sizeof pieces[0])]);
        if (flags & SBX_APP_QUIT) {
            sbx_app_free(&a);
            start(&a, r, 80, 24);
            continue;
        }
        if (a.have_tree) {
            assert_true(a.fcur < a.nfrows || !a.nfrows);
            assert_true(a.ftop <= a.fcur);
        }
        if (a.have_net)
            assert_true(a.ncur < a.net.n || !a.net.n);
        if (a.rows > 3 && a.view == SBX_VIEW_FILES)
            assert_true(a.fcur < a.ftop + (size_t)(a.rows - 2));
        if (a.rows > 3 && a.view == SBX_VIEW_NETWORK)
            assert_true(a.ncur < a.ntop + (size_t)(a.rows - 3));
        if (a.view == SBX_VIEW_FILE)
            assert_true(a.fnode < a.tree.n && a.tree.nodes[a.fnode].changed);
        if (iter % 5 == 0)
            apptest_draw(&a, &g);
    }
    sbx_app_free(&a);
    sbx_grid_free(&g);
}

/* The story view: S from anywhere, Enter on a line opens its event, the
 * detail follows a link (L) and comes back (Backspace), q returns to the
 * story. On the bundled story-run. */
static void story_walk(void **state)
{
    (void)state;
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    const char *paths[] = {"tests/fixtures/story-run"};
    struct sbx_load_opts lo = {.threads = 1};
    struct sbx_load_report rep = {0};
    assert_true(sbx_load_paths(&r->tl, paths, 1, &lo, &rep) > 0);
    sbx_load_report_free(&rep);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err));
    struct sbx_app a;
    start(&a, r, 100, 40);
    apptest_keys(&a, "<F2>S"); /* from another view */
    assert_int_equal(a.view, SBX_VIEW_STORY);
    assert_doc_has(&a, "widened by: allow list: + paste.example.com");
    assert_doc_has(&a, "same key: key_ci_9Lm ran python3 in a gap of the wrapper's log");
    /* line 3 is the change (0 the verdict, 1 the refusal, 2 its link) */
    apptest_keys(&a, "jjj\n");
    assert_int_equal(a.view, SBX_VIEW_DETAIL);
    const struct sbx_event *change = sbx_app_event(&a, a.cur);
    assert_int_equal(change->kind, SBX_EV_AUDIT);
    assert_doc_has(&a, "allow list: + paste.example.com");
    assert_doc_has(&a, "> refused before");
    /* the second link: the curl that reached the host afterwards */
    apptest_keys(&a, "}L");
    const struct sbx_event *reached = sbx_app_event(&a, a.cur);
    assert_int_equal(reached->kind, SBX_EV_COMMAND);
    assert_int_equal(sbx_cmd_exit(&reached->u.cmd), 0);
    assert_doc_has(&a, "widened before: the allow list gained paste.example.com");
    apptest_keys(&a, "<BS>");
    assert_ptr_equal(sbx_app_event(&a, a.cur), change);
    assert_doc_has(&a, "> reached after the allow list was widened"); /* the link it left by */
    apptest_keys(&a, "`"); /* nothing left to come back to */
    assert_ptr_equal(sbx_app_event(&a, a.cur), change);
    apptest_keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_STORY);
    sbx_app_free(&a);
    drop_run(r);
}

/* Every risky finding's reason (which rule fired, on which words) is in
 * its event's detail, beside the Findings line: each kind of the bundled
 * risky-run, commands, a proxy request and a diff alike; an event with no
 * risky finding shows none. */
static void risky_reasons_in_the_detail(void **state)
{
    (void)state;
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    const char *paths[] = {"tests/fixtures/risky-run"};
    struct sbx_load_opts lo = {.threads = 1};
    struct sbx_load_report rep = {0};
    assert_true(sbx_load_paths(&r->tl, paths, 1, &lo, &rep) > 0);
    sbx_load_report_free(&rep);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err));
    assert_true(r->sum.nrisky >= 8);
    uint32_t kinds = 0;
    struct sbx_rows_look l;
    sbx_rows_look_init(&l, &r->tl, &r->sum, false);
    for (size_t i = 0; i < r->sum.nrisky; i++) {
        const struct sbx_risky_found *f = &r->sum.risky[i];
        struct sbx_doc d;
        sbx_doc_init(&d, 400, false);
        sbx_detail_doc(&d, &l, f->event, false);
        char *text = apptest_doc_text(&d);
        struct sbx_buf want = SBX_BUF_INIT;
        sbx_buf_addf(&want, "%s: %s", sbx_finding_of(f->kind)->words, f->why);
        if (!strstr(text, want.p))
            fail_msg("the detail of a %s lacks [%s]:\n%s", sbx_finding_of(f->kind)->name, want.p, text);
        kinds |= f->kind;
        sbx_buf_free(&want);
        free(text);
        sbx_doc_free(&d);
    }
    assert_int_equal(__builtin_popcount(kinds), 8); /* every kind was looked at */
    /* a command without a risky finding: no reason line */
    for (size_t i = 0; i < r->tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&r->tl, i);
        if (e->kind != SBX_EV_COMMAND || e->findings)
            continue;
        struct sbx_doc d;
        sbx_doc_init(&d, 400, false);
        sbx_detail_doc(&d, &l, e, false);
        char *text = apptest_doc_text(&d);
        for (size_t k = 0; k < r->sum.nrisky; k++)
            assert_null(strstr(text, r->sum.risky[k].why));
        free(text);
        sbx_doc_free(&d);
        break;
    }
    sbx_rows_look_free(&l);
    drop_run(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(story_walk),
        cmocka_unit_test(risky_reasons_in_the_detail),
        cmocka_unit_test(files_tree),
        cmocka_unit_test(folding),
        cmocka_unit_test(one_file),
        cmocka_unit_test(network_hosts),
        cmocka_unit_test(host_to_timeline),
        cmocka_unit_test(request_detail_names_the_command),
        cmocka_unit_test(tab_round_and_back),
        cmocka_unit_test(mouse_and_pages),
        cmocka_unit_test(sizes),
        cmocka_unit_test(ascii_terminal),
        cmocka_unit_test(empty_states),
        cmocka_unit_test(new_data_keeps_the_place),
        cmocka_unit_test(random_keys),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
