/* The timeline's order as slots (model/timeline.h): sbx_tl_at gives each
 * position's event across block boundaries (a buffer's 2,047th and 2,048th
 * events, its last block partly filled, a second buffer's blocks after the
 * first's), and every change of the order — the first sort (radix or
 * qsort), a resort after a clock moved, a followed log's merge, a line
 * forgotten — leaves the order a sort of event pointers by sbx_event_cmp
 * gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/slots.h"
#include "model/timeline.h"

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* A buffer of n events of source src, lines from 1, starts from the
 * generator in [0, spread) ms (some unknown when unknown is set). */
static void fill(struct sbx_evbuf *buf, uint32_t src, size_t n, uint64_t *x, uint64_t spread,
                 bool unknown)
{
    for (size_t i = 0; i < n; i++) {
        struct sbx_event *e = sbx_evbuf_push_from(buf, src, 0, 0, (uint32_t)i + 1);
        uint64_t r = next(x);
        if (!(unknown && r % 97 == 0))
            e->start = (int64_t)(r % spread) * 1000000;
    }
}

static int by_event(const void *a, const void *b)
{
    return sbx_event_cmp(*(struct sbx_event *const *)a, *(struct sbx_event *const *)b);
}

/* The reference: every event of the order sorted as pointers. */
static struct sbx_event **reference(const struct sbx_timeline *tl)
{
    struct sbx_event **ref = malloc((tl->n + 1) * sizeof *ref);
    for (size_t i = 0; i < tl->n; i++)
        ref[i] = sbx_tl_at(tl, i);
    qsort(ref, tl->n, sizeof *ref, by_event);
    return ref;
}

static void same_as(const struct sbx_timeline *tl, struct sbx_event **ref, size_t n, const char *what)
{
    assert_int_equal(tl->n, n);
    for (size_t i = 0; i < n; i++)
        if (sbx_tl_at(tl, i) != ref[i])
            fail_msg("%s: position %zu is not the pointer sort's event", what, i);
}

/* Every position's event is the one its slot names in the slot table, and
 * no event is at two positions. */
static void slots_agree(const struct sbx_timeline *tl, const char *what)
{
    struct sbx_slots s;
    sbx_slots_make(&s, tl);
    uint8_t *seen = calloc(sbx_slots_count(&s) + 1, 1);
    for (size_t i = 0; i < tl->n; i++) {
        uint32_t slot = tl->order_[i];
        if (slot >= sbx_slots_count(&s) || seen[slot] || sbx_slot_of(&s, sbx_tl_at(tl, i)) != slot ||
            sbx_slot_event(&s, slot) != sbx_tl_slot(tl, slot))
            fail_msg("%s: position %zu: slot %u is not its event's", what, i, slot);
        seen[slot] = 1;
    }
    free(seen);
    sbx_slots_free(&s);
}

/* Two buffers adopted (the second one's source first when swapped): before
 * the sort, position i is the i-th event pushed, the second buffer's after
 * the first's; after it, the pointer sort's order. */
static void positions_across_blocks(void **state)
{
    (void)state;
    static const struct {
        size_t n[2];
        bool swapped;
    } cases[] = {
        {{SBX_EVBLOCK + 1, 1}, false},            /* 2,047 | 2,048 and a last block of one */
        {{SBX_EVBLOCK, SBX_EVBLOCK + 7}, false},  /* a full block, then a partly filled one */
        {{2 * SBX_EVBLOCK + 5, 3}, true},         /* big, but sources against order: qsort */
        {{3 * SBX_EVBLOCK - 1, SBX_EVBLOCK}, false},
        {{5, 9}, false},                          /* one block each, qsort's size */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        sbx_timeline_add_source(&tl, "a", NULL, 0, SBX_DATA_HEAP);
        sbx_timeline_add_source(&tl, "b", NULL, 0, SBX_DATA_HEAP);
        uint64_t x = 0x9e3779b97f4a7c15u + c;
        size_t total = cases[c].n[0] + cases[c].n[1];
        struct sbx_event **pushed = malloc(total * sizeof *pushed);
        size_t k = 0;
        for (int b = 0; b < 2; b++) {
            struct sbx_evbuf buf = {0};
            uint32_t src = cases[c].swapped ? 1 - (uint32_t)b : (uint32_t)b;
            fill(&buf, src, cases[c].n[b], &x, 500, true);
            for (size_t i = 0; i < buf.n; i++)
                pushed[k++] = sbx_evbuf_at(&buf, i);
            sbx_timeline_adopt(&tl, &buf);
        }
        assert_int_equal(tl.n, total);
        for (size_t i = 0; i < total; i++)
            if (sbx_tl_at(&tl, i) != pushed[i])
                fail_msg("case %zu: adopted position %zu is not the event pushed there", c, i);
        /* the second buffer starts a block of its own: the first's blocks' slots are taken */
        size_t first_blocks = (cases[c].n[0] + SBX_EVBLOCK - 1) / SBX_EVBLOCK;
        assert_int_equal(tl.order_[cases[c].n[0]], first_blocks * SBX_EVBLOCK);
        assert_int_equal(tl.order_[total - 1], first_blocks * SBX_EVBLOCK + cases[c].n[1] - 1);
        slots_agree(&tl, "adopted");
        struct sbx_event **ref = reference(&tl);
        sbx_timeline_finish(&tl);
        same_as(&tl, ref, total, "finished");
        slots_agree(&tl, "finished");
        free(ref);
        free(pushed);
        sbx_timeline_free(&tl);
    }
}

