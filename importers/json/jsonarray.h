/* jsonarray: the elements of an array member of a line the scanner
 * (importers/json/jsonscan.h) has accepted, one by one, without jansson:
 * the `files` lines' path lists. The array's text must be a member's val
 * from an accepted line (valid JSON from '[' to its ']'); on anything else
 * the elements are unspecified but every read stays within the text.
 *
 * Ownership: the walker holds pointers into the caller's text only; an
 * element's body points into it too. Nothing to free. */
#ifndef SBX_JSONARRAY_H
#define SBX_JSONARRAY_H

#include <stdbool.h>
#include <stddef.h>

struct sbx_jarray_it {
    const char *p, *end;
};

struct sbx_jelem {
    bool string;       /* a string: body is between its quotes */
    bool escaped;      /* the body holds a backslash (decode it: base/jsonstr.h) */
    const char *body;  /* strings: the raw body; anything else: the value's text */
    size_t len;
};

/* Starts at val[0] == '[' (val_len bytes up to and including the ']'). */
void sbx_jarray_begin(struct sbx_jarray_it *it, const char *val, size_t val_len);
/* The next element into *el; false after the last. */
bool sbx_jarray_next(struct sbx_jarray_it *it, struct sbx_jelem *el);

#endif
