/* Drawing the compare view, and the output diff of a pair. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/compare/linediff.h"
#include "analyses/secrets/secrets.h"
#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/compare/compare.h"
#include "render/sanitize.h"
#include "render/views/views.h"
#include "app/app_cmp_internal.h"
#include "app/app_headline.h"


static enum sbx_style kind_style(enum sbx_cmp_kind k)
{
    switch (k) {
    case SBX_CMP_SAME: return SBX_STYLE_CMP_SAME;
    case SBX_CMP_CHANGED: return SBX_STYLE_CMP_CHANGED;
    case SBX_CMP_REPLACED: return SBX_STYLE_CMP_REPLACED;
    case SBX_CMP_ONLY_A: return SBX_STYLE_CMP_ONLY_A;
    case SBX_CMP_ONLY_B: return SBX_STYLE_CMP_ONLY_B;
    case SBX_CMP_MOVED: return SBX_STYLE_CMP_MOVED;
    case SBX_CMP_KIND_COUNT: break;
    }
    return SBX_STYLE_NORMAL;
}

const struct sbx_event *sbx_cmpview_event(const struct sbx_cmpview *v, size_t r, int s)
{
    const struct sbx_cmp_row *row = &v->cmp.rows[r];
    size_t i = s ? row->b : row->a;
    if (i == SBX_CMP_NONE)
        return NULL;
    return s ? v->cmp.cmd_b[i].ev : v->cmp.cmd_a[i].ev;
}

/* The pair behind row r: its own two sides, or a moved half with its partner's. */
static void pair_of(const struct sbx_cmpview *v, size_t r, const struct sbx_event **ea,
                    const struct sbx_event **eb)
{
    *ea = sbx_cmpview_event(v, r, 0);
    *eb = sbx_cmpview_event(v, r, 1);
    size_t p = v->cmp.rows[r].partner;
    if (v->cmp.rows[r].kind == SBX_CMP_MOVED && p != SBX_CMP_NONE && p < v->cmp.nrows) {
        if (!*ea)
            *ea = sbx_cmpview_event(v, p, 0);
        if (!*eb)
            *eb = sbx_cmpview_event(v, p, 1);
    }
}

static const char *redact(struct sbx_cmp_side *sd, const char *s, size_t n, size_t *len)
{
    if (!sd->scratch) {
        *len = n;
        return s;
    }
    sbx_buf_clear(&sd->red);
    sbx_secrets_redact(sd->sum.patterns, sd->scratch, s, n, &sd->red);
    *len = sd->red.len;
    return sd->red.p ? sd->red.p : "";
}

const char *sbx_cmpview_command(struct sbx_cmpview *v, int s, const struct sbx_event *e, size_t *n)
{
    struct sbx_cmp_side *sd = &v->side[s];
    if (!(e->u.cmd.command.flags & SBX_TEXT_PRESENT)) {
        const char *p = sbx_str(&sd->tl, e->u.cmd.program);
        *n = strlen(p);
        return p;
    }
    sbx_buf_clear(&sd->text);
    size_t len;
    const char *t = sbx_text_get(&sd->tl, e, &e->u.cmd.command, &sd->text, &len);
    return redact(sd, t, len, n);
}

static void exit_text(const struct sbx_event *e, char *b, size_t n)
{
    if (!e)
        snprintf(b, n, " ");
    else if (e->u.cmd.flags & SBX_CMD_TIMED_OUT)
        snprintf(b, n, "T/O");
    else if (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN)
        snprintf(b, n, "%d", sbx_cmd_exit(&e->u.cmd));
    else
        snprintf(b, n, "?");
}

static bool failed(const struct sbx_event *e)
{
    return e && sbx_command_failed(&e->u.cmd);
}

