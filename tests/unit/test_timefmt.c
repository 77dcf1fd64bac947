/* Tests for base/timefmt: parsing edge cases (docs/hostile-inputs.md row
 * 27), the int64 range limits and formatting (floor for pre-1970), as a
 * table in tests/unit/cases/times.test; lengths and NUL bytes, every day
 * against timegm, and format-then-parse round trips. */
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
#include "tests/unit/cases.h"

static bool parse(const char *s, int64_t *ns, unsigned *flags)
{
    return sbx_time_parse(s, strlen(s), ns, flags);
}

static unsigned flag_words(const struct test_case *c, size_t i)
{
    unsigned fl = 0;
    char words[64];
    snprintf(words, sizeof words, "%s", c->field[i]);
    for (char *save, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (strcmp(w, "no-zone") == 0)
            fl |= SBX_TIME_NO_ZONE;
        else if (strcmp(w, "leap-second") == 0)
            fl |= SBX_TIME_LEAP_SECOND;
        else if (strcmp(w, "0") != 0)
            case_fail(c, "unknown flag %s", w);
    }
    return fl;
}

static void check_parse(const struct test_case *c)
{
    int64_t ns = 0;
    unsigned fl = 99;
    bool ok = sbx_time_parse(c->field[0], c->len[0], &ns, &fl);
    if (c->n == 1) {
        if (ok)
            case_fail(c, "accepted: %s", c->field[0]);
        if (ns != SBX_TIME_UNKNOWN || fl != 0)
            case_fail(c, "rejected %s but left %lld, flags %u", c->field[0], (long long)ns, fl);
        return;
    }
    case_want_fields(c, 3);
    if (!ok)
        case_fail(c, "rejected: %s", c->field[0]);
    if (ns != case_int(c, 1))
        case_fail(c, "%s: got %lld, want %s", c->field[0], (long long)ns, c->field[1]);
    if (fl != flag_words(c, 2))
        case_fail(c, "%s: flags %u, want %s", c->field[0], fl, c->field[2]);
}

/* sbx_time_parse gives what the general parser gives, whichever way it
 * went; the fast path, where it takes a string, gives the same value. */
static void check_same_as_general(const struct test_case *c, bool want_fast)
{
    int64_t ns = 0, gns = 0, fns = 0;
    unsigned fl = 99, gfl = 99;
    bool ok = sbx_time_parse(c->field[0], c->len[0], &ns, &fl);
    bool gok = sbx_time_parse_general(c->field[0], c->len[0], &gns, &gfl);
    if (ok != gok || ns != gns || fl != gfl)
        case_fail(c, "%s: %d %lld %u, the general parser %d %lld %u", c->field[0], ok,
                  (long long)ns, fl, gok, (long long)gns, gfl);
    bool fast = sbx_time_parse_fast(c->field[0], c->len[0], &fns);
    if (fast != want_fast)
        case_fail(c, "%s: the fast path %s it", c->field[0], fast ? "took" : "handed over");
    if (fast && (!gok || fns != gns || gfl != 0))
        case_fail(c, "%s: fast %lld, the general parser %d %lld %u", c->field[0],
                  (long long)fns, gok, (long long)gns, gfl);
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    char buf[SBX_TIME_BUFSZ];
    if (strcmp(c->table, "parse") == 0) {
        check_parse(c);
        int64_t ns;
        check_same_as_general(c, sbx_time_parse_fast(c->field[0], c->len[0], &ns));
        return;
    }
    if (strcmp(c->table, "route") == 0) {
        case_want_fields(c, 2);
        if (strcmp(c->field[1], "fast") != 0 && strcmp(c->field[1], "general") != 0)
            case_fail(c, "route %s: fast or general", c->field[1]);
        check_same_as_general(c, strcmp(c->field[1], "fast") == 0);
        return;
    }
    case_want_fields(c, 2);
    if (strcmp(c->table, "format") == 0)
        sbx_time_format(case_int(c, 0), buf);
    else
        case_fail(c, "no such table in this file's runner");
    if (strlen(buf) >= SBX_TIME_BUFSZ || strcmp(buf, c->field[1]) != 0)
        case_fail(c, "%s: got [%s], want [%s]", c->field[0], buf, c->field[1]);
}

/* Parsing and formatting: tests/unit/cases/times.test. */
static void test_case_file(void **state)
{
    (void)state;
    cases_run("times.test", check_case, NULL);
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

static void test_format_length(void **state)
{
    (void)state;
    char buf[SBX_TIME_BUFSZ];
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_file),
        cmocka_unit_test(test_embedded_nul_and_length),
        cmocka_unit_test(test_against_timegm),
        cmocka_unit_test(test_format_length),
        cmocka_unit_test(test_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
