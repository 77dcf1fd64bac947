/* The cross-check of the wrapper's log against the provider's command
 * record (docs/formats/runtime.md, "Cross-check"): which wrapper command each
 * record is, which records no wrapper command explains (they ran outside
 * the wrapper), which wrapper commands the record lacks (the record keeps 14
 * days: older ones are told apart by the record's span), which pairs
 * disagree on the exit code, and the clock skew between the two.
 *
 * First the clocks (sbx_crosscheck_align, before any other analysis): the
 * record's offset from the wrapper's clock is estimated over ±20 minutes by
 * the best alignment of the two command sequences (analyses/skew.h), or
 * given (--skew); when it is measured or given, every Runtime source is put
 * on the wrapper's clock with it (model/timeline.h, sbx_timeline_set_clock).
 *
 * Then the matching (sbx_crosscheck_run): a wrapper command and a record
 * match when they are in the same sandbox, their starts are within
 * SBX_CROSSCHECK_WINDOW_NS on the wrapper's clock, the record's program is
 * the program of one of the command line's simple commands, and the exit
 * codes are equal (a running or unread record matches any). Each side
 * matches at most once; the closest start wins. Another analysis pairing
 * two command logs uses the same rule: sbx_crosscheck_same_command, and
 * sbx_skew_estimate for their clocks.
 *
 * Findings written: SBX_F_OUTSIDE_WRAPPER on records, SBX_F_MISSING_FROM_RECORD
 * and SBX_F_EXIT_MISMATCH on wrapper commands. Only sandboxes that have a
 * record take part: without one, nothing is said about that sandbox. When
 * the skew is uncertain, none is written: what is left unmatched is listed
 * as not concluded instead.
 *
 * Ownership: the result owns its arrays (sbx_crosscheck_free); the events
 * belong to the timeline, which must outlive it. */
#ifndef SBX_CROSSCHECK_H
#define SBX_CROSSCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyses/skew.h"
#include "model/timeline.h"

/* Starts within 2 s, the edge included, once the skew is taken off. */
#define SBX_CROSSCHECK_WINDOW_NS (2000LL * 1000000)

/* --skew SOURCE=DURATION: a source's clock minus the wrapper's. SOURCE is a
 * source's path as given, its file name, its format's name, or "runtime"
 * (every Runtime source). Borrowed: the caller keeps the strings. */
struct sbx_skew_given {
    const char *source;
    int64_t ns;
};

struct sbx_pair {
    const struct sbx_event *wrapper, *record;
};

struct sbx_crosscheck {
    size_t records;                   /* command records loaded */
    size_t checked_commands;          /* wrapper commands in sandboxes that have records */
    struct sbx_pair *pairs;           /* matched, sorted by wrapper event address */
    size_t npairs;
    const struct sbx_event **matched_records; /* the pairs' records, by address */
    const struct sbx_event **outside; /* records no wrapper command explains, by time */
    size_t noutside;
    const struct sbx_event **missing; /* wrapper commands within the record's span it lacks */
    size_t nmissing;
    size_t older_than_record;         /* wrapper commands before the record's span */
    struct sbx_pair *exit_mismatch;   /* same command by time and program, other exit code */
    size_t nexit_mismatch;
    int64_t skew_ns;                  /* the skew applied: record clock minus wrapper's; 0 none */
    bool skew_known;                  /* skew.how is MEASURED or GIVEN */
    struct sbx_skew skew;             /* how it was found, from how many pairs */
    /* with an uncertain skew, instead of outside/missing/exit_mismatch:
     * what is left unmatched, concluding nothing */
    const struct sbx_event **unmatched_records, **unmatched_commands;
    size_t nunmatched_records, nunmatched_commands;
    size_t running, unread;           /* records of background commands */
};

/* Estimates the record's clock (or takes a given one) and puts the Runtime
 * sources on the wrapper's clock; a source a given names gets its offset,
 * whatever its format. Fills cc->skew, skew_ns and skew_known; call before
 * the other analyses, then sbx_crosscheck_run (which keeps them). given is
 * borrowed for the call. */
void sbx_crosscheck_align(struct sbx_timeline *tl, const struct sbx_skew_given *given,
                          size_t ngiven, struct sbx_crosscheck *cc);
/* Runs the cross-check over the finished timeline (writes findings bits). */
void sbx_crosscheck_run(struct sbx_timeline *tl, struct sbx_crosscheck *cc);
/* Whether wrapper command w and command r of another log can be the same
 * command, times aside: same sandbox, r's program among w's programs, exits
 * agreeing. scratch is the caller's, for decoding w's text. */
bool sbx_crosscheck_same_command(const struct sbx_timeline *tl, const struct sbx_event *w,
                                 const struct sbx_event *r, struct sbx_buf *scratch);
/* Whether a given names the source. */
bool sbx_skew_given_names(const struct sbx_skew_given *g, const struct sbx_source *src);
void sbx_crosscheck_free(struct sbx_crosscheck *cc);

/* The record matched to a wrapper command, or NULL. */
const struct sbx_event *sbx_crosscheck_record_of(const struct sbx_crosscheck *cc,
                                                 const struct sbx_event *wrapper);
/* Whether a record was matched to a wrapper command (so views may fold it). */
bool sbx_crosscheck_is_matched_record(const struct sbx_crosscheck *cc, const struct sbx_event *record);

#endif
