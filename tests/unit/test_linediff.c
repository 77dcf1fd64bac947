/* The line diff of two texts (analyses/compare/linediff.h), as a table of
 * cases: each text, and the diff written as lines "<sign> text" (' ' kept,
 * '-' only in A, '+' only in B) joined with '|'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/compare/linediff.h"
#include "base/buf.h"

static const struct {
    const char *name, *a, *b, *want;
    size_t na, nb; /* the texts' bytes; 0: up to the NUL */
} cases[] = {
    {"equal", "one\ntwo\n", "one\ntwo\n", "  one|  two", 0, 0},
    {"both empty", "", "", "", 0, 0},
    {"A empty", "", "x\ny", "+ x|+ y", 0, 0},
    {"B empty", "x\ny\n", "", "- x|- y", 0, 0},
    {"insert in the middle", "a\nc\n", "a\nb\nc\n", "  a|+ b|  c", 0, 0},
    {"insert at the end", "a\n", "a\nz\n", "  a|+ z", 0, 0},
    {"delete at the start", "a\nb\n", "b\n", "- a|  b", 0, 0},
    {"change: A's line before B's", "a\nold\nc\n", "a\nnew\nc\n", "  a|- old|+ new|  c", 0, 0},
    {"a last line without a newline", "a\nb", "a\nb\n", "  a|  b", 0, 0},
    {"an empty line is a line", "a\n\nb\n", "a\nb\n", "  a|- |  b", 0, 0},
    {"repeated lines", "x\nx\nx\n", "x\nx\n", "  x|  x|- x", 0, 0},
    {"a prefix is not the line", "abc\n", "ab\n", "- abc|+ ab", 0, 0},
    {"bytes after a NUL count", "a\0b\n", "a\0c\n", "- a|+ a", 4, 4},
};

static void render(const struct sbx_linediff *d, struct sbx_buf *out)
{
    static const char signs[] = {[SBX_LINE_KEPT] = ' ', [SBX_LINE_DELETED] = '-',
                                 [SBX_LINE_ADDED] = '+'};
    sbx_buf_clear(out);
    for (size_t i = 0; i < d->n; i++) {
        if (i)
            sbx_buf_addc(out, '|');
        sbx_buf_addc(out, signs[d->lines[i].op]);
        sbx_buf_addc(out, ' ');
        sbx_buf_add(out, d->lines[i].p, strnlen(d->lines[i].p, d->lines[i].len));
    }
    sbx_buf_addc(out, '\0');
}

static void table(void **state)
{
    (void)state;
    struct sbx_buf got = SBX_BUF_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t na = cases[i].na ? cases[i].na : strlen(cases[i].a);
        size_t nb = cases[i].nb ? cases[i].nb : strlen(cases[i].b);
        struct sbx_linediff d;
        sbx_linediff(cases[i].a, na, cases[i].b, nb, &d);
        render(&d, &got);
        if (strcmp(got.p, cases[i].want) != 0)
            fail_msg("%s: got \"%s\", want \"%s\"", cases[i].name, got.p, cases[i].want);
        if (d.limited)
            fail_msg("%s: limited", cases[i].name);
        sbx_linediff_free(&d);
    }
    sbx_buf_free(&got);
}

/* Lines point into the texts given, whatever their length. */
static void long_lines(void **state)
{
    (void)state;
    size_t n = 100000;
    char *a = malloc(2 * n + 2), *b = malloc(2 * n + 2);
    memset(a, 'x', n);
    a[n] = '\n';
    memset(a + n + 1, 'y', n);
    a[2 * n + 1] = '\n';
    memcpy(b, a, 2 * n + 2);
    b[2 * n] = 'z'; /* the second line differs in its last byte */
    struct sbx_linediff d;
    sbx_linediff(a, 2 * n + 2, b, 2 * n + 2, &d);
    assert_int_equal(d.n, 3);
    assert_int_equal(d.lines[0].op, SBX_LINE_KEPT);
    assert_ptr_equal(d.lines[0].p, a);
    assert_int_equal(d.lines[0].len, n);
    assert_int_equal(d.lines[1].op, SBX_LINE_DELETED);
    assert_ptr_equal(d.lines[1].p, a + n + 1);
    assert_int_equal(d.lines[1].len, n);
    assert_int_equal(d.lines[2].op, SBX_LINE_ADDED);
    assert_ptr_equal(d.lines[2].p, b + n + 1);
    assert_int_equal(d.lines[2].len, n);
    sbx_linediff_free(&d);
    free(a);
    free(b);
}

/* Two different lines of one length, hundreds of times over: some pairs
 * share a slot of the table of distinct lines, and are still told apart. */
static void same_length_lines(void **state)
{
    (void)state;
    for (int i = 0; i < 500; i++) {
        char a[16], b[16];
        snprintf(a, sizeof a, "%03d\n", i);
        snprintf(b, sizeof b, "%03d\n", i + 1);
        struct sbx_linediff d;
        sbx_linediff(a, strlen(a), b, strlen(b), &d);
        assert_int_equal(d.n, 2);
        assert_int_equal(d.lines[0].op, SBX_LINE_DELETED);
        assert_int_equal(d.lines[1].op, SBX_LINE_ADDED);
        sbx_linediff_free(&d);
    }
}

/* Past the limit the rest is not compared, and the result says so. */
static void many_lines(void **state)
{
    (void)state;
    struct sbx_buf a = SBX_BUF_INIT, b = SBX_BUF_INIT;
    for (int i = 0; i < SBX_LINEDIFF_MAX_LINES + 10; i++) {
        sbx_buf_addf(&a, "%d\n", i);
        if (i < SBX_LINEDIFF_MAX_LINES - 1)
            sbx_buf_addf(&b, "%d\n", i);
    }
    struct sbx_linediff d;
    sbx_linediff(a.p, a.len, b.p, b.len, &d);
    assert_true(d.limited);
    assert_int_equal(d.n, SBX_LINEDIFF_MAX_LINES); /* 4999 kept, the 5000th deleted */
    assert_int_equal(d.lines[d.n - 1].op, SBX_LINE_DELETED);
    sbx_linediff_free(&d);
    sbx_linediff(b.p, b.len, b.p, b.len, &d);
    assert_false(d.limited);
    sbx_linediff_free(&d);
    sbx_buf_free(&a);
    sbx_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table),
        cmocka_unit_test(long_lines),
        cmocka_unit_test(same_length_lines),
        cmocka_unit_test(many_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
