/* The runs list and the compare view driven by keys, as --dump does: what
 * each key changes, and what the screen then shows. Runs made here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "analyses/runs_more.h"
#include "importers/runs.h"
#include "importers/runs_keys.h"
#include "base/buf.h"
#include "app/app_cmp.h"
#include "app/app_cmp_internal.h" /* the sides' summaries */
#include "app/app_runs.h"
#include "app/keys.h"
#include "tests/unit/shifted.h"
#include "tests/unit/cases.h"

/* A recorder log: `cmds` commands, the first `fails` failing; with refused
 * a curl to pastebin.com after them, with `other` a command named so. */
static char *run_log(int day, int cmds, int fails, bool refused, const char *other)
{
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < cmds; i++)
        sbx_buf_addf(&b,
                     "{\"at\": \"2026-11-%02dT09:00:%02d.000000+00:00\", \"sandbox\": \"s1\", "
                     "\"kind\": \"command\", \"command\": \"step %d\", \"cwd\": \"/w\", \"exit\": %d, "
                     "\"timed_out\": false, \"ms\": 10, \"stdout\": \"out %d\\nsame\\n\", \"stderr\": \"\"}\n",
                     day, i, i, i < fails ? 1 : 0, i < fails ? 100 + i : i);
    if (refused)
        sbx_buf_addf(&b,
                     "{\"at\": \"2026-11-%02dT09:01:00.000000+00:00\", \"sandbox\": \"s1\", "
                     "\"kind\": \"command\", \"command\": \"curl https://pastebin.com/x\", "
                     "\"cwd\": \"/w\", \"exit\": 7, \"timed_out\": false, \"ms\": 5, \"stdout\": \"\", "
                     "\"stderr\": \"curl: (7) Failed to connect to pastebin.com port 443 after 0 ms: "
                     "Connection refused\\n\"}\n",
                     day);
    if (other)
        sbx_buf_addf(&b,
                     "{\"at\": \"2026-11-%02dT09:02:00.000000+00:00\", \"sandbox\": \"s1\", "
                     "\"kind\": \"command\", \"command\": \"%s\", \"cwd\": \"/w\", \"exit\": 0, "
                     "\"timed_out\": false, \"ms\": 5, \"stdout\": \"\", \"stderr\": \"\"}\n",
                     day, other);
    return b.p;
}

struct fixture {
    char root[64];
    struct sbx_runs runs;
    struct sbx_runs_app app;
    struct sbx_grid g;
    struct sbx_buf screen;
};

static void add_run(struct fixture *f, const char *name, char *log)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", f->root, name);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/%s/agent-run.jsonl", f->root, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(log, fp);
    fclose(fp);
    free(log);
}

/* Runs: alpha (2 failed, refused), beta (0 failed, another command),
 * gamma (5 failed), delta (1 failed, refused). */
static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    snprintf(f->root, sizeof f->root, "/tmp/sbx-app-runs-XXXXXX");
    assert_non_null(mkdtemp(f->root));
    add_run(f, "alpha", run_log(1, 6, 2, true, NULL));
    add_run(f, "beta", run_log(2, 6, 0, false, "make test"));
    add_run(f, "gamma", run_log(3, 6, 5, false, NULL));
    add_run(f, "delta", run_log(4, 6, 1, true, NULL));
    assert_true(sbx_runs_discover(f->root, &f->runs));
    sbx_runs_fill_free(sbx_runs_fill_start(&f->runs, NULL, NULL, 2, false));
    struct sbx_app_opts opts = {.threads = 1};
    sbx_runs_app_init(&f->app, &opts, NULL, &f->runs, 80, 24);
    sbx_grid_init(&f->g, false);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    sbx_runs_app_free(&f->app);
    sbx_runs_free(&f->runs);
    sbx_grid_free(&f->g);
    sbx_buf_free(&f->screen);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->root);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

static unsigned press(struct fixture *f, const char *script)
{
    unsigned flags = 0;
    for (size_t i = 0, n = strlen(script); i < n;) {
        int key, c, r;
        size_t used = sbx_key_parse(script + i, n - i, &key, &c, &r);
        assert_true(used != SIZE_MAX && used != 0);
        i += used;
        flags |= sbx_runs_app_key(&f->app, key, 1, 0);
        sbx_runs_app_poll(&f->app);
    }
    return flags;
}

