/* The single analyses that sbx_summarize (analyses/summary.c) runs, one
 * file each, in this order: after the witnesses (analyses/witness.h, which
 * the others read to count each thing once) span, commands, records, spans,
 * files, content, network, denials, fields, risky, and with an allow list unlisted. Each reads the
 * timeline, fills its part of the summary and sets findings bits
 * (model/findings.h) from the facts the importers stored: importers set
 * none but SBX_F_BAD_FIELD. Internal to analyses/: everyone else calls
 * sbx_summarize. */
#ifndef SBX_ANALYSES_H
#define SBX_ANALYSES_H

#include "analyses/summary.h"

/* Asks for the event a few places ahead of i in the order: a walk over every
 * event of a big timeline waits on memory, not on its work. */
static inline void sbx_prefetch_ahead(const struct sbx_timeline *tl, size_t i)
{
    if (i + 16 < tl->n)
        __builtin_prefetch(sbx_tl_at(tl, i + 16));
}

/* The run's span (start, end) and its parts: the sandbox's life and the
 * commands' active span. Before sbx_analyze_records (the audit window). */
void sbx_analyze_span(const struct sbx_timeline *tl, struct sbx_summary *sum);
/* The commands: counts, the longest, failures by program (a second
 * witness is not counted again); SBX_F_TIMED_OUT and SBX_F_FAILED. */
void sbx_analyze_commands(struct sbx_timeline *tl, struct sbx_summary *sum);
/* Files events: the changes, system roots; SBX_F_SYSTEM_FILES. */
void sbx_analyze_files(struct sbx_timeline *tl, struct sbx_summary *sum);
/* The provider's records: the cross-check (SBX_F_OUTSIDE_WRAPPER,
 * SBX_F_MISSING_FROM_RECORD, SBX_F_EXIT_MISMATCH), the audit log's account
 * changes (SBX_F_ACCOUNT_CHANGE, SBX_F_ACCOUNT_INSIDE), lifecycle events,
 * webhook signatures (SBX_EVT_SIG_BAD: SBX_F_BAD_SIGNATURE), metrics peaks.
 * The cross-check reads the wrapper's own commands (sbx_witness_view); a
 * lifecycle event's second witness is not counted again.
 * After sbx_analyze_commands (it uses the run's span and sandboxes). */
void sbx_analyze_records(struct sbx_timeline *tl, struct sbx_summary *sum);
/* The egress proxy's requests: per-host counts and bytes, hosts reached,
 * and the proxy's denials (SBX_NET_DENIED) as refused hosts, merged with
 * those output showed, and SBX_F_REFUSED_HOST. After sbx_analyze_content. */
void sbx_analyze_network(struct sbx_timeline *tl, struct sbx_summary *sum);
/* Connections the sandbox's network policy refused (no host named): a
 * refused-host finding on each such operation, and their list and count. */
void sbx_analyze_denials(struct sbx_timeline *tl, struct sbx_summary *sum);
/* OpenTelemetry spans: their trees and counts; SBX_F_FAILED for a span
 * whose status is an error (SBX_EVT_ERROR). After sbx_analyze_commands. */
void sbx_analyze_spans(struct sbx_timeline *tl, struct sbx_summary *sum);

/* Records that give a field twice (SBX_EVT_DUP_FIELD): SBX_F_DUP_FIELD. A
 * forged line can add a second "exit" after the real one; the importers
 * read the last, as jansson does, and this says so. */
void sbx_analyze_fields(struct sbx_timeline *tl);

/* Risky commands (analyses/risky.h) in the commands' text, the metadata
 * endpoint in the proxy's hosts, and /etc/hosts lines in loaded diffs: the
 * SBX_F_RISKY bits and sum->risky. After sbx_witness_run. */
void sbx_analyze_risky(struct sbx_timeline *tl, struct sbx_summary *sum);

/* Where an analysis saw a host the allow list lacks (its event already
 * marked SBX_F_UNLISTED_HOST); order is the event's timeline position. */
struct sbx_unlisted_hit {
    char *host; /* owned */
    size_t order;
    const struct sbx_event *event;
    size_t events; /* the events it stands for: 1, or a host's requests from order on */
};
struct sbx_unlisted_hits {
    struct sbx_unlisted_hit *h;
    size_t n, cap;
};
void sbx_unlisted_hit_add(struct sbx_unlisted_hits *hits, const char *host, size_t len,
                          size_t order, struct sbx_event *e);

/* Output and command text: stdout hashes (SBX_F_HASH_MISMATCH), secrets
 * (SBX_F_SECRET), refused hosts (SBX_F_REFUSED_HOST), hidden text
 * (SBX_F_HIDDEN_TEXT), hosts named in commands. The heavy one: runs on
 * `threads` threads. allow (may be NULL) is checked against every host
 * output and command lines show; what it lacks is added to hits (its
 * events marked SBX_F_UNLISTED_HOST). */
bool sbx_analyze_content(struct sbx_timeline *tl, struct sbx_summary *sum, int threads,
                         const struct sbx_allowlist *allow, struct sbx_unlisted_hits *hits,
                         char *err, size_t errsz);
/* The proxy's hosts against allow, then every hit merged into
 * sum->unlisted (hits is emptied). After sbx_analyze_network. */
void sbx_analyze_unlisted(struct sbx_timeline *tl, struct sbx_summary *sum,
                          const struct sbx_allowlist *allow, struct sbx_unlisted_hits *hits);

#endif
