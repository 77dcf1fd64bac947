/* Tests for base/numfmt: durations in both styles, percentages, sizes and
 * the rounding itself, as tables in tests/unit/cases/numbers.test (each
 * boundary a half, and the carry into the next unit); and that every
 * output fits SBX_NUM_BUFSZ and a size fits its 7 columns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/numfmt.h"
#include "tests/unit/cases.h"

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    char buf[SBX_NUM_BUFSZ];
    if (strcmp(c->table, "round") == 0) {
        case_want_fields(c, 3);
        long long got = sbx_round_div(case_int(c, 0), case_int(c, 1));
        if (got != case_int(c, 2))
            case_fail(c, "%s / %s: got %lld, want %s", c->field[0], c->field[1], got, c->field[2]);
        return;
    }
    case_want_fields(c, 2);
    if (strcmp(c->table, "words") == 0)
        sbx_duration_text(case_int(c, 0), SBX_DUR_WORDS, buf);
    else if (strcmp(c->table, "short") == 0)
        sbx_duration_text(case_int(c, 0), SBX_DUR_SHORT, buf);
    else if (strcmp(c->table, "percent") == 0)
        sbx_percent_text(strtod(c->field[0], NULL), buf);
    else if (strcmp(c->table, "size") == 0)
        sbx_size_text(case_int(c, 0), buf);
    else
        case_fail(c, "no such table in this file's runner");
    if (strcmp(buf, c->field[1]) != 0)
        case_fail(c, "%s: got [%s], want [%s]", c->field[0], buf, c->field[1]);
}

static void test_case_file(void **state)
{
    (void)state;
    cases_run("numbers.test", check_case, NULL);
}

/* Sizes fit the network view's columns; every text fits its buffer; and
 * a size never reads 1000 or more of a unit. */
static void test_widths(void **state)
{
    (void)state;
    char buf[SBX_NUM_BUFSZ];
    for (int64_t b = 1; b > 0 && b < INT64_MAX / 3; b = b * 3 + 1) {
        for (int64_t d = -2; d <= 2; d++) {
            sbx_size_text(b + d, buf);
            assert_true(strlen(buf) <= 7);
            assert_true(strtoll(buf, NULL, 10) < 1000);
        }
    }
    for (int64_t ns = 1; ns > 0 && ns < INT64_MAX / 3; ns = ns * 3 + 1) {
        assert_true(strlen(sbx_duration_text(ns, SBX_DUR_WORDS, buf)) < SBX_NUM_BUFSZ);
        assert_true(strlen(sbx_duration_text(ns, SBX_DUR_SHORT, buf)) < SBX_NUM_BUFSZ);
    }
    assert_int_equal(sbx_round_nearest(1e300), 1000000000000000LL);
    assert_int_equal(sbx_ns_to_ms(507500000), 508);
    assert_int_equal(sbx_ns_to_ms(507499999), 507);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_file),
        cmocka_unit_test(test_widths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
