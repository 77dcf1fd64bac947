/* Drawing the runs list: header, column names, a row per run, status. */
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/sanitize.h"
#include "render/views/views.h"
#include "analyses/runs_more.h"
#include "app/app_cmp.h"
#include "app/app_runs.h"

/* The short column names, for screens too narrow for the full ones. */
static const char *const short_names[SBX_RUN_NCOLS] = {"run", "start", "took", "sbx", "cmds",
                                                       "fail", "refu", "outs", "acct", "secr",
                                                       "rev", "verdict"};
/* The review column's words on a narrow screen (by its progress). */
static const char *const short_review[] = {"no", "open", "done"};

struct layout {
    int col[SBX_RUN_NCOLS];   /* where each column starts; -1 left out */
    int width[SBX_RUN_NCOLS];
    bool full, long_start;
};

/* Columns left out, first to last, when the name would be too narrow. */
static const enum sbx_run_col drop_order[] = {SBX_RUN_START, SBX_RUN_SANDBOXES, SBX_RUN_DURATION,
                                              SBX_RUN_ACCOUNT, SBX_RUN_OUTSIDE};

static void lay_out(int cols, struct layout *L)
{
    enum { MARK = 2, NAME_MIN = 10 };
    L->long_start = cols >= 140;
    L->full = cols >= 140;
    bool shown[SBX_RUN_NCOLS];
    for (int c = 0; c < SBX_RUN_NCOLS; c++) {
        shown[c] = true;
        if (c == SBX_RUN_START)
            L->width[c] = L->long_start ? 19 : 11;
        else if (c == SBX_RUN_DURATION)
            L->width[c] = 10; /* "1 min 49 s" */
        else if (c == SBX_RUN_REVIEW)
            L->width[c] = L->full ? 12 : 4; /* "not reviewed", "open" */
        else if (c == SBX_RUN_VERDICT)
            L->width[c] = 12; /* "inconclusive" */
        else if (c != SBX_RUN_NAME)
            L->width[c] = L->full ? (int)strlen(sbx_run_col_name((enum sbx_run_col)c)) + 1 : 5;
    }
    size_t d = 0;
    for (;;) {
        int used = MARK;
        for (int c = 1; c < SBX_RUN_NCOLS; c++)
            used += shown[c] ? L->width[c] + 1 : 0;
        L->width[SBX_RUN_NAME] = cols - used - 1;
        if (L->width[SBX_RUN_NAME] >= NAME_MIN || d == sizeof drop_order / sizeof drop_order[0])
            break;
        shown[drop_order[d++]] = false;
    }
    if (L->width[SBX_RUN_NAME] < 1)
        L->width[SBX_RUN_NAME] = 1;
    int x = MARK;
    for (int c = 0; c < SBX_RUN_NCOLS; c++) {
        L->col[c] = shown[c] ? x : -1;
        x += shown[c] ? L->width[c] + 1 : 0;
    }
}

static bool descending(const struct sbx_runs_app *a)
{
    bool natural_desc = a->sort != SBX_RUN_NAME && a->sort != SBX_RUN_START;
    return natural_desc != a->reverse;
}

static void header(struct sbx_runs_app *a, struct sbx_grid *g)
{
    const char *dot = a->opts.ascii ? " - " : " \xc2\xb7 ";
    char b[32], c[32];
    struct sbx_buf h = SBX_BUF_INIT;
    sbx_buf_adds(&h, " sbxview");
    if (a->screen == SBX_RUNS_HELP) {
        sbx_buf_addf(&h, "%shelp (q: back)", dot);
    } else {
        size_t done = atomic_load(&a->runs->done);
        sbx_buf_addf(&h, "%s%s run%s", dot, sbx_thousands(a->runs->n, b), a->runs->n == 1 ? "" : "s");
        if (done < a->runs->n)
            sbx_buf_addf(&h, ", %s read", sbx_thousands(done, c));
        sbx_buf_addf(&h, "%ssorted by %s, %s", dot, sbx_run_col_name(a->sort),
                     a->sort == SBX_RUN_NAME ? (descending(a) ? "Z-A" : "A-Z")
                     : a->sort == SBX_RUN_START ? (descending(a) ? "latest first" : "earliest first")
                                                : (descending(a) ? "most first" : "least first"));
        if (a->filter)
            sbx_buf_addf(&h, "%s%s shown", dot, sbx_thousands(a->norder, b));
    }
    sbx_grid_fill(g, 0, 0, g->cols, SBX_STYLE_HEADER);
    sbx_grid_text(g, 0, 0, g->cols, SBX_STYLE_HEADER, h.p, h.len);
    sbx_buf_free(&h);
}

