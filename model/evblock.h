/* Event blocks: the fixed storage events live in (model/timeline.h's
 * buffers hold lists of them), and the side tables of each block — fields
 * most events leave empty, kept by the event's index in its block (its
 * slot's low part, model/slots.h) so that the event itself need not hold
 * them. A block is mapped at a multiple of SBX_EVBLOCK_ALIGN with its head
 * (the side tables) first, so an event's address finds its block's head
 * and its index without the timeline.
 *
 * Side table: a command's stderr (empty in most commands of most logs).
 * The command keeps an absent stderr, or an empty one that starts within
 * SBX_ERR_AT_MAX bytes of its line's start, in 21 bits of its own (the
 * empty one's position counts: the secrets scan tells by it which field a
 * hit lies in); any other stderr is in its block's table. Read it with
 * sbx_cmd_err and write it with sbx_cmd_set_err, never as a field.
 *
 * Ownership: a block and its side tables belong to whoever holds the block
 * (an event buffer, then the timeline) and are freed with sbx_evblock_free.
 * A copy of an event outside its block (on the stack) reads its stderr only
 * when the command keeps it itself: sbx_cmd_err reads the block's table of
 * the event in its block. */
#ifndef SBX_EVBLOCK_H
#define SBX_EVBLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/event.h"

/* Events a block holds. A block's pages come in all at once (a populated
 * block), so its size is what a loading thread's last, partly filled block
 * may waste: 2,048 events keep that to a few hundred kB. */
enum { SBX_EVBLOCK = 2048 };

/* Where blocks are mapped: a power of two that holds a block's head and its
 * events. */
#define SBX_EVBLOCK_ALIGN ((uintptr_t)1 << 18)

/* A block's head: its side tables. err_slot[i] (ascending) is the index in
 * the block of the command whose stderr is err[i]. */
struct sbx_evblock_head {
    uint16_t *err_slot;
    struct sbx_text *err;
    uint32_t nerr, caperr;
    uint64_t pad_; /* the events start 32 bytes in */
};
_Static_assert(sizeof(struct sbx_evblock_head) == 32, "a block's head is 32 bytes");
_Static_assert(sizeof(struct sbx_evblock_head) + SBX_EVBLOCK * sizeof(struct sbx_event) <= SBX_EVBLOCK_ALIGN,
               "a block fits its alignment");
_Static_assert(SBX_EVBLOCK <= UINT16_MAX + 1, "an index in a block is 16 bits");

/* A new block of SBX_EVBLOCK events (not zeroed beyond what a fresh mapping
 * is: all zero), its pages in place when populate says so. Aborts when out
 * of memory. */
struct sbx_event *sbx_evblock_new(bool populate);
/* Frees a block from sbx_evblock_new and its side tables. */
void sbx_evblock_free(struct sbx_event *block);
/* Gives the block's side tables back what they hold beyond their entries
 * (call when no more of its events will be written). */
void sbx_evblock_trim(struct sbx_event *block);

/* The head of the block that event field p lies in. */
static inline struct sbx_evblock_head *sbx_evblock_head_of(const void *p)
{
    return (struct sbx_evblock_head *)((uintptr_t)p & ~(SBX_EVBLOCK_ALIGN - 1));
}

enum { SBX_ERR_AT_MAX = (1u << 15) - 1 };

/* The stderr of command c (stored in an event in its block). */
struct sbx_text sbx_evblock_err(const struct sbx_command *c);
static inline struct sbx_text sbx_cmd_err(const struct sbx_command *c)
{
    if (!(c->err_flags_ & SBX_TEXT_LONG))
        return (struct sbx_text){.at_ = c->err_at_, .len_ = 0, .flags = c->err_flags_};
    return sbx_evblock_err(c);
}
/* Sets the stderr of command c, an event's in its block. */
void sbx_cmd_set_err(struct sbx_command *c, struct sbx_text t);

#endif
