/* The skipped lines of one source in words, for the message a forced
 * format that read nothing from a file gives: every line named, grouped by
 * reason, consecutive lines as a range ("lines 1-3, 7: the time is not
 * seconds.milliseconds; line 4: not JSON: ..."), reasons in the order
 * their first line comes.
 *
 * The reasons are the importers' own words (ASCII, quoting no input).
 * Ownership: appended to the caller's sbx_buf; nothing else is allocated
 * for the caller. Reads the timeline only: safe while nothing adds to it. */
#ifndef SBX_SKIPWORDS_H
#define SBX_SKIPWORDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "model/timeline.h"

/* Longest text sbx_skip_words appends before it stops listing and counts
 * the rest ("; +N more lines"). */
#define SBX_SKIPWORDS_MAX 2000

/* The listed skips of source `source` in words, appended to out; skipped
 * lines past the timeline's listing cap are counted at the end ("; +N more
 * lines"). Nothing when the source has no skip. */
void sbx_skip_words(const struct sbx_timeline *tl, uint32_t source, struct sbx_buf *out);

#endif
