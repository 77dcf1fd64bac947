/* Numbers for people: durations, percentages and sizes. One rounding rule
 * for all of them: a value is rounded to the nearest unit it is shown in,
 * halves up (507.5 ms shows as 508 ms, 91.5% as 92%), and the rounding is
 * done before the unit is chosen, so a value never shows as "1000 ms" or
 * "60 s". One unit system for sizes: powers of 1024 (B, KiB, MiB, GiB, TiB,
 * PiB, EiB). Every output (summaries, check, compare, the views, the runs
 * list, exports) formats these numbers here, so one fact reads the same
 * everywhere.
 *
 * No allocation, no global state: safe from any thread. Ownership: the
 * text functions write into the caller's buffer (at least SBX_NUM_BUFSZ
 * bytes) and return it; nothing to free. */
#ifndef SBX_NUMFMT_H
#define SBX_NUMFMT_H

#include <stdint.h>

#define SBX_NUM_BUFSZ 32

/* n / d rounded to the nearest whole number, halves away from zero; d > 0. */
int64_t sbx_round_div(int64_t n, int64_t d);

/* Nanoseconds as whole milliseconds by the rule (for JSON "ms" fields and
 * durations derived from two times). */
int64_t sbx_ns_to_ms(int64_t ns);

/* Milliseconds as nanoseconds, held at the int64 range (a recorded "ms"
 * may be any integer). */
int64_t sbx_ms_to_ns(int64_t ms);

enum sbx_dur_style {
    SBX_DUR_WORDS, /* "897 ms", "1.5 s", "59 s", "2 min 14 s", "1 h 0 min" */
    SBX_DUR_SHORT, /* "897ms", "1.5s", "59s", "2m14s", "1h00m", from 100 h "123h":
                      at most 6 characters below 100,000 h, for columns */
};

/* A duration in nanoseconds: under 1 s in whole milliseconds; under 1 min
 * in tenths of a second (".0" dropped); under 1 h in minutes and whole
 * seconds; else in hours and whole minutes. Negative -> "?". */
char *sbx_duration_text(int64_t ns, enum sbx_dur_style style, char *buf);

/* A value of zero or more (a percentage, a ratio in tenths) as a whole
 * number by the rule, held at 10^15; -1 for a negative or NaN value (not
 * known). */
int64_t sbx_round_nearest(double v);
/* "92%"; "?" when not known. */
char *sbx_percent_text(double pct, char *buf);

/* A size: under 1000 bytes "999 B"; else in the largest unit that keeps
 * the rounded value under 1000, with one decimal under 10 ("6.8 KiB",
 * "178 KiB", "1.0 MiB"). Negative -> "?". At most 7 characters. */
char *sbx_size_text(int64_t bytes, char *buf);

#endif
