/* jsonwalk: reading members of JSON text that an importer has already
 * validated, without a tree (base/ has no jansson). Used to re-read the
 * parts of a record an event points at (an OpenTelemetry span's ids and
 * attributes) when an analysis or a view needs them.
 *
 * It trusts the structure less than it could: every step stays inside
 * [p, end) and a walk over bytes that are not JSON just ends early. Strings
 * are skipped by their quotes and escapes, arrays and objects by counting
 * brackets (no recursion). Linear time.
 *
 * Ownership: results point into the caller's bytes; nothing is allocated. */
#ifndef SBX_JSONWALK_H
#define SBX_JSONWALK_H

#include <stdbool.h>
#include <stddef.h>

/* One past the value that starts at p (no whitespace before it), or NULL
 * when the bytes end inside it or it cannot start there. */
const char *sbx_jwk_value_end(const char *p, const char *end);

/* The elements of an array or the members of an object. */
struct sbx_jwk {
    const char *p, *end;
    char close; /* ']' or '}'; 0 when done */
};

/* Starts at the '[' or '{' at open (anything else walks nothing). */
void sbx_jwk_begin(struct sbx_jwk *w, const char *open, const char *end);
/* The next element: its value in [*v, *vend) and, in an object, its key's
 * body between the quotes, still escaped (key may be NULL for an array).
 * False at the end or on bytes that do not walk. */
bool sbx_jwk_next(struct sbx_jwk *w, const char **key, size_t *klen, const char **v,
                 const char **vend);

/* Whether the (escaped) key body is exactly the word w. Keys with escapes
 * are compared decoded. */
bool sbx_jwk_key_is(const char *key, size_t klen, const char *w);

/* The member `key` of the object at [obj, end): true with its value (the
 * last one, for a key given more than once, as jansson keeps it). */
bool sbx_jwk_member(const char *obj, const char *end, const char *key, const char **v,
                   const char **vend);

/* A string value's body (between the quotes, still escaped), or false when
 * [v, vend) is not a string. */
bool sbx_jwk_string(const char *v, const char *vend, const char **body, size_t *len);

#endif
