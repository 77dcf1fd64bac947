/* Tests for render/sanitize: docs/hostile-inputs.md rows 1-13 with exact output
 * (every edge of the invisible ranges, every control code), the segment
 * iterator, cutting at a column, ASCII mode, and the output
 * invariants over random bytes. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/sanitize.h"

/* Sanitises s (n bytes) and compares with want; returns the hidden flag. */
static bool san_n(const char *s, size_t n, unsigned flags, int max_cols, const char *want)
{
    struct sbx_buf b = SBX_BUF_INIT;
    bool hidden = sbx_sanitize(&b, s, n, flags, max_cols);
    const char *got = b.p ? b.p : "";
    if (strcmp(got, want) != 0 || b.len != strlen(want)) {
        struct sbx_buf esc = SBX_BUF_INIT;
        for (size_t i = 0; i < b.len; i++)
            sbx_buf_addf(&esc, (unsigned char)got[i] < 0x20 ? "\\%02x" : "%c", got[i]);
        fail_msg("got [%s], want [%s]", esc.p ? esc.p : "", want);
    }
    sbx_buf_free(&b);
    return hidden;
}

static bool san(const char *s, const char *want)
{
    return san_n(s, strlen(s), SBX_SAN_ONE_LINE, 0, want);
}

static void row1_osc52_clipboard(void **state)
{
    (void)state;
    assert_false(san("\x1b]52;c;SGVsbG8gd29ybGQ=\x07" "after",
                     "⟨ESC]52;c;SGVsbG8gd29ybGQ=⟩after"));
    assert_false(san("\x1b]52;c;?\x1b\\", "⟨ESC]52;c;?⟩"));
    /* a long payload is cut, and the token says how much it hides */
    char in[600], want[64];
    memset(in, 'A', sizeof in);
    memcpy(in, "\x1b]52;c;", 7);
    in[sizeof in - 1] = '\0';
    snprintf(want, sizeof want, "⟨ESC]52;c;AAAAAAAAAA… +%zu bytes⟩", sizeof in - 2 - 16);
    assert_false(san(in, want));
}

static void row2_title(void **state)
{
    (void)state;
    san("\x1b]0;pwned\x07x", "⟨ESC]0;pwned⟩x");
    san("\x1b]2;owned\x1b\\y", "⟨ESC]2;owned⟩y");
    san("a\x1b[21tb", "a⟨ESC[21t⟩b");
    /* ST as the C1 code point U+009C and as a raw 0x9C byte */
    san("\x1b]0;t\xc2\x9cz", "⟨ESC]0;t⟩z");
    san("\x1b]0;t\x9cz", "⟨ESC]0;t⟩z");
    /* a 0x9C inside a real character (U+00DC) does not end the string */
    san("\x1b]0;\xc3\x9c\x07z", "⟨ESC]0;\\xC3\\x9C⟩z");
}

static void row3_answerback(void **state)
{
    (void)state;
    san("\x1b]50;?\x07", "⟨ESC]50;?⟩");
    san("\x1bP$qm\x1b\\rest", "⟨ESCP$qm⟩rest");
    san("\x1b[c\x1b[6n\x1b[>c", "⟨ESC[c⟩⟨ESC[6n⟩⟨ESC[>c⟩");
    san("\x1b" "c\x1b(B\x1b#8", "⟨ESCc⟩⟨ESC(B⟩⟨ESC#8⟩");
    san("\x1bX sos \x1b\\\x1b^pm\x1b\\\x1b_apc\x07.", "⟨ESCX sos ⟩⟨ESC^pm⟩⟨ESC_apc⟩.");
}

static void row4_osc8_link(void **state)
{
    (void)state;
    san("\x1b]8;;https://evil.example/steal?x=1\x1b\\Click here\x1b]8;;\x1b\\",
        "⟨ESC]8;;https://evil.example/steal?x=1⟩Click here⟨ESC]8;;⟩");
    /* the target is shown up to 64 bytes */
    char in[200], want[200];
    snprintf(in, sizeof in, "\x1b]8;;https://%s\x07", "aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeeeffffffffff");
    snprintf(want, sizeof want, "⟨ESC]8;;https://%s⟩", "aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeeeffffffffff");
    san(in, want);
}

