#include "analyses/hidden.h"

#include <string.h>

#include "base/jsonstr.h"
#include "base/simd.h"
#include "model/timeline.h"
#include "base/utf8.h"

#if SBX_SSE2 || SBX_X86_64
#include <immintrin.h>
#endif

static bool private_use(uint32_t c)
{
    return (c >= 0xe000 && c <= 0xf8ff) || c >= 0xf0000;
}

bool sbx_cp_invisible(uint32_t c)
{
    if (c < 0xad)
        return false;
    return c == 0xad || c == 0x61c || c == 0x115f || c == 0x1160 || c == 0x180e ||
           (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) ||
           (c >= 0x2060 && c <= 0x206f) || c == 0x3164 || c == 0xfeff || c == 0xffa0 ||
           (c >= 0xfff9 && c <= 0xfffb) || (c >= 0xe0000 && c <= 0xe007f) || private_use(c);
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v << 4 | d;
    }
    return v;
}

/* The code point of the \u escape at s[i] ("\uXXXX", a pair joined), and
 * its length in *len; -1 when it is not one. */
static long escape_at(const char *s, size_t n, size_t i, size_t *len)
{
    if (i + 6 > n || s[i + 1] != 'u')
        return -1;
    int hi = hex4(s + i + 2);
    *len = 6;
    if (hi >= 0xd800 && hi <= 0xdbff && i + 12 <= n && s[i + 6] == '\\' && s[i + 7] == 'u') {
        int lo = hex4(s + i + 8);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
            *len = 12;
            return 0x10000 + ((long)(hi - 0xd800) << 10) + (lo - 0xdc00);
        }
    }
    return hi;
}

/* Whether the backslash at s[i] starts an escape: an even number of
 * backslashes before it (each pair is one escaped backslash). */
static bool starts_escape(const char *s, size_t i)
{
    size_t k = 0;
    while (k < i && s[i - 1 - k] == '\\')
        k++;
    return k % 2 == 0;
}

/* Candidates, a block at a time: where an invisible code point's UTF-8 may
 * start, by its first two bytes (C2 AD, D8 9C, E1 85/A0, E2 80/81, E3 85,
 * EE, EF, F3 A0/B0-BF, F4), a NUL byte, and in escaped text a \u escape,
 * except the \u00XX ones but \u00AX (only U+00AD of them hides) and \u000X
 * (\u0000 hides). So the box drawing, arrows, kana and \u001b of ordinary
 * output are not even looked at. One
 * body for 16 and 32 bytes, in GCC's vector types; the block and the 4
 * bytes after it must be readable. */
/* Whether the code point that starts at s[i] (a candidate) hides. */
static bool hides_at(const char *s, size_t n, size_t i, bool escaped)
{
    const unsigned char *u = (const unsigned char *)s;
    /* a NUL: what a terminal shows as nothing */
    if (u[i] == 0)
        return true;
    /* quick answers for the common cases: \u00XX (only U+00AD and U+0000
     * hide), and E2 not followed by 80 or 81 (arrows, quotes, dashes: none
     * hides) */
    if (u[i] == '\\' && i + 5 < n && u[i + 2] == '0' && u[i + 3] == '0' &&
        !((u[i + 4] | 0x20) == 'a' && (u[i + 5] | 0x20) == 'd') &&
        !(u[i + 4] == '0' && u[i + 5] == '0'))
        return false;
    if (u[i] == 0xe2 && i + 1 < n && u[i + 1] != 0x80 && u[i + 1] != 0x81)
        return false;
    if (u[i] == '\\') {
        size_t len;
        long cp = escaped && starts_escape(s, i) ? escape_at(s, n, i, &len) : -1;
        return cp == 0 || (cp > 0 && sbx_cp_invisible((uint32_t)cp));
    }
    uint32_t cp;
    return sbx_utf8_decode(u + i, n - i, &cp) && sbx_cp_invisible(cp);
}

