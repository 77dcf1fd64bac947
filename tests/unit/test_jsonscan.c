/* Unit tests for importers/json/jsonscan: the recorder line shape, the hostile
 * inputs that concern a line's JSON, numbers, unescaping, error texts, and
 * agreement with jansson on each case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "importers/json/jsonscan.h"
#include "importers/json/jsonload.h"
#include "analyses/hidden.h"
#include "base/jsonstr.h"
#include "base/simd.h"
#include "tests/unit/cases.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SAMPLE[] =
    "{\"at\": \"2026-11-29T08:38:48.291532+00:00\", \"sandbox\": \"b4d49ff8\", \"kind\": "
    "\"command\", \"command\": \"python3 csvsum.py prices.csv price\", \"cwd\": \"/workspace\", "
    "\"exit\": 1, \"timed_out\": false, \"ms\": 113, \"stdout\": \"\", \"stderr\": "
    "\"Traceback (most recent call last):\\n  File \\\"/workspace/csvsum.py\\\", line 8, in "
    "<module>\\n\\u001b[31m\\u00e9 \xc3\xa9 \xe2\x86\x92 \xe4\xb8\xad \xf0\x9f\x98\x80\\ud83d\\ude00\\n\", "
    "\"stdout_hash\": \"e3b0c44298fc1c14\"}";

/* jansson's verdict, with the tolerances of jsonload.h: what the scanner
 * must agree with. */
static bool jansson_accepts(const char *line, size_t len)
{
    json_error_t e;
    json_t *j = sbx_json_load(line, len, 0, NULL, &e);
    bool ok = j && json_is_object(j);
    json_decref(j);
    return ok;
}

static void assert_ascii_err(const struct sbx_jscan *s)
{
    size_t n = strnlen(s->err, sizeof s->err);
    assert_true(n > 0 && n < sizeof s->err);
    for (size_t i = 0; i < n; i++)
        assert_true(s->err[i] >= 0x20 && s->err[i] < 0x7F);
}

/* Scans a copy of exactly len bytes (no NUL after it, so ASan sees any
 * over-read), checks agreement with jansson, rescans the caller's line and
 * returns the verdict. */
static bool scan(struct sbx_jscan *s, const char *line, size_t len)
{
    char *copy = malloc(len ? len : 1);
    memcpy(copy, line, len);
    bool ok = sbx_jscan_line(s, copy, len);
    if (ok != jansson_accepts(copy, len)) {
        fprintf(stderr, "disagreement on: %.*s (%s)\n", (int)(len > 200 ? 200 : len), line,
                ok ? "accepted" : s->err);
        fail();
    }
    free(copy);
    /* again on the caller's bytes, so the spans outlive this helper */
    assert_true(sbx_jscan_line(s, line, len) == ok);
    if (!ok)
        assert_ascii_err(s);
    /* the scanner's word on hidden text is the hidden-text scan's */
    for (size_t i = 0; ok && i < s->n; i++)
        if (s->m[i].type == SBX_JSTRING &&
            s->m[i].val_hides != sbx_text_hides(s->m[i].val, s->m[i].val_len, true)) {
            fprintf(stderr, "val_hides %d on: %.*s\n", s->m[i].val_hides,
                    (int)(s->m[i].val_len > 200 ? 200 : s->m[i].val_len), s->m[i].val);
            fail();
        }
    return ok;
}

static bool scans(struct sbx_jscan *s, const char *line)
{
    return scan(s, line, strlen(line));
}

/* Rejects line and expects the reason to contain `why` with the given code. */
static void rejects(const char *line, size_t len, enum sbx_jerr code, const char *why)
{
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_false(scan(&s, line, len));
    if (!strstr(s.err, why))
        fprintf(stderr, "expected \"%s\", got \"%s\"\n", why, s.err);
    assert_non_null(strstr(s.err, why));
    assert_int_equal(s.err_code, code);
    assert_int_equal(s.n, 0);
    sbx_jscan_free(&s);
}

#define REJECTS(lit, code, why) rejects(lit, sizeof lit - 1, code, why)

static char *unescaped(const struct sbx_jmember *m)
{
    char *u = malloc(m->val_len + 1);
    u[sbx_jstr_decode(m->val, m->val_len, u)] = '\0';
    return u;
}

static void test_sample_line(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_true(scans(&s, SAMPLE));
    assert_int_equal(s.n, 11);
    static const char *const keys[] = {"at", "sandbox", "kind", "command", "cwd", "exit",
                                       "timed_out", "ms", "stdout", "stderr", "stdout_hash"};
    for (size_t i = 0; i < 11; i++) {
        assert_int_equal(s.m[i].key_len, strlen(keys[i]));
        assert_memory_equal(s.m[i].key, keys[i], s.m[i].key_len);
        assert_ptr_equal(sbx_jscan_get(&s, keys[i]), &s.m[i]);
    }
    assert_null(sbx_jscan_get(&s, "timedOut"));
    assert_null(sbx_jscan_get(&s, ""));

    const struct sbx_jmember *m = sbx_jscan_get(&s, "exit");
    assert_int_equal(m->type, SBX_JINT);
    assert_int_equal(m->i, 1);
    assert_int_equal(m->val_len, 1);
    m = sbx_jscan_get(&s, "ms");
    assert_int_equal(m->i, 113);
    assert_int_equal(sbx_jscan_get(&s, "timed_out")->type, SBX_JFALSE);
    m = sbx_jscan_get(&s, "at");
    assert_int_equal(m->type, SBX_JSTRING);
    assert_false(m->val_escaped);
    assert_int_equal(m->val_len, strlen("2026-11-29T08:38:48.291532+00:00"));
    assert_memory_equal(m->val, "2026-11-29T08:38:48.291532+00:00", m->val_len);
    m = sbx_jscan_get(&s, "stdout");
    assert_int_equal(m->type, SBX_JSTRING);
    assert_int_equal(m->val_len, 0);

    /* the stderr value decodes exactly as jansson decodes it */
    m = sbx_jscan_get(&s, "stderr");
    assert_true(m->val_escaped);
    json_t *j = json_loadb(SAMPLE, strlen(SAMPLE), JSON_REJECT_DUPLICATES, NULL);
    assert_non_null(j);
    json_t *js = json_object_get(j, "stderr");
    char *u = unescaped(m);
    assert_int_equal(strlen(u), json_string_length(js));
    assert_string_equal(u, json_string_value(js));
    assert_non_null(strstr(u, "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\n"));
    assert_non_null(strstr(u, "\x1b[31m\xc3\xa9 "));
    free(u);
    json_decref(j);

    /* the scanner is reusable: a second line replaces the first */
    assert_true(scans(&s, "{\"a\": null}"));
    assert_int_equal(s.n, 1);
    assert_int_equal(s.m[0].type, SBX_JNULL);
    assert_null(sbx_jscan_get(&s, "exit"));
    sbx_jscan_free(&s);
}

static void test_every_prefix_agrees(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    size_t len = strlen(SAMPLE);
    for (size_t n = 0; n < len; n++) {
        assert_false(scan(&s, SAMPLE, n));
        /* a cut line is reported as cut, so a follower can wait for the rest */
        if (n > 0)
            assert_int_equal(s.err_code, SBX_JERR_TRUNCATED);
    }
    assert_true(scan(&s, SAMPLE, len));
    sbx_jscan_free(&s);
}

