/* A comparison of two runs (analyses/compare/compare.h) as text (80 columns: the
 * headline differences on one screen, then every aligned row), markdown (for
 * a ticket) or json (schema 1, the stable contract; the README describes it).
 *
 * Everything from a log is untrusted: text and markdown sanitise it
 * (render/sanitize.h), json escapes it to pure ASCII, and all three redact
 * credential-shaped strings with run A's summary's patterns.
 *
 * Ownership: output is appended to the caller's buffer; sbx_cmp_cell writes
 * into the caller's buffer too. The runs (timelines, summaries, names) are
 * only read. */
#ifndef SBX_RENDER_COMPARE_H
#define SBX_RENDER_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "analyses/compare/compare.h"
#include "render/summary/summary.h" /* enum sbx_summary_format */

/* One run as the renderers name it. */
struct sbx_cmp_run {
    const struct sbx_timeline *tl;
    const struct sbx_summary *sum; /* from sbx_summarize: it carries the patterns to redact with */
    const char *name;              /* as given on the command line (untrusted: sanitised) */
};

/* Renders c (made from a and b) in fmt. ascii: the terminal cannot show
 * UTF-8 (text only). Returns false with err set when the secret patterns
 * cannot be used (a build problem). */
bool sbx_render_compare(const struct sbx_cmp_run *a, const struct sbx_cmp_run *b,
                        const struct sbx_compare *c, enum sbx_summary_format fmt, bool ascii,
                        struct sbx_buf *out, char *err, size_t errsz);

/* The marker of a row kind in the text table: = ! ~ - + > */
char sbx_cmp_marker(enum sbx_cmp_kind k);

/* What differs in a row, in words ("exit 1 -> 0, output, 2.5x slower"),
 * appended to out; nothing when nothing differs. Numbers and fixed words
 * only: safe as it is. ascii: -> and x instead of → and ×. */
void sbx_cmp_diff_words(const struct sbx_compare *c, const struct sbx_cmp_row *r, bool ascii,
                        struct sbx_buf *out);

#endif
