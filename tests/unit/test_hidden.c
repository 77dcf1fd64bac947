/* Hidden text: which code points hide, finding them raw or escaped in a JSON
 * string body, what tag characters spell, and the finding the content
 * analysis sets on a command whose text hides something. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/hidden.h"
#include "analyses/summary.h"

static void classes(void **state)
{
    (void)state;
    static const uint32_t hide[] = {0xad,    0x61c,   0x115f,  0x1160,  0x180e,  0x200b,
                                    0x200f,  0x2028,  0x202e,  0x2060,  0x206f,  0x3164,
                                    0xfeff,  0xffa0,  0xfff9,  0xfffb,  0xe0000, 0xe0041,
                                    0xe007f, 0xe000,  0xf8ff,  0xf0000, 0x10fffd};
    static const uint32_t show[] = {'a', 0xac, 0xae, 0x61b, 0x200a, 0x2010, 0x2027, 0x202f,
                                    0x205f, 0x2070, 0xfefe, 0xfff8, 0xfffc, 0xe0080, 0xdfff,
                                    0xf900, 0x4e2d, 0x1f600};
    for (size_t i = 0; i < sizeof hide / sizeof hide[0]; i++)
        if (!sbx_cp_invisible(hide[i]))
            fail_msg("U+%04X should hide", hide[i]);
    for (size_t i = 0; i < sizeof show / sizeof show[0]; i++)
        if (sbx_cp_invisible(show[i]))
            fail_msg("U+%04X should show", show[i]);
}

static bool hides(const char *s, bool escaped)
{
    return sbx_text_hides(s, strlen(s), escaped);
}

static void raw_and_escaped(void **state)
{
    (void)state;
    assert_false(hides("", true));
    assert_false(hides("plain ascii text that is longer than sixteen bytes", true));
    assert_false(hides("caf\xc3\xa9 \xe4\xb8\xad", false));
    assert_true(hides("ok # \xe2\x80\xae" "evil", false));                  /* raw U+202E */
    assert_true(hides("a long prefix of plain text, then \xe2\x80\x8b", false)); /* past 16 bytes */
    assert_true(hides("ok \\u202e", true));                                  /* escaped */
    assert_true(hides("ok \\u202E", true));
    assert_false(hides("ok \\u202e", false));                                /* not escaped: text */
    assert_false(hides("ok \\\\u202e", true));   /* an escaped backslash, then the letters */
    assert_true(hides("\\udb40\\udc63", true));  /* a tag character as a surrogate pair */
    assert_false(hides("\\ud83d\\ude00", true)); /* an emoji as a pair */
    assert_false(hides("\\n\\t\\\"\\u00e9\\u4e2d", true));
    assert_false(hides("cut short \\u20", true));
    assert_false(hides("\xe2\x80", false)); /* cut short: not a code point */
}

/* A NUL hides what a terminal shows after it: raw, or as \u0000 in an
 * escaped body, at every offset (the 32- and 16-byte scans and the tail);
 * \u0001, an escaped backslash before u0000, and the digits 0000 alone do
 * not hide. */
static void nul(void **state)
{
    (void)state;
    char buf[200];
    for (size_t at = 0; at < 160; at++) {
        memset(buf, 'x', sizeof buf);
        buf[at] = '\0';
        assert_true(sbx_text_hides(buf, at + 1 + (at % 7), false));
        assert_true(sbx_text_hides(buf, 170, true));
        memset(buf, 'x', sizeof buf);
        memcpy(buf + at, "\\u0000", 6);
        if (!sbx_text_hides(buf, 170, true))
            fail_msg("\\u0000 at %zu not seen", at);
        assert_false(sbx_text_hides(buf, 170, false)); /* not escaped: six plain bytes */
        memcpy(buf + at, "\\u0001", 6);
        assert_false(sbx_text_hides(buf, 170, true));
        memcpy(buf + at, "\\\\u0000", 7);
        assert_false(sbx_text_hides(buf, 170, true));
    }
}

static void tags(void **state)
{
    (void)state;
    struct sbx_buf out = SBX_BUF_INIT;
    /* "hi" in tags (U+E0068 U+E0069) around visible text; U+E0001 and U+E007F are not letters */
    static const char s[] = "a\xf3\xa0\x81\xa8\xf3\xa0\x81\xa9" "b\xf3\xa0\x80\x81\xf3\xa0\x81\xbf";
    assert_int_equal(sbx_tag_text(s, sizeof s - 1, &out), 2);
    assert_int_equal(out.len, 2);
    assert_memory_equal(out.p, "hi", 2);
    sbx_buf_clear(&out);
    assert_int_equal(sbx_tag_text("no tags \xf3", 9, &out), 0);
    assert_int_equal(out.len, 0);
    sbx_buf_free(&out);
}

static void the_finding(void **state)
{
    (void)state;
    static const char log[] =
        "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"command\", \"command\": \"ls\", \"exit\": 0, "
        "\"stdout\": \"a\\nb\\n\"}\n"
        "{\"at\": \"2026-01-01T00:00:02Z\", \"kind\": \"command\", \"command\": \"ls # \\u202eevil\", "
        "\"exit\": 0}\n"
        "{\"at\": \"2026-01-01T00:00:03Z\", \"kind\": \"command\", \"command\": \"cat x\", \"exit\": 0, "
        "\"stdout\": \"\xef\xbb\xbfhi\"}\n"
        "{\"at\": \"2026-01-01T00:00:04Z\", \"kind\": \"command\", \"command\": \"cat y\", \"exit\": 1, "
        "\"stderr\": \"\\u200b\"}\n";
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    char *copy = malloc(sizeof log);
    memcpy(copy, log, sizeof log);
    uint32_t src = sbx_timeline_add_source(&tl, "run.jsonl", copy, sizeof log - 1, SBX_DATA_HEAP);
    sbx_load_source(&tl, src, &sbx_format_recorder, NULL);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, 4);
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(&tl, NULL, &sum, err, sizeof err));
    for (size_t i = 0; i < tl.n; i++) {
        bool want = tl.order[i]->line_no >= 2;
        assert_int_equal(!!(tl.order[i]->findings & SBX_F_HIDDEN_TEXT), want);
    }
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(classes),
        cmocka_unit_test(raw_and_escaped),
        cmocka_unit_test(nul),
        cmocka_unit_test(tags),
        cmocka_unit_test(the_finding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
