#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* wcwidth */
#endif
#include "render/sanitize.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "analyses/hidden.h"
#include "base/utf8.h"

#define MAX_MARKS 2       /* combining marks kept per base character */
#define SEQ_SHOW 16       /* bytes of an escape sequence shown after the ESC */
#define SEQ_SHOW_LINK 64  /* … of an OSC 8 hyperlink, so its target can be read */
#define SEQ_SLACK 8       /* … or up to this many more, rather than "… +3 bytes" */
#define RUN_MAX 65536     /* bytes per text segment, so widths stay small */

static const char spaces[8] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
static const char hexd[] = "0123456789ABCDEF";

static bool variation_selector(uint32_t c)
{
    return (c >= 0x180b && c <= 0x180d) || c == 0x180f || (c >= 0xfe00 && c <= 0xfe0f) ||
           (c >= 0xe0100 && c <= 0xe01ef);
}

/* ASCII mode cannot ask wcwidth (the locale is not UTF-8): the combining
 * blocks that stacking abuse uses are listed instead. */
static bool combining_block(uint32_t c)
{
    return (c >= 0x300 && c <= 0x36f) || (c >= 0x1ab0 && c <= 0x1aff) ||
           (c >= 0x1dc0 && c <= 0x1dff) || (c >= 0x20d0 && c <= 0x20ff) ||
           (c >= 0xfe20 && c <= 0xfe2f);
}

void sbx_san_begin(struct sbx_sanitizer *z, const char *s, size_t n, unsigned flags)
{
    z->s = (const unsigned char *)s;
    z->n = s ? n : 0;
    z->i = 0;
    z->flags = flags;
    z->col = 0;
    z->marks = 0;
    z->base = false;
    z->vs_ok = false;
    z->hidden = false;
    z->steps = 0;
}

bool sbx_san_hidden(const struct sbx_sanitizer *z)
{
    return z->hidden;
}

/* ---- building escape text in z->esc ---- */

struct esc {
    char *p;
    size_t len;
    int width;
};

static void put(struct esc *e, const char *s, size_t n, int width)
{
    memcpy(e->p + e->len, s, n);
    e->len += n;
    e->width += width;
}

static void put_hex(struct esc *e, uint32_t v, int min_digits)
{
    char tmp[8];
    int k = 0;
    do {
        tmp[k++] = hexd[v & 0xf];
        v >>= 4;
    } while (v || k < min_digits);
    while (k)
        put(e, &tmp[--k], 1, 1);
}

static void put_uint(struct esc *e, size_t v)
{
    char tmp[24];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        put(e, &tmp[--k], 1, 1);
}

/* One raw byte, shown safely inside a token or as a control escape. */
static void put_byte(struct esc *e, unsigned char b)
{
    char t[2];
    if (b >= 0x20 && b < 0x7f) {
        t[0] = (char)b;
        put(e, t, 1, 1);
    } else if (b < 0x20 || b == 0x7f) {
        t[0] = '^';
        t[1] = b == 0x7f ? '?' : (char)(b + 0x40);
        put(e, t, 2, 2);
    } else {
        put(e, "\\x", 2, 2);
        put_hex(e, b, 2);
    }
}

static void put_codepoint(struct esc *e, uint32_t cp)
{
    put(e, "<U+", 3, 3);
    put_hex(e, cp, 4);
    put(e, ">", 1, 1);
}

static bool finish_escape(struct sbx_sanitizer *z, struct sbx_seg *seg, const struct esc *e,
                          size_t consumed)
{
    z->i += consumed;
    z->col = (z->col + e->width) % 8;
    z->base = false;
    z->marks = 0;
    z->vs_ok = false;
    seg->kind = SBX_SEG_ESCAPE;
    seg->text = z->esc;
    seg->len = e->len;
    seg->width = e->width;
    return true;
}

