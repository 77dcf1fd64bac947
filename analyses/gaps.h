/* A line removed from the log: a command in Runtime's record that no
 * wrapper command explains (outside the wrapper, analyses/crosscheck.h) and
 * that fits a gap in the wrapper's log of its sandbox is "possibly removed
 * from the log, between line N and N+1" — the wrapper ran it and its line
 * is gone — rather than run outside the wrapper.
 *
 * The rule, on the one clock (after the skew is taken off), with the
 * wrapper's own commands of the record's sandbox (the timeline is the
 * cross-check's view, sbx_witness_view: a second witness or a command only
 * another log saw is not one; a command's end is its start when unknown):
 *   - no wrapper command overlaps the record: each ended at or before the
 *     record's start, or started at or after its end (start + duration). A
 *     record that overlaps one ran beside the wrapper: outside the wrapper;
 *   - a wrapper command ended before it (the last to end: line N) and one
 *     started after it (the first: line N+1): a record before the first
 *     command or after the last is no gap, and stays outside the wrapper;
 *   - both are lines of one source, the earlier one first: the log around
 *     the gap is one continuous log;
 *   - the record ended, and its length is known: a background command
 *     (running, or never read) may have run on past the next line.
 * Such a record moves from the cross-check's outside list to the gaps, and
 * its finding from SBX_F_OUTSIDE_WRAPPER to SBX_F_REMOVED_FROM_LOG. Time is
 * O((c + r) log c) for c commands and r records outside the wrapper.
 *
 * Ownership: the summary owns the gaps (free); events in them belong to
 * the timeline. */
#ifndef SBX_GAPS_H
#define SBX_GAPS_H

#include <stddef.h>

#include "model/timeline.h"

struct sbx_crosscheck;
struct sbx_witnesses;

struct sbx_gap {
    const struct sbx_event *record;        /* Runtime's record of the command */
    const struct sbx_event *before, *after; /* the wrapper's lines around the gap */
};

/* Moves the records of cc->outside that fit a gap into *gaps (by time). */
void sbx_gaps_find(struct sbx_timeline *tl, const struct sbx_witnesses *w, struct sbx_crosscheck *cc,
                   struct sbx_gap **gaps, size_t *ngaps);

#endif
