/* Slots: an event's place in the timeline's storage, as one number — its
 * block's rank among the timeline's blocks times SBX_EVBLOCK, plus its
 * index in the block (model/timeline.h). Half a pointer, and it finds the
 * event back without the order: the ids (model/evid.h) and the command
 * index (analyses/cmdlink.h) keep slots where they would keep pointers.
 *
 * A slot table is made from a timeline and stays valid while the events it
 * knows live (blocks never move; events adopted after it was made have no
 * slot in it). Slots fit in 32 bits for any timeline whose positions do
 * (model/evid.h keeps positions in 32).
 *
 * Ownership: sbx_slots_make fills the caller's struct with arrays it owns,
 * freed by sbx_slots_free; returned events belong to the timeline. */
#ifndef SBX_SLOTS_H
#define SBX_SLOTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

struct sbx_slot_block {
    uintptr_t base; /* the block's first event */
    uint32_t rank;  /* its place among the timeline's blocks */
};

struct sbx_slots {
    struct sbx_slot_block *by_base; /* the blocks, by address */
    struct sbx_event **by_rank;     /* the blocks, by rank (a copy of the timeline's list) */
    size_t n;
};

void sbx_slots_make(struct sbx_slots *s, const struct sbx_timeline *tl);
void sbx_slots_free(struct sbx_slots *s);
/* How many slots there are (some unused: a buffer's last block is partly
 * filled). */
static inline size_t sbx_slots_count(const struct sbx_slots *s)
{
    return s->n * SBX_EVBLOCK;
}
/* e's slot, or SIZE_MAX when e is no event of the storage's blocks (its
 * address is not an event's start in one). O(log blocks). */
size_t sbx_slot_of(const struct sbx_slots *s, const struct sbx_event *e);
/* The event in slot (which must be below sbx_slots_count). */
static inline struct sbx_event *sbx_slot_event(const struct sbx_slots *s, size_t slot)
{
    return &s->by_rank[slot / SBX_EVBLOCK][slot % SBX_EVBLOCK];
}

#endif
