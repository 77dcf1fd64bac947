/* The recorder's `files` lines: the root and the three path lists of a line
 * the scanner has accepted, read from its members without jansson. Internal
 * to the recorder importer.
 *
 * What it reads is what jansson's reading of the line gives: a root that is
 * no string means the workspace, a root is cut at a \u0000 (it is used as a
 * C string), a list that is present but no array, and an element that is no
 * string, set SBX_F_BAD_FIELD; paths lose their leading "./" and go under
 * their root. Each path is interned (one copy however many lines name it)
 * and kept as its 4-byte id in the event's struct (model/files.h), and a
 * list whose text repeats an earlier one of the same state (a live
 * manifest written after every command) takes that list's ids as they are,
 * without reading its paths again.
 *
 * Ownership: the state owns its scratch and cache (free with
 * sbx_recfiles_free); the arrays and strings it makes belong to the
 * timeline (through the event buffer and the string table). One state per
 * importer state, used by one thread at a time. */
#ifndef SBX_RECORDER_FILES_H
#define SBX_RECORDER_FILES_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "importers/json/jsonline.h"
#include "model/event.h"

enum { SBX_RECFILES_CACHE = 128, SBX_RECFILES_RAW = 192 };

struct sbx_recfiles_list {
    uint64_t hash;
    const struct sbx_evbuf *out; /* the buffer that holds ids */
    const uint32_t *ids;         /* the list's ids in an earlier event of out */
    uint32_t n, root;            /* root: strtab id, 0 = the workspace */
    uint32_t raw_len;            /* 0: an empty slot */
    bool bad;                    /* an element was no string */
    char raw[SBX_RECFILES_RAW];  /* the list's text as in the line */
};

struct sbx_recfiles {
    struct sbx_buf path, dec;
    struct sbx_recfiles_list cache[SBX_RECFILES_CACHE];
};

void sbx_recfiles_init(struct sbx_recfiles *rf);
void sbx_recfiles_free(struct sbx_recfiles *rf);

/* Fills e->u.files (allocated in out) from the line's "root" member (NULL
 * when absent) and its lists by enum sbx_change (each NULL when absent). */
void sbx_recfiles_read(struct sbx_recfiles *rf, struct sbx_jline *j, struct sbx_evbuf *out,
                       struct sbx_event *e, const struct sbx_jmember *root,
                       const struct sbx_jmember *const lists[SBX_CHANGE_COUNT]);

#endif
