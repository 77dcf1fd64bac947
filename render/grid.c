#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* wcwidth */
#endif
#include "render/grid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/utf8.h"
#include "render/sanitize.h"
#include "render/untrusted.h"

void sbx_grid_init(struct sbx_grid *g, bool ascii)
{
    memset(g, 0, sizeof *g);
    g->ascii = ascii;
}

void sbx_grid_free(struct sbx_grid *g)
{
    free(g->cells);
    g->cells = NULL;
    g->cols = g->rows = 0;
}

static void blank(struct sbx_cell *c, enum sbx_style style)
{
    c->text[0] = ' ';
    c->len = 1;
    c->width = 1;
    c->style = (uint8_t)style;
}

void sbx_grid_clear(struct sbx_grid *g, enum sbx_style style)
{
    for (size_t i = 0; i < (size_t)g->cols * (size_t)g->rows; i++)
        blank(&g->cells[i], style);
}

void sbx_grid_resize(struct sbx_grid *g, int cols, int rows)
{
    if (cols < 0)
        cols = 0;
    if (rows < 0)
        rows = 0;
    if ((size_t)cols * (size_t)rows > (size_t)g->cols * (size_t)g->rows || !g->cells)
        g->cells = sbx_xrealloc(g->cells, ((size_t)cols * (size_t)rows + 1) * sizeof *g->cells);
    g->cols = cols;
    g->rows = rows;
    sbx_grid_clear(g, SBX_STYLE_NORMAL);
}

struct sbx_cell *sbx_grid_at(struct sbx_grid *g, int row, int col)
{
    if (row < 0 || col < 0 || row >= g->rows || col >= g->cols)
        return NULL;
    return &g->cells[(size_t)row * (size_t)g->cols + (size_t)col];
}

const struct sbx_cell *sbx_grid_cat(const struct sbx_grid *g, int row, int col)
{
    return sbx_grid_at((struct sbx_grid *)g, row, col);
}