/* ESC at z->i: an ECMA-48 sequence as one inert token, or a lone ^[. */
static bool escape_sequence(struct sbx_sanitizer *z, struct sbx_seg *seg)
{
    const unsigned char *s = z->s;
    size_t n = z->n, i = z->i, j, cend, end;
    bool ascii = z->flags & SBX_SAN_ASCII;
    struct esc e = {z->esc, 0, 0};
    unsigned char c1 = i + 1 < n ? s[i + 1] : 0;
    size_t show = SEQ_SHOW;

    if (c1 == '[') { /* CSI: parameters, intermediates, one final byte */
        for (j = i + 2; j < n && s[j] >= 0x20 && s[j] <= 0x3f; j++)
            ;
        if (j < n && s[j] >= 0x40 && s[j] <= 0x7e)
            j++;
        cend = end = j;
    } else if (c1 == ']' || c1 == 'P' || c1 == 'X' || c1 == '^' || c1 == '_') {
        /* a command string: to BEL, ST (ESC \, 0x9C, U+009C), another ESC,
         * or the end of the field */
        if (c1 == ']' && n - i >= 4 && s[i + 2] == '8' && s[i + 3] == ';')
            show = SEQ_SHOW_LINK;
        cend = end = n;
        for (j = i + 2; j < n;) {
            unsigned char b = s[j];
            uint32_t cp;
            size_t len;
            if (b == 0x07) {
                cend = j;
                end = j + 1;
                break;
            }
            if (b == 0x1b) {
                cend = j;
                end = j + 1 < n && s[j + 1] == '\\' ? j + 2 : j;
                break;
            }
            if (b < 0x80) {
                j++;
                continue;
            }
            len = sbx_utf8_decode(s + j, n - j, &cp);
            if ((len == 0 && b == 0x9c) || (len == 2 && cp == 0x9c)) {
                cend = j;
                end = j + (len ? len : 1);
                break;
            }
            j += len ? len : 1;
        }
    } else if (c1 >= 0x20 && c1 <= 0x2f) { /* nF: intermediates, then a final byte */
        for (j = i + 2; j < n && s[j] >= 0x20 && s[j] <= 0x2f; j++)
            ;
        if (j < n && s[j] >= 0x30 && s[j] <= 0x7e)
            j++;
        cend = end = j;
    } else if (c1 >= 0x30 && c1 <= 0x7e) { /* Fp, Fe, Fs: two bytes */
        cend = end = i + 2;
    } else {
        put_byte(&e, 0x1b);
        return finish_escape(z, seg, &e, 1);
    }

    z->steps += end - i;
    if (ascii)
        put(&e, "<ESC", 4, 4);
    else
        put(&e, "\xe2\x9f\xa8" "ESC", 6, 4); /* ⟨ */
    /* a few bytes more are shown rather than counted */
    size_t stop = cend - (i + 1) > show + SEQ_SLACK ? i + 1 + show : cend;
    for (j = i + 1; j < stop; j++)
        put_byte(&e, s[j]);
    if (stop < cend) {
        if (ascii)
            put(&e, "...", 3, 3);
        else
            put(&e, "\xe2\x80\xa6", 3, 1); /* … */
        /* how much the token stands for, so a long hidden payload is noticed */
        char more[32];
        int n = snprintf(more, sizeof more, " +%zu bytes", cend - stop);
        put(&e, more, (size_t)n, n);
    }
    if (ascii)
        put(&e, ">", 1, 1);
    else
        put(&e, "\xe2\x9f\xa9", 3, 1); /* ⟩ */
    return finish_escape(z, seg, &e, end - i);
}

/* Marks past the cap: drop them all, counted in one escape. */
static bool dropped_marks(struct sbx_sanitizer *z, struct sbx_seg *seg)
{
    const unsigned char *s = z->s;
    size_t n = z->n, i = z->i, count = 0;
    bool ascii = z->flags & SBX_SAN_ASCII;
    while (i < n) {
        uint32_t cp;
        size_t len = sbx_utf8_decode(s + i, n - i, &cp);
        if (len < 2 || sbx_cp_invisible(cp) || variation_selector(cp) || cp < 0xa0)
            break;
        if (ascii ? !combining_block(cp) : wcwidth((wchar_t)cp) != 0)
            break;
        count++;
        i += len;
    }
    z->steps += i - z->i;
    struct esc e = {z->esc, 0, 0};
    put(&e, "<+", 2, 2);
    put_uint(&e, count);
    if (count == 1)
        put(&e, " mark>", 6, 6);
    else
        put(&e, " marks>", 7, 7);
    return finish_escape(z, seg, &e, i - z->i);
}

