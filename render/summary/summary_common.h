/* Shared by the three summary renderers (internal to render/). */
#ifndef SBX_SUMMARY_COMMON_H
#define SBX_SUMMARY_COMMON_H

#include <limits.h>

#include "analyses/secrets/secrets.h"
#include "render/findings.h"
#include "render/summary/summary.h"

/* The markdown summary as `summary --format markdown` prints it names every
 * list whole, as the text does; an export shortens them to fit a ticket
 * (sbx_render_summary_markdown). */
#define SBX_SUM_LIST_WHOLE INT_MAX

struct sbx_sumctx {
    const struct sbx_timeline *tl;
    const struct sbx_summary *sum;
    const struct sbx_secrets *secrets; /* the summary's */
    struct sbx_secrets_scratch *scratch;
    bool ascii;
    int cols;               /* text: lines wrap at this width (0: never, for the summary view) */
    int list_max;           /* markdown: items each list shows; SBX_SUM_LIST_WHOLE: all of them */
    const char *const *sgr; /* NULL: no colour */
    struct sbx_summary_line *lines; /* text only, when asked: one per line written */
    size_t nlines, caplines;
    const struct sbx_review *review;             /* borrowed, or NULL */
    const struct sbx_review_state *review_state; /* its state, or NULL */
    struct sbx_buf tmp; /* decoded text */
    struct sbx_buf red; /* redacted text */
    bool story_whole;   /* text: the story uncut (--story) */
    /* json: where the text goes in pieces as it is made (the look's); NULL: all in out */
    void (*spill)(void *ctx, const char *text, size_t len);
    void *spill_ctx;
    size_t spill_at;
    /* check's findings, collected on first use (sbx_sum_item_words), and
     * sorted by event to find an item's evidence */
    struct sbx_findings findings;
    const struct sbx_finding_item **by_event;
    bool findings_ready;
};

/* A source path for display: without a leading "./". */
const char *sbx_display_path(const char *path);
/* The event's decoded command line with secrets redacted (valid until the next call). */
const char *sbx_sum_command(struct sbx_sumctx *c, const struct sbx_event *e, size_t *len);
/* s with secrets redacted (valid until the next call). */
const char *sbx_sum_redact(struct sbx_sumctx *c, const char *s, size_t n, size_t *len);
/* The proxy's hosts in the order the text and markdown summaries list
 * them: those with denials first, then most requests, then by name. An
 * allocated array of indices into sum->proxy_hosts (caller frees); NULL
 * when there are none. */
size_t *sbx_sum_proxy_order(const struct sbx_timeline *tl, const struct sbx_summary *s);
/* How many paths the three change lists (added, changed, removed) hold. */
size_t sbx_change_count(const struct sbx_strlist *lists);

/* The cross-check, the account changes and the sandbox's life in words
 * (numbers and fixed words only: safe as they are), appended to out. */
void sbx_sum_record_words(const struct sbx_summary *s, struct sbx_buf *out);
void sbx_sum_account_words(const struct sbx_timeline *tl, const struct sbx_summary *s,
                           struct sbx_buf *out);
/* The later logs of the commands (sandboxio's, OTLP's) against the
 * wrapper's: each one's commands witnessed, unwrapped and its clock (fixed
 * words and numbers only); false when there is none. */
bool sbx_sum_witness_words(const struct sbx_timeline *tl, const struct sbx_summary *s,
                           struct sbx_buf *out);
/* A proxy log's clock against the wrapper's (analyses/proxyclock.h):
 * fixed words and numbers only. */
void sbx_sum_proxy_clock_words(const struct sbx_proxy_clock *pc, struct sbx_buf *out);
/* false when there is nothing to say (no lifecycle event, no metrics) */
bool sbx_sum_sandbox_words(const struct sbx_summary *s, struct sbx_buf *out);

/* The story (analyses/chain.h), for all three formats (summary_story.c).
 * Words hold log text, unsanitised and unredacted: each format passes them
 * through render/untrusted.h or render/md.h. */
/* How many items carry a finding, and the first item of the heaviest kind
 * (NULL when none does). */
size_t sbx_sum_story_findings(const struct sbx_summary *s, const struct sbx_story_item **heaviest);
/* "N findings, the heaviest: WORDS: ITEM" or "no findings", appended
 * (the item's detail, not what ran then). */
void sbx_sum_verdict_words(struct sbx_sumctx *c, struct sbx_buf *out);
/* An item: its finding's words (or "reached after the allow list was
 * widened"), then what its evidence says, then what ran then, appended. */
void sbx_sum_item_words(struct sbx_sumctx *c, const struct sbx_story_item *it, struct sbx_buf *out);
/* The two halves of those words: the kind's (static, sbxview's own) and
 * what the evidence says (log text, appended). */
const char *sbx_sum_item_kind_words(const struct sbx_story_item *it);
void sbx_sum_item_detail(struct sbx_sumctx *c, const struct sbx_story_item *it, struct sbx_buf *out);
/* "; running then: …; ended just before: …" for an item whose event did not
 * come from the wrapper (render/during.h), appended; nothing otherwise. */
void sbx_sum_item_during(struct sbx_sumctx *c, const struct sbx_story_item *it, struct sbx_buf *out);
void sbx_sum_ctx_free(struct sbx_sumctx *c);
/* The i-th changed path in the order the summaries list them (the
 * workspace's, then the system folders'; added, changed, removed; by name),
 * with its writers (analyses/written.h; NULL when none was worked out);
 * false past the last. */
struct sbx_sum_path {
    const char *path;
    int change; /* enum sbx_change */
    bool system;
    const struct sbx_written *written;
};
bool sbx_sum_path_at(const struct sbx_summary *s, size_t i, struct sbx_sum_path *out);

void sbx_render_text(struct sbx_sumctx *c, struct sbx_buf *out);
void sbx_render_markdown(struct sbx_sumctx *c, struct sbx_buf *out);
void sbx_render_json(struct sbx_sumctx *c, struct sbx_buf *out);

#endif
