/* The run's summary as a document whose lines can be selected: Enter on
 * one shows its events. */
#include <stdlib.h>
#include <string.h>

#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/keymap.h"
#include "app/view.h"

static void rebuild(struct sbx_app *a)
{
    free(a->slines);
    a->slines = NULL;
    a->nslines = 0;
    if (!a->sum) {
        sbx_doc_adds(&a->doc, SBX_STYLE_NOTE, "The summary is made once the run has loaded.");
        sbx_doc_end_line(&a->doc);
        return;
    }
    struct sbx_buf text = SBX_BUF_INIT;
    char err[128];
    if (!sbx_render_summary_lines(a->tl, a->sum, a->opts.ascii, &text, &a->slines, &a->nslines, err,
                                  sizeof err)) {
        sbx_doc_adds(&a->doc, SBX_STYLE_ERROR, err);
        sbx_doc_end_line(&a->doc);
        return;
    }
    const char *p = text.p ? text.p : "";
    for (size_t i = 0; i < a->nslines; i++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        size_t label = a->slines[i].label_len < len ? a->slines[i].label_len : 0;
        sbx_doc_set_target(&a->doc, (int32_t)i);
        sbx_doc_set_indent(&a->doc, label ? (int)label : 4);
        /* the summary's text is already sanitised */
        sbx_doc_add(&a->doc, SBX_STYLE_LABEL, p, label);
        sbx_doc_add(&a->doc, a->slines[i].style, p + label, len - label);
        sbx_doc_end_line(&a->doc);
        p += len + (nl != NULL);
    }
    sbx_doc_set_target(&a->doc, -1);
    sbx_doc_set_indent(&a->doc, 0);
    sbx_doc_end_line(&a->doc);
    sbx_doc_adds(&a->doc, SBX_STYLE_NOTE, "Enter on a line shows its events; q goes back.");
    sbx_doc_end_line(&a->doc);
    sbx_buf_free(&text);
}

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    (void)a;
    sbx_headline_part(h, cols, dot, "summary (Enter on a line: its events)");
}

/* The document, the selected line's rows in the cursor's style. */
static void draw(struct sbx_app *a, struct sbx_grid *g)
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

static void move(struct sbx_app *a, long delta, bool to_end)
{
    select_line(a, to_end ? (delta < 0 ? -(long)a->nslines : (long)a->nslines) : delta);
}

static void wheel(struct sbx_app *a, long delta)
{
    select_line(a, delta > 0 ? 1 : -1);
}

/* A line's events: the event it names, or the filter that finds them. */
static void enter(struct sbx_app *a)
{
    if (a->doc_sel >= a->nslines)
        return;
    const struct sbx_summary_line *l = &a->slines[a->doc_sel];
    if (l->event) {
        a->findings_mode = a->findings_mode && l->event->findings ? a->findings_mode : 0;
        sbx_app_goto_event(a, l->event);
    } else if (l->filter) {
        a->view = SBX_VIEW_TIMELINE;
        a->findings_mode = 0;
        if (sbx_app_set_filter(a, l->filter))
            sbx_app_select(a, 0);
    } else {
        sbx_app_message(a, false, "this line leads to no events");
    }
}

static void click(struct sbx_app *a, int row, bool twice)
{
    size_t r = a->doc_top + (size_t)(row - 1);
    if (r >= a->doc.nrows || a->doc.rows[r].target < 0)
        return;
    a->doc_sel = (size_t)a->doc.rows[r].target;
    if (twice)
        enter(a);
}


void sbx_app_open_summary(struct sbx_app *a)
{
    a->doc_sel = 0;
    sbx_app_open_doc(a, SBX_VIEW_SUMMARY);
}

const struct sbx_view_ops sbx_view_summary = {
    .name = "summary",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_OPEN | SBX_KEYS_EXPORT,
    .document = true,
    .page = 5, /* lines of the summary, not rows of the screen */
    .rebuild = rebuild,
    .header = header,
    .draw = draw,
    .move = move,
    .wheel = wheel,
    .click = click,
    .enter = enter,
    .back = sbx_view_back_to_timeline,
};
