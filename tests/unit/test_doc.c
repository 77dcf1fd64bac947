/* Tests for render/doc: lines wrapped at the width and never inside a
 * character, the indent of wrapped rows, targets carried by every row of a
 * line, newlines, untrusted text sanitised on the way in, and drawing rows
 * into a grid. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/doc.h"
#include "render/sanitize.h"
#include "tests/unit/cellcheck.h"

/* The text of doc row r (all its spans). */
static char *row_text(const struct sbx_doc *d, size_t r)
{
    struct sbx_buf b = SBX_BUF_INIT;
    const struct sbx_doc_row *dr = &d->rows[r];
    for (uint32_t k = 0; k < dr->nspans; k++) {
        const struct sbx_doc_span *sp = &d->spans[dr->span0 + k];
        sbx_buf_add(&b, d->text.p + sp->off, sp->len);
    }
    char *s = sbx_xstrndup(b.p ? b.p : "", b.len);
    sbx_buf_free(&b);
    return s;
}

/* The doc's rows joined with '|'. */
static void assert_rows(const struct sbx_doc *d, const char *want)
{
    struct sbx_buf b = SBX_BUF_INIT;
    for (size_t r = 0; r < d->nrows; r++) {
        char *t = row_text(d, r);
        sbx_buf_addf(&b, "%s%s", r ? "|" : "", t);
        free(t);
    }
    const char *got = b.p ? b.p : "";
    if (strcmp(got, want) != 0)
        fail_msg("rows [%s], want [%s]", got, want);
    sbx_buf_free(&b);
}

/* No row is wider than the doc. */
static void assert_fits(const struct sbx_doc *d)
{
    for (size_t r = 0; r < d->nrows; r++) {
        char *t = row_text(d, r);
        int w = sbx_text_width(t, strlen(t));
        if (w > d->width)
            fail_msg("row %zu is %d wide, more than %d: [%s]", r, w, d->width, t);
        free(t);
    }
}

static void wrapping(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 4, false);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "abcdefghij");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abcd|efgh|ij");
    /* exactly the width: one row */
    sbx_doc_reset(&d, 4);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "abcd");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abcd");
    /* pieces of one line wrap as one text, each keeping its style */
    sbx_doc_reset(&d, 5);
    sbx_doc_adds(&d, SBX_STYLE_LABEL, "abc");
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "defgh");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abcde|fgh");
    assert_int_equal(d.rows[0].nspans, 2);
    assert_int_equal(d.spans[d.rows[0].span0].style, SBX_STYLE_LABEL);
    assert_int_equal(d.spans[d.rows[0].span0 + 1].style, SBX_STYLE_NORMAL);
    assert_int_equal(d.spans[d.rows[0].span0 + 1].len, 2);
    /* same style added twice is one span */
    sbx_doc_reset(&d, 20);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "ab");
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "cd");
    sbx_doc_end_line(&d);
    assert_int_equal(d.rows[0].nspans, 1);
    /* a width below 1 is 1 */
    sbx_doc_reset(&d, 0);
    assert_int_equal(d.width, 1);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "ab");
    sbx_doc_end_line(&d);
    assert_rows(&d, "a|b");
    sbx_doc_free(&d);
}

static void never_inside_a_character(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 3, false);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "ab\xe4\xb8\xad" "cd");
    sbx_doc_end_line(&d);
    assert_rows(&d, "ab|\xe4\xb8\xad" "c|d");
    assert_fits(&d);
    /* a mark stays on the row of its base */
    sbx_doc_reset(&d, 3);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "abe\xcc\x81\xcc\x82" "f");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abe\xcc\x81\xcc\x82|f");
    /* multi-byte characters at every cut */
    sbx_doc_reset(&d, 2);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x82\xac\xe2\x82\xac");
    sbx_doc_end_line(&d);
    assert_rows(&d, "\xc3\xa9\xc3\xa9|\xc3\xa9\xe2\x82\xac|\xe2\x82\xac");
    sbx_doc_free(&d);
}

static void indent(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 6, false);
    sbx_doc_set_indent(&d, 2);
    sbx_doc_adds(&d, SBX_STYLE_FIELD, "ab");
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "cdefghijkl");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abcdef|  ghij|  kl");
    assert_fits(&d);
    /* the indent stays until set again */
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "1234567");
    sbx_doc_end_line(&d);
    sbx_doc_set_indent(&d, 0);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "1234567");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abcdef|  ghij|  kl|123456|  7|123456|7");
    /* at most half the width, so wrapped rows always move on */
    sbx_doc_reset(&d, 6);
    sbx_doc_set_indent(&d, 50);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "abcdefghijkl");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abcdef|   ghi|   jkl");
    sbx_doc_free(&d);
}

