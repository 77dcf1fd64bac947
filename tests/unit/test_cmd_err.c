/* A command's stderr (model/evblock.h): kept in the command or in its
 * block's side table by the event's index in the block, it reads back bit
 * for bit (tests/unit/cases/cmd_err.test), whatever is set before and after
 * it, in every block, set again in either form, after the timeline adopts
 * and sorts the events, and in the general form (outside the line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/cases.h"
#include "model/timeline.h"

static struct sbx_text text(uint64_t at, uint64_t len, uint64_t flags)
{
    return (struct sbx_text){.at_ = at, .len_ = len, .flags = flags};
}

static bool same(struct sbx_text a, struct sbx_text b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* A stderr in the table, distinct for each index. */
static struct sbx_text neighbour(size_t i)
{
    return text(1000 + i, 7 + i % 5, SBX_TEXT_PRESENT);
}

static void push(struct sbx_evbuf *buf, size_t n)
{
    while (buf->n < n) {
        struct sbx_event *e = sbx_evbuf_push(buf);
        e->kind = SBX_EV_COMMAND;
        e->line_no = (uint32_t)buf->n;
    }
}

static struct sbx_command *cmd(struct sbx_evbuf *buf, size_t i)
{
    return &sbx_evbuf_at(buf, i)->u.cmd;
}

static void check_case(const struct test_case *c, void *ctx)
{
    (*(int *)ctx)++;
    case_want_fields(c, 5);
    size_t i = (size_t)case_int(c, 0);
    struct sbx_text want = text((uint64_t)case_int(c, 1), (uint64_t)case_int(c, 2), (uint64_t)case_int(c, 3));
    bool in_table = strcmp(c->field[4], "table") == 0;
    struct sbx_evbuf buf = {0};
    push(&buf, i + 2);
    if (i)
        sbx_cmd_set_err(cmd(&buf, i - 1), neighbour(i - 1));
    sbx_cmd_set_err(cmd(&buf, i + 1), neighbour(i + 1)); /* after it, set before it */
    struct sbx_command *c_i = cmd(&buf, i);
    c_i->flags = (1u << SBX_CMD_FLAG_BITS) - 1;
    c_i->exit = -1;
    c_i->ms = INT64_MIN;
    sbx_cmd_set_err(c_i, want);
    for (int round = 0; round < 2; round++) {
        struct sbx_text got = sbx_cmd_err(c_i);
        if (!same(got, want))
            case_fail(c, "round %d read back at %u len %u flags %u", round, (unsigned)got.at_,
                      (unsigned)got.len_, (unsigned)got.flags);
        if (!!(c_i->err_flags_ & SBX_TEXT_LONG) != in_table)
            case_fail(c, "kept in the %s", in_table ? "command" : "table");
        if (c_i->flags != (1u << SBX_CMD_FLAG_BITS) - 1 || c_i->exit != -1 || c_i->ms != INT64_MIN)
            case_fail(c, "the command's other fields changed");
        if ((i && !same(sbx_cmd_err(cmd(&buf, i - 1)), neighbour(i - 1))) ||
            !same(sbx_cmd_err(cmd(&buf, i + 1)), neighbour(i + 1)))
            case_fail(c, "a neighbour's stderr changed");
        /* set again through the other form and back */
        sbx_cmd_set_err(c_i, in_table ? text(0, 0, SBX_TEXT_PRESENT) : text(5, 3, SBX_TEXT_PRESENT));
        sbx_cmd_set_err(c_i, want);
    }
    sbx_evbuf_free(&buf);
}

static void kept_and_read_back(void **state)
{
    (void)state;
    int n = 0;
    cases_run("cmd_err.test", check_case, &n);
    assert_true(n >= 10);
}

/* Every event of several blocks, its stderr in the table or in the command
 * by turns, read back through the timeline's order after adopt and sort;
 * events never set read as absent. */
static void through_the_timeline(void **state)
{
    (void)state;
    enum { N = 3 * SBX_EVBLOCK + 17 };
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_evbuf buf = {0};
    push(&buf, N);
    for (size_t i = 0; i < N; i++) {
        struct sbx_event *e = sbx_evbuf_at(&buf, i);
        e->start = (int64_t)(N - i); /* the sort reverses them */
        if (i % 3 == 0)
            sbx_cmd_set_err(&e->u.cmd, neighbour(i));
        else if (i % 3 == 1)
            sbx_cmd_set_err(&e->u.cmd, text(i % 30000, 0, SBX_TEXT_PRESENT));
    }
    sbx_timeline_adopt(&tl, &buf);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, N);
    for (size_t k = 0; k < N; k++) {
        const struct sbx_event *e = tl.order[k];
        size_t i = e->line_no - 1;
        struct sbx_text want = i % 3 == 0 ? neighbour(i)
                             : i % 3 == 1 ? text(i % 30000, 0, SBX_TEXT_PRESENT)
                                          : text(0, 0, 0);
        if (!same(sbx_cmd_err(&e->u.cmd), want))
            fail_msg("event %zu: another stderr", i);
    }
    sbx_timeline_free(&tl);
}

/* A stderr outside its line takes the general form (model/event.h), kept in
 * the table with its 64-bit offset. */
static void general_form(void **state)
{
    (void)state;
    struct sbx_evbuf buf = {0};
    push(&buf, 2);
    struct sbx_event *e = sbx_evbuf_at(&buf, 1);
    e->line_off = 1000;
    e->line_len = 10;
    struct sbx_text t = sbx_text_make(&buf, e, 5, 0, SBX_TEXT_PRESENT);
    assert_true(t.flags & SBX_TEXT_LONG);
    sbx_cmd_set_err(&e->u.cmd, t);
    struct sbx_text got = sbx_cmd_err(&e->u.cmd);
    assert_true(same(got, t));
    assert_int_equal(sbx_text_off(e, &got), 5);
    assert_int_equal(sbx_text_len(&got), 0);
    sbx_evbuf_free(&buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_and_read_back),
        cmocka_unit_test(through_the_timeline),
        cmocka_unit_test(general_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
