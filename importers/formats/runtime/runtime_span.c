#include "importers/formats/runtime/runtime_span.h"

#include <stdint.h>
#include <string.h>

#include "base/jsonstr.h"

enum { MAX_DEPTH = 4096 };

/* Past the closing quote of the string whose body starts at p. */
static enum sbx_rt_span string_end(const char *p, const char *end, const char **at)
{
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == '"') {
            *at = p + 1;
            return SBX_RT_SPAN_OK;
        }
        if (c == '\\') {
            if (p + 1 >= end)
                break;
            if ((unsigned char)p[1] < 0x20) {
                *at = p + 1;
                return SBX_RT_SPAN_BAD;
            }
            p += 2;
            continue;
        }
        if (c < 0x20) {
            *at = p;
            return SBX_RT_SPAN_BAD;
        }
        p++;
    }
    *at = end;
    return SBX_RT_SPAN_SHORT;
}

static bool token_byte(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '-' || c == '+' || c == '.';
}

enum sbx_rt_span sbx_rt_value_end(const char *p, const char *end, const char **at)
{
    if (p >= end) {
        *at = end;
        return SBX_RT_SPAN_SHORT;
    }
    char c = *p;
    if (c == '"')
        return string_end(p + 1, end, at);
    if (c != '{' && c != '[') {
        const char *q = p;
        while (q < end && token_byte(*q))
            q++;
        *at = q;
        return q > p ? SBX_RT_SPAN_OK : SBX_RT_SPAN_BAD;
    }
    /* one bit per open bracket: 1 for '{' */
    uint64_t kinds[MAX_DEPTH / 64];
    size_t depth = 0;
    const char *q = p;
    while (q < end) {
        unsigned char b = (unsigned char)*q;
        if (b == '"') {
            enum sbx_rt_span s = string_end(q + 1, end, &q);
            if (s != SBX_RT_SPAN_OK) {
                *at = q;
                return s;
            }
            continue;
        }
        if (b == '{' || b == '[') {
            if (depth == MAX_DEPTH) {
                *at = q;
                return SBX_RT_SPAN_BAD;
            }
            uint64_t bit = 1ull << (depth % 64);
            if (b == '{')
                kinds[depth / 64] |= bit;
            else
                kinds[depth / 64] &= ~bit;
            depth++;
        } else if (b == '}' || b == ']') {
            if (depth == 0) {
                *at = q;
                return SBX_RT_SPAN_BAD;
            }
            depth--;
            bool brace = kinds[depth / 64] >> (depth % 64) & 1;
            if (brace != (b == '}')) {
                *at = q;
                return SBX_RT_SPAN_BAD;
            }
            if (depth == 0) {
                *at = q + 1;
                return SBX_RT_SPAN_OK;
            }
        } else if (b < 0x20 && b != '\n' && b != '\t' && b != '\r') {
            *at = q;
            return SBX_RT_SPAN_BAD;
        }
        q++;
    }
    *at = end;
    return SBX_RT_SPAN_SHORT;
}

void sbx_rt_iter_begin(struct sbx_rt_iter *it, const char *open, const char *end)
{
    memset(it, 0, sizeof *it);
    it->p = open;
    it->end = end;
    if (open < end && (*open == '[' || *open == '{')) {
        it->close = *open == '[' ? ']' : '}';
        it->p = open + 1;
    } else {
        it->done = true;
        it->status = open < end ? SBX_RT_SPAN_BAD : SBX_RT_SPAN_SHORT;
        it->err_at = open;
    }
}

static bool fail(struct sbx_rt_iter *it, enum sbx_rt_span s, const char *at)
{
    it->done = true;
    it->status = s;
    it->err_at = at;
    return false;
}

bool sbx_rt_iter_next(struct sbx_rt_iter *it, const char **key, size_t *klen, const char **v,
                      const char **vend)
{
    if (it->done)
        return false;
    const char *p = sbx_rt_skip_ws(it->p, it->end);
    if (p == it->end)
        return fail(it, SBX_RT_SPAN_SHORT, p);
    if (*p == it->close && !it->started) {
        it->p = p + 1;
        it->done = true;
        return false;
    }
    if (it->started) {
        if (*p == it->close) {
            it->p = p + 1;
            it->done = true;
            return false;
        }
        if (*p != ',')
            return fail(it, SBX_RT_SPAN_BAD, p);
        p = sbx_rt_skip_ws(p + 1, it->end);
        if (p == it->end)
            return fail(it, SBX_RT_SPAN_SHORT, p);
    }
    it->started = true;
    if (key)
        *key = NULL;
    if (klen)
        *klen = 0;
    if (it->close == '}') {
        if (*p != '"')
            return fail(it, SBX_RT_SPAN_BAD, p);
        const char *kend;
        enum sbx_rt_span s = string_end(p + 1, it->end, &kend);
        if (s != SBX_RT_SPAN_OK)
            return fail(it, s, kend);
        if (key)
            *key = p + 1;
        if (klen)
            *klen = (size_t)(kend - 1 - (p + 1));
        p = sbx_rt_skip_ws(kend, it->end);
        if (p == it->end)
            return fail(it, SBX_RT_SPAN_SHORT, p);
        if (*p != ':')
            return fail(it, SBX_RT_SPAN_BAD, p);
        p = sbx_rt_skip_ws(p + 1, it->end);
        if (p == it->end)
            return fail(it, SBX_RT_SPAN_SHORT, p);
    }
    const char *e;
    enum sbx_rt_span s = sbx_rt_value_end(p, it->end, &e);
    if (s != SBX_RT_SPAN_OK)
        return fail(it, s, e);
    *v = p;
    *vend = e;
    it->p = e;
    return true;
}

bool sbx_rt_key_is(const char *key, size_t klen, const char *w)
{
    size_t n = strlen(w);
    if (!key)
        return false;
    if (!memchr(key, '\\', klen))
        return klen == n && memcmp(key, w, n) == 0;
    /* an escaped spelling of a short word: decode it (never longer than klen) */
    char buf[64];
    if (klen > sizeof buf)
        return false;
    size_t dn = sbx_jstr_decode(key, klen, buf);
    return dn == n && memcmp(buf, w, n) == 0;
}
