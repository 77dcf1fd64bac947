/* Vector code against its scalar twins (base/simd.h, tests/fuzz/simd_twins.h):
 * each special byte or sequence at every position of texts 0 to 70 bytes
 * long (the 15/16/17, 31/32/33 and 63/64/65 edges of the 16-, 32- and 64-byte
 * blocks), raw and inside a JSON line; literals of the search at every place;
 * and random text biased towards the bytes the prefilters look for. Also the
 * build's switches: SBX_NO_SIMD leaves no vector code to run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "tests/fuzz/simd_twins.h"

static struct twins_ctx *ctx;

static int setup(void **state)
{
    (void)state;
    ctx = twins_new();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    twins_free(ctx);
    return 0;
}

/* What the prefilters look for, and what breaks a string: each is planted
 * at every position. */
static const struct {
    const char *s;
    size_t n;
} specials[] = {
#define S(lit) {lit, sizeof lit - 1}
    S("\0"), S("\xff"), S("\x80"), S("\x7f"), S("\x1f"), S("\""), S("\\"), S("\\n"),
    S("\\\""), S("\\u200b"), S("\\u00ad"), S("\\u00AD"), S("\\u0000"), S("\\u0041"),
    S("\\ud83d\\ude00"), S("\\udc00"), S("\\uZZZZ"), S("\xe2\x80\x8b"), S("\xe2\x80"),
    S("\xc2\xad"), S("\xd8\x9c"), S("\xe1\x85\x9f"), S("\xe3\x85\xa4"), S("\xef\xbb\xbf"),
    S("\xee\x80\x80"), S("\xf3\xa0\x80\x81"), S("\xf4\x8f\xbf\xbf"), S("\xf4\x90\x80\x80"),
    S("\xed\xa0\x80"), S("\xc0\xaf"), S("\xe0\x80\xaf"), S("\xf0\x9f\x98\x80"), S("\xc3"),
    S("Connection refused"), S("onnect"), S("esol"), S("ddrinfo"), S("Could not resolve host"),
    S("getaddrinfo failed"), S("ssh: connect to host"),
    S("ghp_0123456789abcdefghijABCDEFGHIJ012345"), S("AKIAABCDEFGHIJKLMNOP"),
    S("-----BEGIN PRIVATE KEY-----"), S("password=hunter2hunter2"),
#undef S
};

static const char *fillers[] = {"a", " ", "0", "\xc3\xa9"};

/* text = filler repeated to len bytes, the special at pos */
static size_t plant(char *text, size_t len, const char *filler, size_t pos, const char *sp,
                    size_t spn)
{
    size_t fl = strlen(filler);
    for (size_t i = 0; i < len; i++)
        text[i] = filler[i % fl];
    memcpy(text + pos, sp, spn);
    return len;
}

static void check(const char *s, size_t n, const char *what, size_t len, size_t pos)
{
    const char *bad = twins_differ(ctx, s, n);
    if (bad)
        fail_msg("%s: the twins of %s differ (length %zu, at %zu)", what, bad, len, pos);
}

/* A run of backslashes before "u00ad" that straddles a block boundary: an
 * odd run escapes the u (U+00AD hides), an even one does not, whichever
 * block each backslash fell in (a vector scan that restarted counting at a
 * block the fuzz target caught). */
static void test_escape_runs_across_blocks(void **state)
{
    (void)state;
    char text[100];
    for (size_t n = 40; n <= sizeof text; n += 3) /* where the 32- and 16-byte scans hand over */
        for (size_t run = 1; run <= 12; run++)
            for (size_t pos = 0; pos + run + 5 <= n; pos++) {
                memset(text, 'a', sizeof text);
                memset(text + pos, '\\', run);
                memcpy(text + pos + run, "u00ad", 5);
                check(text, n, "a backslash run", run, pos);
            }
}