static void test_crlf_and_whitespace(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_true(scans(&s, "{\"a\": 1}\r"));
    assert_true(scans(&s, " \t{ \"a\" :\n1 ,\"b\":\"x\" } \r\n "));
    assert_int_equal(s.n, 2);
    assert_true(scans(&s, "{}"));
    assert_int_equal(s.n, 0);
    assert_false(scans(&s, "{}\f"));
    assert_false(scans(&s, "{} x"));
    sbx_jscan_free(&s);
    REJECTS("", SBX_JERR_EMPTY, "empty line");
    REJECTS(" \t\r", SBX_JERR_EMPTY, "empty line");
    REJECTS("[1, 2]", SBX_JERR_NOT_OBJECT, "not a JSON object");
    REJECTS("\"x\"", SBX_JERR_NOT_OBJECT, "not a JSON object");
    REJECTS("\xEF\xBB\xBF{}", SBX_JERR_SYNTAX, "byte order mark");
    REJECTS("{\"a\":1,}", SBX_JERR_SYNTAX, "expected a string key");
    REJECTS("{\"a\" 1}", SBX_JERR_SYNTAX, "expected ':'");
    REJECTS("{\"a\":1 \"b\":2}", SBX_JERR_SYNTAX, "expected ',' or '}'");
    REJECTS("{\"a\":1}}", SBX_JERR_SYNTAX, "trailing data");
    REJECTS("{\"a\":tru}", SBX_JERR_SYNTAX, "invalid literal");
    REJECTS("{\"a\":tru", SBX_JERR_TRUNCATED, "unexpected end");
    REJECTS("{\"a\":'x'}", SBX_JERR_SYNTAX, "expected a value");
}

static void test_control_and_escapes(void **state)
{
    (void)state;
    REJECTS("{\"stdout\": \"\x1b[2J All tests passed\"}", SBX_JERR_SYNTAX,
            "control character 0x1b in a string");
    REJECTS("{\"a\": \"x\ty\"}", SBX_JERR_SYNTAX, "control character 0x09");
    REJECTS("{\"a\": \"x\x7f\"}x", SBX_JERR_SYNTAX, "trailing data"); /* DEL is fine in JSON */
    REJECTS("{\"a\": \"\\udcff\"}", SBX_JERR_SYNTAX, "unpaired UTF-16 surrogate");
    REJECTS("{\"a\": \"\\ud800\"}", SBX_JERR_SYNTAX, "unpaired UTF-16 surrogate");
    REJECTS("{\"a\": \"\\ud800\\u0041\"}", SBX_JERR_SYNTAX, "unpaired UTF-16 surrogate");
    REJECTS("{\"a\": \"\\ud800\\n\"}", SBX_JERR_SYNTAX, "unpaired UTF-16 surrogate");
    REJECTS("{\"\\u0000\": 1}", SBX_JERR_SYNTAX, "\\u0000 in a key");
    REJECTS("{\"a\": 1, \"x\\u0000y\": 1}", SBX_JERR_SYNTAX, "\\u0000 in a key");
    REJECTS("{\"a\": {\"\\u0000\": 1}}", SBX_JERR_SYNTAX, "\\u0000 in a nested key");
    REJECTS("{\"a\": \"\\x41\"}", SBX_JERR_SYNTAX, "invalid escape");
    REJECTS("{\"a\": \"\\u12G4\"}", SBX_JERR_SYNTAX, "invalid \\u escape");
    REJECTS("{\"a\": \"\\u12", SBX_JERR_TRUNCATED, "unexpected end");
    REJECTS("{\"a\": \"\\ud83d", SBX_JERR_TRUNCATED, "unexpected end");
    REJECTS("{\"a\": \"\\", SBX_JERR_TRUNCATED, "unexpected end");
    REJECTS("{\"a\": \"a\nb\"}", SBX_JERR_SYNTAX, "control character 0x0a");

    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_true(scans(&s, "{\"a\": \"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00\"}"));
    char *u = unescaped(&s.m[0]);
    assert_string_equal(u, "\" \\ / \b \f \n \r \t \xc3\xa9 \xf0\x9f\x98\x80");
    free(u);
    sbx_jscan_free(&s);
}

static void test_nan_infinity(void **state)
{
    (void)state;
    REJECTS("{\"a\": NaN}", SBX_JERR_SYNTAX, "NaN is not JSON");
    REJECTS("{\"a\": Infinity}", SBX_JERR_SYNTAX, "Infinity is not JSON");
    REJECTS("{\"a\": -Infinity}", SBX_JERR_SYNTAX, "Infinity is not JSON");
    REJECTS("{\"a\": [NaN]}", SBX_JERR_SYNTAX, "nested value");
}

/* A key given twice: one member, the last value, where the last one
 * stands; counted in dups, as jansson (without JSON_REJECT_DUPLICATES)
 * keeps the last value. */
static void expect_last(const char *line, const char *key, int64_t want, size_t n, size_t dups)
{
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_true(scans(&s, line));
    assert_int_equal(s.n, n);
    assert_int_equal(s.dups, dups);
    const struct sbx_jmember *m = sbx_jscan_get(&s, key);
    assert_non_null(m);
    assert_int_equal(m->i, want);
    json_t *j = sbx_json_load(line, strlen(line), 0, NULL, NULL);
    assert_int_equal(json_integer_value(json_object_get(j, key)), want);
    assert_int_equal(json_object_size(j), n);
    json_decref(j);
    for (size_t i = 0; i < s.n; i++)
        for (size_t k = i + 1; k < s.n; k++)
            assert_false(s.m[i].ukey_len == s.m[k].ukey_len &&
                         memcmp(s.m[i].ukey, s.m[k].ukey, s.m[i].ukey_len) == 0);
    sbx_jscan_free(&s);
}

static void test_duplicate_keys(void **state)
{
    (void)state;
    expect_last("{\"exit\":1,\"exit\":0}", "exit", 0, 1, 1);
    expect_last("{\"exit\":0,\"exit\":1}", "exit", 1, 1, 1);
    expect_last("{\"e\\u0078it\":1,\"a\":5,\"exit\":7}", "exit", 7, 2, 1);
    expect_last("{\"exit\":1,\"\\u0065xit\":9}", "exit", 9, 1, 1);
    expect_last("{\"\\u001b\":1,\"\\u001b\":3}", "\x1b", 3, 1, 1);
    expect_last("{\"\":1,\"\":4}", "", 4, 1, 1);
    expect_last("{\"x\":1,\"x\":2,\"x\":3,\"y\":0}", "x", 3, 2, 2);
    expect_last("{\"a\":0}", "a", 0, 1, 0);

    struct sbx_jscan s;
    sbx_jscan_init(&s);
    /* the last one stands where it is */
    assert_true(scans(&s, "{\"exit\":1,\"ms\":2,\"exit\":3}"));
    assert_int_equal(s.m[0].ukey_len, 2);
    assert_int_equal(s.m[1].i, 3);
    /* nested: the line is kept and counted once */
    assert_true(scans(&s, "{\"a\":{\"x\":1,\"x\":2},\"b\":[{\"y\":1,\"y\":1}]}"));
    assert_int_equal(s.n, 2);
    assert_int_equal(s.dups, 1);
    /* the next line starts again */
    assert_true(scans(&s, "{\"a\":{\"x\":1}}"));
    assert_int_equal(s.dups, 0);
    /* the stream scan agrees */
    const char two[] = "{\"k\":1,\"k\":2}\n{\"k\":3}\n";
    size_t len = 0;
    assert_true(sbx_jscan_stream(&s, two, two + sizeof two - 1, &len));
    assert_int_equal(len, 13);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.dups, 1);
    assert_int_equal(s.m[0].i, 2);
    /* an escaped key is looked up by its unescaped form */
    assert_true(scans(&s, "{\"e\\u0078it\":1, \"\\u00e9t\\u00e9\": 2}"));
    assert_ptr_equal(sbx_jscan_get(&s, "exit"), &s.m[0]);
    assert_ptr_equal(sbx_jscan_get(&s, "\xc3\xa9t\xc3\xa9"), &s.m[1]);
    assert_int_equal(s.m[0].ukey_len, 4);
    assert_true(s.m[0].key_escaped);
    sbx_jscan_free(&s);
}

