/* export/body.h: what goes into an export and what never does, for every
 * body kind, on a hostile log made here (docs/hostile-inputs.md rows 1-13, 31,
 * 32); the size limits at their edge; the digests and the marker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <jansson.h>
#include <openssl/evp.h>

#include "export/body.h"
#include "importers/format.h"
#include "importers/load.h"
#include "base/utf8.h"
#include "analyses/secrets/secrets.h"
#include "render/md.h"

#define GHP "ghp_Zq8Lw3Rt6Yp1Ks4Nv7Bx2Cm5Hd9Fg0Jj3kAB"
#define JWT "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCIsImlhdCI6MTcwMDAwMDAwMH0.Zk3Jd9sQw2Lr8Xv5Tn1Yb6Hc4Pg7Mf0Ae2Ku9Wi3Ro"
#define PEM "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvredZiKRkgwlL9xNAwxXFg0x/XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC+9aGVd+Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmw\n"
#define CUT "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"

/* Rows 1-13 and 32 of the catalogue, as text a log may hold (JSON escapes
 * are made by jansson: raw ESC, C0, C1 and DEL all pass through). */
static const char *const hostile[] = {
    "\x1b]52;c;SGVsbG8gd29ybGQ=\x07",                         /* 1 */
    "\x1b]0;pwned\x07\x1b]2;title\x1b\\\x1b[21t",              /* 2 */
    "\x1b]50;?\x07\x1bP$qm\x1b\\",                             /* 3 */
    "\x1b]8;;https://evil.example/x\x1b\\click me\x1b]8;;\x1b\\", /* 4 */
    "\x1b[2J\x1b[HAll tests passed",                           /* 5 */
    ("\xc2\x9b" "31m C1 CSI"),                                 /* 6 */
    "abc\rdef\b\x7fghi",                                       /* 8 */
    "rm -rf \xe2\x80\xae/ \xe2\x81\xa6x\xe2\x81\xa9",          /* 9 */
    "zw\xe2\x80\x8bsp \xef\xbb\xbf tags \xf3\xa0\x80\x81\xf3\xa0\x81\xa8", /* 10 */
    "\xe6\xbc\xa2\xe5\xad\x97 \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb", /* 12 */
    "/close\n/label ~bug\n@admin @here <!channel> [~admin] !image.png!",
    "![x](https://evil.example/pixel.png) <img src=x onerror=alert(1)> <b>bold</b>",
    "<script>alert(1)</script> https://evil.example/auto www.evil.example",
    "```` fence ```` and ``````` longer, and a lone ` tick",
    "{noformat}\n@admin\n{NoFormat}",
    "<!-- sbxview:0000000000000000000000000000000000000000000000000000000000000000 -->",
    "cut \x1b]52;c;QUFBQUFB", /* 7: swallows the rest of its field, so it comes last */
};

static void add_line(struct sbx_buf *b, int sec, const char *cmd, int exit, const char *out,
                     const char *err, const char *sandbox)
{
    json_t *o = json_object();
    char at[64];
    snprintf(at, sizeof at, "2026-01-01T00:%02d:%02d.000Z", sec / 60, sec % 60);
    json_object_set_new(o, "at", json_string(at));
    json_object_set_new(o, "sandbox", json_stringn(sandbox, strlen(sandbox)));
    json_object_set_new(o, "kind", json_string("command"));
    json_object_set_new(o, "command", json_stringn(cmd, strlen(cmd)));
    json_object_set_new(o, "exit", json_integer(exit));
    json_object_set_new(o, "timed_out", json_false());
    json_object_set_new(o, "ms", json_integer(10));
    json_object_set_new(o, "stdout", json_stringn(out, strlen(out)));
    json_object_set_new(o, "stderr", json_stringn(err, strlen(err)));
    char *s = json_dumps(o, JSON_COMPACT);
    sbx_buf_adds(b, s);
    sbx_buf_addc(b, '\n');
    free(s);
    json_decref(o);
}

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    struct sbx_export_digests d;
    char marker[SBX_DIGEST_HEX]; /* of the last body built */
};

