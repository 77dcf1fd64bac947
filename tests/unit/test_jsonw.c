/* The JSON writer: structure, and strings that stay valid pure-ASCII JSON
 * whatever bytes a log held (checked by parsing the output with jansson). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/jsonw.h"

static void structure(void **state)
{
    (void)state;
    struct sbx_buf out = SBX_BUF_INIT;
    struct sbx_jsonw w;
    sbx_jw_init(&w, &out, false);
    sbx_jw_object(&w);
    sbx_jw_key(&w, "a");
    sbx_jw_int(&w, -5);
    sbx_jw_key(&w, "b");
    sbx_jw_array(&w);
    sbx_jw_cstr(&w, "x");
    sbx_jw_null(&w);
    sbx_jw_bool(&w, true);
    sbx_jw_end_array(&w);
    sbx_jw_key(&w, "c");
    sbx_jw_object(&w);
    sbx_jw_end_object(&w);
    sbx_jw_end_object(&w);
    assert_string_equal(out.p, "{\"a\":-5,\"b\":[\"x\",null,true],\"c\":{}}");
    sbx_buf_free(&out);
}

static void escape_round_trip(const char *in, size_t n, const char *want_decoded, size_t want_len)
{
    struct sbx_buf out = SBX_BUF_INIT;
    struct sbx_jsonw w;
    sbx_jw_init(&w, &out, true);
    sbx_jw_array(&w);
    sbx_jw_string(&w, in, n);
    sbx_jw_end_array(&w);
    for (size_t i = 0; i < out.len; i++)
        assert_true((unsigned char)out.p[i] < 0x80 && (out.p[i] >= 0x20 || out.p[i] == '\n'));
    json_error_t e;
    json_t *v = json_loadb(out.p, out.len, 0, &e);
    assert_non_null(v);
    json_t *s = json_array_get(v, 0);
    assert_int_equal(json_string_length(s), want_len);
    assert_memory_equal(json_string_value(s), want_decoded, want_len);
    json_decref(v);
    sbx_buf_free(&out);
}

/* in and out as string literals: their lengths come from sizeof */
#define ROUND_TRIP(in, out) escape_round_trip(in, sizeof(in) - 1, out, sizeof(out) - 1)

static void strings(void **state)
{
    (void)state;
    ROUND_TRIP("plain", "plain");
    ROUND_TRIP("q\"b\\n\nt\t\x1b[2J\x7f", "q\"b\\n\nt\t\x1b[2J\x7f");
    ROUND_TRIP("\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", "\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80");
    ROUND_TRIP("\xe2\x80\xae", "\xe2\x80\xae"); /* bidi override: escaped, kept */
    /* invalid UTF-8 becomes U+FFFD, one per bad byte */
    ROUND_TRIP("a\xff" "b\xc0\xaf", "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd");
    ROUND_TRIP("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    ROUND_TRIP("cut \xe2\x86", "cut \xef\xbf\xbd\xef\xbf\xbd");
}

/* A document, pretty or not, written with a spill at every point from 1 to
 * past its length: the pieces and the rest are the document, each piece at
 * least the point long, and none ends inside a string. */
struct spilled {
    struct sbx_buf joined;
    size_t n, shortest;
    bool mid_string;
};

static void take(void *ctx, const char *text, size_t len)
{
    struct spilled *s = ctx;
    size_t quotes = 0;
    for (size_t i = 0; i < len; i++)
        quotes += text[i] == '"' && (i == 0 || text[i - 1] != '\\');
    for (size_t i = 0; i < s->joined.len; i++)
        quotes += s->joined.p[i] == '"' && (i == 0 || s->joined.p[i - 1] != '\\');
    s->mid_string |= quotes % 2 != 0;
    sbx_buf_add(&s->joined, text, len);
    if (!s->n || len < s->shortest)
        s->shortest = len;
    s->n++;
}

static void document(struct sbx_jsonw *w)
{
    sbx_jw_object(w);
    sbx_jw_key(w, "name");
    sbx_jw_cstr(w, "a \"quoted\" word\n");
    sbx_jw_key(w, "list");
    sbx_jw_array(w);
    for (int i = 0; i < 12; i++) {
        sbx_jw_object(w);
        sbx_jw_key(w, "i");
        sbx_jw_int(w, i * 1000003);
        sbx_jw_key(w, "s");
        sbx_jw_string(w, "caf\xc3\xa9 \xff", 7);
        sbx_jw_key(w, "empty");
        sbx_jw_array(w);
        sbx_jw_end_array(w);
        sbx_jw_end_object(w);
    }
    sbx_jw_null(w);
    sbx_jw_bool(w, false);
    sbx_jw_end_array(w);
    sbx_jw_end_object(w);
}

static void spill_in_pieces(void **state)
{
    (void)state;
    for (int pretty = 0; pretty < 2; pretty++) {
        struct sbx_buf whole = SBX_BUF_INIT;
        struct sbx_jsonw w;
        sbx_jw_init(&w, &whole, pretty);
        document(&w);
        for (size_t at = 1; at <= whole.len + 1; at++) {
            struct spilled s = {SBX_BUF_INIT, 0, 0, false};
            struct sbx_buf out = SBX_BUF_INIT;
            sbx_jw_init(&w, &out, pretty);
            sbx_jw_spill(&w, at, take, &s);
            document(&w);
            if (at < whole.len / 2)
                assert_true(s.n > 0);
            if (s.n)
                assert_true(s.shortest >= at);
            assert_false(s.mid_string);
            sbx_buf_add(&s.joined, out.p ? out.p : "", out.len);
            assert_int_equal(s.joined.len, whole.len);
            assert_memory_equal(s.joined.p, whole.p, whole.len);
            sbx_buf_free(&out);
            sbx_buf_free(&s.joined);
        }
        sbx_buf_free(&whole);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(structure), cmocka_unit_test(strings),
                                       cmocka_unit_test(spill_in_pieces)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
