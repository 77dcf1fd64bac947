/* The runs list's state and keys; opening a run and the compare view. */
#include "app/app_runs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/runs_more.h"
#include "app/app_cmp.h"
#include "app/app_runs_keys.h"
#include "app/keymap.h"
#include "app/list_window.h"
#include "render/views/views.h"

static void message(struct sbx_runs_app *a, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void message(struct sbx_runs_app *a, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->msg_error = error;
}

/* Rows of the list: the screen less the header, the column names and the status line. */
static size_t list_body(const struct sbx_runs_app *a)
{
    return a->rows > 3 ? (size_t)(a->rows - 3) : 1;
}

static void select_row(struct sbx_runs_app *a, size_t i)
{
    sbx_list_select(&a->cur, &a->top, i, a->norder, list_body(a));
}

/* The order made again (new rows, another sort or filter): the selection
 * kept on the run it was on, or (to_top) on the first row. */
static void reorder(struct sbx_runs_app *a, bool to_top)
{
    long keep = !to_top && a->cur < a->norder ? (long)a->order[a->cur] : -1;
    a->seen_done = atomic_load(&a->runs->done);
    struct sbx_runs_query q = {a->sort, a->reverse, a->filter};
    a->norder = sbx_runs_view(a->runs, &q, a->order);
    size_t at = 0;
    for (size_t i = 0; keep >= 0 && i < a->norder; i++)
        if (a->order[i] == (uint32_t)keep)
            at = i;
    select_row(a, at);
}

void sbx_runs_app_init(struct sbx_runs_app *a, const struct sbx_app_opts *opts,
                       const struct sbx_allowlist *allow, struct sbx_runs *runs, int cols,
                       int rows)
{
    memset(a, 0, sizeof *a);
    a->opts = *opts;
    a->allow = allow;
    a->runs = runs;
    a->cols = cols;
    a->rows = rows;
    a->sort = SBX_RUN_NAME;
    a->marks[0] = a->marks[1] = -1;
    a->order = sbx_xmalloc((runs->n ? runs->n : 1) * sizeof *a->order);
    /* not looked at yet: a listing that ended before the list opened is said
     * by the first poll */
    a->listing = runs->more ? SBX_RUNS_LISTING : SBX_RUNS_WHOLE;
    sbx_doc_init(&a->help, cols, opts->ascii);
    reorder(a, true);
}

static void close_run(struct sbx_runs_app *a)
{
    if (!a->app_open)
        return;
    sbx_app_free(&a->app);
    sbx_loader_free(a->loader);
    free(a->loader);
    a->loader = NULL;
    a->app_open = a->app_fed = false;
}

static void close_compare(struct sbx_runs_app *a)
{
    sbx_cmpview_free(a->cmp);
    a->cmp = NULL;
}

void sbx_runs_app_free(struct sbx_runs_app *a)
{
    close_run(a);
    close_compare(a);
    free(a->order);
    free(a->filter);
    sbx_buf_free(&a->input);
    sbx_doc_free(&a->help);
    memset(a, 0, sizeof *a);
}

void sbx_runs_app_resize(struct sbx_runs_app *a, int cols, int rows)
{
    a->cols = cols;
    a->rows = rows;
    if (a->app_open)
        sbx_app_resize(&a->app, cols, rows);
    if (a->cmp)
        sbx_cmpview_resize(a->cmp, cols, rows);
    sbx_runs_help_doc(&a->help, cols);
    select_row(a, a->cur);
}

/* Feeds the run opened its data once its load is done. */
static bool feed_run(struct sbx_runs_app *a)
{
    if (!a->app_open || a->app_fed || !sbx_loader_done(a->loader))
        return false;
    struct sbx_loader *l = a->loader;
    sbx_loader_wait(l);
    sbx_app_set_progress(&a->app, "");
    a->app_fed = true;
    if (!l->loaded) {
        close_run(a);
        a->screen = SBX_RUNS_LIST;
        message(a, true, "%s", l->report.nerrors ? l->report.errors[0] : "the run could not be read");
        return true;
    }
    sbx_app_set_data(&a->app, &l->tl, l->summarized ? &l->sum : NULL, false);
    if (l->err[0])
        sbx_app_message(&a->app, true, "%s", l->err);
    return true;
}

static void open_run(struct sbx_runs_app *a)
{
    if (a->cur >= a->norder)
        return;
    const struct sbx_run_row *row = &a->runs->rows[a->order[a->cur]];
    close_run(a);
    a->paths[0] = row->path;
    a->names[0] = row->source;
    a->in = (struct sbx_loader_inputs){.paths = a->paths, .names = a->names, .n = 1, .allow = a->allow,
                                       .import = a->opts.import, .skews = a->opts.skews,
                                       .nskews = a->opts.nskews};
    a->loader = sbx_xmalloc(sizeof *a->loader);
    sbx_app_init(&a->app, &a->opts, a->cols, a->rows);
    a->app_open = true;
    a->screen = SBX_RUNS_RUN;
    sbx_app_set_progress(&a->app, "loading the run");
    sbx_loader_start(a->loader, &a->in, a->opts.threads, a->opts.background);
    feed_run(a);
}

static void open_compare(struct sbx_runs_app *a)
{
    if (a->marks[0] < 0 || a->marks[1] < 0) {
        message(a, true, "mark two runs first: m on each (%s marked)",
                a->marks[0] < 0 ? "none" : "one");
        return;
    }
    const struct sbx_run_row *ra = &a->runs->rows[a->marks[0]], *rb = &a->runs->rows[a->marks[1]];
    char err[256];
    close_compare(a);
    struct sbx_cmp_input in_a = {ra->path, ra->source, ra->name, NULL},
                         in_b = {rb->path, rb->source, rb->name, NULL};
    a->cmp = sbx_cmpview_open(&in_a, &in_b, a->allow,
                              &a->opts, a->cols, a->rows, err, sizeof err);
    if (!a->cmp) {
        message(a, true, "compare: %s", err);
        return;
    }
    a->screen = SBX_RUNS_COMPARE;
}

bool sbx_runs_app_compare(struct sbx_runs_app *a, const struct sbx_cmp_input *run_a,
                          const struct sbx_cmp_input *run_b, char *err, size_t errsz)
{
    close_compare(a);
    a->cmp = sbx_cmpview_open(run_a, run_b, a->allow, &a->opts,
                              a->cols, a->rows, err, errsz);
    if (a->cmp)
        a->screen = SBX_RUNS_COMPARE;
    return a->cmp != NULL;
}

static void toggle_mark(struct sbx_runs_app *a)
{
    if (a->cur >= a->norder)
        return;
    long i = (long)a->order[a->cur];
    const char *name = a->runs->rows[i].name;
    if (a->marks[0] == i || a->marks[1] == i) {
        if (a->marks[0] == i) /* B becomes A */
            a->marks[0] = a->marks[1];
        a->marks[1] = -1;
        message(a, false, "unmarked %s", name);
    } else if (a->marks[0] < 0) {
        a->marks[0] = i;
        message(a, false, "marked %s as A: mark another, then c compares", name);
    } else {
        if (a->marks[1] >= 0) /* a third mark: the oldest goes */
            a->marks[0] = a->marks[1];
        a->marks[1] = i;
        message(a, false, "marked %s as B: c compares %s with it", name,
                a->runs->rows[a->marks[0]].name);
    }
    if (a->cur + 1 < a->norder) /* as in a file manager: on to the next */
        select_row(a, a->cur + 1);
}

static void move(struct sbx_runs_app *a, long delta, bool to_end)
{
    if (a->screen == SBX_RUNS_HELP) {
        long h = (long)list_body(a) + 1, max = (long)a->help.nrows > h ? (long)a->help.nrows - h : 0;
        long top = to_end ? (delta < 0 ? 0 : max) : (long)a->help_top + delta;
        a->help_top = (size_t)(top < 0 ? 0 : top > max ? max : top);
        return;
    }
    if (!a->norder)
        return;
    if (to_end) {
        select_row(a, delta < 0 ? 0 : a->norder - 1);
        return;
    }
    long cur = (long)a->cur + delta;
    select_row(a, (size_t)(cur < 0 ? 0 : cur));
}

static void accept_filter(struct sbx_runs_app *a)
{
    a->prompt = 0;
    free(a->filter);
    a->filter = a->input.len ? sbx_xstrndup(a->input.p, a->input.len) : NULL;
    reorder(a, true);
    if (a->filter && !a->norder)
        message(a, false, "no run matches the filter (& then Enter clears it)");
}

static void prompt_key(struct sbx_runs_app *a, int key)
{
    if (key == SBX_KEY_ENTER || key == '\r') {
        accept_filter(a);
    } else if (key == SBX_KEY_ESC || key == sbx_ctrl('c') || key == sbx_ctrl('g')) {
        a->prompt = 0;
    } else if (key == SBX_KEY_BACKSPACE || key == 127 || key == sbx_ctrl('h')) {
        if (!a->input.len)
            a->prompt = 0;
        while (a->input.len && ((unsigned char)a->input.p[a->input.len - 1] & 0xc0) == 0x80)
            a->input.len--;
        if (a->input.len)
            a->input.len--;
    } else if (key == sbx_ctrl('u')) {
        sbx_buf_clear(&a->input);
    } else if (key >= 32 && key < 127 && a->input.len < 512) {
        /* names and finding words are ASCII enough; other characters are not typed here */
        sbx_buf_addc(&a->input, (char)key);
    }
}

/* The screen in sight, as the key map knows it. */
static enum sbx_runs_keyscreen keyscreen(const struct sbx_runs_app *a)
{
    switch (a->screen) {
    case SBX_RUNS_COMPARE: return sbx_cmpview_showing_diff(a->cmp) ? SBX_RK_DIFF : SBX_RK_COMPARE;
    case SBX_RUNS_HELP: return SBX_RK_HELP;
    case SBX_RUNS_LIST:
    case SBX_RUNS_RUN: break;
    }
    return SBX_RK_LIST;
}

static void sort_by(struct sbx_runs_app *a, int col)
{
    a->sort = (enum sbx_run_col)((col + SBX_RUN_NCOLS) % SBX_RUN_NCOLS);
    a->reverse = false;
    reorder(a, true); /* a new order is read from its top */
}

/* ---- the handlers of the key map's actions (app/keymap.h) ---- */

static void any_move(struct sbx_runs_app *a, long delta, bool to_end)
{
    if (a->screen == SBX_RUNS_COMPARE)
        sbx_cmpview_move(a->cmp, delta, to_end);
    else
        move(a, delta, to_end);
}

static long page(const struct sbx_runs_app *a)
{
    return a->screen == SBX_RUNS_COMPARE ? sbx_cmpview_page(a->cmp) : (long)list_body(a);
}

static long half(const struct sbx_runs_app *a)
{
    long h = page(a) / 2;
    return h ? h : 1;
}

static unsigned runs_down(struct sbx_runs_app *a, int key) { (void)key; any_move(a, 1, false); return 0; }
static unsigned runs_up(struct sbx_runs_app *a, int key) { (void)key; any_move(a, -1, false); return 0; }
static unsigned runs_page_down(struct sbx_runs_app *a, int key) { (void)key; any_move(a, page(a), false); return 0; }
static unsigned runs_page_up(struct sbx_runs_app *a, int key) { (void)key; any_move(a, -page(a), false); return 0; }
static unsigned runs_half_down(struct sbx_runs_app *a, int key) { (void)key; any_move(a, half(a), false); return 0; }
static unsigned runs_half_up(struct sbx_runs_app *a, int key) { (void)key; any_move(a, -half(a), false); return 0; }
static unsigned runs_top(struct sbx_runs_app *a, int key) { (void)key; any_move(a, -1, true); return 0; }
static unsigned runs_bottom(struct sbx_runs_app *a, int key) { (void)key; any_move(a, 1, true); return 0; }

static unsigned runs_open(struct sbx_runs_app *a, int key)
{
    (void)key;
    if (a->screen == SBX_RUNS_COMPARE)
        sbx_cmpview_open_diff(a->cmp);
    /* on one of two marked runs: compare them; elsewhere, open the run */
    else if (a->marks[0] >= 0 && a->marks[1] >= 0 && a->cur < a->norder &&
             (a->order[a->cur] == (uint32_t)a->marks[0] || a->order[a->cur] == (uint32_t)a->marks[1]))
        open_compare(a);
    else
        open_run(a);
    return 0;
}

static unsigned runs_mark(struct sbx_runs_app *a, int key) { (void)key; toggle_mark(a); return 0; }
static unsigned runs_compare(struct sbx_runs_app *a, int key) { (void)key; open_compare(a); return 0; }
static unsigned runs_sort_left(struct sbx_runs_app *a, int key) { (void)key; sort_by(a, (int)a->sort - 1); return 0; }
static unsigned runs_sort_right(struct sbx_runs_app *a, int key) { (void)key; sort_by(a, (int)a->sort + 1); return 0; }

static unsigned runs_reverse(struct sbx_runs_app *a, int key)
{
    (void)key;
    a->reverse = !a->reverse;
    reorder(a, true);
    return 0;
}

static unsigned runs_filter(struct sbx_runs_app *a, int key)
{
    (void)key;
    a->prompt = '&'; /* empty, as the timeline's: what is typed replaces the filter */
    sbx_buf_clear(&a->input);
    return 0;
}

static unsigned runs_next_diff(struct sbx_runs_app *a, int key) { (void)key; sbx_cmpview_next_diff(a->cmp, false); return 0; }
static unsigned runs_prev_diff(struct sbx_runs_app *a, int key) { (void)key; sbx_cmpview_next_diff(a->cmp, true); return 0; }

static unsigned runs_help(struct sbx_runs_app *a, int key)
{
    (void)key;
    a->help_back = a->screen;
    a->screen = SBX_RUNS_HELP;
    a->help_top = 0;
    sbx_runs_help_doc(&a->help, a->cols);
    return 0;
}

static unsigned runs_redraw(struct sbx_runs_app *a, int key) { (void)a; (void)key; return 0; }

static unsigned runs_back(struct sbx_runs_app *a, int key)
{
    if (a->screen == SBX_RUNS_HELP) {
        a->screen = a->help_back;
        return 0;
    }
    if (a->screen == SBX_RUNS_COMPARE && sbx_cmpview_showing_diff(a->cmp)) {
        sbx_cmpview_close_diff(a->cmp);
        return 0;
    }
    if (key == SBX_KEY_ESC) /* Esc here is a habit, not a wish to leave */
        return 0;
    if (a->screen == SBX_RUNS_COMPARE) { /* back to the list */
        close_compare(a);
        a->screen = SBX_RUNS_LIST;
        return a->runs->n ? 0 : SBX_APP_QUIT; /* no list to go back to */
    }
    return SBX_APP_QUIT;
}

static unsigned runs_quit(struct sbx_runs_app *a, int key) { (void)a; (void)key; return SBX_APP_QUIT; }

/* The key map's handler column for these screens. */
static unsigned (*const handlers[SBX_ACT_COUNT])(struct sbx_runs_app *, int) = {
#define SBX_HANDLER_ROW(a, group, help, run, runs, k1, k2, k3, k4) [SBX_ACT_##a] = runs,
    SBX_KEYMAP(SBX_HANDLER_ROW)
#undef SBX_HANDLER_ROW
};

/* What the status line says, where the screen in sight shows it. */
static void say(struct sbx_runs_app *a, const char *text)
{
    if (a->screen == SBX_RUNS_COMPARE)
        sbx_cmpview_message(a->cmp, text);
    else
        message(a, false, "%s", text);
}

unsigned sbx_runs_app_key(struct sbx_runs_app *a, int key, int mrow, int mcol)
{
    if (key == SBX_KEY_RESIZE)
        return 0;
    if (a->screen == SBX_RUNS_RUN) {
        if (key == 'Q')
            return SBX_APP_QUIT;
        unsigned f = sbx_app_key(&a->app, key, mrow, mcol);
        if (f & SBX_APP_FOLLOW) {
            a->app.following = false;
            sbx_app_message(&a->app, false, "following is for one run given on its own");
        }
        if (f & SBX_APP_QUIT) { /* q in the run's timeline: back to the list */
            close_run(a);
            a->screen = a->cmp ? SBX_RUNS_COMPARE : SBX_RUNS_LIST;
            return 0;
        }
        return f & SBX_APP_OUTPUT; /* the run's text to copy out: a->app has it */
    }
    if (a->prompt) {
        prompt_key(a, key);
        return 0;
    }
    a->msg[0] = '\0';
    if (a->screen == SBX_RUNS_COMPARE)
        sbx_cmpview_message(a->cmp, "");
    if (key >= SBX_KEY_WHEEL_UP && key <= SBX_KEY_DOUBLE_CLICK) {
        if (a->screen == SBX_RUNS_COMPARE) {
            sbx_cmpview_mouse(a->cmp, key, mrow);
            return 0;
        }
        if (key == SBX_KEY_WHEEL_UP || key == SBX_KEY_WHEEL_DOWN) {
            move(a, key == SBX_KEY_WHEEL_UP ? -3 : 3, false);
        } else if (a->screen == SBX_RUNS_LIST && mrow >= 2 && mrow < a->rows - 1) {
            select_row(a, a->top + (size_t)(mrow - 2));
            if (key == SBX_KEY_DOUBLE_CLICK)
                open_run(a);
        }
        return 0;
    }
    enum sbx_action act = sbx_keymap_find(key, sbx_runs_screen_keys(keyscreen(a)));
    if (act == SBX_ACT_NONE) {
        char name[16], text[64];
        unsigned any = 0;
        for (int s = 0; s < SBX_RK_COUNT; s++)
            any |= sbx_runs_screen_keys((enum sbx_runs_keyscreen)s);
        snprintf(text, sizeof text, "%s %s (? for help)", sbx_key_name(key, name),
                 sbx_keymap_find(key, any) ? "does nothing here" : "is no key here");
        if (key != SBX_KEY_ESC)
            say(a, text);
        return 0;
    }
    return handlers[act](a, key);
}

/* Runs the listing has given since the last look taken in, the order made
 * again with the selection on its run; the listing's end said once. */
static bool take_listed(struct sbx_runs_app *a)
{
    if (a->listing == SBX_RUNS_WHOLE || a->listing == SBX_RUNS_LISTED ||
        a->listing == SBX_RUNS_LIST_FAILED)
        return false;
    size_t got = sbx_runs_take(a->runs);
    char why[200];
    enum sbx_runs_listing now = sbx_runs_listing(a->runs, why, sizeof why);
    if (got) {
        a->order = sbx_xrealloc(a->order, a->runs->n * sizeof *a->order);
        reorder(a, false);
    }
    if (now == a->listing)
        return got != 0;
    a->listing = now;
    char b[32];
    if (now == SBX_RUNS_LISTED)
        message(a, false, "listing complete: %s run%s", sbx_thousands(a->runs->n, b),
                a->runs->n == 1 ? "" : "s");
    else if (now == SBX_RUNS_LIST_FAILED)
        message(a, true, "listing stopped after %s run%s: %s", sbx_thousands(a->runs->n, b),
                a->runs->n == 1 ? "" : "s", why);
    return true;
}

bool sbx_runs_app_poll(struct sbx_runs_app *a)
{
    bool changed = false;
    if (a->app_open) {
        changed |= feed_run(a);
        if (a->app_fed)
            changed |= sbx_app_poll(&a->app);
    }
    changed |= take_listed(a);
    if (atomic_load(&a->runs->done) != a->seen_done) {
        reorder(a, false);
        changed = true;
    }
    return changed;
}

bool sbx_runs_app_busy(const struct sbx_runs_app *a)
{
    if (a->app_open && (!a->app_fed || sbx_app_busy(&a->app)))
        return true;
    return atomic_load(&a->runs->done) < a->runs->n || a->listing == SBX_RUNS_LISTING;
}