static void row5_fake_screen(void **state)
{
    (void)state;
    san("\x1b[2J\x1b[HAll tests passed", "⟨ESC[2J⟩⟨ESC[H⟩All tests passed");
    const char *in = "FAILED 3\n\x1b[2J\x1b[1;1HAll tests passed\nreal line";
    san_n(in, strlen(in), 0, 0, "FAILED 3\n⟨ESC[2J⟩⟨ESC[1;1H⟩All tests passed\nreal line");
    /* colour is shown, not applied */
    san("\x1b[1;31mred\x1b[0m", "⟨ESC[1;31m⟩red⟨ESC[0m⟩");
}

static void row6_c1(void **state)
{
    (void)state;
    san("a\xc2\x9b" "2Jb", "a\\u009B2Jb");
    san("a\x9b" "2Jb", "a\\x9B2Jb");
    san("\xc2\x80\xc2\x85\xc2\x9f", "\\u0080\\u0085\\u009F");
}

static void row7_clipped_sequence(void **state)
{
    (void)state;
    san("ok \x1b]52;c;SGVs", "ok ⟨ESC]52;c;SGVs⟩");
    san("ok \x1b[3", "ok ⟨ESC[3⟩");
    san("ok \x1b[", "ok ⟨ESC[⟩");
    san("ok \x1b", "ok ^[");
    san("ok \x1bP", "ok ⟨ESCP⟩");
    /* a control byte ends a CSI early; it is shown on its own */
    san("\x1b[1\r2", "⟨ESC[1⟩^M2");
    /* an ESC inside a string ends it, and starts the next token */
    san("\x1b]0;a\x1b[2Jb", "⟨ESC]0;a⟩⟨ESC[2J⟩b");
    /* controls inside a token are escaped too */
    san("\x1b]0;a\rb\x7f\xff\x07", "⟨ESC]0;a^Mb^?\\xFF⟩");
}

static void row8_overstrike(void **state)
{
    (void)state;
    san("progress\r100%", "progress^M100%");
    san("abc\b\b\bxyz", "abc^H^H^Hxyz");
    san("a\x7f", "a^?");
    static const char nul[] = "a\0b\x01\x1f";
    san_n(nul, sizeof nul - 1, SBX_SAN_ONE_LINE, 0, "a^@b^A^_");
    san("line\r\n", "line^M↵");
    san("a\nb", "a↵b");
    san_n("a\nb", 3, 0, 0, "a\nb");
    san("\x1b\x1b[A", "^[⟨ESC[A⟩");
}

static void row9_bidi(void **state)
{
    (void)state;
    assert_true(san("rm -rf / \xe2\x80\xae# safe", "rm -rf / <U+202E># safe"));
    assert_true(san("\xe2\x81\xa6x\xe2\x81\xa7y\xe2\x81\xa8z\xe2\x81\xa9",
                    "<U+2066>x<U+2067>y<U+2068>z<U+2069>"));
    assert_true(san("\xd8\x9c", "<U+061C>"));
    assert_false(san("plain ascii", "plain ascii"));
}

static void row10_zero_width_and_tags(void **state)
{
    (void)state;
    assert_true(san("pass\xe2\x80\x8bword", "pass<U+200B>word"));
    assert_true(san("\xef\xbb\xbfstart", "<U+FEFF>start"));
    /* tag characters spelling "hi" */
    assert_true(san("x\xf3\xa0\x81\xa8\xf3\xa0\x81\xa9", "x<U+E0068><U+E0069>"));
    assert_true(san("soft\xc2\xadhyphen", "soft<U+00AD>hyphen"));
    assert_true(san("\xe3\x85\xa4|\xef\xbe\xa0|\xe1\x85\x9f", "<U+3164>|<U+FFA0>|<U+115F>"));
    assert_true(san("\xee\x80\x80", "<U+E000>"));      /* private use */
    assert_true(san("\xcd\xb8", "<U+0378>"));          /* unassigned: wcwidth < 0 */
    assert_true(san("\xef\xbf\xb9", "<U+FFF9>"));
    /* a variation selector right after its base is fine; a second, or one
     * with nothing before it, is stray (and a way to smuggle data) */
    assert_false(san("\xe2\x9d\xa4\xef\xb8\x8f ok", "\xe2\x9d\xa4\xef\xb8\x8f ok"));
    assert_true(san("\xe2\x9d\xa4\xef\xb8\x8f\xef\xb8\x8f", "\xe2\x9d\xa4\xef\xb8\x8f<U+FE0F>"));
    assert_true(san("\xef\xb8\x8f", "<U+FE0F>"));
    assert_true(san("a\xf3\xa0\x84\x80\xf3\xa0\x84\x81", "a\xf3\xa0\x84\x80<U+E0101>"));
}

