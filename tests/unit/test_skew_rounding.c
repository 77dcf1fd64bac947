/* Every skew written is rounded by base/numfmt.h's one rule (to the nearest
 * millisecond, halves away from zero), never truncated: Runtime's record
 * (`clock_skew_ms`, `command_record.skew.ms`, the Record line), a second
 * command log's clock (`witness_clocks`, the Witnesses line) and a proxy's
 * (`proxy_clocks`, its Network line), at the boundary either side of a
 * half and for negative offsets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/summary.h"
#include "importers/load.h"
#include "render/summary/summary.h"

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static char *render(const struct sbx_timeline *tl, const struct sbx_summary *sum, enum sbx_summary_format f)
{
    struct sbx_buf out = SBX_BUF_INIT;
    char err[160];
    struct sbx_summary_look look = {.cols = 1000};
    assert_true(sbx_render_summary(tl, sum, f, &look, &out, err, sizeof err));
    sbx_buf_addc(&out, '\0');
    return out.p;
}

static void skews_are_rounded(void **state)
{
    (void)state;
    static const struct {
        int64_t ns;
        long long ms;
    } cases[] = {
        {40500000, 41},   {-40500000, -41}, {40499999, 40}, {-40499999, -40}, {500000, 1},
        {-500000, -1},    {499999, 0},      {-499999, 0},   {2999500000LL, 3000}, {-2999499999LL, -2999},
    };
    const char *paths[] = {"tests/fixtures/runtime-run", "tests/fixtures/witness-run/audit.jsonl",
                           "tests/fixtures/proxy-run/access.log"};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        print_message("%lld ns\n", (long long)cases[k].ns);
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        struct sbx_load_opts lo = {.threads = 1};
        struct sbx_load_report rep = {0};
        assert_true(sbx_load_paths(&tl, paths, 3, &lo, &rep) > 0);
        assert_int_equal(rep.nerrors, 0);
        sbx_load_report_free(&rep);
        struct sbx_skew_given g[] = {{"runtime", cases[k].ns}, {"sandboxio", cases[k].ns}, {"squid", cases[k].ns}};
        struct sbx_summary_opts so = {.threads = 1, .skews = g, .nskews = 3};
        struct sbx_summary sum;
        char err[160];
        assert_true(sbx_summarize(&tl, &so, &sum, err, sizeof err));
        char want[64];
        char *json = render(&tl, &sum, SBX_SUMMARY_JSON);
        snprintf(want, sizeof want, "\"clock_skew_ms\": %lld,", cases[k].ms);
        assert_int_equal(count(json, want), 1);
        snprintf(want, sizeof want, "\"how\": \"given\",\n");
        assert_int_equal(count(json, want), 3);
        snprintf(want, sizeof want, "\"ms\": %lld,", cases[k].ms);
        assert_int_equal(count(json, want), 3); /* the record's, sandboxio's, the proxy's */
        free(json);
        for (int md = 0; md < 2; md++) {
            char *text = render(&tl, &sum, md ? SBX_SUMMARY_MARKDOWN : SBX_SUMMARY_TEXT);
            snprintf(want, sizeof want, "skew %+lld ms as given", cases[k].ms);
            assert_int_equal(count(text, want), 3);
            free(text);
        }
        sbx_summary_free(&sum);
        sbx_timeline_free(&tl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(skews_are_rounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
