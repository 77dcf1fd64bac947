/* The single analyses that sbx_summarize runs, one file each. Each reads the
 * timeline, may set findings bits on events, and fills its part of the
 * summary. Internal to model/: everyone else calls sbx_summarize. */
#ifndef SBX_ANALYSES_H
#define SBX_ANALYSES_H

#include "model/summary.h"

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
bool sbx_analyze_content(struct sbx_timeline *tl, struct sbx_summary *sum, int threads, char *err,
                         size_t errsz);

#endif
