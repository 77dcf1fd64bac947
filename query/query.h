/* sbx_query: the terminal view's `/` search and `&` filter over a timeline.
 *
 * A SEARCH is one PCRE2 pattern (JIT, UTF with invalid bytes allowed,
 * multi-line ^ and $, smart case: caseless unless the pattern has an
 * upper-case letter of its own). It matches an event when it matches one of
 * the event's texts, decoded: a command's command line, stdout and stderr;
 * a files event's paths; a network event's host and URL; any event's label
 * (a note's kind name, …).
 *
 * A FILTER is space-separated terms that must all hold:
 *   kind:NAME            command files network lifecycle audit metric span note
 *   failed               exit not 0, or timed out
 *   timedout refused unlisted secret system outside account mismatch hidden
 *                        the findings with that word (model/findings.h;
 *                        unlisted: a host the allow list lacks; mismatch:
 *                        stdout hash or exit code; hidden: invisible or bidi
 *                        characters)
 *   findings             any finding (not a field of the wrong type)
 *   sandbox:PREFIX       the sandbox id starts with PREFIX
 *   exit:N               a command that exited with N
 *   since:TIME until:TIME  start >= TIME, start <= TIME (unknown times never
 *                        pass); TIME is HH:MM, HH:MM:SS or HH:MM:SS.fff on the
 *                        day of sbx_query_time, or a full ISO 8601 timestamp
 *                        (without a zone: UTC, or local time when local)
 *   program:NAME         a command whose program label is NAME
 *   host:NAME            a network event to host NAME, or an event whose texts
 *                        name it as a whole host name (not www.NAME, NAMEx)
 *   id:PREFIX            the event's id (model/evid.h) starts with PREFIX;
 *                        id:ID/KIND: that event, with that finding. A SEARCH
 *                        that is id: and an id prefix is this term too.
 *   anything else        a pattern, as a SEARCH; "quoted text" is always a
 *                        pattern (so "failed" searches for the word) and may
 *                        hold spaces; inside quotes \" is a quote, other
 *                        backslashes are kept for PCRE2. Quotes also work in
 *                        values: program:"pip install".
 *   !TERM                negates a term.
 * An unknown KEY: is an error; a bad pattern is an error with PCRE2's message
 * and its offset in the expression; so is an empty expression.
 *
 * Threads: a compiled query is immutable, shared freely; a scratch belongs to
 * one thread at a time. The timeline must not change during a match or run.
 *
 * Ownership: sbx_query_compile returns a query the caller frees with
 * sbx_query_free; sbx_query_scratch_new one freed with
 * sbx_query_scratch_free; sbx_query_run's *out array belongs to the caller
 * (free()). Nothing keeps a pointer to the caller's text or timeline. */
#ifndef SBX_QUERY_H
#define SBX_QUERY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

struct sbx_query;

enum sbx_query_kind {
    SBX_QUERY_SEARCH, /* the whole text is one pattern */
    SBX_QUERY_FILTER, /* the expression above */
};

/* Where HH:MM lands. */
struct sbx_query_time {
    int64_t day_start_ns; /* midnight of the run's first day in the display zone, UTC ns;
                             SBX_TIME_UNKNOWN: HH:MM terms are an error */
    bool local;           /* the display zone is local time (else UTC) */
};

/* NULL with a one-line message in err on an error. tm may be NULL (as
 * SBX_TIME_UNKNOWN). */
struct sbx_query *sbx_query_compile(enum sbx_query_kind kind, const char *text, size_t len,
                                    const struct sbx_query_time *tm, char *err, size_t errsz);
void sbx_query_free(struct sbx_query *q);

/* True when the query has a (non-negated) pattern, i.e. sbx_query_find can
 * highlight something. */
bool sbx_query_has_pattern(const struct sbx_query *q);

/* Midnight (UTC ns) of the day that holds t, in UTC or in local time (TZ);
 * SBX_TIME_UNKNOWN for SBX_TIME_UNKNOWN. */
int64_t sbx_query_day_start(int64_t t_ns, bool local);

/* Per-thread match state (decoding buffers, PCRE2 match data, JIT stack). */
struct sbx_query_scratch;
struct sbx_query_scratch *sbx_query_scratch_new(void);
void sbx_query_scratch_free(struct sbx_query_scratch *s);

bool sbx_query_match(const struct sbx_query *q, const struct sbx_timeline *tl,
                     const struct sbx_event *ev, struct sbx_query_scratch *s);

/* Progress and cancellation of a run, shared with another thread: it reads
 * done/total (events) and may set cancel at any time. threads: 0 = one per
 * online CPU, at most 8. too_complex counts texts where PCRE2 gave up (match
 * limit): they count as not matching. */
struct sbx_query_job {
    _Atomic size_t done, total;
    _Atomic bool cancel;
    int threads;
    _Atomic size_t too_complex;
    /* the work, when count_work is set: events whose match began, counted
     * as each begins (so a test sees how many began after it cancelled;
     * left off, the run pays nothing for it) */
    bool count_work;
    _Atomic size_t begun;
};

/* The positions (indices into tl->order) of the events that match, in the
 * order given: all of tl->order when subset is NULL, else subset[0..nsubset)
 * (positions; ascending gives ascending results). Returns how many, with the
 * array in *out (NULL when none); SIZE_MAX when cancelled (*out NULL). job
 * may be NULL. */
size_t sbx_query_run(const struct sbx_query *q, const struct sbx_timeline *tl,
                     const uint32_t *subset, size_t nsubset, uint32_t **out,
                     struct sbx_query_job *job);

/* Highlighting: the leftmost non-empty match at or after start in s[0..n)
 * of any of the query's (non-negated) patterns, the longest when several
 * start there, as [*mbegin, *mend). False when none (always, for a query
 * without patterns). */
bool sbx_query_find(const struct sbx_query *q, const char *s, size_t n, size_t start,
                    size_t *mbegin, size_t *mend);

#endif