/* Objects big enough for the sorted duplicate check and lookup. */
static void test_many_keys(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    for (int dup = -1; dup < 500; dup += 37) {
        char *line = malloc(20 * 600);
        size_t n = 0;
        n += (size_t)sprintf(line + n, "{");
        for (int i = 0; i < 500; i++) {
            /* every 7th key escaped, so both spellings are compared */
            if (i % 7 == 0)
                n += (size_t)sprintf(line + n, "%s\"\\u006b%d\": %d", i ? "," : "", i, i);
            else
                n += (size_t)sprintf(line + n, "%s\"k%d\": %d", i ? "," : "", i, i);
        }
        if (dup >= 0)
            n += (size_t)sprintf(line + n, ",\"k%d\": 0", dup);
        n += (size_t)sprintf(line + n, "}");
        bool ok = scan(&s, line, n);
        if (dup < 0) {
            assert_true(ok);
            assert_int_equal(s.n, 500);
            for (int i = 0; i < 500; i++) {
                char k[16];
                sprintf(k, "k%d", i);
                const struct sbx_jmember *m = sbx_jscan_get(&s, k);
                assert_non_null(m);
                assert_int_equal(m->i, i);
            }
            assert_null(sbx_jscan_get(&s, "k500"));
            assert_null(sbx_jscan_get(&s, "k"));
        } else {
            /* the duplicate's last value stands, and lookups still work */
            assert_true(ok);
            assert_int_equal(s.n, 500);
            assert_int_equal(s.dups, 1);
            char k[16];
            sprintf(k, "k%d", dup);
            assert_int_equal(sbx_jscan_get(&s, k)->i, 0);
            sprintf(k, "k%d", dup == 0 ? 1 : dup - 1);
            assert_int_equal(sbx_jscan_get(&s, k)->i, dup == 0 ? 1 : dup - 1);
        }
        free(line);
    }
    /* several keys given several times: each keeps its last value */
    const char *two = "{\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1,\"f\":1,\"g\":1,\"h\":1,\"i\":1,"
                      "\"j\":1,\"k\":1,\"l\":1,\"m\":1,\"n\":1,\"o\":1,\"p\":1,\"q\":1,"
                      "\"z\":1,\"b\":2,\"z\":2,\"b\":3}";
    assert_true(scans(&s, two));
    assert_int_equal(s.n, 18);
    assert_int_equal(s.dups, 3);
    assert_int_equal(sbx_jscan_get(&s, "b")->i, 3);
    assert_int_equal(sbx_jscan_get(&s, "z")->i, 2);
    assert_int_equal(sbx_jscan_get(&s, "a")->i, 1);
    sbx_jscan_free(&s);
}

static char *deep(size_t depth, bool close)
{
    /* {"a": + (depth-1) x '[' + (close ? matching ']' + '}' : nothing) */
    size_t open = depth - 1;
    char *p = malloc(open * 2 + 16);
    size_t n = 0;
    memcpy(p, "{\"a\":", 5);
    n = 5;
    memset(p + n, '[', open);
    n += open;
    if (close) {
        memset(p + n, ']', open);
        n += open;
        p[n++] = '}';
    }
    p[n] = '\0';
    return p;
}

static void test_nesting(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    char *ok = deep(2048, true);
    assert_true(scans(&s, ok));
    assert_int_equal(s.m[0].type, SBX_JARRAY);
    assert_int_equal(s.m[0].val_len, 2 * 2047);
    free(ok);
    char *bad = deep(2049, true);
    assert_false(scans(&s, bad));
    assert_int_equal(s.err_code, SBX_JERR_DEPTH);
    free(bad);
    char *open = deep(100001, false);
    assert_false(scans(&s, open));
    assert_int_equal(s.err_code, SBX_JERR_DEPTH);
    free(open);
    char *closed = deep(100001, true);
    assert_false(scans(&s, closed));
    assert_int_equal(s.err_code, SBX_JERR_DEPTH);
    free(closed);
    /* 100,000 '[' as the whole line */
    char *arr = malloc(100000);
    memset(arr, '[', 100000);
    assert_false(scan(&s, arr, 100000));
    assert_int_equal(s.err_code, SBX_JERR_NOT_OBJECT);
    free(arr);

    assert_true(scans(&s, "{\"added\": [\"./a.py\", \"./b ]}\"], \"o\": {\"k\": [1, {\"x\": null}]}, "
                          "\"n\": 1}"));
    assert_int_equal(s.n, 3);
    assert_int_equal(s.m[0].type, SBX_JARRAY);
    assert_int_equal(s.m[0].val_len, strlen("[\"./a.py\", \"./b ]}\"]"));
    assert_int_equal(s.m[1].type, SBX_JOBJECT);
    assert_memory_equal(s.m[1].val, "{\"k\": [1, {\"x\": null}]}", s.m[1].val_len);
    assert_int_equal(s.m[2].i, 1);
    assert_false(scans(&s, "{\"a\": [1, 2}"));
    assert_false(scans(&s, "{\"a\": [1 2]}"));
    assert_false(scans(&s, "{\"a\": {\"b\" 1}}"));
    assert_false(scans(&s, "{\"a\": [\"\\udcff\"]}"));
    sbx_jscan_free(&s);
}

/* Arrays of strings only (an argv) are read without jansson: the same
 * verdicts, the same reasons, in a stream too. */
