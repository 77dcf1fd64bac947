/* The clocks of the cross-check: the record's offset from the wrapper's
 * log, estimated from candidate pairs over ±20 minutes (analyses/skew.h) or
 * given, and the Runtime sources put on the wrapper's clock with it. */
#include "analyses/crosscheck.h"

#include <stdlib.h>
#include <string.h>

#include "analyses/crosscheck_internal.h"
#include "analyses/witness.h"
#include "model/program.h"

/* Records sorted by (sandbox, program, start), and the records' programs by
 * name: a wrapper command's candidates are a range of the first per program. */
struct index {
    const struct sbx_timeline *tl;
    const struct sbx_event **rec;
    size_t nrec;
    uint32_t *progs; /* distinct program ids, by name */
    size_t nprogs;
};

static int by_key(const void *a, const void *b)
{
    const struct sbx_event *x = *(const struct sbx_event *const *)a, *y = *(const struct sbx_event *const *)b;
    if (x->sandbox != y->sandbox)
        return x->sandbox < y->sandbox ? -1 : 1;
    if (x->u.cmd.program != y->u.cmd.program)
        return x->u.cmd.program < y->u.cmd.program ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

static int by_name(const void *a, const void *b, void *tl)
{
    return strcmp(sbx_str(tl, *(const uint32_t *)a), sbx_str(tl, *(const uint32_t *)b));
}

/* The id of a record program called name[0..len), or 0. */
static uint32_t program_id(const struct index *ix, const char *name, size_t len)
{
    size_t lo = 0, hi = ix->nprogs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = sbx_str(ix->tl, ix->progs[mid]);
        size_t sl = strlen(s);
        int c = memcmp(s, name, sl < len ? sl : len);
        if (!c)
            c = (sl > len) - (sl < len);
        if (!c)
            return ix->progs[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* The first record at or after (sandbox, program, t). */
static size_t first_rec(const struct index *ix, uint32_t sandbox, uint32_t program, int64_t t)
{
    size_t lo = 0, hi = ix->nrec;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct sbx_event *r = ix->rec[mid];
        bool before = r->sandbox != sandbox ? r->sandbox < sandbox
                      : r->u.cmd.program != program ? r->u.cmd.program < program
                      : r->start < t;
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One wrapper command's candidates, program by program. */
struct gen {
    const struct index *ix;
    const struct sbx_event *w;
    uint32_t wi;
    uint32_t seen[16]; /* programs done for this command */
    size_t nseen;
    bool count_only;
    size_t counted;
    struct sbx_skew_pair *out;
    size_t n, cap;
};

static void on_program(const char *prog, size_t len, void *ctx)
{
    struct gen *g = ctx;
    uint32_t id = program_id(g->ix, prog, len);
    if (!id)
        return;
    for (size_t k = 0; k < g->nseen; k++)
        if (g->seen[k] == id)
            return;
    if (g->nseen < sizeof g->seen / sizeof *g->seen)
        g->seen[g->nseen++] = id;
    const struct sbx_event *w = g->w;
    for (size_t j = first_rec(g->ix, w->sandbox, id, w->start - SBX_SKEW_WIDE_NS); j < g->ix->nrec; j++) {
        const struct sbx_event *r = g->ix->rec[j];
        if (r->sandbox != w->sandbox || r->u.cmd.program != id || r->start > w->start + SBX_SKEW_WIDE_NS)
            break;
        if (!sbx_cc_exits_agree(w, r))
            continue;
        if (g->count_only) {
            g->counted++;
            continue;
        }
        SBX_GROW(g->out, g->n, g->cap);
        g->out[g->n++] = (struct sbx_skew_pair){g->wi, (uint32_t)j, r->start - w->start};
    }
}

/* The candidate pairs of the wrapper commands w[0..nw) with every k-th
 * taken, k = stride; with count_only, only their number. */
static size_t generate(const struct index *ix, const struct sbx_event **w, size_t nw, size_t stride,
                       bool count_only, struct sbx_skew_pair **out, struct sbx_buf *scratch)
{
    struct gen g = {.ix = ix, .count_only = count_only};
    for (size_t i = 0; i < nw; i += stride) {
        size_t len;
        const char *cmd = sbx_text_get(ix->tl, w[i], &w[i]->u.cmd.command, scratch, &len);
        g.w = w[i];
        g.wi = (uint32_t)(i / stride); /* the estimator counts the commands taken */
        g.nseen = 0;
        sbx_program_each(cmd, len, on_program, &g);
    }
    if (out)
        *out = g.out;
    return count_only ? g.counted : g.n;
}

bool sbx_skew_given_names(const struct sbx_skew_given *g, const struct sbx_source *src)
{
    const char *base = strrchr(src->path, '/');
    base = base ? base + 1 : src->path;
    return strcmp(g->source, src->path) == 0 || strcmp(g->source, base) == 0 ||
           strcmp(g->source, src->format) == 0 ||
           (strcmp(g->source, "runtime") == 0 && strncmp(src->format, "runtime-", 8) == 0);
}

static const struct sbx_skew_given *given_for(const struct sbx_skew_given *given, size_t ngiven,
                                              const struct sbx_source *src)
{
    const struct sbx_skew_given *found = NULL;
    for (size_t i = 0; i < ngiven; i++)
        if (sbx_skew_given_names(&given[i], src))
            found = &given[i]; /* the last one given wins */
    return found;
}

/* The wrapper's commands in sandboxes with a record, and the records, by
 * start: into w and ix->rec (the caller frees both). Only each sandbox's
 * wrapper log counts (analyses/witness.h): sandboxio's or OpenTelemetry's
 * account of the same commands, on a clock of its own, would add a second
 * cluster of candidates at another offset. */
static void gather(const struct sbx_timeline *tl, const struct sbx_event ***w, size_t *nw,
                   struct index *ix)
{
    unsigned *wrapper_rank = sbx_witness_wrapper_ranks(tl);
    bool *has = sbx_xcalloc(tl->strings.n + 1, 1);
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_cc_is_record(sbx_tl_at(tl, i)) && sbx_tl_at(tl, i)->start != SBX_TIME_UNKNOWN)
            has[sbx_tl_at(tl, i)->sandbox] = true;
    *w = sbx_xmalloc((tl->n + 1) * sizeof **w);
    ix->rec = sbx_xmalloc((tl->n + 1) * sizeof *ix->rec);
    *nw = ix->nrec = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->start == SBX_TIME_UNKNOWN)
            continue;
        if (sbx_cc_is_record(e))
            ix->rec[ix->nrec++] = e;
        else if (sbx_cc_is_wrapper(e) && has[e->sandbox] &&
                 sbx_witness_rank(tl, e) == wrapper_rank[e->sandbox])
            (*w)[(*nw)++] = e;
    }
    free(has);
    free(wrapper_rank);
}

/* The records' programs, distinct, by name; the records by key. */
static void index_records(const struct sbx_timeline *tl, struct index *ix)
{
    ix->tl = tl;
    ix->progs = sbx_xmalloc((ix->nrec + 1) * sizeof *ix->progs);
    ix->nprogs = 0;
    bool *seen = sbx_xcalloc(tl->strings.n + 1, 1);
    for (size_t j = 0; j < ix->nrec; j++) {
        uint32_t p = ix->rec[j]->u.cmd.program;
        if (p && !seen[p]) {
            seen[p] = true;
            ix->progs[ix->nprogs++] = p;
        }
    }
    free(seen);
    qsort_r(ix->progs, ix->nprogs, sizeof *ix->progs, by_name, (void *)tl);
    qsort(ix->rec, ix->nrec, sizeof *ix->rec, by_key);
}

/* The estimate, relative to the records' times as they are now. */
static void estimate(const struct sbx_timeline *tl, const struct sbx_skew_given *rec_given,
                     int64_t current, struct sbx_skew *skew)
{
    const struct sbx_event **w;
    size_t nw;
    struct index ix = {0};
    gather(tl, &w, &nw, &ix);
    index_records(tl, &ix);
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t stride = sbx_skew_stride(generate(&ix, w, nw, 1, true, NULL, &scratch));
    struct sbx_skew_pair *pairs = NULL;
    size_t n = generate(&ix, w, nw, stride, false, &pairs, &scratch);
    size_t na = (nw + stride - 1) / stride;
    if (rec_given) {
        skew->how = SBX_SKEW_GIVEN;
        skew->ns = rec_given->ns;
        sbx_skew_score_at(pairs, n, na, ix.nrec, rec_given->ns - current, skew);
    } else {
        sbx_skew_estimate(pairs, n, na, ix.nrec, skew);
        skew->ns += current;
    }
    free(pairs);
    sbx_buf_free(&scratch);
    free(w);
    free(ix.rec);
    free(ix.progs);
}

static bool is_runtime(const struct sbx_source *s)
{
    return strncmp(s->format, "runtime-", 8) == 0;
}

void sbx_crosscheck_align(struct sbx_timeline *tl, const struct sbx_skew_given *given,
                          size_t ngiven, struct sbx_crosscheck *cc)
{
    /* the record's sources: the first one's clock is where its times are now */
    const struct sbx_skew_given *rec_given = NULL;
    int64_t current = 0;
    bool any_record = false;
    for (size_t i = 0; i < tl->n && !any_record; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (!sbx_cc_is_record(e))
            continue;
        any_record = true;
        current = tl->sources[e->source].clock_offset;
        rec_given = given_for(given, ngiven, &tl->sources[e->source]);
    }
    cc->skew = (struct sbx_skew){.how = SBX_SKEW_NONE};
    if (any_record)
        estimate(tl, rec_given, current, &cc->skew);
    bool apply = cc->skew.how == SBX_SKEW_MEASURED || cc->skew.how == SBX_SKEW_GIVEN;
    cc->skew_known = apply;
    cc->skew_ns = apply ? cc->skew.ns : 0;
    enum sbx_clock runtime_clock = !apply                             ? SBX_CLOCK_OWN
                                   : cc->skew.how == SBX_SKEW_GIVEN ? SBX_CLOCK_GIVEN
                                                                    : SBX_CLOCK_MEASURED;
    bool moved = false;
    for (uint32_t s = 0; s < tl->nsources; s++) {
        const struct sbx_source *src = &tl->sources[s];
        const struct sbx_skew_given *g = given_for(given, ngiven, src);
        int64_t before = src->clock_offset;
        if (g)
            sbx_timeline_set_clock(tl, s, g->ns, SBX_CLOCK_GIVEN);
        else if (is_runtime(src)) /* Runtime's sources share its clock */
            sbx_timeline_set_clock(tl, s, cc->skew_ns, runtime_clock);
        moved |= tl->sources[s].clock_offset != before;
    }
    if (moved)
        sbx_timeline_resort(tl);
}
