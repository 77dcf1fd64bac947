/* Tests for render/grid: safe and untrusted text put into cells, wide
 * characters never split at an edge, combining marks kept with their base,
 * escapes in the escape style, the ellipsis where text is cut, restyling
 * and search highlighting, and the dump --dump prints. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/grid.h"
#include "tests/unit/cellcheck.h"

/* The text of one row as the dump shows it (trailing blanks dropped). */
static char *row_text(const struct sbx_grid *g, int row)
{
    struct sbx_buf b = SBX_BUF_INIT;
    size_t keep = 0;
    for (int c = 0; c < g->cols; c++) {
        const struct sbx_cell *cell = sbx_grid_cat(g, row, c);
        sbx_buf_add(&b, cell->text, cell->len);
        if (!(cell->len == 1 && cell->text[0] == ' '))
            keep = b.len;
    }
    char *s = sbx_xstrndup(b.p ? b.p : "", keep);
    sbx_buf_free(&b);
    return s;
}

static void assert_row(const struct sbx_grid *g, int row, const char *want)
{
    char *got = row_text(g, row);
    if (strcmp(got, want) != 0)
        fail_msg("row %d: got [%s], want [%s]", row, got, want);
    free(got);
}

static void assert_sane(const struct sbx_grid *g)
{
    int r, c;
    const char *why = cc_grid(g, &r, &c);
    if (why)
        fail_msg("row %d col %d: %s", r, c, why);
}

/* The style of every cell of row in [c0, c1). */
static void assert_styles(const struct sbx_grid *g, int row, int c0, int c1, enum sbx_style s)
{
    for (int c = c0; c < c1; c++)
        if (sbx_grid_cat(g, row, c)->style != s)
            fail_msg("row %d col %d: style %s, want %s", row, c,
                     sbx_style_name((enum sbx_style)sbx_grid_cat(g, row, c)->style),
                     sbx_style_name(s));
}

static void make(struct sbx_grid *g, int cols, int rows, bool ascii)
{
    sbx_grid_init(g, ascii);
    sbx_grid_resize(g, cols, rows);
}

static void resize_and_bounds(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 4, 2, false);
    assert_int_equal(g.cols, 4);
    assert_int_equal(g.rows, 2);
    assert_non_null(sbx_grid_at(&g, 1, 3));
    assert_null(sbx_grid_at(&g, 2, 0));
    assert_null(sbx_grid_at(&g, 0, 4));
    assert_null(sbx_grid_at(&g, -1, 0));
    assert_null(sbx_grid_cat(&g, 0, -1));
    assert_sane(&g);
    sbx_grid_text(&g, 0, 0, 4, SBX_STYLE_LABEL, "abcd", 4);
    /* growing blanks everything; shrinking too */
    sbx_grid_resize(&g, 10, 3);
    assert_row(&g, 0, "");
    assert_styles(&g, 0, 0, 10, SBX_STYLE_NORMAL);
    sbx_grid_resize(&g, 1, 1);
    assert_sane(&g);
    sbx_grid_resize(&g, 0, 0);
    assert_null(sbx_grid_at(&g, 0, 0));
    /* writing outside is ignored */
    assert_int_equal(sbx_grid_text(&g, 5, 0, 10, SBX_STYLE_NORMAL, "x", 1), 0);
    sbx_grid_resize(&g, -3, -3);
    assert_int_equal(g.cols, 0);
    sbx_grid_free(&g);
}

