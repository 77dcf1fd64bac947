#include "base/numfmt.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int64_t sbx_round_div(int64_t n, int64_t d)
{
    int64_t q = n / d, r = n % d;
    /* |r| >= d - |r| without overflow: the remainder is at least half */
    if (r >= 0 ? r >= d - r : -r >= d + r)
        q += n >= 0 ? 1 : -1;
    return q;
}

int64_t sbx_ns_to_ms(int64_t ns)
{
    return sbx_round_div(ns, 1000000);
}

int64_t sbx_ms_to_ns(int64_t ms)
{
    if (ms > INT64_MAX / 1000000)
        return INT64_MAX;
    if (ms < INT64_MIN / 1000000)
        return INT64_MIN;
    return ms * 1000000;
}

char *sbx_duration_text(int64_t ns, enum sbx_dur_style style, char *buf)
{
    bool words = style == SBX_DUR_WORDS;
    const char *sp = words ? " " : "";
    if (ns < 0) {
        strcpy(buf, "?");
        return buf;
    }
    int64_t ms = sbx_round_div(ns, 1000000);
    if (ms < 1000) {
        snprintf(buf, SBX_NUM_BUFSZ, "%lld%sms", (long long)ms, sp);
        return buf;
    }
    int64_t tenths = sbx_round_div(ns, 100000000);
    if (tenths < 600) {
        if (tenths % 10)
            snprintf(buf, SBX_NUM_BUFSZ, "%lld.%d%ss", (long long)(tenths / 10), (int)(tenths % 10), sp);
        else
            snprintf(buf, SBX_NUM_BUFSZ, "%lld%ss", (long long)(tenths / 10), sp);
        return buf;
    }
    int64_t s = sbx_round_div(ns, 1000000000);
    if (s < 3600) {
        snprintf(buf, SBX_NUM_BUFSZ, words ? "%lld min %d s" : "%lldm%02ds", (long long)(s / 60),
                 (int)(s % 60));
        return buf;
    }
    int64_t min = sbx_round_div(ns, 60000000000LL);
    if (!words && min >= 100 * 60) { /* a column's 6 characters: whole hours */
        snprintf(buf, SBX_NUM_BUFSZ, "%lldh", (long long)sbx_round_div(ns, 3600000000000LL));
        return buf;
    }
    snprintf(buf, SBX_NUM_BUFSZ, words ? "%lld h %d min" : "%lldh%02dm", (long long)(min / 60),
             (int)(min % 60));
    return buf;
}

int64_t sbx_round_nearest(double v)
{
    if (!(v >= 0)) /* NaN fails this too */
        return -1;
    if (v >= 1e15)
        return (int64_t)1e15;
    int64_t whole = (int64_t)v; /* the fraction below is exact under 2^53 */
    return whole + (v - (double)whole >= 0.5);
}

char *sbx_percent_text(double pct, char *buf)
{
    int64_t p = sbx_round_nearest(pct);
    if (p < 0)
        strcpy(buf, "?");
    else
        snprintf(buf, SBX_NUM_BUFSZ, "%lld%%", (long long)p);
    return buf;
}

/* bytes / unit rounded, halves up, in exact integers */
static uint64_t size_round(int64_t bytes, unsigned __int128 unit, unsigned scale)
{
    return (uint64_t)(((unsigned __int128)bytes * scale + unit / 2) / unit);
}

char *sbx_size_text(int64_t bytes, char *buf)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    enum { NUNITS = sizeof units / sizeof units[0] };
    if (bytes < 0) {
        strcpy(buf, "?");
        return buf;
    }
    if (bytes < 1000) {
        snprintf(buf, SBX_NUM_BUFSZ, "%lld B", (long long)bytes);
        return buf;
    }
    unsigned __int128 unit = 1024;
    size_t u = 0;
    /* the next unit while this one would show 1000 or more (int64 stays
     * under 8 EiB, so the last unit always fits) */
    while (u + 1 < NUNITS && size_round(bytes, unit, 1) >= 1000) {
        unit *= 1024;
        u++;
    }
    uint64_t tenths = size_round(bytes, unit, 10);
    if (tenths < 100)
        snprintf(buf, SBX_NUM_BUFSZ, "%llu.%llu %s", (unsigned long long)(tenths / 10),
                 (unsigned long long)(tenths % 10), units[u]);
    else
        snprintf(buf, SBX_NUM_BUFSZ, "%llu %s", (unsigned long long)size_round(bytes, unit, 1), units[u]);
    return buf;
}