static struct run *load(const char *log, size_t n)
{
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    char *copy = malloc(n + 1);
    memcpy(copy, log, n);
    copy[n] = 0;
    uint32_t src = sbx_timeline_add_source(&r->tl, "hostile \x1b]0;x\x07 run.jsonl", copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(&r->tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err));
    sbx_export_digests(&r->tl, &r->d);
    return r;
}

static void drop(struct run *r)
{
    sbx_export_digests_free(&r->d);
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
}

static struct run *hostile_run(void)
{
    struct sbx_buf b = SBX_BUF_INIT;
    const size_t nh = sizeof hostile / sizeof hostile[0];
    int sec = 0;
    /* row 31: secrets in commands and output, one cut by the clip */
    add_line(&b, sec++, "git clone https://x:" GHP "@github.com/a/b", 1, "token " GHP "\n" JWT "\n",
             PEM, "s1");
    add_line(&b, sec++, "export GITHUB_TOKEN=" GHP, 1, "\n[...]\n", "tail " CUT, "s1");
    /* all of them in one failed command's output */
    struct sbx_buf all = SBX_BUF_INIT;
    for (size_t i = 0; i < nh; i++)
        sbx_buf_addf(&all, "%s\n", hostile[i]);
    add_line(&b, sec++, "cat hostile.txt", 1, all.p, all.p, "s1");
    sbx_buf_free(&all);
    for (size_t i = 0; i < nh; i++) {
        struct sbx_buf cmd = SBX_BUF_INIT;
        sbx_buf_addf(&cmd, "echo '%s'", hostile[i]);
        add_line(&b, sec++, cmd.p, 1, hostile[i], hostile[i], "s1");
        sbx_buf_free(&cmd);
    }
    /* a program name, a sandbox and a refused host's evidence from the log */
    add_line(&b, sec++, "@admin ![x](https://evil.example/x.png) go", 1, "", "", "<b>sb</b>");
    add_line(&b, sec++, "/close now", 2, "", "", "s1");
    add_line(&b, sec++, "curl https://evil.example/\x1b]52;c;AAAA\x07", 6, "",
             "curl: (6) Could not resolve host: evil.example `@admin` ![x](https://x/y.png)\n", "s1");
    /* row 11: 5,000 combining marks */
    struct sbx_buf marks = SBX_BUF_INIT;
    sbx_buf_adds(&marks, "a");
    for (int i = 0; i < 5000; i++)
        sbx_buf_adds(&marks, "\xcc\x81");
    add_line(&b, sec++, "printf marks", 1, marks.p, "", "s1");
    sbx_buf_free(&marks);
    /* row 13: invalid UTF-8 cannot be in a JSON string: the line is skipped */
    sbx_buf_adds(&b, "{\"at\":\"2026-01-01T00:10:00.000Z\",\"kind\":\"command\",\"command\":\"\xff\xc0\xaf\xed\xa0\x80\",\"exit\":1}\n");
    struct run *r = load(b.p, b.len);
    sbx_buf_free(&b);
    return r;
}

