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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(structure), cmocka_unit_test(strings)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
