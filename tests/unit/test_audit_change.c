/* What an account audit entry changed: the importer's facts
 * (importers/formats/runtime/runtime_audit.c) and their words
 * (analyses/audit_change.h), for the table in cases/audit.test; a secret's
 * value kept nowhere; a huge detail bounded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/audit_change.h"
#include "importers/format.h"
#include "importers/load.h"
#include "importers/formats/runtime/runtime.h"
#include "cases.h"

static struct sbx_timeline *load_audit(const char *s, size_t n)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    char *copy = malloc(n + 1);
    memcpy(copy, s, n);
    copy[n] = '\0';
    uint32_t src = sbx_timeline_add_source(tl, "audit.jsonl", copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts opts = {.threads = 1};
    sbx_load_source(tl, src, &sbx_format_runtime_audit, &opts);
    sbx_timeline_finish(tl);
    return tl;
}

static void drop(struct sbx_timeline *tl)
{
    sbx_timeline_free(tl);
    free(tl);
}

/* Whether any interned string of the timeline holds s. */
static bool interned(const struct sbx_timeline *tl, const char *s)
{
    for (uint32_t id = 1; id < tl->strings.n; id++)
        if (strstr(sbx_strtab_get(&tl->strings, id), s))
            return true;
    return false;
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 4);
    struct sbx_timeline *tl = load_audit(c->field[0], c->len[0]);
    if (tl->n != 1)
        case_fail(c, "%zu events, not 1", tl->n);
    const struct sbx_event *e = sbx_tl_at(tl, 0);
    struct sbx_buf change = SBX_BUF_INIT, who = SBX_BUF_INIT;
    sbx_audit_change_words(tl, e, &change);
    sbx_audit_who_words(tl, e, &who);
    if (strcmp(change.p ? change.p : "", c->field[1]) != 0)
        case_fail(c, "changed: %s", change.p ? change.p : "");
    if (strcmp(who.p ? who.p : "", c->field[2]) != 0)
        case_fail(c, "who: %s", who.p ? who.p : "");
    bool bad = e->findings & SBX_F_BAD_FIELD;
    if (bad != (strcmp(c->field[3], "bad") == 0))
        case_fail(c, "the entry is %s", bad ? "bad" : "ok");
    /* no value of a credential is kept, whatever the entry carried */
    static const char *const values[] = {"npm_live_value", "hunter2", "tok_123456"};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++)
        if (interned(tl, values[i]))
            case_fail(c, "%s was kept", values[i]);
    sbx_buf_free(&change);
    sbx_buf_free(&who);
    drop(tl);
}

static void decode_cases(void **state)
{
    (void)state;
    assert_true(cases_run("audit.test", check_case, NULL) >= 15);
}

/* A hostile detail: a million-byte value, ten thousand members, ten
 * thousand hosts. What is kept stays small and says how much it left out. */
static void huge_detail(void **state)
{
    (void)state;
    struct sbx_buf j = SBX_BUF_INIT;
    sbx_buf_adds(&j, "{\"seq\": \"1\", \"at\": \"2026-06-02T10:00:00Z\", \"action\": \"thing.done\", "
                     "\"detail\": {\"big\": \"");
    for (int i = 0; i < 1000000; i++)
        sbx_buf_addc(&j, 'x');
    sbx_buf_adds(&j, "\"");
    for (int i = 0; i < 10000; i++)
        sbx_buf_addf(&j, ", \"k%d\": %d", i, i);
    sbx_buf_adds(&j, "}}\n{\"seq\": \"2\", \"at\": \"2026-06-02T10:00:01Z\", \"action\": "
                     "\"network.rules_changed\", \"detail\": {\"allow\": {\"added\": [");
    for (int i = 0; i < 10000; i++)
        sbx_buf_addf(&j, "%s\"h%d.example\"", i ? ", " : "", i);
    sbx_buf_adds(&j, "]}}}\n");
    struct sbx_timeline *tl = load_audit(j.p, j.len);
    sbx_buf_free(&j);
    assert_int_equal(tl->n, 2);
    struct sbx_buf w = SBX_BUF_INIT;
    sbx_audit_change_words(tl, sbx_tl_at(tl, 0), &w);
    assert_true(w.len < 2048);
    assert_non_null(strstr(w.p, "big=xxxx"));
    assert_non_null(strstr(w.p, " more"));
    sbx_buf_clear(&w);
    sbx_audit_change_words(tl, sbx_tl_at(tl, 1), &w);
    assert_true(w.len < 4096);
    assert_non_null(strstr(w.p, "allow list: + h0.example, + h1.example"));
    assert_non_null(strstr(w.p, " more"));
    assert_true(sbx_audit_adds_host(tl, sbx_tl_at(tl, 1), "h5.example", 10));
    assert_false(sbx_audit_adds_host(tl, sbx_tl_at(tl, 1), "h5.exampl", 9));
    assert_false(sbx_audit_adds_host(tl, sbx_tl_at(tl, 0), "big", 3));
    sbx_buf_free(&w);
    drop(tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decode_cases),
        cmocka_unit_test(huge_detail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
