/* A files event's storage (struct sbx_files, model/event.h): one piece of
 * the event buffer's memory holding the header, the rare fields when the
 * importer has them, and the paths as 4-byte strtab ids, list after list.
 * A recorder's files line (the common one) keeps 20 bytes and 4 a path.
 *
 * Ownership: sbx_files_new's struct belongs to the event buffer (then the
 * timeline), like everything sbx_evbuf_alloc gives; ids name strings of
 * the timeline's table. Nothing here is freed on its own. */
#ifndef SBX_FILES_H
#define SBX_FILES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"
#include "model/timeline.h"

/* A files event's struct with room for room[c] paths in list c, all lists
 * empty, root and flags 0; with more, its sbx_files_more (zero) and
 * SBX_FILES_MORE set. */
struct sbx_files *sbx_files_new(struct sbx_evbuf *buf, const uint32_t room[SBX_CHANGE_COUNT], bool more);

/* Appends id to list c. The lists are filled in order: nothing may have
 * been added to a list after c yet, and the room given is not exceeded. */
void sbx_files_add(struct sbx_files *f, enum sbx_change c, uint32_t id);

/* The rare fields to set, or NULL when f was made without them. */
struct sbx_files_more *sbx_files_more_mut(struct sbx_files *f);

/* Path k of list c (k < f->n[c]), owned by the timeline's table. */
static inline const char *sbx_files_path(const struct sbx_timeline *tl, const struct sbx_files *f,
                                         enum sbx_change c, uint32_t k)
{
    return sbx_str(tl, sbx_files_ids(f, c)[k]);
}

#endif