/* One character with `count` combining marks, checked for its output. */
static void flood_checked(int count)
{
    struct sbx_buf in = SBX_BUF_INIT, out = SBX_BUF_INIT;
    sbx_buf_adds(&in, "e");
    for (int i = 0; i < count; i++)
        sbx_buf_adds(&in, "\xcc\x81");
    sbx_sanitize(&out, in.p, in.len, 0, 0);
    char want[64];
    snprintf(want, sizeof want, "e\xcc\x81\xcc\x81<+%d marks>", count - 2);
    bool same = strcmp(out.p, want) == 0;
    sbx_buf_free(&in);
    sbx_buf_free(&out);
    assert_true(same);
}

/* The sanitizer's work over `unit` repeated to `size` bytes, after `head`. */
static size_t work_of(const char *head, const char *unit, size_t size, unsigned flags, int cols)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, head);
    while (b.len < size)
        sbx_buf_adds(&b, unit);
    size_t w = sbx_sanitize_work(b.p, b.len, flags, cols);
    sbx_buf_free(&b);
    return w;
}

/* Every shape of hostile text, 64 KiB and twice that, with and without a
 * cut and in both modes: doubling the input at most doubles the work, plus
 * a constant (a quadratic step would quadruple it), and the work is a few
 * steps a byte (and at least one every 8 bytes: every segment counts). */
static void work_is_linear(void **state)
{
    (void)state;
    static const struct {
        const char *head, *unit;
    } shapes[] = {
        {"e", "\xcc\x81"},                    /* marks on one base */
        {"", "\xcc\x81"},                     /* marks on nothing */
        {"", "e\xcc\x81\xcc\x81\xcc\x81"},      /* a mark over the cap on every base */
        {"\x1b]52;c;", "QUJD"},               /* an OSC that never ends */
        {"", "\x1b[31m"},                     /* escapes */
        {"", "\x1b"},                         /* lone ESCs */
        {"", "\xff\xc0\xed\xa0\x80"},          /* invalid UTF-8 */
        {"", "\t"},                           /* tabs */
        {"", "a\n"},                          /* lines */
        {"", "\xe2\x80\xae\xef\xb8\x8f"},      /* bidi and stray selectors */
        {"", "\xe4\xb8\xad"},                  /* wide characters */
        {"", "plain text "},
    };
    static const struct {
        unsigned flags;
        int cols;
    } modes[] = {{0, 0}, {0, 40}, {SBX_SAN_ONE_LINE, 7}, {SBX_SAN_ASCII, 0}, {SBX_SAN_ASCII | SBX_SAN_ONE_LINE, 80}};
    const size_t n = 1u << 16;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
            size_t small = work_of(shapes[i].head, shapes[i].unit, n, modes[m].flags, modes[m].cols);
            size_t big = work_of(shapes[i].head, shapes[i].unit, 2 * n, modes[m].flags, modes[m].cols);
            if (small < n / 8 || big > 2 * small + 64 || big > 8 * 2 * n)
                fail_msg("shape %zu, mode %zu: %zu steps for %zu bytes, %zu for twice that", i, m,
                         small, n, big);
        }
}

static void row11_combining_flood(void **state)
{
    (void)state;
    struct sbx_buf in = SBX_BUF_INIT;
    sbx_buf_adds(&in, "e");
    for (int i = 0; i < 5000; i++)
        sbx_buf_adds(&in, "\xcc\x81"); /* U+0301 */
    sbx_buf_adds(&in, "x");
    assert_false(san_n(in.p, in.len, SBX_SAN_ONE_LINE, 0, "e\xcc\x81\xcc\x81<+4998 marks>x"));
    san("e\xcc\x81\xcc\x81\xcc\x81", "e\xcc\x81\xcc\x81<+1 mark>");
    /* a mark with nothing to sit on gets a dotted circle */
    san("\xcc\x81" "a", "◌\xcc\x81" "a");
    san("\x01\xcc\x81", "^A◌\xcc\x81");

    /* a million marks are one escape (work_is_linear counts the steps) */
    flood_checked(1000000);
    sbx_buf_free(&in);
}

