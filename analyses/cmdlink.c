/* Which command was running when (the rule is in analyses/cmdlink.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/cmdlink.h"
#include "base/radix.h"
#include "model/slots.h"

static int64_t event_time(const struct sbx_event *e)
{
    return e->start != SBX_TIME_UNKNOWN ? e->start : e->end;
}

static int64_t command_end(const struct sbx_event *c)
{
    return c->end != SBX_TIME_UNKNOWN && c->end > c->start ? c->end : c->start;
}

static bool is_command(const struct sbx_event *e)
{
    return e->kind == SBX_EV_COMMAND && e->start != SBX_TIME_UNKNOWN;
}

static bool is_record(const struct sbx_event *e)
{
    return e->u.cmd.flags & SBX_CMD_RECORD;
}

uint32_t sbx_only_sandbox(const struct sbx_timeline *tl)
{
    uint32_t only = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (!e->sandbox || e->kind == SBX_EV_AUDIT || e->sandbox == only)
            continue;
        if (only)
            return 0;
        only = e->sandbox;
    }
    return only;
}

static uint32_t sandbox_of(const struct sbx_event *e, uint32_t only)
{
    return e->sandbox ? e->sandbox : only;
}

/* The first position in tl's order whose start is after t. */
static size_t after(const struct sbx_timeline *tl, int64_t t)
{
    size_t lo = 0, hi = tl->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sbx_tl_at(tl, mid)->start <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const struct sbx_event *sbx_command_during(const struct sbx_timeline *tl,
                                           const struct sbx_event *e)
{
    int64_t t = event_time(e);
    uint32_t sb = e->sandbox ? e->sandbox : sbx_only_sandbox(tl);
    if (t == SBX_TIME_UNKNOWN || !sb)
        return NULL;
    const struct sbx_event *record = NULL;
    /* backwards: the first wrapper command found running is the answer */
    for (size_t i = after(tl, t); i-- > 0;) {
        const struct sbx_event *c = sbx_tl_at(tl, i);
        if (c->start == SBX_TIME_UNKNOWN)
            break;
        if (c == e || !is_command(c) || c->sandbox != sb || command_end(c) < t)
            continue;
        if (!is_record(c))
            return c;
        if (!record)
            record = c;
    }
    return record;
}

/* ---- the index: per (sandbox, wrapper or record), the commands by start
 * and a max-tree over their ends, to find the last one started at or
 * before t that is still running at t ---- */

struct cmdlist {
    uint32_t sandbox;
    bool record;
    size_t n, size;               /* commands; leaves of the tree (a power of two) */
    const struct sbx_slots *slots; /* the index's */
    const uint32_t *ev;           /* slots (model/slots.h), by start ascending: a slice of the index's all */
    /* 1-based heap of maxima over the ends, 2 * size: leaf size + k is the
     * latest end of block k, commands [k * BLOCK, (k + 1) * BLOCK) */
    int64_t *tree;
    /* indexes into ev, by end ascending (ties: by start); NULL when that
     * is ev's own order (commands ended in the order they started) */
    uint32_t *by_end;
};

/* Commands a leaf of the tree stands for: the tree costs a few bytes a
 * command, and a query reads at most two blocks' ends from their events. */
enum { BLOCK = 8 };

struct sbx_cmdindex {
    uint32_t only;
    struct cmdlist *lists;        /* by (sandbox, record) */
    size_t nlists;
    struct sbx_slots slots;       /* of the timeline's storage */
    uint32_t *all;                /* every list's commands' slots, list after list */
};

/* The i-th command of l. */
static const struct sbx_event *ev_at(const struct cmdlist *l, size_t i)
{
    return sbx_slot_event(l->slots, l->ev[i]);
}

/* A command's key: its sandbox, whether it is a record, and its position
 * in the order, so that sorting keys sorts by list, then by position. The
 * timeline's positions fit in 31 bits (model/evid.h keeps them in 32). */
static uint64_t key_of(const struct sbx_event *c, size_t pos)
{
    return (uint64_t)c->sandbox << 32 | (uint64_t)is_record(c) << 31 | (pos & 0x7fffffffu);
}

/* qsort_r's order of indexes into a list's events (ctx, the list) by
 * their end; ties by start, then by place in the list. */
static int by_end(const void *x, const void *y, void *ctx)
{
    const struct cmdlist *l = ctx;
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    const struct sbx_event *a = ev_at(l, i), *b = ev_at(l, j);
    int64_t ea = command_end(a), eb = command_end(b);
    if (ea != eb)
        return ea < eb ? -1 : 1;
    int d = sbx_event_cmp(a, b);
    return d ? d : (i > j) - (i < j);
}

/* Whether ev's own order is by_end's already: commands mostly end in the
 * order they start, and a check is one compare each where qsort_r takes a
 * few dozen. by_end is a total order, so the sorted array would then be
 * the identity, and none is kept. */
static bool in_end_order(const struct cmdlist *l)
{
    for (uint32_t i = 1; i < l->n; i++) {
        uint32_t a = i - 1, b = i;
        if (by_end(&a, &b, (void *)l) > 0)
            return false;
    }
    return true;
}

/* The index into ev of l's k-th command by end. */
static uint32_t end_rank(const struct cmdlist *l, size_t k)
{
    return l->by_end ? l->by_end[k] : (uint32_t)k;
}

/* Makes l's tree and its order by end, from its sandbox, record and n
 * (set by sbx_cmdindex_new) and its slots, slots[0..n). */
static void build_list(struct cmdlist *l, const struct sbx_cmdindex *ix, const uint32_t *slots)
{
    size_t n = l->n;
    l->size = 1;
    while (l->size * BLOCK < n)
        l->size *= 2;
    l->slots = &ix->slots;
    l->ev = slots;
    l->tree = sbx_xmalloc(2 * l->size * sizeof *l->tree);
    for (size_t k = 0; k < l->size; k++)
        l->tree[l->size + k] = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        int64_t *leaf = &l->tree[l->size + i / BLOCK], end = command_end(ev_at(l, i));
        if (end > *leaf)
            *leaf = end;
    }
    for (size_t k = l->size; k-- > 1;)
        l->tree[k] = l->tree[2 * k] > l->tree[2 * k + 1] ? l->tree[2 * k] : l->tree[2 * k + 1];
    if (in_end_order(l))
        return;
    l->by_end = sbx_xmalloc(n * sizeof *l->by_end);
    for (size_t i = 0; i < n; i++)
        l->by_end[i] = (uint32_t)i;
    qsort_r(l->by_end, n, sizeof *l->by_end, by_end, l);
}