static void safe_text(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 10, 2, false);
    assert_int_equal(sbx_grid_text(&g, 0, 2, 10, SBX_STYLE_LABEL, "abc", 3), 5);
    assert_row(&g, 0, "  abc");
    assert_styles(&g, 0, 2, 5, SBX_STYLE_LABEL);
    assert_styles(&g, 0, 5, 10, SBX_STYLE_NORMAL);
    /* stops at end, at a newline, and at the grid's edge */
    assert_int_equal(sbx_grid_text(&g, 1, 0, 3, SBX_STYLE_NORMAL, "abcdef", 6), 3);
    assert_row(&g, 1, "abc");
    assert_int_equal(sbx_grid_text(&g, 1, 0, 10, SBX_STYLE_NORMAL, "xy\nzzz", 6), 2);
    assert_row(&g, 1, "xyc");
    assert_int_equal(sbx_grid_text(&g, 1, 8, 99, SBX_STYLE_NORMAL, "123456", 6), 10);
    assert_row(&g, 1, "xyc     12");
    /* n is honoured, not the terminating NUL */
    sbx_grid_clear(&g, SBX_STYLE_NORMAL);
    assert_int_equal(sbx_grid_text(&g, 0, 0, 10, SBX_STYLE_NORMAL, "abcdef", 2), 2);
    assert_row(&g, 0, "ab");
    /* textf */
    assert_int_equal(sbx_grid_textf(&g, 1, 0, 10, SBX_STYLE_KEY, "%d/%s", 12, "ab"), 5);
    assert_row(&g, 1, "12/ab");
    assert_sane(&g);
    sbx_grid_free(&g);
}

static void wide_characters(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 5, 3, false);
    /* 中 is two columns: the cell holds it, the next is its right half */
    assert_int_equal(sbx_grid_text(&g, 0, 0, 5, SBX_STYLE_NORMAL, "a\xe4\xb8\xad" "b", 5), 4);
    const struct sbx_cell *c = sbx_grid_cat(&g, 0, 1);
    assert_int_equal(c->width, 2);
    assert_int_equal(c->len, 3);
    assert_memory_equal(c->text, "\xe4\xb8\xad", 3);
    assert_int_equal(sbx_grid_cat(&g, 0, 2)->width, 0);
    assert_int_equal(sbx_grid_cat(&g, 0, 2)->len, 0);
    assert_row(&g, 0, "a\xe4\xb8\xad" "b");
    /* one column left for a wide character: it is not split, a blank
     * takes its place */
    assert_int_equal(sbx_grid_text(&g, 1, 0, 5, SBX_STYLE_NORMAL, "abcd\xe4\xb8\xad", 7), 5);
    assert_row(&g, 1, "abcd");
    assert_int_equal(sbx_grid_cat(&g, 1, 4)->width, 1);
    /* nor at an end short of the edge */
    assert_int_equal(sbx_grid_text(&g, 2, 0, 2, SBX_STYLE_NORMAL, "a\xe4\xb8\xad", 4), 2);
    assert_row(&g, 2, "a");
    assert_sane(&g);
    /* a whole row of wide characters on an odd width */
    for (int r = 0; r < 3; r++)
        sbx_grid_text(&g, r, 0, 5, SBX_STYLE_NORMAL,
                      "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad", 12);
    assert_row(&g, 0, "\xe4\xb8\xad\xe4\xb8\xad");
    assert_sane(&g);
    /* an emoji */
    sbx_grid_resize(&g, 3, 1);
    sbx_grid_untrusted(&g, 0, 0, 3, SBX_STYLE_NORMAL, "\xf0\x9f\x98\x80\xf0\x9f\x98\x80", 8);
    assert_row(&g, 0, "\xf0\x9f\x98\x80\xe2\x80\xa6");
    assert_sane(&g);
    sbx_grid_free(&g);
}