static void row12_wide_at_edge(void **state)
{
    (void)state;
    const char *s = "ab\xe4\xb8\xad"; /* ab中 */
    san_n(s, strlen(s), 0, 4, "ab\xe4\xb8\xad");
    san_n(s, strlen(s), 0, 3, "ab…");
    san_n(s, strlen(s), 0, 2, "a…");
    san_n(s, strlen(s), 0, 1, "…");
    s = "a\xe4\xb8\xad" "b"; /* a中b */
    san_n(s, strlen(s), 0, 3, "a…");
    san_n(s, strlen(s), 0, 4, "a\xe4\xb8\xad" "b");
    /* an emoji ZWJ sequence: the joiners are visible, so columns are exact */
    s = "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9";
    assert_true(san(s, "\xf0\x9f\x91\xa8<U+200D>\xf0\x9f\x91\xa9"));
    san_n(s, strlen(s), 0, 11, "\xf0\x9f\x91\xa8<U+200D>…");
    san_n(s, strlen(s), 0, 12, "\xf0\x9f\x91\xa8<U+200D>\xf0\x9f\x91\xa9");
    /* marks stay with their base at the cut */
    san_n("ae\xcc\x81xyz", 7, 0, 3, "ae\xcc\x81…");
    /* each line is cut on its own */
    san_n("abcdef\nxy\nabcdefgh", 18, 0, 4, "abc…\nxy\nabc…");
    /* hidden text past the cut is still reported */
    struct sbx_buf b = SBX_BUF_INIT;
    assert_true(sbx_sanitize(&b, "abcdef\xe2\x80\xae", 9, 0, 3));
    assert_string_equal(b.p, "ab…");
    sbx_buf_free(&b);
    /* escapes are cut like text */
    san_n("\x1b[2Jabc", 7, 0, 5, "⟨ESC…");
}

static void row13_invalid_utf8(void **state)
{
    (void)state;
    san("a\xff" "b", "a\\xFFb");
    san("\xc0\xaf", "\\xC0\\xAF");            /* overlong '/' */
    san("\xed\xa0\x80", "\\xED\\xA0\\x80");     /* surrogate */
    san("\xf4\x90\x80\x80", "\\xF4\\x90\\x80\\x80"); /* > U+10FFFF */
    san("\xe0\x80\xaf", "\\xE0\\x80\\xAF");     /* overlong */
    san("\xf0\x80\x80\xaf", "\\xF0\\x80\\x80\\xAF");
    san("ok \xe4\xb8", "ok \\xE4\\xB8");         /* cut by the clip */
    san("\xe4\xb8 rest", "\\xE4\\xB8 rest");
    san("\xf0\x9f\x98", "\\xF0\\x9F\\x98");
    san("\xf8\x88\x80\x80\x80", "\\xF8\\x88\\x80\\x80\\x80");
    san("\xe4\xb8\xad", "\xe4\xb8\xad");
}

/* UTF-8 of code point cp into b (at least 5 bytes). */
static const char *utf8(uint32_t cp, char *b)
{
    if (cp < 0x80) {
        b[0] = (char)cp, b[1] = 0;
    } else if (cp < 0x800) {
        b[0] = (char)(0xc0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3f)), b[2] = 0;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xe0 | cp >> 12), b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        b[2] = (char)(0x80 | (cp & 0x3f)), b[3] = 0;
    } else {
        b[0] = (char)(0xf0 | cp >> 18), b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        b[2] = (char)(0x80 | (cp >> 6 & 0x3f)), b[3] = (char)(0x80 | (cp & 0x3f)), b[4] = 0;
    }
    return b;
}

/* Rows 9 and 10, every edge of every range the list names: each is shown
 * as its code point and flagged, and the visible characters just outside
 * the ranges pass as they are. */
