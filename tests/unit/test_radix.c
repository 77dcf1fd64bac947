/* Tests for base/radix: the stable sort by upper bits against qsort of
 * (upper bits, input place) on random keys, for every start bit and for
 * keys whose upper bits span one, two or all three 11-bit digits (so that
 * passes are skipped or run), with ties, and the empty and one-key cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/radix.h"

struct ref {
    uint64_t key;
    size_t place;
    unsigned from;
};

static int by_high_then_place(const void *x, const void *y)
{
    const struct ref *a = x, *b = y;
    uint64_t ha = a->key >> a->from, hb = b->key >> b->from;
    if (ha != hb)
        return ha < hb ? -1 : 1;
    return (a->place > b->place) - (a->place < b->place);
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void agrees_with_stable_qsort(void **state)
{
    (void)state;
    uint64_t x = 0x2545F4914F6CDD1DULL;
    enum { N = 3000 };
    static uint64_t keys[N];
    static struct ref ref[N];
    for (unsigned from = 0; from < 64; from++) {
        /* upper bits over 1..(64 - from) of them: few distinct values (ties)
           up to all of them */
        for (unsigned width = 1; width <= 64 - from; width += width < 4 ? 1 : 7) {
            uint64_t high_mask = width >= 64 ? ~0ULL : (1ULL << width) - 1;
            size_t n = 1 + next(&x) % N;
            for (size_t i = 0; i < n; i++) {
                uint64_t low = from ? next(&x) & ((1ULL << from) - 1) : 0;
                keys[i] = (next(&x) & high_mask) << from | low;
                ref[i] = (struct ref){keys[i], i, from};
            }
            sbx_radix_sort_high(keys, n, from);
            qsort(ref, n, sizeof *ref, by_high_then_place);
            for (size_t i = 0; i < n; i++)
                assert_true(keys[i] == ref[i].key);
        }
    }
}

static void small_and_equal(void **state)
{
    (void)state;
    sbx_radix_sort_high(NULL, 0, 31);
    uint64_t one = 42;
    sbx_radix_sort_high(&one, 1, 0);
    assert_true(one == 42);
    /* equal upper bits: the order is kept as it was */
    uint64_t same[] = {7ULL << 40 | 3, 7ULL << 40 | 1, 7ULL << 40 | 2};
    sbx_radix_sort_high(same, 3, 40);
    assert_true(same[0] == (7ULL << 40 | 3) && same[1] == (7ULL << 40 | 1) &&
                same[2] == (7ULL << 40 | 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(agrees_with_stable_qsort),
        cmocka_unit_test(small_and_equal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
