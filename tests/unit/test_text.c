/* Text fields (model/event.h, sbx_text_make in model/timeline.h): every
 * text reads back the offset, length and flags it was made with, in the
 * usual form when it lies inside its event's line and is short enough,
 * and in the general form otherwise (tests/unit/cases/texts.test); the
 * bytes it names are the source's there, after the buffer is adopted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/cases.h"
#include "model/timeline.h"

static uint64_t field_u64(const struct test_case *c, size_t i)
{
    return strtoull(c->field[i], NULL, 10);
}

static void check_form(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 7);
    struct sbx_evbuf buf = {0};
    struct sbx_event *e = sbx_evbuf_push(&buf);
    e->line_off = field_u64(c, 0);
    sbx_ev_set_line_len(e, (uint32_t)field_u64(c, 1));
    uint64_t off = field_u64(c, 2), len = field_u64(c, 3);
    uint32_t flags = (uint32_t)field_u64(c, 4);
    struct sbx_text t = sbx_text_make(&buf, e, off, len, flags);
    bool general = strcmp(c->field[5], "general") == 0;
    if (!!(t.flags & SBX_TEXT_LONG) != general)
        case_fail(c, "the %s form, not the %s", t.flags & SBX_TEXT_LONG ? "general" : "usual", c->field[5]);
    if (sbx_text_off(e, &t) != off)
        case_fail(c, "offset %llu, made with %llu", (unsigned long long)sbx_text_off(e, &t),
                  (unsigned long long)off);
    if (sbx_text_len(&t) != field_u64(c, 6))
        case_fail(c, "length %zu, not %s", sbx_text_len(&t), c->field[6]);
    if ((t.flags & ~(uint32_t)SBX_TEXT_LONG) != (flags & ~(uint32_t)SBX_TEXT_LONG))
        case_fail(c, "flags %u, made with %u", (unsigned)t.flags, (unsigned)flags);
    sbx_evbuf_free(&buf);
}

static void forms(void **state)
{
    (void)state;
    assert_true(cases_run("texts.test", check_form, NULL) >= 14);
}

/* Texts of both forms in events of two buffers, read through the timeline
 * they were adopted by: each names its own bytes of the source. */
static void bytes_after_adopt(void **state)
{
    (void)state;
    enum { SIZE = 4096, LINE = 64 };
    char *data = malloc(SIZE);
    for (size_t i = 0; i < SIZE; i++)
        data[i] = (char)('a' + (i * 7) % 26);
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    uint32_t src = sbx_timeline_add_source(&tl, "log", data, SIZE, SBX_DATA_HEAP);
    struct sbx_evbuf bufs[2] = {{0}, {0}};
    size_t n = SIZE / LINE;
    for (size_t i = 0; i < n; i++) {
        struct sbx_evbuf *b = &bufs[i * 2 / n];
        struct sbx_event *e = sbx_evbuf_push_from(b, src, i * LINE, LINE, (uint32_t)i + 1);
        e->kind = SBX_EV_COMMAND;
        e->start = (int64_t)i;
        /* the command inside its line, the output in the next line (the
         * last event's in the first: general either way), stderr in the
         * line before (the first event's in its own line: usual) */
        e->u.cmd.command = sbx_text_make(b, e, i * LINE + i % LINE, LINE - i % LINE, SBX_TEXT_PRESENT);
        e->u.cmd.out = sbx_text_make(b, e, ((i + 1) % n) * LINE, LINE / 2, SBX_TEXT_PRESENT);
        sbx_cmd_set_err(&e->u.cmd, sbx_text_make(b, e, i ? (i - 1) * LINE + 3 : 3, 5, SBX_TEXT_PRESENT));
    }
    sbx_timeline_adopt(&tl, &bufs[0]);
    sbx_timeline_adopt(&tl, &bufs[1]);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, n);
    struct sbx_buf scratch = SBX_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const struct sbx_event *e = sbx_tl_at(&tl, i);
        assert_int_equal(sbx_ev_line_no(e), i + 1);
        const struct sbx_text err = sbx_cmd_err(&e->u.cmd);
        const struct sbx_text *texts[3] = {&e->u.cmd.command, &e->u.cmd.out, &err};
        uint64_t offs[3] = {i * LINE + i % LINE, ((i + 1) % n) * LINE, i ? (i - 1) * LINE + 3 : 3};
        size_t lens[3] = {LINE - i % LINE, LINE / 2, 5};
        bool general[3] = {false, true, i != 0};
        for (int k = 0; k < 3; k++) {
            size_t len;
            const char *got = sbx_text_get(&tl, e, texts[k], &scratch, &len);
            if (got != data + offs[k] || len != lens[k] || sbx_text_raw(&tl, e, texts[k]) != got ||
                !!(texts[k]->flags & SBX_TEXT_LONG) != general[k])
                fail_msg("event %zu, text %d: %zu bytes at %td, form %s", i, k, len, got - data,
                         texts[k]->flags & SBX_TEXT_LONG ? "general" : "usual");
        }
    }
    sbx_buf_free(&scratch);
    sbx_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forms),
        cmocka_unit_test(bytes_after_adopt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
