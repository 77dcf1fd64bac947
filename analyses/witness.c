#include "analyses/witness.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/skew.h"
#include "base/search.h"
#include "model/program.h"
#include "model/spans.h"

/* The logs that say which commands ran, the wrapper's own first: in a
 * sandbox, the first of them with commands there is the wrapper's log. A
 * source of another format (a hand-made timeline) counts as the wrapper's. */
unsigned sbx_witness_rank(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    const char *f = tl->sources[e->source].format;
    if (f && strcmp(f, "sandboxio") == 0)
        return 1;
    if (f && strcmp(f, SBX_OTLP_FORMAT) == 0)
        return 2;
    return 0;
}

static bool is_command(const struct sbx_event *e)
{
    return e->kind == SBX_EV_COMMAND && !(e->u.cmd.flags & SBX_CMD_RECORD) &&
           e->start != SBX_TIME_UNKNOWN;
}

static void add(struct sbx_witnesses *w, size_t *cap, const struct sbx_event *first,
                const struct sbx_event *second)
{
    SBX_GROW(w->by_second, w->n, *cap);
    w->by_second[w->n++] = (struct sbx_witness){first, second};
}

/* --- commands --- */

struct prog_search {
    const char *want;
    size_t len;
    bool found;
};

static void on_program(const char *prog, size_t len, void *ctx)
{
    struct prog_search *ps = ctx;
    if (len == ps->len && memcmp(prog, ps->want, len) == 0)
        ps->found = true;
}

/* Whether label (a strtab id) is a program of e's command line, or the
 * program of its first word alone (sandboxio labels `bash -c ***`, a
 * redacted script, by the shell). */
static bool runs_program(const struct sbx_timeline *tl, const struct sbx_event *e, uint32_t label,
                         struct sbx_buf *scratch)
{
    struct prog_search ps = {sbx_str(tl, label), sbx_strtab_len(&tl->strings, label), false};
    if (!ps.len || !(e->u.cmd.command.flags & SBX_TEXT_PRESENT))
        return false;
    size_t n;
    const char *cmd = sbx_text_get(tl, e, &e->u.cmd.command, scratch, &n);
    sbx_program_each(cmd, n, on_program, &ps);
    if (ps.found)
        return true;
    const char *sp = memchr(cmd, ' ', n);
    char first[128];
    size_t len = sbx_program_label(cmd, sp ? (size_t)(sp - cmd) : n, first, sizeof first);
    return len == ps.len && memcmp(first, ps.want, len) == 0;
}

static bool programs_agree(const struct sbx_timeline *tl, const struct sbx_event *a,
                           const struct sbx_event *b, struct sbx_buf *scratch)
{
    uint32_t pa = a->u.cmd.program, pb = b->u.cmd.program;
    if (pa && pa == pb)
        return true;
    return runs_program(tl, a, pb, scratch) || runs_program(tl, b, pa, scratch);
}

/* Equal, or one side does not know it (a log that saw a timeout may keep
 * no code). */
static bool exits_agree(const struct sbx_command *a, const struct sbx_command *b)
{
    if (!(a->flags & SBX_CMD_EXIT_KNOWN) || !(b->flags & SBX_CMD_EXIT_KNOWN))
        return true;
    return sbx_cmd_exit(a) == sbx_cmd_exit(b);
}

struct cand {
    uint32_t p, s;
    int64_t dist;
};

static int by_dist(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->dist != y->dist)
        return x->dist < y->dist ? -1 : 1;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return (x->p > y->p) - (x->p < y->p);
}

static int by_time(const void *a, const void *b)
{
    return sbx_event_cmp(*(const struct sbx_event *const *)a, *(const struct sbx_event *const *)b);
}

struct lists {
    const struct sbx_event **p, **s; /* the wrapper's commands, one later log's; by start */
    size_t np, ns;
};

/* Pairs s[] with p[] at the offset (s's clock minus the wrapper's), closest
 * start first, each side once: match[j] is s[j]'s partner index or -1.
 * Returns the pairs made. */
