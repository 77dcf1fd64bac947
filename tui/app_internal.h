/* Shared by the app's files (internal to tui/). */
#ifndef SBX_APP_INTERNAL_H
#define SBX_APP_INTERNAL_H

#include "tui/app.h"

/* Body rows: the screen less the header and status lines. */
static inline int sbx_app_body(const struct sbx_app *a) { return a->rows > 2 ? a->rows - 2 : 1; }
static inline bool sbx_app_too_small(const struct sbx_app *a) { return a->cols < 40 || a->rows < 10; }

/* Rows the timeline shows. */
size_t sbx_app_count(const struct sbx_app *a);
/* The position in tl->order of visible row i. */
size_t sbx_app_pos(const struct sbx_app *a, size_t i);
const struct sbx_event *sbx_app_event(const struct sbx_app *a, size_t i);
/* The visible row of event e, or the nearest after it; SIZE_MAX if none. */
size_t sbx_app_row_of(const struct sbx_app *a, const struct sbx_event *e, bool exact);
/* Moves the selection to visible row i and scrolls to show it. */
void sbx_app_select(struct sbx_app *a, size_t i);
/* Shows event e in the timeline, clearing the filter if it hides e. */
void sbx_app_goto_event(struct sbx_app *a, const struct sbx_event *e);

/* Filter and search; false with a message when the text is not valid. */
bool sbx_app_set_filter(struct sbx_app *a, const char *text);
void sbx_app_apply_filter(struct sbx_app *a);
bool sbx_app_set_search(struct sbx_app *a, const char *text, bool back);
void sbx_app_next_match(struct sbx_app *a, bool back);

/* The document views. */
void sbx_app_open_detail(struct sbx_app *a);
void sbx_app_open_summary(struct sbx_app *a);
void sbx_app_open_help(struct sbx_app *a);
void sbx_app_rebuild_doc(struct sbx_app *a);

#endif
