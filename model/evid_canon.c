#include "model/evid_canon.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/simd.h"

#if SBX_X86_64
#include <immintrin.h>
#endif

/* Bytes gathered before they go to add: one call per few KiB, not one per
 * token. */
struct gather {
    sbx_canon_add_fn *add;
    void *ctx;
    size_t n;
    char b[8192];
};

static void gather_add(struct gather *g, const char *s, size_t n)
{
    if (g->n + n > sizeof g->b) {
        if (g->n)
            g->add(g->ctx, g->b, g->n);
        g->n = 0;
        if (n > sizeof g->b) {
            g->add(g->ctx, s, n);
            return;
        }
    }
    memcpy(g->b + g->n, s, n);
    g->n += n;
}

/* The same for a piece that ends at least 16 bytes before limit, the end
 * of what may be read: a short piece (most are a token between two
 * blanks) is copied as 16 bytes, without a call. */
static inline void gather_add_before(struct gather *g, const char *s, size_t n,
                                     const char *limit)
{
    if (n <= 16 && limit - s >= 16 && g->n + 16 <= sizeof g->b) {
        memcpy(g->b + g->n, s, 16);
        g->n += n;
        return;
    }
    gather_add(g, s, n);
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The closing quote of a JSON string whose body goes on at i, or n: the
 * next quote not escaped, found with memchr (a quote is escaped when an odd
 * run of backslashes, inside the body, is just before it; none is open at i). */
static size_t string_end(const char *s, size_t i, size_t n)
{
    size_t from = i;
    while (i < n) {
        const char *q = memchr(s + i, '"', n - i);
        if (!q)
            return n;
        size_t at = (size_t)(q - s), k = at;
        while (k > from && s[k - 1] == '\\')
            k--;
        if ((at - k) % 2 == 0)
            return at;
        i = from = at + 1;
    }
    return n;
}

/* The scalar twin, from i on, where the bytes before it were read up to a
 * state: inside a string or not, and (inside one) whether the byte at i is
 * escaped. The bytes not yet added start at run. */
static void canon_scalar(struct gather *g, const char *s, size_t i, size_t n, size_t run,
                         bool in_string, bool escaped)
{
    if (in_string) {
        i = string_end(s, escaped ? i + 1 : i, n);
        if (i >= n) {
            gather_add(g, s + run, n - run);
            return;
        }
        i++;
    }
    for (; i < n; i++) {
        char c = s[i];
        if (c == '"') {
            i = string_end(s, i + 1, n);
            if (i == n)
                break;
        } else if (is_space(c)) {
            gather_add(g, s + run, i - run);
            run = i + 1;
        }
    }
    gather_add(g, s + run, (i < n ? i : n) - run);
}

#if SBX_X86_64
#define AVX2 __attribute__((target("avx2")))

static AVX2 inline uint64_t mask_of(__m256i a, __m256i b, __m256i k)
{
    uint64_t lo = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, k));
    uint64_t hi = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, k));
    return lo | hi << 32;
}

static AVX2 inline uint64_t space_mask(__m256i a, __m256i b)
{
    /* each blank by its low nibble ('\t' 9, '\n' A, '\r' D, ' ' 0; 0 where
     * none): a byte is a blank when the table's byte for its low nibble is
     * itself (the shuffle gives 0 for bytes from 0x80) */
    const __m256i blanks = _mm256_setr_epi8(' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0,
                                            ' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0);
    __m256i wa = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(blanks, a), a);
    __m256i wb = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(blanks, b), b);
    return (uint32_t)_mm256_movemask_epi8(wa) | (uint64_t)(uint32_t)_mm256_movemask_epi8(wb) << 32;
}

/* Bit i set when bits 0..i of x hold an odd number of ones. */
static inline uint64_t prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* The bytes of a block escaped by a backslash: each one just after a run
 * of backslashes of odd length. *open is the length's parity of a run the
 * block before ended in (-1: none), and is set for this block. */
static inline uint64_t escaped_of(uint64_t bs, int *open)
{
    const uint64_t even = 0x5555555555555555ULL;
    uint64_t escaped = 0;
    if (*open >= 0) { /* the run goes on into this block */
        unsigned lead = bs == ~0ULL ? 64 : (unsigned)__builtin_ctzll(~bs);
        if (lead == 64) {
            *open = (*open + 64) & 1;
            return 0;
        }
        if ((*open + (int)lead) & 1)
            escaped |= 1ULL << lead;
        bs &= ~0ULL << lead;
    }
    *open = -1;
    if (bs >> 63) { /* a run reaching the block's end: its parity goes on */
        unsigned top = bs == ~0ULL ? 64 : (unsigned)__builtin_clzll(~bs);
        *open = (int)(top & 1);
        bs &= top == 64 ? 0 : ~(~0ULL << (64 - top));
    }
    uint64_t starts = bs & ~(bs << 1);
    uint64_t from_even = (bs + (starts & even)) & ~bs, from_odd = (bs + (starts & ~even)) & ~bs;
    return escaped | (from_even & ~even) | (from_odd & even);
}

