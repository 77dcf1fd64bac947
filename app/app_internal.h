/* Shared by the app's files (internal to app/). */
#ifndef SBX_APP_INTERNAL_H
#define SBX_APP_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "query/query.h"
#include "app/app.h"

/* Body rows: the screen less the header and status lines. */
static inline int sbx_app_body(const struct sbx_app *a) { return a->rows > 2 ? a->rows - 2 : 1; }
static inline bool sbx_app_too_small(const struct sbx_app *a) { return a->cols < SBX_MIN_COLS || a->rows < SBX_MIN_ROWS; }

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
/* jump: after the matches are found, go to the first one forward (1) or
 * backward (-1) from the selection, or stay (0). */
bool sbx_app_set_search(struct sbx_app *a, const char *text, bool back, int jump);
/* The current search run again over what shows now. */
void sbx_app_search_again(struct sbx_app *a);
void sbx_app_search_landed(struct sbx_app *a, bool back);
void sbx_app_next_match(struct sbx_app *a, bool back);
/* In a document view: to the next (or previous) row the search matches;
 * false (and said, unless quiet) when no row does. */
bool sbx_app_search_doc(struct sbx_app *a, bool back, bool from_next, bool quiet);

/* Running a query over the timeline: on a thread of its own when the app
 * was made with opts.background (the interface stays live and Esc stops
 * it), else right away. */
enum sbx_job_kind { SBX_JOB_FILTER, SBX_JOB_SEARCH };
struct sbx_app_job {
    enum sbx_job_kind kind;
    const struct sbx_query *q;
    const struct sbx_timeline *tl;
    uint32_t *owned;               /* the subset, when the job owns it */
    const uint32_t *subset;
    size_t nsubset;
    int jump;                      /* search: see sbx_app_set_search */
    struct sbx_query_job qj;
    uint32_t *out;
    size_t n;
    pthread_t tid;
    bool threaded;
    _Atomic bool finished;
};
void sbx_app_start_job(struct sbx_app *a, enum sbx_job_kind kind, const struct sbx_query *q,
                       uint32_t *owned, const uint32_t *subset, size_t nsubset,
                       int jump);
void sbx_app_job_finished(struct sbx_app *a, struct sbx_app_job *j);

/* The export (app/app_export.c): e's prompt, the preview of the request,
 * the send on a thread of its own (or at once without opts.background). */
void sbx_app_export_prompt(struct sbx_app *a);
/* The prompt's text accepted: the target parsed, the body built, the view
 * shows the request; or a message says why not. */
void sbx_app_export_prepare(struct sbx_app *a, const char *target);
void sbx_app_export_send(struct sbx_app *a);
void sbx_app_export_build_doc(struct sbx_app *a);
/* The view the preview came from (q goes back there). */
enum sbx_view sbx_app_export_back(const struct sbx_app *a);
/* The target's name for the header, "" without an export. */
const char *sbx_app_export_name(const struct sbx_app *a);
bool sbx_app_export_busy(const struct sbx_app *a);
bool sbx_app_export_poll(struct sbx_app *a);
/* Esc while sending: stops it (the message says what may have happened). */
void sbx_app_export_cancel(struct sbx_app *a);
void sbx_app_export_free(struct sbx_app *a);

/* Opening the document views (app/view_NAME.c). */
void sbx_app_open_detail(struct sbx_app *a);
void sbx_app_open_summary(struct sbx_app *a);
void sbx_app_open_story(struct sbx_app *a);
void sbx_app_open_help(struct sbx_app *a);
/* The view in sight made again (its ops' rebuild; nothing without one). */
void sbx_app_rebuild_doc(struct sbx_app *a);

/* The files and network views (app/app_lists.c). */
void sbx_app_open_files(struct sbx_app *a);
void sbx_app_open_network(struct sbx_app *a);
/* Frees the tree and the hosts; _free also what was kept to find the
 * selections again. */
void sbx_app_lists_drop(struct sbx_app *a);
void sbx_app_lists_free(struct sbx_app *a);
/* After new data is in place (the old timeline still alive): the lists are
 * dropped, and made again at once for the view in sight, later for the
 * other; either way the selection goes back to the same path or host. */
void sbx_app_lists_reload(struct sbx_app *a);
/* Rows in the list of the view (0 outside the files and network views),
 * and the rows of it in sight. */
size_t sbx_app_list_count(const struct sbx_app *a);
size_t sbx_app_list_height(const struct sbx_app *a);
/* Keeps each list's selection in the list and in sight (after a resize). */
void sbx_app_list_fix(struct sbx_app *a);
void sbx_app_list_move(struct sbx_app *a, long delta, bool to_end);
void sbx_app_list_wheel(struct sbx_app *a, long delta);
/* Enter: a file's detail, a folder folded or unfolded, a host's events. */
void sbx_app_list_open(struct sbx_app *a);
/* Left and Right: fold (or up to the folder), unfold. */
void sbx_app_list_fold(struct sbx_app *a, bool on);
void sbx_app_list_click(struct sbx_app *a, int row, bool twice);
/* An empty list's two lines of why, from row on. */
void sbx_app_list_empty(struct sbx_grid *g, int row, const char *what, const char *how);

/* The time range (app/app_range.c): v's, ='s and +'s handlers, the text
 * of their prompts accepted, Esc (true when there was a range to clear),
 * and the range made again from its rows after new data (false: none). */
unsigned sbx_app_key_range(struct sbx_app *a, int key);
unsigned sbx_app_key_range_note(struct sbx_app *a, int key);
unsigned sbx_app_key_range_tag(struct sbx_app *a, int key);
void sbx_app_range_accept(struct sbx_app *a, int kind, const char *text);
bool sbx_app_range_clear(struct sbx_app *a);
bool sbx_app_range_remake(struct sbx_app *a);

/* Copying out (app/app_copy.c): Y's, w's and |'s handler (the letter comes
 * next), the letter given to kind ('Y', 'w' or '|'; returns SBX_APP_OUTPUT
 * when there is text to send), w's path accepted, and the key after "it
 * exists: y overwrites". */
unsigned sbx_app_key_copy(struct sbx_app *a, int key);
unsigned sbx_app_copy_letter(struct sbx_app *a, int kind, int letter);
void sbx_app_copy_write(struct sbx_app *a, const char *path);
void sbx_app_copy_confirm(struct sbx_app *a, int key);

#endif
