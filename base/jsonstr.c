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

static char *put_utf8(char *o, unsigned cp)
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

/* Copies the bytes before the next backslash; returns where it stopped and
 * advances *op as far. Output ahead of the input, 16 bytes at a time: a
 * decoded body is never longer than its escaped form, so the output never
 * passes where the input is, and dst has room for len bytes. */
static const char *copy_plain(const char *p, const char *end, char **op)
{
    char *o = *op;
#if SBX_SSE2
    const __m128i backslash = _mm_set1_epi8('\\');
    bool vector = sbx_simd_on();
    while (vector && end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        _mm_storeu_si128((__m128i *)(void *)o, v);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash));
        if (mask) {
            unsigned k = (unsigned)__builtin_ctz(mask);
            *op = o + k;
            return p + k;
        }
        p += 16;
        o += 16;
    }
#endif
    /* the scalar twin, and the vector loop's last bytes */
    const char *bs = memchr(p, '\\', (size_t)(end - p));
    size_t n = bs ? (size_t)(bs - p) : (size_t)(end - p);
    memcpy(o, p, n);
    *op = o + n;
    return p + n;
}

size_t sbx_jstr_decode(const char *body, size_t len, char *dst)
{
    const char *p = body, *end = body + len;
    char *o = dst;

    while (p < end) {
        p = copy_plain(p, end, &o);
        if (p == end)
            break;
        if (end - p < 2) {
            *o++ = *p++;
            break;
        }
        char c = p[1];
        switch (c) {
        case '"': case '\\': case '/':
            *o++ = c;
            p += 2;
            continue;
        case 'b': *o++ = '\b'; p += 2; continue;
        case 'f': *o++ = '\f'; p += 2; continue;
        case 'n': *o++ = '\n'; p += 2; continue;
        case 'r': *o++ = '\r'; p += 2; continue;
        case 't': *o++ = '\t'; p += 2; continue;
        case 'u':
            break;
        default:
            *o++ = *p++;
            continue;
        }
        int v = end - p >= 6 ? hex4(p + 2) : -1;
        if (v < 0) {
            *o++ = *p++;
            continue;
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
        o = put_utf8(o, cp);
    }
    return (size_t)(o - dst);
}
