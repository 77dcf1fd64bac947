/* The oracle for the event ids' canonical bytes (model/evid_canon.h), shared
 * by tests/unit/test_evid.c and tests/fuzz/fuzz_evid.c: the whitespace
 * between JSON tokens found byte by byte, the plain way, to check the fast
 * (block-wise, vector) reading against, and a collector of the pieces a
 * canonical pass gives. Header-only; writes into the
 * caller's out, which holds at least n bytes. Nothing to free. */
#ifndef SBX_FUZZ_CANON_ORACLE_H
#define SBX_FUZZ_CANON_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* s[0..n) without the spaces, tabs, CRs and newlines outside strings (inside
 * one every byte counts, a backslash keeps the byte after it); its length. */
static inline size_t canon_strip_plain(const char *s, size_t n, char *out)
{
    size_t o = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            out[o++] = c;
            if (c == '\\' && i + 1 < n)
                out[o++] = s[++i];
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            out[o++] = c;
            in_string = true;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            out[o++] = c;
        }
    }
    return o;
}

/* The pieces a canonical pass hands its callback, concatenated into the
 * caller's p (which holds them all); n is their length so far. */
struct canon_collect {
    char *p;
    size_t n;
};

static inline void canon_collect_piece(void *ctx, const char *piece, size_t len)
{
    struct canon_collect *c = ctx;
    memcpy(c->p + c->n, piece, len);
    c->n += len;
}

#endif
