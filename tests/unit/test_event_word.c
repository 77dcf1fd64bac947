/* An event's header (model/event.h): the line's offset, the source, the
 * kind and the time flags share one 64-bit word; each reads back what was
 * stored whatever the others and the rest of the header hold
 * (tests/unit/cases/event_word.test), and a source's size fits the offset's
 * bits up to SBX_SOURCE_MAX. A request's packed byte counts, flags and
 * status read back the same way. */
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
    if (e.start != before.start || e.end != before.end || e.line_len_ != before.line_len_ ||
        e.line_no_ != before.line_no_ || e.findings != before.findings ||
        e.sandbox != before.sandbox || e.label != before.label ||
        memcmp(&e.u, &before.u, sizeof e.u) != 0)
        case_fail(c, "over 0x%02x another field of the header changed", fill);
}

/* Stores the case's request fields over fill and reads them back. */
static void check_request_over(const struct test_case *c, unsigned char fill)
{
    int64_t in = (int64_t)case_int(c, 0), out = (int64_t)case_int(c, 2), status = (int64_t)case_int(c, 3);
    uint64_t flags = (uint64_t)case_int(c, 1);
    struct sbx_network n;
    memset(&n, fill, sizeof n);
    struct sbx_network before = n;
    n.bytes_in = in;
    n.flags = flags;
    n.bytes_out = out;
    n.status = status;
    if (n.bytes_in != in || n.flags != flags || n.bytes_out != out || n.status != status)
        case_fail(c, "over 0x%02x read back %lld %llu %lld %lld", fill, (long long)n.bytes_in,
                  (unsigned long long)n.flags, (long long)n.bytes_out, (long long)n.status);
    if (n.host != before.host || n.method != before.method || n.result != before.result ||
        n.client != before.client || memcmp(&n.url, &before.url, sizeof n.url) != 0)
        case_fail(c, "over 0x%02x another field of the request changed", fill);
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
    } else if (strcmp(c->table, "request") == 0) {
        case_want_fields(c, 4);
        check_request_over(c, 0x00);
        check_request_over(c, 0xff);
        check_request_over(c, 0x5a);
        seen[2]++;
    } else {
        case_fail(c, "an unknown table");
    }
}

static void word_and_fits(void **state)
{
    (void)state;
    int seen[3] = {0, 0, 0};
    cases_run("event_word.test", check_case, seen);
    assert_true(seen[0] >= 9);
    assert_true(seen[1] >= 6);
    assert_true(seen[2] >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(word_and_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
