/* The numbers in check's evidence are base/numfmt.h's: a record outside
 * the wrapper gives its duration as every other output does (1.5 s, not
 * 1500 ms), for each step of the rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/fixture.h"

#include "analyses/summary.h"
#include "render/findings.h"

static void record_durations(void **state)
{
    (void)state;
    static const struct {
        int64_t ms;
        const char *words;
    } cases[] = {
        {0, "exit 0, 0 ms)"},          {999, "exit 0, 999 ms)"},     {1000, "exit 0, 1 s)"},
        {1500, "exit 0, 1.5 s)"},      {59999, "exit 0, 1 min 0 s)"}, {134500, "exit 0, 2 min 15 s)"},
        {3600000, "exit 0, 1 h 0 min)"},
    };
    const int64_t t0 = INT64_C(1780000000) * FX_S;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fixture fx;
        fixture_init(&fx, "run");
        fixture_command(&fx, "sb1", t0, 10, "make", 0);
        fixture_record(&fx, "sb1", t0 + 2 * FX_MS, "make", 0, 0);
        struct sbx_event *r = fixture_record(&fx, "sb1", t0 + 4 * FX_S, "curl", 0, 0);
        sbx_cmd_set_ms(&r->u.cmd, cases[i].ms);
        r->end = r->start + cases[i].ms * FX_MS;
        fixture_finish(&fx);
        struct sbx_summary sum;
        char err[200];
        assert_true(sbx_summarize(&fx.tl, NULL, &sum, err, sizeof err));
        struct sbx_findings found = {0};
        sbx_findings_collect(&fx.tl, &sum, 0, &found);
        bool seen = false;
        for (size_t k = 0; k < found.n; k++)
            if (found.f[k].kind == SBX_F_OUTSIDE_WRAPPER) {
                seen = true;
                if (!strstr(found.f[k].evidence, cases[i].words))
                    fail_msg("%lld ms: [%s], want [%s]", (long long)cases[i].ms, found.f[k].evidence,
                             cases[i].words);
            }
        assert_true(seen);
        sbx_findings_free(&found);
        sbx_summary_free(&sum);
        fixture_free(&fx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_durations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
