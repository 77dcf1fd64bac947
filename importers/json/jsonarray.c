/* Walking a validated array: whitespace, commas, strings (to their closing
 * quote, past escapes), and any other value skipped whole (nested ones by a
 * bracket count that steps over strings). */
#include "importers/json/jsonarray.h"

#include <string.h>

static inline bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The closing quote of the string body at p, or end. */
static const char *string_end(const char *p, const char *end)
{
    for (;;) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            return end;
        /* a quote ends the body unless an odd run of backslashes leads to it */
        const char *b = q;
        while (b > p && b[-1] == '\\')
            b--;
        if ((q - b) % 2 == 0)
            return q;
        p = q + 1;
    }
}

static const char *skip_value(const char *p, const char *end)
{
    size_t depth = 0;
    for (; p < end; p++) {
        char c = *p;
        if (c == '"') {
            p = string_end(p + 1, end);
            if (p == end)
                return end;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if (c == ']' || c == '}') {
            if (depth == 0)
                return p; /* the array's own ']' after a scalar */
            if (--depth == 0)
                return p + 1;
        } else if (depth == 0 && (c == ',' || is_ws(c))) {
            return p;
        }
    }
    return end;
}

void sbx_jarray_begin(struct sbx_jarray_it *it, const char *val, size_t val_len)
{
    it->end = val + val_len;
    it->p = val_len ? val + 1 : it->end;
}

bool sbx_jarray_next(struct sbx_jarray_it *it, struct sbx_jelem *el)
{
    const char *p = it->p, *end = it->end;
    while (p < end && (is_ws(*p) || *p == ','))
        p++;
    if (p >= end || *p == ']') {
        it->p = end;
        return false;
    }
    if (*p == '"') {
        el->string = true;
        el->body = p + 1;
        const char *q = string_end(p + 1, end);
        el->len = (size_t)(q - el->body);
        el->escaped = memchr(el->body, '\\', el->len) != NULL;
        it->p = q < end ? q + 1 : end;
        return true;
    }
    const char *q = skip_value(p, end);
    el->string = el->escaped = false;
    el->body = p;
    el->len = (size_t)(q - p);
    it->p = q > p ? q : p + 1;
    return true;
}
