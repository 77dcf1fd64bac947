#include "base/timefmt.h"

#include <string.h>

#define NS_PER_SEC INT64_C(1000000000)

static inline bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Reads exactly k digits at s; false if any is not a digit. */
static inline bool digits(const unsigned char *s, int k, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < k; i++) {
        if (!is_digit(s[i]))
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return true;
}

static inline bool leap_year(unsigned y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned days_in_month(unsigned y, unsigned m)
{
    static const unsigned char dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap_year(y) ? 29 : dim[m - 1];
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil); y >= 1 here, so every intermediate is non-negative. */
static inline int64_t days_from_civil(unsigned y, unsigned m, unsigned d)
{
    y -= m <= 2;
    unsigned era = y / 400;
    unsigned yoe = y - era * 400;
    unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (int64_t)era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static bool fail(int64_t *ns, unsigned *flags)
{
    *ns = SBX_TIME_UNKNOWN;
    if (flags)
        *flags = 0;
    return false;
}

bool sbx_time_parse_general(const char *str, size_t n, int64_t *ns, unsigned *flags)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned year, mon, day, hh, mm, ss, fl = 0;

    /* "YYYY-MM-DDTHH:MM:SS" is 19 bytes */
    if (!s || n < 19)
        return fail(ns, flags);
    if (!digits(s, 4, &year) || s[4] != '-' || !digits(s + 5, 2, &mon) || s[7] != '-' ||
        !digits(s + 8, 2, &day))
        return fail(ns, flags);
    if (s[10] != 'T' && s[10] != 't' && s[10] != ' ')
        return fail(ns, flags);
    if (!digits(s + 11, 2, &hh) || s[13] != ':' || !digits(s + 14, 2, &mm) || s[16] != ':' ||
        !digits(s + 17, 2, &ss))
        return fail(ns, flags);
    if (year == 0 || mon < 1 || mon > 12 || day < 1 || day > days_in_month(year, mon))
        return fail(ns, flags);
    if (hh > 23 || mm > 59 || ss > 60 || (ss == 60 && mm != 59))
        return fail(ns, flags);

    size_t i = 19;
    int64_t frac = 0;
    if (i < n && (s[i] == '.' || s[i] == ',')) {
        i++;
        static const int32_t scale[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                          10000, 1000, 100, 10, 1};
        size_t start = i;
        int nd = 0;
        while (i < n && is_digit(s[i])) {
            if (nd < 9) {
                frac = frac * 10 + (s[i] - '0');
                nd++;
            }
            i++;
        }
        if (i == start)
            return fail(ns, flags);
        frac *= scale[nd];
    }

    int64_t offset = 0; /* seconds east of UTC */
    if (i == n) {
        fl |= SBX_TIME_NO_ZONE;
    } else if (s[i] == 'Z' || s[i] == 'z') {
        i++;
    } else if (s[i] == '+' || s[i] == '-') {
        int sign = s[i] == '-' ? -1 : 1;
        unsigned oh, om = 0;
        i++;
        if (n - i < 2 || !digits(s + i, 2, &oh))
            return fail(ns, flags);
        i += 2;
        if (i < n && s[i] == ':') {
            if (n - i < 3 || !digits(s + i + 1, 2, &om))
                return fail(ns, flags);
            i += 3;
        } else if (n - i >= 2 && is_digit(s[i])) {
            if (!digits(s + i, 2, &om))
                return fail(ns, flags);
            i += 2;
        }
        if (oh > 23 || om > 59)
            return fail(ns, flags);
        offset = sign * (int64_t)(oh * 3600 + om * 60);
    } else {
        return fail(ns, flags);
    }
    if (i != n)
        return fail(ns, flags);

    if (ss == 60) {
        ss = 59;
        frac = NS_PER_SEC - 1;
        fl |= SBX_TIME_LEAP_SECOND;
    }
    /* years 1..9999 with offsets stay far inside int64 seconds */
    int64_t secs = days_from_civil(year, mon, day) * 86400 + (int64_t)(hh * 3600 + mm * 60 + ss) -
                   offset;
    if (secs < 0 && frac > 0) { /* keep secs * 1e9 in range near the lower limit */
        secs += 1;
        frac -= NS_PER_SEC;
    }
    int64_t t;
    if (__builtin_mul_overflow(secs, NS_PER_SEC, &t) || __builtin_add_overflow(t, frac, &t) ||
        t == SBX_TIME_UNKNOWN)
        return fail(ns, flags);
    *ns = t;
    if (flags)
        *flags = fl;
    return true;
}

/* The two digits at s[i], s[i+1] as a number, or a value above 99 when
 * either is not a digit (each is 0..9 only when it is one). */
#define TWO(i) (((unsigned)s[i] - '0' > 9 || (unsigned)s[(i) + 1] - '0' > 9) ? 100u \
                : ((unsigned)s[i] - '0') * 10 + ((unsigned)s[(i) + 1] - '0'))

