/* sbx_time: ISO 8601 / RFC 3339 times <-> int64 nanoseconds since the epoch
 * (UTC). Durations for people are base/numfmt.h's.
 *
 * Parsing is exact: a string is either one whole time in the accepted
 * grammar (below) with a real calendar date, or it is rejected. Instants
 * that do not fit in int64 nanoseconds (before 1677-09-21T00:12:43.145224193Z
 * or after 2262-04-11T23:47:16.854775807Z) are rejected too; INT64_MIN is
 * reserved for SBX_TIME_UNKNOWN. No libc time, locale or TZ functions are
 * used, no allocation, no global state: safe from any thread.
 *
 * Ownership: the format functions write into the caller's buffer (at least
 * SBX_TIME_BUFSZ bytes) and return it; nothing to free. */
#ifndef SBX_TIMEFMT_H
#define SBX_TIMEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SBX_TIME_UNKNOWN INT64_MIN
#define SBX_TIME_BUFSZ 32

enum { SBX_TIME_NO_ZONE = 1u, SBX_TIME_LEAP_SECOND = 2u };

/* ISO 8601 / RFC 3339 -> int64 nanoseconds since the epoch, UTC.
 * Grammar: YYYY-MM-DD, then 'T', 't' or one space, then HH:MM:SS, then an
 * optional fraction ('.' or ',' and 1 or more digits; digits past the 9th are
 * accepted and truncated), then an optional zone: 'Z', 'z', +HH:MM, -HH:MM,
 * +HHMM, -HHMM, +HH or -HH (up to 23:59). No zone: read as UTC and
 * SBX_TIME_NO_ZONE is set. Second 60 is accepted only in minute 59 (any hour,
 * because of offsets) and reads as :59.999999999 with SBX_TIME_LEAP_SECOND.
 * Year 0000, trailing bytes, and anything else -> false, *ns =
 * SBX_TIME_UNKNOWN. flags may be NULL; it is always written when not NULL. */
bool sbx_time_parse(const char *s, size_t n, int64_t *ns, unsigned *flags);

/* sbx_time_parse is these two: first the fast path for the one spelling
 * the recorder and most tools write, exactly YYYY-MM-DDTHH:MM:SS, optionally
 * '.' and 1 to 9 digits, then "Z" or "+00:00", in the years 1970 to 2199 and
 * no leap second: true with *ns set (the flags are 0). For anything else it
 * returns false without writing, and the general parser, which accepts the
 * whole grammar above, decides. For every string the fast path takes, the
 * general one gives the same value and flags 0 (tests/unit/cases/times.test,
 * fuzz_time check it); both are exposed for that comparison. */
bool sbx_time_parse_fast(const char *s, size_t n, int64_t *ns);
bool sbx_time_parse_general(const char *s, size_t n, int64_t *ns, unsigned *flags);

/* "2026-10-08T14:10:03.123Z": milliseconds (rounded toward negative
 * infinity, so pre-1970 times print correctly), UTC, always 24 characters;
 * "unknown" for SBX_TIME_UNKNOWN. Returns buf. */
char *sbx_time_format(int64_t ns, char *buf);

#endif
