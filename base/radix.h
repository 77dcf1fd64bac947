/* A stable radix sort of 64-bit keys by their upper bits (the analyses sort
 * keys made in a useful order, such as position, by a field packed above
 * it). Owns and allocates nothing the caller sees. */
#ifndef SBX_RADIX_H
#define SBX_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* Sorts keys[0..n) by their bits from `from` (0..63) up, keeping the
 * order keys with the same such bits had: when the lower bits ascend in
 * the input (a position), the result is the keys' numeric order. */
void sbx_radix_sort_high(uint64_t *keys, size_t n, unsigned from);

#endif
