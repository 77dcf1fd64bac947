/* An event's line number and line length (model/evblock.h), kept in the
 * event or in its block's side tables, read back exactly
 * (tests/unit/cases/line_side.test) whatever is set before and after them,
 * in every block, set again in either form; after the timeline adopts and
 * sorts the events (the order by line kept), and after a buffer's lines are
 * renumbered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/cases.h"
#include "model/timeline.h"

static void push(struct sbx_evbuf *buf, size_t n)
{
    while (buf->n < n)
        sbx_evbuf_push(buf)->kind = SBX_EV_COMMAND;
}

static struct sbx_event *at(struct sbx_evbuf *buf, size_t i)
{
    return sbx_evbuf_at(buf, i);
}

static uint32_t case_u32(const struct test_case *c, size_t i)
{
    long long v = case_int(c, i);
    if (v < 0 || v > UINT32_MAX)
        case_fail(c, "field %zu is no 32-bit number", i + 1);
    return (uint32_t)v;
}

/* The event set first in i's block, to give it its base: its first event,
 * or the next one when i is the first. */
static size_t anchor_of(size_t i)
{
    size_t first = i / SBX_EVBLOCK * SBX_EVBLOCK;
    return i == first ? first + 1 : first;
}

static void check_no(const struct test_case *c)
{
    case_want_fields(c, 4);
    size_t i = (size_t)case_int(c, 0);
    bool self = strcmp(c->field[1], "self") == 0;
    uint32_t base = self ? 0 : case_u32(c, 1), want = case_u32(c, 2);
    bool in_table = strcmp(c->field[3], "table") == 0;
    struct sbx_evbuf buf = {0};
    push(&buf, i + 2);
    size_t anchor = anchor_of(i);
    if (!self)
        sbx_ev_set_line_no(at(&buf, anchor), base);
    struct sbx_event *e = at(&buf, i);
    e->line_off = 12345;
    sbx_ev_set_line_len(e, 70000);
    sbx_ev_set_line_no(e, want);
    uint32_t block_base = sbx_evblock_head_of(e)->line_base;
    if (block_base != (self ? want : base))
        case_fail(c, "the block's base is %u", block_base);
    /* its neighbours, set after it: one in the event, one in the table */
    uint32_t before = block_base ? block_base + 1 : 7, after = UINT32_MAX - (uint32_t)i;
    bool has_before = i > 0 && i - 1 != anchor, has_after = i + 1 != anchor;
    if (has_before)
        sbx_ev_set_line_no(at(&buf, i - 1), before);
    if (has_after)
        sbx_ev_set_line_no(at(&buf, i + 1), after);
    block_base = sbx_evblock_head_of(e)->line_base; /* a line 0 sets none: a neighbour may */
    for (int round = 0; round < 2; round++) {
        if (sbx_ev_line_no(e) != want)
            case_fail(c, "round %d read back %u", round, sbx_ev_line_no(e));
        if ((e->line_no_ == SBX_LINE_NO_TABLE) != in_table)
            case_fail(c, "kept in the %s", in_table ? "event" : "table");
        if (e->line_off != 12345 || sbx_ev_line_len(e) != 70000 || e->kind != SBX_EV_COMMAND)
            case_fail(c, "the event's other fields changed");
        if ((has_before && sbx_ev_line_no(at(&buf, i - 1)) != before) ||
            (has_after && sbx_ev_line_no(at(&buf, i + 1)) != after) ||
            (!self && sbx_ev_line_no(at(&buf, anchor)) != base))
            case_fail(c, "a neighbour's line number changed");
        if (sbx_evblock_head_of(e)->line_base != block_base)
            case_fail(c, "the block's base moved");
        /* set again through the other form and back */
        uint32_t other = in_table ? block_base : block_base > 1 ? block_base - 1 : block_base + 0x10000;
        sbx_ev_set_line_no(e, other);
        if (sbx_ev_line_no(e) != other)
            case_fail(c, "round %d: the other form read back %u", round, sbx_ev_line_no(e));
        sbx_ev_set_line_no(e, want);
    }
    sbx_evbuf_free(&buf);
}

static void check_len(const struct test_case *c)
{
    case_want_fields(c, 3);
    size_t i = (size_t)case_int(c, 0);
    uint32_t want = case_u32(c, 1);
    bool in_table = strcmp(c->field[2], "table") == 0;
    struct sbx_evbuf buf = {0};
    push(&buf, i + 2);
    if (i)
        sbx_ev_set_line_len(at(&buf, i - 1), 65535 + (uint32_t)i); /* in the table */
    sbx_ev_set_line_len(at(&buf, i + 1), 3);
    struct sbx_event *e = at(&buf, i);
    sbx_ev_set_line_no(e, 77);
    if (want != 0)
        sbx_ev_set_line_len(e, want);
    for (int round = 0; round < 2; round++) {
        if (sbx_ev_line_len(e) != want)
            case_fail(c, "round %d read back %u", round, sbx_ev_line_len(e));
        if ((e->line_len_ == SBX_LINE_LEN_TABLE) != in_table)
            case_fail(c, "kept in the %s", in_table ? "event" : "table");
        if (sbx_ev_line_no(e) != 77)
            case_fail(c, "the event's line number changed");
        if ((i && sbx_ev_line_len(at(&buf, i - 1)) != 65535 + (uint32_t)i) ||
            sbx_ev_line_len(at(&buf, i + 1)) != 3)
            case_fail(c, "a neighbour's length changed");
        sbx_ev_set_line_len(e, in_table ? 9 : UINT32_MAX);
        sbx_ev_set_line_len(e, want);
    }
    sbx_evbuf_free(&buf);
}

