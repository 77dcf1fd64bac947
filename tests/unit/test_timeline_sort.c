/* The timeline's order after loading: (start, source, line), whatever order
 * the lines came in, unknown times first, ties kept in file order; large
 * loads take the radix sort, small ones qsort, and both must agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"

static void check_order(size_t nlines, uint64_t seed)
{
    struct sbx_buf b = SBX_BUF_INIT;
    uint64_t x = seed;
    for (size_t i = 0; i < nlines; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (x % 50 == 0) { /* no time: sorts first */
            sbx_buf_adds(&b, "{\"at\": null, \"kind\": \"command\", \"command\": \"x\", \"exit\": 0}\n");
            continue;
        }
        /* few distinct seconds (many ties), durations that move starts before
         * earlier lines, and years apart (high radix digits differ too) */
        int year = 2000 + (int)(x % 3) * 20;
        int sec = (int)((x >> 8) % 40);
        int ms = (int)((x >> 16) % 3000);
        sbx_buf_addf(&b, "{\"at\": \"%04d-06-01T10:00:%02dZ\", \"kind\": \"command\", \"command\": \"x\", "
                         "\"exit\": 0, \"ms\": %d}\n", year, sec, ms);
    }
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    uint32_t src = sbx_timeline_add_source(&tl, "run.jsonl", b.p, b.len, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 2, .split_min = 1};
    sbx_load_source(&tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, nlines);
    for (size_t i = 1; i < tl.n; i++)
        if (sbx_event_cmp(sbx_tl_at(&tl, i - 1), sbx_tl_at(&tl, i)) >= 0)
            fail_msg("%zu lines: positions %zu and %zu out of order", nlines, i - 1, i);
    sbx_timeline_free(&tl);
}

static void small_loads(void **state)
{
    (void)state;
    check_order(10, 1);
    check_order(1000, 2);
}

static void large_loads(void **state)
{
    (void)state;
    check_order(5000, 3);
    check_order(60000, 4);
}

/* Buffers adopted against source order (the later source first): the big
 * sort must not assume (source, line) order; sizes put the split between
 * the sorting threads at the sources' border and inside either source. */
static void adopted_against_source_order(void **state)
{
    (void)state;
    const size_t sizes[][2] = {{5000, 5000}, {3000, 9000}, {9000, 3000}};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        sbx_timeline_add_source(&tl, "a", NULL, 0, SBX_DATA_HEAP);
        sbx_timeline_add_source(&tl, "b", NULL, 0, SBX_DATA_HEAP);
        uint64_t x = c + 7;
        for (int k = 0; k < 2; k++) {
            uint32_t source = 1 - (uint32_t)k; /* b first */
            struct sbx_evbuf buf = {0};
            for (size_t i = 0; i < sizes[c][k]; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                struct sbx_event *e = sbx_evbuf_push_from(&buf, source, 0, 0, (uint32_t)i + 1);
                e->start = (int64_t)(x % 1000) * 1000000;
            }
            sbx_timeline_adopt(&tl, &buf);
        }
        sbx_timeline_finish(&tl);
        assert_int_equal(tl.n, sizes[c][0] + sizes[c][1]);
        for (size_t i = 1; i < tl.n; i++)
            if (sbx_event_cmp(sbx_tl_at(&tl, i - 1), sbx_tl_at(&tl, i)) >= 0)
                fail_msg("case %zu: positions %zu and %zu out of order", c, i - 1, i);
        sbx_timeline_free(&tl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_loads),
        cmocka_unit_test(large_loads),
        cmocka_unit_test(adopted_against_source_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
