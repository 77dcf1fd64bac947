/* The timeline: every source that was read, every event from them in time
 * order, the lines that could not be read, and the interned strings.
 *
 * Data flow: importers append (through an sbx_evbuf each, so two threads can
 * load halves of one file), then sbx_timeline_finish() sorts; after that the
 * timeline is read-only except for findings bits written by the analyses, a
 * source's clock (sbx_timeline_set_clock, which moves its events' times) and
 * for following a growing log (importers/follow.h), which appends events with
 * sbx_timeline_append, may forget the event or skip of a line it re-reads, and
 * may replace a source's bytes with sbx_timeline_set_data.
 *
 * Ownership: the timeline owns its sources' bytes (mapped or read), every
 * event, every string; sbx_timeline_free releases all of it. Pointers it
 * hands out stay valid until then, with two exceptions for a followed log:
 * a source's data pointer changes when its bytes are replaced (events refer to
 * offsets, so hold none across a poll), and an event forgotten because its
 * line grew stays in memory but leaves the order.
 *
 * The order holds slots, not pointers (4 bytes an event): an event's block's
 * rank in `blocks` times SBX_EVBLOCK plus its index in the block
 * (model/slots.h). sbx_tl_at gives the event at a position; `blocks`, only
 * ever appended to, is the one table slots resolve through. A view of a
 * timeline (analyses/witness.h) shares its blocks and keeps its own slots. */
#ifndef SBX_TIMELINE_H
#define SBX_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "model/event.h"
#include "model/evblock.h"
#include "model/strtab.h"

struct sbx_diff_file;
struct sbx_evids;

/* Which clock a source's times are shown on (docs/formats/runtime.md,
 * "Cross-check"): its own, or the wrapper's with an offset measured by the
 * cross-check or given with --skew. */
enum sbx_clock { SBX_CLOCK_OWN, SBX_CLOCK_MEASURED, SBX_CLOCK_GIVEN };

enum sbx_data_how { SBX_DATA_MAPPED, SBX_DATA_HEAP };

struct sbx_source {
    char *path;          /* as given on the command line or found in a folder */
    const char *format;  /* "recorder", … ; static string */
    const char *data;    /* the whole file */
    size_t size;
    enum sbx_data_how how;
    size_t events;       /* events loaded */
    size_t skipped;      /* lines reported as unreadable */
    size_t incomplete;   /* bytes of a partial last line held back (0 if none) */
    uint32_t lines;      /* lines read, the last one perhaps without its newline */
    bool preview;        /* only the start of the file was read (a quick first load) */
    size_t full_size;    /* the file's size when read: more than size for a preview */
    /* the source's clock minus the wrapper's: its events' times are its own
     * minus this (0 for SBX_CLOCK_OWN); sbx_event_own_time undoes it */
    int64_t clock_offset;
    enum sbx_clock clock;
};

/* A line that was not loaded, and why. */
struct sbx_skip {
    uint32_t source;
    uint32_t line;       /* 1-based; 0 = the whole file */
    const char *reason;  /* ASCII, owned by the timeline */
};

/* Events made by one importer thread; adopted by the timeline afterwards.
 * Events live in fixed blocks that never move (model/evblock.h), so a
 * pointer to one stays valid from its push until the timeline is freed. */

struct sbx_evbuf {
    struct sbx_event **blocks; /* each holds SBX_EVBLOCK events; the last one n % SBX_EVBLOCK */
    size_t nblocks;
    size_t n;                  /* events pushed */
    struct sbx_skip *skips;
    size_t nskips, capskips;
    size_t skipped_total;  /* skips past the kept cap are counted only */
    void **owned;          /* blocks freed with the timeline */
    size_t nowned, capowned;
    char *arena;           /* sbx_evbuf_alloc's small pieces come from here (one of owned) */
    size_t arena_used, arena_cap;
};

