#include "model/hidden.h"

#include <emmintrin.h>

#include "model/utf8.h"

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

bool sbx_text_hides(const char *s, size_t n, bool escaped)
{
    const unsigned char *u = (const unsigned char *)s;
    const __m128i backslash = _mm_set1_epi8('\\');
    size_t i = 0;
    while (i < n) {
        /* most text is ASCII without escapes: skip it 16 bytes at a time */
        if (i + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i *)(u + i));
            int m = _mm_movemask_epi8(v);
            if (escaped)
                m |= _mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash));
            if (!m) {
                i += 16;
                continue;
            }
            i += (size_t)__builtin_ctz((unsigned)m);
        }
        if (u[i] >= 0x80) {
            uint32_t cp;
            size_t len = sbx_utf8_decode(u + i, n - i, &cp);
            if (len && sbx_cp_invisible(cp))
                return true;
            i += len ? len : 1;
        } else if (escaped && u[i] == '\\' && i + 1 < n) {
            size_t len = 2;
            long cp = escape_at(s, n, i, &len);
            if (cp >= 0 && sbx_cp_invisible((uint32_t)cp))
                return true;
            i += cp >= 0 ? len : 2;
        } else {
            i++;
        }
    }
    return false;
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