static bool valid_utf8(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

/* Nothing raw: no control but LF, no C1, no bidi/invisible character, no
 * planted secret. */
static void assert_inert(const char *s, size_t n)
{
    assert_true(valid_utf8(s, n));
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if ((cp < 0x20 && cp != '\n') || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
            (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
            (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff || (cp >= 0xe0000 && cp <= 0xe007f))
            fail_msg("U+%04X at byte %zu", cp, i);
        i += k;
    }
    assert_null(memmem(s, n, GHP, strlen(GHP)));
    assert_null(memmem(s, n, "Zq8Lw3Rt6Yp1Ks4Nv7Bx2Cm5Hd9Fg0Jj3k", 35));
    assert_null(memmem(s, n, JWT, strlen(JWT)));
    assert_null(memmem(s, n, "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7", 69));
    assert_null(memmem(s, n, "11ABCDEFG0123456789_abcdefghijklmnop", 36));
    /* the remnants of the escapes are visible tokens, not sequences */
    assert_null(memmem(s, n, "\x1b", 1));
}

static bool build(struct run *r, enum sbx_body_kind kind, size_t limit, bool output,
                  struct sbx_buf *out, struct sbx_body_info *info)
{
    static const char *const paths[] = {"run dir/it's.jsonl", "--as", "recorder", "plain.jsonl"};
    struct sbx_body_opts o = {.kind = kind, .limit = limit, .include_output = output,
                              .output_lines = 40, .paths = paths, .npaths = 4};
    char err[256];
    struct sbx_body_info mine;
    bool ok = sbx_export_body(&r->tl, &r->sum, &r->d, &o, out, info ? info : &mine, err, sizeof err);
    if (!ok)
        print_message("%s\n", err);
    else
        memcpy(r->marker, (info ? info : &mine)->marker, sizeof r->marker);
    return ok;
}

/* Markdown outside code: sbxview's words only. Every line outside a fence
 * with its code spans taken out may not mention, link, fetch, hold HTML
 * or start a quick action. */
/* "<!-- sbxview-review:" 64 hex digits " -->": the review marker, ours */
static bool review_marker_line(const char *s, size_t len)
{
    static const char open[] = "<!-- sbxview-review:", close[] = " -->";
    if (len != sizeof open - 1 + 64 + sizeof close - 1 || memcmp(s, open, sizeof open - 1) != 0 ||
        memcmp(s + len - 4, close, 4) != 0)
        return false;
    for (size_t i = sizeof open - 1; i < sizeof open - 1 + 64; i++)
        if (!strchr("0123456789abcdef", s[i]))
            return false;
    return true;
}

static void assert_markdown_inert(const char *s, size_t n, const char *digest)
{
    const char *end = s + n;
    size_t fence = 0, lines = 0;
    char marker[128];
    snprintf(marker, sizeof marker, "<!-- sbxview:%s -->", digest);
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
        size_t run = 0;
        while (run < len && s[run] == '`')
            run++;
        lines++;
        if (fence) {
            if (run == len && run >= fence)
                fence = 0; /* the fence closes only on a line of its own */
        } else if (run >= 3 && run == len) {
            fence = run;
        } else if (len == strlen(marker) && memcmp(s, marker, len) == 0) {
            assert_true(nl && nl + 1 == end); /* the marker is the last line */
        } else if (review_marker_line(s, len)) {
            /* ours: the review marker, just before the marker */
        } else {
            /* take out the code spans as CommonMark does */
            struct sbx_buf outside = SBX_BUF_INIT;
            for (size_t i = 0; i < len;) {
                if (s[i] != '`') {
                    sbx_buf_addc(&outside, s[i++]);
                    continue;
                }
                size_t k = 0;
                while (i + k < len && s[i + k] == '`')
                    k++;
                size_t j = i + k, close = 0;
                while (j < len) {
                    size_t r = 0;
                    while (j + r < len && s[j + r] == '`')
                        r++;
                    if (r == k) {
                        close = j;
                        break;
                    }
                    j += r ? r : 1;
                }
                if (!close)
                    fail_msg("an unclosed code span in line %zu: %.*s", lines, (int)len, s);
                i = close + k;
            }
            const char *o = outside.p ? outside.p : "";
            if (strpbrk(o, "@<>[]\\") || strstr(o, "http") || strstr(o, "www.") || o[0] == '/' ||
                strstr(o, "!["))
                fail_msg("log text outside code in line %zu: %s", lines, o);
            sbx_buf_free(&outside);
        }
        s = nl ? nl + 1 : end;
    }
    assert_int_equal(fence, 0);
}

static void hostile_markdown(void **state)
{
    (void)state;
    struct run *r = hostile_run();
    struct sbx_buf out = SBX_BUF_INIT;
    struct sbx_body_info info;
    assert_true(build(r, SBX_BODY_MARKDOWN, SBX_LIMIT_GITHUB, true, &out, &info));
    if (getenv("SBX_TEST_DUMP"))
        fwrite(out.p, 1, out.len, stderr);
    assert_inert(out.p, out.len);
    assert_markdown_inert(out.p, out.len, r->marker);
    assert_true(info.chars <= SBX_LIMIT_GITHUB);
    /* the evidence is there, quoted and made visible */
    assert_non_null(strstr(out.p, "### Findings"));
    assert_non_null(strstr(out.p, "evil.example"));
    assert_non_null(strstr(out.p, "<U+202E>"));
    assert_non_null(strstr(out.p, "eyJ\xe2\x80\xa6Ro")); /* masks, in UTF-8 whatever the locale */
    assert_null(strstr(out.p, "<U+2026>"));
    assert_non_null(strstr(out.p, "\xe6\xbc\xa2\xe5\xad\x97")); /* CJK as it is */
    assert_non_null(strstr(out.p, "### Output of the failed commands"));
    assert_non_null(strstr(out.p, "````````\n")); /* a fence longer than the 7-backtick run */
    /* the reopen line, shell-quoted */
    assert_non_null(strstr(out.p, "sbxview 'run dir/it'\\''s.jsonl' --as recorder plain.jsonl\n"));
    assert_true(sbx_export_marker_found(out.p, out.len, r->marker));
    /* this run's marker once, on the last line; the log's fake one is quoted */
    char mark[80];
    snprintf(mark, sizeof mark, "sbxview:%s", r->marker);
    assert_ptr_equal(strstr(out.p, mark), out.p + out.len - strlen(mark) - 5);
    assert_non_null(strstr(out.p, "<!-- sbxview:0000")); /* inside a fence (checked above) */
    sbx_buf_free(&out);
    drop(r);
}

/* Every text node of an ADF document that is not code is sbxview's. */
static void adf_walk(json_t *node, int *code_texts)
{
    if (json_is_array(node)) {
        size_t i;
        json_t *v;
        json_array_foreach(node, i, v) adf_walk(v, code_texts);
        return;
    }
    if (!json_is_object(node))
        return;
    const char *type = json_string_value(json_object_get(node, "type"));
    assert_non_null(type);
    if (strcmp(type, "codeBlock") == 0) {
        (*code_texts)++;
        return;
    }
    if (strcmp(type, "text") == 0) {
        const char *t = json_string_value(json_object_get(node, "text"));
        assert_non_null(t);
        assert_true(t[0] != '\0'); /* ADF refuses empty text nodes */
        json_t *marks = json_object_get(node, "marks");
        const char *mark = marks ? json_string_value(json_object_get(json_array_get(marks, 0), "type")) : NULL;
        if (mark && strcmp(mark, "code") == 0) {
            (*code_texts)++;
            return;
        }
        if (strpbrk(t, "@<>[]`\\") || strstr(t, "http") || strstr(t, "!"))
            fail_msg("log text outside code in ADF: %s", t);
        return;
    }
    const char *known[] = {"doc", "paragraph", "heading", "bulletList", "listItem", "hardBreak"};
    bool ok = false;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        ok |= strcmp(type, known[i]) == 0;
    if (!ok)
        fail_msg("unexpected node %s", type);
    json_t *content = json_object_get(node, "content");
    if (content)
        adf_walk(content, code_texts);
}

static void hostile_jira_adf(void **state)
{
    (void)state;
    struct run *r = hostile_run();
    struct sbx_buf out = SBX_BUF_INIT;
    struct sbx_body_info info;
    assert_true(build(r, SBX_BODY_JIRA_ADF, SBX_LIMIT_JIRA, true, &out, &info));
    assert_inert(out.p, out.len);
    assert_true(out.len <= SBX_LIMIT_JIRA);
    json_error_t e;
    json_t *doc = json_loadb(out.p, out.len, 0, &e);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "type")), "doc");
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), 1);
    int code_texts = 0;
    adf_walk(doc, &code_texts);
    assert_true(code_texts > 20);
    /* the secrets stay out of the decoded text too */
    char *dumped = json_dumps(doc, 0);
    assert_inert(dumped, strlen(dumped));
    free(dumped);
    json_decref(doc);
    assert_true(sbx_export_marker_found(out.p, out.len, r->marker));
    sbx_buf_free(&out);
    drop(r);
}

