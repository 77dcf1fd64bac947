/* The findings of a run, one item each with its evidence line: what
 * `sbxview check` prints and what an export lists. Nothing is computed
 * here: the items are read from the summary's analyses and the events'
 * findings bits.
 *
 * Evidence is unsanitised (sanitise or escape it when showing it) and
 * already redacted (analyses/secrets/secrets.h). Items come heaviest kind first, then
 * in timeline order.
 *
 * Ownership: sbx_findings_collect fills a struct that owns its items and
 * their evidence (sbx_findings_free); event pointers belong to the
 * timeline. Names and help strings are static. */
#ifndef SBX_RENDER_FINDINGS_H
#define SBX_RENDER_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyses/summary.h"
#include "model/timeline.h"

/* The kinds, heaviest first; `check --allow` names them. */
#define SBX_FINDING_KINDS(X)                                                              \
    X(ACCOUNT, "account-change", "an account change made from inside a sandbox")         \
    X(OUTSIDE, "outside-wrapper", "a command in Runtime's record the wrapper never ran") \
    X(MISSING, "missing-from-record", "a wrapper command Runtime's record lacks")         \
    X(EXIT, "exit-mismatch", "the record and the wrapper saw other exit codes")          \
    X(REFUSED, "refused-host", "a host the sandbox was refused")                         \
    X(UNLISTED, "unlisted-host", "a host reached or tried that --allow-list lacks")      \
    X(SECRET, "secret", "a credential-shaped string in a command or its output")         \
    X(SIGNATURE, "bad-signature", "a webhook delivery whose signature failed")           \
    X(HASH, "hash-mismatch", "stdout that does not hash to what the recorder took")      \
    X(SYSTEM, "system-file-change", "a change under a system folder such as /etc")       \
    X(HIDDEN, "hidden-text", "invisible or bidi characters in a command or its output")

enum sbx_finding_kind {
#define SBX_FK_ENUM(e, name, help) SBX_FK_##e,
    SBX_FINDING_KINDS(SBX_FK_ENUM)
#undef SBX_FK_ENUM
    SBX_FK_COUNT
};

struct sbx_finding_item {
    enum sbx_finding_kind kind;
    const struct sbx_event *event;
    char *evidence; /* owned; redacted, not sanitised */
};

struct sbx_findings {
    struct sbx_finding_item *f;
    size_t n, cap;
};

const char *sbx_finding_kind_name(enum sbx_finding_kind k);
const char *sbx_finding_kind_help(enum sbx_finding_kind k);
/* false when no kind has that name */
bool sbx_finding_kind_parse(const char *name, enum sbx_finding_kind *k);

/* allowed may be NULL, or SBX_FK_COUNT flags: kinds to leave out. sum must
 * come from sbx_summarize over tl. */
void sbx_findings_collect(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                          const bool *allowed, struct sbx_findings *out);
void sbx_findings_free(struct sbx_findings *f);

#endif
