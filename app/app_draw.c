/* Drawing the app: header line, the view's body, status line. */
#include <stdio.h>
#include <string.h>

#include "base/timefmt.h"
#include "render/sanitize.h"
#include "app/app_internal.h"
#include "app/app_headline.h"

static void header(struct sbx_app *a, struct sbx_grid *g)
{
    const char *dot = a->opts.ascii ? " - " : " \xc2\xb7 ";
    char b[64], c[64], d[32];
    int cols = g->cols;
    struct sbx_buf h = SBX_BUF_INIT;
    sbx_buf_adds(&h, " sbxview");
    switch (a->view) {
    case SBX_VIEW_DETAIL: {
        const struct sbx_event *e = sbx_app_event(a, a->cur);
        sbx_headline_part(&h, cols, dot, "event %s of %s%s", sbx_thousands(a->cur + 1, b),
                          sbx_thousands(sbx_app_count(a), c), a->raw ? " (raw line)" : "");
        if (e)
            sbx_headline_part(&h, cols, dot, "%s", sbx_kind_name((enum sbx_kind)e->kind));
        break;
    }
    case SBX_VIEW_SUMMARY:
        sbx_headline_part(&h, cols, dot, "summary (Enter on a line: its events)");
        break;
    case SBX_VIEW_HELP: sbx_headline_part(&h, cols, dot, "help (q: back)"); break;
    case SBX_VIEW_EXPORT:
        sbx_headline_part(&h, cols, dot, "export to %s (y or Enter: send, q: cancel)",
                          sbx_app_export_name(a));
        break;
    case SBX_VIEW_FILES: {
        const struct sbx_filetree *t = &a->tree;
        sbx_headline_part(&h, cols, dot, "files");
        sbx_headline_part(&h, cols, dot, "%s changed path%s", sbx_thousands(t->paths, b),
                          t->paths == 1 ? "" : "s");
        if (t->system_paths)
            sbx_headline_part(&h, cols, dot, "%s under a system folder",
                              sbx_thousands(t->system_paths, b));
        sbx_headline_part(&h, cols, dot, "Enter: open");
        break;
    }
    case SBX_VIEW_FILE:
        sbx_headline_part(&h, cols, dot, "files: one path (q: back to the tree)");
        break;
    case SBX_VIEW_NETWORK:
        sbx_headline_part(&h, cols, dot, "network");
        sbx_headline_part(&h, cols, dot, "%s host%s", sbx_thousands(a->net.n, b),
                          a->net.n == 1 ? "" : "s");
        if (a->net.refused)
            sbx_headline_part(&h, cols, dot, "%s refused", sbx_thousands(a->net.refused, b));
        if (a->net.unlisted)
            sbx_headline_part(&h, cols, dot, "%s not on the allow list",
                              sbx_thousands(a->net.unlisted, b));
        if (a->net.requests)
            sbx_headline_part(&h, cols, dot, "%s proxy request%s",
                              sbx_thousands(a->net.requests, b), a->net.requests == 1 ? "" : "s");
        else
            sbx_headline_part(&h, cols, dot, "no proxy log");
        sbx_headline_part(&h, cols, dot, "Enter: its events");
        break;
    case SBX_VIEW_TIMELINE: {
        const struct sbx_summary *s = a->sum;
        if (a->preview)
            sbx_headline_part(&h, cols, dot, "PREVIEW of the first lines");
        if (s && s->start != SBX_TIME_UNKNOWN) {
            if (s->end != SBX_TIME_UNKNOWN)
                sbx_headline_part(&h, cols, dot, "%s, %s", sbx_stamp(s->start, a->opts.local, b),
                                  sbx_duration_format((s->end - s->start) / 1000000, d));
            else
                sbx_headline_part(&h, cols, dot, "%s", sbx_stamp(s->start, a->opts.local, b));
        }
        if (!s) {
            if (a->tl)
                sbx_headline_part(&h, cols, dot, "%s events", sbx_thousands(a->tl->n, b));
            break;
        }
        /* the findings first, heaviest first, as the rows rank them */
        if (s->account_inside)
            sbx_headline_part(&h, cols, dot, "%s account change%s FROM INSIDE",
                              sbx_thousands(s->account_inside, b),
                              s->account_inside == 1 ? "" : "s");
        if (s->cross.noutside)
            sbx_headline_part(&h, cols, dot, "%s outside the wrapper",
                              sbx_thousands(s->cross.noutside, b));
        if (s->cross.nmissing)
            sbx_headline_part(&h, cols, dot, "%s missing from the record",
                              sbx_thousands(s->cross.nmissing, b));
        if (s->nrefused)
            sbx_headline_part(&h, cols, dot, "%s refused", sbx_thousands(s->nrefused, b));
        if (s->denied_connections)
            sbx_headline_part(&h, cols, dot, "%s connection%s denied",
                              sbx_thousands(s->denied_connections, b),
                              s->denied_connections == 1 ? "" : "s");
        if (s->nunlisted)
            sbx_headline_part(&h, cols, dot, "%s unlisted", sbx_thousands(s->nunlisted, b));
        if (s->system[SBX_ADDED].n + s->system[SBX_CHANGED].n + s->system[SBX_REMOVED].n)
            sbx_headline_part(&h, cols, dot, "system files changed");
        if (s->nsecrets) {
            size_t n = sbx_summary_distinct_secrets(s);
            sbx_headline_part(&h, cols, dot, "%s secret%s", sbx_thousands(n, b), n == 1 ? "" : "s");
        }
        if (s->hash_mismatched)
            sbx_headline_part(&h, cols, dot, "%s hash mismatch%s",
                              sbx_thousands(s->hash_mismatched, b),
                              s->hash_mismatched == 1 ? "" : "es");
        if (s->failed)
            sbx_headline_part(&h, cols, dot, "%s failed", sbx_thousands(s->failed, b));
        /* last: the status line counts the rows too */
        if (a->tl)
            sbx_headline_part(&h, cols, dot, "%s events", sbx_thousands(a->tl->n, b));
        break;
    }
    }
    sbx_grid_fill(g, 0, 0, g->cols, SBX_STYLE_HEADER);
    sbx_grid_text(g, 0, 0, g->cols, SBX_STYLE_HEADER, h.p, h.len);
    sbx_buf_free(&h);
}

