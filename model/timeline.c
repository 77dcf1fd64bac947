#include "model/timeline.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/argv.h"
#include "model/evid.h"
#include "base/jsonstr.h"

static const char *const kind_names[SBX_EV_KIND_COUNT] = {
    "command", "files", "network", "lifecycle", "audit", "metric", "span", "note",
};

const char *sbx_kind_name(enum sbx_kind k)
{
    return (unsigned)k < SBX_EV_KIND_COUNT ? kind_names[k] : "?";
}

/* Memory mapped directly, for a big sort's arrays; with
 * populate its pages come in place (MAP_POPULATE): a 1 GiB log fills a
 * quarter of a million pages, and faulting them in one at a time costs more
 * than the parse that fills them. Freed with unmap_big. */
static void *map_big(size_t size, bool populate)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "sbxview: out of memory (asked for %zu bytes)\n", size);
        abort();
    }
    return p;
}

static void unmap_big(void *p, size_t size)
{
    munmap(p, size);
}

void sbx_timeline_init(struct sbx_timeline *tl)
{
    memset(tl, 0, sizeof *tl);
    sbx_strtab_init(&tl->strings);
}

static void release_data(const char *data, size_t size, enum sbx_data_how how)
{
    if (how == SBX_DATA_MAPPED && size)
        munmap((void *)data, size);
    else if (how == SBX_DATA_HEAP)
        free((void *)data);
}

void sbx_timeline_free(struct sbx_timeline *tl)
{
    sbx_evids_drop(tl);
    for (size_t i = 0; i < tl->nsources; i++) {
        struct sbx_source *s = &tl->sources[i];
        release_data(s->data, s->size, s->how);
        free(s->path);
    }
    free(tl->sources);
    for (size_t i = 0; i < tl->nblocks; i++)
        sbx_evblock_free(tl->blocks[i]);
    free(tl->blocks);
    for (size_t i = 0; i < tl->nowned; i++)
        free(tl->owned[i]);
    free(tl->owned);
    free(tl->order_);
    free(tl->skips);
    free(tl->diffs);
    sbx_strtab_free(&tl->strings);
    memset(tl, 0, sizeof *tl);
}

uint32_t sbx_timeline_add_source(struct sbx_timeline *tl, const char *path, const char *data,
                                 size_t size, enum sbx_data_how how)
{
    tl->sources = sbx_xrealloc(tl->sources, (tl->nsources + 1) * sizeof *tl->sources);
    struct sbx_source *s = &tl->sources[tl->nsources];
    memset(s, 0, sizeof *s);
    s->path = sbx_xstrndup(path, strlen(path));
    s->data = data;
    s->size = size;
    s->how = how;
    s->format = "unknown";
    s->full_size = size;
    return (uint32_t)tl->nsources++;
}

void sbx_timeline_set_data(struct sbx_timeline *tl, uint32_t source, const char *data,
                           size_t size, enum sbx_data_how how)
{
    struct sbx_source *s = &tl->sources[source];
    if (data != s->data)
        release_data(s->data, s->size, s->how);
    s->data = data;
    s->size = size;
    s->how = how;
}

struct sbx_event *sbx_evbuf_push(struct sbx_evbuf *buf)
{
    if (buf->n == buf->nblocks * SBX_EVBLOCK) {
        if (buf->nblocks) /* the full block's events are written */
            sbx_evblock_trim(buf->blocks[buf->nblocks - 1]);
        buf->blocks = sbx_xrealloc(buf->blocks, (buf->nblocks + 1) * sizeof *buf->blocks);
        buf->blocks[buf->nblocks] = sbx_evblock_new(buf->nblocks > 0) /* the first fills page by page: a small load stays small */;
        buf->nblocks++;
    }
    struct sbx_event *e = sbx_evbuf_at(buf, buf->n++);
    memset(e, 0, sizeof *e);
    e->start = e->end = SBX_TIME_UNKNOWN;
    return e;
}

struct sbx_event *sbx_evbuf_at(const struct sbx_evbuf *buf, size_t i)
{
    return &buf->blocks[i / SBX_EVBLOCK][i % SBX_EVBLOCK];
}

