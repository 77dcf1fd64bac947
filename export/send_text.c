/* Text made safe to show, and base URLs from the settings. */
#include <string.h>
#include <strings.h>

#include "export/send_internal.h"
#include "base/utf8.h"

static bool bidi_or_c1(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

void sbx_send_printable(struct sbx_buf *out, const char *s, size_t n, size_t max,
                        char *const *secrets, size_t nsecrets)
{
    size_t start = out->len;
    for (size_t i = 0; i < n;) {
        if (out->len - start >= max) {
            sbx_buf_adds(out, "…");
            return;
        }
        bool hit = false;
        for (size_t k = 0; k < nsecrets; k++) {
            size_t sl = secrets[k] ? strlen(secrets[k]) : 0;
            if (sl && i + sl <= n && memcmp(s + i, secrets[k], sl) == 0) {
                sbx_buf_adds(out, SBX_SEND_MASK);
                i += sl;
                hit = true;
                break;
            }
        }
        if (hit)
            continue;
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            sbx_buf_addc(out, c < 0x20 || c == 0x7f ? (c == '\n' || c == '\t' ? ' ' : '?')
                                                    : (char)c);
            i++;
            continue;
        }
        uint32_t cp;
        size_t l = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (!l || bidi_or_c1(cp)) {
            sbx_buf_addc(out, '?');
            i += l ? l : 1;
            continue;
        }
        sbx_buf_add(out, s + i, l);
        i += l;
    }
}

void sbx_send_url_host(struct sbx_buf *out, const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    size_t n = strcspn(p, "/?#");
    const char *at = memchr(p, '@', n);
    if (at) {
        n -= (size_t)(at + 1 - p);
        p = at + 1;
    }
    size_t h = n;
    if (n && p[0] == '[') { /* [v6]:port */
        const char *close = memchr(p, ']', n);
        h = close ? (size_t)(close - p) + 1 : n;
    } else {
        const char *colon = memchr(p, ':', n);
        if (colon)
            h = (size_t)(colon - p);
    }
    sbx_send_printable(out, p, h, 255, NULL, 0);
}

char *sbx_send_base_url(const char *value, const char *fallback, const char *var, char *err,
                        size_t errsz)
{
    const char *v = value && *value ? value : fallback;
    if (!v) {
        sbx_send_errf(err, errsz, "%s is not set", var);
        return NULL;
    }
    if (strncasecmp(v, "https://", 8) != 0 || !v[8]) {
        sbx_send_errf(err, errsz, "%s must be an https:// URL", var);
        return NULL;
    }
    if (strpbrk(v, "?#")) {
        sbx_send_errf(err, errsz, "%s must not hold a query or a fragment", var);
        return NULL;
    }
    size_t n = strlen(v);
    while (n > 8 && v[n - 1] == '/')
        n--;
    return sbx_xstrndup(v, n);
}
