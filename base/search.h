/* Finding by pointer in an array sorted by a pointer its elements hold (the
 * analyses keep pairs and lists of events sorted by event address, to look
 * one event up). Header only; owns and allocates nothing. */
#ifndef SBX_SEARCH_H
#define SBX_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* The first of the n elements of base (each size bytes, sorted by the
 * pointer stored at offset within it) whose pointer is not below key; n
 * when none is. */
static inline size_t sbx_lower_bound_ptr(const void *base, size_t n, size_t size, size_t offset,
                                         const void *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const void *at = *(const void *const *)((const char *)base + mid * size + offset);
        if ((uintptr_t)at < (uintptr_t)key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#endif