struct sbx_cmdindex *sbx_cmdindex_new(const struct sbx_timeline *tl)
{
    struct sbx_cmdindex *ix = sbx_xcalloc(1, sizeof *ix);
    ix->only = sbx_only_sandbox(tl);
    size_t n = 0;
    for (size_t i = 0; i < tl->n; i++)
        n += is_command(sbx_tl_at(tl, i)) && sbx_tl_at(tl, i)->sandbox;
    if (!n)
        return ix;
    sbx_slots_make(&ix->slots, tl);
    uint64_t *keys = sbx_xmalloc(n * sizeof *keys);
    size_t k = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *c = sbx_tl_at(tl, i);
        if (is_command(c) && c->sandbox)
            keys[k++] = key_of(c, i);
    }
    /* made in ascending position: sorting by list keeps the positions in order */
    sbx_radix_sort_high(keys, n, 31);
    ix->all = sbx_xmalloc(n * sizeof *ix->all);
    /* the order holds slots already: the slot table's ranks are the timeline's */
    for (size_t i = 0; i < n; i++)
        ix->all[i] = tl->order_[keys[i] & 0x7fffffffu];
    size_t cap = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && keys[j] >> 31 == keys[i] >> 31)
            j++;
        SBX_GROW(ix->lists, ix->nlists, cap);
        ix->lists[ix->nlists++] = (struct cmdlist){
            .sandbox = (uint32_t)(keys[i] >> 32), .record = keys[i] >> 31 & 1, .n = j - i};
        i = j;
    }
    /* the keys go before the lists' arrays come: they are never held together */
    free(keys);
    for (size_t i = 0, at = 0; i < ix->nlists; at += ix->lists[i++].n)
        build_list(&ix->lists[i], ix, ix->all + at);
    return ix;
}

void sbx_cmdindex_free(struct sbx_cmdindex *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->nlists; i++) {
        free(ix->lists[i].tree);
        free(ix->lists[i].by_end);
    }
    free(ix->lists);
    free(ix->all);
    sbx_slots_free(&ix->slots);
    free(ix);
}

size_t sbx_cmdindex_bytes(const struct sbx_cmdindex *ix)
{
    size_t b = sizeof *ix + ix->nlists * sizeof *ix->lists;
    for (size_t i = 0; i < ix->nlists; i++) {
        const struct cmdlist *l = &ix->lists[i];
        b += l->n * sizeof *ix->all + 2 * l->size * sizeof *l->tree;
        if (l->by_end)
            b += l->n * sizeof *l->by_end;
    }
    return b;
}

