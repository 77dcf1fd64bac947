#include "base/jsonwalk.h"

#include <string.h>

#include "base/jsonstr.h"

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* Past the closing quote of the string whose body starts at p, or NULL: the
 * next quote not escaped (an even run of backslashes before it). memchr
 * does the long stretches: most of a span's bytes are in strings. */
static const char *string_end(const char *p, const char *end)
{
    while (p < end) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            return NULL;
        const char *b = q;
        while (b > p && b[-1] == '\\')
            b--;
        if ((q - b) % 2 == 0)
            return q + 1;
        p = q + 1;
    }
    return NULL;
}

const char *sbx_jwk_value_end(const char *p, const char *end)
{
    if (p >= end)
        return NULL;
    if (*p == '"')
        return string_end(p + 1, end);
    if (*p != '{' && *p != '[') {
        const char *q = p;
        while (q < end && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z') ||
                           (*q >= 'A' && *q <= 'Z') || *q == '-' || *q == '+' || *q == '.'))
            q++;
        return q > p ? q : NULL;
    }
    size_t depth = 0;
    for (const char *q = p; q < end;) {
        char c = *q;
        if (c == '"') {
            q = string_end(q + 1, end);
            if (!q)
                return NULL;
            continue;
        }
        if (c == '{' || c == '[')
            depth++;
        else if ((c == '}' || c == ']') && --depth == 0)
            return q + 1;
        q++;
    }
    return NULL;
}

void sbx_jwk_begin(struct sbx_jwk *w, const char *open, const char *end)
{
    w->end = end;
    w->close = 0;
    w->p = open;
    if (open && open < end && (*open == '[' || *open == '{')) {
        w->close = *open == '[' ? ']' : '}';
        w->p = open + 1;
    }
}

bool sbx_jwk_next(struct sbx_jwk *w, const char **key, size_t *klen, const char **v,
                 const char **vend)
{
    if (!w->close)
        return false;
    const char *p = skip_ws(w->p, w->end);
    if (p < w->end && *p == ',')
        p = skip_ws(p + 1, w->end);
    if (key)
        *key = NULL;
    if (klen)
        *klen = 0;
    if (p >= w->end || *p == w->close)
        goto done;
    if (w->close == '}') {
        if (*p != '"')
            goto done;
        const char *kend = string_end(p + 1, w->end);
        if (!kend)
            goto done;
        if (key)
            *key = p + 1;
        if (klen)
            *klen = (size_t)(kend - 1 - (p + 1));
        p = skip_ws(kend, w->end);
        if (p >= w->end || *p != ':')
            goto done;
        p = skip_ws(p + 1, w->end);
    }
    const char *e = sbx_jwk_value_end(p, w->end);
    if (!e)
        goto done;
    *v = p;
    *vend = e;
    w->p = e;
    return true;
done:
    w->close = 0;
    return false;
}

bool sbx_jwk_key_is(const char *key, size_t klen, const char *w)
{
    size_t n = strlen(w);
    if (!key)
        return false;
    if (!memchr(key, '\\', klen))
        return klen == n && memcmp(key, w, n) == 0;
    if (klen > 256)
        return false;
    char buf[256];
    size_t dn = sbx_jstr_decode(key, klen, buf);
    return dn == n && memcmp(buf, w, n) == 0;
}

bool sbx_jwk_member(const char *obj, const char *end, const char *key, const char **v,
                   const char **vend)
{
    struct sbx_jwk w;
    sbx_jwk_begin(&w, obj, end);
    if (w.close != '}')
        return false;
    const char *k, *mv, *mvend;
    size_t klen;
    bool found = false;
    /* the last of a key given twice, as jansson and the importers read it */
    while (sbx_jwk_next(&w, &k, &klen, &mv, &mvend))
        if (sbx_jwk_key_is(k, klen, key)) {
            *v = mv;
            *vend = mvend;
            found = true;
        }
    return found;
}

bool sbx_jwk_string(const char *v, const char *vend, const char **body, size_t *len)
{
    if (!v || vend - v < 2 || *v != '"' || vend[-1] != '"')
        return false;
    *body = v + 1;
    *len = (size_t)(vend - v - 2);
    return true;
}
