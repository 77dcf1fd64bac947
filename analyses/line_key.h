/* The key of a small cache of answers by command line (analyses that ask
 * the same question of each command's line, and agents repeat commands):
 * a slot chosen by a hash of the line and one more word (a cwd's strtab id,
 * or 0), holding a copy of the line so that a hit is compared in full.
 * Header-only. A key owns its line (at most the max its cache gives, made
 * on the slot's first use): sbx_line_key_free releases it. */
#ifndef SBX_ANALYSES_LINE_KEY_H
#define SBX_ANALYSES_LINE_KEY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h" /* sbx_xmalloc */
#include "base/fnv.h"

struct sbx_line_key {
    uint64_t hash;
    uint32_t extra;
    uint32_t len; /* 0: the slot is empty */
    char *line;   /* owned */
};

static inline uint64_t sbx_line_key_hash(const char *s, size_t n, uint32_t extra)
{
    return sbx_fnv1a(SBX_FNV_BASIS ^ n ^ (uint64_t)extra << 32, s, n);
}

/* The slot of hash h among 1 << bits (from the top bits: FNV's low bits
 * never see the extra word). */
static inline size_t sbx_line_key_slot(uint64_t h, unsigned bits)
{
    return (size_t)((h * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static inline bool sbx_line_key_is(const struct sbx_line_key *k, uint64_t h, const char *s, size_t n,
                                   uint32_t extra)
{
    return k->len == n && k->hash == h && k->extra == extra && memcmp(k->line, s, n) == 0;
}

/* k now stands for s[0..n) and extra (n at most max, the same max for every
 * call on k). */
static inline void sbx_line_key_set(struct sbx_line_key *k, uint64_t h, const char *s, size_t n,
                                    uint32_t extra, size_t max)
{
    if (!k->line)
        k->line = sbx_xmalloc(max);
    k->hash = h;
    k->extra = extra;
    k->len = (uint32_t)n;
    memcpy(k->line, s, n);
}

static inline void sbx_line_key_free(struct sbx_line_key *k)
{
    free(k->line);
    k->line = NULL;
    k->len = 0;
}

#endif
