/* Tests for base/timefmt: parsing edge cases (docs/hostile-inputs.md row 27), the
 * int64 range limits, formatting (floor for pre-1970) and durations. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* timegm, as an oracle */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "base/timefmt.h"

static bool parse(const char *s, int64_t *ns, unsigned *flags)
{
    return sbx_time_parse(s, strlen(s), ns, flags);
}

static void expect_ok(const char *s, int64_t want, unsigned want_flags)
{
    int64_t ns = 0;
    unsigned fl = 99;
    if (!parse(s, &ns, &fl))
        fail_msg("rejected: %s", s);
    if (ns != want)
        fail_msg("%s: got %lld, want %lld", s, (long long)ns, (long long)want);
    assert_int_equal(fl, want_flags);
}

static void expect_bad(const char *s)
{
    int64_t ns = 0;
    unsigned fl = 99;
    if (parse(s, &ns, &fl))
        fail_msg("accepted: %s", s);
    assert_true(ns == SBX_TIME_UNKNOWN);
    assert_int_equal(fl, 0);
}

static void test_recorder_spellings(void **state)
{
    (void)state;
    const int64_t t = INT64_C(1791468603123000000); /* 2026-10-08T14:10:03.123Z */
    expect_ok("2026-10-08T14:10:03.123Z", t, 0);
    expect_ok("2026-10-08T14:10:03.123000+00:00", t, 0);
    expect_ok("2026-10-08T16:10:03.123+02:00", t, 0);
    expect_ok("2026-10-08T16:10:03.123+0200", t, 0);
    expect_ok("2026-10-08T16:10:03.123+02", t, 0);
    expect_ok("2026-10-08T09:40:03.123-04:30", t, 0);
    expect_ok("2026-10-08t14:10:03.123z", t, 0);
    expect_ok("2026-10-08 14:10:03.123Z", t, 0);
    expect_ok("2026-10-08T14:10:03,123Z", t, 0);
    expect_ok("2026-10-08T14:10:03.123456789Z", t + 456789, 0);
    /* digits past nanoseconds are accepted and truncated */
    expect_ok("2026-10-08T14:10:03.1234567899999Z", t + 456789, 0);
    expect_ok("2026-10-08T14:10:03.1Z", t - 23000000, 0);
    expect_ok("2026-10-08T14:10:03Z", t - 123000000, 0);
    expect_ok("2026-10-08T14:10:03.123", t, SBX_TIME_NO_ZONE);
    expect_ok("1970-01-01T00:00:00Z", 0, 0);
    expect_ok("1969-12-31T23:59:59.999Z", -1000000, 0);
}

static void test_row27(void **state)
{
    (void)state;
    expect_ok("2024-02-29T00:00:00Z", INT64_C(1709164800000000000), 0);
    expect_bad("2024-02-30T00:00:00Z");
    expect_bad("2023-02-29T00:00:00Z");
    expect_ok("2000-02-29T00:00:00Z", INT64_C(951782400000000000), 0);
    expect_bad("1900-02-29T00:00:00Z");
    /* leap second: :59.999999999 of that minute */
    expect_ok("2016-12-31T23:59:60Z", INT64_C(1483228799999999999), SBX_TIME_LEAP_SECOND);
    expect_ok("2016-12-31T23:59:60.5Z", INT64_C(1483228799999999999), SBX_TIME_LEAP_SECOND);
    expect_ok("2016-12-31T18:59:60-05:00", INT64_C(1483228799999999999), SBX_TIME_LEAP_SECOND);
    expect_ok("2016-12-31T23:59:60", INT64_C(1483228799999999999),
              SBX_TIME_LEAP_SECOND | SBX_TIME_NO_ZONE);
    expect_bad("2016-12-31T23:58:60Z");
    expect_bad("2016-12-31T23:59:61Z");
    expect_bad("0000-01-01T00:00:00Z");
    /* +14:00 (Kiribati) is a real offset */
    expect_ok("2026-10-09T04:10:03.123+14:00", INT64_C(1791468603123000000), 0);
    expect_ok("2026-10-08T14:10:03.123-23:59",
              INT64_C(1791468603123000000) + INT64_C(86340000000000), 0);
    expect_bad("2026-10-08T14:10:03.123+24:00");
    expect_bad("2026-10-08T14:10:03.123+05:60");
    expect_bad("yesterday");
    expect_bad("");
    expect_bad("2026-10-08");
    expect_bad("2026-13-08T14:10:03Z");
    expect_bad("2026-00-08T14:10:03Z");
    expect_bad("2026-10-00T14:10:03Z");
    expect_bad("2026-10-08T24:00:00Z");
    expect_bad("2026-10-08T14:60:00Z");
    expect_bad("2026-10-08T14:10:03.123Zjunk");
    expect_bad("2026-10-08T14:10:03.123Z ");
    expect_bad("2026-10-08T14:10:03.Z");
    expect_bad("2026-10-08T14:10:03.123+");
    expect_bad("2026-10-08T14:10:03.123+5");
    expect_bad("2026-10-08T14:10:03.123+05:");
    expect_bad("2026-10-08T14:10:03.123+05:3");
    expect_bad("2026-10-08T14:10:03.123+053");
    expect_bad("2026-10-08T14:10:03.123+05:30:00");
    expect_bad("2026-10-08  14:10:03Z");
    expect_bad("2026-10-08X14:10:03Z");
    expect_bad("+2026-10-08T14:10:03Z");
    expect_bad("20261-10-08T14:10:03Z");
    expect_bad("2026-1-08T14:10:03Z");
    expect_bad("2026-10-08T14:10:3Z");
    expect_bad("２０２６-10-08T14:10:03Z");
}