#if SBX_SSE2
#define HIDDEN_SCAN(NAME, U, S, MOVEMASK, ATTR)                                                \
    ATTR static size_t NAME(const char *s, size_t n, size_t i, bool escaped, bool *found)      \
    {                                                                                          \
        const unsigned char *u = (const unsigned char *)s;                                     \
        for (; i + sizeof(U) + 4 <= n; i += sizeof(U)) {                                       \
            const unsigned char *p = u + i;                                                    \
            U v, n1;                                                                           \
            memcpy(&v, p, sizeof v);                                                           \
            memcpy(&n1, p + 1, sizeof n1);                                                     \
            S m = ((v == 0xc2) & (n1 == 0xad)) | ((v == 0xd8) & (n1 == 0x9c)) |                \
                  ((v == 0xe1) & ((n1 == 0x85) | (n1 == 0xa0))) |                              \
                  ((v == 0xe2) & ((n1 & 0xfe) == 0x80)) | ((v == 0xe3) & (n1 == 0x85)) |       \
                  ((v & 0xfe) == 0xee) | (v == 0xf4) | (v == 0) |                              \
                  ((v == 0xf3) & ((n1 == 0xa0) | ((n1 & 0xf0) == 0xb0)));                      \
            if (escaped) {                                                                     \
                U n2, n3, n4;                                                                  \
                memcpy(&n2, p + 2, sizeof n2);                                                 \
                memcpy(&n3, p + 3, sizeof n3);                                                 \
                memcpy(&n4, p + 4, sizeof n4);                                                 \
                m |= (v == '\\') & (n1 == 'u') &                                                \
                     ~((n2 == '0') & (n3 == '0') & ((n4 | 0x20) != 'a') & (n4 != '0'));        \
            }                                                                                  \
            for (unsigned bits = (unsigned)MOVEMASK(m); bits; bits &= bits - 1)                \
                if (hides_at(s, n, i + (size_t)__builtin_ctz(bits), escaped)) {                \
                    *found = true;                                                             \
                    return i;                                                                  \
                }                                                                              \
        }                                                                                      \
        return i;                                                                              \
    }

typedef unsigned char u8x16 __attribute__((vector_size(16)));
typedef signed char s8x16 __attribute__((vector_size(16)));
#define MOVEMASK16(m) _mm_movemask_epi8((__m128i)(m))
HIDDEN_SCAN(scan16, u8x16, s8x16, MOVEMASK16, )
#endif

#if SBX_X86_64
/* 32 bytes at a time where the CPU has AVX2 (chosen at run time: the build
 * targets plain x86-64). Written out with the constants held in registers;
 * a slightly wider net than the 16-byte one (any D8, E1, EE, EF, F3, F4 lead;
 * hides_at decides), with fewer operations. */
__attribute__((target("avx2"))) static size_t scan32(const char *s, size_t n, size_t i,
                                                      bool escaped, unsigned *mask)
{
    const unsigned char *u = (const unsigned char *)s;
    const __m256i xE2 = _mm256_set1_epi8((char)0xe2), xE3 = _mm256_set1_epi8((char)0xe3),
                  xC2 = _mm256_set1_epi8((char)0xc2), xD8 = _mm256_set1_epi8((char)0xd8),
                  xE1 = _mm256_set1_epi8((char)0xe1), xFE = _mm256_set1_epi8((char)0xfe),
                  xEE = _mm256_set1_epi8((char)0xee), x80 = _mm256_set1_epi8((char)0x80),
                  x85 = _mm256_set1_epi8((char)0x85), xAD = _mm256_set1_epi8((char)0xad),
                  xF3 = _mm256_set1_epi8((char)0xf3), one = _mm256_set1_epi8(1),
                  bsl = _mm256_set1_epi8('\\'), lu = _mm256_set1_epi8('u'),
                  zero = _mm256_set1_epi8('0'), x20 = _mm256_set1_epi8(0x20),
                  la = _mm256_set1_epi8('a');
    /* no call in this loop, so the constants stay in registers: a block with
     * candidates goes back to the caller */
    for (; i + 36 <= n; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(u + i));
        __m256i n1 = _mm256_loadu_si256((const __m256i *)(const void *)(u + i + 1));
        __m256i m = _mm256_and_si256(_mm256_cmpeq_epi8(v, xE2),
                                     _mm256_cmpeq_epi8(_mm256_and_si256(n1, xFE), x80));
        m = _mm256_or_si256(m, _mm256_and_si256(_mm256_cmpeq_epi8(v, xE3), _mm256_cmpeq_epi8(n1, x85)));
        m = _mm256_or_si256(m, _mm256_and_si256(_mm256_cmpeq_epi8(v, xC2), _mm256_cmpeq_epi8(n1, xAD)));
        m = _mm256_or_si256(m, _mm256_or_si256(_mm256_cmpeq_epi8(v, xD8), _mm256_cmpeq_epi8(v, xE1)));
        m = _mm256_or_si256(m, _mm256_cmpeq_epi8(_mm256_and_si256(v, xFE), xEE));
        __m256i f = _mm256_sub_epi8(v, xF3); /* F3, F4 */
        m = _mm256_or_si256(m, _mm256_cmpeq_epi8(_mm256_min_epu8(f, one), f));
        m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_setzero_si256()));
        if (escaped) {
            __m256i bu = _mm256_and_si256(_mm256_cmpeq_epi8(v, bsl), _mm256_cmpeq_epi8(n1, lu));
            if (!_mm256_testz_si256(bu, bu)) {
                __m256i n2 = _mm256_loadu_si256((const __m256i *)(const void *)(u + i + 2));
                __m256i n3 = _mm256_loadu_si256((const __m256i *)(const void *)(u + i + 3));
                __m256i n4 = _mm256_loadu_si256((const __m256i *)(const void *)(u + i + 4));
                /* \u00XX cannot hide, but \u00AX may be U+00AD and \u000X U+0000 */
                __m256i u00 = _mm256_and_si256(_mm256_cmpeq_epi8(n2, zero), _mm256_cmpeq_epi8(n3, zero));
                u00 = _mm256_andnot_si256(_mm256_cmpeq_epi8(_mm256_or_si256(n4, x20), la), u00);
                u00 = _mm256_andnot_si256(_mm256_cmpeq_epi8(n4, zero), u00);
                m = _mm256_or_si256(m, _mm256_andnot_si256(u00, bu));
            }
        }
        unsigned bits = (unsigned)_mm256_movemask_epi8(m);
        if (bits) {
            *mask = bits;
            return i;
        }
    }
    *mask = 0;
    return i;
}

