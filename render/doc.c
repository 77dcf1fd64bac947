#include "render/doc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/sanitize.h"
#include "render/untrusted.h"

void sbx_doc_init(struct sbx_doc *d, int width, bool ascii)
{
    memset(d, 0, sizeof *d);
    d->width = width < 1 ? 1 : width;
    d->ascii = ascii;
    d->target = -1;
}

void sbx_doc_free(struct sbx_doc *d)
{
    sbx_buf_free(&d->text);
    free(d->spans);
    free(d->rows);
    memset(d, 0, sizeof *d);
}

void sbx_doc_reset(struct sbx_doc *d, int width)
{
    sbx_buf_clear(&d->text);
    d->nspans = d->nrows = 0;
    d->width = width < 1 ? 1 : width;
    d->col = 0;
    d->open = false;
    d->target = -1;
    d->indent = 0;
}

void sbx_doc_set_target(struct sbx_doc *d, int32_t target)
{
    d->target = target;
    if (d->open) /* the rows the current line already wrapped onto too */
        for (size_t r = d->line_row0; r < d->nrows; r++)
            d->rows[r].target = target;
}

void sbx_doc_set_indent(struct sbx_doc *d, int indent)
{
    d->indent = indent < d->width / 2 ? indent : d->width / 2;
}

static void start_row(struct sbx_doc *d)
{
    if (!d->open && !d->wrapping)
        d->line_row0 = d->nrows; /* a new line, not a wrapped row of one */
    SBX_GROW(d->rows, d->nrows, d->caprows);
    d->rows[d->nrows++] = (struct sbx_doc_row){d->nspans, 0, d->target};
    d->open = true;
    d->col = 0;
}

/* Appends text known to fit the current row. */
static void append(struct sbx_doc *d, enum sbx_style style, const char *s, size_t n, int w)
{
    if (!d->open)
        start_row(d);
    struct sbx_doc_row *r = &d->rows[d->nrows - 1];
    struct sbx_doc_span *last = r->nspans ? &d->spans[d->nspans - 1] : NULL;
    if (last && last->style == style && last->off + last->len == d->text.len && last->len + n < UINT32_MAX) {
        last->len += (uint32_t)n;
    } else {
        SBX_GROW(d->spans, d->nspans, d->capspans);
        d->spans[d->nspans++] = (struct sbx_doc_span){d->text.len, (uint32_t)n, (uint8_t)style};
        r->nspans++;
    }
    sbx_buf_add(&d->text, s, n);
    d->col += w;
    d->wrapped = n == 0 ? d->wrapped : false;
}

static void wrap(struct sbx_doc *d, enum sbx_style style)
{
    d->open = false;
    d->wrapping = true;
    start_row(d);
    d->wrapping = false;
    if (d->indent) {
        static const char blanks[] = "                                                                ";
        int n = d->indent < (int)sizeof blanks - 1 ? d->indent : (int)sizeof blanks - 1;
        append(d, style, blanks, (size_t)n, n);
    }
    d->wrapped = true;
}

void sbx_doc_add(struct sbx_doc *d, enum sbx_style style, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (s[i] == '\n') {
            sbx_doc_end_line(d);
            i++;
            continue;
        }
        /* the space a row was wrapped at goes, unless marks sit on it */
        if (d->wrapped && s[i] == ' ' && (i + 1 == n || (unsigned char)s[i + 1] < 0x80)) {
            i++;
            continue;
        }
        /* the longest run that fits the row, cluster by cluster */
        size_t j = i;
        int w = 0;
        if (!d->open)
            start_row(d);
        while (j < n && s[j] != '\n') {
            int cw;
            size_t len = sbx_cluster(s + j, n - j, d->ascii, &cw);
            if (d->col + w + cw > d->width)
                break;
            w += cw;
            j += len;
        }
        /* wrap at a word: the last space of this piece that fits, when the
         * piece goes on past the row's end (words longer than a row are cut) */
        if (j < n && s[j] != '\n' && s[j] != ' ' && j > i) {
            size_t k = j;
            for (;;) {
                while (k > i && s[k - 1] != ' ')
                    k--;
                int kw = 1;
                if (k > i && (unsigned char)s[k] >= 0x80)
                    sbx_cluster(s + k, n - k, d->ascii, &kw);
                if (kw != 0)
                    break;
                k--; /* marks sit on this space: it is not a place to break */
            }
            if (k > i) {
                w = 0;
                for (size_t m = i; m < k;) {
                    int cw;
                    m += sbx_cluster(s + m, k - m, d->ascii, &cw);
                    w += cw;
                }
                j = k;
            }
        }
        if (j > i)
            append(d, style, s + i, j - i, w);
        if (j < n && s[j] != '\n') {
            if (j == i && d->col == d->indent) {
                /* wider than a whole row (a wide character in 1 column): skip it */
                int cw;
                j += sbx_cluster(s + j, n - j, d->ascii, &cw);
            } else {
                wrap(d, style);
            }
        }
        i = j;
    }
}

void sbx_doc_adds(struct sbx_doc *d, enum sbx_style style, const char *s)
{
    sbx_doc_add(d, style, s, strlen(s));
}

void sbx_doc_addf(struct sbx_doc *d, enum sbx_style style, const char *fmt, ...)
{
    struct sbx_buf b = SBX_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    char small[512];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sbx_doc_add(d, style, small, (size_t)n);
        return;
    }
    sbx_buf_reserve(&b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b.p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sbx_doc_add(d, style, b.p, (size_t)n);
    sbx_buf_free(&b);
}

void sbx_doc_untrusted(struct sbx_doc *d, enum sbx_style style, const char *s, size_t n,
                       bool one_line)
{
    struct sbx_buf red = SBX_BUF_INIT; /* redacted before it is wrapped (render/untrusted.h) */
    s = sbx_untrusted_redact(&red, s, n, &n);
    struct sbx_sanitizer z;
    struct sbx_seg seg;
    sbx_san_begin(&z, s, n, (one_line ? SBX_SAN_ONE_LINE : 0) | (d->ascii ? SBX_SAN_ASCII : 0));
    while (sbx_san_next(&z, &seg)) {
        if (seg.kind == SBX_SEG_NEWLINE)
            sbx_doc_end_line(d);
        else
            sbx_doc_add(d, seg.kind == SBX_SEG_ESCAPE ? SBX_STYLE_ESCAPE : style, seg.text, seg.len);
    }
    sbx_buf_free(&red);
}

void sbx_doc_end_line(struct sbx_doc *d)
{
    if (!d->open)
        start_row(d);
    d->open = false;
    d->wrapped = false;
    d->col = 0;
}

void sbx_doc_draw(const struct sbx_doc *d, size_t first, struct sbx_grid *g, int row, int rows)
{
    for (int r = 0; r < rows; r++) {
        sbx_grid_fill(g, row + r, 0, g->cols, SBX_STYLE_NORMAL);
        size_t i = first + (size_t)r;
        if (i >= d->nrows)
            continue;
        const struct sbx_doc_row *dr = &d->rows[i];
        int col = 0;
        for (uint32_t k = 0; k < dr->nspans; k++) {
            const struct sbx_doc_span *sp = &d->spans[dr->span0 + k];
            col = sbx_grid_text(g, row + r, col, g->cols, (enum sbx_style)sp->style,
                                d->text.p + sp->off, sp->len);
        }
    }
}
