/* Fuzz target for render/grid and render/doc: arbitrary bytes put into a
 * grid (sbx_grid_untrusted) and a wrapped document (sbx_doc_untrusted),
 * which is then drawn into a grid. Every cell must be safe to send to a
 * terminal (no C0/C1 control, DEL, ESC, invalid UTF-8, invisible or bidi
 * character; at most two marks on a visible base, per tests/unit/cellcheck.h),
 * every row must fit the width exactly (no wide character over the edge),
 * no document row may be wider than the document, and doing it all twice
 * must give the same cells.
 *
 * Input: byte 0 picks the width (1..200), byte 1 the flags (ASCII, one
 * line, where the text starts and ends on the row, the doc's indent); the
 * rest is the text. */
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/doc.h"
#include "render/grid.h"
#include "render/sanitize.h"
#include "tests/unit/cellcheck.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        abort();
    return 0;
}

static void check_grid(const struct sbx_grid *g, const char *what)
{
    int r, c;
    const char *why = cc_grid(g, &r, &c);
    if (why) {
        fprintf(stderr, "fuzz_grid: %s, %d columns, row %d col %d: %s\n", what, g->cols, r, c, why);
        abort();
    }
}

static void same_cells(const struct sbx_grid *a, const struct sbx_grid *b, const char *what)
{
    if (a->cols != b->cols || a->rows != b->rows)
        abort();
    for (int r = 0; r < a->rows; r++)
        for (int c = 0; c < a->cols; c++) {
            const struct sbx_cell *x = sbx_grid_cat(a, r, c), *y = sbx_grid_cat(b, r, c);
            if (x->len != y->len || x->width != y->width || x->style != y->style ||
                memcmp(x->text, y->text, x->len) != 0) {
                fprintf(stderr, "fuzz_grid: %s differs the second time at row %d col %d\n", what, r, c);
                abort();
            }
        }
}

/* Three rows: the text across the whole row, from a column on, and into a
 * range that stops short of the edge. */
static void put_rows(struct sbx_grid *g, int cols, bool ascii, int start, int stop, const char *s,
                     size_t n)
{
    sbx_grid_init(g, ascii);
    sbx_grid_resize(g, cols, 3);
    int end = sbx_grid_untrusted(g, 0, 0, cols, SBX_STYLE_NORMAL, s, n);
    if (end < 0 || end > cols)
        abort();
    end = sbx_grid_untrusted(g, 1, start, cols, SBX_STYLE_FAILED, s, n);
    if (end < start || end > cols)
        abort();
    sbx_grid_text(g, 2, 0, cols, SBX_STYLE_NORMAL, "x", 1);
    end = sbx_grid_untrusted(g, 2, start, stop, SBX_STYLE_LABEL, s, n);
    if (end < start || end > (stop > start ? stop : start))
        abort();
    /* nothing is written past the range */
    for (int c = stop > start ? stop : start; c < cols; c++)
        if (sbx_grid_cat(g, 2, c)->style != SBX_STYLE_NORMAL)
            abort();
}

/* The doc, drawn into a grid of its width. */
static void doc_rows(struct sbx_grid *g, struct sbx_doc *d, int cols, bool ascii, int indent,
                     bool one_line, const char *s, size_t n)
{
    sbx_doc_init(d, cols, ascii);
    sbx_doc_set_indent(d, indent);
    sbx_doc_adds(d, SBX_STYLE_FIELD, "field ");
    sbx_doc_untrusted(d, SBX_STYLE_NORMAL, s, n, one_line);
    sbx_doc_end_line(d);
    sbx_grid_init(g, ascii);
    sbx_grid_resize(g, cols, (int)d->nrows);
    sbx_doc_draw(d, 0, g, 0, (int)d->nrows);
    struct sbx_buf row = SBX_BUF_INIT;
    for (size_t r = 0; r < d->nrows; r++) {
        sbx_buf_clear(&row);
        const struct sbx_doc_row *dr = &d->rows[r];
        for (uint32_t k = 0; k < dr->nspans; k++)
            sbx_buf_add(&row, d->text.p + d->spans[dr->span0 + k].off, d->spans[dr->span0 + k].len);
        if (sbx_text_width(row.p ? row.p : "", row.len) > cols) {
            fprintf(stderr, "fuzz_grid: doc row %zu is wider than %d\n", r, cols);
            abort();
        }
    }
    sbx_buf_free(&row);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int cols = data[0] % 200 + 1;
    unsigned f = data[1];
    bool ascii = f & 1, one_line = f & 2;
    int start = (int)((f >> 2) % (unsigned)cols);
    int stop = start + (int)((f >> 4) % 5);
    int indent = (int)((f >> 5) % 8);
    const char *s = (const char *)data + 2;
    size_t n = size - 2;

    struct sbx_grid g1, g2;
    put_rows(&g1, cols, ascii, start, stop, s, n);
    check_grid(&g1, "sbx_grid_untrusted");
    put_rows(&g2, cols, ascii, start, stop, s, n);
    same_cells(&g1, &g2, "sbx_grid_untrusted");
    sbx_grid_free(&g1);
    sbx_grid_free(&g2);

    struct sbx_doc d1, d2;
    doc_rows(&g1, &d1, cols, ascii, indent, one_line, s, n);
    check_grid(&g1, "sbx_doc_untrusted");
    doc_rows(&g2, &d2, cols, ascii, indent, one_line, s, n);
    same_cells(&g1, &g2, "sbx_doc_untrusted");
    sbx_doc_free(&d1);
    sbx_doc_free(&d2);
    sbx_grid_free(&g1);
    sbx_grid_free(&g2);
    return 0;
}
