/* The egress proxy's clock against the wrapper's log (docs/formats/squid.md,
 * "Clock"). Squid writes its own times; a proxy on another host, or in a
 * container with its own clock, is seconds or minutes apart from the
 * wrapper, and then every "During" link and every request shown between
 * commands is wrong.
 *
 * The rule, per source of proxy requests (SBX_EV_NETWORK):
 *   - a pair is a request and a wrapper command (of each sandbox's wrapper
 *     log, analyses/witness.h) in the request's sandbox, or any when the
 *     request has none, whose command line names the request's host (a
 *     word of it, compared without case: `github.com` is not named by
 *     `api.github.com`);
 *   - a pair agrees with an offset when the request, moved by it, lies
 *     inside the command's [start, end] (its whole span: Squid gives the
 *     end and the elapsed time), so each pair allows an interval of
 *     offsets;
 *   - over ±SBX_SKEW_WIDE_NS, the offsets that most requests agree with
 *     (each request once) win; among them, those that put most of all the
 *     requests (named or not) inside a command of their sandbox; the
 *     offset is the middle of that range, or 0 when 0 is in it (the
 *     evidence cannot tell the clocks apart), the spread its half width;
 *   - the support is the requests agreeing; comparable the requests that
 *     have a pair. Too few agree (analyses/skew.h, SBX_SKEW_MIN_PAIRS and
 *     half of comparable), or they lie in too few of the paired commands
 *     by the same rule: the skew is uncertain and the proxy keeps its own
 *     clock; no pair at all: nothing to align (NONE, its own clock).
 *   - a measured offset moves the source onto the wrapper's clock
 *     (sbx_timeline_set_clock); one given with --skew (already applied by
 *     sbx_crosscheck_align) is kept, and its support scored.
 *
 * Ownership: the result owns its array (sbx_proxy_clocks_free); the
 * timeline must outlive it. */
#ifndef SBX_PROXYCLOCK_H
#define SBX_PROXYCLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "analyses/skew.h"
#include "model/timeline.h"

struct sbx_proxy_clock {
    uint32_t source;
    const char *format; /* the source's format name (a static string) */
    /* skew.ns: the source's clock_offset when applied (MEASURED, GIVEN),
     * the best guess when UNCERTAIN; pairs: requests agreeing; comparable:
     * requests with a pair; spread_ns: half the width of the range of
     * offsets that fit as well */
    struct sbx_skew skew;
    /* the wrapper commands of the pairs, and those of the agreeing pairs:
     * the estimate is uncertain too when they are too few by the same rule
     * (one command's many requests are one piece of evidence) */
    size_t commands, commands_agreeing;
};

struct sbx_proxy_clocks {
    struct sbx_proxy_clock *c; /* one per source of proxy requests, by source */
    size_t n;
};

/* Estimates each proxy source's clock and moves the measured ones onto the
 * wrapper's (then sorts the order again). Run after sbx_witness_run. */
void sbx_proxy_clocks_run(struct sbx_timeline *tl, struct sbx_proxy_clocks *out);
void sbx_proxy_clocks_free(struct sbx_proxy_clocks *pc);
/* The clock of source src, or NULL when it is no proxy source. */
const struct sbx_proxy_clock *sbx_proxy_clock_of(const struct sbx_proxy_clocks *pc, uint32_t src);

/* The words of a command line, for the host rule above: each maximal run of
 * letters, digits, '.', '-' and '_' with its dots and hyphens trimmed at
 * both ends, given to fn (valid only during the call; not lower-cased). */
void sbx_proxy_words(const char *s, size_t n, void (*fn)(const char *w, size_t len, void *ctx),
                     void *ctx);

#endif
