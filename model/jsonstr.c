/* JSON string bodies to bytes, as jansson decodes them. Defensive on input
 * that was not validated: it never reads past len nor writes more than len
 * bytes (a malformed escape is copied through as it stands). */
#include "model/jsonstr.h"

#include <string.h>

static int hex4(const char *p)
{
    int v = 0;
    for (int k = 0; k < 4; k++) {
        unsigned char c = (unsigned char)p[k];
        int h;
        if (c >= '0' && c <= '9')
            h = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            h = (c | 0x20) - 'a' + 10;
        else
            return -1;
        v = v << 4 | h;
    }
    return v;
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

size_t sbx_jstr_decode(const char *body, size_t len, char *dst)
{
    const char *p = body, *end = body + len;
    char *o = dst;

    while (p < end) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        if (!bs) {
            memcpy(o, p, (size_t)(end - p));
            o += end - p;
            break;
        }
        memcpy(o, p, (size_t)(bs - p));
        o += bs - p;
        p = bs;
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
