/* sbx_compare: two runs side by side. Aligns their command sequences and
 * lists the run-level differences; never prints (render/compare/compare*.c does).
 *
 * Commands compared: a run's command events in timeline order, the wrapper's
 * (not SBX_CMD_RECORD) when it has any, else every command event (a run
 * known only from the provider's record or a trace).
 *
 * Normalisation (sbx_cmp_normalize), so that two runs of one task match:
 * the key is the program label (model/program.h), a TAB, then the decoded
 * command line with runs of blanks (space, TAB) made one space, the ends
 * trimmed, and these volatile parts replaced, left to right:
 *   /tmp/…, /var/tmp/…, /dev/shm/… up to a blank, quote or one of ;&|<>()`,
 *                                        -> /tmp/<tmp>  (/var/tmp/<tmp> …)
 *   tmp.XXXXXX (mktemp: "tmp." and 6+ letters/digits), tmpXXXXXXXX (Python's
 *     tempfile: "tmp" and 8+ of [a-z0-9_]), at the start of a word
 *                                        -> tmp.<rand> / tmp<rand>
 *   a UUID (8-4-4-4-12 hex digits)       -> <uuid>
 *   an ISO 8601 date, with its time if any (2026-11-29, 2026-11-29T08:38:48.29Z)
 *                                        -> <time>
 *   a word of 7+ hex digits with a digit and a letter a-f among them (a
 *     hash, a short sha)                 -> <hex>
 *   ":" and 2-5 digits after a letter, digit, "]" or "." (a port)
 *                                        -> :<port>
 *   a word of 5+ digits, with a decimal fraction if any (a PID, an epoch
 *     time)                              -> <n>
 * "Words" end at anything but a letter, digit or _ (a replaced part is never
 * inside a longer identifier: x123456 stays). Two commands match when their
 * keys are equal byte for byte.
 *
 * Alignment: a minimal edit script over the keys (the longest common
 * subsequence: Myers' O((N+M)D) algorithm, linear space by divide and
 * conquer on the middle snake, after trimming the common head and tail and
 * setting aside commands whose key the other run lacks, which cannot match).
 * Memory is O(N+M); sbx_cmp_lcs reports its work arrays' size. Then:
 *   - a deleted and an inserted command with the same key are a move (paired
 *     in order of appearance, per key);
 *   - within one hunk (the deletes and inserts between two kept commands),
 *     the others are zipped in order: a delete and an insert side by side are
 *     one "replaced" row (A's command became B's), the rest only_a / only_b.
 * Rows are in order on both sides (each row's A index, and B index, is
 * greater than those of the rows before it that have one), so one scroll
 * moves both columns.
 *
 * A pair (same, changed, replaced, and the two halves of a move) is compared:
 * exit code (one known and not the other, or both known and different; a
 * timeout counts as an exit), duration (both known, one at least twice the
 * other and at least 1 s apart), stdout hash (both present and different),
 * output (the decoded stdout or stderr differ once both are normalised like
 * a command line: a temp name or a PID in the output is no difference). A
 * kept pair with none of these is "same", with any "changed".
 *
 * Run-level differences: commands only in A / only in B (keys the other run
 * lacks: the first command of each); failures that appeared (keys that failed
 * in B and nowhere in A) and went away (the reverse); files (workspace and
 * system lists of the summaries) changed in one run only, or in both; hosts
 * reached or refused in one run only (or refused in one, reached in the
 * other); account changes (audit actions) and secrets (kind and mask) whose
 * counts differ; findings (event counts per kind) new in B and gone, or, for a
 * kind one run's sources cannot tell, not checked in that run.
 *
 * Ownership: sbx_compare fills a struct sbx_compare that owns its arrays and
 * the keys (free with sbx_compare_free). Event pointers and strings in it
 * (paths, hosts, actions, secret masks) belong to the two timelines and
 * summaries, which must outlive it. Reads the timelines and summaries only:
 * several compares of the same runs may run in parallel. No global state. */
#ifndef SBX_COMPARE_H
#define SBX_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "analyses/summary.h"
#include "model/timeline.h"

#define SBX_CMP_NONE SIZE_MAX

enum sbx_cmp_kind {
    SBX_CMP_SAME,     /* same key, nothing differs */
    SBX_CMP_CHANGED,  /* same key, something differs (see diff) */
    SBX_CMP_REPLACED, /* A's command where B has another (a delete and an insert side by side) */
    SBX_CMP_ONLY_A,   /* deleted: in A only */
    SBX_CMP_ONLY_B,   /* inserted: in B only */
    SBX_CMP_MOVED,    /* one half of a move (a or b set); partner is the other half's row */
    SBX_CMP_KIND_COUNT
};

/* What differs within a pair. */
enum sbx_cmp_diff {
    SBX_CMP_D_EXIT = 1u << 0,
    SBX_CMP_D_DURATION = 1u << 1,
    SBX_CMP_D_STDOUT_HASH = 1u << 2,
    SBX_CMP_D_OUTPUT = 1u << 3,
};