static size_t match(const struct sbx_timeline *tl, const struct lists *l, int64_t offset,
                    long *partner, struct sbx_buf *scratch)
{
    struct cand *c = NULL;
    size_t nc = 0, cap = 0, lo = 0;
    for (size_t j = 0; j < l->ns; j++) {
        const struct sbx_event *s = l->s[j];
        int64_t t = s->start - offset;
        partner[j] = -1;
        while (lo < l->np && l->p[lo]->start < t - SBX_WITNESS_WINDOW_NS)
            lo++;
        for (size_t i = lo; i < l->np && l->p[i]->start <= t + SBX_WITNESS_WINDOW_NS; i++) {
            const struct sbx_event *p = l->p[i];
            if (p->sandbox != s->sandbox || !exits_agree(&p->u.cmd, &s->u.cmd) ||
                !programs_agree(tl, p, s, scratch))
                continue;
            SBX_GROW(c, nc, cap);
            int64_t d = p->start - t;
            c[nc++] = (struct cand){(uint32_t)i, (uint32_t)j, d < 0 ? -d : d};
        }
    }
    if (nc)
        qsort(c, nc, sizeof *c, by_dist);
    bool *taken = sbx_xcalloc(l->np + 1, 1);
    size_t made = 0;
    for (size_t k = 0; k < nc; k++) {
        if (taken[c[k].p] || partner[c[k].s] >= 0)
            continue;
        taken[c[k].p] = true;
        partner[c[k].s] = (long)c[k].p;
        made++;
    }
    free(taken);
    free(c);
    return made;
}

/* The candidate pairs of the wrapper's commands in the log's sandboxes
 * (every stride-th of them) and the log's commands, starts within
 * SBX_SKEW_WIDE_NS: a pair's a counts the wrapper commands taken, b indexes
 * s[]. With count_only, their number by sandbox and time alone (to choose
 * the stride); *na is the wrapper commands taken. */
static size_t candidates(const struct sbx_timeline *tl, const struct lists *l, const bool *in_log,
                         size_t stride, bool count_only, struct sbx_skew_pair **out, size_t *na,
                         struct sbx_buf *scratch)
{
    size_t n = 0, cap = 0, lo = 0, k = 0;
    *na = 0;
    for (size_t i = 0; i < l->np; i++) {
        const struct sbx_event *p = l->p[i];
        if (!in_log[p->sandbox] || k++ % stride)
            continue;
        uint32_t a = (uint32_t)(*na)++;
        while (lo < l->ns && l->s[lo]->start < p->start - SBX_SKEW_WIDE_NS)
            lo++;
        for (size_t j = lo; j < l->ns && l->s[j]->start <= p->start + SBX_SKEW_WIDE_NS; j++) {
            const struct sbx_event *s = l->s[j];
            if (s->sandbox != p->sandbox)
                continue;
            if (count_only) {
                n++;
                continue;
            }
            if (!exits_agree(&p->u.cmd, &s->u.cmd) || !programs_agree(tl, p, s, scratch))
                continue;
            SBX_GROW(*out, n, cap);
            (*out)[n++] = (struct sbx_skew_pair){a, (uint32_t)j, s->start - p->start};
        }
    }
    return n;
}

/* The log's clock against the wrapper's, as the cross-check finds the
 * record's (analyses/skew.h): given with --skew when its source is on a
 * given clock already, else estimated; relative to its times as they are. */
static void log_clock(const struct sbx_timeline *tl, const struct lists *l, uint32_t src,
                      struct sbx_skew *skew, struct sbx_buf *scratch)
{
    bool *in_log = sbx_xcalloc(tl->strings.n + 1, 1);
    for (size_t j = 0; j < l->ns; j++)
        in_log[l->s[j]->sandbox] = true;
    size_t na;
    size_t stride = sbx_skew_stride(candidates(tl, l, in_log, 1, true, NULL, &na, scratch));
    struct sbx_skew_pair *pairs = NULL;
    size_t n = candidates(tl, l, in_log, stride, false, &pairs, &na, scratch);
    if (tl->sources[src].clock == SBX_CLOCK_GIVEN) {
        *skew = (struct sbx_skew){.how = SBX_SKEW_GIVEN, .ns = 0};
        sbx_skew_score_at(pairs, n, na, l->ns, 0, skew);
    } else {
        sbx_skew_estimate(pairs, n, na, l->ns, skew);
    }
    free(pairs);
    free(in_log);
}