static const char *screen(struct fixture *f)
{
    sbx_runs_app_draw(&f->app, &f->g);
    sbx_buf_clear(&f->screen);
    sbx_grid_dump(&f->g, false, &f->screen);
    return f->screen.p;
}

static const char *name_at(struct fixture *f, size_t i)
{
    return f->runs.rows[f->app.order[i]].name;
}

static void sorts_by_keys(void **state)
{
    struct fixture *f = *state;
    assert_int_equal(f->app.norder, 4);
    assert_string_equal(name_at(f, 0), "alpha"); /* by name at first */
    assert_string_equal(name_at(f, 3), "gamma");
    press(f, ">>>>>");
    assert_int_equal(f->app.sort, SBX_RUN_FAILED);
    assert_non_null(strstr(screen(f), "sorted by failed, most first"));
    /* gamma 5, alpha 3 (2 and the curl), delta 2, beta 0 */
    const char *want[] = {"gamma", "alpha", "delta", "beta"};
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(name_at(f, i), want[i]);
    press(f, "r");
    assert_non_null(strstr(screen(f), "least first"));
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(name_at(f, i), want[3 - i]);
    press(f, "<");
    assert_int_equal(f->app.sort, SBX_RUN_COMMANDS);
    assert_false(f->app.reverse);
    /* < from the first column goes round to the last */
    press(f, "<<<<<");
    assert_int_equal(f->app.sort, SBX_RUN_NCOLS - 1);
}

static void filters_by_words(void **state)
{
    struct fixture *f = *state;
    press(f, "&refused\n");
    assert_int_equal(f->app.norder, 2);
    assert_string_equal(name_at(f, 0), "alpha");
    assert_string_equal(name_at(f, 1), "delta");
    assert_non_null(strstr(screen(f), "& refused"));
    press(f, "&<C-u>!failed\n");
    assert_int_equal(f->app.norder, 1);
    assert_string_equal(name_at(f, 0), "beta");
    press(f, "&<C-u>zzz\n");
    assert_int_equal(f->app.norder, 0);
    assert_non_null(strstr(screen(f), "No run matches"));
    press(f, "&<C-u>\n");
    assert_int_equal(f->app.norder, 4);
    assert_null(f->app.filter);
    /* the prompt starts empty, as the timeline's: typing replaces the filter */
    press(f, "&refused\n&");
    assert_int_equal(f->app.input.len, 0);
    press(f, "!failed\n");
    assert_string_equal(f->app.filter, "!failed");
    assert_int_equal(f->app.norder, 1);
    assert_string_equal(name_at(f, 0), "beta");
    press(f, "&\n"); /* & then Enter clears it */
    assert_null(f->app.filter);
    assert_int_equal(f->app.norder, 4);
}

static void marks_and_compare(void **state)
{
    struct fixture *f = *state;
    press(f, "c");
    assert_true(f->app.msg_error); /* nothing marked yet */
    assert_null(f->app.cmp);
    press(f, "m"); /* alpha is A; the selection moves on to beta */
    assert_int_equal(f->app.marks[0], 0);
    press(f, "m"); /* beta is B */
    assert_int_equal(f->app.marks[1], 1);
    press(f, "kk"); /* Enter on a marked run compares */
    press(f, "\n");
    assert_int_equal(f->app.screen, SBX_RUNS_COMPARE);
    assert_non_null(f->app.cmp);
    const char *s = screen(f);
    assert_non_null(strstr(s, "A alpha"));
    assert_non_null(strstr(s, "B beta"));
    assert_non_null(strstr(s, "runs differ"));
    /* narrow: the selected pair A above B under the rows */
    assert_non_null(strstr(s, "\nA "));
    assert_non_null(strstr(s, "\nB "));
    /* wide: side by side */
    sbx_runs_app_resize(&f->app, 120, 30);
    s = screen(f);
    assert_non_null(strstr(s, "\xe2\x94\x82" "B beta"));
    press(f, "]");
    press(f, "\n");
    assert_true(sbx_cmpview_showing_diff(f->app.cmp));
    assert_non_null(strstr(screen(f), "stdout"));
    assert_int_equal(press(f, "q"), 0);
    assert_false(sbx_cmpview_showing_diff(f->app.cmp));
    assert_int_equal(press(f, "q"), 0); /* back to the list, not out */
    assert_int_equal(f->app.screen, SBX_RUNS_LIST);
    assert_null(f->app.cmp);
    /* a third mark: the oldest goes */
    press(f, "Gm");
    assert_int_equal(f->app.marks[0], 1);
    assert_int_equal(f->app.marks[1], 3);
    /* marking a marked run unmarks it, and B becomes A */
    press(f, "gjm");
    assert_int_equal(f->app.marks[0], 3);
    assert_int_equal(f->app.marks[1], -1);
}

