/* Argument vectors kept as JSON (SBX_TEXT_ARGV): the command line they read
 * as (quoting, escapes, unicode, what is no array), the form wrapped in a
 * JSON string, and the readers that must see the line: search, hidden text. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/argv.h"
#include "analyses/hidden.h"
#include "query/query.h"
#include "model/timeline.h"

/* The line sbx_argv_format makes of json, or "(none)". */
static const char *line_of(const char *json)
{
    static char out[1024];
    size_t n = strlen(json);
    char *dst = malloc(SBX_ARGV_MAX(n));
    size_t len = sbx_argv_format(json, n, dst);
    if (len == SIZE_MAX)
        strcpy(out, "(none)");
    else if (len < sizeof out)
        memcpy(out, dst, len), out[len] = '\0';
    else
        fail_msg("line too long: %zu", len);
    free(dst);
    return out;
}

static void words_and_quoting(void **state)
{
    (void)state;
    assert_string_equal(line_of("[\"curl\",\"-fsS\",\"https://x\"]"), "curl -fsS https://x");
    assert_string_equal(line_of(" [ \"ls\" , \"-la\" ] "), "ls -la");
    assert_string_equal(line_of("[]"), "");
    assert_string_equal(line_of("[\"\"]"), "''");
    assert_string_equal(line_of("[\"echo\",\"\",\"x\"]"), "echo '' x");
    assert_string_equal(line_of("[\"echo\",\"a b\"]"), "echo 'a b'");
    assert_string_equal(line_of("[\"python3\",\"csvsum.py\",\"prices.csv\",\"price\"]"),
                        "python3 csvsum.py prices.csv price");
    assert_string_equal(line_of("[\"a@b%c+d=e:f,g.h/i-j_k\"]"), "a@b%c+d=e:f,g.h/i-j_k");
    /* shell metacharacters */
    static const char *const meta[] = {"a;b", "a|b", "a&b", "$x", "`x`", "a>b", "a<b", "(a)",
                                       "~", "#x", "a*", "?", "[x]", "{a,b}", "!x", "a\\\\b", "\\\"q\\\""};
    for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++) {
        char json[64];
        snprintf(json, sizeof json, "[\"%s\"]", meta[i]);
        const char *got = line_of(json);
        if (got[0] != '\'' || got[strlen(got) - 1] != '\'')
            fail_msg("%s: not quoted: %s", json, got);
    }
    assert_string_equal(line_of("[\"a\\\\b\"]"), "'a\\b'");
    assert_string_equal(line_of("[\"say \\\"hi\\\"\"]"), "'say \"hi\"'");
    /* a single quote: "…" when that keeps it literally, else '\'' */
    assert_string_equal(line_of("[\"it's\"]"), "\"it's\"");
    assert_string_equal(line_of("[\"bash\",\"-c\",\"printf 'a\\\\nb'\"]"), "bash -c \"printf 'a\\nb'\"");
    assert_string_equal(line_of("[\"it's $HOME\"]"), "'it'\\''s $HOME'");
    assert_string_equal(line_of("[\"'\\\"'\"]"), "''\\''\"'\\'''");
    assert_string_equal(line_of("[\"a'\\\\\"]"), "'a'\\''\\'"); /* a backslash last: not in "…" */
    assert_string_equal(line_of("[\"''\"]"), "\"''\"");
    /* the redaction mark stays as sandboxio wrote it */
    assert_string_equal(line_of("[\"bash\",\"-c\",\"***\"]"), "bash -c ***");
    assert_string_equal(line_of("[\"--token=***\"]"), "--token=***");
    assert_string_equal(line_of("[\"***x***\"]"), "***x***");
    assert_string_equal(line_of("[\"**\"]"), "'**'");
    assert_string_equal(line_of("[\"****\"]"), "'****'");
    assert_string_equal(line_of("[\"*** x\"]"), "'*** x'");
    assert_true(sbx_argv_word_plain("***", 3));
    assert_false(sbx_argv_word_plain("", 0));
    assert_false(sbx_argv_word_plain("*.py", 4));
}

static void escapes_and_unicode(void **state)
{
    (void)state;
    assert_string_equal(line_of("[\"caf\\u00e9\"]"), "caf\xc3\xa9");
    assert_string_equal(line_of("[\"caf\xc3\xa9\"]"), "caf\xc3\xa9");
    assert_string_equal(line_of("[\"\\ud83d\\ude80\"]"), "\xf0\x9f\x9a\x80");
    assert_string_equal(line_of("[\"a\\/b\"]"), "a/b");
    assert_string_equal(line_of("[\"\\u0041\\u0042\"]"), "AB");
    assert_string_equal(line_of("[\"a\\nb\"]"), "'a\nb'");
    assert_string_equal(line_of("[\"a\\tb\"]"), "'a\tb'");
    assert_string_equal(line_of("[\"\\u0027\"]"), "\"'\"");
    /* the worst growth: every byte a quote */
    char json[256] = "[\"";
    for (int i = 0; i < 50; i++)
        strcat(json, "\\\"'");
    strcat(json, "\"]");
    const char *got = line_of(json);
    assert_true(strlen(got) <= SBX_ARGV_MAX(strlen(json)));
    assert_int_equal(got[0], '\'');
}