static void combining_marks(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 6, 2, false);
    /* é as e + U+0301 is one cell of width 1 */
    assert_int_equal(sbx_grid_text(&g, 0, 0, 6, SBX_STYLE_NORMAL, "e\xcc\x81x", 4), 2);
    const struct sbx_cell *c = sbx_grid_cat(&g, 0, 0);
    assert_int_equal(c->len, 3);
    assert_int_equal(c->width, 1);
    assert_memory_equal(c->text, "e\xcc\x81", 3);
    assert_row(&g, 0, "e\xcc\x81x");
    /* untrusted text keeps two marks and counts the rest */
    struct sbx_buf in = SBX_BUF_INIT;
    sbx_buf_adds(&in, "a");
    for (int i = 0; i < 5000; i++)
        sbx_buf_adds(&in, "\xcc\x81");
    sbx_grid_resize(&g, 40, 2);
    assert_int_equal(sbx_grid_untrusted(&g, 1, 0, 40, SBX_STYLE_NORMAL, in.p, in.len), 14);
    assert_row(&g, 1, "a\xcc\x81\xcc\x81<+4998 marks>");
    assert_styles(&g, 1, 0, 1, SBX_STYLE_NORMAL);
    assert_styles(&g, 1, 1, 14, SBX_STYLE_ESCAPE);
    /* a mark on a wide character stays with it */
    sbx_grid_untrusted(&g, 0, 0, 40, SBX_STYLE_NORMAL, "\xe4\xb8\xad\xcc\x81z", 6);
    assert_row(&g, 0, "\xe4\xb8\xad\xcc\x81z");
    assert_int_equal(sbx_grid_cat(&g, 0, 0)->width, 2);
    assert_sane(&g);
    sbx_buf_free(&in);
    sbx_grid_free(&g);
}

/* A mark with nothing under it gets a dotted circle, and the two are one
 * cell: a cell holding only the mark would be drawn by the terminal on top
 * of the circle, and every column after it would be off by one. (The
 * sanitizer gives the circle as an ESCAPE segment and the mark as a TEXT
 * segment: sbx_grid_untrusted must not give each a cell of its own.) */
static void mark_without_base(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 10, 3, false);
    sbx_grid_untrusted(&g, 0, 0, 10, SBX_STYLE_NORMAL, "\xcc\x81" "a", 3);
    sbx_grid_untrusted(&g, 1, 0, 10, SBX_STYLE_NORMAL, "\x01\xcc\x81" "b", 4);
    sbx_grid_untrusted(&g, 2, 0, 10, SBX_STYLE_NORMAL, "x\x1b[1m\xcc\x81" "c", 8);
    assert_sane(&g);
    assert_row(&g, 0, "\xe2\x97\x8c\xcc\x81" "a");
    assert_int_equal(sbx_grid_cat(&g, 0, 1)->text[0], 'a');
    sbx_grid_free(&g);
}

static void cluster(void **state)
{
    (void)state;
    int w;
    assert_int_equal(sbx_cluster("ab", 2, false, &w), 1);
    assert_int_equal(w, 1);
    assert_int_equal(sbx_cluster("\n", 1, false, &w), 1);
    assert_int_equal(w, 0);
    assert_int_equal(sbx_cluster("\xe4\xb8\xad", 3, false, &w), 3);
    assert_int_equal(w, 2);
    assert_int_equal(sbx_cluster("e\xcc\x81\xcc\x82z", 6, false, &w), 5);
    assert_int_equal(w, 1);
    /* an invalid byte is one column on its own */
    assert_int_equal(sbx_cluster("\xff" "a", 2, false, &w), 1);
    assert_int_equal(w, 1);
    /* in ASCII mode every character is one column */
    assert_int_equal(sbx_cluster("\xe4\xb8\xad", 3, true, &w), 3);
    assert_int_equal(w, 1);
}

