/* JSON string bodies to bytes, as jansson decodes them. Defensive on input
 * that was not validated: it never reads past len nor writes more than len
 * bytes (a malformed escape is copied through as it stands). */
#include "base/jsonstr.h"

#include <string.h>

#include "base/simd.h"
#if SBX_SSE2
#include <emmintrin.h>
#endif

/* Hex digit values plus one (0: not a digit): one load per digit instead of
 * a chain of range tests (Python's recorder writes every non-ASCII
 * character as \uXXXX, so this runs often). */
#define H(c) [c] = (unsigned char)(((c) <= '9' ? (c) - '0' : ((c) | 0x20) - 'a' + 10) + 1)
static const unsigned char hex_value1[256] = {
    H('0'), H('1'), H('2'), H('3'), H('4'), H('5'), H('6'), H('7'), H('8'), H('9'),
    H('a'), H('b'), H('c'), H('d'), H('e'), H('f'), H('A'), H('B'), H('C'), H('D'), H('E'), H('F'),
};
#undef H

static inline int hex4(const char *p)
{
    int a = hex_value1[(unsigned char)p[0]], b = hex_value1[(unsigned char)p[1]],
        c = hex_value1[(unsigned char)p[2]], d = hex_value1[(unsigned char)p[3]];
    if (!a || !b || !c || !d)
        return -1;
    return (a - 1) << 12 | (b - 1) << 8 | (c - 1) << 4 | (d - 1);
}

static inline char *put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xC0 | cp >> 6);
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | cp >> 12);
        *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | cp >> 18);
        *o++ = (char)(0x80 | (cp >> 12 & 0x3F));
        *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    }
    return o;
}

/* Bytes of the one-character escapes, by the character after the backslash
 * (0: not one of them). */
static const unsigned char simple_escape[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/* Decodes the escape at p (p[0] is a backslash, p < end) to *op; returns
 * the input after it and advances *op. A malformed escape copies its
 * backslash alone. Always inlined: called from the vector loop, out of
 * line it costs a quarter of the decode (callgrind). */
static inline __attribute__((always_inline)) const char *decode_escape(const char *p, const char *end, char **op)
{
    char *o = *op;
    unsigned char s = end - p >= 2 ? simple_escape[(unsigned char)p[1]] : 0;
    if (s) {
        *o = (char)s;
        *op = o + 1;
        return p + 2;
    }
    int v = end - p >= 6 && p[1] == 'u' ? hex4(p + 2) : -1;
    if (v < 0) {
        *o = '\\';
        *op = o + 1;
        return p + 1;
    }
    p += 6;
    unsigned cp = (unsigned)v;
    if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
        int lo = hex4(p + 2);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
            p += 6;
        }
    }
    *op = put_utf8(o, cp);
    return p;
}

#if SBX_SSE2
/* The vector loop: 32 bytes copied at a time, the output behind the input
 * (a decoded body is never longer than its escaped form, so the output
 * never passes where the input is, and dst has room for len bytes). An
 * escape is decoded where the masks find it and the loop goes on from the
 * input after it, without leaving. Returns where 32 bytes or fewer are
 * left; advances *op as far. */
static const char *decode_vector(const char *p, const char *end, char **op)
{
    const __m128i backslash = _mm_set1_epi8('\\');
    char *o = *op;
    while (end - p > 32) { /* so that the byte after a backslash is in */
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
        _mm_storeu_si128((__m128i *)(void *)o, a);
        _mm_storeu_si128((__m128i *)(void *)(o + 16), b);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, backslash)) |
                        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, backslash)) << 16;
        if (!mask) {
            p += 32;
            o += 32;
            continue;
        }
        unsigned k = (unsigned)__builtin_ctz(mask);
        o += k;
        p = decode_escape(p + k, end, &o);
    }
    *op = o;
    return p;
}
#endif

size_t sbx_jstr_decode(const char *body, size_t len, char *dst)
{
    const char *p = body, *end = body + len;
    char *o = dst;
#if SBX_SSE2
    if (sbx_simd_on())
        p = decode_vector(p, end, &o);
#endif
    /* the scalar twin, and the vector loop's last bytes */
    while (p < end) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        size_t n = bs ? (size_t)(bs - p) : (size_t)(end - p);
        memcpy(o, p, n);
        o += n;
        p += n;
        if (p < end)
            p = decode_escape(p, end, &o);
    }
    return (size_t)(o - dst);
}