/* One later log (source src) against the wrapper's commands: its clock
 * first (put on the wrapper's when measured), then the pairs. */
static void witness_source(struct sbx_timeline *tl, struct sbx_witnesses *w, size_t *cap,
                           struct lists *l, uint32_t src, const unsigned *wrapper_rank,
                           size_t *cap_unwrapped, size_t *cap_unconcluded, struct sbx_buf *scratch)
{
    l->ns = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->source == src && is_command(e) && sbx_witness_rank(tl, e) > wrapper_rank[e->sandbox])
            l->s[l->ns++] = e;
    }
    if (!l->ns)
        return;
    struct sbx_skew skew;
    log_clock(tl, l, src, &skew, scratch);
    bool certain = skew.how == SBX_SKEW_MEASURED || skew.how == SBX_SKEW_GIVEN;
    if (skew.how == SBX_SKEW_MEASURED) { /* every time of the source moves, s[] stays sorted */
        sbx_timeline_set_clock(tl, src, tl->sources[src].clock_offset + skew.ns, SBX_CLOCK_MEASURED);
        skew.ns = tl->sources[src].clock_offset;
    } else if (skew.how == SBX_SKEW_GIVEN) {
        skew.ns = tl->sources[src].clock_offset;
    }
    w->clocks = sbx_xrealloc(w->clocks, (w->nclocks + 1) * sizeof *w->clocks);
    w->clocks[w->nclocks++] = (struct sbx_witness_clock){src, tl->sources[src].format, skew};
    long *partner = sbx_xmalloc(l->ns * sizeof *partner);
    /* uncertain: paired at the best guess, the source left on its own clock */
    match(tl, l, certain ? 0 : skew.ns, partner, scratch);
    for (size_t j = 0; j < l->ns; j++) {
        if (partner[j] >= 0) {
            add(w, cap, l->p[partner[j]], l->s[j]);
            w->commands++;
            continue;
        }
        if (!certain) { /* nothing concluded: listed, not a finding */
            SBX_GROW(w->unconcluded, w->nunconcluded, *cap_unconcluded);
            w->unconcluded[w->nunconcluded++] = l->s[j];
            continue;
        }
        SBX_GROW(w->unwrapped, w->nunwrapped, *cap_unwrapped);
        w->unwrapped[w->nunwrapped++] = l->s[j];
        ((struct sbx_event *)l->s[j])->findings |= SBX_F_UNWRAPPED;
    }
    free(partner);
}

unsigned *sbx_witness_wrapper_ranks(const struct sbx_timeline *tl)
{
    uint32_t nids = tl->strings.n + 1;
    unsigned *rank = sbx_xmalloc(nids * sizeof *rank);
    for (uint32_t i = 0; i < nids; i++)
        rank[i] = ~0u;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        unsigned r;
        if (is_command(e) && (r = sbx_witness_rank(tl, e)) < rank[e->sandbox])
            rank[e->sandbox] = r;
    }
    return rank;
}