static void test_string_arrays(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    static const char *const good[] = {
        "{\"argv\": [\"curl\", \"-fsS\", \"https://x\"], \"n\": 1}",
        "{\"argv\":[]}", "{\"argv\":[ ]}", "{\"argv\":[\"\"]}",
        "{\"a\":[\"\\u00e9\\ud83d\\ude80\\\"]\"],\"b\":[\"x\"]}",
        "{\"a\": [ \"x\" ,\t\"y\" ] }", "{\"a\": [\"x\", 1]}", "{\"a\": [\"x\", [\"y\"]]}",
        "{\"a\":[\"caf\xc3\xa9\"]}",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (!scans(&s, good[i]))
            fail_msg("rejected: %s (%s)", good[i], s.err);
    assert_true(scans(&s, "{\"argv\": [\"a\", \"b c\"], \"n\": 1}"));
    assert_int_equal(s.n, 2);
    assert_int_equal(s.m[0].type, SBX_JARRAY);
    assert_memory_equal(s.m[0].val, "[\"a\", \"b c\"]", s.m[0].val_len);
    assert_int_equal(s.m[1].i, 1);
    static const char *const bad[] = {
        "{\"a\":[\"x\",]}", "{\"a\":[,\"x\"]}", "{\"a\":[\"x\" \"y\"]}", "{\"a\":[\"x\"}",
        "{\"a\":[\"x\\q\"]}", "{\"a\":[\"\\ud800\"]}",
        "{\"a\":[\"\x01\"]}", "{\"a\":[\"\xff\"]}", "{\"a\":[\"x\"", "{\"a\":[\"x", "{\"a\":[\"x\",1,]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (scans(&s, bad[i]))
            fail_msg("accepted: %s", bad[i]);
    REJECTS("{\"a\":[\"\xff\"]}", SBX_JERR_UTF8, "UTF-8");
    /* in a stream, a newline inside the array ends the line too soon */
    const char two[] = "{\"a\":[\"x\",\n\"y\"]}\n{\"a\":[\"z\"]}\n";
    size_t len = 0;
    assert_false(sbx_jscan_stream(&s, two, two + sizeof two - 1, &len));
    const char one[] = "{\"a\":[\"x\", \"y\"]}\n{\"b\":1}\n";
    assert_true(sbx_jscan_stream(&s, one, one + sizeof one - 1, &len));
    assert_int_equal(len, strlen("{\"a\":[\"x\", \"y\"]}"));
    sbx_jscan_free(&s);
}

static void test_numbers(void **state)
{
    (void)state;
    REJECTS("{\"exit\": 1e400}", SBX_JERR_RANGE, "number out of range");
    REJECTS("{\"exit\": -1e400}", SBX_JERR_RANGE, "number out of range");
    REJECTS("{\"exit\": 01}", SBX_JERR_SYNTAX, "invalid number");
    REJECTS("{\"exit\": 1.}", SBX_JERR_SYNTAX, "invalid number");
    REJECTS("{\"exit\": .5}", SBX_JERR_SYNTAX, "expected a value");
    REJECTS("{\"exit\": 1e}", SBX_JERR_SYNTAX, "invalid number");
    REJECTS("{\"exit\": +1}", SBX_JERR_SYNTAX, "expected a value");
    REJECTS("{\"exit\": 1.5.2}", SBX_JERR_SYNTAX, "invalid number");
    REJECTS("{\"exit\": 12", SBX_JERR_TRUNCATED, "unexpected end");

    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_true(scans(&s, "{\"a\": 9223372036854775807, \"b\": -9223372036854775808, \"c\": -0, "
                          "\"d\": 1e308, \"e\": 1e-400, \"f\": -0.0, \"g\": 0, \"h\": 1E+2}"));
    assert_int_equal(s.m[0].type, SBX_JINT);
    assert_true(s.m[0].i == INT64_MAX);
    assert_true(s.m[1].i == INT64_MIN);
    assert_int_equal(s.m[2].type, SBX_JINT);
    assert_int_equal(s.m[2].i, 0);
    assert_int_equal(s.m[3].type, SBX_JREAL);
    assert_true(s.m[3].d == strtod("1e308", NULL));
    assert_int_equal(s.m[4].type, SBX_JREAL);
    assert_true(s.m[4].d == 0.0);
    assert_true(signbit(s.m[5].d));
    assert_int_equal(s.m[6].i, 0);
    assert_int_equal(s.m[7].type, SBX_JREAL);
    assert_true(s.m[7].d == 100.0);
    assert_memory_equal(s.m[7].val, "1E+2", 4);
    sbx_jscan_free(&s);
}

/* Reals agree bit for bit with glibc's strtod, which jansson uses. */
/* \u0000 in a string value is JSON (RFC 8259; Python's json.dumps writes
 * it for a NUL byte): the line is kept and the value decodes to a NUL, in
 * every place a value can be, on every scanning path (short and long
 * strings go through different code). */
static void test_nul_in_values(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    static const char *const at[] = {"\\u0000", "a\\u0000", "\\u0000b", "x\\u0000\\u0000y"};
    for (size_t k = 0; k < 4; k++) {
        for (size_t pad = 0; pad < 200; pad += 13) {
            char line[600];
            snprintf(line, sizeof line, "{\"kind\":\"command\",\"stdout\":\"%.*s%s\",\"exit\":0}",
                     (int)pad, "0123456789012345678901234567890123456789012345678901234567890123456789"
                               "0123456789012345678901234567890123456789012345678901234567890123456789"
                               "0123456789012345678901234567890123456789012345678901234567890123456789",
                     at[k]);
            assert_true(scans(&s, line));
            assert_int_equal(s.n, 3);
            const struct sbx_jmember *m = sbx_jscan_get(&s, "stdout");
            assert_int_equal(m->type, SBX_JSTRING);
            assert_true(m->val_unusual && m->val_escaped);
            char *u = unescaped(m);
            size_t n = sbx_jstr_decode(m->val, m->val_len, u);
            assert_non_null(memchr(u, '\0', n));
            free(u);
        }
    }
    /* in an array of strings and in a nested object's value */
    assert_true(scans(&s, "{\"argv\":[\"printf\",\"\\u0000\"],\"o\":{\"k\":\"\\u0000\"}}"));
    assert_int_equal(s.n, 2);
    unsigned char esc = 0;
    const char body[] = "ab\\u0000\"";
    assert_non_null(sbx_jscan_string(&s, body, body, body + sizeof body - 1, &esc));
    assert_true(esc & SBX_JSTR_NUL);
    esc = 0;
    const char other[] = "ab\\u0001\\\\u0000\"";
    assert_non_null(sbx_jscan_string(&s, other, other, other + sizeof other - 1, &esc));
    assert_false(esc & SBX_JSTR_NUL);
    sbx_jscan_free(&s);
}

/* An integer beyond int64 is kept as its text (SBX_JBIGINT), on both sides
 * of the range, in any place; reals that overflow stay errors. */
static void test_big_integers(void **state)
{
    (void)state;
    static const char *const big[] = {"9223372036854775808", "-9223372036854775809",
                                      "123456789012345678901234567890", "-99999999999999999999",
                                      "18446744073709551616"};
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    for (size_t k = 0; k < 5; k++) {
        char line[200];
        snprintf(line, sizeof line, "{\"exit\": 1, \"pid\": %s, \"ms\": 2}", big[k]);
        assert_true(scans(&s, line));
        const struct sbx_jmember *m = sbx_jscan_get(&s, "pid");
        assert_int_equal(m->type, SBX_JBIGINT);
        assert_int_equal(m->val_len, strlen(big[k]));
        assert_memory_equal(m->val, big[k], m->val_len);
        assert_int_equal(sbx_jscan_get(&s, "ms")->i, 2);
        /* jansson's reading keeps it as a string of its text */
        json_t *j = sbx_json_load(line, strlen(line), 0, NULL, NULL);
        assert_string_equal(json_string_value(json_object_get(j, "pid")), big[k]);
        json_decref(j);
        /* nested */
        snprintf(line, sizeof line, "{\"a\": [1, %s, {\"b\": %s}], \"c\": \"%s\"}", big[k], big[k],
                 big[k]);
        assert_true(scans(&s, line));
        assert_int_equal(s.n, 2);
    }
    /* the largest integers are still integers */
    assert_true(scans(&s, "{\"a\": 9223372036854775807, \"b\": -9223372036854775808}"));
    assert_int_equal(s.m[0].type, SBX_JINT);
    assert_int_equal(s.m[1].type, SBX_JINT);
    REJECTS("{\"exit\": 123456789012345678901234567890", SBX_JERR_TRUNCATED, "unexpected end");
    REJECTS("{\"a\": [1e400]}", SBX_JERR_RANGE, "number out of range");
    /* a big integer where a key belongs is no key, kept as text or not */
    REJECTS("{\"exit\": 1, 99999999999999999999: 0}", SBX_JERR_SYNTAX, "expected a string key");
    REJECTS("{\"a\": {99999999999999999999: 0}}", SBX_JERR_RANGE, "nested value");
    assert_true(scans(&s, "{\"a\": [99999999999999999999, {\"b\": [-99999999999999999999]}]}"));
    sbx_jscan_free(&s);
}

/* sbx_json_load's error positions count in the caller's text even after
 * it rewrote integers. */
static void test_load_positions(void **state)
{
    (void)state;
    json_error_t e;
    const char line[] = "{\"a\": 123456789012345678901234567890, \"b\": x}";
    assert_null(sbx_json_load(line, sizeof line - 1, 0, NULL, &e));
    assert_int_equal(e.position, (int)(strchr(line, 'x') - line) + 1);
    unsigned facts = 7;
    json_t *j = sbx_json_load("{\"a\":1,\"a\":99999999999999999999}", 32, 0, &facts, &e);
    assert_non_null(j);
    assert_int_equal(facts, SBX_JLOAD_DUPLICATE | SBX_JLOAD_BIGINT);
    json_decref(j);
    j = sbx_json_load("{\"a\":1}", 7, 0, &facts, &e);
    assert_int_equal(facts, 0);
    json_decref(j);
    assert_null(sbx_json_load("{\"a\":1e400}", 11, 0, &facts, &e));
    assert_int_equal(json_error_code(&e), json_error_numeric_overflow);
}

static void test_reals_match_strtod(void **state)
{
    (void)state;
    static const char *const reals[] = {
        "0.1", "3.14159", "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
        "1.7976931348623158e308", "9007199254740993", "9007199254740993.0",
        "123456789012345678901234567890e-10", "0.000000000000000000000000000001e30",
        "1e22", "1e23", "8.98846567431158e307", "-5e-1", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124", "0e99999999999999999999",
        "1e-99999999999999999999"};
    for (size_t k = 0; k < sizeof reals / sizeof *reals; k++) {
        enum sbx_jtype t;
        int64_t i;
        double d;
        assert_null(sbx_json_number(reals[k], strlen(reals[k]), &t, &i, &d));
        if (strchr(reals[k], '.') || strchr(reals[k], 'e'))
            assert_int_equal(t, SBX_JREAL);
        else
            assert_int_equal(t, SBX_JINT);
        if (t == SBX_JREAL) {
            double want = strtod(reals[k], NULL);
            assert_memory_equal(&d, &want, sizeof d);
        }
    }
    /* a 3000-digit mantissa just above a halfway point: the sticky digit counts */
    char *big = malloc(4000);
    strcpy(big, "1.00000000000000011102230246251565404236316680908203125");
    size_t n = strlen(big);
    memset(big + n, '0', 2900);
    strcpy(big + n + 2900, "1");
    enum sbx_jtype t;
    int64_t i;
    double d;
    assert_null(sbx_json_number(big, strlen(big), &t, &i, &d));
    double want = strtod(big, NULL);
    assert_memory_equal(&d, &want, sizeof d);
    big[n + 2900] = '0';
    assert_null(sbx_json_number(big, strlen(big), &t, &i, &d));
    want = strtod(big, NULL);
    assert_memory_equal(&d, &want, sizeof d);
    free(big);
}

static void test_utf8(void **state)
{
    (void)state;
    REJECTS("{\"a\": \"\xff\"}", SBX_JERR_UTF8, "invalid UTF-8");
    REJECTS("{\"a\": \"\xc0\xaf\"}", SBX_JERR_UTF8, "invalid UTF-8");
    REJECTS("{\"a\": \"\xed\xa0\x80\"}", SBX_JERR_UTF8, "invalid UTF-8");
    REJECTS("{\"a\": \"\xf4\x90\x80\x80\"}", SBX_JERR_UTF8, "invalid UTF-8");
    REJECTS("{\"a\": \"\xe0\x9f\xbf\"}", SBX_JERR_UTF8, "invalid UTF-8");
    REJECTS("{\"a\": \"\x80\"}", SBX_JERR_UTF8, "invalid UTF-8");
    REJECTS("{\"a\": \"\xe2\x86\"}", SBX_JERR_UTF8, "invalid UTF-8");
    REJECTS("{\"a\": \"ok\xe2\x86", SBX_JERR_TRUNCATED, "cut by the end");
    REJECTS("{\"a\": \"ok\xf0\x9f\x98", SBX_JERR_TRUNCATED, "cut by the end");
    REJECTS("{\"a\": \"ok\xf0\x9f\x98\x80", SBX_JERR_TRUNCATED, "unexpected end");

    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_true(scans(&s, "{\"\xc3\xa9\": \"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80"
                          "\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"}"));
    assert_ptr_equal(sbx_jscan_get(&s, "\xc3\xa9"), &s.m[0]);
    /* long mixed runs cross the vector blocks in every alignment */
    char line[600];
    for (size_t shift = 0; shift < 40; shift++) {
        size_t n = 0;
        n += (size_t)sprintf(line, "{\"%.*s\": \"", (int)shift, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
        for (int r = 0; r < 20; r++)
            n += (size_t)sprintf(line + n, "ab\xe4\xb8\xad\\n\\\"x\xf0\x9f\x98\x80");
        n += (size_t)sprintf(line + n, "\"}");
        assert_true(scan(&s, line, n));
        line[n - 5] = '\x01';
        assert_false(scan(&s, line, n));
    }
    sbx_jscan_free(&s);
}

/* jansson's lexer loses one NUL put back after a number or a literal. */
static void test_nul_after_token(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_true(scan(&s, "{\"a\":1\0}", 8));
    assert_true(scan(&s, "{\"a\":true\0 }", 12));
    assert_false(scan(&s, "{\"a\":1\0\0}", 9));
    assert_false(scan(&s, "{\"a\":\"x\"\0}", 10));
    assert_false(scan(&s, "{\"a\":1}\0", 8));
    assert_false(scan(&s, "{\"a\":\"x\0\"}", 10));
    sbx_jscan_free(&s);
}

static void test_unescape(void **state)
{
    (void)state;
    char out[64];
    const char *in = "\\ud83d\\ude00\\uDBFF\\uDFFF\\u00e9\\u20ac\\u0041x\\/";
    size_t n = sbx_jstr_decode(in, strlen(in), out);
    assert_int_equal(n, 4 + 4 + 2 + 3 + 1 + 1 + 1);
    assert_memory_equal(out, "\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xc3\xa9\xe2\x82\xac" "Ax/", n);
    /* unvalidated input: never more bytes out than in */
    static const char *const odd[] = {"\\", "\\u12", "\\ud800", "\\q", "\\ud800\\u0041", "ab\\"};
    for (size_t k = 0; k < sizeof odd / sizeof *odd; k++)
        assert_true(sbx_jstr_decode(odd[k], strlen(odd[k]), out) <= strlen(odd[k]));
}

/* Integer tokens of every length around int64's 18/19 digits, signs,
 * leading zeros and the forms that only start like an integer, before
 * each byte that can end a value: the scanner reads each as
 * sbx_json_number does (a token it refuses is refused or kept as text). */
static void test_integers_as_number_reads(void **state)
{
    (void)state;
    static const char *const fixed[] = {
        "0", "-0", "00", "-00", "01", "-01", "1.5", "1e2", "1E+2", "-1.0e-3", "12-3", "1+",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "99999999999999999999",
    };
    static const char *const ends[] = {",", "}", " ,", "\t}", "]"};
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    char tok[32], line[96];
    size_t nfixed = sizeof fixed / sizeof *fixed;
    for (size_t k = 0; k < nfixed + 2 * 21; k++) {
        if (k < nfixed) {
            snprintf(tok, sizeof tok, "%s", fixed[k]);
        } else { /* 1 to 21 digits: 1, 19, 199, ... and the same negative */
            size_t digits = (k - nfixed) / 2 + 1, neg = (k - nfixed) % 2, n = 0;
            if (neg)
                tok[n++] = '-';
            tok[n++] = '1';
            for (size_t d = 1; d < digits; d++)
                tok[n++] = (char)('0' + (9 - d % 3)); /* 9, 8, 7, ... */
            tok[n] = '\0';
        }
        for (size_t e = 0; e < sizeof ends / sizeof *ends; e++) {
            bool array = ends[e][0] == ']';
            int n = snprintf(line, sizeof line, array ? "{\"a\": [%s]}" : "{\"a\": %s%s \"b\": 1}",
                             tok, ends[e]);
            if (ends[e][strlen(ends[e]) - 1] == '}')
                n = snprintf(line, sizeof line, "{\"a\": %s%s", tok, ends[e]);
            enum sbx_jtype type;
            int64_t i = 0;
            double d = 0;
            bool ok = sbx_json_number(tok, strlen(tok), &type, &i, &d) == NULL;
            bool scanned = sbx_jscan_line(&s, line, (size_t)n);
            if (!ok) {
                assert_true(!scanned || array || s.m[0].type == SBX_JBIGINT);
                continue;
            }
            assert_true(scanned);
            if (array)
                continue;
            assert_int_equal(s.m[0].type, type);
            assert_true(s.m[0].i == i);
            assert_memory_equal(&s.m[0].d, &d, sizeof d);
            assert_int_equal(s.m[0].val_len, strlen(tok));
            assert_memory_equal(s.m[0].val, tok, strlen(tok));
        }
    }
    sbx_jscan_free(&s);
}

/* Each escape (hostile ones too) at every offset of bodies of every length
 * around the vector loop's 32-byte blocks: both twins give the table's
 * bytes between the filler, which comes through as it stands. */
static void test_unescape_every_offset(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } esc[] = {
        {"\\n", "\n"}, {"\\t", "\t"}, {"\\\"", "\""}, {"\\\\", "\\"}, {"\\/", "/"},
        {"\\b", "\b"}, {"\\f", "\f"}, {"\\r", "\r"},
        {"\\u001b", "\x1b"}, {"\\u0000", ""}, {"\\u00e9", "\xc3\xa9"}, {"\\u2501", "\xe2\x94\x81"},
        {"\\ud83c\\udf89", "\xf0\x9f\x8e\x89"}, {"\\udbff\\udfff", "\xf4\x8f\xbf\xbf"},
        {"\\ud800", "\xed\xa0\x80"}, {"\\udc00", "\xed\xb0\x80"}, {"\\ud800\\u0041", "\xed\xa0\x80" "A"},
        {"\\ud800\\n", "\xed\xa0\x80\n"}, {"\\q", "\\q"}, {"\\u12", "\\u12"}, {"\\u12g4", "\\u12g4"},
        {"\\", "\\"}, {"\\\\n", "\\n"}, {"\\n\\n\\u001b\\t", "\n\n\x1b\t"},
    };
    char in[160], want[160], got[160];
    for (size_t e = 0; e < sizeof esc / sizeof *esc; e++) {
        size_t elen = strlen(esc[e].in);
        /* \u0000 decodes to one NUL byte, which strlen cannot see */
        size_t olen = strcmp(esc[e].in, "\\u0000") == 0 ? 1 : strlen(esc[e].out);
        for (size_t before = 0; before <= 70; before++)
            for (size_t after = 0; after <= 40; after++) {
                if (esc[e].in[elen - 1] == '\\' && after)
                    continue; /* a lone backslash only ends a body */
                memset(in, '0', sizeof in); /* hex digits past the end: not to be read */
                memset(in, 'a', before);
                memcpy(in + before, esc[e].in, elen);
                memset(in + before + elen, 'z', after);
                memset(want, 'a', before);
                memcpy(want + before, esc[e].out, olen);
                memset(want + before + olen, 'z', after);
                for (int twin = 0; twin < 2; twin++) {
                    sbx_simd_set_scalar(twin == 1);
                    size_t n = sbx_jstr_decode(in, before + elen + after, got);
                    sbx_simd_set_scalar(false);
                    assert_int_equal(n, before + olen + after);
                    assert_memory_equal(got, want, n);
                }
            }
    }
}

static void test_long_string(void **state)
{
    (void)state;
    /* a 5 MB stdout with escapes: linear, and decodes as jansson does */
    size_t body = 5u << 20;
    char *line = malloc(body + 64);
    size_t n = (size_t)sprintf(line, "{\"stdout\": \"");
    for (size_t i = 0; i < body; i++)
        line[n++] = i % 61 == 60 ? 'n' : i % 61 == 59 ? '\\' : (char)('a' + i % 26);
    n += (size_t)sprintf(line + n, "\", \"ms\": 5}");
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    assert_true(scan(&s, line, n));
    assert_int_equal(s.m[0].val_len, body);
    assert_true(s.m[0].val_escaped);
    assert_int_equal(sbx_jscan_get(&s, "ms")->i, 5);
    sbx_jscan_free(&s);
    free(line);
}

/* A small deterministic generator, so failures replay. */
static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Strings built from escapes, UTF-8 (good, bad, cut) and plain runs, at
 * every length around the vector block sizes: the scanner's fast paths must
 * agree with jansson on each. */
static void test_random_strings_agree(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "a", "xyz0123456789", " ", "\"", "\\", "\\\\", "\\\"", "\\n", "\\t", "\\/",
        "\\u00e9", "\\u0000", "\\uD83D\\uDE00", "\\ud800", "\\udcff", "\\u12", "\\uzzzz",
        "\\q", "\xc3\xa9", "\xe2\x86\x92", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xff",
        "\xc0\xaf", "\xed\xa0\x80", "\xe2\x86", "\xf0\x9f", "\x80", "\x1b", "\x7f",
        "\xf4\x90\x80\x80", "\xe0\x9f\xbf", "\\ud83d\\u0041",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
    static const int good[] = {0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 12, 18, 19, 20, 21, 29, 33};
    const size_t np = sizeof pieces / sizeof *pieces, ng = sizeof good / sizeof *good;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    char line[4096];
    size_t accepted = 0;
    for (int it = 0; it < 20000; it++) {
        bool mostly_good = it % 2 == 0;
        size_t n = (size_t)sprintf(line, "{\"k\": \"");
        int count = (int)(next_rand(&x) % 40);
        for (int i = 0; i < count; i++) {
            const char *pc = mostly_good && next_rand(&x) % 100 != 0
                                 ? pieces[good[next_rand(&x) % ng]]
                                 : pieces[next_rand(&x) % np];
            size_t l = strlen(pc);
            memcpy(line + n, pc, l);
            n += l;
        }
        n += (size_t)sprintf(line + n, "\", \"m\": %d}", it);
        if (next_rand(&x) % 4 == 0)
            n = (size_t)(next_rand(&x) % (n + 1)); /* a cut line */
        accepted += scan(&s, line, n);
    }
    /* both kinds of outcome were exercised */
    assert_true(accepted > 2000 && accepted < 18000);
    sbx_jscan_free(&s);
}

/* Every two-byte sequence that starts with a non-ASCII byte, placed across
 * a vector boundary. */
static void test_all_utf8_pairs(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    char line[128];
    for (int off = 30; off <= 31; off++) {
        for (int b1 = 0x80; b1 < 0x100; b1++) {
            for (int b2 = 0; b2 < 0x100; b2++) {
                size_t n = (size_t)sprintf(line, "{\"k\": \"");
                memset(line + n, 'a', (size_t)off);
                n += (size_t)off;
                line[n++] = (char)b1;
                line[n++] = (char)b2;
                n += (size_t)sprintf(line + n, "%s", "\xa9\x80\x80 tail tail tail tail tail tail tail\"}");
                scan(&s, line, n);
            }
        }
    }
    sbx_jscan_free(&s);
}

/* Code points, raw and as a \\u escape (a pair above U+FFFF), at a vector
 * block's start and across its end, both twins: the scanner's
 * SBX_JSTR_HIDES is set exactly when sbx_text_hides finds it. */
static void test_hides_every_code_point(void **state)
{
    (void)state;
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    char body[160];
    size_t hiding = 0;
    for (int twin = 0; twin < 2; twin++) {
        sbx_simd_set_scalar(twin == 1);
        /* past the BMP, every seventh but all of the tags' block */
        for (uint32_t cp = 0; cp <= 0x10FFFF; cp += cp < 0x10000 || (cp >= 0xE0000 && cp < 0xE0100) ? 1 : 7) {
            if (cp >= 0xD800 && cp <= 0xDFFF)
                continue;
            for (int form = 0; form < 2; form++) {
                for (int off = 0; off < 3; off++) {
                    size_t at = off == 0 ? 0 : off == 1 ? 62 : 95, n = at;
                    memset(body, 'a', at);
                    if (form == 0 && cp >= 0x20 && cp != '"' && cp != '\\') {
                        unsigned char u[4];
                        size_t l = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
                        if (l == 1)
                            u[0] = (unsigned char)cp;
                        else {
                            for (size_t k = l - 1; k > 0; k--)
                                u[k] = (unsigned char)(0x80 | ((cp >> (6 * (l - 1 - k))) & 0x3F));
                            u[0] = (unsigned char)((0xF00 >> l) | (cp >> (6 * (l - 1))));
                        }
                        memcpy(body + n, u, l);
                        n += l;
                    } else if (form == 1 && cp < 0x10000) {
                        n += (size_t)sprintf(body + n, "\\u%04X", (unsigned)cp);
                    } else if (form == 1) {
                        uint32_t v = cp - 0x10000;
                        n += (size_t)sprintf(body + n, "\\u%04x\\u%04X", 0xD800 + (v >> 10),
                                             0xDC00 + (v & 0x3FF));
                    } else {
                        continue;
                    }
                    memset(body + n, 'b', 40);
                    n += 40;
                    body[n] = '"';
                    unsigned char esc = 0;
                    const char *q = sbx_jscan_string(&s, body, body, body + n + 1, &esc);
                    assert_ptr_equal(q, body + n);
                    bool want = sbx_text_hides(body, n, true);
                    hiding += want;
                    if (((esc & SBX_JSTR_HIDES) != 0) != want) {
                        fprintf(stderr, "U+%04X form %d at %zu (twin %d): %d\n", (unsigned)cp, form,
                                at, twin, esc);
                        fail();
                    }
                }
            }
        }
    }
    sbx_simd_set_scalar(false);
    /* the invisible code points were among them: raw and escaped, each twin */
    assert_true(hiding > 2 * 2 * 3 * 20000);
    sbx_jscan_free(&s);
}

/* The flags a case names: e u h n H (tests/unit/cases/jscan_strings.test). */
static unsigned char hostile_flags(const struct test_case *c, const char *f)
{
    unsigned char v = 0;
    for (; *f && *f != '-'; f++)
        switch (*f) {
        case 'e': v |= SBX_JSTR_ESCAPED; break;
        case 'u': v |= SBX_JSTR_UESCAPE; break;
        case 'h': v |= SBX_JSTR_HIGH; break;
        case 'n': v |= SBX_JSTR_NUL; break;
        case 'H': v |= SBX_JSTR_HIDES; break;
        default: case_fail(c, "unknown flag '%c'", *f);
        }
    return v;
}

static enum sbx_jerr hostile_code(const struct test_case *c, const char *kind)
{
    if (strcmp(kind, "syntax") == 0)
        return SBX_JERR_SYNTAX;
    if (strcmp(kind, "utf8") == 0)
        return SBX_JERR_UTF8;
    if (strcmp(kind, "truncated") == 0)
        return SBX_JERR_TRUNCATED;
    case_fail(c, "unknown error kind %s", kind);
    return SBX_JERR_NONE;
}

/* One body after every length of filler from 0 to 140 bytes, plain ASCII
 * (the vector scans start their blocks at the body) or two-byte UTF-8
 * (they start at the filler, so the body lies at every offset in a block;
 * the flags gain h), for each twin. */
static void check_hostile(const struct test_case *c, void *ctx)
{
    (void)ctx;
    bool ok = strcmp(c->field[1], "ok") == 0;
    case_want_fields(c, ok ? 4 : 3);
    bool cut = strcmp(c->table, "cut") == 0;
    size_t blen = c->len[0];
    size_t stop = ok && strcmp(c->field[2], "all") != 0 ? (size_t)case_int(c, 2) : blen;
    unsigned char want = ok ? hostile_flags(c, c->field[3]) : 0;
    enum sbx_jerr code = ok ? SBX_JERR_NONE : hostile_code(c, c->field[2]);
    char line[512];
    struct sbx_jscan s[2];
    for (int twin = 0; twin < 2; twin++)
        sbx_jscan_init(&s[twin]);
    for (int wide = 0; wide < 2; wide++)
        for (size_t pre = 0; pre <= 140; pre++) {
            size_t n = 0;
            if (wide) {
                /* the vector scans' blocks start at the first é: the body
                 * lies at every offset from a block's start */
                for (; n + 2 <= pre; n += 2)
                    memcpy(line + n, "\xc3\xa9", 2);
                if (n < pre)
                    line[n++] = 'a';
            } else {
                memset(line, 'a', pre);
                n = pre;
            }
            memcpy(line + n, c->field[0], blen);
            n += blen;
            if (!cut) {
                memcpy(line + n, "\"xyz", 4);
                n += 4;
            }
            unsigned char flags = want | (wide && pre >= 2 ? SBX_JSTR_HIGH : 0);
            const char *end[2];
            for (int twin = 0; twin < 2; twin++) {
                sbx_simd_set_scalar(twin == 1);
                unsigned char esc = 0;
                end[twin] = sbx_jscan_string(&s[twin], line, line, line + n, &esc);
                sbx_simd_set_scalar(false);
                const char *who = twin ? "the scalar twin" : "the vector twin";
                if (ok && end[twin] != line + pre + stop)
                    case_fail(c, "%s, after %zu bytes of %s: the string ends at %td, want %zu",
                              who, pre, wide ? "UTF-8" : "ASCII",
                              end[twin] ? end[twin] - line - (ptrdiff_t)pre : -1, stop);
                if (ok && esc != flags)
                    case_fail(c, "%s, after %zu bytes: flags %#x, want %#x", who, pre, esc, flags);
                if (!ok && (end[twin] || s[twin].err_code != code))
                    case_fail(c, "%s, after %zu bytes: %s (code %d), want error %d", who, pre,
                              end[twin] ? "accepted" : s[twin].err, (int)s[twin].err_code,
                              (int)code);
            }
            if (!ok && (s[0].err_pos != s[1].err_pos || strcmp(s[0].err, s[1].err) != 0))
                case_fail(c, "after %zu bytes: the twins word the error apart: %zu %s, %zu %s",
                          pre, s[0].err_pos, s[0].err, s[1].err_pos, s[1].err);
        }
    for (int twin = 0; twin < 2; twin++)
        sbx_jscan_free(&s[twin]);
}

/* The hostile bodies' table: escapes and backslash runs, \u escapes and
 * surrogates, controls and NUL, invalid and cut UTF-8, lone quotes, a line
 * that ends mid-escape, each across the blocks' edges. */
static void test_hostile_strings(void **state)
{
    (void)state;
    assert_true(cases_run("jscan_strings.test", check_hostile, NULL) >= 55);
}

/* ---- tests/unit/cases/jscan_lines.test: the line scanner's shortcuts ---- */

static const char *const jerr_words[] = {
    [SBX_JERR_NONE] = "none", [SBX_JERR_EMPTY] = "empty", [SBX_JERR_NOT_OBJECT] = "not-object",
    [SBX_JERR_TRUNCATED] = "truncated", [SBX_JERR_SYNTAX] = "syntax", [SBX_JERR_UTF8] = "utf8",
    [SBX_JERR_RANGE] = "range", [SBX_JERR_DEPTH] = "depth",
};

/* The members as "key=Tvalue" joined by spaces: T is the type's letter, the
 * value the raw token (a string's body as written). */
static void describe_members(const struct sbx_jscan *s, struct sbx_buf *out)
{
    static const char letter[] = {[SBX_JNULL] = 'n', [SBX_JFALSE] = 'f', [SBX_JTRUE] = 't',
                                  [SBX_JINT] = 'i', [SBX_JREAL] = 'r', [SBX_JBIGINT] = 'b',
                                  [SBX_JSTRING] = 's', [SBX_JARRAY] = 'a', [SBX_JOBJECT] = 'o'};
    sbx_buf_clear(out);
    for (size_t i = 0; i < s->n; i++) {
        const struct sbx_jmember *m = &s->m[i];
        if (i)
            sbx_buf_addc(out, ' ');
        sbx_buf_add(out, m->ukey, m->ukey_len);
        sbx_buf_addc(out, '=');
        sbx_buf_addc(out, letter[m->type]);
        sbx_buf_add(out, m->val, m->val_len);
    }
    sbx_buf_addc(out, '\0');
    out->len--;
}

/* One way of scanning the case's line: alone (sbx_jscan_line), or as a
 * stream (sbx_jscan_stream) that ends with it or has a newline and another
 * line after it. Exactly the bytes scanned are allocated, so that ASan sees
 * any read past them. */
enum line_way { ALONE, STREAM_END, STREAM_MORE };

static void check_line_way(const struct test_case *c, enum line_way how)
{
    static const char *const ways[] = {"alone", "as the end of a stream", "in a stream"};
    const char *way = ways[how];
    bool stream = how != ALONE;
    size_t len = c->len[0], total = len + (how == STREAM_MORE ? 4 : 0);
    char *buf = malloc(total ? total : 1);
    memcpy(buf, c->field[0], len);
    if (how == STREAM_MORE)
        memcpy(buf + len, "\n{}\n", 4);
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    size_t got_len = 0;
    bool ok = stream ? sbx_jscan_stream(&s, buf, buf + total, &got_len)
                     : sbx_jscan_line(&s, buf, len);
    bool want_ok = strcmp(c->field[1], "ok") == 0;
    if (ok != want_ok)
        case_fail(c, "%s: %s, want %s", way, ok ? "accepted" : s.err, c->field[1]);
    if (ok) {
        case_want_fields(c, 3);
        struct sbx_buf d = {0};
        describe_members(&s, &d);
        if (strcmp(d.p, c->field[2]) != 0)
            case_fail(c, "%s: members [%s], want [%s]", way, d.p, c->field[2]);
        sbx_buf_free(&d);
        for (size_t i = 0; i < s.n; i++)
            if (s.m[i].type == SBX_JINT && s.m[i].i != strtoll(s.m[i].val, NULL, 10))
                case_fail(c, "%s: member %zu reads as %lld", way, i, (long long)s.m[i].i);
        if (stream && got_len != len)
            case_fail(c, "%s: the line's length %zu, want %zu", way, got_len, len);
    } else {
        case_want_fields(c, 4);
        if (strcmp(jerr_words[s.err_code], c->field[2]) != 0 ||
            s.err_pos != (size_t)case_int(c, 3))
            case_fail(c, "%s: %s at %zu (%s), want %s at %s", way, jerr_words[s.err_code],
                      s.err_pos, s.err, c->field[2], c->field[3]);
    }
    sbx_jscan_free(&s);
    free(buf);
    /* and jansson's verdict is the scanner's, on the line alone */
    if (how == ALONE && ok != jansson_accepts(c->field[0], len))
        case_fail(c, "jansson disagrees");
}

static void check_line_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    if (c->n < 3)
        case_fail(c, "a line, then ok and its members or error, its kind and offset");
    if (strcmp(c->table, "line") == 0) {
        check_line_way(c, ALONE);
        check_line_way(c, STREAM_END);
    } else if (strcmp(c->table, "stream") == 0) {
        check_line_way(c, STREAM_MORE);
    } else {
        case_fail(c, "no such table in this file's runner");
    }
}

/* The separators written as json.dumps writes them (": ", ", ") and every
 * whitespace around them that is not; true, false and null at the end of
 * the line, before a letter or a NUL; plain integers at 18 and 19 digits;
 * each read alone and in a stream. */
static void test_line_shortcuts(void **state)
{
    (void)state;
    assert_true(cases_run("jscan_lines.test", check_line_case, NULL) >= 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_line),
        cmocka_unit_test(test_every_prefix_agrees),
        cmocka_unit_test(test_crlf_and_whitespace),
        cmocka_unit_test(test_control_and_escapes),
        cmocka_unit_test(test_nan_infinity),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_many_keys),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_string_arrays),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_reals_match_strtod),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_nul_after_token),
        cmocka_unit_test(test_nul_in_values),
        cmocka_unit_test(test_big_integers),
        cmocka_unit_test(test_load_positions),
        cmocka_unit_test(test_unescape),
        cmocka_unit_test(test_unescape_every_offset),
        cmocka_unit_test(test_integers_as_number_reads),
        cmocka_unit_test(test_long_string),
        cmocka_unit_test(test_random_strings_agree),
        cmocka_unit_test(test_all_utf8_pairs),
        cmocka_unit_test(test_hides_every_code_point),
        cmocka_unit_test(test_hostile_strings),
        cmocka_unit_test(test_line_shortcuts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