static void test_embedded_nul_and_length(void **state)
{
    (void)state;
    int64_t ns;
    unsigned fl;
    static const char s[] = "2026-10-08T14:10:03Z\0junk";
    assert_true(sbx_time_parse(s, 20, &ns, &fl));
    assert_false(sbx_time_parse(s, sizeof s - 1, &ns, &fl));
    assert_false(sbx_time_parse(s, 21, &ns, &fl));
    /* n shorter than the string: only the first n bytes count */
    assert_false(sbx_time_parse(s, 18, &ns, &fl));
    assert_true(sbx_time_parse("2026-10-08T14:10:03Z", 19, &ns, &fl));
    assert_int_equal(fl, SBX_TIME_NO_ZONE);
    assert_false(sbx_time_parse(NULL, 0, &ns, NULL));
    assert_true(ns == SBX_TIME_UNKNOWN);
}

static void test_range_limits(void **state)
{
    (void)state;
    /* the last representable instants on both sides */
    expect_ok("2262-04-11T23:47:16.854775807Z", INT64_MAX, 0);
    expect_bad("2262-04-11T23:47:16.854775808Z");
    expect_ok("1677-09-21T00:12:43.145224193Z", INT64_MIN + 1, 0);
    /* INT64_MIN itself is SBX_TIME_UNKNOWN: rejected */
    expect_bad("1677-09-21T00:12:43.145224192Z");
    expect_bad("1677-09-21T00:12:43.145224191Z");
    expect_bad("1677-01-01T00:00:00Z");
    expect_bad("2263-01-01T00:00:00Z");
    expect_bad("9999-12-31T23:59:59.999999999-23:59");
    expect_bad("0001-01-01T00:00:00+23:59");
    /* an offset may move an in-range local time out of range */
    expect_bad("2262-04-11T23:47:16.854775807-00:01");
    expect_ok("2262-04-12T00:47:16.854775807+01:00", INT64_MAX, 0);
}

/* Every day of the range, with a few times of day, against glibc's timegm
 * (which is TZ-independent) as an independent oracle. */
static void test_against_timegm(void **state)
{
    (void)state;
    char s[64];
    for (int year = 1678; year <= 2261; year++) {
        for (int mon = 1; mon <= 12; mon++) {
            for (int day = 1; day <= 31; day++) {
                struct tm tm = {0};
                tm.tm_year = year - 1900;
                tm.tm_mon = mon - 1;
                tm.tm_mday = day;
                tm.tm_hour = (year * 7 + day) % 24;
                tm.tm_min = (mon * 13 + day) % 60;
                tm.tm_sec = (day * 17) % 60;
                time_t t = timegm(&tm);
                bool real = tm.tm_mday == day; /* timegm normalised an impossible date */
                snprintf(s, sizeof s, "%04d-%02d-%02dT%02d:%02d:%02d.5Z", year, mon, day,
                         (year * 7 + day) % 24, (mon * 13 + day) % 60, (day * 17) % 60);
                int64_t ns;
                unsigned fl;
                bool ok = parse(s, &ns, &fl);
                if (ok != real)
                    fail_msg("%s: parse %d, calendar %d", s, ok, real);
                if (ok && ns != (int64_t)t * 1000000000 + 500000000)
                    fail_msg("%s: %lld vs timegm %lld", s, (long long)ns, (long long)t);
                if (ok) {
                    char out[SBX_TIME_BUFSZ];
                    snprintf(s, sizeof s, "%04d-%02d-%02dT%02d:%02d:%02d.500Z", year, mon, day,
                             (year * 7 + day) % 24, (mon * 13 + day) % 60, (day * 17) % 60);
                    assert_string_equal(sbx_time_format(ns, out), s);
                }
            }
        }
    }
}

