/* Slots of the timeline's event storage (model/slots.h): for buffers of
 * every size around a block's, each event has one slot of its own, below
 * the count, that gives the event back; an address that is no event's
 * start in the storage has none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/slots.h"

static void every_event_its_own_slot(void **state)
{
    (void)state;
    static const struct {
        size_t n[3]; /* events in each buffer, 0: none */
    } cases[] = {
        {{0, 0, 0}},
        {{1, 0, 0}},
        {{SBX_EVBLOCK - 1, 0, 0}},
        {{SBX_EVBLOCK, 0, 0}},
        {{SBX_EVBLOCK + 1, 0, 0}},
        {{3, 2 * SBX_EVBLOCK + 5, 1}},
        {{SBX_EVBLOCK, SBX_EVBLOCK, SBX_EVBLOCK}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        struct sbx_event *spare[3] = {NULL};
        for (size_t b = 0; b < 3 && cases[c].n[b]; b++) {
            struct sbx_evbuf buf = {0};
            uint32_t src = sbx_timeline_add_source(&tl, "log", NULL, 0, SBX_DATA_HEAP);
            for (size_t i = 0; i < cases[c].n[b]; i++)
                sbx_evbuf_push_from(&buf, src, 0, 0, (uint32_t)i + 1)->start = (int64_t)i;
            if (cases[c].n[b] % SBX_EVBLOCK)
                spare[b] = sbx_evbuf_at(&buf, cases[c].n[b] - 1) + 1; /* an unused slot */
            sbx_timeline_adopt(&tl, &buf);
        }
        sbx_timeline_finish(&tl);
        struct sbx_slots s;
        sbx_slots_make(&s, &tl);
        assert_int_equal(sbx_slots_count(&s), tl.nblocks * SBX_EVBLOCK);
        uint8_t *seen = calloc(sbx_slots_count(&s) + 1, 1);
        for (size_t i = 0; i < tl.n; i++) {
            size_t slot = sbx_slot_of(&s, sbx_tl_at(&tl, i));
            if (slot >= sbx_slots_count(&s) || seen[slot] || sbx_slot_event(&s, slot) != sbx_tl_at(&tl, i))
                fail_msg("case %zu: event %zu: slot %zu is not its own", c, i, slot);
            seen[slot] = 1;
        }
        for (size_t b = 0; b < 3; b++)
            if (spare[b]) { /* a slot, but no event pushed there */
                size_t slot = sbx_slot_of(&s, spare[b]);
                assert_true(slot < sbx_slots_count(&s) && !seen[slot]);
            }
        if (tl.n) {
            const struct sbx_event *e = sbx_tl_at(&tl, tl.n / 2);
            assert_int_equal(sbx_slot_of(&s, (const struct sbx_event *)((const char *)e + 8)), SIZE_MAX);
            struct sbx_event outside = *e;
            assert_int_equal(sbx_slot_of(&s, &outside), SIZE_MAX);
            /* just before and after a block: none, or another block's
             * event when the mappings are neighbours */
            for (size_t b = 0; b < tl.nblocks; b++) {
                const struct sbx_event *near[2] = {
                    (const struct sbx_event *)((uintptr_t)tl.blocks[b] - sizeof(struct sbx_event)),
                    (const struct sbx_event *)((uintptr_t)tl.blocks[b] + SBX_EVBLOCK * sizeof(struct sbx_event))};
                for (int k = 0; k < 2; k++) {
                    size_t slot = sbx_slot_of(&s, near[k]);
                    assert_true(slot == SIZE_MAX || sbx_slot_event(&s, slot) == near[k]);
                }
            }
        }
        free(seen);
        sbx_slots_free(&s);
        sbx_timeline_free(&tl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_event_its_own_slot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
