/* The text summary (render/summary/summary_text.c) on runs made here: its
 * words where they could mislead (hosts "other" than refused ones, an
 * account change made from inside the sandbox it changed). */
#include <locale.h>
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
#include "analyses/summary.h"
#include "render/sanitize.h"
#include "render/summary/summary.h"

struct input {
    const struct sbx_format *fmt;
    const char *text;
};

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

static struct run *run_of(const struct input *in, size_t n)
{
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(in[i].text);
        char *copy = malloc(len + 1);
        memcpy(copy, in[i].text, len + 1);
        char name[32];
        snprintf(name, sizeof name, "in%zu.log", i);
        uint32_t src = sbx_timeline_add_source(&r->tl, name, copy, len, SBX_DATA_HEAP);
        struct sbx_load_opts lo = {.threads = 1};
        sbx_load_source(&r->tl, src, in[i].fmt, &lo);
    }
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err));
    return r;
}

static void run_free(struct run *r)
{
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
}

/* The text summary of r at a width (0: the default), as printed (caller frees). */
static char *text_at(const struct run *r, int cols)
{
    struct sbx_buf out = SBX_BUF_INIT;
    char err[256];
    struct sbx_summary_look look = {.cols = cols};
    assert_true(sbx_render_summary(&r->tl, &r->sum, SBX_SUMMARY_TEXT, &look, &out, err, sizeof err));
    return out.p;
}

/* Wide enough that no line of these runs wraps. */
static char *text_of(const struct run *r) { return text_at(r, 1000); }

/* The line of text starting with prefix, as a new string (caller frees). */
static char *line_of(const char *text, const char *prefix)
{
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (strncmp(p, prefix, strlen(prefix)) == 0) {
            char *s = malloc(n + 1);
            memcpy(s, p, n);
            s[n] = '\0';
            return s;
        }
        p = nl ? nl + 1 : NULL;
    }
    fail_msg("no line starting '%s' in:\n%s", prefix, text);
    return NULL;
}

#define CMD(at, cmd, exit, err)                                                                    \
    "{\"at\": \"2026-05-04T10:00:0" at "Z\", \"sandbox\": \"a1b2c3d4\", \"kind\": \"command\", "   \
    "\"command\": \"" cmd "\", \"exit\": " #exit ", \"ms\": 10, \"stdout\": \"\", \"stderr\": \"" err \
    "\"}\n"

/* "other" hosts only beside refused ones: with none refused the words say
 * "no hosts named", with one refused "no other hosts named". */