void sbx_evbuf_skip(struct sbx_evbuf *buf, struct sbx_timeline *tl, uint32_t source,
                    uint32_t line, const char *fmt, ...)
{
    buf->skipped_total++;
    if (buf->nskips >= SBX_SKIPS_KEPT)
        return;
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (buf->nskips == buf->capskips) {
        buf->capskips = buf->capskips ? buf->capskips * 2 : 16;
        buf->skips = sbx_xrealloc(buf->skips, buf->capskips * sizeof *buf->skips);
    }
    struct sbx_skip *s = &buf->skips[buf->nskips++];
    s->source = source;
    s->line = line;
    s->reason = sbx_strtab_store(&tl->strings, reason, strlen(reason));
}

enum { ARENA_BLOCK = 64 * 1024, ARENA_PIECE_MAX = 2048, ARENA_ALIGN = 16 };

static void *own(struct sbx_evbuf *buf, size_t size)
{
    if (buf->nowned == buf->capowned) {
        buf->capowned = buf->capowned ? buf->capowned * 2 : 16;
        buf->owned = sbx_xrealloc(buf->owned, buf->capowned * sizeof *buf->owned);
    }
    void *p = sbx_xcalloc(1, size);
    buf->owned[buf->nowned++] = p;
    return p;
}

/* size bytes of the arena at a multiple of align (a power of two, at most
 * ARENA_ALIGN: the blocks are that aligned), or a piece of its own. */
static void *arena_piece(struct sbx_evbuf *buf, size_t size, size_t align)
{
    if (size > ARENA_PIECE_MAX)
        return own(buf, size);
    size = (size + align - 1) & ~(align - 1);
    if (size == 0)
        size = align;
    size_t at = (buf->arena_used + align - 1) & ~(align - 1);
    if (buf->arena_cap - at < size) {
        buf->arena = own(buf, ARENA_BLOCK);
        buf->arena_cap = ARENA_BLOCK;
        at = 0;
    }
    buf->arena_used = at + size;
    return buf->arena + at;
}

void *sbx_evbuf_alloc(struct sbx_evbuf *buf, size_t size)
{
    return arena_piece(buf, size, ARENA_ALIGN);
}

void *sbx_evbuf_alloc_words(struct sbx_evbuf *buf, size_t size)
{
    return arena_piece(buf, size, sizeof(uint32_t));
}

void sbx_timeline_adopt(struct sbx_timeline *tl, struct sbx_evbuf *buf)
{
    sbx_evids_drop(tl);
    if (buf->n) {
        /* the buffer's blocks take the next ranks: its i-th event's slot is
           the first new rank's first slot plus i */
        if (tl->nblocks + buf->nblocks > ((size_t)UINT32_MAX + 1) / SBX_EVBLOCK) {
            fprintf(stderr, "sbxview: too many events (more than 32-bit slots hold)\n");
            abort();
        }
        size_t first = tl->nblocks * SBX_EVBLOCK;
        tl->blocks = sbx_xrealloc(tl->blocks, (tl->nblocks + buf->nblocks) * sizeof *tl->blocks);
        memcpy(tl->blocks + tl->nblocks, buf->blocks, buf->nblocks * sizeof *buf->blocks);
        tl->nblocks += buf->nblocks;
        tl->order_ = sbx_xrealloc(tl->order_, (tl->n + buf->n) * sizeof *tl->order_);
        for (size_t i = 0; i < buf->n; i++)
            tl->order_[tl->n + i] = (uint32_t)(first + i);
        tl->n += buf->n;
        uint16_t source = buf->blocks[0][0].source;
        if (source < tl->nsources)
            tl->sources[source].events += buf->n;
    }
    free(buf->blocks);
    if (buf->nskips) {
        tl->skips = sbx_xrealloc(tl->skips, (tl->nskips + buf->nskips) * sizeof *tl->skips);
        memcpy(tl->skips + tl->nskips, buf->skips, buf->nskips * sizeof *buf->skips);
        tl->nskips += buf->nskips;
        tl->sources[buf->skips[0].source].skipped += buf->skipped_total;
    }
    free(buf->skips);
    if (buf->nowned) {
        tl->owned = sbx_xrealloc(tl->owned, (tl->nowned + buf->nowned) * sizeof *tl->owned);
        memcpy(tl->owned + tl->nowned, buf->owned, buf->nowned * sizeof *buf->owned);
        tl->nowned += buf->nowned;
    }
    free(buf->owned);
    memset(buf, 0, sizeof *buf);
}