struct sbx_timeline {
    struct sbx_source *sources;
    size_t nsources;
    struct sbx_strtab strings;
    /* the events' slots (model/slots.h: block rank * SBX_EVBLOCK + index in
     * the block), sorted by (start, source, line), unknown start first: 4
     * bytes an event. Read the i-th event with sbx_tl_at. */
    uint32_t *order_;
    size_t n;
    struct sbx_skip *skips;   /* in (source, line) order */
    size_t nskips;
    /* the loaded diffs' files (model/diffs.h), by path; strings in `strings` */
    struct sbx_diff_file *diffs;
    size_t ndiffs;
    /* the events' ids, made when first asked for (model/evid.h): dropped
     * whenever the events or their order change */
    struct sbx_evids *ids;
    /* storage: the blocks by rank, the one table a slot resolves through;
     * only appended to (adopting a buffer appends its blocks), so a block's
     * rank, and an event's slot, never change */
    struct sbx_event **blocks;
    size_t nblocks;
    void **owned;
    size_t nowned;
};

/* The event in slot (one of tl's: below nblocks * SBX_EVBLOCK). */
static inline struct sbx_event *sbx_tl_slot(const struct sbx_timeline *tl, uint32_t slot)
{
    return &tl->blocks[slot / SBX_EVBLOCK][slot % SBX_EVBLOCK];
}
/* The event at position i of the order (i below tl->n). */
static inline struct sbx_event *sbx_tl_at(const struct sbx_timeline *tl, size_t i)
{
    return sbx_tl_slot(tl, tl->order_[i]);
}

/* At most this many skipped lines are listed per loading thread; every one is counted. */
#define SBX_SKIPS_KEPT 1000

void sbx_timeline_init(struct sbx_timeline *tl);
void sbx_timeline_free(struct sbx_timeline *tl);

/* Adds a source; the timeline takes over data (munmap or free at the end).
 * Returns its index. */
uint32_t sbx_timeline_add_source(struct sbx_timeline *tl, const char *path, const char *data,
                                 size_t size, enum sbx_data_how how);

/* A new event in buf, zeroed but for unknown times; it does not move. */
struct sbx_event *sbx_evbuf_push(struct sbx_evbuf *buf);
/* sbx_evbuf_push for an importer: the new event says where it came from
 * (its source, and the line's offset, length and number). */
struct sbx_event *sbx_evbuf_push_from(struct sbx_evbuf *buf, uint32_t source, uint64_t off,
                                      size_t len, uint32_t line_no);