static void untrusted_escapes(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 60, 4, false);
    const char *s = "\x1b]0;pwned\x07ok\r\n";
    int end = sbx_grid_untrusted(&g, 0, 0, 60, SBX_STYLE_FAILED, s, strlen(s));
    assert_row(&g, 0, "⟨ESC]0;pwned⟩ok^M↵");
    assert_int_equal(end, 18);
    assert_styles(&g, 0, 0, 13, SBX_STYLE_ESCAPE);
    assert_styles(&g, 0, 13, 15, SBX_STYLE_FAILED);
    assert_styles(&g, 0, 15, 18, SBX_STYLE_ESCAPE);
    assert_styles(&g, 0, 18, 60, SBX_STYLE_NORMAL);
    /* the rows around are untouched: a clear-screen stays on its row */
    sbx_grid_text(&g, 1, 0, 60, SBX_STYLE_NORMAL, "row one", 7);
    s = "\x1b[2J\x1b[HAll tests passed";
    sbx_grid_untrusted(&g, 2, 0, 60, SBX_STYLE_NORMAL, s, strlen(s));
    assert_row(&g, 1, "row one");
    assert_row(&g, 2, "⟨ESC[2J⟩⟨ESC[H⟩All tests passed");
    /* bidi, invisible, C1 and bad bytes */
    s = "a\xe2\x80\xae" "b\xe2\x80\x8b" "c\xc2\x9b" "d\xff" "e\x7f";
    sbx_grid_untrusted(&g, 3, 0, 60, SBX_STYLE_NORMAL, s, strlen(s));
    assert_row(&g, 3, "a<U+202E>b<U+200B>c\\u009Bd\\xFFe^?");
    assert_styles(&g, 3, 1, 9, SBX_STYLE_ESCAPE);
    assert_styles(&g, 3, 9, 10, SBX_STYLE_NORMAL);
    assert_sane(&g);
    /* a tab is spaces, counted from the start of the text */
    sbx_grid_clear(&g, SBX_STYLE_NORMAL);
    sbx_grid_untrusted(&g, 0, 4, 60, SBX_STYLE_NORMAL, "a\tb", 3);
    assert_row(&g, 0, "    a       b");
    sbx_grid_free(&g);
}

static void ellipsis(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 10, 8, false);
    /* fits exactly: no ellipsis */
    assert_int_equal(sbx_grid_untrusted(&g, 0, 0, 5, SBX_STYLE_NORMAL, "abcde", 5), 5);
    assert_row(&g, 0, "abcde");
    /* one too many */
    assert_int_equal(sbx_grid_untrusted(&g, 1, 0, 5, SBX_STYLE_LABEL, "abcdef", 6), 5);
    assert_row(&g, 1, "abcd…");
    assert_styles(&g, 1, 0, 5, SBX_STYLE_LABEL);
    /* a wide character at the cut: a blank, then the ellipsis */
    sbx_grid_untrusted(&g, 2, 0, 4, SBX_STYLE_NORMAL, "ab\xe4\xb8\xad" "x", 6);
    assert_row(&g, 2, "ab …");
    sbx_grid_untrusted(&g, 3, 0, 4, SBX_STYLE_NORMAL, "abc\xe4\xb8\xad", 6);
    assert_row(&g, 3, "abc…");
    /* an escape cut: the ellipsis is plain, what shows of the token is in
     * the escape style */
    sbx_grid_untrusted(&g, 4, 0, 5, SBX_STYLE_NORMAL, "\x1b[2Jabc", 7);
    assert_row(&g, 4, "⟨ESC…");
    assert_styles(&g, 4, 0, 4, SBX_STYLE_ESCAPE);
    assert_styles(&g, 4, 4, 5, SBX_STYLE_NORMAL);
    /* an escape that ends exactly at the edge with nothing after it */
    sbx_grid_untrusted(&g, 5, 0, 4, SBX_STYLE_NORMAL, "ab\x01", 3);
    assert_row(&g, 5, "ab^A");
    sbx_grid_untrusted(&g, 6, 0, 4, SBX_STYLE_NORMAL, "ab\x01" "c", 4);
    assert_row(&g, 6, "ab^…");
    /* one column: the ellipsis alone; a newline makes the text longer */
    sbx_grid_untrusted(&g, 7, 9, 10, SBX_STYLE_NORMAL, "ab", 2);
    assert_row(&g, 7, "         …");
    assert_sane(&g);
    sbx_grid_clear(&g, SBX_STYLE_NORMAL);
    sbx_grid_untrusted(&g, 0, 0, 10, SBX_STYLE_NORMAL, "line\n", 5);
    assert_row(&g, 0, "line↵");
    /* nothing at all in an empty range */
    assert_int_equal(sbx_grid_untrusted(&g, 1, 3, 3, SBX_STYLE_NORMAL, "abc", 3), 3);
    assert_row(&g, 1, "");
    sbx_grid_free(&g);
}