static void test_every_position(void **state)
{
    (void)state;
    char text[256], line[300];
    size_t cases = 0;
    for (size_t f = 0; f < sizeof fillers / sizeof *fillers; f++)
        for (size_t k = 0; k < sizeof specials / sizeof *specials; k++)
            for (size_t len = specials[k].n; len <= 70; len++)
                for (size_t pos = 0; pos + specials[k].n <= len; pos++) {
                    size_t n = plant(text, len, fillers[f], pos, specials[k].s, specials[k].n);
                    check(text, n, "raw", len, pos);
                    /* the same as a string value of a JSON line */
                    int m = snprintf(line, sizeof line, "{\"k\":\"");
                    memcpy(line + m, text, n);
                    memcpy(line + m + n, "\"}", 2);
                    check(line, (size_t)m + n + 2, "in a JSON line", len, pos);
                    cases++;
                }
    assert_true(cases > 50000);
}

/* The search's literals, plain and as JSON escapes, at every place. */
static void test_literals(void **state)
{
    (void)state;
    static const char *const pats[] = {"refused", "Refused", "ghp_", "x", "héllo", "a.b", "12345",
                                       "\\x{00e9}t"};
    static const char *const forms[] = {"refused", "REFUSED", "re\\u0066used", "\\u0072efused",
                                        "ghp_", "x", "h\xc3\xa9llo", "h\\u00e9llo", "a.b",
                                        "12345", "\xc3\xa9t", "\\\"", "\\\\"};
    char text[256];
    for (size_t p = 0; p < sizeof pats / sizeof *pats; p++)
        for (size_t fm = 0; fm < sizeof forms / sizeof *forms; fm++)
            for (size_t len = strlen(forms[fm]); len <= 140; len++)
                for (size_t pos = 0; pos + strlen(forms[fm]) <= len; pos += 1 + (len > 70)) {
                    plant(text, len, "q", pos, forms[fm], strlen(forms[fm]));
                    for (int caseless = 0; caseless < 2; caseless++) {
                        const char *bad =
                            twins_lit_differ(pats[p], strlen(pats[p]), caseless, text, len);
                        if (bad)
                            fail_msg("pattern %s, text with %s (length %zu, at %zu): the twins "
                                     "of %s differ", pats[p], forms[fm], len, pos, bad);
                    }
                }
}

/* Random text over the bytes that matter, from a fixed seed. */
static void test_random(void **state)
{
    (void)state;
    static const char alphabet[] = "\0\\u\"0aAdDfF{}:,nso \x80\xbf\xc2\xad\xe2\x80\x8b\xf3\xa0\xff"
                                   "ghp_refused";
    uint64_t x = 0x9e3779b97f4a7c15u;
    char text[300], pat[8];
    for (int round = 0; round < 20000; round++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t n = (size_t)(x % 200);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            text[i] = alphabet[x % (sizeof alphabet - 1)];
        }
        const char *bad = twins_differ(ctx, text, n);
        if (bad)
            fail_msg("round %d (length %zu): the twins of %s differ", round, n, bad);
        size_t pn = 1 + (size_t)(x >> 40) % 4;
        for (size_t i = 0; i < pn; i++)
            pat[i] = "refusdghp_x"[(x >> (8 * i)) % 11];
        bad = twins_lit_differ(pat, pn, (x >> 60) & 1, text, n);
        if (bad)
            fail_msg("round %d (length %zu): the twins of %s differ", round, n, bad);
    }
}

/* The switch itself: off and on again, and none of the CPU's extras while
 * off; a build without vector code has none to run. */
static void test_switch(void **state)
{
    (void)state;
    assert_true(sbx_simd_on());
    sbx_simd_set_scalar(true);
    assert_false(sbx_simd_on());
    assert_false(sbx_cpu_avx2());
    assert_false(sbx_cpu_ssse3());
    sbx_simd_set_scalar(false);
    assert_true(sbx_simd_on());
#if defined(SBX_NO_SIMD)
    assert_int_equal(SBX_SSE2, 0);
    assert_int_equal(SBX_X86_64, 0);
    assert_false(sbx_cpu_avx2());
#elif defined(__x86_64__)
    assert_int_equal(SBX_SSE2, 1);
    assert_int_equal(SBX_X86_64, 1);
    __builtin_cpu_init();
    assert_int_equal(sbx_cpu_avx2(), __builtin_cpu_supports("avx2") != 0);
#else
    assert_int_equal(SBX_X86_64, 0);
    assert_false(sbx_cpu_avx2());
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_switch),
        cmocka_unit_test(test_every_position),
        cmocka_unit_test(test_escape_runs_across_blocks),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
