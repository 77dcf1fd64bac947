/* The views as pure drawing: the timeline's rows and the documents behind
 * the detail, summary and help views. They read the model and the
 * summary's results; they never compute a finding.
 *
 * Log text is redacted (credential-shaped strings masked with the
 * summary's patterns) and sanitised before it reaches a cell.
 *
 * Ownership: everything is drawn into the caller's grid or doc; nothing is
 * returned that needs freeing, except where a function says so. */
#ifndef SBX_VIEWS_H
#define SBX_VIEWS_H

#include <stdbool.h>
#include <stdint.h>

#include "analyses/filetree.h"
#include "analyses/netview.h"
#include "analyses/summary.h"
#include "model/review.h"
#include "model/timeline.h"
#include "render/doc.h"
#include "render/grid.h"
#include "render/summary/summary.h"

/* How timeline rows are drawn; the caller keeps one per screen. */
struct sbx_rows_look {
    const struct sbx_timeline *tl;
    const struct sbx_summary *sum; /* may be NULL (no redaction, one sandbox style) */
    bool local;                    /* times in the local zone, not UTC */
    sbx_grid_find_fn find;         /* search highlighting, or NULL */
    const void *find_ctx;
    struct sbx_secrets_scratch *scratch; /* for redaction; made by sbx_rows_look_init */
    struct sbx_buf text, red;
    size_t link; /* the detail's selected link (its Links part), for L to follow */
    /* The review column (REVIEW_W cells before the finding mark), shown
     * when set: the two marks review_cells gives an event (app/ decides
     * them). review: the run's review for the detail's review fields, or NULL. */
    void (*review_cells)(const void *ctx, const struct sbx_event *e, char cells[2]);
    const void *review_ctx;
    const struct sbx_review_state *review;
};

void sbx_rows_look_init(struct sbx_rows_look *l, const struct sbx_timeline *tl,
                        const struct sbx_summary *sum, bool local);
void sbx_rows_look_free(struct sbx_rows_look *l);

/* The heaviest finding among the bits: its row style and one-letter mark
 * (' ' and the normal style for none), by model/findings.h's order. */
enum sbx_style sbx_finding_look(uint32_t findings, char *mark);
/* The findings as words, heaviest first ("refused host, failed"). */
void sbx_findings_words(uint32_t findings, struct sbx_buf *out);

/* The kind column's mark: $ command, F files, N network … */
char sbx_kind_mark(enum sbx_kind k);

/* One event as one row: mark, time, duration, sandbox (when there are
 * several), kind, exit code, and the command or what happened. */
void sbx_draw_event_row(struct sbx_grid *g, int row, struct sbx_rows_look *l,
                        const struct sbx_event *e, bool selected);
/* The column where a row's text (the command) starts at this width. */
int sbx_row_text_col(const struct sbx_rows_look *l, int cols);

/* 1234567 -> "1,234,567" into buf (at least 32 bytes); returns buf. */
char *sbx_thousands(unsigned long long v, char *buf);

/* "HH:MM:SS.mmm" (UTC or local) into buf (at least 16 bytes); "--:--:--" when unknown. */
char *sbx_clock(int64_t ns, bool local, char *buf);
/* "2026-11-29 09:29:51 UTC" into buf (at least 40 bytes). */
char *sbx_stamp(int64_t ns, bool local, char *buf);

/* The smallest screen the views are drawn on; below it a screen shows
 * sbx_draw_too_small's notice instead: the size, the minimum, and hint (a
 * key that still works, e.g. "q quits"), on as many rows as there are. */
enum { SBX_MIN_COLS = 40, SBX_MIN_ROWS = 10 };
void sbx_draw_too_small(struct sbx_grid *g, const char *hint);

/* The layout every page of fields shares (the detail, a file's page, a
 * span's tree): a field's name in a fixed column with its value wrapped
 * beside it, and a heading on a line of its own after a blank one. */
void sbx_doc_field(struct sbx_doc *d, const char *name);
void sbx_doc_heading(struct sbx_doc *d, const char *what);

/* The detail of one event: every field, the command as written, stdout and
 * stderr, the hash check, the findings and their evidence, where it came
 * from. With raw, the line of the source instead (sanitised). */
void sbx_detail_doc(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e,
                    bool raw);

/* The detail's review fields (render/views/review_doc.c), after its id:
 * the event's mark, the triage of its findings, every author's note on it
 * (author, time, the text) and its tags; nothing without l->review or when
 * the review says nothing of the event. */
void sbx_detail_review(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e);

/* The review view's document (render/views/review_doc.c): the state and
 * the verdict, then the triage, notes, tags and marks (each with its author
 * and time; an id no event of the run has is listed as orphaned), the lines
 * that could not be read, and the history, newest last. Every line naming
 * an event is a target whose event is in (*lines)[target].event (NULL for
 * an orphan). Returns the number of lines; *lines is allocated (caller
 * frees). What reviewers wrote is redacted and sanitised by the document. */
size_t sbx_review_doc(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_review *r,
                      bool ascii, struct sbx_summary_line **lines);

/* The story view (render/views/story.c): the verdict, then the story's
 * items in time order, each followed by its links; every line a target
 * (sbx_doc_set_target 0, 1, …) whose event is in (*lines)[target].event
 * (NULL for none). l->sum is required. Returns the number of lines;
 * *lines is allocated (caller frees). Log text is redacted and sanitised
 * by the document. */
size_t sbx_story_doc(struct sbx_doc *d, struct sbx_rows_look *l, bool ascii,
                     struct sbx_summary_line **lines);

/* The files view (render/views/files.c). One node of the tree as one row:
 * indent, a fold mark for folders, the change mark (A added, C changed,
 * R removed: the latest state), the name, and what is beneath or how often
 * it changed; under a system root, in the system style. */
void sbx_draw_file_row(struct sbx_grid *g, int row, const struct sbx_filetree *t, size_t node,
                       bool folded, bool selected);
/* One changed path: where it is, its state, its diff when one was loaded
 * (added and removed lines in their styles), the commands that ran just
 * before the latest change (same sandbox), and every record naming it. */
void sbx_file_doc(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_filetree *t,
                  size_t node);

/* The network view (render/views/network.c): the column titles, and one
 * host as one row (state: refused, unlisted, failed, allowed or named;
 * host, requests, bytes in and out, first and last time, the commands that
 * touched it: how many, and the first); columns drop on narrow screens,
 * times first; the bytes out only when some request said them (out_known;
 * Squid's native log does not). */
void sbx_draw_host_titles(struct sbx_grid *g, int row, bool out_known);
void sbx_draw_host_row(struct sbx_grid *g, int row, struct sbx_rows_look *l,
                       const struct sbx_nethost *h, bool out_known, bool selected);

#endif
