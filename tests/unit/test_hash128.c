/* The ids' 128-bit hash (base/hash128.h): known answers pinned (the value
 * never changes), pieces hash as their concatenation, every input bit
 * moves every output bit with about even odds, and the values of many
 * similar inputs spread evenly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/hash128.h"
#include "cases.h"

enum { PATTERN_MAX = 4096 };

static unsigned char pattern[PATTERN_MAX];

static void make_pattern(void)
{
    for (size_t i = 0; i < PATTERN_MAX; i++)
        pattern[i] = (unsigned char)(31 * i + 7);
}

static uint64_t hex64(const struct test_case *c, size_t i)
{
    char *end;
    unsigned long long v = strtoull(c->field[i], &end, 16);
    if (c->len[i] != 16 || *end)
        case_fail(c, "field %zu is not 16 hex digits: %s", i + 1, c->field[i]);
    return v;
}

static void check_known(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 3);
    const void *data = c->field[0];
    size_t n = c->len[0];
    if (strcmp(c->table, "pattern") == 0) {
        long long len = case_int(c, 0);
        if (len < 0 || len > PATTERN_MAX)
            case_fail(c, "pattern length %lld out of range", len);
        data = pattern;
        n = (size_t)len;
    }
    uint64_t hi, lo;
    sbx_hash128(data, n, &hi, &lo);
    if (hi != hex64(c, 1) || lo != hex64(c, 2))
        case_fail(c, "got %016llx %016llx", (unsigned long long)hi, (unsigned long long)lo);
}

static void known_answers(void **state)
{
    (void)state;
    make_pattern();
    assert_true(cases_run("hash128.test", check_known, NULL) >= 20);
}

/* Every split of the pattern's first n bytes into three pieces (n up to
 * three stripes and a bit) gives the value of the whole. */
static void pieces(void **state)
{
    (void)state;
    make_pattern();
    for (size_t n = 0; n <= 3 * SBX_HASH128_STRIPE + 5; n++) {
        uint64_t hi, lo;
        sbx_hash128(pattern, n, &hi, &lo);
        for (size_t a = 0; a <= n; a++)
            for (size_t b = a; b <= n; b++) {
                struct sbx_hash128 h;
                sbx_hash128_begin(&h);
                sbx_hash128_add(&h, pattern, a);
                sbx_hash128_add(&h, pattern + a, b - a);
                sbx_hash128_add(&h, pattern + b, n - b);
                uint64_t h1, l1;
                sbx_hash128_end(&h, &h1, &l1);
                if (h1 != hi || l1 != lo)
                    fail_msg("%zu bytes split at %zu and %zu: another value", n, a, b);
            }
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Avalanche: for inputs of each length (every 1-byte input; random ones
 * for the others), flipping any one input bit flips each of the 128 output
 * bits with a probability between 0.45 and 0.55 (0.42 and 0.58 for 1 byte,
 * which has only 2,048 cases), and about 64 of them on average. */
static void avalanche(void **state)
{
    (void)state;
    static const size_t lens[] = {1, 2, 3, 5, 8, 9, 16, 31, 32, 33, 63, 64, 65, 100, 257};
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
        size_t n = lens[li], inputs = n == 1 ? 256 : 4096 / n + 64;
        double slack = n == 1 ? 0.08 : 0.05;
        long flips[128] = {0}, cases = 0, total = 0;
        unsigned char b[257];
        for (size_t t = 0; t < inputs; t++) {
            for (size_t i = 0; i < n; i++)
                b[i] = (unsigned char)(n == 1 ? t : rng());
            uint64_t hi, lo;
            sbx_hash128(b, n, &hi, &lo);
            for (size_t bit = 0; bit < 8 * n; bit++) {
                b[bit / 8] ^= (unsigned char)(1u << bit % 8);
                uint64_t h2, l2;
                sbx_hash128(b, n, &h2, &l2);
                b[bit / 8] ^= (unsigned char)(1u << bit % 8);
                uint64_t dh = hi ^ h2, dl = lo ^ l2;
                for (int k = 0; k < 64; k++) {
                    flips[k] += (long)(dh >> k & 1);
                    flips[64 + k] += (long)(dl >> k & 1);
                }
                total += __builtin_popcountll(dh) + __builtin_popcountll(dl);
                cases++;
            }
        }
        for (int k = 0; k < 128; k++) {
            double p = (double)flips[k] / (double)cases;
            if (p < 0.5 - slack || p > 0.5 + slack)
                fail_msg("%zu-byte inputs: output bit %d flips with p = %.3f", n, k, p);
        }
        double mean = (double)total / (double)cases;
        if (mean < 63 || mean > 65)
            fail_msg("%zu-byte inputs: %.2f output bits flip on average", n, mean);
    }
}

/* Distribution: the ids' 50-bit keys (the value's first 50 bits) of 65,536
 * lines that differ only in a counter fall evenly into 256 buckets by their
 * top 8 bits and by their low 8 bits (chi-square with 255 degrees of
 * freedom below 340, p < 0.0003 for an even spread), and no two share a key. */
static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void distribution(void **state)
{
    (void)state;
    enum { N = 65536, BUCKETS = 256 };
    uint64_t *keys = malloc(N * sizeof *keys);
    long top[BUCKETS] = {0}, low[BUCKETS] = {0};
    for (size_t i = 0; i < N; i++) {
        char line[64];
        int len = snprintf(line, sizeof line, "{\"command\":\"run %zu\"}", i);
        uint64_t hi, lo;
        sbx_hash128(line, (size_t)len, &hi, &lo);
        keys[i] = hi >> 14;
        top[keys[i] >> 42]++;
        low[keys[i] & 255]++;
    }
    double expect = (double)N / BUCKETS, chi_top = 0, chi_low = 0;
    for (size_t k = 0; k < BUCKETS; k++) {
        chi_top += (top[k] - expect) * (top[k] - expect) / expect;
        chi_low += (low[k] - expect) * (low[k] - expect) / expect;
    }
    if (chi_top > 340 || chi_low > 340)
        fail_msg("uneven keys: chi-square %.1f (top bits), %.1f (low bits)", chi_top, chi_low);
    qsort(keys, N, sizeof *keys, by_u64);
    for (size_t i = 1; i < N; i++)
        assert_true(keys[i] != keys[i - 1]);
    free(keys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_answers),
        cmocka_unit_test(pieces),
        cmocka_unit_test(avalanche),
        cmocka_unit_test(distribution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
