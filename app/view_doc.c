/* What the document views (detail, summary, help, file, export) share: a
 * doc scrolled by its top row, drawn, searched, made again. */
#include "app/app_internal.h"
#include "app/view.h"

size_t sbx_app_doc_max_top(const struct sbx_app *a)
{
    size_t h = (size_t)sbx_app_body(a);
    return a->doc.nrows > h ? a->doc.nrows - h : 0;
}

void sbx_app_doc_move(struct sbx_app *a, long delta, bool to_end)
{
    long max = (long)sbx_app_doc_max_top(a);
    long top = to_end ? (delta < 0 ? 0 : max) : (long)a->doc_top + delta;
    a->doc_top = (size_t)(top < 0 ? 0 : top > max ? max : top);
}

void sbx_app_doc_draw(struct sbx_app *a, struct sbx_grid *g)
{
    sbx_doc_draw(&a->doc, a->doc_top, g, 1, sbx_app_body(a));
}

void sbx_app_rebuild_doc(struct sbx_app *a)
{
    const struct sbx_view_ops *v = sbx_app_view(a);
    if (!v->rebuild)
        return;
    size_t keep_top = a->doc_top;
    sbx_doc_reset(&a->doc, a->cols > 0 ? a->cols : 1);
    v->rebuild(a);
    size_t max_top = sbx_app_doc_max_top(a);
    a->doc_top = keep_top > max_top ? max_top : keep_top;
    if (a->doc_sel >= a->nslines)
        a->doc_sel = 0;
}

void sbx_app_open_doc(struct sbx_app *a, enum sbx_view v)
{
    if (a->view != v)
        a->back_to = a->view == SBX_VIEW_HELP ? a->back_to : a->view;
    a->view = v;
    a->doc_top = 0;
    sbx_app_rebuild_doc(a);
}

bool sbx_app_search_doc(struct sbx_app *a, bool back, bool from_next, bool quiet)
{
    if (!a->search)
        return false;
    struct sbx_buf row = SBX_BUF_INIT;
    size_t n = a->doc.nrows;
    size_t start = a->doc_top;
    for (size_t k = from_next ? 1 : 0; k <= n && n; k++) {
        size_t r = back ? (start + n - k % n) % n : (start + k) % n;
        const struct sbx_doc_row *dr = &a->doc.rows[r];
        sbx_buf_clear(&row);
        for (uint32_t s = 0; s < dr->nspans; s++)
            sbx_buf_add(&row, a->doc.text.p + a->doc.spans[dr->span0 + s].off,
                        a->doc.spans[dr->span0 + s].len);
        size_t b, e;
        if (row.len && sbx_query_find(a->search, row.p, row.len, 0, &b, &e)) {
            size_t max = sbx_app_doc_max_top(a);
            a->doc_top = r < max ? r : max;
            sbx_buf_free(&row);
            return true;
        }
    }
    sbx_buf_free(&row);
    if (!quiet)
        sbx_app_message(a, true, "pattern not found here: %s", a->search_text);
    return false;
}

/* Documents whose lines can be selected (the summary, the story): a->slines,
 * one per target of the document's rows. */
/* The document, the selected line's rows in the cursor's style. */
void sbx_app_lines_draw(struct sbx_app *a, struct sbx_grid *g)
{
    sbx_app_doc_draw(a, g);
    for (int r = 0; r < sbx_app_body(a) && a->doc_top + (size_t)r < a->doc.nrows; r++)
        if (a->doc.rows[a->doc_top + (size_t)r].target == (int32_t)a->doc_sel)
            sbx_grid_restyle(g, 1 + r, 0, g->cols, SBX_STYLE_CURSOR);
}

/* The summary's selectable lines are doc rows with a target. */
static size_t row_of_line(const struct sbx_app *a, size_t line)
{
    for (size_t r = 0; r < a->doc.nrows; r++)
        if (a->doc.rows[r].target == (int32_t)line)
            return r;
    return 0;
}

static void select_line(struct sbx_app *a, long delta)
{
    if (!a->nslines)
        return;
    long sel = (long)a->doc_sel + delta;
    if (sel < 0)
        sel = 0;
    if (sel >= (long)a->nslines)
        sel = (long)a->nslines - 1;
    a->doc_sel = (size_t)sel;
    size_t r = row_of_line(a, a->doc_sel), h = (size_t)sbx_app_body(a);
    if (r < a->doc_top)
        a->doc_top = r;
    if (r >= a->doc_top + h)
        a->doc_top = r - h + 1;
}

void sbx_app_lines_move(struct sbx_app *a, long delta, bool to_end)
{
    select_line(a, to_end ? (delta < 0 ? -(long)a->nslines : (long)a->nslines) : delta);
}

void sbx_app_lines_wheel(struct sbx_app *a, long delta)
{
    select_line(a, delta > 0 ? 1 : -1);
}

bool sbx_app_lines_click(struct sbx_app *a, int row)
{
    size_t r = a->doc_top + (size_t)(row - 1);
    if (r >= a->doc.nrows || a->doc.rows[r].target < 0)
        return false;
    a->doc_sel = (size_t)a->doc.rows[r].target;
    return true;
}
