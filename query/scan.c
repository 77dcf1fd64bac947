/* Finding a query's required literal (query/lit.h) in decoded text,
 * or deciding from a field's raw JSON bytes that its decoded text cannot
 * hold it. */
#include "query/lit.h"

#include <stdint.h>
#include <string.h>

#include "base/hex.h"
#include "base/simd.h"

#if SBX_SSE2
#include <emmintrin.h>
#endif

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
}

#if SBX_SSE2
static bool is_letter(unsigned char c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}
#endif

static bool equal_at(const struct sbx_lit *lit, const unsigned char *s)
{
    if (!lit->caseless)
        return memcmp(s, lit->s, lit->n) == 0;
    for (size_t k = 0; k < lit->n; k++)
        if (lower(s[k]) != lit->s[k])
            return false;
    return true;
}

/* Does the escape whose backslash is raw[j] decode to a byte of the
 * literal? A backslash that is itself the second half of "\\" is also
 * tried: that can only say yes more often, which is safe. */
static bool escape_hides(const struct sbx_lit *lit, const unsigned char *raw, size_t n, size_t j)
{
    if (j + 1 >= n)
        return false;
    unsigned char c = raw[j + 1];
    if (c == 'u') {
        if (j + 6 > n)
            return false;
        int cp = 0;
        for (int k = 0; k < 4; k++) {
            int d = sbx_hex_digit(raw[j + 2 + k]);
            if (d < 0)
                return false; /* copied through as it stands: plain bytes */
            cp = cp << 4 | d;
        }
        if (cp < 0x80)
            return lit->in[cp];
        if (!lit->high)
            return false;
        if (cp >= 0xD800 && cp <= 0xDFFF)
            return true; /* half of a pair: whatever it makes with the other */
        unsigned char u8[3] = {(unsigned char)(0x80 | (cp & 0x3F)), 0, 0};
        if (cp < 0x800) {
            u8[1] = (unsigned char)(0xC0 | cp >> 6);
        } else {
            u8[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
            u8[2] = (unsigned char)(0xE0 | cp >> 12);
        }
        return lit->in[u8[0]] || lit->in[u8[1]] || (u8[2] && lit->in[u8[2]]);
    }
    static const unsigned char decoded[256] = {
        ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
        ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
    };
    return decoded[c] && lit->in[decoded[c]];
}

/* The scan behind both searches: 64 bytes a round, with one branch for
 * them (JSON output has a backslash every few dozen bytes: a branch per 16
 * would mispredict). The last bytes of a text go through a zero-padded
 * copy, so short texts (most command lines) take the vector path too. */
enum { BLOCK = 64, PAD = SBX_LIT_MAX + 8 }; /* a round reads up to PAD bytes past its 64 */

enum found { FOUND_NONE, FOUND_LITERAL, FOUND_ESCAPE };

/* The scalar twin: every start and every backslash, one byte at a time. */
static enum found scan_scalar(const struct sbx_lit *lit, const unsigned char *raw, size_t n,
                              bool json, size_t *at)
{
    for (size_t i = 0; i < n; i++) {
        if (lit->n <= n - i && equal_at(lit, raw + i)) {
            *at = i;
            return FOUND_LITERAL;
        }
        if (json && raw[i] == '\\' && escape_hides(lit, raw, n, i))
            return FOUND_ESCAPE;
    }
    return FOUND_NONE;
}

#if SBX_SSE2
struct vec_lit {
    __m128i v1, v2, f1, f2;      /* the two rare bytes, and their case bits */
    __m128i bs, u, zero, lo, hi; /* escapes */
    __m128i esc[8];
    int nesc;
};

#define LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

/* Where the literal may start in p[0..16). */
static inline unsigned lit_mask(const struct sbx_lit *lit, const struct vec_lit *v,
                                const unsigned char *p)
{
    __m128i a = _mm_or_si128(LOAD(p + lit->rare1), v->f1);
    __m128i b = _mm_or_si128(LOAD(p + lit->rare2), v->f2);
    return (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, v->v1), _mm_cmpeq_epi8(b, v->v2)));
}

/* Backslashes in p[0..16) whose escape can make a byte of the literal:
 * most are \n, \" or a \u of a character that is not in it, and stop here. */
static inline unsigned esc_mask(const struct vec_lit *v, const unsigned char *p, bool high)
{
    __m128i b = LOAD(p + 1), cand = _mm_cmpeq_epi8(b, v->u);
    if (!high) { /* \u00NX with N in the literal's range */
        __m128i d = LOAD(p + 4);
        cand = _mm_and_si128(cand, _mm_and_si128(_mm_cmpeq_epi8(LOAD(p + 2), v->zero),
                                                 _mm_cmpeq_epi8(LOAD(p + 3), v->zero)));
        cand = _mm_and_si128(cand, _mm_and_si128(_mm_cmpgt_epi8(d, v->lo), _mm_cmplt_epi8(d, v->hi)));
    }
    for (int k = 0; k < v->nesc; k++)
        cand = _mm_or_si128(cand, _mm_cmpeq_epi8(b, v->esc[k]));
    return (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(LOAD(p), v->bs), cand));
}
#undef LOAD

