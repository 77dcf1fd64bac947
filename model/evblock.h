/* Event blocks: the fixed storage events live in (model/timeline.h's
 * buffers hold lists of them), and the side tables of each block — values
 * most events do not need, kept by the event's index in its block (its
 * slot's low part, model/slots.h) so that the event itself need not hold
 * them. A block is mapped at a multiple of SBX_EVBLOCK_ALIGN with its head
 * (the side tables) first, so an event's address finds its block's head
 * and its index without the timeline.
 *
 * Side tables, each of 8-byte values:
 *   - a command's stderr (empty in most commands of most logs). The command
 *     keeps an absent stderr, or an empty one that starts within
 *     SBX_ERR_AT_MAX bytes of its line's start, in 21 bits of its own (the
 *     empty one's position counts: the secrets scan tells by it which field
 *     a hit lies in); any other stderr is in the table.
 *   - a command's duration in milliseconds: in the command's 24 bits from 0
 *     to SBX_MS_KEPT_MAX (4.6 hours), any other in the table;
 *   - a command's exit code: in the command's 8 bits from 0 to 254, any
 *     other (255 too) in the table.
 *   - an event's line number: the head keeps a base, the first line number
 *     other than 0 set in the block, and the event 16 bits, 0 for no line
 *     (line 0) or its offset from the base plus 1 when that offset is from
 *     0 to SBX_LINE_NO_NEAR (65,533; events are pushed in line order, so
 *     only a gap of more lines than that inside one block, or a line below
 *     the base, is in the table); any other in the table;
 *   - an event's line length: in the event's 16 bits below
 *     SBX_LINE_LEN_TABLE (65,535 bytes), any other in the table.
 * Read them with sbx_cmd_err, sbx_cmd_ms, sbx_cmd_exit, sbx_ev_line_no and
 * sbx_ev_line_len, write them with sbx_cmd_set_err, sbx_cmd_set_ms,
 * sbx_cmd_set_exit, sbx_ev_set_line_no and sbx_ev_set_line_len, never as
 * fields.
 *
 * Ownership: a block and its side tables belong to whoever holds the block
 * (an event buffer, then the timeline) and are freed with sbx_evblock_free.
 * A copy of an event outside its block (on the stack) reads only what its
 * command keeps itself, and neither its line number nor its line length:
 * the accessors read the head of the event's block (take what a copy needs
 * from the event before copying it). */
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

/* One side table: slot[i] (ascending) is the index in the block of the
 * event whose value is val[i]. */
struct sbx_evside {
    uint16_t *slot;
    uint64_t *val;
    uint32_t n, cap;
};

/* A block's head: its side tables and its events' line base. */
struct sbx_evblock_head {
    struct sbx_evside err; /* struct sbx_text, as its 8 bytes */
    struct sbx_evside ms;  /* int64_t */
    struct sbx_evside exit; /* int32_t */
    struct sbx_evside line_no;  /* uint32_t */
    struct sbx_evside line_len; /* uint32_t */
    uint32_t line_base; /* the first line number other than 0 set in the block; 0 until then */
    uint32_t pad_;      /* the events start 8-aligned */
};
_Static_assert(sizeof(struct sbx_evblock_head) % 8 == 0, "the events start 8-aligned");
_Static_assert(sizeof(struct sbx_evblock_head) + SBX_EVBLOCK * sizeof(struct sbx_event) <= SBX_EVBLOCK_ALIGN,
               "a block fits its alignment");
_Static_assert(SBX_EVBLOCK <= UINT16_MAX + 1, "an index in a block is 16 bits");

/* A new block of SBX_EVBLOCK events, all zero, its pages in place when
 * populate says so. Aborts when out of memory. */
struct sbx_event *sbx_evblock_new(bool populate);
/* Frees a block from sbx_evblock_new and its side tables. */
void sbx_evblock_free(struct sbx_event *block);
/* Adds add to the line number of each of the block's first n events (line 0
 * too), as uint32_t arithmetic does: for the events of a part of a file
 * numbered from its own start. */
void sbx_evblock_add_lines(struct sbx_event *block, size_t n, uint32_t add);
/* Gives the block's side tables back what they hold beyond their entries
 * (call when no more of its events will be written). */
void sbx_evblock_trim(struct sbx_event *block);

/* The head of the block that event field p lies in. */
static inline struct sbx_evblock_head *sbx_evblock_head_of(const void *p)
{
    return (struct sbx_evblock_head *)((uintptr_t)p & ~(SBX_EVBLOCK_ALIGN - 1));
}