static void status(struct sbx_app *a, struct sbx_grid *g)
{
    int row = g->rows - 1;
    sbx_grid_fill(g, row, 0, g->cols, SBX_STYLE_STATUS);
    if (a->prompt) {
        static const char *const names[] = {"/", "search backward: ", "filter: ",
                                            "export to: "};
        const char *p = a->prompt == '/'    ? names[0]
                        : a->prompt == '\\' ? names[1]
                        : a->prompt == 'e'  ? names[3]
                                            : names[2];
        sbx_grid_fill(g, row, 0, g->cols, SBX_STYLE_PROMPT);
        int col = sbx_grid_text(g, row, 0, g->cols, SBX_STYLE_PROMPT, p, strlen(p));
        /* what is typed is shown inert too (it may have been pasted); the
         * end stays in sight as it grows */
        const char *in = a->input.p ? a->input.p : "";
        size_t skip = 0;
        while (skip < a->input.len && sbx_text_width(in + skip, a->input.len - skip) > g->cols - col - 2)
            skip++;
        while (skip < a->input.len && ((unsigned char)in[skip] & 0xc0) == 0x80)
            skip++;
        col = sbx_grid_untrusted(g, row, col, g->cols - 1, SBX_STYLE_PROMPT, in + skip, a->input.len - skip);
        sbx_grid_text(g, row, col, g->cols, SBX_STYLE_CURSOR, " ", 1);
        return;
    }
    char right[64], b[32], c[32];
    const char *help = "? help";
    if (a->view == SBX_VIEW_TIMELINE)
        snprintf(right, sizeof right, "%s/%s  %s", sbx_app_count(a) ? sbx_thousands(a->cur + 1, b) : "0",
                 sbx_thousands(sbx_app_count(a), c), help);
    else if (sbx_app_is_list(a))
        snprintf(right, sizeof right, "%s/%s  %s",
                 sbx_app_list_count(a) ? sbx_thousands((a->view == SBX_VIEW_FILES ? a->fcur : a->ncur) + 1, b)
                                       : "0",
                 sbx_thousands(sbx_app_list_count(a), c), help);
    else if (a->doc.nrows <= (size_t)sbx_app_body(a))
        snprintf(right, sizeof right, "%s", help);
    else
        snprintf(right, sizeof right, "%d%%  %s",
                 (int)((a->doc_top + (size_t)sbx_app_body(a)) * 100 / a->doc.nrows > 100
                           ? 100
                           : (a->doc_top + (size_t)sbx_app_body(a)) * 100 / a->doc.nrows),
                 help);
    int rw = (int)strlen(right);
    struct sbx_buf left = SBX_BUF_INIT;
    enum sbx_style style = SBX_STYLE_STATUS;
    if (a->msg[0]) {
        sbx_buf_adds(&left, a->msg);
        if (a->msg_error)
            style = SBX_STYLE_ERROR;
    } else if (a->job || sbx_app_export_busy(a)) {
        char busy[64];
        sbx_app_job_progress(a, busy, sizeof busy);
        sbx_buf_adds(&left, busy);
    } else {
        if (a->progress[0])
            sbx_buf_addf(&left, "%s  ", a->progress);
        if (a->following)
            sbx_buf_adds(&left, "following  ");
        if (a->findings_mode)
            sbx_buf_adds(&left, a->findings_mode == 1 ? "findings only  " : "serious findings  ");
        if (a->filter_text)
            sbx_buf_addf(&left, "& %s  ", a->filter_text);
        if (a->search_text)
            sbx_buf_addf(&left, "/%s (%zu)  ", a->search_text, a->nhits);
    }
    int end = g->cols - rw - 2 > 0 ? g->cols - rw - 2 : g->cols;
    /* messages and filters may quote log text or typed text: inert */
    sbx_grid_untrusted(g, row, 1, end, style, left.p ? left.p : "", left.len);
    if (end < g->cols)
        sbx_grid_text(g, row, end, g->cols, SBX_STYLE_STATUS, right, (size_t)rw);
    sbx_buf_free(&left);
}