/* The i-th event pushed to buf. */
struct sbx_event *sbx_evbuf_at(const struct sbx_evbuf *buf, size_t i);
void sbx_evbuf_skip(struct sbx_evbuf *buf, struct sbx_timeline *tl, uint32_t source,
                    uint32_t line, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Memory that lives as long as the timeline (freed with it), zeroed and
 * aligned for any type. Small pieces are cut from shared blocks (a files
 * event's lists cost their bytes, not a heap chunk each). */
void *sbx_evbuf_alloc(struct sbx_evbuf *buf, size_t size);
/* The same, aligned only to 4 bytes and cut to a multiple of 4: for
 * structs of 32-bit words and 4-byte packed fields (a files event's,
 * model/files.h), so that a piece costs its bytes rounded to 4, not 16. */
void *sbx_evbuf_alloc_words(struct sbx_evbuf *buf, size_t size);
/* Moves buf's events and skips into the timeline (buf is emptied). Adopt the
 * buffers of one source in line order. Its blocks take the next ranks (a
 * buffer's first event starts a block's slots); past 2^32 slots (2,097,152
 * blocks, far more than memory holds) it aborts. */
void sbx_timeline_adopt(struct sbx_timeline *tl, struct sbx_evbuf *buf);
/* Adds add to the line number of every event in buf (line 0 too, as
 * uint32_t arithmetic does): for the events of a part of a file numbered from
 * its own start. */
void sbx_evbuf_add_lines(struct sbx_evbuf *buf, uint32_t add);
/* Frees a buffer that will not be adopted (its events and memory with it). */
void sbx_evbuf_free(struct sbx_evbuf *buf);

/* Sorts the events; call once after the last adopt. A big timeline out
 * of order takes 12 bytes an event beside its order while it sorts (the
 * pairs of an in-place radix sort), freed when it returns. */
void sbx_timeline_finish(struct sbx_timeline *tl);

/* Adopts buffers (each one source's, in line order) into a finished timeline
 * and merges their events into the order and their skips into the skip list:
 * O(n + k log n) for k new events, no full re-sort. The buffers are emptied
 * (the array stays the caller's). */
void sbx_timeline_append(struct sbx_timeline *tl, struct sbx_evbuf *bufs, size_t nbufs);

/* Forgets what line `line` of `source` loaded, for a line read again because
 * it grew. A line gives an event or a skip, not both: skipped says it was
 * counted as skipped, and then its listed skip (if it was listed: past
 * SBX_SKIPS_KEPT it is only counted) leaves the skip list; otherwise its
 * event (if any: a blank line has none) leaves the order. The source's counts
 * drop to match. Returns the number of events removed (0 or 1). O(n). */
size_t sbx_timeline_forget_line(struct sbx_timeline *tl, uint32_t source, uint32_t line,
                                bool skipped);

/* Replaces a source's bytes (the old ones are released as their `how` says).
 * Events keep their offsets, so the new bytes should be the old ones at the
 * same places (normally: the old bytes and what was appended since). */
void sbx_timeline_set_data(struct sbx_timeline *tl, uint32_t source, const char *data,
                           size_t size, enum sbx_data_how how);

/* Puts a source on a clock: every event of it already loaded, and every
 * one appended later, has offset taken off its own times (unknown times stay
 * unknown). Call sbx_timeline_resort after the last one. O(n). */
void sbx_timeline_set_clock(struct sbx_timeline *tl, uint32_t source, int64_t offset,
                            enum sbx_clock clock);
/* Sorts the order again after clocks changed. */
void sbx_timeline_resort(struct sbx_timeline *tl);
/* A time of e (its start or end) as its source's own clock gave it. */
int64_t sbx_event_own_time(const struct sbx_timeline *tl, const struct sbx_event *e, int64_t t);

/* The timeline's order: by start (unknown first), then source, then line. */
int sbx_event_cmp(const struct sbx_event *a, const struct sbx_event *b);
/* The first position in the order not before e (tl->n when all are): e's
 * own position when e is in the timeline. */
size_t sbx_timeline_position(const struct sbx_timeline *tl, const struct sbx_event *e);
/* The same for an event at (start, source, line), which need not be in a
 * block: a copy of an event has its line number taken before the copy
 * (model/evblock.h). */
size_t sbx_timeline_position_at(const struct sbx_timeline *tl, int64_t start, uint32_t source,
                                uint32_t line);

/* A text field of e (pushed to buf, its line set): len bytes from off in
 * e's source, with flags (enum sbx_text_flags). Lengths past UINT32_MAX
 * are cut to it; a text too long for the usual form, or not inside e's
 * line, takes the general form (model/event.h), kept in buf's memory. */
struct sbx_text sbx_text_make(struct sbx_evbuf *buf, const struct sbx_event *e, uint64_t off,
                              size_t len, uint32_t flags);

/* Text access: the bytes of a text field, decoded into scratch when the field
 * is escaped (then the result points into scratch). *len gets the length. */
const char *sbx_text_get(const struct sbx_timeline *tl, const struct sbx_event *ev,
                         const struct sbx_text *t, struct sbx_buf *scratch, size_t *len);
/* The raw bytes of a text field as stored (escaped when SBX_TEXT_ESCAPED). */
const char *sbx_text_raw(const struct sbx_timeline *tl, const struct sbx_event *ev,
                         const struct sbx_text *t);
/* The raw line an event came from. */
const char *sbx_event_line(const struct sbx_timeline *tl, const struct sbx_event *ev);

const char *sbx_str(const struct sbx_timeline *tl, uint32_t id);

#endif