void sbx_evbuf_add_lines(struct sbx_evbuf *buf, uint32_t add)
{
    for (size_t b = 0; b < buf->nblocks; b++) {
        size_t left = buf->n - b * SBX_EVBLOCK;
        sbx_evblock_add_lines(buf->blocks[b], left < SBX_EVBLOCK ? left : SBX_EVBLOCK, add);
    }
}

void sbx_evbuf_free(struct sbx_evbuf *buf)
{
    for (size_t i = 0; i < buf->nblocks; i++)
        sbx_evblock_free(buf->blocks[i]);
    free(buf->blocks);
    free(buf->skips);
    for (size_t i = 0; i < buf->nowned; i++)
        free(buf->owned[i]);
    free(buf->owned);
    memset(buf, 0, sizeof *buf);
}

/* The total order: (start, source, line). Unknown times sort first, as
 * INT64_MIN does. Ties cannot happen within one source, so the order does not
 * depend on how loading was split across threads. */
int sbx_event_cmp(const struct sbx_event *a, const struct sbx_event *b)
{
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    uint32_t la = sbx_ev_line_no(a), lb = sbx_ev_line_no(b);
    if (la != lb)
        return la < lb ? -1 : 1;
    return 0;
}

/* qsort_r's order of slots (ctx, the timeline). */
static int order_cmp(const void *x, const void *y, void *ctx)
{
    const struct sbx_timeline *tl = ctx;
    return sbx_event_cmp(sbx_tl_slot(tl, *(const uint32_t *)x), sbx_tl_slot(tl, *(const uint32_t *)y));
}

static void sort_order(struct sbx_timeline *tl)
{
    qsort_r(tl->order_, tl->n, sizeof *tl->order_, order_cmp, tl);
}

/* An in-place MSD radix sort of the events by start (each bucket's pairs
 * moved into place by swaps, as the "American flag" sort does), on (key,
 * tag) pairs held side by side: no comparison calls and no pointer
 * chasing, which dominate a qsort of millions of events, and no second
 * array of pairs (12 bytes an event beside the order, not 24). The tag is
 * the pair's place in the order taken, so the pairs are distinct and
 * sorting by (key, tag) keeps events that start together in the order
 * they came in, as a stable sort by start would. Packed: 12 bytes a pair,
 * not 16. */
struct keyed {
    uint64_t key;
    uint32_t tag;
} __attribute__((packed));

enum { KEYED_DIGITS = 12, KEYED_SMALL = 24 }; /* bytes of (key, tag); buckets sorted by insertion */

/* Byte d of the pair (key, tag), the most significant first. */
static unsigned keyed_digit(const struct keyed *x, int d)
{
    return d < 8 ? (unsigned)(x->key >> (56 - 8 * d)) & 0xFF : (x->tag >> (24 - 8 * (d - 8))) & 0xFF;
}

static bool keyed_before(const struct keyed *a, const struct keyed *b)
{
    return a->key != b->key ? a->key < b->key : a->tag < b->tag;
}

/* Sorts the distinct pairs v[0..n) by (key, tag), from byte d down; a
 * bucket of several has a byte below that tells its pairs apart. */