static void witness_commands(struct sbx_timeline *tl, struct sbx_witnesses *w, size_t *cap)
{
    unsigned *wrapper_rank = sbx_witness_wrapper_ranks(tl);
    bool *later = sbx_xcalloc(tl->nsources + 1, 1);
    struct lists l = {sbx_xmalloc((tl->n + 1) * sizeof *l.p), sbx_xmalloc((tl->n + 1) * sizeof *l.s),
                      0, 0};
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (!is_command(e))
            continue;
        if (sbx_witness_rank(tl, e) == wrapper_rank[e->sandbox])
            l.p[l.np++] = e;
        else
            later[e->source] = true;
    }
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t cap_unwrapped = 0, cap_unconcluded = 0;
    for (uint32_t src = 0; src < tl->nsources; src++)
        if (later[src])
            witness_source(tl, w, cap, &l, src, wrapper_rank, &cap_unwrapped, &cap_unconcluded,
                           &scratch);
    sbx_buf_free(&scratch);
    for (size_t i = 0; i < w->nclocks; i++)
        if (w->clocks[i].skew.how == SBX_SKEW_MEASURED) { /* a source moved */
            sbx_timeline_resort(tl);
            break;
        }
    /* sources one after another: back to time order */
    if (w->nunwrapped)
        qsort(w->unwrapped, w->nunwrapped, sizeof *w->unwrapped, by_time);
    if (w->nunconcluded)
        qsort(w->unconcluded, w->nunconcluded, sizeof *w->unconcluded, by_time);
    free(l.p);
    free(l.s);
    free(later);
    free(wrapper_rank);
}

/* --- lifecycle events --- */

/* Which account of an event its row shows: the lowest first. */
static int preference(const struct sbx_event *e)
{
    if (!(e->tflags & SBX_EVT_WEBHOOK))
        return 3;
    return e->tflags & SBX_EVT_SIG_BAD ? 0 : e->tflags & SBX_EVT_SIG_OK ? 1 : 2;
}

/* Runtime's id of an event of its events (a lifecycle event, a file watch,
 * a note; the events file's or a delivery's), or 0. */
static uint32_t event_id(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    if (e->kind == SBX_EV_LIFECYCLE)
        return e->u.life.id;
    if (strncmp(tl->sources[e->source].format, "runtime-", 8) != 0)
        return 0;
    if (e->kind == SBX_EV_NOTE)
        return e->u.life.id;
    return e->kind == SBX_EV_FILES && e->u.files ? sbx_files_more(e->u.files)->id : 0;
}

struct same {
    const struct sbx_event *e;
    uint32_t id;
};

static int same_event_cmp(const struct same *x, const struct same *y)
{
    const struct sbx_event *a = x->e, *b = y->e;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->label != b->label)
        return a->label < b->label ? -1 : 1;
    if (a->kind == SBX_EV_FILES && a->u.files->root != b->u.files->root)
        return a->u.files->root < b->u.files->root ? -1 : 1;
    if (a->sandbox != b->sandbox)
        return a->sandbox < b->sandbox ? -1 : 1;
    return (a->start > b->start) - (a->start < b->start);
}

static int by_event_then_preference(const void *x, const void *y)
{
    int c = same_event_cmp(x, y);
    if (c)
        return c;
    const struct sbx_event *a = ((const struct same *)x)->e, *b = ((const struct same *)y)->e;
    if (preference(a) != preference(b))
        return preference(a) < preference(b) ? -1 : 1;
    return sbx_event_cmp(a, b);
}

static void witness_lifecycle(const struct sbx_timeline *tl, struct sbx_witnesses *w, size_t *cap)
{
    struct same *ev = sbx_xmalloc((tl->n + 1) * sizeof *ev);
    size_t n = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        uint32_t id = event_id(tl, e);
        if (id)
            ev[n++] = (struct same){e, id};
    }
    if (n)
        qsort(ev, n, sizeof *ev, by_event_then_preference);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        for (; j < n && same_event_cmp(&ev[i], &ev[j]) == 0; j++) {
            add(w, cap, ev[i].e, ev[j].e);
            w->lifecycle++;
        }
        i = j;
    }
    free(ev);
}

/* --- the pairs --- */

static int by_addr(const void *a, const void *b)
{
    const struct sbx_event *x = *(const struct sbx_event *const *)a, *y = *(const struct sbx_event *const *)b;
    return (x > y) - (x < y);
}

static int by_second_addr(const void *a, const void *b)
{
    const struct sbx_witness *x = a, *y = b;
    return (x->second > y->second) - (x->second < y->second);
}

static int by_first_addr(const void *a, const void *b)
{
    const struct sbx_witness *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return sbx_event_cmp(x->second, y->second);
}