#endif

bool sbx_text_hides(const char *s, size_t n, bool escaped)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
#if SBX_X86_64
    if (sbx_cpu_avx2()) {
        unsigned bits;
        while ((i = scan32(s, n, i, escaped, &bits)), bits) {
            for (; bits; bits &= bits - 1)
                if (hides_at(s, n, i + (size_t)__builtin_ctz(bits), escaped))
                    return true;
            i += 32;
        }
    }
#endif
#if SBX_SSE2
    if (sbx_simd_on()) {
        bool found = false;
        /* from i in the whole text, not a text that starts at i: whether a
         * backslash starts an escape depends on the backslashes before it */
        i = scan16(s, n, i, escaped, &found);
        if (found)
            return true;
    }
#endif
    /* the scalar twin, and the vector scans' last bytes */
    for (; i < n; i++) {
        bool lead = u[i] == 0xc2 || u[i] == 0xd8 || (u[i] >= 0xe1 && u[i] <= 0xe3) ||
                    u[i] == 0xee || u[i] == 0xef || u[i] == 0xf3 || u[i] == 0xf4 || u[i] == 0;
        bool esc = escaped && u[i] == '\\' && i + 1 < n && u[i + 1] == 'u';
        if ((lead || esc) && hides_at(s, n, i, escaped))
            return true;
    }
    return false;
}

bool sbx_field_hides(const struct sbx_timeline *tl, const struct sbx_event *e,
                     const struct sbx_text *t, struct sbx_buf *scratch)
{
    const char *raw = sbx_text_raw(tl, e, t);
    bool escaped = t->flags & SBX_TEXT_ESCAPED;
    if (!(t->flags & SBX_TEXT_ARGV))
        return !(t->flags & SBX_TEXT_SHOWN) && sbx_text_hides(raw, sbx_text_len(t), escaped);
    if (!escaped)
        return sbx_text_hides(raw, sbx_text_len(t), true);
    sbx_buf_clear(scratch);
    sbx_buf_reserve(scratch, sbx_text_len(t));
    scratch->len = sbx_jstr_decode(raw, sbx_text_len(t), scratch->p);
    return sbx_text_hides(scratch->p, scratch->len, true);
}

size_t sbx_tag_text(const char *s, size_t n, struct sbx_buf *out)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t tags = 0;
    for (size_t i = 0; i < n;) {
        if (u[i] != 0xf3) { /* every tag character's UTF-8 starts with F3 */
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = sbx_utf8_decode(u + i, n - i, &cp);
        if (len && cp >= 0xe0020 && cp <= 0xe007e) {
            sbx_buf_addc(out, (char)(cp - 0xe0000));
            tags++;
        }
        i += len ? len : 1;
    }
    return tags;
}