static void hostile_jira_text(void **state)
{
    (void)state;
    struct run *r = hostile_run();
    struct sbx_buf out = SBX_BUF_INIT;
    assert_true(build(r, SBX_BODY_JIRA_TEXT, SBX_LIMIT_JIRA, true, &out, NULL));
    assert_inert(out.p, out.len);
    /* one block: {noformat} twice, only on lines of their own, nothing after but the marker */
    size_t tags = 0;
    for (const char *p = out.p; (p = strcasestr(p, "{noformat")); p++)
        tags++;
    assert_int_equal(tags, 2);
    const char *open = strstr(out.p, "\n{noformat}\n"), *close = strstr(open + 1, "\n{noformat}\n");
    assert_non_null(open);
    assert_non_null(close);
    assert_true(strncmp(close + 12, "sbxview:", 8) == 0);
    assert_int_equal(strlen(close + 12), 8 + 64 + 1);
    assert_non_null(strstr(out.p, "{-noformat}")); /* the log's, neutralised */
    assert_true(sbx_export_marker_found(out.p, out.len, r->marker));
    sbx_buf_free(&out);
    drop(r);
}

static void hostile_slack(void **state)
{
    (void)state;
    struct run *r = hostile_run();
    struct sbx_buf out = SBX_BUF_INIT;
    struct sbx_body_info info;
    assert_true(build(r, SBX_BODY_SLACK, SBX_LIMIT_SLACK, true, &out, &info));
    assert_inert(out.p, out.len);
    json_error_t e;
    json_t *doc = json_loadb(out.p, out.len, 0, &e);
    assert_non_null(doc);
    const char *text = json_string_value(json_object_get(doc, "text"));
    assert_non_null(text);
    assert_true(json_is_true(json_object_get(doc, "mrkdwn")));
    assert_inert(text, strlen(text));
    assert_null(strpbrk(text, "<>")); /* no <!here>, <@U…> or <url|text> can form */
    /* the only backticks are the block's two fences */
    const char *first = strstr(text, "```"), *second = first ? strstr(first + 3, "```") : NULL;
    assert_non_null(second);
    size_t ticks = 0;
    for (const char *p = text; *p; p++)
        ticks += *p == '`';
    assert_int_equal(ticks, 6);
    assert_int_equal(info.chars, sbx_body_chars(text, strlen(text)));
    assert_true(sbx_export_marker_found(text, strlen(text), r->marker));
    json_decref(doc);
    sbx_buf_free(&out);
    drop(r);
}