/* 64 bytes at a time: quotes, backslashes and whitespace as bit masks; the
 * inside of strings is the running parity of the quotes not escaped. A
 * backslash outside a string (no JSON has one) sends the rest to the scalar
 * twin, which reads it differently, from the block's start. */
static AVX2 void canon_avx2(struct gather *g, const char *s, size_t i, size_t n)
{
    const __m256i quote = _mm256_set1_epi8('"'), bslash = _mm256_set1_epi8('\\');
    size_t run = i;
    uint64_t inside = 0; /* all ones when the block starts inside a string */
    int open = -1;
    char tmp[64];
    while (i < n) {
        const char *p = s + i;
        uint64_t valid = ~0ULL;
        if (n - i < 64) {
            memset(tmp, 'x', sizeof tmp);
            memcpy(tmp, p, n - i);
            p = tmp;
            valid = ~0ULL >> (64 - (n - i));
        }
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
        uint64_t q = mask_of(a, b, quote), bs = mask_of(a, b, bslash);
        if (inside && !q && valid == ~0ULL) {
            /* all of it inside one string: every byte kept; only a run of
             * backslashes at its end goes on */
            if (bs == ~0ULL)
                open = open >= 0 ? open : 0;
            else
                open = bs >> 63 ? __builtin_clzll(~bs) & 1 : -1;
            i += 64;
            continue;
        }
        int was_open = open;
        uint64_t esc = bs || open >= 0 ? escaped_of(bs, &open) : 0;
        uint64_t real = q & ~esc & valid;
        uint64_t in = prefix_xor(real) ^ inside;
        /* a quote not escaped, or a backslash, outside a string? */
        if (bs & ~in & valid) {
            /* the state at the block's start: inside a string, and whether
             * its first byte is escaped */
            canon_scalar(g, s, i, n, run, inside != 0, was_open == 1);
            return;
        }
        /* a block all inside one string keeps every byte */
        uint64_t drop = ~in & valid ? space_mask(a, b) & ~in & valid : 0;
        for (; drop; drop &= drop - 1) {
            size_t at = i + (size_t)__builtin_ctzll(drop);
            gather_add_before(g, s + run, at - run, s + n);
            run = at + 1;
        }
        inside = (uint64_t)((int64_t)in >> 63);
        i += 64;
    }
    gather_add(g, s + run, n - run);
}
#endif

/* The canonical bytes of s[i..n), read from outside any string. */
static void canon_range(struct gather *g, const char *s, size_t i, size_t n)
{
#if SBX_X86_64
    if (sbx_cpu_avx2()) {
        canon_avx2(g, s, i, n);
        return;
    }
#endif
    canon_scalar(g, s, i, n, i, false, false);
}

/* Where a JSON record starts ('{' or '[' after spaces and tabs), or n. */
static size_t json_start(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i < n && (s[i] == '{' || s[i] == '[') ? i : n;
}

void sbx_evid_canonical(const char *s, size_t n, sbx_canon_add_fn *add, void *ctx)
{
    size_t i = json_start(s, n);
    if (i < n) {
        struct gather g;
        g.add = add;
        g.ctx = ctx;
        g.n = 0;
        canon_range(&g, s, i, n);
        if (g.n)
            add(ctx, g.b, g.n);
        return;
    }
    if (n && s[n - 1] == '\r')
        n--;
    add(ctx, s, n);
}

void sbx_evid_canonical_bodies(const char *s, size_t n, const struct sbx_canon_body *bodies,
                               size_t nb, sbx_canon_add_fn *add, void *ctx)
{
    size_t i = json_start(s, n), from = i;
    bool fit = i < n;
    for (size_t k = 0; fit && k < nb; k++) {
        size_t a = bodies[k].off, b = a + bodies[k].len;
        fit = a > from && b < n && s[a - 1] == '"' && s[b] == '"';
        from = b + 1;
    }
    if (!fit) {
        sbx_evid_canonical(s, n, add, ctx);
        return;
    }
    struct gather g;
    g.add = add;
    g.ctx = ctx;
    g.n = 0;
    for (size_t k = 0; k < nb; k++) {
        /* up to the opening quote, which leaves the pass inside the string */
        canon_range(&g, s, i, bodies[k].off);
        if (g.n)
            add(ctx, g.b, g.n);
        g.n = 0;
        add(ctx, s + bodies[k].off, bodies[k].len);
        i = bodies[k].off + bodies[k].len;
        gather_add(&g, s + i, 1); /* the closing quote */
        i++;
    }
    canon_range(&g, s, i, n);
    if (g.n)
        add(ctx, g.b, g.n);
}
