#include "app/range.h"

#include "base/timefmt.h"

/* When e began: its start, else its end; SBX_TIME_UNKNOWN when neither. */
static int64_t began(const struct sbx_event *e)
{
    return e->start != SBX_TIME_UNKNOWN ? e->start : e->end;
}

static bool still_running(const struct sbx_event *e)
{
    return e->kind == SBX_EV_COMMAND && (e->u.cmd.flags & SBX_CMD_RUNNING) &&
           (e->end == SBX_TIME_UNKNOWN || e->end <= e->start);
}

/* When e ended: its end when it is known and not before when it began, else
 * when it began; INT64_MAX for a command still running. */
static int64_t ended(const struct sbx_event *e)
{
    if (still_running(e))
        return INT64_MAX;
    int64_t b = began(e);
    return e->end != SBX_TIME_UNKNOWN && e->end > b ? e->end : b;
}

bool sbx_range_between(const struct sbx_event *a, const struct sbx_event *b,
                       struct sbx_range *out, bool *swapped)
{
    if (swapped)
        *swapped = false;
    int64_t ba = began(a), bb = began(b);
    if (ba == SBX_TIME_UNKNOWN && bb == SBX_TIME_UNKNOWN) {
        out->from = out->to = SBX_TIME_UNKNOWN;
        return false;
    }
    if (ba == SBX_TIME_UNKNOWN || (bb != SBX_TIME_UNKNOWN && bb < ba)) {
        const struct sbx_event *t = a;
        a = b;
        b = t;
        if (swapped)
            *swapped = true;
    }
    /* a is the earlier row with a time: from its start to the end of the
     * later row (its start when it has no end, or is still running) */
    out->from = began(a);
    const struct sbx_event *last = began(b) == SBX_TIME_UNKNOWN ? a : b;
    out->to = ended(last) == INT64_MAX ? began(last) : ended(last);
    if (out->to < out->from)
        out->to = out->from;
    return true;
}

bool sbx_range_overlaps(const struct sbx_range *r, const struct sbx_event *e)
{
    if (r->from == SBX_TIME_UNKNOWN)
        return false;
    int64_t b = began(e);
    if (b == SBX_TIME_UNKNOWN)
        return false;
    return b <= r->to && ended(e) >= r->from;
}
