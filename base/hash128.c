#include "base/hash128.h"

#include <string.h>

/* Odd constants with balanced bits: the fractional parts of the cube roots
 * of the first primes (as SHA-512 takes them), made odd where they were not. */
#define M_IN UINT64_C(0x428a2f98d728ae23)  /* a word into its lane */
#define M_OUT UINT64_C(0x7137449123ef65cd) /* the lane after its rotation */
#define M_LEN UINT64_C(0xb5c0fbcfec4d3b2f) /* the length into the finish */
#define F1 UINT64_C(0xe9b5dba58189dbbd)    /* the finisher's two multipliers */
#define F2 UINT64_C(0x3956c25bf348b539)

static const uint64_t seed[4] = {UINT64_C(0x59f111f1b605d019), UINT64_C(0x923f82a4af194f9b),
                                 UINT64_C(0xab1c5ed5da6d8118), UINT64_C(0xd807aa98a3030242)};
#define SEED_HI UINT64_C(0x12835b0145706fbe)
#define SEED_LO UINT64_C(0x243185be4ee4b28c)

static inline uint64_t rotl(uint64_t x, unsigned r)
{
    return x << r | x >> (64 - r);
}

/* 8 bytes as a little-endian word, whatever the machine's order. */
static inline uint64_t word_at(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* One word into a lane: a bijection of the word for any lane value, so two
 * stripes that differ leave the lanes different until the finish. */
static inline uint64_t take(uint64_t lane, uint64_t w)
{
    return rotl(lane + w * M_IN, 31) * M_OUT;
}

static inline void stripe(uint64_t lane[4], const unsigned char *p)
{
    lane[0] = take(lane[0], word_at(p));
    lane[1] = take(lane[1], word_at(p + 8));
    lane[2] = take(lane[2], word_at(p + 16));
    lane[3] = take(lane[3], word_at(p + 24));
}

/* Every input bit reaches every output bit with about even odds. */
static inline uint64_t finish64(uint64_t x)
{
    x ^= x >> 32;
    x *= F1;
    x ^= x >> 29;
    x *= F2;
    x ^= x >> 32;
    return x;
}

void sbx_hash128_begin(struct sbx_hash128 *h)
{
    memcpy(h->lane, seed, sizeof h->lane);
    h->len = 0;
    h->npart = 0;
}

void sbx_hash128_add(struct sbx_hash128 *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    h->len += n;
    if (h->npart) {
        size_t k = SBX_HASH128_STRIPE - h->npart;
        if (n < k) {
            memcpy(h->part + h->npart, p, n);
            h->npart += n;
            return;
        }
        memcpy(h->part + h->npart, p, k);
        stripe(h->lane, h->part);
        h->npart = 0;
        p += k;
        n -= k;
    }
    uint64_t lane[4] = {h->lane[0], h->lane[1], h->lane[2], h->lane[3]};
    for (; n >= SBX_HASH128_STRIPE; p += SBX_HASH128_STRIPE, n -= SBX_HASH128_STRIPE)
        stripe(lane, p);
    memcpy(h->lane, lane, sizeof lane);
    if (n) {
        memcpy(h->part, p, n);
        h->npart = n;
    }
}

/* The last stripe is padded with zeros; the length, mixed in, keeps inputs
 * that differ only by trailing zeros apart. Each half runs through the
 * lanes in its own order, then the halves are mixed into each other. */
void sbx_hash128_end(const struct sbx_hash128 *h, uint64_t *hi, uint64_t *lo)
{
    uint64_t lane[4] = {h->lane[0], h->lane[1], h->lane[2], h->lane[3]};
    if (h->npart) {
        unsigned char last[SBX_HASH128_STRIPE] = {0};
        memcpy(last, h->part, h->npart);
        stripe(lane, last);
    }
    uint64_t a = SEED_HI ^ h->len * M_LEN, b = SEED_LO + h->len;
    a = finish64(a ^ lane[0]);
    a = finish64(a + lane[1]);
    a = finish64(a ^ lane[2]);
    a = finish64(a + lane[3]);
    b = finish64(b + lane[3]);
    b = finish64(b ^ lane[2]);
    b = finish64(b + lane[1]);
    b = finish64(b ^ lane[0]);
    a = finish64(a ^ rotl(b, 29));
    b = finish64(b + a);
    *hi = a;
    *lo = b;
}

void sbx_hash128(const void *data, size_t n, uint64_t *hi, uint64_t *lo)
{
    struct sbx_hash128 h;
    sbx_hash128_begin(&h);
    sbx_hash128_add(&h, data, n);
    sbx_hash128_end(&h, hi, lo);
}
