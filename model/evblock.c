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

void sbx_evblock_free(struct sbx_event *block)
{
    if (!block)
        return;
    struct sbx_evblock_head *h = sbx_evblock_head_of(block);
    free(h->err_slot);
    free(h->err);
    munmap(h, page_round(BLOCK_BYTES));
}

void sbx_evblock_trim(struct sbx_event *block)
{
    struct sbx_evblock_head *h = sbx_evblock_head_of(block);
    if (h->nerr == h->caperr || !h->nerr)
        return;
    h->err_slot = sbx_xrealloc(h->err_slot, h->nerr * sizeof *h->err_slot);
    h->err = sbx_xrealloc(h->err, h->nerr * sizeof *h->err);
    h->caperr = h->nerr;
}

/* c's index in its block. */
static uint16_t slot_in_block(const struct sbx_evblock_head *h, const struct sbx_command *c)
{
    uintptr_t first = (uintptr_t)h + HEAD + offsetof(struct sbx_event, u.cmd);
    return (uint16_t)(((uintptr_t)c - first) / sizeof(struct sbx_event));
}

/* The first entry of the table not below slot. */
static uint32_t err_lower_bound(const struct sbx_evblock_head *h, uint16_t slot)
{
    uint32_t lo = 0, hi = h->nerr;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->err_slot[mid] < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct sbx_text sbx_evblock_err(const struct sbx_command *c)
{
    const struct sbx_evblock_head *h = sbx_evblock_head_of(c);
    uint16_t slot = slot_in_block(h, c);
    uint32_t i = err_lower_bound(h, slot);
    if (i < h->nerr && h->err_slot[i] == slot)
        return h->err[i];
    return (struct sbx_text){0}; /* only a command set by sbx_cmd_set_err reads its table */
}

void sbx_cmd_set_err(struct sbx_command *c, struct sbx_text t)
{
    if (!(t.flags & SBX_TEXT_LONG) && t.len_ == 0 && t.at_ <= SBX_ERR_AT_MAX) {
        c->err_flags_ = t.flags;
        c->err_at_ = t.at_;
        return; /* an entry the table may still hold for c is no longer read */
    }
    struct sbx_evblock_head *h = sbx_evblock_head_of(c);
    uint16_t slot = slot_in_block(h, c);
    uint32_t i = err_lower_bound(h, slot);
    if (i == h->nerr || h->err_slot[i] != slot) {
        if (h->nerr == h->caperr) {
            h->caperr = h->caperr ? h->caperr * 2 : 16;
            h->err_slot = sbx_xrealloc(h->err_slot, h->caperr * sizeof *h->err_slot);
            h->err = sbx_xrealloc(h->err, h->caperr * sizeof *h->err);
        }
        memmove(h->err_slot + i + 1, h->err_slot + i, (h->nerr - i) * sizeof *h->err_slot);
        memmove(h->err + i + 1, h->err + i, (h->nerr - i) * sizeof *h->err);
        h->err_slot[i] = slot;
        h->nerr++;
    }
    h->err[i] = t;
    c->err_flags_ = SBX_TEXT_LONG;
    c->err_at_ = 0;
}
