/* Which command was running when: links an event (a proxy request, a file
 * change) to the commands of its sandbox.
 *
 * The rule, the same for every function here:
 *   - an event's sandbox is its own; an event without one (a proxy line, a
 *     manifest) is taken to be in the run's only sandbox when the run has
 *     exactly one (audit entries do not count), and in none otherwise;
 *   - its time is its start, or its end when the start is unknown;
 *   - a command runs from its start to its end (an unknown end counts as
 *     the start); "during" means start <= t <= end;
 *   - among the commands running at t, a wrapper command is preferred to a
 *     provider record (Runtime's record of the same command), then the one
 *     that started last (the innermost, when they nest);
 *   - sbx_cmdindex_running gives every command running then, outermost
 *     (earliest start) first: the wrapper's commands, or Runtime's records
 *     when no wrapper command was running.
 *
 * sbx_command_during scans the timeline (O(n), for one event); an index
 * answers the same question in O(log n) for many (the network view links
 * every proxy request; the summary links every event that did not come
 * from the wrapper: analyses/chain.h).
 *
 * Ownership: sbx_cmdindex_new returns an index the caller frees with
 * sbx_cmdindex_free; it keeps pointers to the timeline's events, which must
 * outlive it and not change meanwhile (the timeline struct itself may be a
 * view, sbx_witness_view, freed once the index is made). Returned events belong to the timeline. Read-only
 * after it is made: safe to share between threads. */
#ifndef SBX_CMDLINK_H
#define SBX_CMDLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

/* The run's only sandbox (strtab id), or 0 when it has none or several. */
uint32_t sbx_only_sandbox(const struct sbx_timeline *tl);

/* The command running in e's sandbox at e's time, or NULL. */
const struct sbx_event *sbx_command_during(const struct sbx_timeline *tl,
                                           const struct sbx_event *e);

struct sbx_cmdindex;

/* Per (sandbox, wrapper or record) list, the index keeps its commands by
 * start (4 bytes a command), a max-tree over their ends (about 2 bytes a
 * command) and, only when some command ended before one that started
 * earlier, their order by end (4 bytes a command). */
struct sbx_cmdindex *sbx_cmdindex_new(const struct sbx_timeline *tl);
void sbx_cmdindex_free(struct sbx_cmdindex *ix);
/* The bytes the index holds (its arrays), for the tests and the bench. */
size_t sbx_cmdindex_bytes(const struct sbx_cmdindex *ix);
/* sbx_command_during, answered from the index. */
const struct sbx_event *sbx_cmdindex_during(const struct sbx_cmdindex *ix,
                                            const struct sbx_event *e);
/* The command of e's sandbox that ended last before e's time (its end, or
 * its start when the end is unknown, earlier than e's time), a wrapper
 * command preferred to a provider record as above; NULL when none did.
 * O(log n). */
const struct sbx_event *sbx_cmdindex_ended_before(const struct sbx_cmdindex *ix,
                                                  const struct sbx_event *e);

/* Every command running in e's sandbox at e's time (e itself never),
 * outermost first (by start, then timeline order): the wrapper's commands,
 * or when none of them was running, Runtime's records. Up to max of them go
 * into out; returns how many there are (it may exceed max). Its last
 * (when all fit) is sbx_cmdindex_during's answer. O((k + 1) log n) for the
 * k written. */
size_t sbx_cmdindex_running(const struct sbx_cmdindex *ix, const struct sbx_event *e,
                            const struct sbx_event **out, size_t max);

/* Whether e did not come from the wrapper's log, so what was running then
 * is worth saying: an audit entry, a command in Runtime's record (or in
 * another log than the wrapper's: sandboxio's, an OTLP tool span), a proxy
 * request, a lifecycle change, a webhook delivery, a note, a span, a file
 * watch or a sandboxio file operation. Not the wrapper's own lines, nor a
 * manifest, a diff or a metrics reading (a state, not a happening). */
bool sbx_event_not_wrapper(const struct sbx_timeline *tl, const struct sbx_event *e);
/* Whether any event of tl is one sbx_event_not_wrapper says yes to. O(n)
 * only over the wrapper's own logs (for a provider's command record among
 * them); a source of another format answers at its first event. */
bool sbx_timeline_has_not_wrapper(const struct sbx_timeline *tl);

#endif