/* One side's cell: time, exit code, command, in [col, end). */
static void cell(struct sbx_cmpview *v, struct sbx_grid *g, int row, int col, int end, int s,
                 const struct sbx_event *e, enum sbx_style style, bool exit_differs)
{
    if (!e) {
        sbx_grid_fill(g, row, col, end, SBX_STYLE_CMP_GAP);
        return;
    }
    char clock[32], ex[16];
    sbx_clock(e->start, v->opts.local, clock);
    clock[8] = '\0';
    if (end - col > 40) {
        col = sbx_grid_text(g, row, col, end, SBX_STYLE_TIME, clock, strlen(clock));
        col = sbx_grid_text(g, row, col, end, SBX_STYLE_NORMAL, " ", 1);
    }
    exit_text(e, ex, sizeof ex);
    char padded[24];
    snprintf(padded, sizeof padded, "%3s ", ex);
    col = sbx_grid_text(g, row, col, end,
                        exit_differs ? SBX_STYLE_CMP_CHANGED
                        : failed(e)  ? SBX_STYLE_FAILED
                                     : SBX_STYLE_EXIT_OK,
                        padded, strlen(padded));
    size_t n;
    const char *t = sbx_cmpview_command(v, s, e, &n);
    sbx_grid_untrusted(g, row, col, end, style, t, n);
}

static void header(struct sbx_cmpview *v, struct sbx_grid *g)
{
    const char *dot = v->opts.ascii ? " - " : " \xc2\xb7 ";
    const struct sbx_compare *c = &v->cmp;
    struct sbx_buf h = SBX_BUF_INIT;
    sbx_buf_adds(&h, " sbxview");
    /* the names are file names: only printable ASCII of them is put in the header */
    struct sbx_buf names = SBX_BUF_INIT;
    for (int s = 0; s < 2; s++) {
        sbx_buf_adds(&names, s ? (v->opts.ascii ? " vs B " : " \xe2\x87\x84 B ") : "A ");
        for (const char *p = v->side[s].name; *p && p - v->side[s].name < 40; p++)
            sbx_buf_addc(&names, *p > 0x20 && *p < 0x7f ? *p : '?');
    }
    sbx_headline_part(&h, g->cols, dot, "%s", names.p);
    sbx_buf_free(&names);
    if (v->diff) {
        const struct sbx_cmp_row *r = &c->rows[v->cur];
        sbx_headline_part(&h, g->cols, dot, "outputs of row %zu (%s)", v->cur + 1,
                          sbx_cmp_kind_name(r->kind));
    } else {
        static const char *const words[SBX_CMP_KIND_COUNT] = {"same", "changed", "replaced",
                                                              "only in A", "only in B", "moved"};
        static const enum sbx_cmp_kind order[] = {SBX_CMP_CHANGED, SBX_CMP_REPLACED, SBX_CMP_ONLY_A,
                                                  SBX_CMP_ONLY_B, SBX_CMP_MOVED, SBX_CMP_SAME};
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
            if (c->count[order[i]] || order[i] == SBX_CMP_SAME)
                sbx_headline_part(&h, g->cols, dot, "%zu %s", c->count[order[i]], words[order[i]]);
    }
    sbx_grid_fill(g, 0, 0, g->cols, SBX_STYLE_HEADER);
    sbx_grid_text(g, 0, 0, g->cols, SBX_STYLE_HEADER, h.p, h.len);
    sbx_buf_free(&h);
}

static size_t one_run_files(const struct sbx_compare *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nfiles; i++)
        n += c->files[i].change_a < 0 || c->files[i].change_b < 0 ||
             c->files[i].change_a != c->files[i].change_b;
    return n;
}

static size_t differing(const struct sbx_cmp_count *v, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += v[i].a != v[i].b;
    return k;
}

