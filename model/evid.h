/* Stable event ids: a short name for each event, derived from what it is
 * and not from where it was read, so a review's notes find their events
 * again after the files move, are renamed, are fetched again, or other
 * sources join the run (docs/review-file.md, "Event ids").
 *
 * An id is 10 characters of Crockford's base32 (lower case) spelling the
 * first 50 bits of a 128-bit hash (base/hash128.h, fast, not
 * cryptographic) of the source's format name, the event's kind and its
 * record's bytes (the event's line range; for JSON records, with the
 * whitespace between tokens left out, so a record re-saved with another
 * indentation keeps its id). Records that give the same 10 characters are
 * told apart by a suffix ".2", ".3", … in order of their whole digest, then
 * of the bytes digested (a collision made on purpose still gives an order
 * of the records alone), then of the timeline (identical records are
 * interchangeable, so which of them is ".2" does not matter). A finding's
 * id is its event's id, "/" and the kind's name (model/findings.h):
 * "ab12cd34ef/secret". The ids never change between versions or machines
 * (tests/unit/test_evid.c pins them).
 *
 * Threads: sbx_evids_of builds the ids of a timeline on the first call and
 * keeps them with the timeline; safe from any thread while the timeline
 * does not change. Adopting events or forgetting a line drops them (the
 * next call builds them again).
 *
 * Ownership: the ids belong to the timeline (freed by sbx_timeline_free);
 * ids written into the caller's buffer. */
#ifndef SBX_EVID_H
#define SBX_EVID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/slots.h"
#include "model/timeline.h"

enum {
    SBX_EVID_CHARS = 10, /* the digest part */
    SBX_EVID_LEN = 24,   /* room for an id with its suffix and the NUL */
};

/* An id's suffix: 1 for ".2", 2 for ".3", … */
struct sbx_evid_dup {
    uint32_t pos, dup;
};

enum { SBX_EVID_KEY_BITS = 5 * SBX_EVID_CHARS };

/* Arrays indexed by a position in the order the ids were built over (the
 * timeline's; a view that copies the timeline shares them), and one by an
 * event's slot in the storage (its block's rank times SBX_EVBLOCK plus its
 * index in the block): 4 bytes an event, and the ids with a suffix. An
 * id's 50 bits are made again from its record when it is spelt; the first
 * lookup by id makes every position's key and by_id (12 bytes an event),
 * and keeps them. While the ids are built, each event's key's high 32
 * bits (4 bytes an event) and an eighth of them at a time as sortable
 * words are live, freed before by_slot is made: the build's peak is about
 * 5 bytes an event over what the caller holds. */
struct sbx_evids {
    const uint32_t *order;          /* the order built over: its slots */
    struct sbx_evid_dup *dups;      /* the ids with a suffix, by position */
    size_t ndups;
    struct sbx_slots slots; /* the storage's (model/slots.h) */
    uint32_t *by_slot; /* by slot: the event's position, UINT32_MAX for none */
    uint64_t *key;     /* by position: the 50 bits; NULL until by_id is made */
    uint32_t *by_id;   /* positions, sorted by (key, dup); NULL until asked for */
    size_t n;
};

/* The ids of tl's events, built when first asked for. */
const struct sbx_evids *sbx_evids_of(const struct sbx_timeline *tl);
/* Drops a timeline's ids (model/timeline.c calls it when events change). */
void sbx_evids_drop(struct sbx_timeline *tl);

/* e's id, written into the caller's out ("" when e is not in the timeline). */
void sbx_event_id(const struct sbx_timeline *tl, const struct sbx_event *e,
                  char out[SBX_EVID_LEN]);
/* The id of e's finding of kind (one enum sbx_finding bit): "ID/name",
 * written into the caller's out. */
enum { SBX_FINDID_LEN = SBX_EVID_LEN + 40 };
void sbx_finding_id(const struct sbx_timeline *tl, const struct sbx_event *e, uint32_t kind,
                    char out[SBX_FINDID_LEN]);

/* The event whose id is exactly id[0..len) (case-insensitive; 'o' reads as
 * '0', 'i' and 'l' as '1', as Crockford's alphabet says), or NULL. */
const struct sbx_event *sbx_event_by_id(const struct sbx_timeline *tl, const char *id,
                                        size_t len);
/* Whether e's id starts with prefix[0..len) (compared as sbx_event_by_id
 * reads ids); the first call makes every key, as the first lookup by id
 * does. */
bool sbx_event_id_has_prefix(const struct sbx_timeline *tl, const struct sbx_event *e,
                             const char *prefix, size_t len);

/* Whether s[0..n) can start an id: id characters, then at most a "." and
 * digits after the tenth. */
bool sbx_evid_prefix_valid(const char *s, size_t n);

/* The digest of one record as ids are made of it: the format, kind and
 * bytes given (exposed for the tests and the review's tools). */
void sbx_evid_digest(const char *format, unsigned kind, const char *bytes, size_t n,
                     uint64_t *key, uint64_t *rest);

#endif
