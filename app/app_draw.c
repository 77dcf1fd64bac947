/* Drawing the app: header line, the view's body, status line. */
#include <stdio.h>
#include <string.h>

#include "render/sanitize.h"
#include "app/app_internal.h"
#include "app/app_headline.h"
#include "app/app_review.h"
#include "app/view.h"

static void header(struct sbx_app *a, struct sbx_grid *g)
{
    const char *dot = a->opts.ascii ? " - " : " \xc2\xb7 ";
    int cols = g->cols;
    struct sbx_buf h = SBX_BUF_INIT;
    sbx_buf_adds(&h, " sbxview");
    sbx_app_view(a)->header(a, &h, cols, dot);
    sbx_grid_fill(g, 0, 0, g->cols, SBX_STYLE_HEADER);
    sbx_grid_text(g, 0, 0, g->cols, SBX_STYLE_HEADER, h.p, h.len);
    sbx_buf_free(&h);
}

static void status(struct sbx_app *a, struct sbx_grid *g)
{
    int row = g->rows - 1;
    sbx_grid_fill(g, row, 0, g->cols, SBX_STYLE_STATUS);
    if (sbx_app_review_asking(a)) {
        sbx_app_review_status(a, g, row);
        return;
    }
    if (a->prompt) {
        static const char *const names[] = {"/", "search backward: ", "filter: ",
                                            "export to: ", "note the range: ", "tag the range: ",
                                            "write to: "};
        const char *p = a->prompt == '/'    ? names[0]
                        : a->prompt == '\\' ? names[1]
                        : a->prompt == 'e'  ? names[3]
                        : a->prompt == '='  ? names[4]
                        : a->prompt == '+'  ? names[5]
                        : a->prompt == 'w'  ? names[6]
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
    const struct sbx_view_ops *v = sbx_app_view(a);
    size_t cur, n, h = (size_t)sbx_app_body(a);
    if (v->place) {
        v->place(a, &cur, &n);
        snprintf(right, sizeof right, "%s/%s  %s", n ? sbx_thousands(cur + 1, b) : "0",
                 sbx_thousands(n, c), help);
    } else if (a->doc.nrows <= h) {
        snprintf(right, sizeof right, "%s", help);
    } else {
        size_t pct = (a->doc_top + h) * 100 / a->doc.nrows;
        snprintf(right, sizeof right, "%d%%  %s", (int)(pct > 100 ? 100 : pct), help);
    }
    int rw = (int)strlen(right);
    struct sbx_buf left = SBX_BUF_INIT;
    enum sbx_style style = SBX_STYLE_STATUS;
    if (a->msg[0]) {
        /* a load still running shows first: the opening message must not
         * hide how far it got until a key is pressed */
        if (a->progress[0])
            sbx_buf_addf(&left, "%s  ", a->progress);
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
        if (a->range_on) {
            char f[64], t[64];
            sbx_buf_addf(&left, "range %s to %s  ", sbx_clock(a->range.from, a->opts.local, f),
                         sbx_clock(a->range.to, a->opts.local, t));
        } else if (a->range_first) {
            sbx_buf_adds(&left, "range: v on its last row  ");
        }
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
    const struct sbx_view_ops *v = sbx_app_view(a);
    if (v->draw)
        v->draw(a, g);
    else
        sbx_app_doc_draw(a, g);
    status(a, g);
}