/* A source moved onto another clock, then the order sorted again: the
 * pointer sort of the moved times, whichever way the clock moved. */
static void resort_after_clock(void **state)
{
    (void)state;
    static const int64_t offsets[] = {250 * 1000000LL, -250 * 1000000LL, 1, -1};
    for (size_t c = 0; c < sizeof offsets / sizeof *offsets; c++) {
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        uint64_t x = 77 + c;
        for (uint32_t src = 0; src < 2; src++) {
            sbx_timeline_add_source(&tl, src ? "b" : "a", NULL, 0, SBX_DATA_HEAP);
            struct sbx_evbuf buf = {0};
            fill(&buf, src, SBX_EVBLOCK + 300 * (src + 1), &x, 1000, true);
            sbx_timeline_adopt(&tl, &buf);
        }
        sbx_timeline_finish(&tl);
        const struct sbx_event *moved = NULL;
        for (size_t i = 0; i < tl.n && !moved; i++)
            if (sbx_tl_at(&tl, i)->source == 1 && sbx_tl_at(&tl, i)->start != SBX_TIME_UNKNOWN)
                moved = sbx_tl_at(&tl, i);
        int64_t was = moved->start;
        sbx_timeline_set_clock(&tl, 1, offsets[c], SBX_CLOCK_GIVEN);
        assert_true(moved->start == was - offsets[c]);
        struct sbx_event **ref = reference(&tl);
        sbx_timeline_resort(&tl);
        same_as(&tl, ref, tl.n, "resorted");
        slots_agree(&tl, "resorted");
        free(ref);
        sbx_timeline_free(&tl);
    }
}

/* A followed log: new buffers merged into the finished order (their blocks
 * after the old ones), then lines forgotten — at a block's border, the
 * last event, the first — each leaving the order without its event and
 * otherwise as it was. */
static void merge_and_forget(void **state)
{
    (void)state;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    uint64_t x = 4242;
    sbx_timeline_add_source(&tl, "a", NULL, 0, SBX_DATA_HEAP);
    sbx_timeline_add_source(&tl, "b", NULL, 0, SBX_DATA_HEAP);
    struct sbx_evbuf buf = {0};
    fill(&buf, 0, SBX_EVBLOCK + 10, &x, 1000, false);
    sbx_timeline_adopt(&tl, &buf);
    sbx_timeline_finish(&tl);
    size_t old_blocks = tl.nblocks;
    struct sbx_evbuf more[2] = {{0}, {0}};
    /* source a's later lines, and a whole other source, interleaving in time */
    for (size_t i = 0; i < 40; i++) {
        struct sbx_event *e = sbx_evbuf_push_from(&more[0], 0, 0, 0, (uint32_t)(SBX_EVBLOCK + 11 + i));
        e->start = (int64_t)(next(&x) % 1200) * 1000000;
    }
    fill(&more[1], 1, SBX_EVBLOCK + 1, &x, 1200, true);
    sbx_timeline_append(&tl, more, 2);
    assert_int_equal(tl.nblocks, old_blocks + 1 + 2);
    struct sbx_event **ref = reference(&tl);
    same_as(&tl, ref, SBX_EVBLOCK + 10 + 40 + SBX_EVBLOCK + 1, "merged");
    slots_agree(&tl, "merged");
    free(ref);

    /* the events at positions 2,047 and 2,048, the last and the first */
    const size_t at[] = {SBX_EVBLOCK - 1, SBX_EVBLOCK - 1, SIZE_MAX, 0};
    for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
        size_t pos = at[k] == SIZE_MAX ? tl.n - 1 : at[k];
        struct sbx_event *gone = sbx_tl_at(&tl, pos);
        struct sbx_event **want = malloc(tl.n * sizeof *want);
        size_t m = 0;
        for (size_t i = 0; i < tl.n; i++)
            if (i != pos)
                want[m++] = sbx_tl_at(&tl, i);
        size_t events = tl.sources[gone->source].events;
        assert_int_equal(sbx_timeline_forget_line(&tl, gone->source, sbx_ev_line_no(gone), false), 1);
        assert_int_equal(tl.sources[gone->source].events, events - 1);
        same_as(&tl, want, m, "forgotten");
        free(want);
    }
    sbx_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(positions_across_blocks),
        cmocka_unit_test(resort_after_clock),
        cmocka_unit_test(merge_and_forget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
