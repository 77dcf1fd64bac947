/* A fast 128-bit hash of bytes, for names derived from content (the
 * review's event ids, model/evid.h): well mixed, but no integrity check —
 * two inputs that share a value can be made on purpose, so a caller that
 * must tell inputs apart compares their bytes when the values are equal.
 *
 * The value is defined on the bytes alone (words read little-endian, no
 * alignment), so it is the same on every architecture and byte order, and
 * it never changes: ids made from it are kept in review files, and
 * tests/unit/test_hash128.c pins known answers. Pieces added one after
 * another hash as their concatenation does.
 *
 * Ownership: the state is the caller's (usually on its stack); nothing is
 * allocated. Safe from any thread on states of its own. */
#ifndef SBX_HASH128_H
#define SBX_HASH128_H

#include <stddef.h>
#include <stdint.h>

enum { SBX_HASH128_STRIPE = 32 };

struct sbx_hash128 {
    uint64_t lane[4];
    uint64_t len;                            /* bytes added so far */
    unsigned char part[SBX_HASH128_STRIPE]; /* a stripe not yet full */
    size_t npart;
};

/* The value of data[0..n): hi is its first 64 bits, lo the last 64. */
void sbx_hash128(const void *data, size_t n, uint64_t *hi, uint64_t *lo);

/* Starts a value, adds pieces, gives it (the state may then begin again). */
void sbx_hash128_begin(struct sbx_hash128 *h);
void sbx_hash128_add(struct sbx_hash128 *h, const void *data, size_t n);
void sbx_hash128_end(const struct sbx_hash128 *h, uint64_t *hi, uint64_t *lo);

#endif
