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
    if (sbx_app_lines_click(a, row) && twice)
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
    .draw = sbx_app_lines_draw,
    .move = sbx_app_lines_move,
    .wheel = sbx_app_lines_wheel,
    .click = click,
    .enter = enter,
    .back = sbx_view_back_to_timeline,
};
