/* What may reach the terminal, checked cell by cell: the rules of
 * docs/hostile-inputs.md ("What reaches the terminal") written out again here,
 * independently of render/sanitize.c, for the grid and doc tests and the
 * grid fuzz target. Each check returns NULL when the grid is fine, or a
 * static string naming the first problem (and its row and column in *row,
 * *col). Needs a UTF-8 LC_CTYPE for wcwidth. Owns nothing. */
#ifndef SBX_TEST_CELLCHECK_H
#define SBX_TEST_CELLCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "render/grid.h"
#include "render/sanitize.h"

/* Decodes strict UTF-8 (no overlong, surrogate, > U+10FFFF, cut short);
 * returns the length, 0 when invalid. */
static inline size_t cc_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xe0) == 0xc0) {
        len = 2, v = c & 0x1fu, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        len = 3, v = c & 0x0fu, min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
        len = 4, v = c & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t k = 1; k < len; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[k] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

static inline bool cc_variation_selector(uint32_t cp)
{
    return (cp >= 0x180b && cp <= 0x180d) || cp == 0x180f || (cp >= 0xfe00 && cp <= 0xfe0f) ||
           (cp >= 0xe0100 && cp <= 0xe01ef);
}

/* A code point that may never be drawn, wherever it is: controls, C1, and
 * the invisible and bidi characters of the list (variation selectors are
 * judged by their place, in cc_cell). */
static inline bool cc_forbidden(uint32_t cp)
{
    if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
        return true;
    static const uint32_t ranges[][2] = {
        {0x00ad, 0x00ad}, {0x061c, 0x061c}, {0x115f, 0x1160}, {0x180e, 0x180e},
        {0x200b, 0x200f}, {0x2028, 0x202e}, {0x2060, 0x206f}, {0x3164, 0x3164},
        {0xfeff, 0xfeff}, {0xffa0, 0xffa0}, {0xfff9, 0xfffb}, {0xe0000, 0xe007f},
        {0xe000, 0xf8ff}, {0xf0000, 0xffffd}, {0x100000, 0x10fffd},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return true;
    return false;
}

/* One cell's text: valid UTF-8, a visible base character of the cell's
 * width, then at most two combining marks, or one variation selector right
 * after the base. */
static inline const char *cc_cell(const struct sbx_cell *c, bool ascii)
{
    const unsigned char *s = (const unsigned char *)c->text;
    if (c->len == 0 || c->len >= sizeof c->text)
        return "empty or overlong cell";
    uint32_t cp;
    size_t i = cc_decode(s, c->len, &cp);
    if (!i)
        return "invalid UTF-8 in a cell";
    if (cc_forbidden(cp) || cc_variation_selector(cp))
        return "a control or invisible character in a cell";
    if (ascii && cp >= 0x80)
        return "non-ASCII in an ASCII grid";
    int w = wcwidth((wchar_t)cp);
    if (w <= 0)
        return "a cell starts with no visible character";
    if (!ascii && w != c->width)
        return "the cell's width is not its character's";
    if (ascii && c->width != 1)
        return "a wide cell in an ASCII grid";
    int marks = 0;
    bool vs_ok = true;
    while (i < c->len) {
        size_t l = cc_decode(s + i, c->len - i, &cp);
        if (!l)
            return "invalid UTF-8 in a cell";
        if (cc_forbidden(cp))
            return "a control or invisible character in a cell";
        if (cc_variation_selector(cp)) {
            if (!vs_ok)
                return "a stray variation selector";
        } else if (wcwidth((wchar_t)cp) != 0) {
            return "two characters in one cell";
        } else if (++marks > 2) {
            return "more than two marks on a character";
        }
        vs_ok = false;
        i += l;
    }
    return NULL;
}

/* Every row of g: each cell fine, a wide character always followed by its
 * right half on the same row, a right half only after one, so the widths of
 * a row add up to exactly the columns. */
static inline const char *cc_grid(const struct sbx_grid *g, int *row, int *col)
{
    for (int r = 0; r < g->rows; r++) {
        int total = 0;
        for (int c = 0; c < g->cols; c++) {
            const struct sbx_cell *cell = sbx_grid_cat(g, r, c);
            *row = r;
            *col = c;
            if (cell->width == 0)
                return "the right half of a wide character with no left half";
            if (cell->style >= SBX_STYLE_COUNT)
                return "a style out of range";
            const char *why = cc_cell(cell, g->ascii);
            if (why)
                return why;
            total += cell->width;
            if (cell->width == 2) {
                const struct sbx_cell *right = sbx_grid_cat(g, r, c + 1);
                if (!right)
                    return "a wide character over the edge";
                if (right->width != 0 || right->len != 0)
                    return "a wide character without its right half";
                c++;
            }
        }
        if (total != g->cols)
            return "the widths of a row do not add up to the columns";
    }
    return NULL;
}

/* Random hostile text for the random tests: up to maxparts - 1 pieces of
 * the alphabet (in must hold maxparts times the longest piece), chosen by
 * the xorshift state *x, which moves on. Returns the length. */
static inline size_t cc_random_text(uint64_t *x, const char *const *alphabet, size_t nalpha,
                                    int maxparts, char *in)
{
    size_t n = 0;
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    int parts = (int)(*x % (uint64_t)maxparts);
    for (int p = 0; p < parts; p++) {
        *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
        const char *a = alphabet[*x % nalpha];
        memcpy(in + n, a, strlen(a));
        n += strlen(a);
    }
    return n;
}

#endif
