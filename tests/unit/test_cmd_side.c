/* A command's side fields (model/evblock.h): its stderr, duration and exit,
 * kept in the command or in its block's side tables by the event's index in the
 * block, read back bit for bit (tests/unit/cases/cmd_side.test), whatever
 * is set before and after them, in every block, set again in either form,
 * after the timeline adopts and sorts the events, and a stderr in the
 * general form (outside the line). */
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
        sbx_ev_set_line_no(e, (uint32_t)buf->n);
    }
}

static struct sbx_command *cmd(struct sbx_evbuf *buf, size_t i)
{
    return &sbx_evbuf_at(buf, i)->u.cmd;
}

static void check_err(const struct test_case *c)
{
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
    sbx_cmd_set_exit(c_i, -1);
    sbx_cmd_set_ms(c_i, INT64_MIN);
    sbx_cmd_set_err(c_i, want);
    for (int round = 0; round < 2; round++) {
        struct sbx_text got = sbx_cmd_err(c_i);
        if (!same(got, want))
            case_fail(c, "round %d read back at %u len %u flags %u", round, (unsigned)got.at_,
                      (unsigned)got.len_, (unsigned)got.flags);
        if (!!(c_i->err_flags_ & SBX_TEXT_LONG) != in_table)
            case_fail(c, "kept in the %s", in_table ? "command" : "table");
        if (c_i->flags != (1u << SBX_CMD_FLAG_BITS) - 1 || sbx_cmd_exit(c_i) != -1 ||
            sbx_cmd_ms(c_i) != INT64_MIN)
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

static void check_ms(const struct test_case *c)
{
    case_want_fields(c, 3);
    size_t i = (size_t)case_int(c, 0);
    int64_t want = (int64_t)case_int(c, 1);
    bool in_table = strcmp(c->field[2], "table") == 0;
    struct sbx_evbuf buf = {0};
    push(&buf, i + 2);
    if (i)
        sbx_cmd_set_ms(cmd(&buf, i - 1), -(int64_t)i); /* in the table */
    sbx_cmd_set_ms(cmd(&buf, i + 1), INT64_MAX - 1);
    struct sbx_command *c_i = cmd(&buf, i);
    sbx_cmd_set_err(c_i, neighbour(i));
    if (want != 0)
        sbx_cmd_set_ms(c_i, want);
    for (int round = 0; round < 2; round++) {
        if (sbx_cmd_ms(c_i) != want)
            case_fail(c, "round %d read back %lld", round, (long long)sbx_cmd_ms(c_i));
        if ((c_i->ms_ == SBX_MS_TABLE) != in_table)
            case_fail(c, "kept in the %s", in_table ? "command" : "table");
        if (!same(sbx_cmd_err(c_i), neighbour(i)))
            case_fail(c, "the command's stderr changed");
        if ((i && sbx_cmd_ms(cmd(&buf, i - 1)) != -(int64_t)i) ||
            sbx_cmd_ms(cmd(&buf, i + 1)) != INT64_MAX - 1)
            case_fail(c, "a neighbour's duration changed");
        sbx_cmd_set_ms(c_i, in_table ? 7 : -7);
        sbx_cmd_set_ms(c_i, want);
    }
    sbx_evbuf_free(&buf);
}

static void check_exit(const struct test_case *c)
{
    case_want_fields(c, 3);
    size_t i = (size_t)case_int(c, 0);
    int32_t want = (int32_t)case_int(c, 1);
    bool in_table = strcmp(c->field[2], "table") == 0;
    struct sbx_evbuf buf = {0};
    push(&buf, i + 2);
    if (i)
        sbx_cmd_set_exit(cmd(&buf, i - 1), -(int32_t)i); /* in the table */
    sbx_cmd_set_exit(cmd(&buf, i + 1), INT32_MAX - 1);
    struct sbx_command *c_i = cmd(&buf, i);
    sbx_cmd_set_ms(c_i, -5);
    sbx_cmd_set_err(c_i, neighbour(i));
    if (want != 0)
        sbx_cmd_set_exit(c_i, want);
    for (int round = 0; round < 2; round++) {
        if (sbx_cmd_exit(c_i) != want)
            case_fail(c, "round %d read back %d", round, (int)sbx_cmd_exit(c_i));
        if ((c_i->exit_ == SBX_EXIT_TABLE) != in_table)
            case_fail(c, "kept in the %s", in_table ? "command" : "table");
        if (!same(sbx_cmd_err(c_i), neighbour(i)) || sbx_cmd_ms(c_i) != -5)
            case_fail(c, "the command's stderr or duration changed");
        if ((i && sbx_cmd_exit(cmd(&buf, i - 1)) != -(int32_t)i) ||
            sbx_cmd_exit(cmd(&buf, i + 1)) != INT32_MAX - 1)
            case_fail(c, "a neighbour's exit changed");
        sbx_cmd_set_exit(c_i, in_table ? 1 : -1);
        sbx_cmd_set_exit(c_i, want);
    }
    sbx_evbuf_free(&buf);
}

static void check_case(const struct test_case *c, void *ctx)
{
    int *seen = ctx;
    if (strcmp(c->table, "err") == 0) {
        check_err(c);
        seen[0]++;
    } else if (strcmp(c->table, "ms") == 0) {
        check_ms(c);
        seen[1]++;
    } else if (strcmp(c->table, "exit") == 0) {
        check_exit(c);
        seen[2]++;
    } else {
        case_fail(c, "an unknown table");
    }
}

static void kept_and_read_back(void **state)
{
    (void)state;
    int seen[3] = {0, 0, 0};
    cases_run("cmd_side.test", check_case, seen);
    assert_true(seen[0] >= 10);
    assert_true(seen[1] >= 10);
    assert_true(seen[2] >= 8);
}

/* Every event of several blocks, its stderr, duration and exit in the table or
 * in the command by turns, read back through the timeline's order after adopt and sort;
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
        if (i % 2)
            sbx_cmd_set_ms(&e->u.cmd, (int64_t)i << 33);
        sbx_cmd_set_exit(&e->u.cmd, i % 4 == 1 ? -(int32_t)i : (int32_t)(i % 300));
    }
    sbx_timeline_adopt(&tl, &buf);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, N);
    for (size_t k = 0; k < N; k++) {
        const struct sbx_event *e = sbx_tl_at(&tl, k);
        size_t i = sbx_ev_line_no(e) - 1;
        struct sbx_text want = i % 3 == 0 ? neighbour(i)
                             : i % 3 == 1 ? text(i % 30000, 0, SBX_TEXT_PRESENT)
                                          : text(0, 0, 0);
        if (!same(sbx_cmd_err(&e->u.cmd), want))
            fail_msg("event %zu: another stderr", i);
        if (sbx_cmd_ms(&e->u.cmd) != (i % 2 ? (int64_t)i << 33 : 0))
            fail_msg("event %zu: another duration", i);
        if (sbx_cmd_exit(&e->u.cmd) != (i % 4 == 1 ? -(int32_t)i : (int32_t)(i % 300)))
            fail_msg("event %zu: another exit", i);
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
    sbx_ev_set_line_len(e, 10);
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
