/* The timeline's time range (app/range.h): what overlaps it, and the range
 * two rows make, as tables (tests/unit/cases/range.test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/timefmt.h"
#include "app/range.h"
#include "cases.h"

/* Seconds as ns, "-" unknown. */
static int64_t when_of(const struct test_case *c, const char *s)
{
    if (strcmp(s, "-") == 0)
        return SBX_TIME_UNKNOWN;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end)
        case_fail(c, "not a time in seconds: %s", s);
    return (int64_t)v * 1000000000;
}

static int64_t when(const struct test_case *c, size_t i) { return when_of(c, c->field[i]); }

static struct sbx_event event_from(const struct test_case *c, const char *kind, const char *start,
                                   const char *end, const char *running)
{
    struct sbx_event e = {0};
    if (strcmp(kind, "command") == 0)
        e.kind = SBX_EV_COMMAND;
    else if (strcmp(kind, "other") == 0)
        e.kind = SBX_EV_NETWORK;
    else
        case_fail(c, "a kind is command or other, not %s", kind);
    e.start = when_of(c, start);
    e.end = when_of(c, end);
    if (strcmp(running, "running") == 0)
        e.u.cmd.flags |= SBX_CMD_RUNNING;
    return e;
}

/* Fields i..i+3: kind, start, end, running. */
static struct sbx_event event_of(const struct test_case *c, size_t i)
{
    return event_from(c, c->field[i], c->field[i + 1], c->field[i + 2], c->field[i + 3]);
}

/* One field "kind start end running". */
static struct sbx_event event_in(const struct test_case *c, size_t i)
{
    char k[16], s[32], e[32], r[16];
    if (sscanf(c->field[i], "%15s %31s %31s %15s", k, s, e, r) != 4)
        case_fail(c, "a row is: kind start end running");
    return event_from(c, k, s, e, r);
}

static void check_overlaps(const struct test_case *c)
{
    case_want_fields(c, 7);
    struct sbx_range r = {when(c, 0), when(c, 1)};
    struct sbx_event e = event_of(c, 2);
    bool want = strcmp(c->field[6], "in") == 0;
    if (sbx_range_overlaps(&r, &e) != want)
        case_fail(c, "the event is %s the range, wanted %s", want ? "out of" : "in", c->field[6]);
}

static void check_between(const struct test_case *c)
{
    case_want_fields(c, 5);
    struct sbx_event a = event_in(c, 0), b = event_in(c, 1);
    struct sbx_range r;
    bool swapped;
    bool got = sbx_range_between(&a, &b, &r, &swapped);
    if (strcmp(c->field[2], "none") == 0) {
        if (got || r.from != SBX_TIME_UNKNOWN)
            case_fail(c, "a range without any time");
        return;
    }
    if (!got)
        case_fail(c, "no range");
    if (r.from != when(c, 2) || r.to != when(c, 3))
        case_fail(c, "the range is %lld..%lld s", (long long)(r.from / 1000000000),
                  (long long)(r.to / 1000000000));
    if (swapped != (strcmp(c->field[4], "b") == 0))
        case_fail(c, "the earlier row is %s", swapped ? "b" : "a");
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    if (strcmp(c->table, "overlaps") == 0)
        check_overlaps(c);
    else if (strcmp(c->table, "between") == 0)
        check_between(c);
    else
        case_fail(c, "no such table");
}

static void test_range_cases(void **state)
{
    (void)state;
    assert_true(cases_run("range.test", check_case, NULL) >= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_range_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