static void compare_moves_by_differences(void **state)
{
    struct fixture *f = *state;
    char err[256];
    char a[160], b[160];
    snprintf(a, sizeof a, "%s/gamma", f->root);
    snprintf(b, sizeof b, "%s/beta", f->root);
    assert_true(sbx_runs_app_compare(&f->app, &(struct sbx_cmp_input){a, NULL, "gamma", NULL},
                                      &(struct sbx_cmp_input){b, NULL, "beta", NULL}, err, sizeof err));
    assert_int_equal(f->app.screen, SBX_RUNS_COMPARE);
    /* gamma's steps 0-4 failed and printed other output: changed pairs;
     * beta's make test only in B. The view opens on the first difference,
     * and ] [ visit each one, wrapping. */
    assert_non_null(strstr(screen(f), "5 changed"));
    assert_non_null(strstr(screen(f), "1 only in B"));
    assert_non_null(strstr(screen(f), "1/7"));
    int seen = 0;
    for (int i = 0; i < 6; i++) {
        press(f, "]");
        seen += strstr(screen(f), "7/7") != NULL; /* make test, the last row */
    }
    assert_int_equal(seen, 1);
    assert_non_null(strstr(screen(f), "1/7")); /* six jumps: round to the first */
    press(f, "[");
    assert_non_null(strstr(screen(f), "7/7"));
    /* the output diff of the first pair: A's line -, B's line + */
    press(f, "g\n");
    assert_non_null(strstr(screen(f), "- out 100"));
    assert_non_null(strstr(screen(f), "+ out 0"));
    assert_non_null(strstr(screen(f), "  same"));
    assert_int_equal(press(f, "q"), 0);
    assert_false(sbx_cmpview_showing_diff(f->app.cmp));
    assert_int_equal(press(f, "<Esc>"), 0);
    assert_int_equal(f->app.screen, SBX_RUNS_COMPARE);
    assert_int_equal(press(f, "q"), 0); /* back to the list */
    assert_int_equal(f->app.screen, SBX_RUNS_LIST);
    /* a run that cannot be read says so */
    snprintf(a, sizeof a, "%s/missing", f->root);
    assert_false(sbx_runs_app_compare(&f->app, &(struct sbx_cmp_input){a, NULL, "missing", NULL},
                                      &(struct sbx_cmp_input){b, NULL, "beta", NULL}, err, sizeof err));
    assert_non_null(strstr(err, "A (missing)"));
}

/* The keys that go to the ends, half a screen, and redraw work in every
 * screen of the runs list as in one run's views, except where the runs
 * list's own keys take them: there < and > sort. */
static void keys_alike_in_every_screen(void **state)
{
    struct fixture *f = *state;
    char err[256], a[160], b[160];
    /* the list: < and > sort, G and g go to the ends, Ctrl-L does nothing */
    press(f, ">");
    assert_int_equal(f->app.sort, SBX_RUN_NAME + 1);
    press(f, "<");
    assert_int_equal(f->app.sort, SBX_RUN_NAME);
    press(f, "G");
    assert_int_equal(f->app.cur, 3);
    press(f, "<C-u>");
    assert_int_equal(f->app.cur, 0); /* half of 21 rows: past the first of 4 */
    press(f, "<C-l>");
    assert_null(strstr(screen(f), "no key"));
    /* the compare view: < and > go to the first and last pair */
    snprintf(a, sizeof a, "%s/gamma", f->root);
    snprintf(b, sizeof b, "%s/beta", f->root);
    assert_true(sbx_runs_app_compare(&f->app, &(struct sbx_cmp_input){a, NULL, "gamma", NULL},
                                      &(struct sbx_cmp_input){b, NULL, "beta", NULL}, err, sizeof err));
    press(f, ">");
    assert_non_null(strstr(screen(f), "7/7"));
    press(f, "<");
    assert_non_null(strstr(screen(f), "1/7"));
    press(f, "<C-d>");
    assert_non_null(strstr(screen(f), "7/7")); /* half of 18 rows is past the last of 7 */
    press(f, "<C-l>");
    assert_null(strstr(screen(f), "no key"));
    /* a key that is not one says so in the compare view's own status line */
    press(f, "x");
    assert_non_null(strstr(screen(f), "x is no key here"));
    press(f, "m");
    assert_non_null(strstr(screen(f), "m does nothing here"));
    /* the output diff and the help: > to the end, < back to the top */
    f->app.rows = 10;
    press(f, "\n?");
    assert_int_equal(f->app.screen, SBX_RUNS_HELP);
    press(f, ">");
    assert_true(f->app.help_top > 0);
    press(f, "<");
    assert_int_equal(f->app.help_top, 0);
}