static void not_an_array(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", " ", "[", "]", "[\"a\"", "[\"a\",]", "[,\"a\"]", "[\"a\" \"b\"]", "[\"a\"]x",
        "[\"a\"][\"b\"]", "[1]", "[\"a\",null]", "[[\"a\"]]", "{\"a\":1}", "\"a\"", "null",
        "[\"a\\x\"]", "[\"a\\u12\"]", "[\"a\\u12g4\"]", "[\"a\tb\"]", "[\"a\nb\"]", "[\"\\\"]",
        "[\"a\\\"]", "[\"\x00\"]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = i + 1 == sizeof bad / sizeof bad[0] ? 4 : strlen(bad[i]);
        char dst[64];
        if (sbx_argv_format(bad[i], n, dst) != SIZE_MAX)
            fail_msg("accepted: %s", bad[i]);
    }
}

/* A timeline of commands whose command texts are the given bytes, with the
 * given flags (as an importer would keep them). */
static struct sbx_timeline *commands(const char *const *texts, size_t n, uint32_t flags)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    struct sbx_buf data = SBX_BUF_INIT;
    uint64_t off[16];
    for (size_t i = 0; i < n; i++) {
        off[i] = data.len;
        sbx_buf_adds(&data, texts[i]);
        sbx_buf_addc(&data, '\n');
    }
    uint32_t src = sbx_timeline_add_source(tl, "argv", data.p, data.len, SBX_DATA_HEAP);
    struct sbx_evbuf buf = {0};
    for (size_t i = 0; i < n; i++) {
        struct sbx_event *e = sbx_evbuf_push_from(&buf, src, off[i], strlen(texts[i]),
                                                  (uint32_t)i + 1);
        e->kind = SBX_EV_COMMAND;
        e->start = e->end = (int64_t)i * 1000000000;
        e->u.cmd.command = sbx_text_make(&buf, e, off[i], strlen(texts[i]), SBX_TEXT_PRESENT | flags);
    }
    sbx_timeline_adopt(tl, &buf);
    sbx_timeline_finish(tl);
    return tl;
}

static void unload(struct sbx_timeline *tl)
{
    sbx_timeline_free(tl);
    free(tl);
}

static const char *text_of(const struct sbx_timeline *tl, size_t i, struct sbx_buf *scratch)
{
    static char out[512];
    size_t n;
    const char *s = sbx_text_get(tl, sbx_tl_at(tl, i), &sbx_tl_at(tl, i)->u.cmd.command, scratch, &n);
    assert_true(n < sizeof out);
    memcpy(out, s, n);
    out[n] = '\0';
    return out;
}

static void through_the_timeline(void **state)
{
    (void)state;
    static const char *const plain[] = {"[\"cat\",\"src/leap.py\"]", "[\"echo\",\"a b\"]",
                                        "[\"a\",1]", "not json at all"};
    struct sbx_timeline *tl = commands(plain, 4, SBX_TEXT_ARGV);
    struct sbx_buf scratch = SBX_BUF_INIT;
    assert_string_equal(text_of(tl, 0, &scratch), "cat src/leap.py");
    assert_string_equal(text_of(tl, 1, &scratch), "echo 'a b'");
    /* no argument vector: the bytes as they are, never lost */
    assert_string_equal(text_of(tl, 2, &scratch), "[\"a\",1]");
    assert_string_equal(text_of(tl, 3, &scratch), "not json at all");
    unload(tl);

    /* OpenTelemetry's sandboxio.argv: a string whose content is the array */
    static const char *const wrapped[] = {
        "[\\\"cat\\\",\\\"src/leap.py\\\"]",
        "[\\\"echo\\\",\\\"say \\\\\\\"hi\\\\\\\"\\\"]", /* ["echo","say \"hi\""] */
        "[\\\"caf\\\\u00e9\\\",\\\"\\u00e9\\\"]",        /* ["caf\u00e9","é"] */
        "[\\\"a\\\",",                                   /* an array cut short */
        "plain \\\"text\\\"",
    };
    tl = commands(wrapped, 5, SBX_TEXT_ARGV | SBX_TEXT_ESCAPED);
    assert_string_equal(text_of(tl, 0, &scratch), "cat src/leap.py");
    assert_string_equal(text_of(tl, 1, &scratch), "echo 'say \"hi\"'");
    assert_string_equal(text_of(tl, 2, &scratch), "caf\xc3\xa9 \xc3\xa9");
    assert_string_equal(text_of(tl, 3, &scratch), "[\"a\",");
    assert_string_equal(text_of(tl, 4, &scratch), "plain \"text\"");
    unload(tl);
    sbx_buf_free(&scratch);
}

