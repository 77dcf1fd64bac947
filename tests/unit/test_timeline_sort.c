/* The timeline's order after loading: (start, source, line), whatever order
 * the lines came in, unknown times first, ties kept in file order; large
 * loads take the radix sort, small ones qsort, and both must agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* Starts for the big sort's shapes: event i of n's start, in ns. */
struct start_shape {
    const char *name;
    int64_t (*start)(size_t i, size_t n);
};

static int64_t all_at_once(size_t i, size_t n)
{
    (void)i, (void)n;
    return 1800000000LL * 1000000000LL; /* every key alike: the places decide */
}

static int64_t low_byte_backwards(size_t i, size_t n)
{
    return (int64_t)((n - i) % 256); /* keys differ in their lowest byte only */
}

static int64_t years_and_ties(size_t i, size_t n)
{
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15u;
    (void)n;
    return (int64_t)(x >> 62) * 20 * 365 * 86400 * 1000000000LL + (int64_t)((x >> 40) % 50) * 1000000000LL;
}

static int64_t unknown_and_negative(size_t i, size_t n)
{
    (void)n;
    return i % 7 == 0 ? SBX_TIME_UNKNOWN : (int64_t)(i % 13) * -1000000000LL + (int64_t)(i % 3);
}

static const struct start_shape start_shapes[] = {
    {"all at once", all_at_once},
    {"low byte backwards", low_byte_backwards},
    {"years and ties", years_and_ties},
    {"unknown and negative", unknown_and_negative},
};

/* The big sort (4096 events or more) on starts all alike, differing in
 * their lowest byte only, years apart with many ties, unknown and before
 * 1970, from two sources adopted in order: each event once, by (start,
 * source, line), and events that start together in the order they came. */
static void big_sort_shapes(void **state)
{
    (void)state;
    static const size_t sizes[] = {4096, 4097, 30011};
    for (size_t sh = 0; sh < sizeof start_shapes / sizeof *start_shapes; sh++)
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
            size_t n = sizes[z];
            struct sbx_timeline tl;
            sbx_timeline_init(&tl);
            sbx_timeline_add_source(&tl, "a", NULL, 0, SBX_DATA_HEAP);
            sbx_timeline_add_source(&tl, "b", NULL, 0, SBX_DATA_HEAP);
            for (uint32_t source = 0; source < 2; source++) {
                struct sbx_evbuf buf = {0};
                for (size_t i = source; i < n; i += 2)
                    sbx_evbuf_push_from(&buf, source, 0, 0, (uint32_t)i + 1)->start =
                        start_shapes[sh].start(i, n);
                sbx_timeline_adopt(&tl, &buf);
            }
            sbx_timeline_finish(&tl);
            assert_int_equal(tl.n, n);
            bool *seen = calloc(n, sizeof *seen);
            assert_non_null(seen);
            for (size_t i = 0; i < n; i++) {
                const struct sbx_event *e = sbx_tl_at(&tl, i);
                size_t line = sbx_ev_line_no(e);
                if (line < 1 || line > n || seen[line - 1] ||
                    e->start != start_shapes[sh].start(line - 1, n) || e->source != (line - 1) % 2)
                    fail_msg("%s, %zu events: position %zu holds line %zu again or not as made",
                             start_shapes[sh].name, n, i, line);
                seen[line - 1] = true;
                if (i && sbx_event_cmp(sbx_tl_at(&tl, i - 1), e) >= 0)
                    fail_msg("%s, %zu events: positions %zu and %zu out of order", start_shapes[sh].name,
                             n, i - 1, i);
            }
            free(seen);
            sbx_timeline_free(&tl);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_loads),
        cmocka_unit_test(large_loads),
        cmocka_unit_test(adopted_against_source_order),
        cmocka_unit_test(big_sort_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