static void opens_a_run_and_comes_back(void **state)
{
    struct fixture *f = *state;
    press(f, "jj\n"); /* delta */
    assert_int_equal(f->app.screen, SBX_RUNS_RUN);
    assert_true(f->app.app_open);
    assert_non_null(f->app.app.tl);
    assert_int_equal(f->app.app.tl->n, 7);
    assert_int_equal(press(f, "q"), 0);
    assert_int_equal(f->app.screen, SBX_RUNS_LIST);
    assert_false(f->app.app_open);
    assert_string_equal(name_at(f, f->app.cur), "delta");
    /* Q quits from inside a run; q and Esc in the list: q quits, Esc not */
    press(f, "\n");
    assert_int_equal(press(f, "Q"), SBX_APP_QUIT);
    press(f, "q");
    assert_int_equal(press(f, "<Esc>"), 0);
    assert_int_equal(press(f, "q"), SBX_APP_QUIT);
}

static void rows_fill_in_as_read(void **state)
{
    (void)state;
    struct fixture *f = *state;
    /* a list of the same runs, not read yet */
    struct sbx_runs fresh;
    assert_true(sbx_runs_discover(f->root, &fresh));
    struct sbx_runs_app a;
    struct sbx_app_opts opts = {0};
    sbx_runs_app_init(&a, &opts, NULL, &fresh, 80, 24);
    assert_true(sbx_runs_app_busy(&a));
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    struct sbx_buf out = SBX_BUF_INIT;
    sbx_runs_app_draw(&a, &g);
    sbx_grid_dump(&g, false, &out);
    assert_non_null(strstr(out.p, "4 runs, 0 read"));
    assert_non_null(strstr(out.p, "reading"));
    assert_false(sbx_runs_app_poll(&a));
    sbx_runs_fill_free(sbx_runs_fill_start(&fresh, NULL, NULL, 2, false));
    assert_true(sbx_runs_app_poll(&a));
    assert_false(sbx_runs_app_busy(&a));
    sbx_buf_clear(&out);
    sbx_runs_app_draw(&a, &g);
    sbx_grid_dump(&g, false, &out);
    assert_null(strstr(out.p, "reading"));
    assert_null(strstr(out.p, " read "));
    sbx_buf_free(&out);
    sbx_grid_free(&g);
    sbx_runs_app_free(&a);
    sbx_runs_free(&fresh);
}

/* --skew reaches every run the runs list reads: the rows, a run opened from
 * it and the compare view take the offset given, as summary and check do.
 * Two runs of one run, Runtime's clock as it is and moved +45 s: without a
 * given skew both are measured (2 records outside the wrapper each); a
 * given one is applied to the run whose clock it names, right or wrong. */
