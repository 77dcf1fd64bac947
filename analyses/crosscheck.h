/* The cross-check of the wrapper's log against the provider's command
 * record (docs/formats/runtime.md, "Cross-check"): which wrapper command each
 * record is, which records no wrapper command explains (they ran outside
 * the wrapper), which wrapper commands the record lacks (the record keeps 14
 * days: older ones are told apart by the record's span), which pairs
 * disagree on the exit code, and the clock skew between the two.
 *
 * A wrapper command and a record match when they are in the same sandbox,
 * their starts are within 2 s (after the skew is taken off), the record's
 * program is the program of one of the command line's simple commands, and
 * the exit codes are equal (a running or unread record matches any). Each
 * side matches at most once; the closest start wins. The skew is the median
 * start offset of a first matching; the second matching uses it.
 *
 * Findings written: SBX_F_OUTSIDE_WRAPPER on records, SBX_F_MISSING_FROM_RECORD
 * and SBX_F_EXIT_MISMATCH on wrapper commands. Only sandboxes that have a
 * record take part: without one, nothing is said about that sandbox.
 *
 * Ownership: the result owns its arrays (sbx_crosscheck_free); the events
 * belong to the timeline, which must outlive it. */
#ifndef SBX_CROSSCHECK_H
#define SBX_CROSSCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

struct sbx_pair {
    const struct sbx_event *wrapper, *record;
};

struct sbx_crosscheck {
    size_t records;                   /* command records loaded */
    size_t checked_commands;          /* wrapper commands in sandboxes that have records */
    struct sbx_pair *pairs;           /* matched, sorted by wrapper event address */
    size_t npairs;
    const struct sbx_event **outside; /* records no wrapper command explains, by time */
    size_t noutside;
    const struct sbx_event **missing; /* wrapper commands within the record's span it lacks */
    size_t nmissing;
    size_t older_than_record;         /* wrapper commands before the record's span */
    struct sbx_pair *exit_mismatch;   /* same command by time and program, other exit code */
    size_t nexit_mismatch;
    int64_t skew_ns;                  /* record start minus wrapper start, median; 0 unknown */
    bool skew_known;
    size_t running, unread;           /* records of background commands */
};

/* Runs the cross-check over the finished timeline (writes findings bits). */
void sbx_crosscheck_run(struct sbx_timeline *tl, struct sbx_crosscheck *cc);
void sbx_crosscheck_free(struct sbx_crosscheck *cc);

/* The record matched to a wrapper command, or NULL. */
const struct sbx_event *sbx_crosscheck_record_of(const struct sbx_crosscheck *cc,
                                                 const struct sbx_event *wrapper);
/* Whether a record was matched to a wrapper command (so views may fold it). */
bool sbx_crosscheck_is_matched_record(const struct sbx_crosscheck *cc, const struct sbx_event *record);

#endif
