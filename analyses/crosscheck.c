#include "analyses/crosscheck.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/crosscheck_internal.h"
#include "base/search.h"
#include "model/program.h"

#define WINDOW_NS SBX_CROSSCHECK_WINDOW_NS

bool sbx_cc_is_record(const struct sbx_event *e)
{
    return e->kind == SBX_EV_COMMAND && (e->u.cmd.flags & SBX_CMD_RECORD);
}

bool sbx_cc_is_wrapper(const struct sbx_event *e)
{
    return e->kind == SBX_EV_COMMAND && !(e->u.cmd.flags & SBX_CMD_RECORD);
}

/* Whether the record's program is one of the command line's programs. */
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

static bool program_matches(const struct sbx_timeline *tl, const struct sbx_event *w,
                            const struct sbx_event *r, struct sbx_buf *scratch)
{
    const char *want = sbx_str(tl, r->u.cmd.program);
    struct prog_search ps = {want, strlen(want), false};
    if (!ps.len)
        return false;
    size_t n;
    const char *cmd = sbx_text_get(tl, w, &w->u.cmd.command, scratch, &n);
    sbx_program_each(cmd, n, on_program, &ps);
    return ps.found;
}

bool sbx_cc_exits_agree(const struct sbx_event *w, const struct sbx_event *r)
{
    const struct sbx_command *rc = &r->u.cmd, *wc = &w->u.cmd;
    if (rc->flags & (SBX_CMD_RUNNING | SBX_CMD_UNREAD))
        return true;
    if (!(rc->flags & SBX_CMD_EXIT_KNOWN) || !(wc->flags & SBX_CMD_EXIT_KNOWN))
        return (rc->flags & SBX_CMD_EXIT_KNOWN) == (wc->flags & SBX_CMD_EXIT_KNOWN);
    return sbx_cmd_exit(rc) == sbx_cmd_exit(wc);
}


bool sbx_crosscheck_same_command(const struct sbx_timeline *tl, const struct sbx_event *w,
                                 const struct sbx_event *r, struct sbx_buf *scratch)
{
    return r->sandbox == w->sandbox && sbx_cc_exits_agree(w, r) && program_matches(tl, w, r, scratch);
}

struct cand {
    uint32_t w, r;  /* indices into the wrapper and record lists */
    int64_t dist;   /* |start difference| after the skew */
};

static int by_dist(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->dist != y->dist)
        return x->dist < y->dist ? -1 : 1;
    if (x->w != y->w)
        return x->w < y->w ? -1 : 1;
    return (x->r > y->r) - (x->r < y->r);
}

static int by_address(const void *a, const void *b)
{
    const struct sbx_event *x = *(const struct sbx_event *const *)a, *y = *(const struct sbx_event *const *)b;
    return (x > y) - (x < y);
}

static int by_wrapper(const void *a, const void *b)
{
    const struct sbx_pair *x = a, *y = b;
    return (x->wrapper > y->wrapper) - (x->wrapper < y->wrapper);
}

struct lists {
    const struct sbx_event **w, **r; /* by start */
    size_t nw, nr;
};

/* Candidate pairs within the window: same sandbox, program; with
 * want_exit, exits agreeing, else disagreeing. A sweep over both lists. */
static struct cand *candidates(const struct sbx_timeline *tl, const struct lists *l, int64_t skew,
                               const bool *wtaken, const bool *rtaken, bool want_exit, size_t *n,
                               struct sbx_buf *scratch)
{
    struct cand *c = NULL;
    size_t nc = 0, cap = 0, lo = 0;
    for (size_t i = 0; i < l->nw; i++) {
        if (wtaken[i])
            continue;
        const struct sbx_event *w = l->w[i];
        int64_t t = w->start + skew;
        while (lo < l->nr && l->r[lo]->start < t - WINDOW_NS)
            lo++;
        for (size_t j = lo; j < l->nr && l->r[j]->start <= t + WINDOW_NS; j++) {
            const struct sbx_event *r = l->r[j];
            if (rtaken[j] || r->sandbox != w->sandbox || sbx_cc_exits_agree(w, r) != want_exit ||
                !program_matches(tl, w, r, scratch))
                continue;
            SBX_GROW(c, nc, cap);
            int64_t d = r->start - t;
            c[nc++] = (struct cand){(uint32_t)i, (uint32_t)j, d < 0 ? -d : d};
        }
    }
    if (nc)
        qsort(c, nc, sizeof *c, by_dist);
    *n = nc;
    return c;
}