/* A run long enough to need shortening: many failed commands and hosts. */
static struct run *big_run(int commands)
{
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < commands; i++) {
        char cmd[128], err[200];
        snprintf(cmd, sizeof cmd, "prog%03d --flag \xe6\xbc\xa2\xf0\x9f\x91\xa9 %d", i, i);
        snprintf(err, sizeof err, "curl: (6) Could not resolve host: h%03d.example\nline two\nline three\n", i);
        add_line(&b, i % 3600, cmd, 1, "", err, "s1");
    }
    struct run *r = load(b.p, b.len);
    sbx_buf_free(&b);
    return r;
}

static void limits_at_the_edge(void **state)
{
    (void)state;
    struct run *r = big_run(60);
    const enum sbx_body_kind kinds[] = {SBX_BODY_MARKDOWN, SBX_BODY_JIRA_ADF, SBX_BODY_JIRA_TEXT,
                                        SBX_BODY_SLACK};
    for (size_t k = 0; k < 4; k++) {
        struct sbx_buf full = SBX_BUF_INIT, out = SBX_BUF_INIT;
        struct sbx_body_info info, edge;
        assert_true(build(r, kinds[k], 0, true, &full, &info));
        assert_false(info.shortened);
        assert_int_equal(info.list_max, 10);
        /* exactly the body's length: it fits as it is */
        assert_true(build(r, kinds[k], info.chars, true, &out, &edge));
        assert_false(edge.shortened);
        assert_int_equal(out.len, full.len);
        assert_memory_equal(out.p, full.p, full.len);
        /* one less: shortened, whole lines, valid UTF-8, within the limit */
        sbx_buf_clear(&out);
        assert_true(build(r, kinds[k], info.chars - 1, true, &out, &edge));
        assert_true(edge.shortened);
        assert_true(edge.chars <= info.chars - 1);
        assert_true(valid_utf8(out.p, out.len));
        if (kinds[k] == SBX_BODY_MARKDOWN || kinds[k] == SBX_BODY_JIRA_TEXT)
            assert_int_equal(edge.chars, sbx_body_chars(out.p, out.len));
        assert_true(sbx_export_marker_found(out.p, out.len, r->marker));
        /* far less: down to counts only */
        sbx_buf_clear(&out);
        assert_true(build(r, kinds[k], info.chars / 3, true, &out, &edge));
        assert_true(edge.chars <= info.chars / 3);
        assert_true(edge.list_max < 10);
        if (kinds[k] == SBX_BODY_MARKDOWN)
            assert_non_null(strstr(out.p, "more"));
        /* too little for anything: refused, out untouched */
        sbx_buf_clear(&out);
        char err[256];
        struct sbx_body_opts o = {.kind = kinds[k], .limit = 200, .include_output = true};
        assert_false(sbx_export_body(&r->tl, &r->sum, &r->d, &o, &out, NULL, err, sizeof err));
        assert_int_equal(out.len, 0);
        assert_non_null(strstr(err, "limit is 200"));
        sbx_buf_free(&full);
        sbx_buf_free(&out);
    }
    drop(r);
}

