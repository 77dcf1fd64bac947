/* What a run could not read: every line it skipped and every file it left
 * out, with the reason, for the outputs that gate on a run (`check`,
 * `compare`). A skipped line may be the one a hostile agent broke to hide a
 * command, so these outputs never leave one out.
 *
 * Paths and reasons are redacted with the summary's secret patterns and,
 * in text, sanitised to one line (ASCII when asked); JSON escapes them
 * through base/jsonw.h.
 *
 * Ownership: output is appended to the caller's buffer or written to the
 * caller's writer; the timeline and summary are only read. */
#ifndef SBX_RENDER_SKIPS_H
#define SBX_RENDER_SKIPS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyses/summary.h"
#include "base/buf.h"
#include "base/jsonw.h"
#include "model/timeline.h"

struct sbx_skips_counts {
    size_t lines;  /* lines skipped, every one counted */
    size_t listed; /* of those, the ones listed with their reason (SBX_SKIPS_KEPT a thread) */
    size_t files;  /* files not read */
};

struct sbx_skips_counts sbx_skips_count(const struct sbx_timeline *tl,
                                        const struct sbx_summary *sum);

/* One line each, "LEAD PATH:LINE: REASON" for a skipped line (line_lead),
 * "LEAD PATH: REASON" for a file not read (file_lead), and when lines were
 * skipped beyond those listed, one "LEAD N more skipped lines are counted,
 * not listed". Nothing when the run read everything. */
void sbx_skips_text(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                    const char *line_lead, const char *file_lead, bool ascii,
                    struct sbx_buf *out);

/* Three members of the object being written: "skipped_lines" (an array of
 * {source, line, reason}), "skipped_lines_total" (every skipped line, listed
 * or not) and "unread_files" (an array of {path, reason}). */
void sbx_skips_json(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                    struct sbx_jsonw *w);

#endif