/* Greedy by distance: each side at most once, the closest start wins. */
static size_t assign(const struct cand *c, size_t nc, bool *wtaken, bool *rtaken,
                     struct sbx_pair **out, size_t *nout, const struct lists *l)
{
    size_t cap = *nout, made = 0; /* at least what is there: SBX_GROW reallocs past it */
    for (size_t k = 0; k < nc; k++) {
        if (wtaken[c[k].w] || rtaken[c[k].r])
            continue;
        wtaken[c[k].w] = rtaken[c[k].r] = true;
        SBX_GROW(*out, *nout, cap);
        (*out)[(*nout)++] = (struct sbx_pair){l->w[c[k].w], l->r[c[k].r]};
        made++;
    }
    return made;
}

/* Matches with the skew taken off; returns the pairs in *out. */
static void match(const struct sbx_timeline *tl, const struct lists *l, int64_t skew,
                  bool *wtaken, bool *rtaken, struct sbx_pair **out, size_t *nout,
                  struct sbx_buf *scratch)
{
    size_t nc;
    struct cand *c = candidates(tl, l, skew, wtaken, rtaken, true, &nc, scratch);
    assign(c, nc, wtaken, rtaken, out, nout, l);
    free(c);
}

void sbx_crosscheck_run(struct sbx_timeline *tl, struct sbx_crosscheck *cc)
{
    struct sbx_skew skew = cc->skew; /* sbx_crosscheck_align's */
    int64_t skew_ns = cc->skew_ns;
    bool skew_known = cc->skew_known;
    memset(cc, 0, sizeof *cc);
    cc->skew = skew;
    cc->skew_ns = skew_ns;
    cc->skew_known = skew_known;
    /* sandboxes that have a record, and each one's earliest record */
    uint32_t nids = tl->strings.n;
    int64_t *first = sbx_xmalloc((nids ? nids : 1) * sizeof *first);
    for (uint32_t i = 0; i < nids; i++)
        first[i] = SBX_TIME_UNKNOWN;
    struct lists l = {0};
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (!sbx_cc_is_record(e))
            continue;
        cc->records++;
        cc->running += !!(e->u.cmd.flags & SBX_CMD_RUNNING);
        cc->unread += !!(e->u.cmd.flags & SBX_CMD_UNREAD);
        if (e->start == SBX_TIME_UNKNOWN)
            continue;
        if (first[e->sandbox] == SBX_TIME_UNKNOWN || e->start < first[e->sandbox])
            first[e->sandbox] = e->start;
    }
    if (!cc->records) {
        free(first);
        return;
    }
    l.w = sbx_xmalloc(tl->n * sizeof *l.w);
    l.r = sbx_xmalloc(tl->n * sizeof *l.r);
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->start == SBX_TIME_UNKNOWN)
            continue;
        if (sbx_cc_is_record(e))
            l.r[l.nr++] = e;
        else if (sbx_cc_is_wrapper(e) && first[e->sandbox] != SBX_TIME_UNKNOWN)
            l.w[l.nw++] = e;
    }
    cc->checked_commands = l.nw;
    /* both lists are in timeline order, so sorted by start */
    bool *wtaken = sbx_xcalloc(l.nw + 1, 1), *rtaken = sbx_xcalloc(l.nr + 1, 1);
    struct sbx_buf scratch = SBX_BUF_INIT;
    /* the records are on the wrapper's clock already (sbx_crosscheck_align),
     * or on their own when the skew is uncertain */
    match(tl, &l, 0, wtaken, rtaken, &cc->pairs, &cc->npairs, &scratch);
    bool conclude = cc->skew.how != SBX_SKEW_UNCERTAIN;
    if (conclude) { /* what is left: the same command by time and program, another exit */
        size_t nc;
        struct cand *c = candidates(tl, &l, 0, wtaken, rtaken, false, &nc, &scratch);
        assign(c, nc, wtaken, rtaken, &cc->exit_mismatch, &cc->nexit_mismatch, &l);
        free(c);
    }
    for (size_t k = 0; k < cc->nexit_mismatch; k++)
        ((struct sbx_event *)cc->exit_mismatch[k].wrapper)->findings |= SBX_F_EXIT_MISMATCH;
    const struct sbx_event ***outside = conclude ? &cc->outside : &cc->unmatched_records;
    size_t *noutside = conclude ? &cc->noutside : &cc->nunmatched_records;
    const struct sbx_event ***missing = conclude ? &cc->missing : &cc->unmatched_commands;
    size_t *nmissing = conclude ? &cc->nmissing : &cc->nunmatched_commands;
    size_t cap_outside = 0, cap_missing = 0;
    for (size_t j = 0; j < l.nr; j++) {
        if (rtaken[j])
            continue;
        SBX_GROW(*outside, *noutside, cap_outside);
        (*outside)[(*noutside)++] = l.r[j];
        if (conclude)
            ((struct sbx_event *)l.r[j])->findings |= SBX_F_OUTSIDE_WRAPPER;
    }
    for (size_t i = 0; i < l.nw; i++) {
        if (wtaken[i])
            continue;
        const struct sbx_event *w = l.w[i];
        if (w->start < first[w->sandbox] - WINDOW_NS) {
            cc->older_than_record++; /* before the record's 14 days: nothing to say */
            continue;
        }
        SBX_GROW(*missing, *nmissing, cap_missing);
        (*missing)[(*nmissing)++] = w;
        if (conclude)
            ((struct sbx_event *)w)->findings |= SBX_F_MISSING_FROM_RECORD;
    }
    if (cc->npairs) {
        qsort(cc->pairs, cc->npairs, sizeof *cc->pairs, by_wrapper);
        cc->matched_records = sbx_xmalloc(cc->npairs * sizeof *cc->matched_records);
        for (size_t k = 0; k < cc->npairs; k++)
            cc->matched_records[k] = cc->pairs[k].record;
        qsort(cc->matched_records, cc->npairs, sizeof *cc->matched_records, by_address);
    }
    sbx_buf_free(&scratch);
    free(wtaken);
    free(rtaken);
    free(l.w);
    free(l.r);
    free(first);
}

void sbx_crosscheck_free(struct sbx_crosscheck *cc)
{
    free(cc->pairs);
    free(cc->outside);
    free(cc->missing);
    free(cc->exit_mismatch);
    free(cc->matched_records);
    free(cc->unmatched_records);
    free(cc->unmatched_commands);
    memset(cc, 0, sizeof *cc);
}

const struct sbx_event *sbx_crosscheck_record_of(const struct sbx_crosscheck *cc,
                                                 const struct sbx_event *wrapper)
{
    size_t lo = sbx_lower_bound_ptr(cc->pairs, cc->npairs, sizeof *cc->pairs,
                                    offsetof(struct sbx_pair, wrapper), wrapper);
    return lo < cc->npairs && cc->pairs[lo].wrapper == wrapper ? cc->pairs[lo].record : NULL;
}

bool sbx_crosscheck_is_matched_record(const struct sbx_crosscheck *cc, const struct sbx_event *record)
{
    size_t lo = sbx_lower_bound_ptr(cc->matched_records, cc->npairs, sizeof *cc->matched_records, 0,
                                    record);
    return lo < cc->npairs && cc->matched_records[lo] == record;
}