static void ascii_grid(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 30, 3, true);
    const char *s = "caf\xc3\xa9 \xe4\xb8\xad\x1b]0;t\x07";
    sbx_grid_untrusted(&g, 0, 0, 30, SBX_STYLE_NORMAL, s, strlen(s));
    assert_row(&g, 0, "caf<U+00E9> <U+4E2D><ESC]0;t>");
    sbx_grid_untrusted(&g, 1, 0, 6, SBX_STYLE_NORMAL, "abcdefgh", 8);
    assert_row(&g, 1, "abcde>");
    sbx_grid_untrusted(&g, 2, 0, 30, SBX_STYLE_NORMAL, "a\nb", 3);
    assert_row(&g, 2, "a^Jb");
    assert_sane(&g);
    sbx_grid_free(&g);
}

static void fill_and_restyle(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 8, 2, false);
    sbx_grid_text(&g, 0, 0, 8, SBX_STYLE_NORMAL, "abcdefgh", 8);
    sbx_grid_restyle(&g, 0, 2, 5, SBX_STYLE_MATCH);
    assert_row(&g, 0, "abcdefgh");
    assert_styles(&g, 0, 0, 2, SBX_STYLE_NORMAL);
    assert_styles(&g, 0, 2, 5, SBX_STYLE_MATCH);
    assert_styles(&g, 0, 5, 8, SBX_STYLE_NORMAL);
    sbx_grid_fill(&g, 0, 6, 99, SBX_STYLE_STATUS);
    assert_row(&g, 0, "abcdef");
    assert_styles(&g, 0, 6, 8, SBX_STYLE_STATUS);
    /* out of range is clipped */
    sbx_grid_restyle(&g, 1, -5, 99, SBX_STYLE_CURSOR);
    assert_styles(&g, 1, 0, 8, SBX_STYLE_CURSOR);
    sbx_grid_fill(&g, 5, 0, 8, SBX_STYLE_CURSOR);
    sbx_grid_clear(&g, SBX_STYLE_HEADER);
    assert_styles(&g, 0, 0, 8, SBX_STYLE_HEADER);
    assert_styles(&g, 1, 0, 8, SBX_STYLE_HEADER);
    assert_row(&g, 0, "");
    sbx_grid_free(&g);
}

/* A find function for the tests: every occurrence of a fixed string. */
static bool find_str(const void *ctx, const char *s, size_t n, size_t from, size_t *b, size_t *e)
{
    const char *needle = ctx;
    size_t k = strlen(needle);
    for (size_t i = from; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0) {
            *b = i;
            *e = i + k;
            return true;
        }
    return false;
}

static void highlight(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 20, 3, false);
    sbx_grid_text(&g, 0, 0, 20, SBX_STYLE_NORMAL, "float x float", 13);
    sbx_grid_highlight(&g, 0, 0, 20, find_str, "float", SBX_STYLE_MATCH);
    assert_styles(&g, 0, 0, 5, SBX_STYLE_MATCH);
    assert_styles(&g, 0, 5, 8, SBX_STYLE_NORMAL);
    assert_styles(&g, 0, 8, 13, SBX_STYLE_MATCH);
    assert_styles(&g, 0, 13, 20, SBX_STYLE_NORMAL);
    /* only within [col, end) */
    sbx_grid_restyle(&g, 0, 0, 20, SBX_STYLE_NORMAL);
    sbx_grid_highlight(&g, 0, 2, 20, find_str, "float", SBX_STYLE_MATCH);
    assert_styles(&g, 0, 0, 8, SBX_STYLE_NORMAL);
    assert_styles(&g, 0, 8, 13, SBX_STYLE_MATCH);
    /* matches in multi-byte text cover whole cells, both halves of a wide one */
    const char *s = "a\xe4\xb8\xad" "e\xcc\x81" "z";
    sbx_grid_text(&g, 1, 0, 20, SBX_STYLE_NORMAL, s, strlen(s));
    sbx_grid_highlight(&g, 1, 0, 20, find_str, "\xe4\xb8\xad", SBX_STYLE_MATCH);
    assert_styles(&g, 1, 0, 1, SBX_STYLE_NORMAL);
    assert_styles(&g, 1, 1, 3, SBX_STYLE_MATCH);
    assert_styles(&g, 1, 3, 20, SBX_STYLE_NORMAL);
    sbx_grid_highlight(&g, 1, 0, 20, find_str, "\xcc\x81", SBX_STYLE_CURSOR);
    assert_styles(&g, 1, 3, 4, SBX_STYLE_CURSOR);
    assert_styles(&g, 1, 4, 5, SBX_STYLE_NORMAL);
    /* no match, an empty pattern, no function: nothing changes */
    sbx_grid_highlight(&g, 2, 0, 20, find_str, "zzz", SBX_STYLE_MATCH);
    sbx_grid_highlight(&g, 2, 0, 20, find_str, "", SBX_STYLE_MATCH);
    sbx_grid_highlight(&g, 2, 0, 20, NULL, NULL, SBX_STYLE_MATCH);
    sbx_grid_highlight(&g, 9, 0, 20, find_str, "a", SBX_STYLE_MATCH);
    assert_styles(&g, 2, 0, 20, SBX_STYLE_NORMAL);
    assert_row(&g, 1, s);
    sbx_grid_free(&g);
}

