/* A run's review (model/review.h) as text, markdown and JSON: the verdict,
 * the triaged findings, the notes, tags and marks, the ids that no longer
 * name an event (orphaned: listed, never dropped), the lines that could not
 * be read, and the history. Everything a reviewer wrote goes through
 * render/untrusted.h (redacted, then sanitised or escaped) or render/md.h.
 *
 * Ownership: appends to the caller's sbx_buf (or writes members through
 * the caller's sbx_jsonw); keeps nothing. */
#ifndef SBX_RENDER_REVIEW_H
#define SBX_RENDER_REVIEW_H

#include <stdbool.h>

#include "analyses/summary.h"
#include "base/buf.h"
#include "base/jsonw.h"
#include "model/review.h"
#include "model/timeline.h"

/* Whether an item id (an event's or a finding's) names something in tl. */
bool sbx_review_item_found(const struct sbx_timeline *tl, const char *item);

void sbx_review_text(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                     const struct sbx_review *r, const struct sbx_review_state *st, bool ascii,
                     struct sbx_buf *out);
void sbx_review_markdown(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                         const struct sbx_review *r, const struct sbx_review_state *st,
                         struct sbx_buf *out);
/* A whole JSON document ("schema": 1) ... */
void sbx_review_json(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                     const struct sbx_review *r, const struct sbx_review_state *st,
                     struct sbx_buf *out);
/* ... or its members inside an object being written (the summary's "review"). */
void sbx_review_json_members(const struct sbx_timeline *tl, const struct sbx_review *r,
                             const struct sbx_review_state *st, struct sbx_jsonw *w);

#endif
