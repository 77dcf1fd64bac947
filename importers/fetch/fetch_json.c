/* The JSON text of a page, already validated by jansson: the list's span,
 * its elements' spans, and an element on one line. */
#include <stdlib.h>
#include <string.h>

#include "importers/fetch/fetch_internal.h"
#include "base/jsonstr.h"

void sbx_json_compact(struct sbx_buf *out, const char *p, size_t n)
{
    sbx_buf_reserve(out, n);
    bool in_str = false;
    size_t run = 0; /* start of the bytes not yet copied */
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            sbx_buf_add(out, p + run, i - run);
            run = i + 1;
        }
    }
    sbx_buf_add(out, p + run, n - run);
}

/* The end of the value starting at p[i] (valid JSON, no leading space). */
static size_t value_end(const char *p, size_t n, size_t i)
{
    int depth = 0;
    bool in_str = false;
    for (; i < n; i++) {
        char c = p[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"') {
                in_str = false;
                if (depth == 0)
                    return i + 1;
            }
            continue;
        }
        switch (c) {
        case '"': in_str = true; break;
        case '[':
        case '{': depth++; break;
        case ']':
        case '}':
            if (--depth == 0)
                return i + 1;
            if (depth < 0)
                return i;
            break;
        case ',':
        case ' ':
        case '\t':
        case '\n':
        case '\r':
            if (depth == 0)
                return i;
            break;
        default: break;
        }
    }
    return n;
}

static size_t skip_ws(const char *p, size_t n, size_t i)
{
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i;
}

bool sbx_json_member_text(const char *text, size_t n, const char *key, const char **val,
                          size_t *len)
{
    size_t kl = strlen(key), i = skip_ws(text, n, 0);
    if (i >= n || text[i] != '{')
        return false;
    i = skip_ws(text, n, i + 1);
    while (i < n && text[i] == '"') {
        size_t kend = value_end(text, n, i); /* just past the closing quote */
        if (kend < i + 2)
            return false;
        const char *body = text + i + 1;
        size_t blen = kend - i - 2;
        bool match;
        if (memchr(body, '\\', blen)) {
            char *dec = sbx_xmalloc(blen + 1);
            match = sbx_jstr_decode(body, blen, dec) == kl && memcmp(dec, key, kl) == 0;
            free(dec);
        } else {
            match = blen == kl && memcmp(body, key, kl) == 0;
        }
        i = skip_ws(text, n, kend);
        if (i >= n || text[i] != ':')
            return false;
        i = skip_ws(text, n, i + 1);
        size_t vend = value_end(text, n, i);
        if (match) {
            *val = text + i;
            *len = vend - i;
            return true;
        }
        i = skip_ws(text, n, vend);
        if (i < n && text[i] == ',')
            i = skip_ws(text, n, i + 1);
    }
    return false;
}

size_t sbx_json_array_each(const char *p, size_t n,
                           bool (*each)(void *ctx, size_t i, const char *el, size_t len),
                           void *ctx)
{
    size_t i = skip_ws(p, n, 0), count = 0;
    if (i >= n || p[i] != '[')
        return 0;
    i = skip_ws(p, n, i + 1);
    while (i < n && p[i] != ']') {
        size_t end = value_end(p, n, i);
        if (end <= i)
            break;
        if (!each(ctx, count++, p + i, end - i))
            break;
        i = skip_ws(p, n, end);
        if (i < n && p[i] == ',')
            i = skip_ws(p, n, i + 1);
    }
    return count;
}