/* The year range keeps every instant positive and inside int64 nanoseconds,
 * so there is no overflow to check; the general parser takes the rest. */
static inline bool parse_fast(const char *str, size_t n, int64_t *ns)
{
    const unsigned char *s = (const unsigned char *)str;
    if (!s || n < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
        return false;
    unsigned hi = TWO(0), lo = TWO(2), mon = TWO(5), day = TWO(8), hh = TWO(11), mm = TWO(14),
             ss = TWO(17);
    unsigned year = hi * 100 + lo;
    if (hi > 99 || lo > 99 || year < 1970 || year > 2199 || mon < 1 || mon > 12 || day < 1 ||
        day > days_in_month(year, mon) || hh > 23 || mm > 59 || ss > 59)
        return false;
    size_t i = 19;
    int64_t frac = 0;
    if (s[i] == '.') {
        static const int32_t scale[10] = {0, 100000000, 10000000, 1000000, 100000, 10000, 1000,
                                          100, 10, 1};
        size_t start = ++i, stop = n - i < 10 ? n : i + 10;
        while (i < stop && (unsigned)s[i] - '0' <= 9)
            frac = frac * 10 + (s[i++] - '0');
        size_t nd = i - start;
        if (nd == 0 || nd > 9)
            return false;
        frac *= scale[nd];
    }
    if (!(n - i == 1 && s[i] == 'Z') &&
        !(n - i == 6 && memcmp(s + i, "+00:", 4) == 0 && memcmp(s + i + 4, "00", 2) == 0))
        return false;
    int64_t secs = days_from_civil(year, mon, day) * 86400 + (int64_t)(hh * 3600 + mm * 60 + ss);
    *ns = secs * NS_PER_SEC + frac;
    return true;
}
#undef TWO

bool sbx_time_parse_fast(const char *str, size_t n, int64_t *ns)
{
    return parse_fast(str, n, ns);
}

bool sbx_time_parse(const char *str, size_t n, int64_t *ns, unsigned *flags)
{
    if (parse_fast(str, n, ns)) {
        if (flags)
            *flags = 0;
        return true;
    }
    return sbx_time_parse_general(str, n, ns, flags);
}

static char *put_digits(char *p, uint64_t v, int width)
{
    for (int i = width - 1; i >= 0; i--) {
        p[i] = (char)('0' + v % 10);
        v /= 10;
    }
    return p + width;
}

/* Writes v in decimal; returns the end. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

char *sbx_time_format(int64_t ns, char *buf)
{
    if (ns == SBX_TIME_UNKNOWN) {
        memcpy(buf, "unknown", 8);
        return buf;
    }
    int64_t ms = floor_div(ns, 1000000);
    int64_t secs = floor_div(ms, 1000);
    unsigned msr = (unsigned)(ms - secs * 1000);
    int64_t days = floor_div(secs, 86400);
    unsigned sod = (unsigned)(secs - days * 86400);
    int64_t y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);

    char *p = buf;
    p = put_digits(p, (uint64_t)y, 4); /* int64 ns spans years 1677..2262 */
    *p++ = '-';
    p = put_digits(p, m, 2);
    *p++ = '-';
    p = put_digits(p, d, 2);
    *p++ = 'T';
    p = put_digits(p, sod / 3600, 2);
    *p++ = ':';
    p = put_digits(p, sod / 60 % 60, 2);
    *p++ = ':';
    p = put_digits(p, sod % 60, 2);
    *p++ = '.';
    p = put_digits(p, msr, 3);
    *p++ = 'Z';
    *p = '\0';
    return buf;
}