static void targets(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 4, false);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "none");
    sbx_doc_end_line(&d);
    sbx_doc_set_target(&d, 7);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "abcdefghij");
    sbx_doc_end_line(&d);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "xy\nzw");
    sbx_doc_end_line(&d);
    sbx_doc_set_target(&d, -1);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "end");
    sbx_doc_end_line(&d);
    assert_rows(&d, "none|abcd|efgh|ij|xy|zw|end");
    int32_t want[] = {-1, 7, 7, 7, 7, 7, -1};
    assert_int_equal(d.nrows, 7);
    for (size_t r = 0; r < d.nrows; r++)
        assert_int_equal(d.rows[r].target, want[r]);
    /* reset forgets the target */
    sbx_doc_set_target(&d, 3);
    sbx_doc_reset(&d, 4);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "a");
    sbx_doc_end_line(&d);
    assert_int_equal(d.rows[0].target, -1);
    sbx_doc_free(&d);
}

/* The header: "the target of the line being added" and "every row of it
 * carries the same", also when set while a line is open and already
 * wrapped (not only the line's last row). */
static void target_set_mid_line(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 4, false);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "abcdefghij");
    sbx_doc_set_target(&d, 5);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "kl");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abcd|efgh|ijkl");
    for (size_t r = 0; r < d.nrows; r++)
        assert_int_equal(d.rows[r].target, 5);
    sbx_doc_free(&d);
}

static void newlines(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 10, false);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "a\n\nb");
    sbx_doc_end_line(&d);
    assert_rows(&d, "a||b");
    /* an end with nothing added is an empty line */
    sbx_doc_end_line(&d);
    assert_rows(&d, "a||b|");
    /* a newline at the end of a piece ends its line: the next piece starts
     * a new one */
    sbx_doc_reset(&d, 10);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "x\n");
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "y");
    sbx_doc_end_line(&d);
    assert_rows(&d, "x|y");
    /* a newline exactly at the width makes no empty row */
    sbx_doc_reset(&d, 3);
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "abc\ndef");
    sbx_doc_end_line(&d);
    assert_rows(&d, "abc|def");
    /* an empty doc */
    sbx_doc_reset(&d, 3);
    assert_int_equal(d.nrows, 0);
    sbx_doc_free(&d);
}

static void untrusted(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 40, false);
    const char *s = "ok\x1b]0;pwned\x07\nline 2\r\n\xe2\x80\xae" "x";
    sbx_doc_untrusted(&d, SBX_STYLE_STDERR, s, strlen(s), false);
    sbx_doc_end_line(&d);
    assert_rows(&d, "ok⟨ESC]0;pwned⟩|line 2^M|<U+202E>x");
    /* escapes in the escape style, the rest in the style given */
    const struct sbx_doc_row *r0 = &d.rows[0];
    assert_int_equal(r0->nspans, 2);
    assert_int_equal(d.spans[r0->span0].style, SBX_STYLE_STDERR);
    assert_int_equal(d.spans[r0->span0 + 1].style, SBX_STYLE_ESCAPE);
    const struct sbx_doc_row *r1 = &d.rows[1];
    assert_int_equal(d.spans[r1->span0 + r1->nspans - 1].style, SBX_STYLE_ESCAPE);
    /* one line: newlines shown */
    sbx_doc_reset(&d, 40);
    sbx_doc_untrusted(&d, SBX_STYLE_NORMAL, "a\nb", 3, true);
    sbx_doc_end_line(&d);
    assert_rows(&d, "a↵b");
    /* an escape token wraps like text, never inside a character */
    sbx_doc_reset(&d, 5);
    sbx_doc_untrusted(&d, SBX_STYLE_NORMAL, "\x1b[2Jabc", 7, false);
    sbx_doc_end_line(&d);
    assert_rows(&d, "⟨ESC[|2J⟩ab|c");
    assert_fits(&d);
    /* a tab is spaces */
    sbx_doc_reset(&d, 40);
    sbx_doc_untrusted(&d, SBX_STYLE_NORMAL, "a\tb", 3, false);
    sbx_doc_end_line(&d);
    assert_rows(&d, "a       b");
    /* ASCII docs get ASCII only */
    sbx_doc_free(&d);
    sbx_doc_init(&d, 40, true);
    sbx_doc_untrusted(&d, SBX_STYLE_NORMAL, "caf\xc3\xa9\n\x1b[m", 9, true);
    sbx_doc_end_line(&d);
    assert_rows(&d, "caf<U+00E9>^J<ESC[m>");
    sbx_doc_free(&d);
}

static void addf(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 1000, false);
    sbx_doc_addf(&d, SBX_STYLE_NORMAL, "%d-%s", 42, "x");
    sbx_doc_end_line(&d);
    /* longer than the small buffer inside */
    char big[700];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sbx_doc_addf(&d, SBX_STYLE_NORMAL, "<%s>", big);
    sbx_doc_end_line(&d);
    assert_int_equal(d.nrows, 2);
    char *t = row_text(&d, 1);
    assert_int_equal(strlen(t), 701);
    assert_int_equal(t[0], '<');
    assert_int_equal(t[700], '>');
    free(t);
    t = row_text(&d, 0);
    assert_string_equal(t, "42-x");
    free(t);
    sbx_doc_free(&d);
}