/* A number right-aligned in [col, col + w), in style (0 dim). */
static void number(struct sbx_grid *g, int row, int col, int w, size_t v, enum sbx_style style)
{
    char b[32];
    sbx_thousands(v, b);
    int len = (int)strlen(b);
    int at = col + (w > len ? w - len : 0);
    sbx_grid_text(g, row, at, col + w, v ? style : SBX_STYLE_NOTE, b, strlen(b));
}

static void unknown(struct sbx_grid *g, int row, int col, int w, bool ascii)
{
    const char *dash = ascii ? "-" : "\xe2\x80\x93"; /* – */
    sbx_grid_text(g, row, col + (w > 1 ? w - 1 : 0), col + w, SBX_STYLE_NOTE, dash, strlen(dash));
}

static enum sbx_style count_style(enum sbx_run_col c)
{
    switch (c) {
    case SBX_RUN_FAILED: return SBX_STYLE_FAILED;
    case SBX_RUN_REFUSED: return SBX_STYLE_REFUSED;
    case SBX_RUN_OUTSIDE: return SBX_STYLE_OUTSIDE;
    case SBX_RUN_ACCOUNT: return SBX_STYLE_ACCOUNT;
    case SBX_RUN_SECRETS: return SBX_STYLE_SECRET;
    default: return SBX_STYLE_NORMAL;
    }
}

static void column_names(struct sbx_runs_app *a, struct sbx_grid *g, const struct layout *L)
{
    for (int c = 0; c < SBX_RUN_NCOLS; c++) {
        if (L->col[c] < 0)
            continue;
        const char *name = L->full ? sbx_run_col_name((enum sbx_run_col)c) : short_names[c];
        char label[48];
        bool sorted = c == (int)a->sort;
        const char *arrow = !sorted ? "" : a->opts.ascii ? (descending(a) ? "v" : "^")
                                         : descending(a) ? "\xe2\x96\xbc" : "\xe2\x96\xb2";
        snprintf(label, sizeof label, "%s%s", name, arrow);
        int w = sbx_text_width(label, strlen(label));
        /* numbers are right-aligned, and so are their names */
        int at = c == SBX_RUN_NAME || c == SBX_RUN_START || c >= SBX_RUN_REVIEW ? L->col[c]
                                                        : L->col[c] + (L->width[c] > w ? L->width[c] - w : 0);
        if (at + w > L->col[c] + L->width[c] + 1)
            at = L->col[c];
        sbx_grid_text(g, 1, at, L->col[c] + L->width[c] + 1, sorted ? SBX_STYLE_KEY : SBX_STYLE_HEADING,
                      label, strlen(label));
    }
}

/* The review's progress or the verdict, left-aligned: not reviewed and no
 * verdict dim, a verdict in its weight's style. */
static void review_cell(struct sbx_runs_app *a, struct sbx_grid *g, int row, const struct layout *L,
                        const struct sbx_run_row *r, enum sbx_run_col c)
{
    (void)a;
    size_t v = r->count[c];
    const char *t = c == SBX_RUN_VERDICT ? sbx_run_row_verdict_word(r)
                    : L->full            ? sbx_run_row_review_word(r)
                                         : short_review[v < 3 ? v : 0];
    enum sbx_style style = !v                  ? SBX_STYLE_NOTE
                           : c == SBX_RUN_REVIEW ? SBX_STYLE_NORMAL
                           : v >= 4            ? SBX_STYLE_FAILED /* suspicious, malicious */
                                               : SBX_STYLE_NORMAL;
    sbx_grid_text(g, row, L->col[c], L->col[c] + L->width[c], style, t, strlen(t));
}

