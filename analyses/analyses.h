/* The single analyses that sbx_summarize runs, one file each. Each reads the
 * timeline, may set findings bits on events, and fills its part of the
 * summary. Internal to analyses/: everyone else calls sbx_summarize. */
#ifndef SBX_ANALYSES_H
#define SBX_ANALYSES_H

#include "analyses/summary.h"

/* Asks for the event a few places ahead of i in the order: a walk over every
 * event of a big timeline waits on memory, not on its work. */
static inline void sbx_prefetch_ahead(const struct sbx_timeline *tl, size_t i)
{
    if (i + 16 < tl->n)
        __builtin_prefetch(tl->order[i + 16]);
}

void sbx_analyze_commands(struct sbx_timeline *tl, struct sbx_summary *sum);
void sbx_analyze_files(struct sbx_timeline *tl, struct sbx_summary *sum);
/* Output and command text: stdout hashes, secrets, refused hosts, hosts named
 * in commands. The heavy one: runs on `threads` threads. */
/* The provider's records: the cross-check, the audit log's account
 * changes, lifecycle events, webhook signatures, metrics peaks. After
 * sbx_analyze_commands (it uses the run's span and sandboxes). */
void sbx_analyze_records(struct sbx_timeline *tl, struct sbx_summary *sum);
/* The egress proxy's requests: per-host counts and bytes, hosts reached,
 * and the proxy's denials as refused hosts (merged with those output
 * showed). After sbx_analyze_content. */
void sbx_analyze_network(struct sbx_timeline *tl, struct sbx_summary *sum);
/* Connections the sandbox's network policy refused (no host named): a
 * refused-host finding on each such operation, and their list and count. */
void sbx_analyze_denials(struct sbx_timeline *tl, struct sbx_summary *sum);
/* OpenTelemetry spans: their trees and counts. After sbx_analyze_commands
 * (a tool call's failure is its finding). */
void sbx_analyze_spans(struct sbx_timeline *tl, struct sbx_summary *sum);

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

/* allow (may be NULL) is checked against every host output and command lines
 * show; what it lacks is added to hits. */
bool sbx_analyze_content(struct sbx_timeline *tl, struct sbx_summary *sum, int threads,
                         const struct sbx_allowlist *allow, struct sbx_unlisted_hits *hits,
                         char *err, size_t errsz);
/* The proxy's hosts against allow, then every hit merged into
 * sum->unlisted (hits is emptied). After sbx_analyze_network. */
void sbx_analyze_unlisted(struct sbx_timeline *tl, struct sbx_summary *sum,
                          const struct sbx_allowlist *allow, struct sbx_unlisted_hits *hits);

#endif
