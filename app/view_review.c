/* The review view: the verdict, every triage, note, tag and mark with its
 * author and time, the orphaned ids, the unreadable lines and the history
 * (render/views/review_doc.c draws it); Enter goes to the line's event. */
#include <stdlib.h>

#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/app_review.h"
#include "app/keymap.h"
#include "app/view.h"

static void rebuild(struct sbx_app *a)
{
    free(a->slines);
    a->slines = NULL;
    a->nslines = 0;
    if (!a->rv) {
        sbx_doc_adds(&a->doc, SBX_STYLE_NOTE,
                     a->preview || !a->tl ? "The review opens once the run has loaded."
                                          : "No review here: open the run itself (sbxview RUN).");
        sbx_doc_end_line(&a->doc);
        return;
    }
    a->nslines = sbx_review_doc(&a->doc, &a->look, &a->rv->r, a->opts.ascii, &a->slines);
}

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    size_t n = a->rv ? a->rv->st.nhistory : 0;
    sbx_headline_part(h, cols, dot, "review: %zu operation%s (Enter: the event)", n, n == 1 ? "" : "s");
}

static void enter(struct sbx_app *a)
{
    const struct sbx_event *e = a->doc_sel < a->nslines ? a->slines[a->doc_sel].event : NULL;
    if (!e) {
        sbx_app_message(a, false, "this line leads to no event of the run");
        return;
    }
    sbx_app_goto_event(a, e);
}

static void click(struct sbx_app *a, int row, bool twice)
{
    if (sbx_app_lines_click(a, row) && twice)
        enter(a);
}

void sbx_app_open_review(struct sbx_app *a)
{
    a->doc_sel = 0;
    sbx_app_open_doc(a, SBX_VIEW_REVIEW);
}

const struct sbx_view_ops sbx_view_review = {
    .name = "review",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_OPEN,
    .document = true,
    .page = 5,
    .rebuild = rebuild,
    .header = header,
    .draw = sbx_app_lines_draw,
    .move = sbx_app_lines_move,
    .wheel = sbx_app_lines_wheel,
    .click = click,
    .enter = enter,
    .back = sbx_view_back_to_timeline,
};
