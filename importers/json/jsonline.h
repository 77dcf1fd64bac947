/* jsonline: what the line-by-line JSON importers (the recorder's log and
 * sandboxio's audit lines) keep for one source while they read it: the
 * scanner, a scratch buffer for decoded strings, and small caches of the
 * strings consecutive lines repeat. Internal to importers/.
 *
 * Ownership: sbx_jline_init's state owns its scanner and scratch (free with
 * sbx_jline_free); the timeline and the source's bytes stay the caller's.
 * A string sbx_jline_string returns is the member's own bytes or the
 * scratch's, valid until the next call on the same state. One state is
 * used by one thread at a time. */
#ifndef SBX_JSONLINE_H
#define SBX_JSONLINE_H

#include <stddef.h>
#include <stdint.h>

#include "importers/format.h"
#include "importers/json/jsonscan.h"
#include "base/buf.h"
#include "model/timeline.h"

struct sbx_jline {
    struct sbx_timeline *tl;
    uint32_t source;
    const char *base; /* the source's bytes: text offsets are relative to it */
    struct sbx_jscan scan;
    struct sbx_buf scratch;
};

void sbx_jline_init(struct sbx_jline *j, struct sbx_timeline *tl, uint32_t source);
void sbx_jline_free(struct sbx_jline *j);

/* The decoded bytes of a string member (into the scratch when escaped). */
const char *sbx_jline_string(struct sbx_jline *j, const struct sbx_jmember *m, size_t *n);
/* A text of event e (pushed to buf) naming m's value in the source:
 * SBX_TEXT_PRESENT and flags (sbx_text_make). */
struct sbx_text sbx_jline_text(const struct sbx_jline *j, struct sbx_evbuf *buf,
                               const struct sbx_event *e, const struct sbx_jmember *m, uint32_t flags);

/* Scans one line (without its '\n') into j->scan: SBX_LINE_OK, SBX_LINE_BLANK
 * when it holds only white space, SBX_LINE_BAD with the reason ("not JSON:
 * ..., byte N") in reason when it is no JSON object. */
enum sbx_line_status sbx_jline_scan(struct sbx_jline *j, const char *line, size_t len,
                                    char *reason, size_t reasonsz);

/* The last few strings a field held, as in the line (escaped), with their
 * strtab ids; start it zeroed. */
enum { SBX_JLINE_LAST = 4 };
struct sbx_jline_last {
    char raw[128];
    size_t len;
    uint32_t id; /* 0: nothing remembered */
};
/* Interns a string member, looking among last[SBX_JLINE_LAST] first and
 * remembering it there, the newest first. */
uint32_t sbx_jline_intern(struct sbx_jline *j, struct sbx_jline_last *last,
                          const struct sbx_jmember *m);

/* A hash of n bytes for the importers' small caches (never stored, free to
 * change): eight bytes a step, FNV-1a over the tail. */
uint64_t sbx_jline_hash(const char *s, size_t n);

#endif