static void dump(void **state)
{
    (void)state;
    struct sbx_grid g;
    make(&g, 8, 3, false);
    sbx_grid_text(&g, 0, 1, 8, SBX_STYLE_LABEL, "ab", 2);
    sbx_grid_untrusted(&g, 1, 0, 8, SBX_STYLE_NORMAL, "\xe4\xb8\xad\x01", 4);
    sbx_grid_fill(&g, 2, 0, 8, SBX_STYLE_STATUS);
    struct sbx_buf out = SBX_BUF_INIT;
    sbx_grid_dump(&g, false, &out);
    assert_string_equal(out.p, " ab\n\xe4\xb8\xad^A\n\n");
    sbx_buf_clear(&out);
    sbx_grid_dump(&g, true, &out);
    assert_string_equal(out.p, " ab\n"
                               "  ^ 0-0 normal, 1-2 summary.label, 3-7 normal\n"
                               "\xe4\xb8\xad^A\n"
                               "  ^ 0-1 normal, 2-3 text.escape, 4-7 normal\n"
                               "\n"
                               "  ^ 0-7 view.status\n");
    sbx_buf_free(&out);
    sbx_grid_free(&g);
}

/* Random hostile text at every width: the grid stays sane and the text
 * never runs past end. */
static void random_untrusted(void **state)
{
    (void)state;
    static const char *const alphabet[] = {
        "a", " ", "\t", "\n", "\r", "\x1b", "[", "]", "0;", "\x07", "\x9c", "\xc2\x9b", "\xff",
        "\xe4\xb8\xad", "\xcc\x81", "\xef\xb8\x8f", "\xe2\x80\xae", "\xf3\xa0\x81\xa8", "\xe4\xb8",
        "\x7f", "\xf0\x9f\x91\xa8", "\xe2\x80\x8d", "\xee\x80\x80", "\xe1\x85\x9f",
    };
    uint64_t x = 0x2545f4914f6cdd1du;
    char in[96];
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = cc_random_text(&x, alphabet, sizeof alphabet / sizeof *alphabet, 20, in);
        int cols = 1 + (int)((x >> 32) % 24), col = (int)((x >> 40) % (unsigned)cols);
        g.ascii = (x >> 50) & 1;
        sbx_grid_resize(&g, cols, 1);
        int end = sbx_grid_untrusted(&g, 0, col, cols, SBX_STYLE_NORMAL, in, n);
        assert_true(end >= col && end <= cols);
        assert_sane(&g);
        /* the same text twice gives the same cells */
        struct sbx_grid g2;
        sbx_grid_init(&g2, g.ascii);
        sbx_grid_resize(&g2, cols, 1);
        sbx_grid_untrusted(&g2, 0, col, cols, SBX_STYLE_NORMAL, in, n);
        for (int c = 0; c < cols; c++) {
            const struct sbx_cell *a = sbx_grid_cat(&g, 0, c), *b = sbx_grid_cat(&g2, 0, c);
            assert_true(a->len == b->len && a->width == b->width && a->style == b->style &&
                        memcmp(a->text, b->text, a->len) == 0);
        }
        sbx_grid_free(&g2);
    }
    sbx_grid_free(&g);
}