static char *search(struct sbx_timeline *tl, const char *text)
{
    static char out[256];
    char err[256];
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_SEARCH, text, strlen(text), NULL, err,
                                            sizeof err);
    assert_non_null(q);
    uint32_t *pos;
    struct sbx_query_job job = {.threads = 1};
    size_t n = sbx_query_run(q, tl, NULL, 0, &pos, &job);
    sbx_query_free(q);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u", i ? " " : "",
                 sbx_ev_line_no(sbx_tl_at(tl, pos[i])));
    free(pos);
    return out;
}

static void search_finds_the_line(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "[\"python3\",\"csvsum.py\",\"prices.csv\"]",
        "[\"bash\",\"-c\",\"printf 'x' > /tmp/a b\"]",
        "[\"caf\\u00e9\",\"\\u0066loat\"]",
        "[\"a\",2]",
    };
    struct sbx_timeline *tl = commands(texts, 4, SBX_TEXT_ARGV);
    assert_string_equal(search(tl, "python3 csvsum.py"), "1"); /* across words */
    assert_string_equal(search(tl, "csvsum"), "1");
    assert_string_equal(search(tl, "^python3 csvsum\\.py prices\\.csv$"), "1");
    assert_string_equal(search(tl, "\",\""), "");               /* the JSON is not the text */
    assert_string_equal(search(tl, "bash -c \"printf"), "2");   /* quotes the line adds */
    assert_string_equal(search(tl, "'x' > /tmp"), "2");
    assert_string_equal(search(tl, "café float"), "3");         /* escapes decoded */
    assert_string_equal(search(tl, "float"), "3");
    assert_string_equal(search(tl, "\\[\"a\",2\\]"), "4");      /* no argv: as it is */
    assert_string_equal(search(tl, "a\",2"), "4");
    unload(tl);

    static const char *const wrapped[] = {"[\\\"python3\\\",\\\"csvsum.py\\\"]",
                                          "[\\\"git\\\",\\\"diff\\\"]"};
    tl = commands(wrapped, 2, SBX_TEXT_ARGV | SBX_TEXT_ESCAPED);
    assert_string_equal(search(tl, "python3 csvsum.py"), "1");
    assert_string_equal(search(tl, "git diff"), "2");
    assert_string_equal(search(tl, "\\\\"), "");
    unload(tl);
}

static void hidden_in_an_argv(void **state)
{
    (void)state;
    static const char *const texts[] = {"[\"echo\",\"a\\u200bb\"]", "[\"echo\",\"a\xe2\x80\x8b\"]",
                                        "[\"echo\",\"caf\\u00e9\"]"};
    struct sbx_timeline *tl = commands(texts, 3, SBX_TEXT_ARGV);
    struct sbx_buf scratch = SBX_BUF_INIT;
    assert_true(sbx_field_hides(tl, sbx_tl_at(tl, 0), &sbx_tl_at(tl, 0)->u.cmd.command, &scratch));
    assert_true(sbx_field_hides(tl, sbx_tl_at(tl, 1), &sbx_tl_at(tl, 1)->u.cmd.command, &scratch));
    assert_false(sbx_field_hides(tl, sbx_tl_at(tl, 2), &sbx_tl_at(tl, 2)->u.cmd.command, &scratch));
    unload(tl);
    /* escaped twice: \\u200b in the string is \u200b in the array */
    static const char *const wrapped[] = {"[\\\"echo\\\",\\\"a\\\\u200bb\\\"]",
                                          "[\\\"echo\\\",\\\"a\\\\\\\\u200bb\\\"]"};
    tl = commands(wrapped, 2, SBX_TEXT_ARGV | SBX_TEXT_ESCAPED);
    assert_true(sbx_field_hides(tl, sbx_tl_at(tl, 0), &sbx_tl_at(tl, 0)->u.cmd.command, &scratch));
    /* a\\u200bb in the array is a backslash and text: nothing hides */
    assert_false(sbx_field_hides(tl, sbx_tl_at(tl, 1), &sbx_tl_at(tl, 1)->u.cmd.command, &scratch));
    unload(tl);
    sbx_buf_free(&scratch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(words_and_quoting),    cmocka_unit_test(escapes_and_unicode),
        cmocka_unit_test(not_an_array),         cmocka_unit_test(through_the_timeline),
        cmocka_unit_test(search_finds_the_line), cmocka_unit_test(hidden_in_an_argv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
