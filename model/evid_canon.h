/* A record's canonical bytes, as the event ids digest them (model/evid.h,
 * docs/review-file.md "Event ids"): a JSON record (its first byte after
 * spaces and tabs is '{' or '[') without the whitespace between tokens —
 * inside strings every byte counts, a string is closed by a quote not
 * escaped by an odd run of backslashes, a string left open runs to the
 * end — and any other record without a final CR.
 *
 * The bytes go to add(ctx, piece, len) in order, a few KiB at a time; the
 * pieces are the caller's only during the call. An AVX2 pass (where the
 * CPU has it and base/simd.h leaves vector code on) gives exactly the
 * bytes of the scalar twin; tests/fuzz/simd_twins.h compares them. */
#ifndef SBX_EVID_CANON_H
#define SBX_EVID_CANON_H

#include <stddef.h>

typedef void sbx_canon_add_fn(void *ctx, const char *piece, size_t len);

void sbx_evid_canonical(const char *s, size_t n, sbx_canon_add_fn *add, void *ctx);

/* The same bytes, for a JSON record whose caller knows spans of it that are
 * string bodies (the bytes between a string's quotes, as a JSON scanner
 * found them): those go to add whole, without a look, which is all the
 * pass would do with them. bodies are in the order of their offsets into
 * s and apart; spans that are not each between two quotes, after the
 * record's start and inside it, make it read s whole as
 * sbx_evid_canonical does. */
struct sbx_canon_body {
    size_t off, len;
};
void sbx_evid_canonical_bodies(const char *s, size_t n, const struct sbx_canon_body *bodies,
                               size_t nb, sbx_canon_add_fn *add, void *ctx);

#endif