/* A run of characters that may be drawn as they are. */
static size_t text_run(struct sbx_sanitizer *z, int *width)
{
    const unsigned char *s = z->s;
    size_t n = z->n, i = z->i;
    bool ascii = z->flags & SBX_SAN_ASCII;
    int w = 0;
    if (n - i > RUN_MAX)
        n = i + RUN_MAX;
    while (i < n) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7f) {
            i++;
            w++;
            z->base = true;
            z->marks = 0;
            z->vs_ok = true;
            continue;
        }
        if (c < 0x80 || ascii)
            break;
        uint32_t cp;
        size_t len = sbx_utf8_decode(s + i, n - i, &cp);
        if (len == 0 || cp < 0xa0 || sbx_cp_invisible(cp))
            break;
        if (variation_selector(cp)) {
            if (!z->vs_ok)
                break;
            z->vs_ok = false;
            i += len;
            continue;
        }
        int cw = wcwidth((wchar_t)cp);
        if (cw < 0)
            break;
        if (cw == 0) {
            if (!z->base || z->marks >= MAX_MARKS)
                break;
            z->marks++;
            z->vs_ok = false;
            i += len;
            continue;
        }
        z->base = true;
        z->marks = 0;
        z->vs_ok = true;
        w += cw;
        i += len;
    }
    *width = w;
    z->steps += i - z->i;
    return i - z->i;
}

bool sbx_san_next(struct sbx_sanitizer *z, struct sbx_seg *seg)
{
    if (z->i >= z->n)
        return false;
    z->steps++;
    const unsigned char *s = z->s;
    bool ascii = z->flags & SBX_SAN_ASCII;
    int width;
    size_t len = text_run(z, &width);
    if (len) {
        seg->kind = SBX_SEG_TEXT;
        seg->text = (const char *)s + z->i;
        seg->len = len;
        seg->width = width;
        z->i += len;
        z->col = (z->col + width) % 8;
        return true;
    }

    unsigned char c = s[z->i];
    struct esc e = {z->esc, 0, 0};
    if (c == '\t') {
        int w = 8 - z->col % 8;
        seg->kind = SBX_SEG_TEXT;
        seg->text = spaces;
        seg->len = (size_t)w;
        seg->width = w;
        z->i++;
        z->col = 0;
        z->base = z->vs_ok = false;
        z->marks = 0;
        return true;
    }
    if (c == '\n') {
        if (!(z->flags & SBX_SAN_ONE_LINE)) {
            seg->kind = SBX_SEG_NEWLINE;
            seg->text = "\n";
            seg->len = 1;
            seg->width = 0;
            z->i++;
            z->col = 0;
            z->base = z->vs_ok = false;
            z->marks = 0;
            return true;
        }
        if (ascii)
            put(&e, "^J", 2, 2);
        else
            put(&e, "\xe2\x86\xb5", 3, 1); /* ↵ */
        return finish_escape(z, seg, &e, 1);
    }
    if (c == 0x1b)
        return escape_sequence(z, seg);
    if (c < 0x80) { /* other C0, DEL */
        put_byte(&e, c);
        return finish_escape(z, seg, &e, 1);
    }

    uint32_t cp;
    len = sbx_utf8_decode(s + z->i, z->n - z->i, &cp);
    if (len == 0) {
        put_byte(&e, c);
        return finish_escape(z, seg, &e, 1);
    }
    if (cp < 0xa0) { /* C1 */
        put(&e, "\\u", 2, 2);
        put_hex(&e, cp, 4);
        return finish_escape(z, seg, &e, len);
    }
    bool vs = variation_selector(cp);
    int cw = ascii ? (combining_block(cp) ? 0 : 1) : wcwidth((wchar_t)cp);
    if (sbx_cp_invisible(cp) || (vs && !z->vs_ok) || cw < 0) {
        z->hidden = true;
        put_codepoint(&e, cp);
        return finish_escape(z, seg, &e, len);
    }
    if (vs) { /* ASCII mode: a variation selector after its base, shown */
        unsigned marks = z->marks;
        put_codepoint(&e, cp);
        finish_escape(z, seg, &e, len);
        z->base = true;
        z->marks = marks;
        return true;
    }
    if (cw == 0) {
        if (z->base && z->marks >= MAX_MARKS)
            return dropped_marks(z, seg);
        if (!ascii) {
            /* no base to carry the mark: give it a dotted circle, then the
             * mark itself comes in the next text run */
            put(&e, "\xe2\x97\x8c", 3, 1); /* ◌ */
            finish_escape(z, seg, &e, 0);
            z->base = true;
            return true;
        }
        unsigned marks = z->base ? z->marks + 1 : 1;
        put_codepoint(&e, cp);
        finish_escape(z, seg, &e, len);
        z->base = true;
        z->marks = marks;
        return true;
    }
    /* ASCII mode: a printable non-ASCII character */
    put_codepoint(&e, cp);
    finish_escape(z, seg, &e, len);
    z->base = true;
    z->vs_ok = true;
    return true;
}

