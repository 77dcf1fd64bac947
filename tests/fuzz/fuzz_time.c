/* Fuzz target for base/timefmt and base/numfmt: parsing never misbehaves,
 * gives exactly what the general parser gives (and the fast path, where it
 * takes a string, the same value), an accepted time formats to 24
 * characters that parse back to the same millisecond, and durations and
 * sizes always fit their buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/timefmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int64_t ns = 0;
    unsigned flags = 99;
    bool ok = sbx_time_parse((const char *)data, size, &ns, &flags);
    int64_t gns = 0, fns = 0;
    unsigned gflags = 99;
    if (sbx_time_parse_general((const char *)data, size, &gns, &gflags) != ok || gns != ns ||
        gflags != flags)
        abort();
    if (sbx_time_parse_fast((const char *)data, size, &fns) && (!ok || fns != ns || flags != 0))
        abort();
    if (!ok) {
        if (ns != SBX_TIME_UNKNOWN || flags != 0)
            abort();
    } else {
        if (ns == SBX_TIME_UNKNOWN || size < 19 || (flags & ~3u))
            abort();
        char buf[SBX_TIME_BUFSZ];
        sbx_time_format(ns, buf);
        if (strlen(buf) != 24)
            abort();
        int64_t back;
        unsigned bf;
        if (sbx_time_parse(buf, 24, &back, &bf)) {
            if (bf != 0 || back > ns || ns - back >= 1000000 || back % 1000000 != 0)
                abort();
        } else if (ns >= INT64_MIN + 1000000) {
            abort(); /* only the first millisecond of the range can floor out of it */
        }
    }
    if (size >= 8) {
        int64_t ms;
        memcpy(&ms, data, 8);
        char buf[SBX_NUM_BUFSZ] = {0};
        for (int style = SBX_DUR_WORDS; style <= SBX_DUR_SHORT; style++) {
            sbx_duration_text(ms, (enum sbx_dur_style)style, buf);
            size_t len = strlen(buf);
            if (len == 0 || len >= SBX_NUM_BUFSZ)
                abort();
        }
        sbx_size_text(ms, buf);
        if (strlen(buf) == 0 || strlen(buf) > 7)
            abort();
        char tbuf[SBX_TIME_BUFSZ];
        sbx_time_format(ms, tbuf);
        if (ms != SBX_TIME_UNKNOWN && strlen(tbuf) != 24)
            abort();
    }
    return 0;
}
