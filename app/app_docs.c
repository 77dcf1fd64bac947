/* The app's document views: detail, summary and help. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app_internal.h"
#include "app/app_keyhelp.h"
#include "app/keymap.h"

static void build_detail(struct sbx_app *a)
{
    const struct sbx_event *e = sbx_app_event(a, a->cur);
    if (!e) {
        sbx_doc_adds(&a->doc, SBX_STYLE_NOTE, "No event selected.");
        sbx_doc_end_line(&a->doc);
        return;
    }
    sbx_detail_doc(&a->doc, &a->look, e, a->raw);
}

static void build_summary(struct sbx_app *a)
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
    if (!sbx_render_summary_lines(a->tl, a->sum, a->opts.ascii, a->cols, &text, &a->slines, &a->nslines,
                                  err, sizeof err)) {
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

/* Where a key works, as the help says it: a name for each view's bit. */
static const char *const view_names[V_COUNT] = {"timeline", "detail", "summary", "help",
                                                 "files", "network", "file", "export"};

static void build_help(struct sbx_app *a)
{
    struct sbx_doc *d = &a->doc;
    sbx_doc_adds(d, SBX_STYLE_HEADING, "Keys");
    sbx_doc_end_line(d);
    for (size_t i = 0; i < sbx_keymap_len; i++) {
        const struct sbx_keymap_entry *k = &sbx_keymap[i];
        char where[128];
        sbx_keyhelp_where(k->views, V_ALL, view_names, V_COUNT, where, sizeof where);
        sbx_keyhelp_line(d, a->cols, k->keys, k->help, where);
    }
    sbx_doc_set_indent(d, 0);
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "The mark column, heaviest finding first");
    sbx_doc_end_line(d);
    for (size_t w = 0; w < sbx_nfindings; w++) {
        uint32_t bit = sbx_findings[w].bit;
        char mark;
        enum sbx_style st = sbx_finding_look(bit, &mark);
        if (mark == ' ')
            continue;
        struct sbx_buf w = SBX_BUF_INIT;
        sbx_findings_words(bit, &w);
        sbx_doc_addf(d, st, "  %c", mark);
        sbx_doc_add(d, SBX_STYLE_NORMAL, "  ", 2);
        sbx_doc_add(d, SBX_STYLE_NORMAL, w.p, w.len);
        sbx_doc_end_line(d);
        sbx_buf_free(&w);
    }
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "The kind column");
    sbx_doc_end_line(d);
    for (int k = 0; k < SBX_EV_KIND_COUNT; k++) {
        sbx_doc_addf(d, SBX_STYLE_KIND, "  %c", sbx_kind_mark((enum sbx_kind)k));
        sbx_doc_addf(d, SBX_STYLE_NORMAL, "  %s", sbx_kind_name((enum sbx_kind)k));
        sbx_doc_end_line(d);
    }
    sbx_doc_end_line(d);
    sbx_doc_addf(d, SBX_STYLE_NORMAL,
                 "Text from the log is shown inert: escape sequences as %sESC]...%s, controls as ^X, "
                 "invisible characters as <U+XXXX>, bad UTF-8 as \\xNN, in the escape style. "
                 "Secrets are masked.",
                 a->opts.ascii ? "<" : "\xe2\x9f\xa8", a->opts.ascii ? ">" : "\xe2\x9f\xa9");
    sbx_doc_end_line(d);
}

void sbx_app_rebuild_doc(struct sbx_app *a)
{
    size_t keep_top = a->doc_top;
    sbx_doc_reset(&a->doc, a->cols > 0 ? a->cols : 1);
    switch (a->view) {
    case SBX_VIEW_DETAIL: build_detail(a); break;
    case SBX_VIEW_SUMMARY: build_summary(a); break;
    case SBX_VIEW_HELP: build_help(a); break;
    case SBX_VIEW_EXPORT: sbx_app_export_build_doc(a); break;
    case SBX_VIEW_FILE: sbx_app_build_file_doc(a); break;
    case SBX_VIEW_FILES:
    case SBX_VIEW_NETWORK: sbx_app_list_fix(a); break;
    case SBX_VIEW_TIMELINE: break;
    }
    size_t h = (size_t)sbx_app_body(a);
    size_t max_top = a->doc.nrows > h ? a->doc.nrows - h : 0;
    a->doc_top = keep_top > max_top ? max_top : keep_top;
    if (a->doc_sel >= a->nslines)
        a->doc_sel = 0;
}

static void open_doc(struct sbx_app *a, enum sbx_view v)
{
    if (a->view != v)
        a->back_to = a->view == SBX_VIEW_HELP ? a->back_to : a->view;
    a->view = v;
    a->doc_top = 0;
    sbx_app_rebuild_doc(a);
}

void sbx_app_open_detail(struct sbx_app *a)
{
    a->raw = false;
    open_doc(a, SBX_VIEW_DETAIL);
    /* opened from a search: the first match in sight (and the top kept
     * when the match is on the first screen anyway) */
    if (a->search && a->nhits && sbx_app_search_doc(a, false, false, true) &&
        a->doc_top < (size_t)sbx_app_body(a))
        a->doc_top = 0;
}

void sbx_app_open_summary(struct sbx_app *a)
{
    a->doc_sel = 0;
    open_doc(a, SBX_VIEW_SUMMARY);
}

void sbx_app_open_help(struct sbx_app *a)
{
    open_doc(a, SBX_VIEW_HELP);
}