static int setup(void **state)
{
    (void)state;
    return setlocale(LC_CTYPE, "C.UTF-8") ? 0 : -1;
}

/* A name that does not fit keeps its end after the ellipsis: every width
 * from too narrow to wide enough, wide characters across the cut, escapes
 * and a secret (masked before the cut, so no tail of it shows). */
static void untrusted_tail(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int width;
        bool ascii;
        const char *want;
    } cases[] = {
        {"/runs/2026/run-a", 16, false, "/runs/2026/run-a"},
        {"/runs/2026/run-a", 20, false, "/runs/2026/run-a"},
        {"/runs/2026/run-a", 15, false, "\xe2\x80\xa6" "uns/2026/run-a"},
        {"/runs/2026/run-a", 8, false, "\xe2\x80\xa6" "6/run-a"},
        {"/runs/2026/run-a", 2, false, "\xe2\x80\xa6" "a"},
        {"/runs/2026/run-a", 8, true, "<6/run-a"},
        {"ab\xe4\xb8\xad\xe4\xb8\xad" "cd", 6, false, "\xe2\x80\xa6" "\xe4\xb8\xad" "cd"},
        {"ab\xe4\xb8\xad\xe4\xb8\xad" "cd", 5, false, "\xe2\x80\xa6" "\xe4\xb8\xad" "cd"},
        {"ab\xe4\xb8\xad\xe4\xb8\xad" "cd", 4, false, "\xe2\x80\xa6" "cd"},
        {"run\x1b]0;t\x07/x", 8, false, "\xe2\x80\xa6" "/x"},
        {"run\x1b]0;t\x07/x", 30, false, "run\xe2\x9f\xa8" "ESC]0;t\xe2\x9f\xa9" "/x"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sbx_grid g;
        make(&g, 30, 1, cases[i].ascii);
        int end = sbx_grid_untrusted_tail(&g, 0, 0, cases[i].width, SBX_STYLE_NORMAL, cases[i].in,
                                          strlen(cases[i].in));
        char *got = row_text(&g, 0);
        if (strcmp(got, cases[i].want) != 0)
            fail_msg("case %zu: got \"%s\", want \"%s\"", i, got, cases[i].want);
        assert_true(end <= cases[i].width);
        free(got);
        assert_sane(&g);
        sbx_grid_free(&g);
    }
    /* a token's tail never shows: it is masked before the cut */
    struct sbx_grid g;
    make(&g, 30, 1, false);
    const char *tok = "/runs/ghp_Ui5Kp7Wq2Zx9Lm4Np6Rt1Vw3Xy5Za7BcDe9Q";
    sbx_grid_untrusted_tail(&g, 0, 0, 12, SBX_STYLE_NORMAL, tok, strlen(tok));
    char *got = row_text(&g, 0);
    assert_null(strstr(got, "De9Q"));
    free(got);
    sbx_grid_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resize_and_bounds), cmocka_unit_test(safe_text),
        cmocka_unit_test(wide_characters),   cmocka_unit_test(combining_marks),
        cmocka_unit_test(mark_without_base),
        cmocka_unit_test(cluster),           cmocka_unit_test(untrusted_escapes),
        cmocka_unit_test(ellipsis),          cmocka_unit_test(ascii_grid),
        cmocka_unit_test(fill_and_restyle),  cmocka_unit_test(highlight),
        cmocka_unit_test(dump),              cmocka_unit_test(random_untrusted),
        cmocka_unit_test(untrusted_tail),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