static void a_given_skew_reaches_every_run_it_reads(void **state)
{
    (void)state;
    static const struct {
        const char *source; /* NULL: none given */
        int64_t ms;
        size_t outside_same, outside_moved;
        enum sbx_skew_how how;
    } cases[] = {
        {NULL, 0, 2, 2, SBX_SKEW_MEASURED},
        {"runtime", 0, 2, 7, SBX_SKEW_GIVEN},
        {"runtime-commands.json", 45040, 7, 2, SBX_SKEW_GIVEN},
        {"runtime-commands.json", 40, 2, 7, SBX_SKEW_GIVEN},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        print_message("--skew %s=%+lld ms\n", cases[k].source ? cases[k].source : "(none)",
                      (long long)cases[k].ms);
        struct fixture *f = calloc(1, sizeof *f);
        snprintf(f->root, sizeof f->root, "/tmp/sbx-app-runs-XXXXXX");
        assert_non_null(mkdtemp(f->root));
        char same[128], moved[128];
        snprintf(same, sizeof same, "%s/same", f->root);
        snprintf(moved, sizeof moved, "%s/moved", f->root);
        shifted_run_into("tests/fixtures/runtime-run", same, 0);
        shifted_run_into("tests/fixtures/runtime-run", moved, 45000);
        struct sbx_skew_given g = {cases[k].source, cases[k].ms * 1000000};
        size_t ng = cases[k].source ? 1 : 0;
        assert_true(sbx_runs_discover(f->root, &f->runs));
        sbx_runs_fill_free(sbx_runs_fill_start_skewed(&f->runs, NULL, NULL, ng ? &g : NULL, ng, 2, false));
        assert_string_equal(f->runs.rows[0].name, "moved");
        assert_int_equal(f->runs.rows[0].count[SBX_RUN_OUTSIDE], cases[k].outside_moved);
        assert_int_equal(f->runs.rows[1].count[SBX_RUN_OUTSIDE], cases[k].outside_same);
        struct sbx_app_opts opts = {.threads = 1, .skews = ng ? &g : NULL, .nskews = ng};
        sbx_runs_app_init(&f->app, &opts, NULL, &f->runs, 80, 24);
        sbx_grid_init(&f->g, false);
        /* the moved run opened from the list */
        press(f, "g");
        if (strcmp(name_at(f, f->app.cur), "moved") != 0)
            press(f, "j");
        assert_string_equal(name_at(f, f->app.cur), "moved");
        press(f, "\n");
        assert_true(f->app.app_open);
        assert_non_null(f->app.app.sum);
        assert_int_equal(f->app.app.sum->cross.skew.how, cases[k].how);
        /* outside the wrapper, or possibly removed from its log (as the list counts) */
        assert_int_equal(f->app.app.sum->cross.noutside + f->app.app.sum->ngaps, cases[k].outside_moved);
        press(f, "q");
        /* the compare view of the two: each side summarised with it */
        char err[256];
        assert_true(sbx_runs_app_compare(&f->app, &(struct sbx_cmp_input){same, NULL, "same", NULL},
                                      &(struct sbx_cmp_input){moved, NULL, "moved", NULL}, err, sizeof err));
        const struct sbx_cmp_side *side = f->app.cmp->side;
        assert_int_equal(side[0].sum.cross.skew.how, cases[k].how);
        assert_int_equal(side[0].sum.cross.noutside + side[0].sum.ngaps, cases[k].outside_same);
        assert_int_equal(side[1].sum.cross.skew.how, cases[k].how);
        assert_int_equal(side[1].sum.cross.noutside + side[1].sum.ngaps, cases[k].outside_moved);
        sbx_runs_app_free(&f->app);
        sbx_runs_free(&f->runs);
        sbx_grid_free(&f->g);
        sbx_buf_free(&f->screen);
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->root);
        assert_int_equal(system(cmd), 0);
        free(f);
    }
}

/* ---- rows that arrive while the list is shown (a store's listing) ---- */

/* Row i READY with v in every numeric column (start v s, v s long). */
static void set_row(struct sbx_runs *r, size_t i, int v)
{
    struct sbx_run_row row = {.start = 1000000000000000000LL + v * 1000000000LL};
    row.end = row.start + v * 1000000000LL;
    for (int c = SBX_RUN_SANDBOXES; c < SBX_RUN_LOG_END; c++)
        row.count[c] = (size_t)v;
    row.known = ~0u;
    row.events = (size_t)v;
    r->rows[i].count[SBX_RUN_REVIEW] = (size_t)v % 3;
    r->rows[i].count[SBX_RUN_VERDICT] = (size_t)v % 6;
    sbx_run_row_set(r, i, &row);
}

