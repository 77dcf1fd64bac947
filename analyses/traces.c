/* OpenTelemetry spans: the trees (model/spans.h) and what the summary
 * counts of them. */
#include <string.h>

#include "analyses/analyses.h"

void sbx_analyze_spans(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    struct sbx_trace_stats *t = &sum->traces;
    sbx_spans_build(tl, &sum->spans);
    t->spans = sum->spans.n;
    t->traces = sum->spans.traces;
    t->orphans = sum->spans.orphans;
    for (size_t i = 0; i < sum->spans.n; i++) {
        const struct sbx_event *e = sum->spans.nodes[i].event;
        if (e->kind == SBX_EV_SPAN && e->label) {
            const char *name = sbx_str(tl, e->label);
            sbx_strlist_add(&t->agents, name, strlen(name));
        } else if (e->kind == SBX_EV_COMMAND) {
            t->tool_calls++;
            t->failed += (e->findings & (SBX_F_FAILED | SBX_F_TIMED_OUT)) != 0;
            t->refused += (e->findings & SBX_F_REFUSED_HOST) != 0;
        }
    }
    sbx_strlist_finish(&t->agents);
}