static void invisible_ranges_every_edge(void **state)
{
    (void)state;
    static const uint32_t invisible[] = {
        0x00ad, 0x061c, 0x115f, 0x1160, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f,
        0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2061, 0x2064,
        0x2066, 0x2067, 0x2068, 0x2069, 0x206a, 0x206f, 0x3164, 0xfeff, 0xffa0, 0xfff9,
        0xfffa, 0xfffb, 0xe0000, 0xe0001, 0xe0020, 0xe007e, 0xe007f,
        0xe000, 0xf8ff, 0xf0000, 0xffffd, 0x100000, 0x10fffd, /* private use */
        0x0378, 0xfffe, 0x10ffff,                            /* wcwidth < 0 */
    };
    for (size_t i = 0; i < sizeof invisible / sizeof invisible[0]; i++) {
        char in[16], c[5], want[32];
        snprintf(in, sizeof in, "a%sb", utf8(invisible[i], c));
        snprintf(want, sizeof want, "a<U+%04X>b", (unsigned)invisible[i]);
        if (!san(in, want))
            fail_msg("U+%04X not flagged as hidden text", (unsigned)invisible[i]);
        /* and in ASCII mode, where wcwidth is not asked: there only the
         * characters the list names are known to be hidden */
        bool named = invisible[i] != 0x0378 && invisible[i] != 0xfffe && invisible[i] != 0x10ffff;
        if (!san_n(in, strlen(in), SBX_SAN_ASCII, 0, want) && named)
            fail_msg("ASCII mode: U+%04X not flagged", (unsigned)invisible[i]);
    }
    static const uint32_t visible[] = {0x00ac, 0x061b, 0x115e, 0x180a, 0x1810, 0x200a, 0x2027,
                                       0x202f, 0x205f, 0x2070, 0x3163, 0x3165, 0xff9f, 0xffa1,
                                       0xfffc, 0xf900, 0xfdff, 0xfe10};
    for (size_t i = 0; i < sizeof visible / sizeof visible[0]; i++) {
        char in[16], c[5];
        snprintf(in, sizeof in, "a%sb", utf8(visible[i], c));
        if (san(in, in))
            fail_msg("U+%04X flagged as hidden text", (unsigned)visible[i]);
    }
}

/* Variation selectors: one right after a base character is part of it;
 * anywhere else it is stray, shown and flagged. */
static void variation_selectors_by_place(void **state)
{
    (void)state;
    static const uint32_t vs[] = {0x180b, 0x180c, 0x180d, 0x180f, 0xfe00, 0xfe0f, 0xe0100, 0xe01ef};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
        char c[5], in[32], want[64];
        utf8(vs[i], c);
        snprintf(in, sizeof in, "a%s", c);
        if (san(in, in))
            fail_msg("U+%04X after a base flagged", (unsigned)vs[i]);
        snprintf(in, sizeof in, "%s", c);
        snprintf(want, sizeof want, "<U+%04X>", (unsigned)vs[i]);
        assert_true(san(in, want));
        snprintf(in, sizeof in, "a%s%s", c, c);
        snprintf(want, sizeof want, "a%s<U+%04X>", c, (unsigned)vs[i]);
        assert_true(san(in, want));
        /* after an escape there is no base */
        snprintf(in, sizeof in, "\x01%s", c);
        snprintf(want, sizeof want, "^A<U+%04X>", (unsigned)vs[i]);
        assert_true(san(in, want));
    }
}

/* Rows 6 and 8, every code: each C0 control but TAB and LF is ^X, DEL ^?,
 * each C1 code point \u00XX, each lone continuation or C1 byte \xNN. */
static void every_control(void **state)
{
    (void)state;
    for (int c = 0; c < 0x20; c++) {
        if (c == '\t' || c == '\n' || c == 0x1b)
            continue;
        char in[4] = {'x', (char)c, 'y', 0}, want[8];
        snprintf(want, sizeof want, "x^%cy", c + '@');
        assert_false(san_n(in, 3, SBX_SAN_ONE_LINE, 0, want));
        assert_false(san_n(in, 3, SBX_SAN_ASCII, 0, want));
    }
    san("x\x7fy", "x^?y");
    for (uint32_t cp = 0x80; cp <= 0x9f; cp++) {
        char c[5], in[16], want[32];
        snprintf(in, sizeof in, "x%sy", utf8(cp, c));
        snprintf(want, sizeof want, "x\\u%04Xy", (unsigned)cp);
        san(in, want);
    }
    for (int b = 0x80; b <= 0xff; b++) {
        if (b >= 0xc2 && b <= 0xf4)
            continue; /* lead bytes: their own tests cut them short */
        char in[4] = {'x', (char)b, 'y', 0}, want[16];
        snprintf(want, sizeof want, "x\\x%02Xy", b);
        san(in, want);
    }
}