static void sort_keyed_from(struct keyed *v, size_t n, int d)
{
    if (n <= KEYED_SMALL) {
        for (size_t i = 1; i < n; i++) {
            struct keyed x = v[i];
            size_t j = i;
            for (; j > 0 && keyed_before(&x, &v[j - 1]); j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    size_t count[256], next[256];
    for (;; d++) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[keyed_digit(&v[i], d)]++;
        if (count[keyed_digit(&v[0], d)] != n || d == KEYED_DIGITS - 1)
            break; /* this byte tells them apart */
    }
    size_t at = 0;
    for (int b = 0; b < 256; b++) {
        next[b] = at;
        at += count[b];
    }
    size_t end = 0;
    for (unsigned b = 0; b < 256; b++) {
        end += count[b];
        /* every pair before next[b] in this bucket is in place */
        while (next[b] < end) {
            struct keyed x = v[next[b]];
            unsigned dx = keyed_digit(&x, d);
            while (dx != b) {
                struct keyed y = v[next[dx]];
                v[next[dx]++] = x;
                x = y;
                dx = keyed_digit(&x, d);
            }
            v[next[b]++] = x;
        }
    }
    size_t from = 0;
    for (int b = 0; b < 256; b++) {
        if (count[b] > 1 && d + 1 < KEYED_DIGITS)
            sort_keyed_from(v + from, count[b], d + 1);
        from += count[b];
    }
}

/* Sorts a[0..n) (keys within [lo, hi], tags their places in order) and
 * puts order in the pairs' order: each pair's tag becomes its place's slot
 * (order read whole before it is written), then order takes them. Unmaps a
 * (from map_big). */
static void radix_keyed(struct keyed *a, size_t n, uint64_t lo, uint64_t hi, uint32_t *order)
{
    /* bytes above the highest differing bit are the same for all: skipped */
    int d = lo == hi ? 8 : __builtin_clzll(lo ^ hi) / 8;
    sort_keyed_from(a, n, d);
    for (size_t i = 0; i < n; i++)
        a[i].tag = order[a[i].tag];
    for (size_t i = 0; i < n; i++)
        order[i] = a[i].tag;
    unmap_big(a, n * sizeof *a);
}

void sbx_timeline_finish(struct sbx_timeline *tl)
{
    sbx_evids_drop(tl);
    bool sorted = true;
    for (size_t i = 1; i < tl->n && sorted; i++)
        sorted = sbx_event_cmp(sbx_tl_at(tl, i - 1), sbx_tl_at(tl, i)) <= 0;
    if (sorted)
        return;
    /* The order comes in source and line order (adopted so): a stable sort by
     * start alone gives (start, source, line). One pass checks that and takes
     * the keys; a small timeline is quicker with qsort. */
    size_t n = tl->n;
    if (n >= 4096) {
        struct keyed *a = map_big(n * sizeof *a, true);
        uint64_t lo = UINT64_MAX, hi = 0;
        bool by_source_line = true;
        uint32_t prev_source = 0, prev_line = 0;
        for (size_t i = 0; i < n && by_source_line; i++) {
            const struct sbx_event *e = sbx_tl_at(tl, i);
            uint32_t line = sbx_ev_line_no(e);
            by_source_line = e->source > prev_source ||
                             (e->source == prev_source && line >= prev_line);
            prev_source = e->source;
            prev_line = line;
            /* the sign bit flipped: signed order as unsigned (unknown, INT64_MIN, first) */
            uint64_t k = (uint64_t)e->start ^ (UINT64_C(1) << 63);
            a[i] = (struct keyed){k, (uint32_t)i};
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
        if (by_source_line) {
            radix_keyed(a, n, lo, hi, tl->order_);
            return;
        }
        unmap_big(a, n * sizeof *a);
    }
    sort_order(tl);
}

/* Skips are kept in (source, line) order. */
static bool skip_before(const void *x, const void *y)
{
    const struct sbx_skip *a = x, *b = y;
    return a->source != b->source ? a->source < b->source : a->line < b->line;
}

static bool skip_before_ctx(const void *x, const void *y, void *ctx)
{
    (void)ctx;
    return skip_before(x, y);
}

static int skip_cmp(const void *x, const void *y, void *ctx)
{
    (void)ctx;
    return skip_before(x, y) ? -1 : skip_before(y, x) ? 1 : 0;
}

static bool event_before(const void *a, const void *b, void *ctx)
{
    return order_cmp(a, b, ctx) < 0;
}

/* Sorts the tail base[old..n) and merges it into the sorted head base[0..old).
 * From the back: each new element finds its place by binary search and the
 * head elements after it move up in one memmove, so a few new elements cost
 * a few searches and at most one pass of moves, not a comparison each. */
static void merge_tail(void *base, size_t old, size_t n, size_t size,
                       bool (*before)(const void *, const void *, void *),
                       int (*cmp)(const void *, const void *, void *), void *ctx)
{
    char *a = base;
    size_t k = n - old;
    bool sorted = true;
    for (size_t i = old + 1; i < n && sorted; i++)
        sorted = !before(a + i * size, a + (i - 1) * size, ctx);
    if (!sorted)
        qsort_r(a + old * size, k, size, cmp, ctx);
    if (k == 0 || old == 0 || !before(a + old * size, a + (old - 1) * size, ctx))
        return;
    char *tmp = sbx_xmalloc(k * size);
    memcpy(tmp, a + old * size, k * size);
    size_t i = old; /* a[0..i) is the head not yet placed */
    for (size_t j = k; j-- > 0;) {
        const char *x = tmp + j * size;
        size_t lo = 0, hi = i; /* the first head element after x */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (before(x, a + mid * size, ctx))
                hi = mid;
            else
                lo = mid + 1;
        }
        memmove(a + (lo + j + 1) * size, a + lo * size, (i - lo) * size);
        memcpy(a + (lo + j) * size, x, size);
        i = lo;
    }
    free(tmp);
}

static void shift_times(struct sbx_event *e, int64_t by)
{
    if (e->start != SBX_TIME_UNKNOWN)
        e->start -= by;
    if (e->end != SBX_TIME_UNKNOWN)
        e->end -= by;
}

void sbx_timeline_append(struct sbx_timeline *tl, struct sbx_evbuf *bufs, size_t nbufs)
{
    size_t old_n = tl->n, old_skips = tl->nskips;
    for (size_t i = 0; i < nbufs; i++)
        sbx_timeline_adopt(tl, &bufs[i]);
    for (size_t i = old_n; i < tl->n; i++) /* a followed source's new lines: on its clock too */
        shift_times(sbx_tl_at(tl, i), tl->sources[sbx_tl_at(tl, i)->source].clock_offset);

    merge_tail(tl->order_, old_n, tl->n, sizeof *tl->order_, event_before, order_cmp, tl);
    merge_tail(tl->skips, old_skips, tl->nskips, sizeof *tl->skips, skip_before_ctx, skip_cmp, NULL);
}

void sbx_timeline_set_clock(struct sbx_timeline *tl, uint32_t source, int64_t offset,
                            enum sbx_clock clock)
{
    struct sbx_source *s = &tl->sources[source];
    int64_t by = offset - s->clock_offset;
    s->clock_offset = offset;
    s->clock = clock;
    if (!by)
        return;
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_tl_at(tl, i)->source == source)
            shift_times(sbx_tl_at(tl, i), by);
}

void sbx_timeline_resort(struct sbx_timeline *tl)
{
    sbx_evids_drop(tl);
    if (tl->n)
        sort_order(tl);
}

int64_t sbx_event_own_time(const struct sbx_timeline *tl, const struct sbx_event *e, int64_t t)
{
    return t == SBX_TIME_UNKNOWN ? t : t + tl->sources[e->source].clock_offset;
}

size_t sbx_timeline_forget_line(struct sbx_timeline *tl, uint32_t source, uint32_t line,
                                bool skipped)
{
    sbx_evids_drop(tl);
    struct sbx_source *src = &tl->sources[source];
    if (skipped) {
        for (size_t i = tl->nskips; i-- > 0;) {
            if (tl->skips[i].source == source && tl->skips[i].line == line) {
                memmove(tl->skips + i, tl->skips + i + 1,
                        (tl->nskips - i - 1) * sizeof *tl->skips);
                tl->nskips--;
                break;
            }
        }
        if (src->skipped)
            src->skipped--;
        return 0;
    }
    /* from the end: a line being written is usually the latest event */
    for (size_t i = tl->n; i-- > 0;) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->source == source && sbx_ev_line_no(e) == line) {
            memmove(tl->order_ + i, tl->order_ + i + 1, (tl->n - i - 1) * sizeof *tl->order_);
            tl->n--;
            src->events--;
            return 1;
        }
    }
    return 0;
}

