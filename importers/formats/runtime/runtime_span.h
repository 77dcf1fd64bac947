/* runtime_span: where JSON values begin and end, without parsing them.
 *
 * Runtime's saved records put many items in one JSON text (an array, a page
 * of the API, a metrics object with its points) that may be printed over
 * many lines. jansson validates and reads them; this finds the byte range of
 * each element, so that every event can point at its own item's text and
 * line. It checks structure only: strings (quotes, escapes, no raw control
 * bytes), brackets that match in kind, and the commas and colons between
 * elements and members. Numbers and literals are taken as tokens; whether a
 * whole value is valid JSON is jansson's to say. Never reads outside
 * [p, end), never recurses, linear time.
 *
 * Ownership: results point into the caller's bytes; nothing is allocated. */
#ifndef SBX_RUNTIME_SPAN_H
#define SBX_RUNTIME_SPAN_H

#include <stdbool.h>
#include <stddef.h>

enum sbx_rt_span {
    SBX_RT_SPAN_OK,
    SBX_RT_SPAN_SHORT, /* the bytes ran out inside the value */
    SBX_RT_SPAN_BAD,   /* a byte that cannot be there */
};

/* The value that starts at p (its first byte; no whitespace before it).
 * OK: *at is one past its last byte. SHORT: *at is end. BAD: *at is the
 * offending byte. A number or literal ends at the first byte that cannot be
 * part of one. Nesting deeper than 4096 levels is BAD. */
enum sbx_rt_span sbx_rt_value_end(const char *p, const char *end, const char **at);

/* Walks the elements of an array or the members of an object. */
struct sbx_rt_iter {
    const char *p, *end;
    char close;         /* ']' or '}' */
    bool started, done;
    enum sbx_rt_span status; /* OK while walking and after the closing bracket */
    const char *err_at;      /* with a failed status: where */
};

/* Starts at the '[' or '{' at open (anything else fails the first next). */
void sbx_rt_iter_begin(struct sbx_rt_iter *it, const char *open, const char *end);

/* The next element: true with its value in [*v, *vend) and, for an object,
 * its key's body (between the quotes, still escaped) in [*key, *key + *klen)
 * (key may be NULL for an array). False at the closing bracket (status OK,
 * it->p just past it) or on a failure (status SHORT or BAD, err_at set). */
bool sbx_rt_iter_next(struct sbx_rt_iter *it, const char **key, size_t *klen, const char **v,
                      const char **vend);

/* Whether the key body (still escaped) is the word w. */
bool sbx_rt_key_is(const char *key, size_t klen, const char *w);

/* JSON whitespace. */
static inline const char *sbx_rt_skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

#endif
