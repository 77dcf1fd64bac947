/* The inside of query/query: what a PCRE2 pattern says before it runs.
 *
 * - Smart case: a pattern is matched without case unless it has an
 *   upper-case letter of its own (in a literal or a character class; the
 *   letters of escapes such as \S, \p{Lu}, group names and option settings
 *   do not count), as with less -i, vim's smartcase and ripgrep -S.
 * - The required literal: a run of plain characters at the top level of the
 *   pattern that every match must contain (found conservatively: any
 *   alternation at the top level, \Q, verbs and option settings give none).
 *   Caseless, it holds only ASCII characters that fold to exactly one other
 *   (every letter but k and s, which also match U+212A and U+017F) and is
 *   stored in lower case. "pure" means the pattern is nothing but that
 *   ASCII literal, so finding it decides the match without PCRE2.
 * - Raw JSON: text fields are kept escaped as in the file. If no escape in
 *   a field decodes to a byte of the literal, the literal occurs in the
 *   decoded text exactly where it occurs in the raw bytes (outside escapes),
 *   so a raw search that finds nothing is a sound "no".
 *
 * Owns nothing; safe from any thread (the struct is read-only after
 * sbx_lit_extract). */
#ifndef SBX_QUERY_LIT_H
#define SBX_QUERY_LIT_H

#include <stdbool.h>
#include <stddef.h>

enum { SBX_LIT_MAX = 64 };

struct sbx_lit {
    unsigned char s[SBX_LIT_MAX]; /* the literal; lower case when caseless */
    size_t n;                     /* 0: the pattern has none */
    bool caseless;
    bool pure;
    bool high;                    /* has a byte >= 0x80 */
    /* the escapes that can make a byte of it: \X for X in esc[0..nesc), and
       \u00NX with N from nib_lo to nib_hi (ASCII digits; none if lo > hi) */
    char esc[8];
    int nesc;
    char nib_lo, nib_hi;
    size_t rare1, rare2;          /* two positions to test first (rarest bytes) */
    unsigned char in[256];        /* 1 for each byte that can be part of an occurrence */
};

/* True when the pattern should match case-insensitively (it has no upper-case
 * letter of its own). */
bool sbx_lit_smartcase(const char *pat, size_t n);

/* Fills lit; lit->n == 0 when the pattern has no usable literal. */
void sbx_lit_extract(const char *pat, size_t n, bool caseless, struct sbx_lit *lit);

/* The first occurrence of the literal in s[0..n) (ASCII-caseless when the
 * literal is), or NULL. lit->n must be > 0. */
const char *sbx_lit_find(const struct sbx_lit *lit, const char *s, size_t n);

/* False when the JSON string body raw[0..n), decoded, cannot hold the
 * literal: the raw bytes lack it and no escape in them decodes to a byte of
 * it. True means only the decoded text can tell. */
bool sbx_lit_json_may_have(const struct sbx_lit *lit, const char *raw, size_t n);

#endif
