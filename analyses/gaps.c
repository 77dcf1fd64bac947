/* A line removed from the log (the rule is in analyses/gaps.h). */
#include "analyses/gaps.h"

#include <stdlib.h>
#include <string.h>

#include "analyses/crosscheck.h"
#include "analyses/witness.h"

struct cmd {
    uint32_t sandbox;
    int64_t start, end;
    const struct sbx_event *e;
};

static int by_sandbox_start(const void *a, const void *b)
{
    const struct cmd *x = a, *y = b;
    if (x->sandbox != y->sandbox)
        return x->sandbox < y->sandbox ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

static int64_t end_of(const struct sbx_event *e)
{
    return e->end != SBX_TIME_UNKNOWN && e->end > e->start ? e->end : e->start;
}

/* The first of v[lo, hi) whose start is at or after t. */
static size_t first_from(const struct cmd *v, size_t lo, size_t hi, int64_t t)
{
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (v[m].start < t)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

/* The first of v (sorted by sandbox) in a sandbox at or after sb. */
static size_t sandbox_from(const struct cmd *v, size_t n, uint64_t sb)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (v[m].sandbox < sb)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

void sbx_gaps_find(struct sbx_timeline *tl, const struct sbx_witnesses *w, struct sbx_crosscheck *cc,
                   struct sbx_gap **gaps, size_t *ngaps)
{
    *gaps = NULL;
    *ngaps = 0;
    if (!cc->noutside)
        return;
    struct cmd *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD) || e->start == SBX_TIME_UNKNOWN ||
            (w && sbx_witness_is_second(w, e)))
            continue;
        SBX_GROW(v, n, cap);
        v[n++] = (struct cmd){e->sandbox, e->start, end_of(e), e};
    }
    if (n)
        qsort(v, n, sizeof *v, by_sandbox_start);
    /* per position, the latest end so far within its sandbox, and whose */
    size_t *latest = n ? sbx_xmalloc(n * sizeof *latest) : NULL;
    for (size_t i = 0; i < n; i++)
        latest[i] = i > 0 && v[i - 1].sandbox == v[i].sandbox && v[latest[i - 1]].end > v[i].end ? latest[i - 1] : i;
    size_t kept = 0, cap_gaps = 0;
    for (size_t r = 0; r < cc->noutside; r++) {
        struct sbx_event *rec = (struct sbx_event *)cc->outside[r];
        int64_t rs = rec->start, re = end_of(rec);
        size_t lo = sandbox_from(v, n, rec->sandbox), hi = sandbox_from(v, n, rec->sandbox + 1ull);
        size_t next = rs == SBX_TIME_UNKNOWN ? lo : first_from(v, lo, hi, re);
        const struct cmd *before = next > lo ? &v[latest[next - 1]] : NULL;
        /* a background command (running, never read) or one of no known
           length may well have run on past the next line */
        bool ended = !(rec->u.cmd.flags & (SBX_CMD_RUNNING | SBX_CMD_UNREAD)) && (rec->u.cmd.flags & SBX_CMD_MS_KNOWN);
        bool gap = ended && rs != SBX_TIME_UNKNOWN && before && next < hi && before->end <= rs &&
                   before->e->source == v[next].e->source && sbx_ev_line_no(before->e) < sbx_ev_line_no(v[next].e);
        if (!gap) {
            cc->outside[kept++] = rec;
            continue;
        }
        rec->findings = (rec->findings & ~(uint32_t)SBX_F_OUTSIDE_WRAPPER) | SBX_F_REMOVED_FROM_LOG;
        SBX_GROW(*gaps, *ngaps, cap_gaps);
        (*gaps)[(*ngaps)++] = (struct sbx_gap){rec, before->e, v[next].e};
    }
    cc->noutside = kept;
    free(latest);
    free(v);
}