static int popcount(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* The run-level differences, counted, on row 1. */
static void run_level(struct sbx_cmpview *v, struct sbx_grid *g)
{
    const struct sbx_compare *c = &v->cmp;
    const char *dot = v->opts.ascii ? " - " : " \xc2\xb7 ";
    struct sbx_buf h = SBX_BUF_INIT;
    bool any = c->nonly_a || c->nonly_b || c->nfail_new || c->nfail_gone || c->nhosts ||
               one_run_files(c) || differing(c->account, c->naccount) ||
               differing(c->secrets, c->nsecrets) || c->findings_new || c->findings_gone ||
               c->findings_unchecked_a || c->findings_unchecked_b;
    sbx_buf_adds(&h, any ? " runs differ:" : " no difference between the runs as a whole");
    if (any) {
        sbx_headline_part(&h, g->cols, " ", "failures %zu new, %zu gone", c->nfail_new,
                          c->nfail_gone);
        sbx_headline_part(&h, g->cols, dot, "commands %zu only in A, %zu only in B", c->nonly_a,
                          c->nonly_b);
        sbx_headline_part(&h, g->cols, dot, "hosts %zu", c->nhosts);
        sbx_headline_part(&h, g->cols, dot, "files %zu", one_run_files(c));
        sbx_headline_part(&h, g->cols, dot, "account %zu", differing(c->account, c->naccount));
        sbx_headline_part(&h, g->cols, dot, "secrets %zu", differing(c->secrets, c->nsecrets));
        sbx_headline_part(&h, g->cols, dot, "findings %d new, %d gone", popcount(c->findings_new),
                          popcount(c->findings_gone));
        if (c->findings_unchecked_a || c->findings_unchecked_b)
            sbx_headline_part(&h, g->cols, dot, "%d not checked",
                              popcount(c->findings_unchecked_a | c->findings_unchecked_b));
    }
    sbx_grid_text(g, 1, 0, g->cols, any ? SBX_STYLE_WARNING : SBX_STYLE_GOOD, h.p, h.len);
    sbx_buf_free(&h);
}

static void wide_rows(struct sbx_cmpview *v, struct sbx_grid *g)
{
    int mid = 2 + (g->cols - 3) / 2;
    const char *bar = v->opts.ascii ? "|" : "\xe2\x94\x82";
    for (int s = 0; s < 2; s++) {
        int col = s ? mid + 1 : 2, end = s ? g->cols : mid;
        col = sbx_grid_text(g, 2, col, end, SBX_STYLE_HEADING, s ? "B " : "A ", 2);
        const char *name = v->side[s].name;
        sbx_grid_untrusted(g, 2, col, end, SBX_STYLE_HEADING, name, strlen(name));
    }
    sbx_grid_text(g, 2, mid, mid + 1, SBX_STYLE_NOTE, bar, strlen(bar));
    size_t h = sbx_cmpview_body(v);
    for (size_t r = 0; r < h; r++) {
        size_t i = v->top + r;
        int row = 3 + (int)r;
        if (i >= v->cmp.nrows)
            break;
        const struct sbx_cmp_row *cr = &v->cmp.rows[i];
        enum sbx_style st = kind_style(cr->kind);
        char mark = sbx_cmp_marker(cr->kind);
        sbx_grid_text(g, row, 0, 1, st, &mark, 1);
        bool ex = cr->diff & SBX_CMP_D_EXIT;
        cell(v, g, row, 2, mid - 1, 0, sbx_cmpview_event(v, i, 0), st, ex);
        sbx_grid_text(g, row, mid, mid + 1, SBX_STYLE_NOTE, bar, strlen(bar));
        cell(v, g, row, mid + 2, g->cols, 1, sbx_cmpview_event(v, i, 1), st, ex);
        if (i == v->cur)
            sbx_grid_restyle(g, row, 0, g->cols, SBX_STYLE_CURSOR);
    }
}

/* Narrow: one line per row (mark, both exits, a command), then the
 * selected pair, A above B. */
static void narrow_rows(struct sbx_cmpview *v, struct sbx_grid *g)
{
    size_t h = sbx_cmpview_body(v);
    for (size_t r = 0; r < h; r++) {
        size_t i = v->top + r;
        int row = 2 + (int)r;
        if (i >= v->cmp.nrows)
            break;
        const struct sbx_cmp_row *cr = &v->cmp.rows[i];
        enum sbx_style st = kind_style(cr->kind);
        const struct sbx_event *ea = sbx_cmpview_event(v, i, 0), *eb = sbx_cmpview_event(v, i, 1);
        char mark = sbx_cmp_marker(cr->kind), xa[16], xb[16], exits[40];
        sbx_grid_text(g, row, 0, 1, st, &mark, 1);
        exit_text(ea, xa, sizeof xa);
        exit_text(eb, xb, sizeof xb);
        snprintf(exits, sizeof exits, "%3s %-3s ", ea ? xa : "-", eb ? xb : "-");
        int col = sbx_grid_text(g, row, 2, g->cols,
                                cr->diff & SBX_CMP_D_EXIT ? SBX_STYLE_CMP_CHANGED : SBX_STYLE_EXIT_OK,
                                exits, strlen(exits));
        size_t n;
        const char *t = sbx_cmpview_command(v, ea ? 0 : 1, ea ? ea : eb, &n);
        sbx_grid_untrusted(g, row, col, g->cols, st, t, n);
        if (i == v->cur)
            sbx_grid_restyle(g, row, 0, g->cols, SBX_STYLE_CURSOR);
    }
    /* the selected pair */
    int row = 2 + (int)h;
    const char *rule = v->opts.ascii ? "-" : "\xe2\x94\x80";
    for (int c = 0; c < g->cols; c++)
        sbx_grid_text(g, row, c, c + 1, SBX_STYLE_NOTE, rule, strlen(rule));
    if (!v->cmp.nrows)
        return;
    const struct sbx_cmp_row *cr = &v->cmp.rows[v->cur];
    struct sbx_buf what = SBX_BUF_INIT;
    sbx_buf_addf(&what, " %s", sbx_cmp_kind_name(cr->kind));
    static const char *const diffs[] = {"exit", "duration", "stdout hash", "output"};
    for (int b = 0; b < 4; b++)
        if (cr->diff & (1u << b))
            sbx_buf_addf(&what, "%s%s", what.len && strchr(what.p, ':') ? ", " : ": ", diffs[b]);
    sbx_buf_addc(&what, ' ');
    sbx_grid_text(g, row, 2, g->cols, kind_style(cr->kind), what.p, what.len);
    sbx_buf_free(&what);
    const struct sbx_event *ea, *eb;
    pair_of(v, v->cur, &ea, &eb);
    for (int s = 0; s < 2; s++) {
        int col = sbx_grid_text(g, row + 1 + s, 0, g->cols, SBX_STYLE_HEADING, s ? "B" : "A", 1);
        cell(v, g, row + 1 + s, col + 1, g->cols, s, s ? eb : ea, SBX_STYLE_NORMAL,
             cr->diff & SBX_CMP_D_EXIT);
    }
}

static void status(struct sbx_cmpview *v, struct sbx_grid *g)
{
    int row = g->rows - 1;
    sbx_grid_fill(g, row, 0, g->cols, SBX_STYLE_STATUS);
    char right[64];
    if (v->diff) {
        size_t h = (size_t)(v->rows > 2 ? v->rows - 2 : 1);
        if (v->doc.nrows <= h)
            snprintf(right, sizeof right, "q back  ? help");
        else
            snprintf(right, sizeof right, "%zu%%  q back  ? help",
                     (v->doc_top + h) * 100 / v->doc.nrows > 100 ? 100 : (v->doc_top + h) * 100 / v->doc.nrows);
    } else {
        snprintf(right, sizeof right, "%zu/%zu  ? help", v->cmp.nrows ? v->cur + 1 : 0, v->cmp.nrows);
    }
    int rw = (int)strlen(right);
    const char *left = v->msg[0] ? v->msg
                       : v->diff ? "- A only  + B only"
                       : g->cols < 70 ? "] [ differences"
                                      : "] [ next and previous difference  Enter the outputs";
    int end = g->cols - rw - 2 > 0 ? g->cols - rw - 2 : g->cols;
    sbx_grid_untrusted(g, row, 1, end, SBX_STYLE_STATUS, left, strlen(left));
    if (end < g->cols)
        sbx_grid_text(g, row, end, g->cols, SBX_STYLE_STATUS, right, (size_t)rw);
}

void sbx_cmpview_draw(struct sbx_cmpview *v, struct sbx_grid *g)
{
    if (g->cols != v->cols || g->rows != v->rows)
        sbx_grid_resize(g, v->cols, v->rows);
    sbx_grid_clear(g, SBX_STYLE_NORMAL);
    if (v->cols < SBX_MIN_COLS || v->rows < SBX_MIN_ROWS) {
        sbx_draw_too_small(g, "q closes the view");
        return;
    }
    header(v, g);
    if (v->diff) {
        sbx_doc_draw(&v->doc, v->doc_top, g, 1, v->rows - 2);
    } else {
        run_level(v, g);
        if (!v->cmp.nrows) {
            const char *why = "Neither run has a command.";
            sbx_grid_text(g, 3, 2, g->cols, SBX_STYLE_NOTE, why, strlen(why));
        } else if (sbx_cmpview_wide(v)) {
            wide_rows(v, g);
        } else {
            narrow_rows(v, g);
        }
    }
    status(v, g);
}

/* ---- the output diff ---- */

static void diff_line(struct sbx_doc *d, char sign, enum sbx_style st, const char *s, size_t n)
{
    char p[3] = {sign, ' ', '\0'};
    sbx_doc_adds(d, st, p);
    sbx_doc_untrusted(d, st, s, n, true);
    sbx_doc_end_line(d);
}

/* The lines of text a (side A's, redacted) against b, as a diff. */
static void text_diff(struct sbx_doc *d, const char *ta, size_t na, const char *tb, size_t nb)
{
    static const char signs[] = {[SBX_LINE_KEPT] = ' ', [SBX_LINE_DELETED] = '-',
                                 [SBX_LINE_ADDED] = '+'};
    static const enum sbx_style styles[] = {[SBX_LINE_KEPT] = SBX_STYLE_NORMAL,
                                            [SBX_LINE_DELETED] = SBX_STYLE_DIFF_DEL,
                                            [SBX_LINE_ADDED] = SBX_STYLE_DIFF_ADD};
    struct sbx_linediff ld;
    sbx_linediff(ta, na, tb, nb, &ld);
    for (size_t i = 0; i < ld.n; i++)
        diff_line(d, signs[ld.lines[i].op], styles[ld.lines[i].op], ld.lines[i].p, ld.lines[i].len);
    if (ld.limited) {
        sbx_doc_addf(d, SBX_STYLE_NOTE, "(only the first %d lines of each are compared)",
                     SBX_LINEDIFF_MAX_LINES);
        sbx_doc_end_line(d);
    }
    sbx_linediff_free(&ld);
}

/* The text of field f of side s's event, redacted, copied into *out. */
static void field_text(struct sbx_cmpview *v, int s, const struct sbx_event *e, bool err,
                       struct sbx_buf *out)
{
    sbx_buf_clear(out);
    if (!e)
        return;
    const struct sbx_text err_text = sbx_cmd_err(&e->u.cmd);
    const struct sbx_text *t = err ? &err_text : &e->u.cmd.out;
    if (!(t->flags & SBX_TEXT_PRESENT))
        return;
    struct sbx_cmp_side *sd = &v->side[s];
    sbx_buf_clear(&sd->text);
    size_t n;
    const char *raw = sbx_text_get(&sd->tl, e, t, &sd->text, &n);
    const char *r = redact(sd, raw, n, &n);
    sbx_buf_add(out, r, n);
}

static const char *duration(const struct sbx_event *e, char *b)
{
    if (!e)
        return "-";
    if (!(e->u.cmd.flags & SBX_CMD_MS_KNOWN))
        return "?";
    return sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(&e->u.cmd)), SBX_DUR_WORDS, b);
}

