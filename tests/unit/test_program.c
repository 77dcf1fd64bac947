/* Tests for model/program: labels (Runtime's rule, the real-log examples)
 * and the per-simple-command walk used by the cross-check, as a table in
 * tests/unit/cases/program.test; truncation, and hostile input (NUL,
 * unbalanced quotes, deep nesting, 1 MB lines) in linear time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "model/program.h"
#include "tests/unit/cases.h"

static void collect(const char *prog, size_t len, void *ctx)
{
    struct sbx_buf *b = ctx;
    if (b->len)
        sbx_buf_addc(b, '|');
    sbx_buf_add(b, prog, len);
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 2);
    const char *cmd = c->field[0], *want = c->field[1];
    if (strcmp(c->table, "label") == 0) {
        char out[256];
        size_t n = sbx_program_label(cmd, c->len[0], out, sizeof out);
        if (strcmp(out, want) != 0 || n != c->len[1])
            case_fail(c, "label of [%s]: got [%s] (%zu), want [%s]", cmd, out, n, want);
    } else if (strcmp(c->table, "each") == 0) {
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_adds(&b, "");
        size_t calls = sbx_program_each(cmd, c->len[0], collect, &b);
        size_t want_calls = *want ? 1 : 0;
        for (const char *p = want; *p; p++)
            want_calls += *p == '|';
        if (strcmp(b.p, want) != 0 || calls != want_calls)
            case_fail(c, "each of [%s]: got [%s] (%zu calls), want [%s]", cmd, b.p, calls, want);
        sbx_buf_free(&b);
    } else {
        case_fail(c, "no such table in this file's runner");
    }
}

/* The labels and the per-command walk: tests/unit/cases/program.test. */
static void test_case_file(void **state)
{
    (void)state;
    cases_run("program.test", check_case, NULL);
}

static void test_label_truncation(void **state)
{
    (void)state;
    char out[8];
    memset(out, 'Z', sizeof out);
    assert_int_equal(sbx_program_label("git status", 10, out, sizeof out), 7);
    assert_string_equal(out, "git sta");
    memset(out, 'Z', sizeof out);
    assert_int_equal(sbx_program_label("git status", 10, out, 1), 0);
    assert_int_equal(out[0], '\0');
    assert_int_equal(out[1], 'Z');
    assert_int_equal(sbx_program_label("git status", 10, out, 0), 0);
    assert_int_equal(out[0], '\0');
    assert_int_equal(out[1], 'Z');
    assert_int_equal(sbx_program_label(NULL, 0, out, sizeof out), 0);
    assert_string_equal(out, "");
    /* n, not the NUL terminator, bounds the input */
    assert_int_equal(sbx_program_label("make all", 4, out, sizeof out), 4);
    assert_string_equal(out, "make");
    /* long words keep their first 128 bytes; the basename is what follows the last '/' */
    char cmd[600];
    memset(cmd, 'a', 300);
    cmd[300] = '/';
    memcpy(cmd + 301, "pytest -q", 10);
    char big[512];
    assert_int_equal(sbx_program_label(cmd, strlen(cmd), big, sizeof big), 6);
    assert_string_equal(big, "pytest");
    memset(cmd, 'b', 400);
    cmd[400] = '\0';
    assert_int_equal(sbx_program_label(cmd, 400, big, sizeof big), 128);
}

static void test_nul_and_binary(void **state)
{
    (void)state;
    static const char cmd[] = "ca\0t x && ls";
    char out[32];
    size_t n = sbx_program_label(cmd, sizeof cmd - 1, out, sizeof out);
    assert_int_equal(n, 4);
    assert_memory_equal(out, "ca\0t", 5);
    static const char bin[] = "\xff\xfe\x80 \xc0\xaf";
    n = sbx_program_label(bin, sizeof bin - 1, out, sizeof out);
    assert_int_equal(n, 3);
    assert_memory_equal(out, "\xff\xfe\x80", 4);
}

static size_t count_calls(const char *cmd, size_t n)
{
    return sbx_program_each(cmd, n, NULL, NULL);
}

static void test_nesting_is_bounded(void **state)
{
    (void)state;
    /* a pathological 100,000-deep $( nesting and quote soup */
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < 100000; i++)
        sbx_buf_adds(&b, "$(\"'`");
    assert_true(count_calls(b.p, b.len) <= 1);
    sbx_buf_clear(&b);
    for (int i = 0; i < 100000; i++)
        sbx_buf_adds(&b, "bash -c \"");
    assert_true(count_calls(b.p, b.len) >= 1);
    sbx_buf_free(&b);
}

/* The walk's work over `unit` repeated to `size` bytes. */
static size_t work_of(const char *unit, size_t size)
{
    struct sbx_buf b = SBX_BUF_INIT;
    while (b.len < size)
        sbx_buf_adds(&b, unit);
    size_t w = sbx_program_work(b.p, b.len);
    sbx_buf_free(&b);
    return w;
}

/* Inputs of several shapes, 128 KiB and 1 MiB: the work must grow about
 * 8-fold (quadratic would be 64-fold), and stay within a few steps a byte. */
static void test_linear_time(void **state)
{
    (void)state;
    static const char *const unit[] = {
        "a && ", "x=\"", "'", "<<E\n", "$(", "\\", "bash -c '", "echo \"$(x) `y` ${z}\" ",
        "\n", "cat <<E\nE\n", "((", "<(", "#", "$'\\x41", " ", "bash -c \"", "\"'\"'",
    };
    for (size_t u = 0; u < sizeof unit / sizeof *unit; u++) {
        size_t small = work_of(unit[u], 1u << 17), big = work_of(unit[u], 1u << 20);
        assert_true(small > 0);
        if (big > 9 * small || big > 64 * (1u << 20))
            fail_msg("unit %zu [%s]: %zu steps for 128 KiB, %zu for 1 MiB", u, unit[u], small, big);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_file),
        cmocka_unit_test(test_label_truncation),
        cmocka_unit_test(test_nul_and_binary),
        cmocka_unit_test(test_nesting_is_bounded),
        cmocka_unit_test(test_linear_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