/* The NAME=VALUE words of spec from *at up to "|" or the end. */
static size_t next_rows(const char **at, char names[][32], int *vals, size_t max)
{
    size_t n = 0;
    const char *p = *at;
    while (*p) {
        while (*p == ' ')
            p++;
        if (*p == '|') {
            p++;
            break;
        }
        if (!*p)
            break;
        const char *eq = strchr(p, '=');
        assert_non_null(eq);
        assert_true(n < max && eq - p < 32);
        snprintf(names[n], 32, "%.*s", (int)(eq - p), p);
        vals[n] = atoi(eq + 1);
        n++;
        p = eq + 1;
        while (*p && *p != ' ')
            p++;
    }
    *at = p;
    return n;
}

static const char *cur_name(const struct sbx_runs_app *a)
{
    return a->runs->rows[a->order[a->cur]].name;
}

static void check_arrive(const struct test_case *c, void *ctx)
{
    (void)ctx;
    if (strcmp(c->table, "arrive") != 0)
        return;
    case_want_fields(c, 7);
    char col[32];
    bool reverse = sscanf(c->field[0], "%31s", col) == 1 && strstr(c->field[0], " r");
    int sort = sbx_run_col_by_name(col);
    if (sort < 0)
        case_fail(c, "no column %s", col);
    struct sbx_runs runs, whole;
    sbx_runs_init(&runs, "/nonexistent");
    sbx_runs_init(&whole, "/nonexistent");
    char names[16][32];
    int vals[16];
    const char *at = c->field[1];
    size_t n = next_rows(&at, names, vals, 16);
    for (size_t i = 0; i < n; i++) {
        sbx_runs_add(&runs, names[i], names[i]);
        set_row(&runs, i, vals[i]);
    }
    sbx_runs_expect_more(&runs);
    struct sbx_runs_app a;
    struct sbx_app_opts opts = {.threads = 1};
    sbx_runs_app_init(&a, &opts, NULL, &runs, 120, 30);
    while ((int)a.sort != sort)
        sbx_runs_app_key(&a, '>', 1, 0);
    if (reverse)
        sbx_runs_app_key(&a, 'r', 1, 0);
    sbx_runs_app_key(&a, 'g', 1, 0);
    for (size_t k = 0; k < a.norder && strcmp(cur_name(&a), c->field[2]) != 0; k++)
        sbx_runs_app_key(&a, 'j', 1, 0);
    if (strcmp(cur_name(&a), c->field[2]) != 0)
        case_fail(c, "the cursor cannot be put on %s", c->field[2]);
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    struct sbx_buf out = SBX_BUF_INIT;
    at = c->field[3];
    while (*at) {
        size_t first = runs.n, got = next_rows(&at, names, vals, 16);
        for (size_t i = 0; i < got; i++)
            sbx_runs_offer(&runs, names[i], names[i], NULL);
        if (!sbx_runs_app_busy(&a))
            case_fail(c, "not busy while the listing goes on");
        sbx_runs_app_poll(&a); /* taken in, PENDING */
        if (runs.n != first + got)
            case_fail(c, "%zu rows after a page of %zu, %zu before", runs.n, got, first);
        if (strcmp(cur_name(&a), c->field[2]) != 0)
            case_fail(c, "the cursor went from %s to %s as a page came", c->field[2], cur_name(&a));
        for (size_t i = 0; i < got; i++)
            set_row(&runs, first + i, vals[i]);
        sbx_runs_app_poll(&a); /* read */
        if (strcmp(cur_name(&a), c->field[2]) != 0)
            case_fail(c, "the cursor went from %s to %s as a page was read", c->field[2],
                      cur_name(&a));
        sbx_buf_clear(&out);
        sbx_runs_app_draw(&a, &g);
        sbx_grid_dump(&g, false, &out);
        char so_far[64];
        snprintf(so_far, sizeof so_far, "listing: %zu run%s so far", runs.n, runs.n == 1 ? "" : "s");
        if (!strstr(out.p, so_far))
            case_fail(c, "the status line does not say \"%s\":\n%s", so_far, out.p);
    }
    const char *err = strncmp(c->field[4], "error: ", 7) == 0 ? c->field[4] + 7 : NULL;
    sbx_runs_offer_end(&runs, err);
    sbx_runs_app_poll(&a);
    if (sbx_runs_app_busy(&a))
        case_fail(c, "busy after the listing ended");
    if (strcmp(cur_name(&a), c->field[2]) != 0)
        case_fail(c, "the cursor went from %s to %s at the end", c->field[2], cur_name(&a));
    /* the order in sight: the table's, and that of the same rows listed whole */
    struct sbx_buf order = SBX_BUF_INIT;
    for (size_t i = 0; i < a.norder; i++)
        sbx_buf_addf(&order, "%s%s", i ? " " : "", runs.rows[a.order[i]].name);
    if (strcmp(c->field[5], "*") != 0 && strcmp(order.p ? order.p : "", c->field[5]) != 0)
        case_fail(c, "in sight: %s", order.p ? order.p : "");
    for (size_t i = 0; i < runs.n; i++) {
        sbx_runs_add(&whole, runs.rows[i].name, runs.rows[i].path);
        whole.rows[i].count[SBX_RUN_REVIEW] = runs.rows[i].count[SBX_RUN_REVIEW];
        whole.rows[i].count[SBX_RUN_VERDICT] = runs.rows[i].count[SBX_RUN_VERDICT];
        sbx_run_row_set(&whole, i, &runs.rows[i]);
    }
    uint32_t *want = malloc(whole.n * sizeof *want);
    struct sbx_runs_query q = {(enum sbx_run_col)sort, reverse, NULL};
    size_t nw = sbx_runs_view(&whole, &q, want);
    if (nw != a.norder)
        case_fail(c, "%zu in sight, %zu listed whole", a.norder, nw);
    for (size_t i = 0; i < nw; i++)
        if (strcmp(whole.rows[want[i]].name, runs.rows[a.order[i]].name) != 0)
            case_fail(c, "row %zu is %s, listed whole %s", i, runs.rows[a.order[i]].name,
                      whole.rows[want[i]].name);
    sbx_buf_clear(&out);
    sbx_runs_app_draw(&a, &g);
    sbx_grid_dump(&g, false, &out);
    if (!strstr(out.p, c->field[6]))
        case_fail(c, "the status line does not say \"%s\":\n%s", c->field[6], out.p);
    if (a.msg_error != (err != NULL))
        case_fail(c, "the end said as an error: %d", a.msg_error);
    /* the end is said once: a key clears it, the next poll does not say it again */
    sbx_runs_app_key(&a, 'j', 1, 0);
    sbx_runs_app_poll(&a);
    if (a.msg[0])
        case_fail(c, "said again: %s", a.msg);
    free(want);
    sbx_buf_free(&order);
    sbx_buf_free(&out);
    sbx_grid_free(&g);
    sbx_runs_app_free(&a);
    sbx_runs_free(&runs);
    sbx_runs_free(&whole);
}

