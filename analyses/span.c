/* The run's span: the sandbox's life where the lifecycle events give it,
 * else the commands'; metrics, audit entries, proxy lines and notes never
 * widen it (docs/summary-json.md, "run"). */
#include <string.h>

#include "analyses/analyses.h"

static void widen(int64_t *lo, int64_t *hi, int64_t start, int64_t end)
{
    if (end == SBX_TIME_UNKNOWN || end < start)
        end = start;
    if (start == SBX_TIME_UNKNOWN)
        start = end;
    if (start == SBX_TIME_UNKNOWN)
        return;
    if (*lo == SBX_TIME_UNKNOWN || start < *lo)
        *lo = start;
    if (*hi == SBX_TIME_UNKNOWN || end > *hi)
        *hi = end;
}

static int64_t earlier(int64_t a, int64_t b)
{
    return a == SBX_TIME_UNKNOWN ? b : b == SBX_TIME_UNKNOWN ? a : a < b ? a : b;
}

static int64_t later(int64_t a, int64_t b)
{
    return a == SBX_TIME_UNKNOWN ? b : b == SBX_TIME_UNKNOWN ? a : a > b ? a : b;
}

void sbx_analyze_span(const struct sbx_timeline *tl, struct sbx_summary *sum)
{
    int64_t u = SBX_TIME_UNKNOWN, other_lo = u, other_hi = u;
    sum->sandbox_start = sum->sandbox_end = sum->active_start = sum->active_end = u;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind == SBX_EV_COMMAND) {
            widen(&sum->active_start, &sum->active_end, e->start, e->end);
        } else if (e->kind == SBX_EV_LIFECYCLE && e->start != u) {
            const char *type = sbx_str(tl, e->label);
            if (strcmp(type, "sandbox.created") == 0)
                sum->sandbox_start = earlier(sum->sandbox_start, e->start);
            else if (strcmp(type, "sandbox.stopped") == 0)
                sum->sandbox_end = later(sum->sandbox_end, e->start);
        }
        /* the audit log keeps 400 days of the account: never a span */
        if (e->kind != SBX_EV_AUDIT)
            widen(&other_lo, &other_hi, e->start, e->end);
    }
    /* a stop before the creation is no life: its clock cannot be trusted */
    if (sum->sandbox_start != u && sum->sandbox_end != u && sum->sandbox_end < sum->sandbox_start)
        sum->sandbox_start = sum->sandbox_end = u;
    /* each end from the life where an event gives it, else the commands';
     * a command the clocks put outside the life still counts, so the span
     * never hides one */
    sum->start = earlier(sum->sandbox_start != u ? sum->sandbox_start : sum->active_start,
                         sum->active_start);
    sum->end = later(sum->sandbox_end != u ? sum->sandbox_end : sum->active_end, sum->active_end);
    if (sum->start == u && sum->end == u) { /* no life, no commands: what has a time */
        sum->start = other_lo;
        sum->end = other_hi;
    }
}

int64_t sbx_summary_span_ns(const struct sbx_summary *s)
{
    return s->start == SBX_TIME_UNKNOWN || s->end == SBX_TIME_UNKNOWN || s->end < s->start
               ? -1
               : s->end - s->start;
}
