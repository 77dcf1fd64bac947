#include "model/evblock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/buf.h" /* sbx_xrealloc */

enum { HEAD = sizeof(struct sbx_evblock_head) };
#define BLOCK_BYTES (HEAD + SBX_EVBLOCK * sizeof(struct sbx_event))

static size_t page_round(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (n + page - 1) / page * page;
}

static void out_of_memory(void)
{
    fprintf(stderr, "sbxview: out of memory (asked for %zu bytes)\n", (size_t)BLOCK_BYTES);
    abort();
}

/* An aligned place is reserved (twice the alignment, no pages), the block
 * mapped over its aligned part (populated there only: MAP_POPULATE on a
 * 1 GiB log's blocks costs less than faulting their pages one at a time),
 * and the rest of the reservation given back. */
struct sbx_event *sbx_evblock_new(bool populate)
{
    size_t span = 2 * SBX_EVBLOCK_ALIGN, size = page_round(BLOCK_BYTES);
    char *r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED)
        out_of_memory();
    char *at = (char *)(((uintptr_t)r + SBX_EVBLOCK_ALIGN - 1) & ~(SBX_EVBLOCK_ALIGN - 1));
    void *p = mmap(at, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | (populate ? MAP_POPULATE : 0), -1, 0);
    if (p == MAP_FAILED)
        out_of_memory();
    if (at > r)
        munmap(r, (size_t)(at - r));
    if (r + span > at + size)
        munmap(at + size, (size_t)(r + span - (at + size)));
    return (struct sbx_event *)(at + HEAD);
}

static void side_free(struct sbx_evside *t)
{
    free(t->slot);
    free(t->val);
}

void sbx_evblock_free(struct sbx_event *block)
{
    if (!block)
        return;
    struct sbx_evblock_head *h = sbx_evblock_head_of(block);
    side_free(&h->err);
    side_free(&h->ms);
    side_free(&h->exit);
    side_free(&h->line_no);
    side_free(&h->line_len);
    munmap(h, page_round(BLOCK_BYTES));
}

static void side_trim(struct sbx_evside *t)
{
    if (t->n == t->cap || !t->n)
        return;
    t->slot = sbx_xrealloc(t->slot, t->n * sizeof *t->slot);
    t->val = sbx_xrealloc(t->val, t->n * sizeof *t->val);
    t->cap = t->n;
}

void sbx_evblock_trim(struct sbx_event *block)
{
    struct sbx_evblock_head *h = sbx_evblock_head_of(block);
    side_trim(&h->err);
    side_trim(&h->ms);
    side_trim(&h->exit);
    side_trim(&h->line_no);
    side_trim(&h->line_len);
}

/* The index in its block of the event whose field at offset `at` in the
 * event lies at p. */
static uint16_t index_in_block(const struct sbx_evblock_head *h, const void *p, size_t at)
{
    uintptr_t first = (uintptr_t)h + HEAD + at;
    return (uint16_t)(((uintptr_t)p - first) / sizeof(struct sbx_event));
}

/* c's index in its block. */
static uint16_t slot_in_block(const struct sbx_evblock_head *h, const struct sbx_command *c)
{
    return index_in_block(h, c, offsetof(struct sbx_event, u.cmd));
}

static uint16_t event_in_block(const struct sbx_evblock_head *h, const struct sbx_event *e)
{
    return index_in_block(h, e, 0);
}

/* The first entry of t not below slot. */
static uint32_t lower_bound(const struct sbx_evside *t, uint16_t slot)
{
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->slot[mid] < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* slot's value in t; 0 when it has none (only an event whose accessor
 * wrote to the table reads it). */
static uint64_t side_get(const struct sbx_evside *t, uint16_t slot)
{
    uint32_t i = lower_bound(t, slot);
    return i < t->n && t->slot[i] == slot ? t->val[i] : 0;
}

/* Sets slot's value in t, inserted in slot order (events are written in
 * order, so nearly always at the end). */
static void side_put(struct sbx_evside *t, uint16_t slot, uint64_t v)
{
    uint32_t i = lower_bound(t, slot);
    if (i == t->n || t->slot[i] != slot) {
        if (t->n == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 16;
            t->slot = sbx_xrealloc(t->slot, t->cap * sizeof *t->slot);
            t->val = sbx_xrealloc(t->val, t->cap * sizeof *t->val);
        }
        memmove(t->slot + i + 1, t->slot + i, (t->n - i) * sizeof *t->slot);
        memmove(t->val + i + 1, t->val + i, (t->n - i) * sizeof *t->val);
        t->slot[i] = slot;
        t->n++;
    }
    t->val[i] = v;
}

