/* The single analyses that sbx_summarize runs, one file each. Each reads the
 * timeline, may set findings bits on events, and fills its part of the
 * summary. Internal to model/: everyone else calls sbx_summarize. */
#ifndef SBX_ANALYSES_H
#define SBX_ANALYSES_H

#include "model/summary.h"

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
bool sbx_analyze_content(struct sbx_timeline *tl, struct sbx_summary *sum, int threads, char *err,
                         size_t errsz);

#endif
