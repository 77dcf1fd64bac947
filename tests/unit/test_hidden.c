/* Hidden text: which code points hide, finding them raw or escaped in a JSON
 * string body, what tag characters spell, and the finding the content
 * analysis sets on a command whose text hides something. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
        bool want = sbx_ev_line_no(sbx_tl_at(&tl, i)) >= 2;
        assert_int_equal(!!(sbx_tl_at(&tl, i)->findings & SBX_F_HIDDEN_TEXT), want);
    }
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
}

/* The finding on recorder lines, every field and spelling: a code point
 * that hides or one next to such a range, raw or escaped, in the command,
 * stdout (decoded for the hash check or not) or stderr. The scanner marks
 * the texts it found nothing in (SBX_TEXT_SHOWN), and those are not looked
 * at again: the finding must still be exactly the code point's. */
static void the_finding_every_way(void **state)
{
    (void)state;
    static const uint32_t cps[] = {
        0xAD,   0xAC,   0xAE,    0x61C,   0x61B,   0x115F,  0x1160,  0x1161,  0x180E,  0x180F,
        0x200A, 0x200B, 0x200F,  0x2010,  0x2018,  0x2027,  0x2028,  0x202E,  0x202F,  0x205F,
        0x2060, 0x206F, 0x2070,  0x2192,  0x2713,  0x3163,  0x3164,  0x3165,  0xDFFF + 1, 0xE000,
        0xF8FF, 0xF900, 0xFEFE,  0xFEFF,  0xFFA0,  0xFFF8,  0xFFF9,  0xFFFB,  0xFFFC,  0x1F389,
        0xDFFFF, 0xE0000, 0xE0041, 0xE007F, 0xE0080, 0xEFFFF, 0xF0000, 0x10FFFF, 0x4E2D, 0xE9};
    static const char *const fields[] = {"command", "stdout", "stderr"};
    char *log = malloc(1 << 20);
    size_t n = 0, lines = 0;
    bool want[2000];
    for (size_t c = 0; c < sizeof cps / sizeof *cps; c++)
        for (int f = 0; f < 3; f++)
            for (int form = 0; form < 2; form++)
                for (int hash = 0; hash < 2; hash++) {
                    uint32_t cp = cps[c];
                    char ch[16];
                    if (form == 1 && cp >= 0x10000)
                        snprintf(ch, sizeof ch, "\\u%04x\\u%04x", 0xD800 + ((cp - 0x10000) >> 10),
                                 0xDC00 + ((cp - 0x10000) & 0x3FF));
                    else if (form == 1)
                        snprintf(ch, sizeof ch, "\\u%04x", (unsigned)cp);
                    else if (cp < 0x800)
                        snprintf(ch, sizeof ch, "%c%c", 0xC0 | cp >> 6, 0x80 | (cp & 0x3F));
                    else if (cp < 0x10000)
                        snprintf(ch, sizeof ch, "%c%c%c", 0xE0 | cp >> 12, 0x80 | (cp >> 6 & 0x3F),
                                 0x80 | (cp & 0x3F));
                    else
                        snprintf(ch, sizeof ch, "%c%c%c%c", 0xF0 | cp >> 18, 0x80 | (cp >> 12 & 0x3F),
                                 0x80 | (cp >> 6 & 0x3F), 0x80 | (cp & 0x3F));
                    want[lines++] = sbx_cp_invisible(cp);
                    n += (size_t)sprintf(log + n,
                                         "{\"at\": \"2026-01-01T00:%02zu:%02zu.%03zuZ\", \"kind\": \"command\", "
                                         "\"command\": \"%s\", \"exit\": 0, \"%s\": \"%.*s\\u2713 \u00e9 \\u001b[0m %s "
                                         "\\n\\\"tail of the text, past a vector block's end\\\"\"%s}\n",
                                         lines / 3600, lines / 60 % 60, lines % 60, f == 0 ? ch : "ls",
                                         f == 0 ? "stdout" : fields[f], (int)(lines % 40),
                                         "........................................", f == 0 ? "" : ch,
                                         hash ? ", \"stdout_hash\": \"0123456789abcdef\"" : "");
                }
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    uint32_t src = sbx_timeline_add_source(&tl, "run.jsonl", log, n, SBX_DATA_HEAP);
    sbx_load_source(&tl, src, &sbx_format_recorder, NULL);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, lines);
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(&tl, NULL, &sum, err, sizeof err));
    size_t shown = 0, hiding = 0;
    for (size_t i = 0; i < tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&tl, i);
        bool w = want[sbx_ev_line_no(e) - 1];
        hiding += w;
        if (!!(e->findings & SBX_F_HIDDEN_TEXT) != w)
            fail_msg("line %zu: finding %d, want %d", (size_t)sbx_ev_line_no(e),
                     !!(e->findings & SBX_F_HIDDEN_TEXT), w);
        const struct sbx_command *c = &e->u.cmd;
        const struct sbx_text err = sbx_cmd_err(c);
        const struct sbx_text *texts[] = {&c->command, &c->out, &err};
        bool all_shown = true;
        for (int k = 0; k < 3; k++)
            if (texts[k]->flags & SBX_TEXT_PRESENT)
                all_shown = all_shown && (texts[k]->flags & SBX_TEXT_SHOWN);
        assert_int_equal(all_shown, !w);
        shown += all_shown;
    }
    assert_true(shown > 100 && hiding > 100);
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
        cmocka_unit_test(the_finding_every_way),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