_Static_assert(sizeof(struct sbx_text) == sizeof(uint64_t), "a text is one table value");

struct sbx_text sbx_evblock_err(const struct sbx_command *c)
{
    const struct sbx_evblock_head *h = sbx_evblock_head_of(c);
    uint64_t v = side_get(&h->err, slot_in_block(h, c));
    struct sbx_text t;
    memcpy(&t, &v, sizeof t);
    return t;
}

void sbx_cmd_set_err(struct sbx_command *c, struct sbx_text t)
{
    if (!(t.flags & SBX_TEXT_LONG) && t.len_ == 0 && t.at_ <= SBX_ERR_AT_MAX) {
        c->err_flags_ = t.flags;
        c->err_at_ = t.at_;
        return; /* an entry the table may still hold for c is no longer read */
    }
    struct sbx_evblock_head *h = sbx_evblock_head_of(c);
    uint64_t v;
    memcpy(&v, &t, sizeof v);
    side_put(&h->err, slot_in_block(h, c), v);
    c->err_flags_ = SBX_TEXT_LONG;
    c->err_at_ = 0;
}

int64_t sbx_evblock_ms(const struct sbx_command *c)
{
    const struct sbx_evblock_head *h = sbx_evblock_head_of(c);
    return (int64_t)side_get(&h->ms, slot_in_block(h, c));
}

void sbx_cmd_set_ms(struct sbx_command *c, int64_t ms)
{
    if (ms >= 0 && ms <= SBX_MS_KEPT_MAX) {
        c->ms_ = (uint32_t)ms;
        return;
    }
    struct sbx_evblock_head *h = sbx_evblock_head_of(c);
    side_put(&h->ms, slot_in_block(h, c), (uint64_t)ms);
    c->ms_ = SBX_MS_TABLE;
}

int32_t sbx_evblock_exit(const struct sbx_command *c)
{
    const struct sbx_evblock_head *h = sbx_evblock_head_of(c);
    return (int32_t)(uint32_t)side_get(&h->exit, slot_in_block(h, c));
}

void sbx_cmd_set_exit(struct sbx_command *c, int32_t exit)
{
    if (exit >= 0 && exit < SBX_EXIT_TABLE) {
        c->exit_ = (uint32_t)exit;
        return;
    }
    struct sbx_evblock_head *h = sbx_evblock_head_of(c);
    side_put(&h->exit, slot_in_block(h, c), (uint32_t)exit);
    c->exit_ = SBX_EXIT_TABLE;
}

uint32_t sbx_evblock_line_no(const struct sbx_event *e)
{
    const struct sbx_evblock_head *h = sbx_evblock_head_of(e);
    return (uint32_t)side_get(&h->line_no, event_in_block(h, e));
}

/* The block's first line number other than 0 becomes its base (then line_no
 * is the base, offset 0); any other that comes here goes to the table. */
void sbx_evblock_put_line_no(struct sbx_event *e, uint32_t line_no)
{
    struct sbx_evblock_head *h = sbx_evblock_head_of(e);
    if (!h->line_base) {
        h->line_base = line_no;
        e->line_no_ = 1;
        return;
    }
    side_put(&h->line_no, event_in_block(h, e), line_no);
    e->line_no_ = SBX_LINE_NO_TABLE;
}

uint32_t sbx_evblock_line_len(const struct sbx_event *e)
{
    const struct sbx_evblock_head *h = sbx_evblock_head_of(e);
    return (uint32_t)side_get(&h->line_len, event_in_block(h, e));
}

void sbx_evblock_put_line_len(struct sbx_event *e, uint32_t len)
{
    struct sbx_evblock_head *h = sbx_evblock_head_of(e);
    side_put(&h->line_len, event_in_block(h, e), len);
    e->line_len_ = SBX_LINE_LEN_TABLE;
}

/* Each number read, the block's base and table emptied, each set again with
 * add: the same offsets from the new base, exact whatever wraps. */
void sbx_evblock_add_lines(struct sbx_event *block, size_t n, uint32_t add)
{
    if (add == 0)
        return;
    uint32_t line[SBX_EVBLOCK];
    for (size_t i = 0; i < n; i++)
        line[i] = sbx_ev_line_no(&block[i]);
    struct sbx_evblock_head *h = sbx_evblock_head_of(block);
    h->line_base = 0;
    h->line_no.n = 0;
    for (size_t i = 0; i < n; i++)
        sbx_ev_set_line_no(&block[i], line[i] + add);
}
