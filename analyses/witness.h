/* One thing seen twice is one thing: the events that two logs give of the
 * same happening, paired so that it is counted, drawn and cross-checked
 * once (docs/formats/runtime.md and docs/formats/sandboxio.md, "Witnesses").
 *
 * Commands: in each sandbox the wrapper's log is the first of the
 * recorder's, sandboxio's audit and OpenTelemetry's tool calls that has
 * commands there. A command of a later log is a second witness of a wrapper
 * command when they are in the same sandbox, their starts are within
 * SBX_WITNESS_WINDOW_NS (after that log's clock offset is taken off), the
 * program agrees (the same label, or one side's label is a program of the
 * other's command line) and the exits agree (equal, or one unknown). Each
 * command is witnessed at most once per log; the closest start wins. A
 * later log's clock offset is estimated as the record's is (analyses/skew.h,
 * over ±20 minutes) or given (--skew); when measured, the log is put on the
 * wrapper's clock (sbx_timeline_set_clock, then the order is sorted again).
 * A command of a later log that no wrapper command explains is
 * SBX_F_UNWRAPPED; when the log's skew is uncertain, it is paired at the
 * best guess, stays on its own clock, and what is left unmatched is listed
 * as unconcluded instead (no finding).
 *
 * Runtime's events (lifecycle events, file watches, notes): those with the
 * same Runtime event id, kind, type (a file watch's root), sandbox and time
 * (the events file, webhook deliveries of it, a page fetched twice) are one
 * event. The one shown is a delivery whose signature failed, else
 * one that verified, else any delivery, else the first; the others are its
 * second witnesses.
 *
 * Ownership: the result owns its arrays (sbx_witness_free); the events
 * belong to the timeline, which must outlive it. A view's order array is
 * released by sbx_witness_view_free. */
#ifndef SBX_WITNESS_H
#define SBX_WITNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyses/skew.h"
#include "model/timeline.h"

/* Starts this close are the same command: the cross-check's window. */
#define SBX_WITNESS_WINDOW_NS INT64_C(2000000000)

/* A second account (second) of the event another row shows (first). */
struct sbx_witness {
    const struct sbx_event *first, *second;
};

/* A later log's clock against the wrapper's: skew.ns is the source's
 * clock_offset when applied (MEASURED, GIVEN), the best guess when not. */
struct sbx_witness_clock {
    uint32_t source;
    const char *format; /* the source's format name (a static string) */
    struct sbx_skew skew;
};

struct sbx_witnesses {
    struct sbx_witness *by_second; /* sorted by the second's address */
    struct sbx_witness *by_first;  /* the same, by the first's address, then timeline order */
    size_t n;
    size_t commands, lifecycle;    /* of the n: second accounts of commands, of Runtime's events */
    const struct sbx_event **unwrapped; /* commands only a later log saw, by time */
    size_t nunwrapped;
    const struct sbx_event **unconcluded; /* unmatched commands of logs whose skew is uncertain, by time */
    size_t nunconcluded;
    struct sbx_witness_clock *clocks; /* one per later log with commands, by source */
    size_t nclocks;
};

/* Which log a command (not a record) is from, the wrapper's own first: 0
 * the recorder (or any format not below), 1 sandboxio, 2 OpenTelemetry. */
unsigned sbx_witness_rank(const struct sbx_timeline *tl, const struct sbx_event *e);
/* Each sandbox's wrapper log, by sandbox id (0 to strings.n): the lowest
 * rank with commands there, ~0u where none ran. The caller frees it (free). */
unsigned *sbx_witness_wrapper_ranks(const struct sbx_timeline *tl);

/* Pairs the witnesses of the finished timeline; sets SBX_F_UNWRAPPED and
 * moves the later logs onto the wrapper's clock (call before the analyses
 * that read times). */
void sbx_witness_run(struct sbx_timeline *tl, struct sbx_witnesses *w);
void sbx_witness_free(struct sbx_witnesses *w);

/* The event whose row shows e, when e is a second witness; else NULL. */
const struct sbx_event *sbx_witness_first_of(const struct sbx_witnesses *w,
                                             const struct sbx_event *e);
static inline bool sbx_witness_is_second(const struct sbx_witnesses *w, const struct sbx_event *e)
{
    return sbx_witness_first_of(w, e) != NULL;
}
/* The second witnesses of first: *n of them, in timeline order (valid until
 * sbx_witness_free); NULL and 0 when it has none. */
const struct sbx_witness *sbx_witness_seconds(const struct sbx_witnesses *w,
                                              const struct sbx_event *first, size_t *n);
/* The findings of e and of its second witnesses, as its row shows them. */
uint32_t sbx_witness_findings(const struct sbx_witnesses *w, const struct sbx_event *e);

/* The timeline as the cross-check reads it: the same sources, strings and
 * events, in an order without the commands that are not the wrapper's own
 * (second witnesses, unwrapped and unconcluded commands). Read-only: nothing may be
 * added to the view. The view shares tl's blocks, so its order holds
 * slots of them; when it leaves nothing out, view->order_ is tl's own (no
 * copy of 4 bytes an event); release it with sbx_witness_view_free, which
 * frees only a copy. */
void sbx_witness_view(const struct sbx_timeline *tl, const struct sbx_witnesses *w,
                      struct sbx_timeline *view);
void sbx_witness_view_free(const struct sbx_timeline *tl, struct sbx_timeline *view);

#endif