static void network_words(void **state)
{
    (void)state;
    static const struct {
        const char *log, *want;
    } cases[] = {
        {CMD("1", "ls", 0, ""), "Network:   no hosts named"},
        {CMD("1", "curl -s https://x.example/", 6, "curl: (6) Could not resolve host: x.example\\n"),
         "Network:   1 refused (x.example); no other hosts named"},
        {CMD("1", "curl -s https://x.example/", 6, "curl: (6) Could not resolve host: x.example\\n")
             CMD("2", "git clone https://github.com/a/b", 0, ""),
         "Network:   1 refused (x.example); 1 host named (github.com)"},
        {CMD("2", "git clone https://github.com/a/b", 0, ""), "Network:   1 host named (github.com)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct input in = {&sbx_format_recorder, cases[i].log};
        struct run *r = run_of(&in, 1);
        char *text = text_of(r), *line = line_of(text, "Network:");
        assert_string_equal(line, cases[i].want);
        free(line);
        free(text);
        run_free(r);
    }
}

#define AUDIT(id, action, type, target)                                                            \
    "{\"id\": \"" id "\", \"at\": \"2026-05-04T10:00:05.500Z\", \"action\": \"" action "\", "       \
    "\"actor\": {\"kind\": \"agent\", \"id\": \"key_ci\", \"name\": \"ci-agent\"}, "              \
    "\"target\": {\"type\": \"" type "\", \"id\": \"" target "\"}, \"sandbox\": \"a1b2c3d4\"}\n"

/* A change made from inside the sandbox it changed says so in words that
 * read: FROM INSIDE the sandbox, on that sandbox; one on something else
 * names its target. */
static void account_words(void **state)
{
    (void)state;
    struct input in[] = {
        {&sbx_format_recorder, CMD("1", "ls", 0, "")},
        {&sbx_format_runtime_audit, AUDIT("aud-1", "network.rules_changed", "sandbox", "a1b2c3d4")
                                        AUDIT("aud-2", "key.created", "key", "key_x")},
    };
    struct run *r = run_of(in, 2);
    char *text = text_of(r);
    char *same = line_of(text, "  10:00:05.500Z network.rules_changed");
    /* the sandbox it acted on is the one it acted from: said once */
    assert_string_equal(same, "  10:00:05.500Z network.rules_changed (no detail), from inside sandbox a1b2c3d4 by ci-agent");
    char *other = line_of(text, "  10:00:05.500Z key.created");
    assert_string_equal(other, "  10:00:05.500Z key.created on key:key_x: key created: key_x, from inside sandbox a1b2c3d4 by ci-agent");
    assert_null(strstr(text, " on and "));
    free(same);
    free(other);
    free(text);
    run_free(r);
}

/* What text shows, without its blanks: a wrap moves words onto rows of
 * their own (or cuts a long one between two characters) but must lose none
 * (caller frees). */
static char *words(const char *text)
{
    struct sbx_buf b = SBX_BUF_INIT;
    for (const char *p = text; *p; p++)
        if (*p != ' ' && *p != '\n')
            sbx_buf_addc(&b, *p);
    return b.p ? b.p : calloc(1, 1);
}

/* At any width no row is wider, nothing is cut ("…"), the rows after the
 * first of a line are indented, and the words are those of the unwrapped
 * summary, in order. */
static void long_facts_wrap_never_cut(void **state)
{
    (void)state;
    struct input in[] = {
        {&sbx_format_recorder,
         CMD("1", "curl -sS --noproxy '*' --max-time 3 https://paste.example.com/raw/Zx81/a/very/long/path/that/goes/on/and/on -o /tmp/fix.py",
             6, "curl: (6) Could not resolve host: paste.example.com after a long and detailed explanation of why")
             CMD("2", "git clone https://github.com/example/a-repository-with-a-long-name-indeed-longer-than-a-row-of-eighty-columns-can-hold", 0, "")},
        {&sbx_format_runtime_audit, AUDIT("aud-1", "network.rules_changed", "sandbox", "a1b2c3d4")},
    };
    struct run *r = run_of(in, 2);
    /* the verdict and the story fit what a screen of that width leaves
     * (another cut, of whole items, with "and N more"): the words compared
     * are those of the facts after them */
    char *wide = text_of(r), *want = words(strstr(wide, "Run:"));
    static const int widths[] = {20, 33, 40, 61, 80, 100, 132};
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        char *text = text_at(r, widths[w]);
        assert_null(strstr(text, "\xE2\x80\xA6")); /* no "…": nothing cut */
        for (const char *p = text; *p;) {
            const char *nl = strchr(p, '\n');
            assert_non_null(nl);
            assert_true(sbx_text_width(p, (size_t)(nl - p)) <= widths[w]);
            p = nl + 1;
        }
        char *got = words(strstr(text, "Run:"));
        assert_string_equal(got, want);
        free(got);
        free(text);
    }
    /* at 80: a topic line goes on under its label, a detail line further in */
    char *text = text_at(r, 0);
    assert_non_null(strstr(text, "longest 10 ms at 10:00:00.990Z: curl -sS --noproxy '*' --max-time 3\n"
                                 "               https://paste.example.com/raw/"));
    assert_non_null(strstr(text, "from inside sandbox a1b2c3d4\n      by ci-agent\n"));
    const char *detail = strstr(strstr(text, "Network:"), "  10:00:00.990Z "); /* not the story's */
    assert_non_null(detail);
    const char *row2 = strchr(detail, '\n') + 1;
    assert_memory_equal(row2, "      long and detailed", 22); /* its own indent and four more */
    free(text);
    free(want);
    free(wide);
    run_free(r);
}

/* Every item of every list is named, however many: the text never says
 * "+N more" where the JSON lists them (six failed programs, six refused
 * hosts, their detail lines, and the skipped lines). */
