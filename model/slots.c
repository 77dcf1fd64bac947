/* Slots of the timeline's event storage (model/slots.h). */
#include "model/slots.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

static int by_base(const void *pa, const void *pb)
{
    uintptr_t a = ((const struct sbx_slot_block *)pa)->base, b = ((const struct sbx_slot_block *)pb)->base;
    return a < b ? -1 : a > b;
}

void sbx_slots_make(struct sbx_slots *s, const struct sbx_timeline *tl)
{
    s->n = tl->nblocks;
    s->by_base = sbx_xmalloc((s->n + 1) * sizeof *s->by_base);
    s->by_rank = sbx_xmalloc((s->n + 1) * sizeof *s->by_rank);
    for (size_t b = 0; b < s->n; b++) {
        s->by_base[b] = (struct sbx_slot_block){(uintptr_t)tl->blocks[b], (uint32_t)b};
        s->by_rank[b] = tl->blocks[b];
    }
    qsort(s->by_base, s->n, sizeof *s->by_base, by_base);
}

void sbx_slots_free(struct sbx_slots *s)
{
    free(s->by_base);
    free(s->by_rank);
    memset(s, 0, sizeof *s);
}

size_t sbx_slot_of(const struct sbx_slots *s, const struct sbx_event *e)
{
    uintptr_t at = (uintptr_t)e;
    size_t lo = 0, hi = s->n; /* the first block based after e */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->by_base[mid].base <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return SIZE_MAX;
    const struct sbx_slot_block *b = &s->by_base[lo - 1];
    size_t off = at - b->base, k = off / sizeof *e;
    return k < SBX_EVBLOCK && off % sizeof *e == 0 ? (size_t)b->rank * SBX_EVBLOCK + k : SIZE_MAX;
}
