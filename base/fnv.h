/* FNV-1a, the hash of the tables that only need a decent spread over short
 * keys (interned strings, hosts, lines, caches): never stored, never
 * compared between runs, so its values are free to change.
 *
 * Pure functions: nothing to own. */
#ifndef SBX_FNV_H
#define SBX_FNV_H

#include <stddef.h>
#include <stdint.h>

#define SBX_FNV_BASIS UINT64_C(1469598103934665603)

/* h, FNV-1a's state (SBX_FNV_BASIS to start, or it mixed with a length or
 * a tag), carried over the n bytes at s. */
static inline uint64_t sbx_fnv1a(uint64_t h, const void *s, size_t n)
{
    const unsigned char *p = s;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(1099511628211);
    return h;
}

#endif
