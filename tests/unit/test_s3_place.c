/* Tests for placing a ranged read's bytes in its part (base/s3_place.h):
 * 206 answers from where their Range started (a first read, a resumed one),
 * 200 answers of the whole object cut to the part, chunks before, across
 * and after the part, a part to the object's end (len 0). Then a whole
 * body, fed in chunks of every size, must rebuild exactly the part. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/s3_place.h"

static void each_chunk_lands_where_it_belongs(void **state)
{
    (void)state;
    static const struct {
        uint64_t from, len, asked;
        long status;
        uint64_t at;
        size_t n;
        size_t skip, take;
        uint64_t off;
    } cases[] = {
        /* 206: the body starts at the Range's start */
        {100, 50, 100, 206, 0, 10, 0, 10, 0},
        {100, 50, 100, 206, 40, 10, 0, 10, 40},
        {100, 50, 100, 206, 45, 10, 0, 5, 45},   /* more than the part: cut at its end */
        {100, 50, 100, 206, 50, 10, 0, 0, 0},    /* wholly after it */
        {100, 50, 130, 206, 0, 10, 0, 10, 30},   /* resumed at 130 */
        {100, 50, 130, 206, 15, 10, 0, 5, 45},
        {0, 0, 0, 206, 7, 3, 0, 3, 7},           /* to the end: never cut */
        {0, 0, 64, 206, 0, 1000, 0, 1000, 64},
        /* 200: the whole object, whatever the Range asked */
        {100, 50, 100, 200, 0, 60, 0, 0, 0},     /* wholly before the part */
        {100, 50, 100, 200, 0, 100, 0, 0, 0},
        {100, 50, 100, 200, 90, 20, 10, 10, 0},  /* across its start */
        {100, 50, 130, 200, 120, 10, 0, 10, 20}, /* resumed, sent again whole */
        {100, 50, 100, 200, 90, 100, 10, 50, 0}, /* across both ends */
        {100, 50, 100, 200, 150, 10, 0, 0, 0},   /* after it */
        {0, 0, 0, 200, 5, 5, 0, 5, 5},
        {100, 0, 100, 200, 99, 2, 1, 1, 0},
        /* nothing in the chunk */
        {100, 50, 100, 206, 10, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sbx_s3_placed p = sbx_s3_place(cases[i].from, cases[i].len, cases[i].asked,
                                              cases[i].status, cases[i].at, cases[i].n);
        if (p.skip != cases[i].skip || p.take != cases[i].take ||
            (p.take && p.off != cases[i].off))
            fail_msg("case %zu: skip %zu take %zu off %llu, not %zu %zu %llu", i, p.skip, p.take,
                     (unsigned long long)p.off, cases[i].skip, cases[i].take,
                     (unsigned long long)cases[i].off);
    }
}

/* A body of the object's bytes 0..N, fed in chunks of size c, placed
 * into a part: the part's bytes, each once, nothing outside it. */
static void chunked_bodies_rebuild_the_part(void **state)
{
    (void)state;
    enum { N = 300 };
    unsigned char object[N], got[N];
    for (int i = 0; i < N; i++)
        object[i] = (unsigned char)(i * 7 + 3);
    static const struct {
        uint64_t from, len, asked;
        long status;
    } reads[] = {
        {0, 100, 0, 206}, {100, 100, 100, 206}, {250, 50, 250, 206}, {120, 80, 160, 206},
        {0, 100, 0, 200}, {100, 100, 100, 200}, {250, 50, 250, 200}, {40, 0, 40, 206},
        {40, 0, 40, 200},
    };
    for (size_t r = 0; r < sizeof reads / sizeof *reads; r++)
        for (size_t c = 1; c <= 64; c++) {
            uint64_t from = reads[r].from, len = reads[r].len ? reads[r].len : N - from;
            uint64_t start = reads[r].status == 206 ? reads[r].asked : 0;
            memset(got, 0, sizeof got);
            unsigned hits[N] = {0};
            for (uint64_t at = 0; start + at < N; at += c) {
                size_t n = start + at + c <= N ? c : (size_t)(N - start - at);
                struct sbx_s3_placed p =
                    sbx_s3_place(from, reads[r].len, reads[r].asked, reads[r].status, at, n);
                assert_true(p.skip + p.take <= n);
                for (size_t k = 0; k < p.take; k++) {
                    assert_true(p.off + k < len);
                    got[p.off + k] = object[start + at + p.skip + k];
                    hits[p.off + k]++;
                }
            }
            uint64_t first = reads[r].asked - from; /* bytes before it came on an earlier read */
            for (uint64_t k = 0; k < len; k++) {
                unsigned want = reads[r].status == 200 || k >= first ? 1 : 0;
                if (hits[k] != want || (want && got[k] != object[from + k]))
                    fail_msg("read %zu, chunks of %zu: byte %llu placed %u times", r, c,
                             (unsigned long long)k, hits[k]);
            }
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_chunk_lands_where_it_belongs),
        cmocka_unit_test(chunked_bodies_rebuild_the_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