static void draw(void **state)
{
    (void)state;
    struct sbx_doc d;
    sbx_doc_init(&d, 6, false);
    sbx_doc_adds(&d, SBX_STYLE_LABEL, "ab");
    sbx_doc_adds(&d, SBX_STYLE_NORMAL, "cdefghi");
    sbx_doc_end_line(&d);
    sbx_doc_untrusted(&d, SBX_STYLE_NORMAL, "\x01x", 2, false);
    sbx_doc_end_line(&d);
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    sbx_grid_resize(&g, 6, 4);
    sbx_grid_fill(&g, 3, 0, 6, SBX_STYLE_STATUS);
    /* from the second row, three rows: the last is past the end and blank */
    sbx_doc_draw(&d, 1, &g, 0, 3);
    struct sbx_buf out = SBX_BUF_INIT;
    sbx_grid_dump(&g, true, &out);
    assert_string_equal(out.p, "ghi\n"
                               "  ^ 0-5 normal\n"
                               "^Ax\n"
                               "  ^ 0-1 text.escape, 2-5 normal\n"
                               "\n"
                               "  ^ 0-5 normal\n"
                               "\n"
                               "  ^ 0-5 view.status\n");
    sbx_buf_clear(&out);
    sbx_doc_draw(&d, 0, &g, 1, 1);
    sbx_grid_dump(&g, true, &out);
    assert_non_null(strstr(out.p, "abcdef\n  ^ 0-1 summary.label, 2-5 normal\n"));
    /* a first row past the end: all blank */
    sbx_doc_draw(&d, 99, &g, 0, 4);
    sbx_buf_clear(&out);
    sbx_grid_dump(&g, false, &out);
    assert_string_equal(out.p, "\n\n\n\n");
    sbx_buf_free(&out);
    sbx_grid_free(&g);
    sbx_doc_free(&d);
}

/* Random hostile text at every width: no row wider than the doc, and drawn
 * into a grid of that width nothing is cut and every cell is safe. */
static void random_untrusted(void **state)
{
    (void)state;
    static const char *const alphabet[] = {
        "a", "bc", " ", "\t", "\n", "\r", "\x1b", "[", "]", "0;", "\x07", "\x9c", "\xc2\x9b",
        "\xff", "\xe4\xb8\xad", "\xcc\x81", "\xef\xb8\x8f", "\xe2\x80\xae", "\xf3\xa0\x81\xa8",
        "\xe4\xb8", "\x7f", "\xf0\x9f\x91\xa8", "\xe2\x80\x8d", "\xc3\xa9",
    };
    uint64_t x = 0x853c49e6748fea9bu;
    char in[128];
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = cc_random_text(&x, alphabet, sizeof alphabet / sizeof *alphabet, 30, in);
        int width = 2 + (int)((x >> 32) % 20);
        bool ascii = (x >> 50) & 1;
        struct sbx_doc d;
        sbx_doc_init(&d, width, ascii);
        sbx_doc_set_indent(&d, (int)((x >> 44) % 4));
        sbx_doc_untrusted(&d, SBX_STYLE_NORMAL, in, n, (x >> 52) & 1);
        sbx_doc_end_line(&d);
        assert_fits(&d);
        g.ascii = ascii;
        sbx_grid_resize(&g, width, (int)d.nrows);
        sbx_doc_draw(&d, 0, &g, 0, (int)d.nrows);
        int r, c;
        const char *why = cc_grid(&g, &r, &c);
        if (why)
            fail_msg("width %d, row %d col %d: %s", width, r, c, why);
        /* what the grid shows is all the doc holds, nothing cut */
        for (size_t k = 0; k < d.nrows; k++) {
            char *t = row_text(&d, k);
            struct sbx_buf shown = SBX_BUF_INIT;
            for (int col = 0; col < width; col++)
                sbx_buf_add(&shown, sbx_grid_cat(&g, (int)k, col)->text,
                            sbx_grid_cat(&g, (int)k, col)->len);
            if (!shown.p || strncmp(shown.p, t, strlen(t)) != 0)
                fail_msg("row %zu drawn as [%.*s], holds [%s]", k, (int)shown.len,
                         shown.p ? shown.p : "", t);
            sbx_buf_free(&shown);
            free(t);
        }
        sbx_doc_free(&d);
    }
    sbx_grid_free(&g);
}

static int setup(void **state)
{
    (void)state;
    return setlocale(LC_CTYPE, "C.UTF-8") ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrapping),  cmocka_unit_test(never_inside_a_character),
        cmocka_unit_test(indent),    cmocka_unit_test(targets),
        cmocka_unit_test(target_set_mid_line),
        cmocka_unit_test(newlines),  cmocka_unit_test(untrusted),
        cmocka_unit_test(addf),      cmocka_unit_test(draw),
        cmocka_unit_test(random_untrusted),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