struct sbx_text sbx_text_make(struct sbx_evbuf *buf, const struct sbx_event *e, uint64_t off,
                              size_t len, uint32_t flags)
{
    uint32_t n = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
    flags &= ~(uint32_t)SBX_TEXT_LONG;
    if (off >= e->line_off && off - e->line_off + n <= sbx_ev_line_len(e) && n <= SBX_TEXT_SHORT_MAX)
        return (struct sbx_text){.at_ = off - e->line_off, .len_ = n, .flags = flags};
    struct sbx_text_long *l = sbx_evbuf_alloc(buf, sizeof *l); /* 16-aligned */
    l->off = off;
    l->len = n;
    uint64_t p = (uint64_t)(uintptr_t)l >> 4;
    if (p >> 58) /* user space is 47 or 48 bits: never */
        abort();
    return (struct sbx_text){.at_ = p & UINT32_MAX, .len_ = p >> 32, .flags = flags | SBX_TEXT_LONG};
}

const char *sbx_text_raw(const struct sbx_timeline *tl, const struct sbx_event *ev,
                         const struct sbx_text *t)
{
    return tl->sources[ev->source].data + sbx_text_off(ev, t);
}

const char *sbx_text_get(const struct sbx_timeline *tl, const struct sbx_event *ev,
                         const struct sbx_text *t, struct sbx_buf *scratch, size_t *len)
{
    const char *raw = sbx_text_raw(tl, ev, t);
    size_t tlen = sbx_text_len(t);
    if (!(t->flags & (SBX_TEXT_ESCAPED | SBX_TEXT_ARGV))) {
        *len = tlen;
        return raw;
    }
    sbx_buf_clear(scratch);
    if (!(t->flags & SBX_TEXT_ESCAPED)) {
        sbx_buf_reserve(scratch, SBX_ARGV_MAX(tlen));
        size_t n = sbx_argv_format(raw, tlen, scratch->p);
        if (n == SIZE_MAX) { /* not an argument vector: the text as it is */
            *len = tlen;
            return raw;
        }
        scratch->len = n;
    } else {
        /* the string's content first, then (for an argv) the line after it,
           moved down over it */
        size_t cap = tlen + (t->flags & SBX_TEXT_ARGV ? SBX_ARGV_MAX(tlen) : 0);
        sbx_buf_reserve(scratch, cap);
        scratch->len = sbx_jstr_decode(raw, tlen, scratch->p);
        if (t->flags & SBX_TEXT_ARGV) {
            char *line = scratch->p + scratch->len;
            size_t n = sbx_argv_format(scratch->p, scratch->len, line);
            if (n != SIZE_MAX) {
                memmove(scratch->p, line, n);
                scratch->len = n;
            }
        }
    }
    scratch->p[scratch->len] = '\0';
    *len = scratch->len;
    return scratch->p;
}