static void github_limit_is_met(void **state)
{
    (void)state;
    struct run *r = big_run(3000);
    struct sbx_buf out = SBX_BUF_INIT;
    struct sbx_body_info info;
    assert_true(build(r, SBX_BODY_MARKDOWN, SBX_LIMIT_GITHUB, true, &out, &info));
    assert_true(sbx_body_chars(out.p, out.len) <= SBX_LIMIT_GITHUB);
    assert_true(valid_utf8(out.p, out.len));
    drop(r);
    sbx_buf_free(&out);
}

static void chars_are_utf16_units(void **state)
{
    (void)state;
    assert_int_equal(sbx_body_chars("abc", 3), 3);
    assert_int_equal(sbx_body_chars("\xe6\xbc\xa2", 3), 1);         /* U+6F22: one */
    assert_int_equal(sbx_body_chars("\xf0\x9f\x91\xa9", 4), 2);     /* U+1F469: a surrogate pair */
    assert_int_equal(sbx_body_chars("\xff\xfe", 2), 2);             /* invalid bytes: one each */
    assert_int_equal(sbx_body_chars("\xe6\xbc", 2), 2);             /* cut short */
}

static void fences(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_md_code(&b, "a```b", 5, false, NULL, NULL);
    assert_string_equal(b.p, "````a```b````");
    sbx_buf_clear(&b);
    sbx_md_code(&b, "`x`", 3, false, NULL, NULL);
    assert_string_equal(b.p, "`` `x` ``");
    sbx_buf_clear(&b);
    sbx_md_code(&b, "", 0, false, NULL, NULL);
    assert_string_equal(b.p, "` `");
    sbx_buf_clear(&b);
    sbx_md_code(&b, "a\nb", 3, false, NULL, NULL);
    assert_string_equal(b.p, "`a\xe2\x86\xb5" "b`");
    sbx_buf_clear(&b);
    sbx_md_block(&b, "x\n````\ny", 8, NULL, NULL);
    assert_string_equal(b.p, "`````\nx\n````\ny\n`````\n");
    sbx_buf_clear(&b);
    sbx_md_block(&b, "plain\n", 6, NULL, NULL);
    assert_string_equal(b.p, "```\nplain\n```\n");
    sbx_buf_clear(&b);
    sbx_md_block(&b, "", 0, NULL, NULL);
    assert_string_equal(b.p, "```\n```\n");
    assert_int_equal(sbx_md_backtick_run("a``b```c`", 9), 3);
    sbx_buf_free(&b);
}