static int cp_width(uint32_t cp, bool ascii)
{
    if (ascii)
        return 1;
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

size_t sbx_cluster(const char *str, size_t n, bool ascii, int *width)
{
    const unsigned char *s = (const unsigned char *)str;
    if (s[0] == '\n') {
        *width = 0;
        return 1;
    }
    if (s[0] < 0x80) {
        *width = 1;
        if (n == 1 || s[1] < 0x80)
            return 1; /* ASCII before ASCII: no marks to gather */
    }
    uint32_t cp;
    size_t len = sbx_utf8_decode(s, n, &cp);
    if (!len) {
        *width = 1;
        return 1;
    }
    *width = cp_width(cp, ascii);
    while (len < n && s[len] >= 0x80 && !ascii) {
        size_t l = sbx_utf8_decode(s + len, n - len, &cp);
        if (!l || wcwidth((wchar_t)cp) != 0)
            break;
        len += l;
    }
    return len;
}

/* Marks that start a piece of text belong to the character before them
 * (the sanitiser's dotted circle, drawn as a piece of its own): they go into
 * that cell when it has room. False when there is no such cell. */
static bool attach_marks(struct sbx_grid *g, int row, int col, const char *s, size_t len)
{
    struct sbx_cell *c = sbx_grid_at(g, row, col - 1);
    if (c && c->width == 0)
        c = sbx_grid_at(g, row, col - 2);
    if (!c || c->width == 0)
        return false;
    if (c->len + len <= sizeof c->text)
        memcpy(c->text + c->len, s, len), c->len = (uint8_t)(c->len + len);
    return true; /* marks past what a cell holds are dropped, as the sanitiser drops a third */
}

/* Puts one cluster at col; false when it does not fit before end. */
static bool put_cluster(struct sbx_grid *g, int row, int *col, int end, enum sbx_style style,
                        const char *s, size_t len, int w)
{
    if (g->ascii && (unsigned char)s[0] >= 0x80) {
        /* an ASCII grid holds ASCII only, whatever it is given */
        s = "?";
        len = 1;
        w = 1;
    }
    if (w == 0 && attach_marks(g, row, *col, s, len))
        return true;
    if (w == 0)
        w = 1; /* a mark with nothing before it on this row takes a column of its own */
    if (*col + w > end)
        return false;
    struct sbx_cell *c = sbx_grid_at(g, row, *col);
    if (!c)
        return false;
    size_t keep = len < sizeof c->text ? len : 0;
    if (!keep) { /* more marks than a cell holds: keep the base character's bytes */
        int bw;
        keep = sbx_cluster(s, len, true, &bw);
        if (keep >= sizeof c->text)
            keep = 0;
    }
    memcpy(c->text, s, keep);
    if (!keep) {
        c->text[0] = '?';
        keep = 1;
    }
    c->len = (uint8_t)keep;
    c->width = (uint8_t)w;
    c->style = (uint8_t)style;
    if (w == 2) {
        struct sbx_cell *r = sbx_grid_at(g, row, *col + 1);
        r->len = 0;
        r->width = 0;
        r->style = (uint8_t)style;
    }
    *col += w;
    return true;
}

int sbx_grid_text(struct sbx_grid *g, int row, int col, int end, enum sbx_style style,
                  const char *s, size_t n)
{
    if (row < 0 || row >= g->rows)
        return col;
    if (end > g->cols)
        end = g->cols;
    for (size_t i = 0; i < n;) {
        if (s[i] == '\n')
            break;
        int w;
        size_t len = sbx_cluster(s + i, n - i, g->ascii, &w);
        if (col >= end && !(w == 0 && !g->ascii))
            break; /* full: only marks for the last character may still come */
        if (!put_cluster(g, row, &col, end, style, s + i, len, w)) {
            sbx_grid_fill(g, row, col, end, style); /* a wide character that does not fit */
            return end;
        }
        i += len;
    }
    return col;
}

int sbx_grid_textf(struct sbx_grid *g, int row, int col, int end, enum sbx_style style,
                   const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return col;
    return sbx_grid_text(g, row, col, end, style, small,
                         (size_t)n < sizeof small ? (size_t)n : sizeof small - 1);
}

/* Width of the safe text s, stopping once it passes limit. */
static int width_upto(const char *s, size_t n, bool ascii, int limit)
{
    int w = 0;
    for (size_t i = 0; i < n && w <= limit;) {
        int cw;
        i += sbx_cluster(s + i, n - i, ascii, &cw);
        w += cw;
    }
    return w;
}

int sbx_grid_untrusted(struct sbx_grid *g, int row, int col, int end, enum sbx_style style,
                       const char *s, size_t n)
{
    if (row < 0 || row >= g->rows)
        return col;
    if (end > g->cols)
        end = g->cols;
    const char *ell = g->ascii ? ">" : "\xe2\x80\xa6";
    /* redacted before the cut at the edge (render/untrusted.h) */
    struct sbx_buf red = SBX_BUF_INIT;
    s = sbx_untrusted_redact(&red, s, n, &n);
    struct sbx_sanitizer z;
    struct sbx_seg seg;
    sbx_san_begin(&z, s, n, SBX_SAN_ONE_LINE | (g->ascii ? SBX_SAN_ASCII : 0));
    while (col < end && sbx_san_next(&z, &seg)) {
        enum sbx_style st = seg.kind == SBX_SEG_ESCAPE ? SBX_STYLE_ESCAPE : style;
        int room = end - col;
        if (seg.width < room || (seg.width == room && z.i >= z.n)) {
            col = sbx_grid_text(g, row, col, end, st, seg.text, seg.len);
            continue;
        }
        /* this segment reaches the edge: put what fits before the last
         * column, then the ellipsis there unless the text ends exactly */
        bool last = z.i >= z.n && width_upto(seg.text, seg.len, g->ascii, room) <= room;
        int stop = last ? end : end - 1;
        for (size_t i = 0; i < seg.len;) {
            int w;
            size_t len = sbx_cluster(seg.text + i, seg.len - i, g->ascii, &w);
            if (!put_cluster(g, row, &col, stop, st, seg.text + i, len, w))
                break;
            i += len;
        }
        if (!last) {
            sbx_grid_fill(g, row, col, end - 1, style);
            sbx_grid_text(g, row, end - 1, end, style, ell, strlen(ell));
            col = end;
        }
        break;
    }
    sbx_buf_free(&red);
    return col;
}

int sbx_grid_untrusted_tail(struct sbx_grid *g, int row, int col, int end, enum sbx_style style,
                            const char *s, size_t n)
{
    if (row < 0 || row >= g->rows)
        return col;
    if (end > g->cols)
        end = g->cols;
    const char *raw = s;
    size_t raw_n = n;
    struct sbx_buf red = SBX_BUF_INIT;
    s = sbx_untrusted_redact(&red, s, n, &n);
    unsigned flags = SBX_SAN_ONE_LINE | (g->ascii ? SBX_SAN_ASCII : 0);
    struct sbx_sanitizer z;
    struct sbx_seg seg;
    int total = 0;
    sbx_san_begin(&z, s, n, flags);
    while (sbx_san_next(&z, &seg))
        total += seg.width;
    int room = end - col;
    if (total <= room || room < 2) {
        sbx_buf_free(&red);
        return sbx_grid_untrusted(g, row, col, end, style, raw, raw_n);
    }
    /* the ellipsis, then the clusters that fit in the rest, from the end */
    const char *ell = g->ascii ? "<" : "\xe2\x80\xa6";
    col = sbx_grid_text(g, row, col, end, style, ell, strlen(ell));
    int skip = total - (end - col); /* columns to leave out at the start */
    sbx_san_begin(&z, s, n, flags);
    while (col < end && sbx_san_next(&z, &seg)) {
        enum sbx_style st = seg.kind == SBX_SEG_ESCAPE ? SBX_STYLE_ESCAPE : style;
        if (skip > 0 && seg.kind == SBX_SEG_ESCAPE) {
            skip -= seg.width; /* an escape's name across the cut is left out whole */
            continue;
        }
        for (size_t i = 0; i < seg.len;) {
            int w;
            size_t len = sbx_cluster(seg.text + i, seg.len - i, g->ascii, &w);
            if (skip > 0)
                skip -= w; /* so is a wide cluster */
            else if (!put_cluster(g, row, &col, end, st, seg.text + i, len, w))
                break;
            i += len;
        }
    }
    sbx_buf_free(&red);
    return col;
}

void sbx_grid_fill(struct sbx_grid *g, int row, int col, int end, enum sbx_style style)
{
    if (end > g->cols)
        end = g->cols;
    for (int c = col < 0 ? 0 : col; c < end; c++) {
        struct sbx_cell *cell = sbx_grid_at(g, row, c);
        if (cell)
            blank(cell, style);
    }
}

void sbx_grid_restyle(struct sbx_grid *g, int row, int col, int end, enum sbx_style style)
{
    if (end > g->cols)
        end = g->cols;
    for (int c = col < 0 ? 0 : col; c < end; c++) {
        struct sbx_cell *cell = sbx_grid_at(g, row, c);
        if (cell)
            cell->style = (uint8_t)style;
    }
}

void sbx_grid_highlight(struct sbx_grid *g, int row, int col, int end, sbx_grid_find_fn find,
                        const void *ctx, enum sbx_style style)
{
    if (row < 0 || row >= g->rows || !find)
        return;
    if (end > g->cols)
        end = g->cols;
    if (col < 0)
        col = 0;
    if (col >= end)
        return;
    struct sbx_buf text = SBX_BUF_INIT;
    int *at = sbx_xmalloc(((size_t)(end - col) * sizeof((struct sbx_cell *)0)->text + 1) * sizeof *at);
    for (int c = col; c < end; c++) {
        const struct sbx_cell *cell = sbx_grid_cat(g, row, c);
        for (size_t k = 0; k < cell->len; k++)
            at[text.len + k] = c;
        sbx_buf_add(&text, cell->text, cell->len);
    }
    size_t from = 0, b, e;
    while (text.len && from <= text.len && find(ctx, text.p, text.len, from, &b, &e)) {
        if (e <= b) { /* an empty match: step on */
            from = b + 1;
            continue;
        }
        int c0 = at[b], c1 = at[e - 1];
        const struct sbx_cell *last = sbx_grid_cat(g, row, c1);
        sbx_grid_restyle(g, row, c0, c1 + (last->width == 2 ? 2 : 1), style);
        from = e;
    }
    free(at);
    sbx_buf_free(&text);
}

void sbx_grid_dump(const struct sbx_grid *g, bool styles, struct sbx_buf *out)
{
    for (int r = 0; r < g->rows; r++) {
        size_t keep = out->len;
        for (int c = 0; c < g->cols; c++) {
            const struct sbx_cell *cell = sbx_grid_cat(g, r, c);
            sbx_buf_add(out, cell->text, cell->len);
            if (!(cell->len == 1 && cell->text[0] == ' '))
                keep = out->len;
        }
        out->len = keep;
        sbx_buf_addc(out, '\n');
        if (!styles)
            continue;
        sbx_buf_adds(out, "  ^");
        for (int c = 0; c < g->cols;) {
            int s = sbx_grid_cat(g, r, c)->style, e = c;
            while (e + 1 < g->cols && sbx_grid_cat(g, r, e + 1)->style == s)
                e++;
            sbx_buf_addf(out, "%s %d-%d %s", c ? "," : "", c, e, sbx_style_name((enum sbx_style)s));
            c = e + 1;
        }
        sbx_buf_addc(out, '\n');
    }
}
