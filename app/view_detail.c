/* The detail of the selected event: its fields, or the raw line. */
#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/keymap.h"
#include "app/view.h"

static void rebuild(struct sbx_app *a)
{
    const struct sbx_event *e = sbx_app_event(a, a->cur);
    if (!e) {
        sbx_doc_adds(&a->doc, SBX_STYLE_NOTE, "No event selected.");
        sbx_doc_end_line(&a->doc);
        return;
    }
    sbx_detail_doc(&a->doc, &a->look, e, a->raw);
}

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    char b[64], c[64];
    const struct sbx_event *e = sbx_app_event(a, a->cur);
    sbx_headline_part(h, cols, dot, "event %s of %s%s", sbx_thousands(a->cur + 1, b),
                      sbx_thousands(sbx_app_count(a), c), a->raw ? " (raw line)" : "");
    if (e)
        sbx_headline_part(h, cols, dot, "%s", sbx_kind_name((enum sbx_kind)e->kind));
}

/* The document, the search's matches marked. */
static void draw(struct sbx_app *a, struct sbx_grid *g)
{
    sbx_app_doc_draw(a, g);
    for (int r = 0; a->look.find && r < sbx_app_body(a) && a->doc_top + (size_t)r < a->doc.nrows; r++)
        sbx_grid_highlight(g, 1 + r, 0, g->cols, a->look.find, a->look.find_ctx, SBX_STYLE_MATCH);
}


/* q: to the story when the detail was opened from it, else the timeline */
static enum sbx_view back(const struct sbx_app *a)
{
    return a->back_to == SBX_VIEW_STORY ? SBX_VIEW_STORY : SBX_VIEW_TIMELINE;
}

void sbx_app_open_detail(struct sbx_app *a)
{
    a->raw = false;
    a->look.link = 0;
    a->ntrail = 0;
    sbx_app_open_doc(a, SBX_VIEW_DETAIL);
    /* opened from a search: the first match in sight (and the top kept
     * when the match is on the first screen anyway) */
    if (a->search && a->nhits && sbx_app_search_doc(a, false, false, true) &&
        a->doc_top < (size_t)sbx_app_body(a))
        a->doc_top = 0;
}

const struct sbx_view_ops sbx_view_detail = {
    .name = "detail",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_RAW | SBX_KEYS_SEARCH |
            SBX_KEYS_EXPORT | SBX_KEYS_LINKS | SBX_KEYS_REVIEW |
            SBX_KEYS_COPY,
    .document = true,
    .rebuild = rebuild,
    .header = header,
    .draw = draw,
    .move = sbx_app_doc_move,
    .back = back,
};