static void check_whole(const struct test_case *c, void *ctx)
{
    (void)ctx;
    if (strcmp(c->table, "whole") != 0)
        return;
    case_want_fields(c, 5);
    char *copy = strdup(c->field[1]);
    const char *keys[32];
    size_t n = 0;
    for (char *save, *k = strtok_r(copy, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
        assert_true(n < 32);
        keys[n++] = k;
    }
    bool last = strcmp(c->field[2], "last") == 0;
    size_t whole = sbx_runs_keys_whole(keys, n, c->len[0], last);
    if ((long long)whole != case_int(c, 3))
        case_fail(c, "%zu keys of runs listed whole", whole);
    size_t runs = sbx_runs_keys_count(keys, whole, c->len[0]);
    if ((long long)runs != case_int(c, 4))
        case_fail(c, "%zu runs", runs);
    free(copy);
}

static void rows_arrive_while_shown(void **state)
{
    (void)state;
    cases_run("runs_arrive.test", check_arrive, NULL);
}

/* A fill started on a list that grows reads the rows taken in after it
 * started, and ends once the listing has. */
static void a_fill_reads_rows_that_arrive(void **state)
{
    struct fixture *f = *state;
    struct sbx_runs r;
    sbx_runs_init(&r, f->root);
    char path[160];
    snprintf(path, sizeof path, "%s/alpha", f->root);
    sbx_runs_add(&r, "alpha", path);
    sbx_runs_expect_more(&r);
    struct sbx_runs_fill *fill = sbx_runs_fill_start(&r, NULL, NULL, 2, true);
    snprintf(path, sizeof path, "%s/gamma", f->root);
    sbx_runs_offer(&r, "gamma", path, NULL);
    assert_int_equal(sbx_runs_take(&r), 1);
    sbx_runs_offer_end(&r, NULL);
    sbx_runs_fill_wait(fill);
    assert_true(sbx_runs_fill_done(fill));
    assert_int_equal(atomic_load(&r.done), 2);
    assert_int_equal(r.rows[1].count[SBX_RUN_FAILED], 5);
    sbx_runs_fill_free(fill);
    sbx_runs_free(&r);
}

/* Every column, each way: rows arriving above and below the cursor keep
 * the order of the same rows listed whole ("*": no order written out). */
static void every_column_keeps_its_order_as_rows_arrive(void **state)
{
    (void)state;
    for (int col = 0; col < SBX_RUN_NCOLS; col++)
        for (int rev = 0; rev < 2; rev++) {
            char sort[48];
            snprintf(sort, sizeof sort, "%s%s", sbx_run_col_name((enum sbx_run_col)col),
                     rev ? " r" : "");
            print_message("sorted by %s\n", sort);
            struct test_case c = {.file = __FILE__, .line = __LINE__, .table = "arrive", .n = 7,
                                  .field = {sort, "delta=1 kilo=2 mike=0", "kilo",
                                            "alpha=2 echo=0 | lima=1 oscar=2 | papa=0 zulu=1",
                                            "complete", "*", "listing complete: 9 runs"}};
            for (size_t i = 0; i < c.n; i++)
                c.len[i] = strlen(c.field[i]);
            check_arrive(&c, NULL);
        }
}

/* A listing that ended before the list opened (its rows offered, not taken
 * in yet): the first poll takes them in and says how it ended. */
static void an_end_before_the_list_opened_is_said(void **state)
{
    (void)state;
    static const struct {
        size_t offered;
        const char *error; /* NULL: complete */
        const char *said;
        bool is_error;
    } cases[] = {
        {2, NULL, "listing complete: 3 runs", false},
        {2, "listing s3://b/runs/: 403 AccessDenied", "listing stopped after 3 runs: listing s3://b/runs/: 403 AccessDenied", true},
        {0, NULL, "listing complete: 1 run", false},
        {0, "listing s3://b/runs/: 403 AccessDenied", "listing stopped after 1 run: listing s3://b/runs/: 403 AccessDenied", true},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct sbx_runs runs;
        sbx_runs_init(&runs, "/nonexistent");
        sbx_runs_add(&runs, "alpha", "alpha");
        set_row(&runs, 0, 1);
        sbx_runs_expect_more(&runs);
        const char *more[] = {"bravo", "charlie"};
        for (size_t i = 0; i < cases[k].offered; i++)
            sbx_runs_offer(&runs, more[i], more[i], NULL);
        sbx_runs_offer_end(&runs, cases[k].error);
        struct sbx_runs_app a;
        struct sbx_app_opts opts = {.threads = 1};
        sbx_runs_app_init(&a, &opts, NULL, &runs, 120, 30);
        assert_true(sbx_runs_app_poll(&a));
        assert_int_equal(runs.n, 1 + cases[k].offered);
        assert_int_equal(a.norder, 1 + cases[k].offered);
        assert_string_equal(a.msg, cases[k].said);
        assert_int_equal(a.msg_error, cases[k].is_error);
        sbx_runs_app_free(&a);
        sbx_runs_free(&runs);
    }
}

static void keys_of_runs_listed_whole(void **state)
{
    (void)state;
    cases_run("runs_arrive.test", check_whole, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(sorts_by_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(filters_by_words, setup, teardown),
        cmocka_unit_test_setup_teardown(marks_and_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(compare_moves_by_differences, setup, teardown),
        cmocka_unit_test_setup_teardown(keys_alike_in_every_screen, setup, teardown),
        cmocka_unit_test_setup_teardown(opens_a_run_and_comes_back, setup, teardown),
        cmocka_unit_test_setup_teardown(rows_fill_in_as_read, setup, teardown),
        cmocka_unit_test(a_given_skew_reaches_every_run_it_reads),
        cmocka_unit_test(rows_arrive_while_shown),
        cmocka_unit_test_setup_teardown(a_fill_reads_rows_that_arrive, setup, teardown),
        cmocka_unit_test(keys_of_runs_listed_whole),
        cmocka_unit_test(an_end_before_the_list_opened_is_said),
        cmocka_unit_test(every_column_keeps_its_order_as_rows_arrive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
