/* Fuzz target for render/sanitize: the output is valid UTF-8 with no
 * control (LF only in multi-line mode), no DEL, no C1, no ESC, ASCII only in
 * ASCII mode, each line at most max_cols wide, and the segments agree with
 * the whole-string function, and sanitising the output again changes
 * nothing. The first byte picks flags and max_cols. */
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/sanitize.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        abort();
    return 0;
}

static bool valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len;
        uint32_t cp, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            len = 2, cp = c & 0x1fu, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            len = 3, cp = c & 0x0fu, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            len = 4, cp = c & 0x07u, min = 0x10000;
        } else {
            return false;
        }
        if (n - i < len)
            return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3fu);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        if (cp >= 0x80 && cp <= 0x9f)
            return false; /* C1 */
        i += len;
    }
    return true;
}

static void check(const unsigned char *s, size_t n, unsigned flags, int max_cols, bool newline_ok)
{
    if (!valid_utf8(s, n))
        abort();
    size_t line = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '\n') {
            if (i < n && !newline_ok)
                abort();
            if (max_cols > 0 && sbx_text_width((const char *)s + line, i - line) > max_cols)
                abort();
            line = i + 1;
            continue;
        }
        if (s[i] < 0x20 || s[i] == 0x7f)
            abort();
        if ((flags & SBX_SAN_ASCII) && s[i] >= 0x80)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned flags = data[0] & 3u;
    int max_cols = (data[0] >> 2) % 48; /* 0 = no limit */
    const char *s = (const char *)data + 1;
    size_t n = size - 1;

    struct sbx_buf out = SBX_BUF_INIT;
    bool hidden = sbx_sanitize(&out, s, n, flags, max_cols);
    check((const unsigned char *)(out.p ? out.p : ""), out.len, flags, max_cols,
          !(flags & SBX_SAN_ONE_LINE));

    /* the iterator: each segment safe on its own, widths exact, and joined
     * they equal the uncut string */
    struct sbx_buf whole = SBX_BUF_INIT, joined = SBX_BUF_INIT;
    bool hidden_all = sbx_sanitize(&whole, s, n, flags, 0);
    struct sbx_sanitizer z;
    struct sbx_seg seg;
    sbx_san_begin(&z, s, n, flags);
    while (sbx_san_next(&z, &seg)) {
        const unsigned char *t = (const unsigned char *)seg.text;
        if (seg.kind == SBX_SEG_NEWLINE) {
            if ((flags & SBX_SAN_ONE_LINE) || seg.len != 1 || t[0] != '\n' || seg.width != 0)
                abort();
        } else {
            if (seg.len == 0 || seg.width < 0)
                abort();
            check(t, seg.len, flags, 0, false);
            if (sbx_text_width(seg.text, seg.len) != seg.width)
                abort();
        }
        sbx_buf_add(&joined, seg.text, seg.len);
    }
    if (hidden != hidden_all || sbx_san_hidden(&z) != hidden_all)
        abort();
    if (joined.len != whole.len || (whole.len && memcmp(joined.p, whole.p, whole.len) != 0))
        abort();
    /* sanitised text is a fixed point: safe to sanitise again */
    struct sbx_buf again = SBX_BUF_INIT;
    if (sbx_sanitize(&again, whole.p, whole.len, flags, 0))
        abort();
    if (again.len != whole.len || (whole.len && memcmp(again.p, whole.p, whole.len) != 0))
        abort();
    sbx_buf_free(&again);
    sbx_buf_free(&out);
    sbx_buf_free(&whole);
    sbx_buf_free(&joined);
    return 0;
}