static void test_tabs(void **state)
{
    (void)state;
    san("a\tb", "a       b");
    san("\tb", "        b");
    san("abcdefgh\tb", "abcdefgh        b");
    san("\xe4\xb8\xad\tb", "\xe4\xb8\xad      b"); /* the wide char counts 2 */
    san_n("abc\n\tx", 6, 0, 0, "abc\n        x"); /* counted from the line's start */
    san("^[\t", "^[      ");
}

static void test_segments(void **state)
{
    (void)state;
    setlocale(LC_CTYPE, "C.UTF-8");
    const char *in = "ab\xe4\xb8\xad\x1b[1m\r\ncd\xe2\x80\xae";
    struct sbx_sanitizer z;
    struct sbx_seg seg;
    sbx_san_begin(&z, in, strlen(in), 0);
    static const struct {
        enum sbx_seg_kind kind;
        const char *text;
        int width;
    } want[] = {
        {SBX_SEG_TEXT, "ab\xe4\xb8\xad", 4}, {SBX_SEG_ESCAPE, "⟨ESC[1m⟩", 8},
        {SBX_SEG_ESCAPE, "^M", 2},          {SBX_SEG_NEWLINE, "\n", 0},
        {SBX_SEG_TEXT, "cd", 2},            {SBX_SEG_ESCAPE, "<U+202E>", 8},
    };
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        assert_true(sbx_san_next(&z, &seg));
        assert_int_equal(seg.kind, want[k].kind);
        assert_int_equal(seg.len, strlen(want[k].text));
        assert_memory_equal(seg.text, want[k].text, seg.len);
        assert_int_equal(seg.width, want[k].width);
        assert_int_equal(sbx_text_width(seg.text, seg.len), seg.width);
        assert_int_equal(sbx_san_hidden(&z), k == 5);
    }
    assert_false(sbx_san_next(&z, &seg));
    assert_false(sbx_san_next(&z, &seg));
    /* text segments point into the input */
    sbx_san_begin(&z, in, strlen(in), 0);
    assert_true(sbx_san_next(&z, &seg));
    assert_ptr_equal(seg.text, in);
    /* empty input */
    sbx_san_begin(&z, "", 0, 0);
    assert_false(sbx_san_next(&z, &seg));
    sbx_san_begin(&z, NULL, 0, 0);
    assert_false(sbx_san_next(&z, &seg));
}

static void test_ascii_mode(void **state)
{
    (void)state;
    unsigned f = SBX_SAN_ONE_LINE | SBX_SAN_ASCII;
    const char *s = "caf\xc3\xa9 \xe4\xb8\xad\n\x1b[2J\xe2\x80\xae\xff";
    assert_true(san_n(s, strlen(s), f, 0, "caf<U+00E9> <U+4E2D>^J<ESC[2J><U+202E>\\xFF"));
    assert_false(san_n("\x1b]52;c;SGVsbG8gd29ybGQ=", 24, f, 0, "<ESC]52;c;SGVsbG8gd29ybGQ=^@>"));
    /* marks are capped too; a variation selector after a base is not hidden */
    s = "e\xcc\x81\xcc\x81\xcc\x81\xcc\x81";
    assert_false(san_n(s, strlen(s), f, 0, "e<U+0301><U+0301><+2 marks>"));
    s = "\xe2\x9d\xa4\xef\xb8\x8f";
    assert_false(san_n(s, strlen(s), f, 0, "<U+2764><U+FE0F>"));
    s = "x\xef\xb8\x8f\xef\xb8\x8f";
    assert_true(san_n(s, strlen(s), f, 0, "x<U+FE0F><U+FE0F>"));
    san_n("abcdefgh", 8, f, 6, "abc...");
    san_n("abcdefgh", 8, f, 2, "ab");
    san_n("\xe4\xb8\xad", 3, f, 6, "<U+...");
}