void sbx_witness_run(struct sbx_timeline *tl, struct sbx_witnesses *w)
{
    memset(w, 0, sizeof *w);
    size_t cap = 0;
    witness_commands(tl, w, &cap);
    witness_lifecycle(tl, w, &cap);
    if (!w->n)
        return;
    qsort(w->by_second, w->n, sizeof *w->by_second, by_second_addr);
    w->by_first = sbx_xmalloc(w->n * sizeof *w->by_first);
    memcpy(w->by_first, w->by_second, w->n * sizeof *w->by_first);
    qsort(w->by_first, w->n, sizeof *w->by_first, by_first_addr);
}

void sbx_witness_free(struct sbx_witnesses *w)
{
    free(w->by_second);
    free(w->by_first);
    free(w->unwrapped);
    free(w->unconcluded);
    free(w->clocks);
    memset(w, 0, sizeof *w);
}

const struct sbx_event *sbx_witness_first_of(const struct sbx_witnesses *w,
                                             const struct sbx_event *e)
{
    size_t lo = sbx_lower_bound_ptr(w->by_second, w->n, sizeof *w->by_second,
                                    offsetof(struct sbx_witness, second), e);
    return lo < w->n && w->by_second[lo].second == e ? w->by_second[lo].first : NULL;
}

const struct sbx_witness *sbx_witness_seconds(const struct sbx_witnesses *w,
                                              const struct sbx_event *first, size_t *n)
{
    size_t lo = sbx_lower_bound_ptr(w->by_first, w->n, sizeof *w->by_first,
                                    offsetof(struct sbx_witness, first), first);
    size_t end = lo;
    while (end < w->n && w->by_first[end].first == first)
        end++;
    *n = end - lo;
    return *n ? &w->by_first[lo] : NULL;
}

uint32_t sbx_witness_findings(const struct sbx_witnesses *w, const struct sbx_event *e)
{
    size_t n;
    const struct sbx_witness *s = sbx_witness_seconds(w, e, &n);
    uint32_t f = e->findings;
    for (size_t i = 0; i < n; i++)
        f |= s[i].second->findings;
    return f;
}

/* Whether the cross-check's view leaves e out (unconcluded: sorted by address). */
static bool left_out(const struct sbx_witnesses *w, const struct sbx_event *const *unconcluded,
                     const struct sbx_event *e)
{
    const struct sbx_event *key = e;
    return e->kind == SBX_EV_COMMAND &&
           ((e->findings & SBX_F_UNWRAPPED) || sbx_witness_is_second(w, e) ||
            (w->nunconcluded && bsearch(&key, unconcluded, w->nunconcluded, sizeof *unconcluded, by_addr)));
}

void sbx_witness_view(const struct sbx_timeline *tl, const struct sbx_witnesses *w,
                      struct sbx_timeline *view)
{
    *view = *tl;
    const struct sbx_event **unconcluded = sbx_xmalloc((w->nunconcluded + 1) * sizeof *unconcluded);
    if (w->nunconcluded) {
        memcpy(unconcluded, w->unconcluded, w->nunconcluded * sizeof *unconcluded);
        qsort(unconcluded, w->nunconcluded, sizeof *unconcluded, by_addr);
    }
    size_t first = 0; /* a log read alone leaves nothing out: its view shares the order */
    while (first < tl->n && !left_out(w, unconcluded, sbx_tl_at(tl, first)))
        first++;
    if (first < tl->n) {
        view->order_ = sbx_xmalloc((tl->n + 1) * sizeof *view->order_);
        memcpy(view->order_, tl->order_, first * sizeof *view->order_);
        view->n = first;
        for (size_t i = first + 1; i < tl->n; i++)
            if (!left_out(w, unconcluded, sbx_tl_at(tl, i)))
                view->order_[view->n++] = tl->order_[i];
    }
    free(unconcluded);
}

void sbx_witness_view_free(const struct sbx_timeline *tl, struct sbx_timeline *view)
{
    if (view->order_ != tl->order_)
        free(view->order_);
    view->order_ = NULL;
    view->n = 0;
}
