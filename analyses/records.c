/* The provider's records: the cross-check with the wrapper's log, account
 * changes in the audit log, lifecycle events, webhook signatures, metrics. */
#include <stdlib.h>
#include <string.h>

#include "analyses/analyses.h"

/* entries this close to the run count as its */
static const int64_t AUDIT_MARGIN_NS = 5 * 60 * 1000000000LL;

/* Keys, network rules, secrets and previews: the changes a run summary reports. */
static bool changes_account(const char *action)
{
    static const char *const groups[] = {"key.", "network.", "secret.", "preview."};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (strncmp(action, groups[i], strlen(groups[i])) == 0)
            return true;
    return false;
}

static bool run_sandbox(const struct sbx_summary *sum, uint32_t id)
{
    for (size_t i = 0; id && i < sum->nsandboxes; i++)
        if (sum->sandboxes[i] == id)
            return true;
    return false;
}

/* Whether an audit entry is about the run: made from or aimed at one of its
 * sandboxes, or in its window. */
static bool about_run(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                      const struct sbx_event *e)
{
    const struct sbx_audit *a = e->u.audit;
    if (run_sandbox(sum, a->inside) || run_sandbox(sum, e->sandbox))
        return true;
    const char *target = sbx_str(tl, a->target);
    for (size_t i = 0; i < sum->nsandboxes; i++) {
        const char *sb = sbx_str(tl, sum->sandboxes[i]);
        if (strncmp(target, "sandbox:", 8) == 0 && strcmp(target + 8, sb) == 0)
            return true;
    }
    return sum->start != SBX_TIME_UNKNOWN && sum->end != SBX_TIME_UNKNOWN &&
           e->start != SBX_TIME_UNKNOWN && e->start >= sum->start - AUDIT_MARGIN_NS &&
           e->start <= sum->end + AUDIT_MARGIN_NS;
}

static int inside_first(const void *x, const void *y)
{
    const struct sbx_event *a = *(const struct sbx_event *const *)x,
                           *b = *(const struct sbx_event *const *)y;
    bool ia = a->findings & SBX_F_ACCOUNT_INSIDE, ib = b->findings & SBX_F_ACCOUNT_INSIDE;
    if (ia != ib)
        return ia ? -1 : 1;
    return sbx_event_cmp(a, b);
}

static void audit(struct sbx_timeline *tl, struct sbx_summary *sum, struct sbx_event *e)
{
    sum->audit_entries++;
    if (!about_run(tl, sum, e))
        return;
    sum->audit_about_run++;
    if (!changes_account(sbx_str(tl, e->label)))
        return;
    e->findings |= SBX_F_ACCOUNT_CHANGE;
    if (e->u.audit->inside) {
        e->findings |= SBX_F_ACCOUNT_INSIDE;
        sum->account_inside++;
    }
    sum->account = sbx_xrealloc(sum->account, (sum->naccount + 1) * sizeof *sum->account);
    sum->account[sum->naccount++] = e;
}

static void lifecycle(struct sbx_timeline *tl, struct sbx_summary *sum, struct sbx_event *e)
{
    const char *type = sbx_str(tl, e->label);
    sum->lifecycle++;
    if (strcmp(type, "sandbox.paused") == 0)
        sum->pauses++;
    else if (strcmp(type, "sandbox.woken") == 0)
        sum->wakes++;
    else if (strcmp(type, "sandbox.start_failed") == 0 || strcmp(type, "sandbox.wake_failed") == 0)
        sum->failed_starts++;
    else if (strcmp(type, "sandbox.stopped") == 0) {
        sum->stops++;
        const char *why = sbx_str(tl, e->u.life.reason);
        if (why[0])
            sbx_strlist_add(&sum->stop_reasons, why, strlen(why));
    }
}

static void metric(struct sbx_summary *sum, const struct sbx_event *e)
{
    const struct sbx_metric *m = &e->u.metric;
    sum->metrics++;
    double cpu = m->cpu_peak_percent >= 0 ? m->cpu_peak_percent : m->cpu_percent;
    if (cpu >= 0 && (!sum->cpu_peak || cpu > (sum->cpu_peak->u.metric.cpu_peak_percent >= 0
                                                   ? sum->cpu_peak->u.metric.cpu_peak_percent
                                                   : sum->cpu_peak->u.metric.cpu_percent)))
        sum->cpu_peak = e;
    int64_t mem = m->memory_peak_bytes >= 0 ? m->memory_peak_bytes : m->memory_bytes;
    if (mem >= 0 && (!sum->memory_peak || mem > (sum->memory_peak->u.metric.memory_peak_bytes >= 0
                                                     ? sum->memory_peak->u.metric.memory_peak_bytes
                                                     : sum->memory_peak->u.metric.memory_bytes)))
        sum->memory_peak = e;
}

void sbx_analyze_records(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    /* the record is checked against the wrapper's own commands: a second
     * log's account of one is not a second command, and a command only
     * another log saw is not the wrapper's */
    struct sbx_timeline own;
    sbx_witness_view(tl, &sum->witness, &own);
    sbx_crosscheck_run(&own, &sum->cross);
    sbx_gaps_find(&own, &sum->witness, &sum->cross, &sum->gaps, &sum->ngaps);
    sbx_witness_view_free(tl, &own);
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
        sbx_prefetch_ahead(tl, i);
        if (e->tflags & SBX_EVT_WEBHOOK) {
            sum->webhooks++;
            sum->signatures_verified += !!(e->tflags & SBX_EVT_SIG_OK);
            if (e->tflags & SBX_EVT_SIG_BAD) {
                sum->signatures_failed++;
                e->findings |= SBX_F_BAD_SIGNATURE;
            }
        }
        switch (e->kind) {
        case SBX_EV_AUDIT: audit(tl, sum, e); break;
        case SBX_EV_LIFECYCLE:
            if (!sbx_witness_is_second(&sum->witness, e)) /* one event, however many accounts */
                lifecycle(tl, sum, e);
            break;
        case SBX_EV_METRIC: metric(sum, e); break;
        default: break;
        }
    }
    if (sum->naccount)
        qsort(sum->account, sum->naccount, sizeof *sum->account, inside_first);
    sbx_strlist_finish(&sum->stop_reasons);
}
