/* An event's header (model/event.h): the line's offset, the source, the
 * kind and the time flags share one 64-bit word; each reads back what was
 * stored whatever the others and the rest of the header hold
 * (tests/unit/cases/event_word.test), and a source's size fits the offset's
 * bits up to SBX_SOURCE_MAX. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/cases.h"
#include "model/event.h"

static uint64_t field_u64(const struct test_case *c, size_t i)
{
    return strtoull(c->field[i], NULL, 10);
}

/* Stores the case's four values into an event whose every other byte is
 * fill, and checks all of the header back. */
static void check_word_over(const struct test_case *c, unsigned char fill)
{
    uint64_t off = field_u64(c, 0), source = field_u64(c, 1), kind = field_u64(c, 2),
             tflags = field_u64(c, 3);
    struct sbx_event e;
    memset(&e, fill, sizeof e);
    struct sbx_event before = e;
    e.line_off = off;
    e.source = source;
    e.kind = kind;
    e.tflags = tflags;
    if (e.line_off != off || e.source != source || e.kind != kind || e.tflags != tflags)
        case_fail(c, "over 0x%02x read back %llu %llu %llu %llu", fill, (unsigned long long)e.line_off,
                  (unsigned long long)e.source, (unsigned long long)e.kind,
                  (unsigned long long)e.tflags);
    if (e.start != before.start || e.end != before.end || e.line_len != before.line_len ||
        e.line_no != before.line_no || e.findings != before.findings ||
        e.sandbox != before.sandbox || e.label != before.label ||
        memcmp(&e.u, &before.u, sizeof e.u) != 0)
        case_fail(c, "over 0x%02x another field of the header changed", fill);
}

static void check_case(const struct test_case *c, void *ctx)
{
    int *seen = ctx;
    if (strcmp(c->table, "word") == 0) {
        case_want_fields(c, 4);
        check_word_over(c, 0x00);
        check_word_over(c, 0xff);
        check_word_over(c, 0x5a);
        seen[0]++;
    } else if (strcmp(c->table, "fits") == 0) {
        case_want_fields(c, 2);
        bool want = strcmp(c->field[1], "yes") == 0;
        if (sbx_source_fits(field_u64(c, 0)) != want)
            case_fail(c, "%s fits: %s", c->field[0], want ? "no" : "yes");
        seen[1]++;
    } else {
        case_fail(c, "an unknown table");
    }
}

static void word_and_fits(void **state)
{
    (void)state;
    int seen[2] = {0, 0};
    cases_run("event_word.test", check_case, seen);
    assert_true(seen[0] >= 9);
    assert_true(seen[1] >= 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(word_and_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
