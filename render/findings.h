/* The findings of a run, one item each with its evidence line: what
 * `sbxview check` prints and what an export lists. Nothing is computed
 * here: the items are read from the summary's analyses and the events'
 * findings bits.
 *
 * Evidence is unsanitised (sanitise or escape it when showing it) and
 * already redacted (analyses/secrets/secrets.h). Items come heaviest kind
 * first (model/findings.h's order), then in timeline order; their kinds are
 * the rows with a CHECK.
 *
 * Ownership: sbx_findings_collect fills a struct that owns its items and
 * their evidence (sbx_findings_free); event pointers belong to the
 * timeline. */
#ifndef SBX_RENDER_FINDINGS_H
#define SBX_RENDER_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyses/summary.h"
#include "model/timeline.h"

struct sbx_finding_item {
    uint32_t kind; /* one enum sbx_finding bit, of a row with a CHECK (model/findings.h);
                      0 in sbx_findings_reached's list */
    const struct sbx_event *event;
    char *evidence; /* owned; redacted, not sanitised */
    /* for an event that did not come from the wrapper, what was running
     * then (render/during.h): "running then: …; ended just before: …";
     * owned, redacted, not sanitised; NULL for the wrapper's own events */
    char *during;
};

struct sbx_findings {
    struct sbx_finding_item *f;
    size_t n, cap;
};

/* allowed: enum sbx_finding bits to leave out (0: none). sum must come
 * from sbx_summarize over tl. */
void sbx_findings_collect(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                          uint32_t allowed, struct sbx_findings *out);
void sbx_findings_free(struct sbx_findings *f);

/* The requests and commands that reached a host after an allow-list change
 * added it (analyses/chain.h: the story's items with a "widened before"
 * link), in timeline order, into out (a list of their own): kind 0, the
 * event, evidence "WHAT: reached after the allow list was widened: the
 * allow list gained HOST at T, from inside sandbox S" (redacted), and what
 * ran then as for a finding. */
void sbx_findings_reached(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                          struct sbx_findings *out);

/* The item's evidence and, when it has them, "; " and its during words:
 * the whole line check and the export print; appended to out. */
void sbx_finding_words(const struct sbx_finding_item *f, struct sbx_buf *out);

/* What the cross-check could not conclude because the skew is uncertain
 * (analyses/crosscheck.h), and what a later command log whose skew is
 * uncertain could not conclude unwrapped (analyses/witness.h): one line of sbxview's words (numbers only,
 * nothing from a log) appended to out; false, nothing appended, when the
 * skew is not uncertain. */
bool sbx_findings_skew_note(const struct sbx_summary *sum, struct sbx_buf *out);

#endif