const char *sbx_event_line(const struct sbx_timeline *tl, const struct sbx_event *ev)
{
    return tl->sources[ev->source].data + ev->line_off;
}

const char *sbx_str(const struct sbx_timeline *tl, uint32_t id)
{
    return sbx_strtab_get(&tl->strings, id);
}

/* sbx_event_cmp of a and an event at (start, source, line). */
static int cmp_at(const struct sbx_event *a, int64_t start, uint32_t source, uint32_t line)
{
    if (a->start != start)
        return a->start < start ? -1 : 1;
    if (a->source != source)
        return a->source < source ? -1 : 1;
    uint32_t la = sbx_ev_line_no(a);
    if (la != line)
        return la < line ? -1 : 1;
    return 0;
}

size_t sbx_timeline_position(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    return sbx_timeline_position_at(tl, e->start, e->source, sbx_ev_line_no(e));
}

size_t sbx_timeline_position_at(const struct sbx_timeline *tl, int64_t start, uint32_t source,
                                uint32_t line)
{
    size_t lo = 0, hi = tl->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_at(sbx_tl_at(tl, mid), start, source, line) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct sbx_event *sbx_evbuf_push_from(struct sbx_evbuf *buf, uint32_t source, uint64_t off,
                                      size_t len, uint32_t line_no)
{
    struct sbx_event *e = sbx_evbuf_push(buf);
    e->source = (uint16_t)source;
    e->line_off = off;
    sbx_ev_set_line_len(e, len > UINT32_MAX ? UINT32_MAX : (uint32_t)len);
    sbx_ev_set_line_no(e, line_no);
    return e;
}
