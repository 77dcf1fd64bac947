/* LSD radix sort, 11 bits a pass; a pass whose digit is the same in every
 * key (the usual case for the upper digits of small fields) is skipped. */
#include "base/radix.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

enum { DIGIT = 11, RADIX = 1 << DIGIT };

void sbx_radix_sort_high(uint64_t *keys, size_t n, unsigned from)
{
    if (n < 2 || from > 63)
        return;
    uint64_t *tmp = NULL;
    size_t *at = sbx_xmalloc(RADIX * sizeof *at);
    for (unsigned shift = from; shift < 64; shift += DIGIT) {
        uint64_t mask = RADIX - 1;
        memset(at, 0, RADIX * sizeof *at);
        for (size_t i = 0; i < n; i++)
            at[keys[i] >> shift & mask]++;
        if (at[keys[0] >> shift & mask] == n)
            continue;
        for (size_t d = 0, sum = 0; d < RADIX; d++) {
            size_t c = at[d];
            at[d] = sum;
            sum += c;
        }
        if (!tmp)
            tmp = sbx_xmalloc(n * sizeof *tmp);
        for (size_t i = 0; i < n; i++)
            tmp[at[keys[i] >> shift & mask]++] = keys[i];
        memcpy(keys, tmp, n * sizeof *keys);
    }
    free(tmp);
    free(at);
}
