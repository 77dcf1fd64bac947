/* JSON argument vectors to shell-style command lines (model/argv.h). The
 * array is validated as it is read; each word is decoded straight into the
 * output and quoted there, in place. */
#include "model/argv.h"

#include <stdint.h>
#include <string.h>

#include "base/jsonstr.h"

static bool safe_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c >= 0x80 || (c && strchr("@%+=:,./-_", c));
}

bool sbx_argv_word_plain(const char *w, size_t n)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n;) {
        if (w[i] == '*') {
            size_t run = 0;
            while (i + run < n && w[i + run] == '*')
                run++;
            if (run != 3)
                return false;
            i += run;
            continue;
        }
        if (!safe_byte((unsigned char)w[i]))
            return false;
        i++;
    }
    return true;
}

/* Whether "…" keeps w literally and is worth it: w holds a single quote
 * (else '…' reads as well) and nothing "…" would expand or unescape. */
static bool double_quotable(const char *w, size_t n)
{
    bool quote = false;
    for (size_t i = 0; i < n; i++) {
        char c = w[i];
        if (c == '\'')
            quote = true;
        else if (c == '"' || c == '$' || c == '`')
            return false;
        else if (c == '\\' && (i + 1 == n || strchr("$`\"\\\n", w[i + 1])))
            return false;
    }
    return quote;
}

/* Writes the word whose JSON body is body[0..len) at o; returns the end. */
static char *put_word(char *o, const char *body, size_t len)
{
    char *w = o + 1; /* room for an opening quote */
    size_t n = sbx_jstr_decode(body, len, w);
    if (sbx_argv_word_plain(w, n)) {
        memmove(o, w, n);
        return o + n;
    }
    if (double_quotable(w, n)) {
        o[0] = '"';
        w[n] = '"';
        return w + n + 1;
    }
    size_t quotes = 0;
    for (size_t i = 0; i < n; i++)
        quotes += w[i] == '\'';
    /* each ' becomes '\'' : widen from the end */
    char *d = w + n + 3 * quotes;
    char *end = d + 1;
    *d = '\'';
    for (size_t i = n; i-- > 0;) {
        if (w[i] == '\'') {
            *--d = '\'';
            *--d = '\'';
            *--d = '\\';
            *--d = '\'';
        } else {
            *--d = w[i];
        }
    }
    o[0] = '\'';
    return end;
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* The closing quote of the JSON string body that starts at p, or NULL when
 * it is not a valid one (a control character, a bad escape, no end). */
static const char *string_end(const char *p, const char *end)
{
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            return p;
        if (c < 0x20)
            return NULL;
        if (c != '\\') {
            p++;
            continue;
        }
        if (end - p < 2)
            return NULL;
        char e = p[1];
        if (e == 'u') {
            if (end - p < 6 || !is_hex(p[2]) || !is_hex(p[3]) || !is_hex(p[4]) || !is_hex(p[5]))
                return NULL;
            p += 6;
        } else if (e && strchr("\"\\/bfnrt", e)) {
            p += 2;
        } else {
            return NULL;
        }
    }
    return NULL;
}

size_t sbx_argv_format(const char *json, size_t n, char *dst)
{
    const char *end = json + n;
    const char *p = skip_ws(json, end);
    char *o = dst;
    if (p == end || *p != '[')
        return SIZE_MAX;
    p = skip_ws(p + 1, end);
    if (p < end && *p == ']') {
        p++;
    } else {
        for (;;) {
            if (p == end || *p != '"')
                return SIZE_MAX;
            const char *q = string_end(p + 1, end);
            if (!q)
                return SIZE_MAX;
            if (o != dst)
                *o++ = ' ';
            o = put_word(o, p + 1, (size_t)(q - p - 1));
            p = skip_ws(q + 1, end);
            if (p == end)
                return SIZE_MAX;
            if (*p == ']') {
                p++;
                break;
            }
            if (*p != ',')
                return SIZE_MAX;
            p = skip_ws(p + 1, end);
        }
    }
    return skip_ws(p, end) == end ? (size_t)(o - dst) : SIZE_MAX;
}
