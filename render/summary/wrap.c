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

/* The columns of the word at s[i..): up to the next space or the end. */
static int word_width(const char *s, size_t n, size_t i)
{
    size_t end = i;
    while (end < n && s[end] != ' ')
        end++;
    return sbx_text_width(s + i, end - i);
}

size_t sbx_wrap_next(const char *s, size_t n, size_t from, int avail, int cont, struct sbx_wrap_row *row)
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
    /* stopped inside a word: it goes whole onto the next row when it fits
     * there. One longer than a row is split: from the next row on when this
     * one is more than half full already, else from here */
    if (i < n && s[i] != ' ' && space > from &&
        (word_width(s, n, space) <= cont || space_cols > avail / 2))
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