static void test_text_width(void **state)
{
    (void)state;
    assert_int_equal(sbx_text_width("", 0), 0);
    assert_int_equal(sbx_text_width("abc", 3), 3);
    assert_int_equal(sbx_text_width("\xe4\xb8\xad", 3), 2);
    assert_int_equal(sbx_text_width("e\xcc\x81", 3), 1);
    assert_int_equal(sbx_text_width("⟨ESC⟩…↵◌", strlen("⟨ESC⟩…↵◌")), 8);
    assert_int_equal(sbx_text_width("a\nb", 3), 2);
    assert_int_equal(sbx_text_width("\xff", 1), 1);
}

/* Strict UTF-8 check, written independently of the sanitizer's decoder. */
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
        i += len;
    }
    return true;
}

/* Checks the invariants the fuzz target checks, over random short strings
 * drawn from a hostile alphabet. */
static void check_output(const char *p, size_t len, unsigned flags, int max_cols)
{
    const unsigned char *s = (const unsigned char *)p;
    int linew = 0;
    assert_true(valid_utf8(s, len));
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        assert_true(c != 0x1b && c != 0x7f);
        if (c == '\n') {
            assert_false(flags & SBX_SAN_ONE_LINE);
            linew = 0;
            i++;
            continue;
        }
        assert_true(c >= 0x20);
        if (flags & SBX_SAN_ASCII)
            assert_true(c < 0x80);
        size_t n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
        assert_true(i + n <= len);
        assert_true(sbx_text_width(p + i, n) >= 0);
        /* a C1 control would be C2 80..C2 9F */
        assert_false(c == 0xc2 && s[i + 1] < 0xa0);
        linew += sbx_text_width(p + i, n);
        i += n;
    }
    if (max_cols > 0)
        assert_true(linew <= max_cols);
}

static void test_random_invariants(void **state)
{
    (void)state;
    static const char *const alphabet[] = {
        "a", " ", "\t", "\n", "\r", "\x1b", "[", "]", "P", "\\", "\x07", "\x9c", "\xc2\x9c",
        "\xc2\x9b", "\xff", "\xe4\xb8\xad", "\xcc\x81", "\xef\xb8\x8f", "\xe2\x80\xae",
        "\xf3\xa0\x81\xa8", "\xe4\xb8", "\x00", "8;", "\x7f", "\xf0\x9f\x91\xa8",
    };
    uint64_t x = 0x9e3779b97f4a7c15u;
    char in[64];
    for (int iter = 0; iter < 100000; iter++) {
        size_t n = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int parts = (int)(x % 12);
        for (int p = 0; p < parts; p++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            const char *a = alphabet[x % (sizeof alphabet / sizeof *alphabet)];
            size_t al = *a ? strlen(a) : 1;
            memcpy(in + n, a, al);
            n += al;
        }
        unsigned flags = (unsigned)(x >> 20) & 3u;
        int max_cols = (int)((x >> 24) % 12);
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_sanitize(&b, in, n, flags, max_cols);
        check_output(b.p ? b.p : "", b.len, flags, max_cols);
        sbx_buf_free(&b);
    }
}

static int setup(void **state)
{
    (void)state;
    return setlocale(LC_CTYPE, "C.UTF-8") ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(row1_osc52_clipboard),
        cmocka_unit_test(row2_title),
        cmocka_unit_test(row3_answerback),
        cmocka_unit_test(row4_osc8_link),
        cmocka_unit_test(row5_fake_screen),
        cmocka_unit_test(row6_c1),
        cmocka_unit_test(row7_clipped_sequence),
        cmocka_unit_test(row8_overstrike),
        cmocka_unit_test(row9_bidi),
        cmocka_unit_test(row10_zero_width_and_tags),
        cmocka_unit_test(row11_combining_flood),
        cmocka_unit_test(work_is_linear),
        cmocka_unit_test(row12_wide_at_edge),
        cmocka_unit_test(row13_invalid_utf8),
        cmocka_unit_test(invisible_ranges_every_edge),
        cmocka_unit_test(variation_selectors_by_place),
        cmocka_unit_test(every_control),
        cmocka_unit_test(test_tabs),
        cmocka_unit_test(test_segments),
        cmocka_unit_test(test_ascii_mode),
        cmocka_unit_test(test_text_width),
        cmocka_unit_test(test_random_invariants),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