static void vec_init(struct vec_lit *v, const struct sbx_lit *lit)
{
    unsigned char c1 = lit->s[lit->rare1], c2 = lit->s[lit->rare2];
    v->v1 = _mm_set1_epi8((char)c1);
    v->v2 = _mm_set1_epi8((char)c2);
    v->f1 = _mm_set1_epi8(lit->caseless && is_letter(c1) ? 0x20 : 0);
    v->f2 = _mm_set1_epi8(lit->caseless && is_letter(c2) ? 0x20 : 0);
    v->bs = _mm_set1_epi8('\\');
    v->u = _mm_set1_epi8('u');
    v->zero = _mm_set1_epi8('0');
    v->lo = _mm_set1_epi8((char)(lit->nib_lo - 1));
    v->hi = _mm_set1_epi8((char)(lit->nib_hi + 1));
    v->nesc = lit->nesc;
    for (int k = 0; k < lit->nesc; k++)
        v->esc[k] = _mm_set1_epi8(lit->esc[k]);
}

/* One round over p[0..64), which stands for raw[base..base+64); starts at or
 * past the limits are not candidates. json and high are constants where it
 * is inlined, so each use gets its own loop. */
__attribute__((always_inline)) static inline enum found
round64(const struct sbx_lit *lit, const struct vec_lit *v, const unsigned char *p,
        const unsigned char *raw, size_t n, size_t base, bool json, bool high, size_t *at)
{
    uint64_t lm = 0, em = 0;
    for (int j = 0; j < BLOCK; j += 16) {
        lm |= (uint64_t)lit_mask(lit, v, p + j) << j;
        if (json)
            em |= (uint64_t)esc_mask(v, p + j, high) << j;
    }
    if (!(lm | em))
        return FOUND_NONE;
    size_t left = n - base;
    if (left < BLOCK) { /* a padded copy: only real bytes count */
        uint64_t real = (UINT64_C(1) << left) - 1;
        lm &= left >= lit->n ? (UINT64_C(1) << (left - lit->n + 1)) - 1 : 0;
        em &= real;
    }
    for (; lm; lm &= lm - 1) {
        size_t k = base + (unsigned)__builtin_ctzll(lm);
        if (k + lit->n <= n && equal_at(lit, raw + k)) {
            *at = k;
            return FOUND_LITERAL;
        }
    }
    for (; em; em &= em - 1)
        if (escape_hides(lit, raw, n, base + (unsigned)__builtin_ctzll(em)))
            return FOUND_ESCAPE;
    return FOUND_NONE;
}

__attribute__((always_inline)) static inline enum found
scan_with(const struct sbx_lit *lit, const unsigned char *raw, size_t n, bool json, bool high,
          size_t *at)
{
    struct vec_lit v;
    vec_init(&v, lit);
    size_t i = 0;
    enum found f;
    for (; n >= BLOCK + PAD && i <= n - BLOCK - PAD; i += BLOCK)
        if ((f = round64(lit, &v, raw + i, raw, n, i, json, high, at)) != FOUND_NONE)
            return f;
    /* the rest, fewer than BLOCK + PAD bytes, from a zero-padded copy */
    unsigned char tmp[2 * BLOCK + 2 * PAD];
    size_t left = n - i;
    memset(tmp + left, 0, sizeof tmp - left);
    memcpy(tmp, raw + i, left);
    for (size_t j = 0; j < left; j += BLOCK)
        if ((f = round64(lit, &v, tmp + j, raw, n, i + j, json, high, at)) != FOUND_NONE)
            return f;
    return FOUND_NONE;
}

static enum found scan_vector(const struct sbx_lit *lit, const unsigned char *raw, size_t n,
                              bool json, size_t *at)
{
    if (!json)
        return scan_with(lit, raw, n, false, false, at);
    if (lit->high)
        return scan_with(lit, raw, n, true, true, at);
    return scan_with(lit, raw, n, true, false, at);
}
#endif

static enum found scan(const struct sbx_lit *lit, const unsigned char *raw, size_t n, bool json,
                       size_t *at)
{
#if SBX_SSE2
    if (sbx_simd_on())
        return scan_vector(lit, raw, n, json, at);
#endif
    return scan_scalar(lit, raw, n, json, at);
}

const char *sbx_lit_find(const struct sbx_lit *lit, const char *str, size_t n)
{
    size_t at;
    if (scan(lit, (const unsigned char *)str, n, false, &at) == FOUND_LITERAL)
        return str + at;
    return NULL;
}

bool sbx_lit_json_may_have(const struct sbx_lit *lit, const char *str, size_t n)
{
    size_t at;
    return scan(lit, (const unsigned char *)str, n, true, &at) != FOUND_NONE;
}
