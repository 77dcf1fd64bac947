/* The clock offset between the wrapper's log and another log of the same
 * commands (Runtime's command record, or any log whose commands can be
 * paired with the wrapper's): the offset that best aligns the two command
 * sequences (docs/formats/runtime.md, "Cross-check").
 *
 * The caller lists candidate pairs: a wrapper command a and a command b of
 * the other log that could be the same one (same sandbox, program and exit
 * code), whose starts differ by at most SBX_SKEW_WIDE_NS, with off = b's
 * start − a's start. The candidates' offsets around which most others
 * cluster (within a quarter of the tolerance) are each scored: the pairs within SBX_SKEW_TOLERANCE_NS of it, each command used
 * once, the closest first. The highest score wins (then the smaller spread,
 * then the offset nearer 0), refined as the median of its pairs.
 *
 * Ownership: nothing to free; the pairs array is the caller's and is sorted
 * in place. Safe from any thread. */
#ifndef SBX_SKEW_H
#define SBX_SKEW_H

#include <stddef.h>
#include <stdint.h>

#define SBX_SKEW_WIDE_NS (20LL * 60 * 1000000000)  /* candidates within ±20 minutes */
#define SBX_SKEW_TOLERANCE_NS (500LL * 1000000)    /* a pair agrees with an offset within ±500 ms */
/* Fewer agreeing pairs than this make the estimate uncertain, unless every
 * command of the smaller side is among them; so do fewer than half of the
 * smaller side's commands. */
#define SBX_SKEW_MIN_PAIRS 3
/* At most this many candidate pairs are scored: past it the caller takes
 * every k-th wrapper command's candidates (sbx_skew_stride). */
#define SBX_SKEW_MAX_PAIRS ((size_t)1 << 20)

struct sbx_skew_pair {
    uint32_t a, b; /* indices of the wrapper's command and the other log's */
    int64_t off;   /* b's start − a's start */
};

enum sbx_skew_how {
    SBX_SKEW_NONE,      /* nothing to align: one side has no command */
    SBX_SKEW_MEASURED,  /* estimated, enough pairs agree: applied */
    SBX_SKEW_UNCERTAIN, /* estimated from too few pairs (or none): not applied */
    SBX_SKEW_GIVEN,     /* set with --skew: applied as given */
};

struct sbx_skew {
    enum sbx_skew_how how;
    int64_t ns;         /* the other clock minus the wrapper's (UNCERTAIN: the best guess) */
    size_t pairs;       /* pairs agreeing with ns within the tolerance */
    int64_t spread_ns;  /* the farthest of them from ns */
    size_t comparable;  /* commands on the smaller side */
};

/* Estimates the offset from pairs[0..n), na and nb the two sides' command
 * counts: MEASURED, UNCERTAIN or NONE (na or nb is 0). */
void sbx_skew_estimate(struct sbx_skew_pair *pairs, size_t n, size_t na, size_t nb,
                       struct sbx_skew *out);
/* How many pairs agree with the offset `at` (each command once) and their
 * spread, into out->pairs and out->spread_ns (for a given offset). */
void sbx_skew_score_at(struct sbx_skew_pair *pairs, size_t n, size_t na, size_t nb, int64_t at,
                       struct sbx_skew *out);
/* Take every k-th wrapper command's candidates, k = this, for total
 * candidates: 1 while they fit under SBX_SKEW_MAX_PAIRS. */
size_t sbx_skew_stride(size_t total);

#endif
