#include "model/jsonstr.h"

#include <stdint.h>
#include <string.h>

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int32_t read_u4(const char *p, const char *end)
{
    if (end - p < 4)
        return -1;
    int32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

static size_t put_utf8(char *d, uint32_t cp)
{
    if (cp < 0x80) {
        d[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (char)(0xC0 | (cp >> 6));
        d[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (char)(0xE0 | (cp >> 12));
        d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | (cp >> 18));
    d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t sbx_jstr_decode(const char *body, size_t len, char *dst)
{
    const char *p = body, *end = body + len;
    char *d = dst;
    while (p < end) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        size_t plain = bs ? (size_t)(bs - p) : (size_t)(end - p);
        memcpy(d, p, plain);
        d += plain;
        p += plain;
        if (!bs || p + 1 >= end)
            break;
        char c = p[1];
        p += 2;
        switch (c) {
        case 'n': *d++ = '\n'; break;
        case 't': *d++ = '\t'; break;
        case 'r': *d++ = '\r'; break;
        case 'b': *d++ = '\b'; break;
        case 'f': *d++ = '\f'; break;
        case 'u': {
            int32_t u = read_u4(p, end);
            if (u < 0)
                break;
            p += 4;
            uint32_t cp = (uint32_t)u;
            if (cp >= 0xD800 && cp < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                int32_t lo = read_u4(p + 2, end);
                if (lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (uint32_t)(lo - 0xDC00);
                    p += 6;
                }
            }
            /* 6 escaped bytes always cover the at most 4 written */
            d += put_utf8(d, cp);
            break;
        }
        default: *d++ = c; break; /* \" \\ \/ */
        }
    }
    return (size_t)(d - dst);
}