static void every_item_named(void **state)
{
    (void)state;
    struct input in[] = {
        {&sbx_format_recorder,
         CMD("1", "curl -s https://h1.example/", 6, "curl: (6) Could not resolve host: h1.example")
         CMD("2", "wget https://h2.example/", 4, "curl: (6) Could not resolve host: h2.example")
         CMD("3", "git clone https://h3.example/r", 128, "curl: (6) Could not resolve host: h3.example")
         CMD("4", "python3 -c 1 https://h4.example/", 1, "curl: (6) Could not resolve host: h4.example")
         CMD("5", "pytest -q https://h5.example/", 1, "curl: (6) Could not resolve host: h5.example")
         CMD("6", "make https://h6.example/", 2, "curl: (6) Could not resolve host: h6.example")
         "not json 1\nnot json 2\nnot json 3\nnot json 4\nnot json 5\n"},
    };
    struct run *r = run_of(in, 1);
    char *text = text_at(r, 0), *all = words(text);
    assert_null(strstr(text, "more"));
    static const char *const named[] = {"curl×1", "wget×1", "gitclone×1", "python3×1", "pytest×1", "make×1"};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (!strstr(all, named[i]))
            fail_msg("failed program %s not named in:\n%s", named[i], text);
    for (int h = 1; h <= 6; h++) {
        char host[32], detail[64];
        snprintf(host, sizeof host, "h%d.example", h);
        snprintf(detail, sizeof detail, "  10:00:0%d.990Z ", h - 1); /* its refusal's own line */
        if (!strstr(all, host) || !strstr(text, detail))
            fail_msg("refused host %s or its line not in:\n%s", host, text);
    }
    for (int k = 7; k <= 11; k++) {
        char skip[32];
        snprintf(skip, sizeof skip, "in0.log:%d:", k);
        if (!strstr(text, skip))
            fail_msg("skipped line %d not named in:\n%s", k, text);
    }
    free(all);
    free(text);
    run_free(r);
}

/* The markdown summary names every list whole too, past the ten items an
 * export starts from: twelve failed programs, refused hosts and skipped
 * lines, each named, nothing "more". */
static void markdown_names_every_item(void **state)
{
    (void)state;
    struct sbx_buf log = SBX_BUF_INIT;
    for (int i = 1; i <= 12; i++)
        sbx_buf_addf(&log,
                     "{\"at\": \"2026-05-04T10:00:%02d.000Z\", \"sandbox\": \"a1b2c3d4\", \"kind\": \"command\", "
                     "\"command\": \"tool%d https://h%d.example/\", \"exit\": 1, \"ms\": 10, \"stdout\": \"\", "
                     "\"stderr\": \"curl: (6) Could not resolve host: h%d.example\"}\n",
                     i, i, i, i);
    for (int i = 1; i <= 12; i++)
        sbx_buf_addf(&log, "not json %d\n", i);
    sbx_buf_addc(&log, '\0');
    struct input in[] = {{&sbx_format_recorder, log.p}};
    struct run *r = run_of(in, 1);
    struct sbx_buf out = SBX_BUF_INIT;
    char err[256];
    assert_true(sbx_render_summary(&r->tl, &r->sum, SBX_SUMMARY_MARKDOWN, NULL, &out, err, sizeof err));
    sbx_buf_addc(&out, '\0');
    assert_null(strstr(out.p, "more"));
    for (int i = 1; i <= 12; i++) {
        char prog[64], host[64], skip[64];
        snprintf(prog, sizeof prog, "- `tool%d` failed 1 time", i);
        snprintf(host, sizeof host, "- refused `h%d.example`", i);
        snprintf(skip, sizeof skip, "`in0.log` line %d:", 12 + i);
        if (!strstr(out.p, prog) || !strstr(out.p, host) || !strstr(out.p, skip))
            fail_msg("item %d not named whole in:\n%s", i, out.p);
    }
    sbx_buf_free(&out);
    run_free(r);
    sbx_buf_free(&log);
}

int main(void)
{
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(network_words),
        cmocka_unit_test(account_words),
        cmocka_unit_test(long_facts_wrap_never_cut),
        cmocka_unit_test(every_item_named),
        cmocka_unit_test(markdown_names_every_item),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
