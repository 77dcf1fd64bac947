/* The one-screen summary as text (fits 80x24), markdown (ready to paste into
 * a ticket) and json (the stable contract, "schema": 1, in docs/summary-json.md).
 *
 * Everything from a log is untrusted: text and markdown sanitise it
 * (render/sanitize.h), json escapes it to pure ASCII, and all three redact
 * credential-shaped strings. Ownership: output is appended to the caller's
 * buffer; nothing else is allocated for the caller. */
#ifndef SBX_RENDER_SUMMARY_H
#define SBX_RENDER_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "render/style.h"
#include "analyses/summary.h"
#include "model/review.h"
#include "model/timeline.h"

enum sbx_summary_format { SBX_SUMMARY_TEXT, SBX_SUMMARY_MARKDOWN, SBX_SUMMARY_JSON };

/* Parses "text", "markdown"/"md", "json"; false if unknown. */
bool sbx_summary_format_parse(const char *s, enum sbx_summary_format *f);

/* The text summary's width: what a terminal that is not one is taken to be. */
#define SBX_SUMMARY_COLS 80

struct sbx_summary_look {
    bool ascii;              /* the terminal cannot show UTF-8 (a non-UTF-8 locale) */
    int cols;                /* text only: the width lines wrap at; 0: SBX_SUMMARY_COLS */
    const char *const *sgr;  /* text only: per style (render/style.h), the escape
                                sequence that turns it on; NULL for no colour */
    /* the run's review (model/review.h; borrowed): the Review part — the
     * verdict, the triaged findings, the notes; NULL: none (JSON says null) */
    const struct sbx_review *review;
    const struct sbx_review_state *review_state;
    bool story_whole;        /* text only: the Story part whole, not cut to fit
                                the screen (--story) */
    /* json only: the text made so far is handed to spill in pieces of
     * spill_at bytes or more (0: SBX_SUMMARY_SPILL) as it is made, and out
     * keeps only the rest (a big run's summary is written out without being
     * held whole); NULL: all of it in out */
    void (*spill)(void *ctx, const char *text, size_t len);
    void *spill_ctx;
    size_t spill_at;
};

#define SBX_SUMMARY_SPILL (64 * 1024)

/* sum must come from sbx_summarize (it carries the patterns to redact with).
 * look may be NULL (UTF-8, no colour). Returns false with err set otherwise. */
bool sbx_render_summary(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                        enum sbx_summary_format fmt, const struct sbx_summary_look *look,
                        struct sbx_buf *out, char *err, size_t errsz);

/* Items each list of the markdown summary shows before "and N more". */
#define SBX_SUMMARY_LIST_MAX 10

/* The markdown summary with each list cut to list_max items (0: only
 * the counts; negative: SBX_SUMMARY_LIST_MAX), the rest counted ("and N
 * more"): the export shortens a body this way to fit a ticket's limit.
 * Appends to out; false with err set as sbx_render_summary. */
bool sbx_render_summary_markdown(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                                 int list_max, struct sbx_buf *out, char *err, size_t errsz);

/* What each line of the text summary shows and leads to, for the summary
 * view: Enter on a line goes to its event, or applies its filter. */
struct sbx_summary_line {
    enum sbx_style style;         /* of the line after its label */
    size_t label_len;             /* bytes of "Commands:  " at its start (0: none) */
    const struct sbx_event *event; /* the event it is about, or NULL */
    const char *filter;           /* a filter expression (static string), or NULL */
};

/* The text summary (no colour), one line of out per fact, never wrapped
 * nor cut (the caller's document wraps them to its width), and its lines'
 * targets, one per line of out; *lines is allocated (caller frees). */
bool sbx_render_summary_lines(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                              bool ascii, struct sbx_buf *out, struct sbx_summary_line **lines,
                              size_t *nlines, char *err, size_t errsz);

#endif
