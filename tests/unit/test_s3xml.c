/* Tests for base/s3xml: ListObjectsV2 pages and error answers, good and
 * hostile, as tables in tests/unit/cases/s3xml.test (each page rendered as
 * "key|etag|size;" entries, "prefix:P;" prefixes and "more:TOKEN" or "end";
 * a refusal as "refused: " and the reason); and the page bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/s3xml.h"
#include "tests/unit/cases.h"

static void render_list(const char *xml, size_t len, struct sbx_buf *out)
{
    struct sbx_s3_page p;
    char err[160];
    if (!sbx_s3xml_list(xml, len, &p, err, sizeof err)) {
        sbx_buf_addf(out, "refused: %s", err);
        assert_null(p.entries);
        return;
    }
    for (size_t i = 0; i < p.n; i++)
        sbx_buf_addf(out, "%s|%s|%llu;", p.entries[i].key, p.entries[i].etag ? p.entries[i].etag : "-",
                     (unsigned long long)p.entries[i].size);
    for (size_t i = 0; i < p.nprefixes; i++)
        sbx_buf_addf(out, "prefix:%s;", p.prefixes[i]);
    if (p.truncated)
        sbx_buf_addf(out, "more:%s", p.next_token);
    else
        sbx_buf_adds(out, "end");
    sbx_s3xml_page_free(&p);
}

static void render_error(const char *xml, size_t len, struct sbx_buf *out)
{
    struct sbx_s3_error e;
    if (!sbx_s3xml_error(xml, len, &e)) {
        sbx_buf_adds(out, "not an error");
        return;
    }
    sbx_buf_addf(out, "%s|%s|%s|%s", e.code, e.message ? e.message : "-", e.region ? e.region : "-",
                 e.endpoint ? e.endpoint : "-");
    sbx_s3xml_error_free(&e);
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 2);
    struct sbx_buf got = SBX_BUF_INIT;
    if (strcmp(c->table, "list") == 0)
        render_list(c->field[0], c->len[0], &got);
    else if (strcmp(c->table, "error") == 0)
        render_error(c->field[0], c->len[0], &got);
    else
        case_fail(c, "no such table in this file's runner");
    sbx_buf_addc(&got, '\0');
    if (strcmp(got.p, c->field[1]) != 0)
        case_fail(c, "got %s, want %s", got.p, c->field[1]);
    sbx_buf_free(&got);
}

static void test_cases(void **state)
{
    (void)state;
    assert_true(cases_run("s3xml.test", check_case, NULL) >= 30);
}

/* A page of exactly the bound is read; one more entry is refused. */
static void test_entry_bound(void **state)
{
    (void)state;
    for (size_t n = SBX_S3XML_MAX_ENTRIES; n <= SBX_S3XML_MAX_ENTRIES + 1; n++) {
        struct sbx_buf x = SBX_BUF_INIT;
        sbx_buf_adds(&x, "<ListBucketResult><IsTruncated>false</IsTruncated>");
        for (size_t i = 0; i < n; i++)
            sbx_buf_addf(&x, "<Contents><Key>k%zu</Key><Size>%zu</Size></Contents>", i, i);
        sbx_buf_adds(&x, "</ListBucketResult>");
        struct sbx_s3_page p;
        char err[160];
        bool ok = sbx_s3xml_list(x.p, x.len, &p, err, sizeof err);
        assert_int_equal(ok, n == SBX_S3XML_MAX_ENTRIES);
        if (ok) {
            assert_int_equal(p.n, n);
            assert_string_equal(p.entries[n - 1].key, "k9999");
        }
        sbx_s3xml_page_free(&p);
        sbx_buf_free(&x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_entry_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
