#include "analyses/proxyclock.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/hostindex.h"
#include "analyses/witness.h"

/* A request looks this many commands back for the ones it may lie in. */
#define LOOK_BACK 16

static bool word_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
}

void sbx_proxy_words(const char *s, size_t n, void (*fn)(const char *w, size_t len, void *ctx),
                     void *ctx)
{
    for (size_t i = 0; i < n;) {
        if (!word_byte((unsigned char)s[i])) {
            i++;
            continue;
        }
        size_t start = i;
        while (i < n && word_byte((unsigned char)s[i]))
            i++;
        size_t a = start, b = i;
        while (a < b && (s[a] == '.' || s[a] == '-'))
            a++;
        while (b > a && (s[b - 1] == '.' || s[b - 1] == '-'))
            b--;
        if (b > a)
            fn(s + a, b - a, ctx);
    }
}

/* A closed range of offsets (ns), owned by one request; a named pair's
 * also says its command. */
struct range {
    int64_t lo, hi;
    size_t owner;
    uint32_t cmd;
};

static int by_owner_lo(const void *x, const void *y)
{
    const struct range *a = x, *b = y;
    if (a->owner != b->owner)
        return a->owner < b->owner ? -1 : 1;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

struct point {
    int64_t at;
    int delta;
};

static int by_at(const void *x, const void *y)
{
    const struct point *a = x, *b = y;
    return (a->at > b->at) - (a->at < b->at);
}

struct ranges {
    struct range *r;
    size_t n, cap;
};

static void add_range(struct ranges *rs, int64_t lo, int64_t hi, size_t owner, uint32_t cmd)
{
    if (lo > hi)
        return;
    SBX_GROW(rs->r, rs->n, rs->cap);
    rs->r[rs->n++] = (struct range){lo, hi, owner, cmd};
}

/* The offsets most owners' ranges hold (each owner once): that count, and
 * the ranges where it is reached into *best (the caller frees). rs is
 * sorted and merged in place. */
static size_t most_agreed(struct ranges *rs, struct range **best, size_t *nbest)
{
    *best = NULL;
    *nbest = 0;
    if (!rs->n)
        return 0;
    qsort(rs->r, rs->n, sizeof *rs->r, by_owner_lo);
    size_t k = 0; /* one owner's overlapping ranges merged */
    for (size_t i = 0; i < rs->n; i++) {
        if (k && rs->r[k - 1].owner == rs->r[i].owner && rs->r[i].lo <= rs->r[k - 1].hi) {
            if (rs->r[i].hi > rs->r[k - 1].hi)
                rs->r[k - 1].hi = rs->r[i].hi;
            continue;
        }
        rs->r[k++] = rs->r[i];
    }
    rs->n = k;
    struct point *p = sbx_xmalloc(2 * k * sizeof *p);
    for (size_t i = 0; i < k; i++) {
        p[2 * i] = (struct point){rs->r[i].lo, 1};
        p[2 * i + 1] = (struct point){rs->r[i].hi + 1, -1};
    }
    qsort(p, 2 * k, sizeof *p, by_at);
    size_t most = 0, cap = 0;
    long count = 0;
    for (size_t i = 0; i < 2 * k;) {
        int64_t at = p[i].at;
        for (; i < 2 * k && p[i].at == at; i++)
            count += p[i].delta;
        if (i == 2 * k || count <= 0)
            continue;
        int64_t end = p[i].at - 1; /* this count holds over [at, end] */
        if ((size_t)count > most) {
            most = (size_t)count;
            *nbest = 0;
        }
        if ((size_t)count == most) {
            if (*nbest && (*best)[*nbest - 1].hi + 1 == at) {
                (*best)[*nbest - 1].hi = end;
            } else {
                SBX_GROW(*best, *nbest, cap);
                (*best)[(*nbest)++] = (struct range){at, end, 0, 0};
            }
        }
    }
    free(p);
    return most;
}

struct cmds {
    const struct sbx_event **c; /* the wrapper's commands, by start */
    size_t n;
    int64_t longest;             /* the longest one's duration */
};

static int64_t end_of(const struct sbx_event *e)
{
    return e->end != SBX_TIME_UNKNOWN && e->end >= e->start ? e->end : e->start;
}

/* Whether command c may be the one request r ran in, by sandbox. */
static bool same_place(const struct sbx_event *r, const struct sbx_event *c)
{
    return !r->sandbox || r->sandbox == c->sandbox;
}

/* A named pair: the host (a strtab id) a command's line names. */
struct named {
    uint32_t host;
    uint32_t cmd;
};

static int by_host(const void *x, const void *y)
{
    const struct named *a = x, *b = y;
    if (a->host != b->host)
        return a->host < b->host ? -1 : 1;
    return (a->cmd > b->cmd) - (a->cmd < b->cmd);
}

struct naming {
    const struct sbx_hostindex *hosts;
    uint32_t cmd;
    struct named *out;
    size_t n, cap;
    char low[256];
};

static void on_word(const char *w, size_t len, void *ctx)
{
    struct naming *nm = ctx;
    if (len >= sizeof nm->low)
        return;
    for (size_t i = 0; i < len; i++)
        nm->low[i] = (char)(w[i] >= 'A' && w[i] <= 'Z' ? w[i] + 32 : w[i]);
    size_t at = sbx_hostindex_find(nm->hosts, nm->low, len);
    if (at == SIZE_MAX)
        return;
    for (size_t i = nm->n; i-- > 0 && nm->out[i].cmd == nm->cmd;)
        if (nm->out[i].host == (uint32_t)at)
            return; /* named twice */
    SBX_GROW(nm->out, nm->n, nm->cap);
    nm->out[nm->n++] = (struct named){(uint32_t)at, nm->cmd};
}

struct reqs {
    const struct sbx_event **r;
    size_t n;
};

/* The ranges of offsets each request's named pairs allow, within ±wide. */
static size_t named_ranges(const struct sbx_timeline *tl, const struct reqs *rq, const struct cmds *cm,
                           struct ranges *rs)
{
    struct sbx_hostindex hosts = SBX_HOSTINDEX_INIT;
    for (size_t i = 0; i < rq->n; i++) {
        uint32_t h = rq->r[i]->u.net.host;
        if (h)
            sbx_hostindex_put(&hosts, sbx_str(tl, h), sbx_strtab_len(&tl->strings, h), h);
    }
    struct naming nm = {.hosts = &hosts};
    struct sbx_buf scratch = SBX_BUF_INIT;
    for (size_t j = 0; j < cm->n && hosts.n; j++) {
        const struct sbx_event *c = cm->c[j];
        if (!(c->u.cmd.command.flags & SBX_TEXT_PRESENT))
            continue;
        size_t len;
        const char *line = sbx_text_get(tl, c, &c->u.cmd.command, &scratch, &len);
        nm.cmd = (uint32_t)j;
        sbx_proxy_words(line, len, on_word, &nm);
    }
    sbx_buf_free(&scratch);
    sbx_hostindex_free(&hosts);
    if (nm.n)
        qsort(nm.out, nm.n, sizeof *nm.out, by_host);
    size_t comparable = 0;
    for (size_t i = 0; i < rq->n; i++) {
        const struct sbx_event *r = rq->r[i];
        size_t lo = 0, hi = nm.n;
        while (lo < hi) { /* the host's first pair */
            size_t mid = lo + (hi - lo) / 2;
            if (nm.out[mid].host < r->u.net.host)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t before = rs->n;
        for (size_t k = lo; k < nm.n && nm.out[k].host == r->u.net.host; k++) {
            const struct sbx_event *c = cm->c[nm.out[k].cmd];
            if (!same_place(r, c))
                continue;
            int64_t a = end_of(r) - end_of(c), b = r->start - c->start; /* r moved inside c */
            if (a < -SBX_SKEW_WIDE_NS)
                a = -SBX_SKEW_WIDE_NS;
            if (b > SBX_SKEW_WIDE_NS)
                b = SBX_SKEW_WIDE_NS;
            add_range(rs, a, b, i, nm.out[k].cmd);
        }
        comparable += rs->n > before;
    }
    free(nm.out);
    return comparable;
}

/* The last command that started at or before t, + 1 (0: none). */
static size_t started_by(const struct cmds *cm, int64_t t)
{
    size_t lo = 0, hi = cm->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cm->c[mid]->start <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The ranges within [b.lo, b.hi] that put each request (named or not)
 * inside a command of its sandbox. */
static void inside_ranges(const struct reqs *rq, const struct cmds *cm, struct range b, struct ranges *rs)
{
    for (size_t i = 0; i < rq->n; i++) {
        const struct sbx_event *r = rq->r[i];
        int64_t rend = end_of(r);
        size_t looked = 0;
        for (size_t j = started_by(cm, r->start - b.lo); j-- > 0 && looked < LOOK_BACK;) {
            const struct sbx_event *c = cm->c[j];
            if (c->start < r->start - b.hi - cm->longest)
                break;
            if (!same_place(r, c))
                continue;
            looked++;
            int64_t lo = rend - end_of(c), hi = r->start - c->start;
            add_range(rs, lo > b.lo ? lo : b.lo, hi < b.hi ? hi : b.hi, i, (uint32_t)j);
        }
    }
}

static int64_t dist0(int64_t v)
{
    return v < 0 ? -v : v;
}

/* The offset a range stands for: 0 when it holds 0, else its middle. */
static int64_t middle(struct range r)
{
    return r.lo <= 0 && r.hi >= 0 ? 0 : r.lo + (r.hi - r.lo) / 2;
}

/* The commands of the named pairs, and of those holding offset at, each
 * once. */
static void commands_agreeing(const struct ranges *pairs, size_t ncmds, int64_t at, size_t *all,
                              size_t *agreeing)
{
    unsigned char *seen = sbx_xcalloc(ncmds + 1, 1);
    *all = *agreeing = 0;
    for (size_t i = 0; i < pairs->n; i++) {
        const struct range *r = &pairs->r[i];
        unsigned char was = seen[r->cmd];
        seen[r->cmd] |= 1 | (r->lo <= at && at <= r->hi ? 2 : 0);
        *all += !was;
        *agreeing += !(was & 2) && (seen[r->cmd] & 2);
    }
    free(seen);
}

/* The estimate for one source's requests, relative to their times now. */
static void estimate(const struct sbx_timeline *tl, const struct reqs *rq, const struct cmds *cm,
                     bool given, struct sbx_proxy_clock *pc)
{
    struct sbx_skew *skew = &pc->skew;
    struct ranges named = {0};
    *skew = (struct sbx_skew){.how = SBX_SKEW_NONE};
    skew->comparable = named_ranges(tl, rq, cm, &named);
    struct ranges pairs = {sbx_xmalloc((named.n + 1) * sizeof *named.r), named.n, named.n};
    if (named.n)
        memcpy(pairs.r, named.r, named.n * sizeof *named.r); /* before merging */
    struct range *best;
    size_t nbest;
    size_t most = most_agreed(&named, &best, &nbest);
    if (given) {
        skew->how = SBX_SKEW_GIVEN;
        for (size_t i = 0; i < named.n; i++) /* merged: each request once */
            skew->pairs += named.r[i].lo <= 0 && named.r[i].hi >= 0;
        commands_agreeing(&pairs, cm->n, 0, &pc->commands, &pc->commands_agreeing);
    } else if (most) {
        /* among the best, the range that puts most requests inside commands */
        size_t inside_most = 0;
        struct range pick = best[0];
        for (size_t k = 0; k < nbest; k++) {
            struct ranges in = {0};
            inside_ranges(rq, cm, best[k], &in);
            struct range *sub;
            size_t nsub;
            size_t n = most_agreed(&in, &sub, &nsub);
            if (!nsub) { /* nothing else lies inside: the range itself */
                sub = sbx_xmalloc(sizeof *sub);
                sub[0] = best[k];
                nsub = 1;
            }
            for (size_t s = 0; s < nsub; s++)
                if (n > inside_most || (n == inside_most && dist0(middle(sub[s])) < dist0(middle(pick)))) {
                    inside_most = n;
                    pick = sub[s];
                }
            free(sub);
            free(in.r);
        }
        skew->ns = middle(pick);
        skew->spread_ns = (pick.hi - pick.lo) / 2;
        skew->pairs = most;
        /* the rule of analyses/skew.h, by requests and by the commands they
         * lie in: one command's many requests are one piece of evidence */
        commands_agreeing(&pairs, cm->n, skew->ns, &pc->commands, &pc->commands_agreeing);
        size_t cmds = pc->commands, cmds_agreeing = pc->commands_agreeing;
        bool enough = (most >= SBX_SKEW_MIN_PAIRS || most == skew->comparable) &&
                      (cmds_agreeing >= SBX_SKEW_MIN_PAIRS || cmds_agreeing == cmds);
        skew->how = enough && 2 * most >= skew->comparable && 2 * cmds_agreeing >= cmds
                        ? SBX_SKEW_MEASURED
                        : SBX_SKEW_UNCERTAIN;
    }
    free(best);
    free(named.r);
    free(pairs.r);
}

void sbx_proxy_clocks_run(struct sbx_timeline *tl, struct sbx_proxy_clocks *out)
{
    memset(out, 0, sizeof *out);
    unsigned *wrapper_rank = sbx_witness_wrapper_ranks(tl);
    struct cmds cm = {sbx_xmalloc((tl->n + 1) * sizeof *cm.c), 0, 0};
    struct reqs rq = {sbx_xmalloc((tl->n + 1) * sizeof *rq.r), 0};
    bool *proxy = sbx_xcalloc(tl->nsources + 1, 1);
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->start == SBX_TIME_UNKNOWN)
            continue;
        if (e->kind == SBX_EV_NETWORK) {
            proxy[e->source] = true;
        } else if (e->kind == SBX_EV_COMMAND && !(e->u.cmd.flags & SBX_CMD_RECORD) &&
                   sbx_witness_rank(tl, e) == wrapper_rank[e->sandbox]) {
            cm.c[cm.n++] = e;
            if (end_of(e) - e->start > cm.longest)
                cm.longest = end_of(e) - e->start;
        }
    }
    bool moved = false;
    for (uint32_t s = 0; s < tl->nsources; s++) {
        if (!proxy[s])
            continue;
        rq.n = 0;
        for (size_t i = 0; i < tl->n; i++) {
            const struct sbx_event *e = sbx_tl_at(tl, i);
            if (e->source == s && e->kind == SBX_EV_NETWORK && e->start != SBX_TIME_UNKNOWN)
                rq.r[rq.n++] = e;
        }
        struct sbx_proxy_clock pc = {s, tl->sources[s].format, {0}, 0, 0};
        struct sbx_skew *k = &pc.skew;
        bool given = tl->sources[s].clock == SBX_CLOCK_GIVEN;
        estimate(tl, &rq, &cm, given, &pc);
        if (k->how == SBX_SKEW_MEASURED) {
            if (k->ns) {
                sbx_timeline_set_clock(tl, s, tl->sources[s].clock_offset + k->ns, SBX_CLOCK_MEASURED);
                moved = true;
            } else {
                tl->sources[s].clock = SBX_CLOCK_MEASURED;
            }
            k->ns = tl->sources[s].clock_offset;
        } else if (given) {
            k->ns = tl->sources[s].clock_offset;
        }
        out->c = sbx_xrealloc(out->c, (out->n + 1) * sizeof *out->c);
        out->c[out->n++] = pc;
    }
    if (moved)
        sbx_timeline_resort(tl);
    free(proxy);
    free(rq.r);
    free(cm.c);
    free(wrapper_rank);
}

void sbx_proxy_clocks_free(struct sbx_proxy_clocks *pc)
{
    free(pc->c);
    memset(pc, 0, sizeof *pc);
}

const struct sbx_proxy_clock *sbx_proxy_clock_of(const struct sbx_proxy_clocks *pc, uint32_t src)
{
    for (size_t i = 0; i < pc->n; i++)
        if (pc->c[i].source == src)
            return &pc->c[i];
    return NULL;
}
