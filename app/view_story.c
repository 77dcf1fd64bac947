/* The story: the run's findings in time order with their links
 * (analyses/chain.h), one selectable line each; Enter opens the line's
 * event, whose detail follows its links (L) and comes back (Backspace). */
#include <stdlib.h>

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
        sbx_doc_adds(&a->doc, SBX_STYLE_NOTE, "The story is told once the run has loaded.");
        sbx_doc_end_line(&a->doc);
        return;
    }
    a->nslines = sbx_story_doc(&a->doc, &a->look, a->opts.ascii, &a->slines);
}

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    size_t n = a->sum ? a->sum->story.n : 0;
    sbx_headline_part(h, cols, dot, "story: %zu event%s (Enter: the event)", n, n == 1 ? "" : "s");
}

static void enter(struct sbx_app *a)
{
    const struct sbx_event *e = a->doc_sel < a->nslines ? a->slines[a->doc_sel].event : NULL;
    if (!e) {
        sbx_app_message(a, false, "this line leads to no event");
        return;
    }
    sbx_app_goto_event(a, e);
    a->view = SBX_VIEW_STORY; /* q in the detail comes back here */
    sbx_app_open_detail(a);
}

static void click(struct sbx_app *a, int row, bool twice)
{
    if (sbx_app_lines_click(a, row) && twice)
        enter(a);
}

void sbx_app_open_story(struct sbx_app *a)
{
    a->doc_sel = 0;
    sbx_app_open_doc(a, SBX_VIEW_STORY);
}

const struct sbx_view_ops sbx_view_story = {
    .name = "story",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_OPEN | SBX_KEYS_EXPORT,
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