void sbx_cmpview_diff_doc(struct sbx_cmpview *v)
{
    struct sbx_doc *d = &v->doc;
    sbx_doc_reset(d, v->cols);
    if (v->cur >= v->cmp.nrows)
        return;
    const struct sbx_cmp_row *cr = &v->cmp.rows[v->cur];
    const struct sbx_event *ev[2];
    pair_of(v, v->cur, &ev[0], &ev[1]);
    for (int s = 0; s < 2; s++) {
        sbx_doc_set_indent(d, 4);
        sbx_doc_adds(d, s ? SBX_STYLE_CMP_ONLY_B : SBX_STYLE_CMP_ONLY_A, s ? "B " : "A ");
        sbx_doc_untrusted(d, SBX_STYLE_HEADING, v->side[s].name, strlen(v->side[s].name), true);
        sbx_doc_adds(d, SBX_STYLE_NORMAL, "  ");
        if (ev[s]) {
            size_t n;
            const char *t = sbx_cmpview_command(v, s, ev[s], &n);
            sbx_doc_untrusted(d, SBX_STYLE_NORMAL, t, n, true);
        } else {
            sbx_doc_adds(d, SBX_STYLE_NOTE, "(not run)");
        }
        sbx_doc_end_line(d);
    }
    sbx_doc_set_indent(d, 0);
    char xa[16], xb[16], da[32], db[32];
    exit_text(ev[0], xa, sizeof xa);
    exit_text(ev[1], xb, sizeof xb);
    sbx_doc_addf(d, SBX_STYLE_FIELD, "exit      ");
    sbx_doc_addf(d, cr->diff & SBX_CMP_D_EXIT ? SBX_STYLE_CMP_CHANGED : SBX_STYLE_NORMAL, "%s %s %s",
                 ev[0] ? xa : "-", v->opts.ascii ? "->" : "\xe2\x86\x92", ev[1] ? xb : "-");
    sbx_doc_end_line(d);
    sbx_doc_addf(d, SBX_STYLE_FIELD, "duration  ");
    sbx_doc_addf(d, cr->diff & SBX_CMP_D_DURATION ? SBX_STYLE_CMP_CHANGED : SBX_STYLE_NORMAL,
                 "%s %s %s", duration(ev[0], da), v->opts.ascii ? "->" : "\xe2\x86\x92",
                 duration(ev[1], db));
    if (cr->ratio > 0 && (cr->diff & SBX_CMP_D_DURATION)) {
        int64_t pct = sbx_round_nearest(cr->ratio * 100); /* as duration_ratio_pct */
        sbx_doc_addf(d, SBX_STYLE_NOTE, " (B takes %lld.%02lld times A's)", (long long)(pct / 100),
                     (long long)(pct % 100));
    }
    sbx_doc_end_line(d);
    if (cr->diff & SBX_CMP_D_STDOUT_HASH) {
        sbx_doc_adds(d, SBX_STYLE_FIELD, "stdout hash ");
        sbx_doc_adds(d, SBX_STYLE_CMP_CHANGED, "differs");
        sbx_doc_end_line(d);
    }
    struct sbx_buf ta = SBX_BUF_INIT, tb = SBX_BUF_INIT;
    for (int f = 0; f < 2; f++) {
        sbx_doc_end_line(d);
        field_text(v, 0, ev[0], f == 1, &ta);
        field_text(v, 1, ev[1], f == 1, &tb);
        sbx_doc_adds(d, SBX_STYLE_HEADING, f ? "stderr" : "stdout");
        bool same = ta.len == tb.len && (!ta.len || memcmp(ta.p, tb.p, ta.len) == 0);
        sbx_doc_adds(d, SBX_STYLE_NOTE, !ta.len && !tb.len ? "  (empty in both)"
                                        : same              ? "  (the same in both)"
                                                            : "  (- A only, + B only)");
        sbx_doc_end_line(d);
        if (ta.len || tb.len)
            text_diff(d, ta.p ? ta.p : "", ta.len, tb.p ? tb.p : "", tb.len);
    }
    sbx_buf_free(&ta);
    sbx_buf_free(&tb);
}

void sbx_cmpview_open_diff(struct sbx_cmpview *v)
{
    if (!v->cmp.nrows)
        return;
    v->diff = true;
    v->doc_top = 0;
    sbx_cmpview_diff_doc(v);
}