static const struct cmdlist *find_list(const struct sbx_cmdindex *ix, uint32_t sandbox, bool record)
{
    size_t lo = 0, hi = ix->nlists;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct cmdlist *l = &ix->lists[mid];
        if (l->sandbox < sandbox || (l->sandbox == sandbox && l->record < record))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ix->nlists && ix->lists[lo].sandbox == sandbox && ix->lists[lo].record == record
               ? &ix->lists[lo]
               : NULL;
}

/* How many of l's commands (by start) started at or before t. */
static size_t started_by_t(const struct cmdlist *l, int64_t t)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ev_at(l, mid)->start <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The last leaf in [lo, min(hi, qhi)] of node's range whose end is >= t, or SIZE_MAX. */
static size_t rightmost_block(const struct cmdlist *l, size_t node, size_t lo, size_t hi,
                              size_t qhi, int64_t t)
{
    if (lo > qhi || l->tree[node] < t)
        return SIZE_MAX;
    if (lo == hi)
        return lo;
    size_t mid = lo + (hi - lo) / 2;
    size_t r = rightmost_block(l, 2 * node + 1, mid + 1, hi, qhi, t);
    return r != SIZE_MAX ? r : rightmost_block(l, 2 * node, lo, mid, qhi, t);
}

/* The last command in [from, to] whose end is >= t, or SIZE_MAX. */
static size_t last_running(const struct cmdlist *l, size_t from, size_t to, int64_t t)
{
    for (size_t i = to + 1; i-- > from;)
        if (command_end(ev_at(l, i)) >= t)
            return i;
    return SIZE_MAX;
}

/* The last command in [0, qhi] whose end is >= t, or SIZE_MAX: qhi's own
 * block read from the events, the blocks before it from the tree. */
static size_t rightmost(const struct cmdlist *l, size_t qhi, int64_t t)
{
    size_t b = qhi / BLOCK;
    size_t i = last_running(l, b * BLOCK, qhi, t);
    if (i != SIZE_MAX || b == 0)
        return i;
    size_t rb = rightmost_block(l, 1, 0, l->size - 1, b - 1, t);
    if (rb == SIZE_MAX)
        return SIZE_MAX;
    return last_running(l, rb * BLOCK, rb * BLOCK + BLOCK - 1, t);
}

static const struct sbx_event *running_in(const struct cmdlist *l, int64_t t,
                                          const struct sbx_event *e)
{
    if (!l)
        return NULL;
    size_t qhi = started_by_t(l, t); /* the first start after t */
    while (qhi-- > 0) {
        size_t i = rightmost(l, qhi, t);
        if (i == SIZE_MAX)
            return NULL;
        if (ev_at(l, i) != e)
            return ev_at(l, i);
        qhi = i; /* e itself is a command: the one before it */
    }
    return NULL;
}

const struct sbx_event *sbx_cmdindex_during(const struct sbx_cmdindex *ix,
                                            const struct sbx_event *e)
{
    int64_t t = event_time(e);
    uint32_t sb = sandbox_of(e, ix->only);
    if (t == SBX_TIME_UNKNOWN || !sb)
        return NULL;
    const struct sbx_event *c = running_in(find_list(ix, sb, false), t, e);
    return c ? c : running_in(find_list(ix, sb, true), t, e);
}

