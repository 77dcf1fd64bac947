/* What was running when an event that did not come from the wrapper
 * happened (analyses/cmdlink.h): every wrapper command running in its
 * sandbox then, outermost first, and the one that ended just before, as
 * check, the summaries, the export and the detail view say it.
 *
 * Ownership: struct sbx_during holds pointers to the timeline's events
 * (they belong to the timeline); nothing to free. The JSON and the text
 * carry log text redacted (render/untrusted.h). */
#ifndef SBX_RENDER_DURING_H
#define SBX_RENDER_DURING_H

#include <stdbool.h>
#include <stddef.h>

#include "analyses/summary.h"
#include "base/jsonw.h"
#include "model/timeline.h"

/* At most this many of the commands running then are named; the rest are
 * counted ("and N more"). */
enum { SBX_DURING_MAX = 16 };

struct sbx_during {
    const struct sbx_event *running[SBX_DURING_MAX]; /* outermost first */
    size_t nrunning;                                 /* of them in running[] */
    size_t total;                                    /* all that were running */
    const struct sbx_event *inner;                   /* the innermost of them, or NULL */
    const struct sbx_event *ended;                   /* ended just before, or NULL */
};

/* Fills d for e and returns true when e did not come from the wrapper
 * (sbx_event_not_wrapper) and sum has the index of what ran when (without
 * the wrapper's log, the commands of the logs there are); false, d
 * emptied, otherwise. */
bool sbx_during_of(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                   const struct sbx_event *e, struct sbx_during *d);

/* The JSON members (docs/summary-json.md): "during" (the innermost, or
 * null), "during_all" (outermost first, at most SBX_DURING_MAX),
 * "during_count" (all of them) and "ended_before" (or null), each command
 * a reference {at, command, source, line}. */
void sbx_during_json(const struct sbx_timeline *tl, const struct sbx_during *d, struct sbx_jsonw *w);

/* "running then: $ OUTER (started T) and within it $ INNER (started T);
 * ended just before: $ CMD (started T)" ("no command" for none, a record
 * as "PROGRAM (Runtime's record, started T)", ", and N more" past the
 * bound), appended to out; each command line redacted, then cut. */
void sbx_during_text(const struct sbx_timeline *tl, const struct sbx_during *d, struct sbx_buf *out);

#endif