static void check_case(const struct test_case *c, void *ctx)
{
    int *seen = ctx;
    if (strcmp(c->table, "no") == 0) {
        check_no(c);
        seen[0]++;
    } else if (strcmp(c->table, "len") == 0) {
        check_len(c);
        seen[1]++;
    } else {
        case_fail(c, "an unknown table");
    }
}

static void kept_and_read_back(void **state)
{
    (void)state;
    int seen[2] = {0, 0};
    cases_run("line_side.test", check_case, seen);
    assert_true(seen[0] >= 15);
    assert_true(seen[1] >= 7);
}

enum { N = 3 * SBX_EVBLOCK + 17 };

/* Event i's line number: gaps of one line mostly, some of more lines than
 * a block's offsets reach, some lines 0. */
static uint32_t line_of(size_t i)
{
    if (i % 1000 == 999)
        return 0;
    return (uint32_t)(1 + i * 3 + (i / 700) * 70000);
}

static uint32_t len_of(size_t i)
{
    return i % 7 == 0 ? 65535 + (uint32_t)i : (uint32_t)(i % 65535);
}

/* Every event of several blocks read back through the timeline's order
 * after adopt and sort (each knows its index by its program field). With
 * by_line, all start together, lines 0 among them and one line out of
 * order, so the sort orders them by line (a qsort); otherwise they come in
 * line order and start in reverse (the radix sort by start). */
static void read_back_sorted(bool by_line)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_evbuf buf = {0};
    push(&buf, N);
    uint32_t line[N];
    for (size_t i = 0; i < N; i++) {
        struct sbx_event *e = at(&buf, i);
        e->start = by_line ? 5 : (int64_t)(N - i);
        e->u.cmd.program = (uint32_t)i;
        line[i] = by_line ? line_of(i) : 1 + (uint32_t)i * 3 + (uint32_t)(i / 700) * 70000;
        if (by_line && i == 10)
            line[i] = 2;
        sbx_ev_set_line_no(e, line[i]);
        sbx_ev_set_line_len(e, len_of(i));
    }
    sbx_timeline_adopt(&tl, &buf);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, N);
    for (size_t k = 0; k < N; k++) {
        const struct sbx_event *e = sbx_tl_at(&tl, k);
        size_t i = e->u.cmd.program;
        if (!by_line && i != N - 1 - k)
            fail_msg("event %zu at %zu: not by start", i, k);
        if (sbx_ev_line_no(e) != line[i])
            fail_msg("event %zu: line %u, not %u", i, sbx_ev_line_no(e), line[i]);
        if (sbx_ev_line_len(e) != len_of(i))
            fail_msg("event %zu: length %u", i, sbx_ev_line_len(e));
        /* lines 0 are alike: the first of them is their position */
        if (k && sbx_event_cmp(sbx_tl_at(&tl, k - 1), e) >= (line[i] == 0))
            fail_msg("event %zu: not after the one before it", i);
        if (sbx_timeline_position_at(&tl, e->start, 0, line[i]) != (line[i] ? k : 0))
            fail_msg("event %zu: not found at its position", i);
    }
    sbx_timeline_free(&tl);
}

static void through_the_timeline(void **state)
{
    (void)state;
    read_back_sorted(true);
    read_back_sorted(false);
}

/* A buffer's lines renumbered (a part of a file numbered from its start)
 * read as before plus the part's first line, line 0 too, wrapping as
 * uint32_t does; those kept in the event stay there; the lengths stay. */
static void renumbered(void **state)
{
    (void)state;
    static const uint32_t adds[] = {1, 65534, 65535, 1000000, UINT32_MAX - 1};
    for (size_t a = 0; a < sizeof adds / sizeof *adds; a++) {
        struct sbx_evbuf buf = {0};
        push(&buf, N);
        for (size_t i = 0; i < N; i++) {
            sbx_ev_set_line_no(at(&buf, i), line_of(i));
            sbx_ev_set_line_len(at(&buf, i), len_of(i));
        }
        bool near[N];
        for (size_t i = 0; i < N; i++)
            near[i] = at(&buf, i)->line_no_ != 0 && at(&buf, i)->line_no_ != SBX_LINE_NO_TABLE;
        sbx_evbuf_add_lines(&buf, adds[a]);
        for (size_t i = 0; i < N; i++) {
            /* the base moved with them: no new value in the table (none wraps to 0) */
            if (near[i] && at(&buf, i)->line_no_ == SBX_LINE_NO_TABLE)
                fail_msg("add %u, event %zu: moved to the table", adds[a], i);
            uint32_t want = line_of(i) + adds[a];
            if (sbx_ev_line_no(at(&buf, i)) != want)
                fail_msg("add %u, event %zu: line %u, not %u", adds[a], i,
                         sbx_ev_line_no(at(&buf, i)), want);
            if (sbx_ev_line_len(at(&buf, i)) != len_of(i))
                fail_msg("add %u, event %zu: another length", adds[a], i);
        }
        sbx_evbuf_free(&buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_and_read_back),
        cmocka_unit_test(through_the_timeline),
        cmocka_unit_test(renumbered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