/* The command of l that ended last before t (not e), or NULL. */
static const struct sbx_event *ended_in(const struct cmdlist *l, int64_t t, const struct sbx_event *e)
{
    if (!l)
        return NULL;
    size_t lo = 0, hi = l->n; /* the first end at or after t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (command_end(ev_at(l, end_rank(l, mid))) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo-- > 0)
        if (ev_at(l, end_rank(l, lo)) != e)
            return ev_at(l, end_rank(l, lo));
    return NULL;
}

const struct sbx_event *sbx_cmdindex_ended_before(const struct sbx_cmdindex *ix,
                                                  const struct sbx_event *e)
{
    int64_t t = event_time(e);
    uint32_t sb = sandbox_of(e, ix->only);
    if (t == SBX_TIME_UNKNOWN || !sb)
        return NULL;
    const struct sbx_event *c = ended_in(find_list(ix, sb, false), t, e);
    return c ? c : ended_in(find_list(ix, sb, true), t, e);
}

/* The first leaf in [max(lo, qlo), hi] of node's range whose end is >= t, or SIZE_MAX. */
static size_t leftmost(const struct cmdlist *l, size_t node, size_t lo, size_t hi, size_t qlo,
                       size_t qhi, int64_t t)
{
    if (hi < qlo || lo > qhi || l->tree[node] < t)
        return SIZE_MAX;
    if (lo == hi)
        return lo;
    size_t mid = lo + (hi - lo) / 2;
    size_t r = leftmost(l, 2 * node, lo, mid, qlo, qhi, t);
    return r != SIZE_MAX ? r : leftmost(l, 2 * node + 1, mid + 1, hi, qlo, qhi, t);
}

/* Whether e is one of l's commands (the list is in timeline order). */
static bool holds(const struct cmdlist *l, const struct sbx_event *e)
{
    if (e->kind != SBX_EV_COMMAND || e->sandbox != l->sandbox || is_record(e) != l->record)
        return false;
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sbx_event_cmp(ev_at(l, mid), e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < l->n && sbx_event_cmp(ev_at(l, lo), e) == 0; lo++)
        if (ev_at(l, lo) == e)
            return true;
    return false;
}

/* How many of l's commands run at t, e aside: those started by t less
 * those ended before it (a command ends at or after its start). */
static size_t count_running(const struct cmdlist *l, int64_t t, const struct sbx_event *e)
{
    if (!l)
        return 0;
    size_t started = started_by_t(l, t), ended, lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (command_end(ev_at(l, end_rank(l, mid))) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    ended = lo;
    size_t n = started - ended;
    return n && holds(l, e) ? n - 1 : n;
}

/* The first command in [from, to] whose end is >= t, or SIZE_MAX: the
 * commands of from's block read from their events, the next block that
 * holds one found in the tree. */
static size_t first_running(const struct cmdlist *l, size_t from, size_t to, int64_t t)
{
    while (from <= to) {
        size_t b = from / BLOCK, last = b * BLOCK + BLOCK - 1 < to ? b * BLOCK + BLOCK - 1 : to;
        for (size_t i = from; i <= last; i++)
            if (command_end(ev_at(l, i)) >= t)
                return i;
        if (last == to)
            return SIZE_MAX;
        size_t nb = leftmost(l, 1, 0, l->size - 1, b + 1, to / BLOCK, t);
        if (nb == SIZE_MAX)
            return SIZE_MAX;
        from = nb * BLOCK;
    }
    return SIZE_MAX;
}

size_t sbx_cmdindex_running(const struct sbx_cmdindex *ix, const struct sbx_event *e,
                            const struct sbx_event **out, size_t max)
{
    int64_t t = event_time(e);
    uint32_t sb = sandbox_of(e, ix->only);
    if (t == SBX_TIME_UNKNOWN || !sb)
        return 0;
    const struct cmdlist *l = find_list(ix, sb, false);
    size_t n = count_running(l, t, e);
    if (!n) {
        l = find_list(ix, sb, true);
        n = count_running(l, t, e);
    }
    if (!n)
        return n;
    size_t qhi = started_by_t(l, t) - 1, k = 0; /* the last start at or before t */
    for (size_t from = 0; k < max && from <= qhi;) {
        size_t i = first_running(l, from, qhi, t);
        if (i == SIZE_MAX)
            break;
        if (ev_at(l, i) != e)
            out[k++] = ev_at(l, i);
        from = i + 1;
    }
    return n;
}

/* What a source's events can be, for sbx_event_not_wrapper: a state
 * (manifests, diffs), the wrapper's own lines (where only a provider's
 * record is not the wrapper's), or another log's. */
enum source_class { SOURCE_STATE, SOURCE_WRAPPER, SOURCE_OTHER };

static enum source_class class_of(const char *format)
{
    if (strcmp(format, "manifest") == 0 || strcmp(format, "diff") == 0)
        return SOURCE_STATE;
    return strcmp(format, "recorder") == 0 ? SOURCE_WRAPPER : SOURCE_OTHER;
}

static bool not_wrapper_in(enum source_class c, const struct sbx_event *e)
{
    if (c == SOURCE_STATE || e->kind == SBX_EV_METRIC)
        return false;
    return c == SOURCE_OTHER || (e->kind == SBX_EV_COMMAND && is_record(e));
}

bool sbx_event_not_wrapper(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    return not_wrapper_in(class_of(tl->sources[e->source].format), e);
}

bool sbx_timeline_has_not_wrapper(const struct sbx_timeline *tl)
{
    uint8_t *cls = sbx_xmalloc(tl->nsources ? tl->nsources : 1);
    for (size_t s = 0; s < tl->nsources; s++)
        cls[s] = (uint8_t)class_of(tl->sources[s].format);
    bool any = false;
    for (size_t i = 0; i < tl->n && !any; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        any = not_wrapper_in((enum source_class)cls[e->source], e);
    }
    free(cls);
    return any;
}