static void timeline_body(struct sbx_app *a, struct sbx_grid *g)
{
    int h = sbx_app_body(a);
    size_t n = sbx_app_count(a);
    for (int r = 0; r < h; r++) {
        size_t i = a->top + (size_t)r;
        if (i >= n) {
            sbx_grid_fill(g, 1 + r, 0, g->cols, SBX_STYLE_NORMAL);
            continue;
        }
        sbx_draw_event_row(g, 1 + r, &a->look, sbx_app_event(a, i), i == a->cur);
    }
    if (!n) {
        const char *why = !a->tl ? (a->progress[0] ? "Loading..." : "Nothing loaded.")
                          : a->tl->n ? "No event matches (& then Enter clears the filter; f cycles findings)."
                                     : "No events in this run.";
        sbx_grid_text(g, 2, 2, g->cols, SBX_STYLE_NOTE, why, strlen(why));
    }
}

static void doc_body(struct sbx_app *a, struct sbx_grid *g)
{
    int h = sbx_app_body(a);
    sbx_doc_draw(&a->doc, a->doc_top, g, 1, h);
    for (int r = 0; r < h; r++) {
        size_t i = a->doc_top + (size_t)r;
        if (i >= a->doc.nrows)
            break;
        if (a->view == SBX_VIEW_SUMMARY && a->doc.rows[i].target == (int32_t)a->doc_sel)
            sbx_grid_restyle(g, 1 + r, 0, g->cols, SBX_STYLE_CURSOR);
        else if (a->look.find && a->view == SBX_VIEW_DETAIL)
            sbx_grid_highlight(g, 1 + r, 0, g->cols, a->look.find, a->look.find_ctx, SBX_STYLE_MATCH);
    }
}

void sbx_app_draw(struct sbx_app *a, struct sbx_grid *g)
{
    if (g->cols != a->cols || g->rows != a->rows)
        sbx_grid_resize(g, a->cols, a->rows);
    sbx_grid_clear(g, SBX_STYLE_NORMAL);
    if (sbx_app_too_small(a)) {
        sbx_draw_too_small(g, "q quits");
        return;
    }
    header(a, g);
    if (a->view == SBX_VIEW_TIMELINE)
        timeline_body(a, g);
    else if (a->view == SBX_VIEW_FILES)
        sbx_app_draw_files(a, g);
    else if (a->view == SBX_VIEW_NETWORK)
        sbx_app_draw_network(a, g);
    else
        doc_body(a, g);
    status(a, g);
}
