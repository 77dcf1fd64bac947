/* A view of one run's review (app/app.h's SBX_VIEWS): one struct of
 * operations, filled by field name in the view's own file
 * (app/view_NAME.c), and one table of them, indexed by enum sbx_view. The
 * app asks the view in sight what to draw, how to move, what Enter and q
 * do; the key table (app/keymap.h) asks it which keys it takes. An
 * operation left NULL has the default its comment names. Internal to app/.
 *
 * Ownership: the ops are static; a view's functions keep what they make in
 * the app (its doc, its lists), freed with it. */
#ifndef SBX_VIEW_H
#define SBX_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "render/grid.h"
#include "app/app.h"

struct sbx_view_ops {
    const char *name;  /* as the help's "[timeline, detail]" names it */
    unsigned keys;     /* the groups of keys it takes (SBX_KEYS_*, app/keymap.h) */
    bool document;     /* its body is a->doc: drawn, scrolled and searched as a document */
    int page;          /* rows PgDn moves; 0: the body's height */
    /* Made again: on opening, after new data or a resize, coming back to it.
     * NULL: nothing to make (the timeline). */
    void (*rebuild)(struct sbx_app *a);
    /* The header's parts after " sbxview" (app/app_headline.h). */
    void (*header)(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot);
    /* The body, rows 1 to the status line. NULL: the document. */
    void (*draw)(struct sbx_app *a, struct sbx_grid *g);
    /* The selected row and how many, for the status line's "3/40"; NULL:
     * the document's percentage. */
    void (*place)(const struct sbx_app *a, size_t *cur, size_t *n);
    /* Moves the selection (or the document) by delta rows, or to_end: to
     * the first (delta < 0) or the last. NULL: the document scrolls. */
    void (*move)(struct sbx_app *a, long delta, bool to_end);
    /* The mouse wheel, delta rows. NULL: move. */
    void (*wheel)(struct sbx_app *a, long delta);
    /* A click on body row (1 is the first), twice: a double click. NULL: none. */
    void (*click)(struct sbx_app *a, int row, bool twice);
    /* Enter, in a view with SBX_KEYS_OPEN. */
    void (*enter)(struct sbx_app *a);
    /* Left and Right, in a view with SBX_KEYS_FOLD. */
    void (*fold)(struct sbx_app *a, bool on);
    /* Where q goes. NULL: q quits (the timeline). */
    enum sbx_view (*back)(const struct sbx_app *a);
};

#define SBX_VIEW_DECLARE(NAME, name) extern const struct sbx_view_ops sbx_view_##name;
SBX_VIEWS(SBX_VIEW_DECLARE)
#undef SBX_VIEW_DECLARE

extern const struct sbx_view_ops *const sbx_views[SBX_VIEW_COUNT];

/* The view in sight. */
static inline const struct sbx_view_ops *sbx_app_view(const struct sbx_app *a)
{
    return sbx_views[a->view];
}

/* The back of views q takes to the timeline (app/views.c). */
enum sbx_view sbx_view_back_to_timeline(const struct sbx_app *a);

/* Documents (app/view_doc.c): the defaults of views with document set. */
void sbx_app_doc_move(struct sbx_app *a, long delta, bool to_end);
void sbx_app_doc_draw(struct sbx_app *a, struct sbx_grid *g);
/* The last top row that still fills the body. */
size_t sbx_app_doc_max_top(const struct sbx_app *a);
/* Documents of selectable lines (a->slines, a row's target its line): the
 * selected line's rows drawn in the cursor's style, moved by lines, a click
 * selecting the line under it (false: no line there). */
void sbx_app_lines_draw(struct sbx_app *a, struct sbx_grid *g);
void sbx_app_lines_move(struct sbx_app *a, long delta, bool to_end);
void sbx_app_lines_wheel(struct sbx_app *a, long delta);
bool sbx_app_lines_click(struct sbx_app *a, int row);
/* Opens document view v (where q comes back from, kept), from its top. */
void sbx_app_open_doc(struct sbx_app *a, enum sbx_view v);

#endif
