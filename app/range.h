/* A time range of the timeline and the rule for what overlaps it, on the
 * one clock the timeline shows (importers put every source on it). The
 * review selects one with v on its first row and v on its last: the range
 * runs from the earlier row's start to the later row's end (its start
 * when it has no end or is still running).
 *
 * The rule: an event's time runs from its start (its end when the start is
 * unknown) to its end; an unknown end, or one before the start, is the
 * start (as analyses/cmdlink.h reads a command), except for a command its
 * record says is still running, which runs on past the range. An event
 * overlaps the range when it began at or before the range's end and had
 * not ended before its start: a command started earlier and still running
 * when the range began is in it. An event without any time is in no range.
 *
 * Nothing here allocates or keeps pointers. */
#ifndef SBX_APP_RANGE_H
#define SBX_APP_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/event.h"

struct sbx_range {
    int64_t from, to; /* ns on the timeline's clock; from <= to */
};

/* The range between two rows' events, given in either order (swapped, when
 * not NULL, says b is the earlier); false when neither has a time (the
 * range then is empty). */
bool sbx_range_between(const struct sbx_event *a, const struct sbx_event *b,
                       struct sbx_range *out, bool *swapped);

/* Whether e overlaps r (the rule above). */
bool sbx_range_overlaps(const struct sbx_range *r, const struct sbx_event *e);

#endif