enum { SBX_ERR_AT_MAX = (1u << 15) - 1 };
enum { SBX_EXIT_TABLE = 255, SBX_MS_TABLE = (1u << 24) - 1 };
#define SBX_MS_KEPT_MAX ((int64_t)SBX_MS_TABLE - 1)

/* What the tables hold for command c (an event's in its block). */
struct sbx_text sbx_evblock_err(const struct sbx_command *c);
int64_t sbx_evblock_ms(const struct sbx_command *c);
int32_t sbx_evblock_exit(const struct sbx_command *c);

/* The stderr of command c. */
static inline struct sbx_text sbx_cmd_err(const struct sbx_command *c)
{
    if (!(c->err_flags_ & SBX_TEXT_LONG))
        return (struct sbx_text){.at_ = c->err_at_, .len_ = 0, .flags = c->err_flags_};
    return sbx_evblock_err(c);
}
/* Sets the stderr of command c, an event's in its block. */
void sbx_cmd_set_err(struct sbx_command *c, struct sbx_text t);

/* The exit code of command c (valid with SBX_CMD_EXIT_KNOWN; 0 when never
 * set). */
static inline int32_t sbx_cmd_exit(const struct sbx_command *c)
{
    return c->exit_ != SBX_EXIT_TABLE ? (int32_t)c->exit_ : sbx_evblock_exit(c);
}
/* Sets the exit code of command c, an event's in its block. */
void sbx_cmd_set_exit(struct sbx_command *c, int32_t exit);

/* Whether a command failed: it timed out, or exited with a known code
 * other than 0 (a signal's 128+N among them). An unknown exit is no
 * failure. */
static inline bool sbx_command_failed(const struct sbx_command *c)
{
    return (c->flags & SBX_CMD_TIMED_OUT) || ((c->flags & SBX_CMD_EXIT_KNOWN) && sbx_cmd_exit(c) != 0);
}

/* The duration of command c in milliseconds (valid with SBX_CMD_MS_KNOWN;
 * 0 when never set). */
static inline int64_t sbx_cmd_ms(const struct sbx_command *c)
{
    return c->ms_ != SBX_MS_TABLE ? (int64_t)c->ms_ : sbx_evblock_ms(c);
}
/* Sets the duration of command c, an event's in its block. */
void sbx_cmd_set_ms(struct sbx_command *c, int64_t ms);

enum { SBX_LINE_NO_TABLE = 0xFFFF, SBX_LINE_NO_NEAR = SBX_LINE_NO_TABLE - 2 };
enum { SBX_LINE_LEN_TABLE = 0xFFFF };

/* What the tables hold for event e (in its block), and the setters' way
 * for a value the event does not keep itself. */
uint32_t sbx_evblock_line_no(const struct sbx_event *e);
uint32_t sbx_evblock_line_len(const struct sbx_event *e);
void sbx_evblock_put_line_no(struct sbx_event *e, uint32_t line_no);
void sbx_evblock_put_line_len(struct sbx_event *e, uint32_t len);

/* The 1-based number of e's line in its source; 0 when it has none. */
static inline uint32_t sbx_ev_line_no(const struct sbx_event *e)
{
    uint32_t s = e->line_no_;
    if (s == 0)
        return 0;
    if (s != SBX_LINE_NO_TABLE)
        return sbx_evblock_head_of(e)->line_base + (s - 1);
    return sbx_evblock_line_no(e);
}
/* Sets the line number of e, an event in its block. */
static inline void sbx_ev_set_line_no(struct sbx_event *e, uint32_t line_no)
{
    struct sbx_evblock_head *h = sbx_evblock_head_of(e);
    uint32_t off = line_no - h->line_base; /* a line below the base wraps past NEAR */
    if (line_no == 0)
        e->line_no_ = 0;
    else if (h->line_base && off <= SBX_LINE_NO_NEAR)
        e->line_no_ = (uint16_t)(off + 1);
    else
        sbx_evblock_put_line_no(e, line_no);
}

/* The length in bytes of e's line. */
static inline uint32_t sbx_ev_line_len(const struct sbx_event *e)
{
    return e->line_len_ != SBX_LINE_LEN_TABLE ? e->line_len_ : sbx_evblock_line_len(e);
}
/* Sets the line length of e, an event in its block. */
static inline void sbx_ev_set_line_len(struct sbx_event *e, uint32_t len)
{
    if (len < SBX_LINE_LEN_TABLE)
        e->line_len_ = (uint16_t)len;
    else
        sbx_evblock_put_line_len(e, len);
}

#endif