/* ---- whole strings ---- */

static int cp_width(uint32_t cp)
{
    if (cp == '\n')
        return 0;
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

int sbx_text_width(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    int64_t w = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] >= 0x20 && s[i] < 0x7f) {
            w++;
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = sbx_utf8_decode(s + i, n - i, &cp);
        if (len == 0) {
            w++;
            i++;
            continue;
        }
        w += cp_width(cp);
        i += len;
    }
    return w > INT_MAX ? INT_MAX : (int)w;
}

static void set_len(struct sbx_buf *b, size_t len)
{
    b->len = len;
    if (b->p)
        b->p[len] = '\0';
}

static bool sanitize(struct sbx_buf *out, const char *s, size_t n, unsigned flags, int max_cols,
                     size_t *steps)
{
    struct sbx_sanitizer z;
    struct sbx_seg seg;
    bool ascii = flags & SBX_SAN_ASCII;
    const char *ell = ascii ? "..." : "\xe2\x80\xa6";
    size_t ell_len = strlen(ell);
    int ell_w = ascii ? 3 : 1;
    if (max_cols > 0 && max_cols < ell_w) {
        ell = "";
        ell_len = 0;
        ell_w = 0;
    }
    int room = max_cols - ell_w; /* columns that can be followed by the ellipsis */
    int linew = 0;
    bool cut = false;
    size_t cut_pos = out->len; /* where the ellipsis goes if this line is cut */

    sbx_buf_reserve(out, n < 1024 ? n : 1024);
    sbx_san_begin(&z, s, n, flags);
    while (sbx_san_next(&z, &seg)) {
        if (seg.kind == SBX_SEG_NEWLINE) {
            sbx_buf_addc(out, '\n');
            linew = 0;
            cut = false;
            cut_pos = out->len;
            continue;
        }
        if (cut)
            continue;
        if (max_cols <= 0) {
            sbx_buf_add(out, seg.text, seg.len);
            continue;
        }
        if (linew + seg.width <= room) {
            sbx_buf_add(out, seg.text, seg.len);
            linew += seg.width;
            cut_pos = out->len;
            continue;
        }
        /* near the edge: character by character */
        const unsigned char *t = (const unsigned char *)seg.text;
        for (size_t i = 0; i < seg.len;) {
            uint32_t cp;
            size_t len = sbx_utf8_decode(t + i, seg.len - i, &cp);
            int cw = len ? cp_width(cp) : 1;
            if (!len)
                len = 1;
            if (linew + cw > max_cols) {
                set_len(out, cut_pos);
                sbx_buf_add(out, ell, ell_len);
                cut = true;
                break;
            }
            sbx_buf_add(out, t + i, len);
            linew += cw;
            if (linew <= room)
                cut_pos = out->len;
            i += len;
            z.steps += len;
        }
    }
    *steps = z.steps;
    return z.hidden;
}

bool sbx_sanitize(struct sbx_buf *out, const char *s, size_t n, unsigned flags, int max_cols)
{
    size_t steps;
    return sanitize(out, s, n, flags, max_cols, &steps);
}

size_t sbx_sanitize_work(const char *s, size_t n, unsigned flags, int max_cols)
{
    struct sbx_buf out = SBX_BUF_INIT;
    size_t steps;
    sanitize(&out, s, n, flags, max_cols, &steps);
    sbx_buf_free(&out);
    return steps;
}
