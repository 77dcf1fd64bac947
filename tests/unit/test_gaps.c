/* Tests for analyses/gaps: a record outside the wrapper that fits a gap in
 * the wrapper's log is possibly removed from it; one that overlaps a
 * wrapper command, lies before the first or after the last, or between
 * lines of two sources stays outside the wrapper. The cases are in
 * tests/unit/cases/gaps.test; the run is made by hand (tests/unit/fixture.h)
 * and analysed whole, as sbxview does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/summary.h"
#include "tests/unit/cases.h"
#include "tests/unit/fixture.h"

static const int64_t T0 = 1764405000LL * FX_S;

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    if (c->n != 4 && c->n != 5)
        case_fail(c, "a case is a start, an end, a sandbox, what it is, and perhaps \"unread\"");
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    uint32_t second = sbx_timeline_add_source(&fx.tl, "agent-run-2.jsonl", NULL, 0, SBX_DATA_HEAP);
    static const int64_t starts[] = {0, 1000, 3000, 5000};
    static const char *const lines[] = {"git status", "make", "pytest", "ls"};
    static const char *const progs[] = {"git", "make", "pytest", "ls"};
    struct sbx_event *last = NULL;
    for (int i = 0; i < 4; i++) {
        struct sbx_event *e = fixture_command(&fx, "sb", T0 + starts[i] * FX_MS, 100, lines[i], 0);
        sbx_ev_set_line_no(e, (uint32_t)i + 1);
        last = e;
        struct sbx_event *r = fixture_record(&fx, "sb", T0 + starts[i] * FX_MS, progs[i], 0, 0);
        r->end = r->start + 100 * FX_MS;
    }
    unsigned state = c->n == 5 && strcmp(c->field[4], "unread") == 0 ? SBX_CMD_UNREAD : 0;
    struct sbx_event *x = fixture_record(&fx, c->field[2], T0 + case_int(c, 0) * FX_MS, "python3", 0, state);
    x->end = T0 + case_int(c, 1) * FX_MS;
    fixture_finish(&fx);
    /* line 4 is a second file's: the same bytes, so its texts read alike */
    const struct sbx_source *first = &fx.tl.sources[fx.src];
    char *copy = sbx_xmalloc(first->size + 1);
    memcpy(copy, first->data, first->size);
    sbx_timeline_set_data(&fx.tl, second, copy, first->size, SBX_DATA_HEAP);
    last->source = (uint16_t)second;
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(&fx.tl, NULL, &sum, err, sizeof err));
    char got[64];
    if (sum.ngaps == 1 && sum.gaps[0].record == x && sum.cross.noutside == 0 &&
        (x->findings & SBX_F_REMOVED_FROM_LOG) && !(x->findings & SBX_F_OUTSIDE_WRAPPER))
        snprintf(got, sizeof got, "removed %u %u", sbx_ev_line_no(sum.gaps[0].before), sbx_ev_line_no(sum.gaps[0].after));
    else if (sum.ngaps == 0 && sum.cross.noutside == 1 && sum.cross.outside[0] == x &&
             (x->findings & SBX_F_OUTSIDE_WRAPPER) && !(x->findings & SBX_F_REMOVED_FROM_LOG))
        snprintf(got, sizeof got, "outside");
    else
        snprintf(got, sizeof got, "%zu gaps, %zu outside", sum.ngaps, sum.cross.noutside);
    if (strcmp(got, c->field[3]) != 0)
        case_fail(c, "a record from %s to %s ms in %s: %s, want %s", c->field[0], c->field[1], c->field[2],
                  got, c->field[3]);
    sbx_summary_free(&sum);
    fixture_free(&fx);
}

static void test_case_file(void **state)
{
    (void)state;
    cases_run("gaps.test", check_case, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