static void test_format(void **state)
{
    (void)state;
    char buf[SBX_TIME_BUFSZ];
    assert_string_equal(sbx_time_format(INT64_C(1791468603123000000), buf),
                        "2026-10-08T14:10:03.123Z");
    assert_string_equal(sbx_time_format(INT64_C(1791468603123999999), buf),
                        "2026-10-08T14:10:03.123Z");
    assert_string_equal(sbx_time_format(0, buf), "1970-01-01T00:00:00.000Z");
    assert_string_equal(sbx_time_format(-1, buf), "1969-12-31T23:59:59.999Z");
    assert_string_equal(sbx_time_format(-1000000, buf), "1969-12-31T23:59:59.999Z");
    assert_string_equal(sbx_time_format(-1000001, buf), "1969-12-31T23:59:59.998Z");
    assert_string_equal(sbx_time_format(INT64_MAX, buf), "2262-04-11T23:47:16.854Z");
    assert_string_equal(sbx_time_format(INT64_MIN + 1, buf), "1677-09-21T00:12:43.145Z");
    assert_string_equal(sbx_time_format(SBX_TIME_UNKNOWN, buf), "unknown");
    assert_int_equal(strlen(sbx_time_format(INT64_C(1483228799999999999), buf)), 24);
    assert_string_equal(buf, "2016-12-31T23:59:59.999Z");
}

static void test_roundtrip(void **state)
{
    (void)state;
    /* format then parse gives the time floored to the millisecond */
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t t = (int64_t)x;
        if (t == SBX_TIME_UNKNOWN)
            continue;
        char buf[SBX_TIME_BUFSZ];
        sbx_time_format(t, buf);
        assert_int_equal(strlen(buf), 24);
        int64_t back;
        unsigned fl;
        if (!parse(buf, &back, &fl)) {
            /* only the very first millisecond can floor to INT64_MIN's ms */
            assert_true(t < INT64_MIN + 1000000);
            continue;
        }
        assert_true(back <= t && t - back < 1000000);
    }
}

static void test_duration(void **state)
{
    (void)state;
    char buf[SBX_TIME_BUFSZ];
    assert_string_equal(sbx_duration_format(897, buf), "897 ms");
    assert_string_equal(sbx_duration_format(0, buf), "0 ms");
    assert_string_equal(sbx_duration_format(999, buf), "999 ms");
    assert_string_equal(sbx_duration_format(1000, buf), "1 s");
    assert_string_equal(sbx_duration_format(1500, buf), "1.5 s");
    assert_string_equal(sbx_duration_format(1099, buf), "1 s");
    assert_string_equal(sbx_duration_format(59000, buf), "59 s");
    assert_string_equal(sbx_duration_format(59999, buf), "59.9 s");
    assert_string_equal(sbx_duration_format(60000, buf), "1 min 0 s");
    assert_string_equal(sbx_duration_format(134000, buf), "2 min 14 s");
    assert_string_equal(sbx_duration_format(3599999, buf), "59 min 59 s");
    assert_string_equal(sbx_duration_format(3600000, buf), "1 h 0 min");
    assert_string_equal(sbx_duration_format(90061000, buf), "25 h 1 min");
    assert_string_equal(sbx_duration_format(-1, buf), "?");
    assert_string_equal(sbx_duration_format(INT64_MIN, buf), "?");
    sbx_duration_format(INT64_MAX, buf);
    assert_true(strlen(buf) < SBX_TIME_BUFSZ);
    assert_string_equal(buf, "2562047788015 h 12 min");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recorder_spellings),
        cmocka_unit_test(test_row27),
        cmocka_unit_test(test_embedded_nul_and_length),
        cmocka_unit_test(test_range_limits),
        cmocka_unit_test(test_against_timegm),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_duration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