static void run_row(struct sbx_runs_app *a, struct sbx_grid *g, int row, const struct layout *L,
                    uint32_t idx, bool selected)
{
    const struct sbx_run_row *r = &a->runs->rows[idx];
    int state = atomic_load_explicit(&r->state, memory_order_acquire);
    if (a->marks[0] == (long)idx || a->marks[1] == (long)idx)
        sbx_grid_text(g, row, 0, 1, a->marks[0] == (long)idx ? SBX_STYLE_CMP_ONLY_A : SBX_STYLE_CMP_ONLY_B,
                      a->marks[0] == (long)idx ? "A" : "B", 1);
    int nc = L->col[SBX_RUN_NAME];
    sbx_grid_untrusted_tail(g, row, nc, nc + L->width[SBX_RUN_NAME], SBX_STYLE_NORMAL, r->name,
                            strlen(r->name));
    int rest = L->col[SBX_RUN_NAME] + L->width[SBX_RUN_NAME] + 1;
    if (state == SBX_RUN_PENDING) {
        const char *t = a->opts.ascii ? "reading..." : "reading\xe2\x80\xa6";
        sbx_grid_text(g, row, rest, g->cols, SBX_STYLE_NOTE, t, strlen(t));
    } else if (state == SBX_RUN_UNREADABLE) {
        sbx_grid_untrusted(g, row, rest, g->cols, SBX_STYLE_WARNING, r->why, strlen(r->why));
    } else {
        char b[64], d[32];
        if (L->col[SBX_RUN_START] >= 0 && r->start != SBX_TIME_UNKNOWN) {
            sbx_stamp(r->start, a->opts.local, b);
            const char *s = L->long_start ? b : b + 5;
            size_t n = L->long_start ? 19 : 11;
            sbx_grid_text(g, row, L->col[SBX_RUN_START], L->col[SBX_RUN_START] + L->width[SBX_RUN_START],
                          SBX_STYLE_TIME, s, strlen(s) < n ? strlen(s) : n);
        }
        int64_t dur = sbx_run_row_value(r, SBX_RUN_DURATION);
        if (L->col[SBX_RUN_DURATION] >= 0 && dur >= 0) {
            sbx_duration_text(dur, SBX_DUR_WORDS, d);
            int w = (int)strlen(d), c0 = L->col[SBX_RUN_DURATION], wd = L->width[SBX_RUN_DURATION];
            sbx_grid_text(g, row, c0 + (wd > w ? wd - w : 0), c0 + wd, SBX_STYLE_DURATION, d, strlen(d));
        }
        for (int c = SBX_RUN_SANDBOXES; c < SBX_RUN_NCOLS; c++) {
            if (L->col[c] < 0)
                continue;
            if (c == SBX_RUN_REVIEW || c == SBX_RUN_VERDICT) {
                review_cell(a, g, row, L, r, (enum sbx_run_col)c);
                continue;
            }
            if (r->known & (1u << c))
                number(g, row, L->col[c], L->width[c], r->count[c], count_style((enum sbx_run_col)c));
            else /* the run's sources cannot tell: not 0 */
                unknown(g, row, L->col[c], L->width[c], a->opts.ascii);
        }
    }
    if (selected)
        sbx_grid_restyle(g, row, 0, g->cols, SBX_STYLE_CURSOR);
}

