#include "render/summary/wrap.h"

#include <stdint.h>

#include "base/utf8.h"
#include "render/sanitize.h"

/* The bytes of the character at s[i] (the text is valid UTF-8: sanitised). */
static size_t char_len(const char *s, size_t n, size_t i)
{
    uint32_t cp;
    size_t len = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
    return len ? len : 1;
}

size_t sbx_wrap_next(const char *s, size_t n, size_t from, int avail, struct sbx_wrap_row *row)
{
    size_t i = from, space = 0; /* space: just after the last space in reach, 0 if none */
    int cols = 0, space_cols = 0;
    while (i < n) {
        size_t len = char_len(s, n, i);
        int w = sbx_text_width(s + i, len);
        if (cols + w > avail && i > from)
            break;
        cols += w;
        i += len;
        if (s[i - 1] == ' ') {
            space = i;
            space_cols = cols;
        }
    }
    size_t end = i, next = i;
    /* cut inside a word: break at the space before it, unless that leaves
     * the row less than half full (a long path is better cut than alone) */
    if (i < n && space > from && s[i] != ' ' && space_cols > avail / 2)
        end = next = space;
    while (end > from + 1 && s[end - 1] == ' ')
        end--;
    while (next < n && s[next] == ' ')
        next++;
    row->begin = from;
    row->end = end;
    return next;
}

int sbx_wrap_indent(const char *s, size_t n, int label_width, int cols)
{
    int indent = label_width;
    if (n && s[0] == ' ') {
        size_t lead = 0;
        while (lead < n && s[lead] == ' ')
            lead++;
        indent = (int)lead + 4;
    }
    return indent > cols / 2 ? cols / 2 : indent;
}
