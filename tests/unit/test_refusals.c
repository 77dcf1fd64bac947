/* Refused hosts in what network clients print (the table in
 * tests/unit/cases/refusals.test), the fast pass in front of them, and hosts
 * named in command lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/simd.h"
#include "analyses/refusals.h"
#include "tests/unit/cases.h"

struct found {
    char host[256];
    const char *client;
    size_t n;
};

static void on_hit(const struct sbx_refused_hit *hit, void *ctx)
{
    struct found *f = ctx;
    if (f->n++ == 0) {
        memcpy(f->host, hit->host, hit->host_len);
        f->host[hit->host_len] = '\0';
        f->client = hit->client;
    }
}

struct refusal_run {
    struct sbx_netpat *p;
    struct sbx_netpat_scratch *s;
};

/* Each message is found, with its host and client, at every offset (the
 * fast pass works in 16- and 32-byte blocks: a keyword across a block edge
 * must still count). */
static void check_case(const struct test_case *c, void *ctx)
{
    struct refusal_run *run = ctx;
    if (strcmp(c->table, "refusal") != 0)
        case_fail(c, "no such table in this file's runner");
    case_want_fields(c, 3);
    for (size_t off = 0; off < 70; off++) {
        struct sbx_buf b = SBX_BUF_INIT;
        for (size_t k = 0; k < off; k++)
            sbx_buf_addc(&b, k % 7 == 6 ? '\n' : 'x');
        sbx_buf_add(&b, c->field[0], c->len[0]);
        sbx_buf_adds(&b, "\nmore output\n");
        if (!sbx_netpat_might_refuse(b.p, b.len))
            case_fail(c, "at offset %zu: the fast pass passes it over", off);
        struct found f = {0};
        sbx_netpat_refusals(run->p, run->s, b.p, b.len, on_hit, &f);
        if (!f.n)
            case_fail(c, "at offset %zu: no refusal found", off);
        if (strcmp(f.host, c->field[1]) != 0 || strcmp(f.client, c->field[2]) != 0)
            case_fail(c, "at offset %zu: host %s of %s, want %s of %s", off, f.host, f.client,
                      c->field[1], c->field[2]);
        sbx_buf_free(&b);
    }
}

/* The messages of tests/unit/cases/refusals.test. */
static void every_client_at_every_offset(void **state)
{
    (void)state;
    char err[256];
    struct refusal_run run = {sbx_netpat_new(err, sizeof err), NULL};
    assert_non_null(run.p);
    run.s = sbx_netpat_scratch_new(run.p);
    cases_run("refusals.test", check_case, &run);
    sbx_netpat_scratch_free(run.s);
    sbx_netpat_free(run.p);
}

static void clean_output_is_skipped(void **state)
{
    (void)state;
    static const char clean[] =
        "============================= test session starts ==============================\n"
        "platform linux -- Python 3.11.7, pytest-8.1.1, pluggy-1.4.0\n"
        "collected 40 items\n\ntests/test_leap.py ........................................ [100%]\n"
        "============================== 40 passed in 0.42s ==============================\n"
        "Successfully installed pandas-2.2.1 numpy-1.26.4\n";
    assert_false(sbx_netpat_might_refuse(clean, sizeof clean - 1));
    assert_false(sbx_netpat_might_refuse("", 0));
    assert_false(sbx_netpat_might_refuse("nn", 2));
    assert_true(sbx_netpat_might_refuse("xconnect", 8));
    assert_false(sbx_netpat_might_refuse("nnect", 5)); /* no 'o' before: not a keyword */
}

/* The vector pass and the scalar twin on generated text dense in the pair
 * letters, in bytes that share their low nibbles (. > N ^ ~ D T t $ 4 S C c
 * # 3, and bytes of 0x80 or more), and in the keywords' pieces, from every
 * start in a 64-byte block: the same answer for every slice (most short
 * ones hold one keyword or none, so a keyword missed shows). */
static void fast_pass_twins_agree(void **state)
{
    (void)state;
    static const char alphabet[] = "nndsoo.>N^~DTt$4SCc#3\xe3\xee\xf3\x84 \\\"ecd";
    static const char *const pieces[] = {"onnect", "esol", "ddrinfo", "onnec", "eso", "ddrinf", "nnect", "sol"};
    struct sbx_buf b = SBX_BUF_INIT;
    uint64_t x = 0x2545F4914F6CDD1DULL;
    while (b.len < 4096) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (x % 211 == 0)
            sbx_buf_adds(&b, pieces[(x >> 8) % (sizeof pieces / sizeof *pieces)]);
        else
            sbx_buf_addc(&b, alphabet[(x >> 8) % (sizeof alphabet - 1)]);
    }
    size_t yes = 0, no = 0;
    for (size_t start = 0; start < 64; start++)
        for (size_t len = 0; start + len <= b.len; len += len < 300 ? 1 : 1 + len / 3) {
            bool vector = sbx_netpat_might_refuse(b.p + start, len);
            sbx_simd_set_scalar(true);
            bool scalar = sbx_netpat_might_refuse(b.p + start, len);
            sbx_simd_set_scalar(false);
            if (vector != scalar)
                fail_msg("vector %d, scalar %d for %zu bytes from %zu", vector, scalar, len, start);
            *(scalar ? &yes : &no) += 1;
        }
    assert_true(yes > 100 && no > 100);
    sbx_buf_free(&b);
}

struct hosts {
    char all[512];
};

static void on_host(const char *h, size_t n, void *ctx)
{
    struct hosts *hs = ctx;
    strncat(hs->all, h, n);
    strcat(hs->all, " ");
}

static void hosts_in_commands(void **state)
{
    (void)state;
    char err[256];
    struct sbx_netpat *p = sbx_netpat_new(err, sizeof err);
    struct sbx_netpat_scratch *s = sbx_netpat_scratch_new(p);
    static const char cmd[] = "curl -u me:pw https://user:pw@api.example.org/v1 && git clone git@github.com:o/r.git"
                              " && pip install --index-url http://[::1]:8080/simple x; echo see https://pypi.org.";
    struct hosts hs = {""};
    assert_int_equal(sbx_netpat_hosts(p, s, cmd, sizeof cmd - 1, on_host, &hs), 4);
    assert_string_equal(hs.all, "api.example.org github.com [::1] pypi.org ");
    sbx_netpat_scratch_free(s);
    sbx_netpat_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_client_at_every_offset),
        cmocka_unit_test(clean_output_is_skipped),
        cmocka_unit_test(fast_pass_twins_agree),
        cmocka_unit_test(hosts_in_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
