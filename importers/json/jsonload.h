/* jsonload: the one way an importer reads JSON text with jansson. It reads
 * what a logger may write and a reviewer must still see (RFC 8259 allows
 * all three):
 *   - \u0000 in a string value (JSON_ALLOW_NUL): a command that printed a
 *     NUL byte; a NUL in a key is still an error, as jansson has it;
 *   - a key given twice: the last value is kept, as jansson keeps it, and
 *     the fact is reported so that the event can be marked;
 *   - an integer beyond int64: kept as a string of its text ("1e400" and
 *     other reals that overflow stay errors, as in jansson).
 * Anything else jansson rejects is rejected, with its error.
 *
 * Ownership: the tree returned is the caller's (json_decref); NULL on an
 * error, with e filled (its position counts in text, even after integers
 * were rewritten). Nothing else is kept: safe from any thread. */
#ifndef SBX_JSONLOAD_H
#define SBX_JSONLOAD_H

#include <jansson.h>
#include <stddef.h>

#include "model/timeline.h"

/* What sbx_json_load met on its way, as bits of *facts. */
enum {
    SBX_JLOAD_DUPLICATE = 1u, /* a key given twice (at any depth) */
    SBX_JLOAD_BIGINT = 2u,    /* an integer beyond int64, kept as text */
};

/* text[0..len) read with jansson's flags (JSON_DECODE_ANY, say) plus the
 * rules above; *facts (may be NULL) gets SBX_JLOAD_* bits, cleared first. */
json_t *sbx_json_load(const char *text, size_t len, size_t flags, unsigned *facts,
                      json_error_t *e);

/* Marks the events pushed into out since index `from` with what facts say
 * of their record (SBX_EVT_DUP_FIELD for SBX_JLOAD_DUPLICATE). */
void sbx_jload_mark(struct sbx_evbuf *out, size_t from, unsigned facts);

/* Whether tok[0..len) is an integer token beyond int64 (a number jansson
 * rejects as too big that has no fraction and no exponent). */
int sbx_json_bigint(const char *tok, size_t len);

#endif
