/* The run's review in the interface (docs/review-file.md): the review file
 * cli/ found and read, the operations the reviewer's keys append to it, the
 * review column of the timeline, and the questions a review key asks in
 * the status line — a chooser (which finding, which state) and the
 * one-line editor (app/lineedit.h) for a note, tags or a reason. Nothing is
 * written until the reviewer acts: every operation is one key's doing.
 * Internal to app/.
 *
 * Ownership: the app owns its struct sbx_app_review (freed by
 * sbx_app_review_free, from sbx_app_free), which owns the review, its
 * state, the paths and the editor's text. */
#ifndef SBX_APP_REVIEW_H
#define SBX_APP_REVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "model/evid.h"
#include "model/review.h"
#include "render/grid.h"
#include "app/app.h"
#include "app/lineedit.h"
#include "app/review_outbox.h"

/* What the status line is asking. */
enum sbx_review_step {
    SBX_ASK_NONE,
    SBX_ASK_NOTE,           /* the note's text */
    SBX_ASK_TAG,            /* tags to add, -tags to take off */
    SBX_ASK_FINDING,        /* which of the event's findings to triage */
    SBX_ASK_TRIAGE_STATE,   /* benign, expected, ... */
    SBX_ASK_TRIAGE_REASON,
    SBX_ASK_VERDICT_STATE,  /* clean, benign, ... */
    SBX_ASK_VERDICT_REASON,
    SBX_ASK_EDITOR,         /* the note is in $EDITOR (cli/ runs it) */
};

/* Per-event bits of the review column. */
enum { SBX_RV_MARK = 1u, SBX_RV_WRITTEN = 2u /* a note, a tag or a triage */ };

struct sbx_app_review {
    struct sbx_review r;
    struct sbx_review_state st;
    char *write;    /* where operations are appended */
    bool make_dirs; /* write is under the state folder: make its folders first */
    struct sbx_outbox *outbox; /* write is in the store: lines go through it, or NULL */
    bool send_failed;          /* the outbox's last send failed (said once) */
    bool store_read;           /* the store's review came in (the first read) */
    struct sbx_buf text;       /* with an outbox: the lines r was read from (the store's
                                  as last read, then those on their way), for an export */
    char *author;
    /* the column: bits per position of tl->order, made for flags_tl at flags_n events */
    uint8_t *flags;
    const struct sbx_timeline *flags_tl;
    size_t flags_n;
    bool any;       /* some event has a bit */

    enum sbx_review_step step;
    struct sbx_lineedit ed;
    const char *hint;                 /* why the last Enter was refused (static), or NULL */
    char item[SBX_FINDID_LEN];        /* the event's or finding's id being written about */
    char *before;                     /* the note's text as it was (unchanged: nothing written) */
    uint32_t choices[32];             /* SBX_ASK_FINDING: the event's finding bits */
    size_t nchoices;
    const char *state;                /* the state chosen (static) */
};

void sbx_app_review_free(struct sbx_app *a);
/* What the outbox did since the last call, said on the status line: a send
 * that failed, and the lines a later one sent; true when it sent or failed. */
bool sbx_app_review_poll(struct sbx_app *a);
/* The column and the detail's review fields in a->look, after new data or a
 * change of the review. */
void sbx_app_review_look(struct sbx_app *a);

/* Whether a question is in the status line, and its key. */
bool sbx_app_review_asking(const struct sbx_app *a);
void sbx_app_review_key(struct sbx_app *a, int key);
void sbx_app_review_cancel(struct sbx_app *a);
/* The question and what is typed, on the status line's row. */
void sbx_app_review_status(struct sbx_app *a, struct sbx_grid *g, int row);

/* The keys: m's letter or '-' on the selected event (the session's letter
 * marks and the review's mark), a note, a note in $EDITOR (returns
 * SBX_APP_EDIT when cli/ is to run it), tags, triage, the verdict. */
void sbx_app_review_mark(struct sbx_app *a, const struct sbx_event *e, bool on);
/* Whether the review can be written here (the run has loaded with one);
 * when not, says why on the status line. */
bool sbx_app_review_can_write(struct sbx_app *a);
/* A note (text) or a tag (text) on the events from one id to another (to
 * NULL: that one event), appended as the keys' operations are; false (said
 * on the status line) when the review cannot be written. */
bool sbx_app_review_range(struct sbx_app *a, bool note, const char *from, const char *to,
                          const char *text);
void sbx_app_review_note(struct sbx_app *a);
unsigned sbx_app_review_editor(struct sbx_app *a);
void sbx_app_review_tag(struct sbx_app *a);
void sbx_app_review_triage(struct sbx_app *a);
void sbx_app_review_verdict(struct sbx_app *a);

/* The review is in the store (its lines go through the outbox). */
bool sbx_app_review_in_store(const struct sbx_app *a);
/* It is, and its first read has not come in: what an export posted before
 * is not known yet. */
bool sbx_app_review_reading(const struct sbx_app *a);
/* With it in the store: the review as the interface holds it now (the
 * store's as last read and the lines on their way) read into r, under the
 * store's URL (r is the caller's: sbx_review_free). */
void sbx_app_review_copy(const struct sbx_app *a, struct sbx_review *r);
/* With it in the store: line[0..n) (a whole line, an export's "posted")
 * queued for the store as the keys' operations are. */
void sbx_app_review_queue(struct sbx_app *a, const char *line, size_t n);

/* The review view (app/view_review.c). */
void sbx_app_open_review(struct sbx_app *a);

#endif