static void status(struct sbx_runs_app *a, struct sbx_grid *g)
{
    int row = g->rows - 1;
    if (a->prompt) {
        sbx_grid_fill(g, row, 0, g->cols, SBX_STYLE_PROMPT);
        int col = sbx_grid_text(g, row, 0, g->cols, SBX_STYLE_PROMPT, "filter: ", 8);
        col = sbx_grid_untrusted(g, row, col, g->cols - 1, SBX_STYLE_PROMPT,
                                 a->input.p ? a->input.p : "", a->input.len);
        sbx_grid_text(g, row, col, g->cols, SBX_STYLE_CURSOR, " ", 1);
        return;
    }
    sbx_grid_fill(g, row, 0, g->cols, SBX_STYLE_STATUS);
    char right[64], b[32], c[32];
    if (a->screen == SBX_RUNS_HELP)
        snprintf(right, sizeof right, "q back");
    else
        snprintf(right, sizeof right, "%s/%s  ? help", a->norder ? sbx_thousands(a->cur + 1, b) : "0",
                 sbx_thousands(a->norder, c));
    struct sbx_buf left = SBX_BUF_INIT;
    enum sbx_style style = SBX_STYLE_STATUS;
    if (a->msg[0]) {
        sbx_buf_adds(&left, a->msg);
        style = a->msg_error ? SBX_STYLE_ERROR : style;
    } else if (a->screen == SBX_RUNS_LIST) {
        /* the selected run's stdout hash mismatch, named as the summary does */
        const struct sbx_run_row *sel = a->norder ? &a->runs->rows[a->order[a->cur]] : NULL;
        if (sel && atomic_load_explicit(&sel->state, memory_order_acquire) == SBX_RUN_READY &&
            sel->mismatches) {
            char more[48] = "";
            if (sel->mismatches > 1)
                snprintf(more, sizeof more, " and %zu more", sel->mismatches - 1);
            sbx_buf_addf(&left, "stdout hash mismatch: %s%s  ", sel->mismatch, more);
        }
        if (a->listing == SBX_RUNS_LISTING) /* the store's listing, read behind */
            sbx_buf_addf(&left, "listing: %s run%s so far  ", sbx_thousands(a->runs->n, b),
                         a->runs->n == 1 ? "" : "s");
        if (a->filter)
            sbx_buf_addf(&left, "& %s  (& changes the filter)", a->filter);
        else
            sbx_buf_adds(&left, "Enter open  m mark  c compare  < > sort  r reverse  & filter");
    }
    int rw = (int)strlen(right);
    int end = g->cols - rw - 2 > 0 ? g->cols - rw - 2 : g->cols;
    sbx_grid_untrusted(g, row, 1, end, style, left.p ? left.p : "", left.len);
    if (end < g->cols)
        sbx_grid_text(g, row, end, g->cols, SBX_STYLE_STATUS, right, (size_t)rw);
    sbx_buf_free(&left);
}

void sbx_runs_app_draw(struct sbx_runs_app *a, struct sbx_grid *g)
{
    if (a->screen == SBX_RUNS_RUN && a->app_open) {
        sbx_app_draw(&a->app, g);
        return;
    }
    if (a->screen == SBX_RUNS_COMPARE && a->cmp) {
        sbx_cmpview_draw(a->cmp, g);
        return;
    }
    if (g->cols != a->cols || g->rows != a->rows)
        sbx_grid_resize(g, a->cols, a->rows);
    sbx_grid_clear(g, SBX_STYLE_NORMAL);
    if (a->cols < SBX_MIN_COLS || a->rows < SBX_MIN_ROWS) {
        sbx_draw_too_small(g, "q quits");
        return;
    }
    header(a, g);
    if (a->screen == SBX_RUNS_HELP) {
        sbx_doc_draw(&a->help, a->help_top, g, 1, a->rows - 2);
    } else {
        struct layout L;
        lay_out(g->cols, &L);
        column_names(a, g, &L);
        size_t h = (size_t)(a->rows > 3 ? a->rows - 3 : 1);
        for (size_t r = 0; r < h && a->top + r < a->norder; r++)
            run_row(a, g, 2 + (int)r, &L, a->order[a->top + r], a->top + r == a->cur);
        if (!a->norder) {
            const char *why = "No run matches the filter (& then Enter clears it).";
            sbx_grid_text(g, 3, 2, g->cols, SBX_STYLE_NOTE, why, strlen(why));
        }
    }
    status(a, g);
}