/* One command of a run, as compared. */
struct sbx_cmp_cmd {
    const struct sbx_event *ev; /* the timeline's */
    char *key;                  /* normalised command (owned by the compare); may hold any bytes */
    size_t keylen;
    uint32_t id;                /* equal keys (across both runs) have equal ids */
    bool failed;                /* exit known and not 0, or timed out */
};

struct sbx_cmp_row {
    size_t a, b;            /* indexes into cmd_a / cmd_b, SBX_CMP_NONE when the side is empty */
    enum sbx_cmp_kind kind;
    unsigned diff;          /* enum sbx_cmp_diff bits: for pairs and for both halves of a move */
    double ratio;           /* B's duration / A's; 0 when either is unknown or A's is 0 */
    size_t partner;         /* SBX_CMP_MOVED: the row of the other half; else SBX_CMP_NONE */
};

/* A path changed in at least one run. change_a/change_b: enum sbx_change,
 * or -1 when that run did not change it. */
struct sbx_cmp_file {
    const char *path; /* the summary's */
    bool system;      /* under a system root */
    int change_a, change_b;
};

enum sbx_cmp_host_flags { SBX_CMP_H_REACHED = 1u << 0, SBX_CMP_H_REFUSED = 1u << 1 };

/* A host whose treatment differs between the runs. */
struct sbx_cmp_host {
    const char *host; /* the summary's */
    unsigned a, b;    /* enum sbx_cmp_host_flags; 0: not seen in that run */
};

/* A name counted in both runs (an account action, a secret), counts differing. */
struct sbx_cmp_count {
    const char *name; /* the timeline's or summary's */
    size_t a, b;
};

struct sbx_compare {
    struct sbx_cmp_cmd *cmd_a, *cmd_b;
    size_t na, nb;
    struct sbx_cmp_row *rows;
    size_t nrows;
    size_t count[SBX_CMP_KIND_COUNT]; /* rows of each kind (a move counts once, under MOVED) */

    /* indexes into cmd_a / cmd_b, in run order */
    size_t *only_a, *only_b;           /* the first command of each key the other run lacks */
    size_t nonly_a, nonly_b;
    size_t *fail_new, *fail_gone;      /* fail_new: into cmd_b; fail_gone: into cmd_a */
    size_t nfail_new, nfail_gone;

    struct sbx_cmp_file *files;        /* sorted: system last, then by path */
    size_t nfiles;
    struct sbx_cmp_host *hosts;        /* sorted by host */
    size_t nhosts;
    struct sbx_cmp_count *account;     /* audit actions of the account changes, by name */
    size_t naccount;
    struct sbx_cmp_count *secrets;     /* "kind mask" (name owned by the compare), by name */
    size_t nsecrets;

    /* events carrying each finding bit (index: the bit's position in enum sbx_finding) */
    size_t findings_a[32], findings_b[32];
    uint32_t findings_new, findings_gone; /* enum sbx_finding bits: in B only / in A only */
    /* in A only, of a kind B's sources cannot tell (sbx_summary_checkable):
     * not checked in B, rather than gone; and the reverse */
    uint32_t findings_unchecked_b, findings_unchecked_a;
    uint32_t checkable_a, checkable_b; /* the kinds each run's sources can tell */

    size_t lcs_work_bytes;             /* the alignment's work arrays (sbx_cmp_lcs) */
    char **secret_names;               /* private: the secrets' names, owned */
    size_t nsecret_names;
};

/* Compares run A with run B. Both timelines finished and summarised. */
void sbx_compare(const struct sbx_timeline *tla, const struct sbx_summary *suma,
                 const struct sbx_timeline *tlb, const struct sbx_summary *sumb,
                 struct sbx_compare *out);
void sbx_compare_free(struct sbx_compare *c);

/* True when nothing differs: every row same and every run-level list empty. */
bool sbx_compare_same(const struct sbx_compare *c);

/* The key of a command line: label, TAB, normalised line (the rules above),
 * appended to out. */
void sbx_cmp_normalize(const char *cmd, size_t n, struct sbx_buf *out);
/* The same rules without the label (blanks collapsed, volatile parts
 * replaced), for any text: outputs are compared this way. */
void sbx_cmp_normalize_text(const char *text, size_t n, struct sbx_buf *out);

/* The longest common subsequence of a[0..na) and b[0..nb): match_a[i] is the
 * index in b matched to a[i], or SBX_CMP_NONE (match_a is the caller's, na
 * entries; matches increase in both). Returns the number of matches. When
 * work_bytes is not NULL it gets the bytes of the work arrays used (linear in
 * na + nb). */
size_t sbx_cmp_lcs(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, size_t *match_a,
                   size_t *work_bytes);

const char *sbx_cmp_kind_name(enum sbx_cmp_kind k); /* "same", "changed", … ; static */

#endif