/* An escape can eat a token's first bytes ("ESC SP g" is one sequence), so
 * the sanitised text shows "hp_…": the raw text is redacted too. */
static void escape_before_a_token(void **state)
{
    (void)state;
    char err[256];
    struct sbx_secrets *sec = sbx_secrets_new(err, sizeof err);
    assert_non_null(sec);
    struct sbx_secrets_scratch *sc = sbx_secrets_scratch_new(sec);
    const char *text = "e/x.png\x1b " GHP " \n";
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_md_block(&b, text, strlen(text), sec, sc);
    assert_null(strstr(b.p, "Zq8Lw3Rt6Yp1Ks4Nv7Bx2Cm5Hd9Fg0Jj3k"));
    sbx_buf_clear(&b);
    sbx_md_code(&b, text, strlen(text), false, sec, sc);
    assert_null(strstr(b.p, "Zq8Lw3Rt6Yp1Ks4Nv7Bx2Cm5Hd9Fg0Jj3k"));
    sbx_buf_free(&b);
    sbx_secrets_scratch_free(sc);
    sbx_secrets_free(sec);
}

static void sha256_hex(const char *s, size_t n, char out[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len;
    EVP_Digest(s, n, md, &len, EVP_sha256(), NULL);
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
}

/* The marker digest covers what the body says: the same body gives the
 * same marker (one comment however often it is exported), a body that says
 * more or other (its output, another reopen line, another kind) another one,
 * and never the bare run digest. */
static void marker_covers_the_body(void **state)
{
    (void)state;
    struct run *r = hostile_run();
    const enum sbx_body_kind kinds[] = {SBX_BODY_MARKDOWN, SBX_BODY_JIRA_ADF, SBX_BODY_JIRA_TEXT,
                                        SBX_BODY_SLACK};
    char seen[8][SBX_DIGEST_HEX];
    size_t nseen = 0;
    for (size_t k = 0; k < 4; k++)
        for (int output = 0; output <= 1; output++) {
            struct sbx_buf a = SBX_BUF_INIT, b = SBX_BUF_INIT;
            assert_true(build(r, kinds[k], 0, output, &a, NULL));
            char first[SBX_DIGEST_HEX];
            memcpy(first, r->marker, sizeof first);
            assert_true(build(r, kinds[k], 0, output, &b, NULL));
            assert_string_equal(first, r->marker); /* the same export: the same marker */
            assert_true(sbx_export_marker_found(a.p, a.len, first));
            assert_false(sbx_export_marker_found(a.p, a.len, r->d.run));
            assert_string_not_equal(first, r->d.run);
            /* the markdown says the same in every kind: one marker per body */
            if (k == 0) {
                for (size_t i = 0; i < nseen; i++)
                    assert_string_not_equal(seen[i], first);
                memcpy(seen[nseen++], first, sizeof first);
            } else {
                assert_string_equal(seen[output], first);
            }
            sbx_buf_free(&a);
            sbx_buf_free(&b);
        }
    /* the markdown said, with the run digest before it */
    char want[SBX_DIGEST_HEX], got[SBX_DIGEST_HEX];
    struct sbx_buf all = SBX_BUF_INIT;
    sbx_buf_addf(&all, "sbxview marker 1\n%s\nsaid", r->d.run);
    sha256_hex(all.p, all.len, want);
    sbx_export_marker_digest(r->d.run, "said", 4, got);
    assert_string_equal(got, want);
    sbx_export_marker_digest(r->d.run, "said!", 5, got);
    assert_string_not_equal(got, want);
    sbx_buf_free(&all);
    drop(r);
}

static void digests_and_marker(void **state)
{
    (void)state;
    const char *a = "{\"at\":\"2026-01-01T00:00:01Z\",\"kind\":\"command\",\"command\":\"ls\",\"exit\":0}\n";
    const char *b = "{\"at\":\"2026-01-01T00:00:02Z\",\"kind\":\"command\",\"command\":\"pwd\",\"exit\":0}\n";
    struct sbx_timeline t1, t2;
    const char *order1[2] = {a, b}, *order2[2] = {b, a};
    struct sbx_timeline *tls[2] = {&t1, &t2};
    const char **orders[2] = {order1, order2};
    struct sbx_export_digests d[2];
    for (int k = 0; k < 2; k++) {
        sbx_timeline_init(tls[k]);
        for (int i = 0; i < 2; i++)
            sbx_timeline_add_source(tls[k], i ? "two" : "one", sbx_xstrndup(orders[k][i], strlen(orders[k][i])),
                                    strlen(orders[k][i]), SBX_DATA_HEAP);
        sbx_export_digests(tls[k], &d[k]);
    }
    char want[65];
    sha256_hex(a, strlen(a), want);
    assert_string_equal(d[0].file[0], want);
    assert_string_equal(d[1].file[1], want);
    /* the run digest: the sorted digests, a line each */
    char pair[2 * 65 + 1], run[65];
    bool a_first = strcmp(d[0].file[0], d[0].file[1]) < 0;
    snprintf(pair, sizeof pair, "%s\n%s\n", d[0].file[a_first ? 0 : 1], d[0].file[a_first ? 1 : 0]);
    sha256_hex(pair, strlen(pair), run);
    assert_string_equal(d[0].run, run);
    assert_string_equal(d[1].run, run); /* whatever the order or names */

    char text[256];
    snprintf(text, sizeof text, "x\n<!-- sbxview:%s -->\n", run);
    assert_true(sbx_export_marker_found(text, strlen(text), run));
    snprintf(text, sizeof text, "{\"text\":\"sbxview:%s\"}", run);
    assert_true(sbx_export_marker_found(text, strlen(text), run));
    for (char *p = strstr(text, "sbxview:") + 8; *p; p++) /* a service may change the digest's case */
        if (*p >= 'a' && *p <= 'f')
            *p = (char)(*p - 'a' + 'A');
    assert_true(sbx_export_marker_found(text, strlen(text), run));
    snprintf(text, sizeof text, "sbxview:%s0", run); /* a longer digest is another */
    assert_false(sbx_export_marker_found(text, strlen(text), run));
    snprintf(text, sizeof text, "sbxview:%.63s", run); /* cut short */
    assert_false(sbx_export_marker_found(text, strlen(text), run));
    snprintf(text, sizeof text, "sbxview %s", run);
    assert_false(sbx_export_marker_found(text, strlen(text), run));
    assert_false(sbx_export_marker_found(text, strlen(text), "abc"));
    for (int k = 0; k < 2; k++) {
        sbx_export_digests_free(&d[k]);
        sbx_timeline_free(tls[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_markdown),   cmocka_unit_test(hostile_jira_adf),
        cmocka_unit_test(hostile_jira_text),  cmocka_unit_test(hostile_slack),
        cmocka_unit_test(limits_at_the_edge), cmocka_unit_test(github_limit_is_met),
        cmocka_unit_test(chars_are_utf16_units), cmocka_unit_test(fences),
        cmocka_unit_test(digests_and_marker), cmocka_unit_test(marker_covers_the_body), cmocka_unit_test(escape_before_a_token),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
