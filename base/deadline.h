/* A deadline a short while from now, on the clock pthread_cond_timedwait
 * reads by default (CLOCK_REALTIME): for a wait that must also look, now
 * and then, at a flag nobody signals.
 *
 * Ownership: returns a value; nothing to free. */
#ifndef SBX_DEADLINE_H
#define SBX_DEADLINE_H

#include <time.h>

/* Now plus ns nanoseconds (0 <= ns < 1 s), normalised. */
static inline struct timespec sbx_realtime_in(long ns)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += ns;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

#endif
