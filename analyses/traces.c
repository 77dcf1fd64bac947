/* OpenTelemetry spans: the trees (model/spans.h), what the summary counts
 * of them, and SBX_F_FAILED for a span whose status is an error. */
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
        /* the nodes point into tl, which this analysis may mark */
        struct sbx_event *e = (struct sbx_event *)sum->spans.nodes[i].event;
        if (e->tflags & SBX_EVT_ERROR) /* the span's status said so */
            e->findings |= SBX_F_FAILED;
        if (e->kind == SBX_EV_SPAN && e->label) {
            const char *name = sbx_str(tl, e->label);
            sbx_strlist_add(&t->agents, name, strlen(name));
        } else if (e->kind == SBX_EV_COMMAND) {
            t->tool_calls++;
            t->failed += (e->findings & (SBX_F_FAILED | SBX_F_TIMED_OUT)) != 0;
            t->refused += sbx_event_denials(e) != 0; /* the sandbox's policy refused it */
        }
    }
    sbx_strlist_finish(&t->agents);
}
