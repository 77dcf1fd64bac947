/* The proxy's requests in the summary: per-host counts and bytes (most
 * requests first), hosts reached, and denials as refused hosts with the
 * request as evidence, merged with a refusal a command's output showed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/summary.h"
#include "tests/unit/loadtest.h"

static const char proxy_log[] =
    "1795942225.114     13 127.0.0.1 TCP_MISS/200 428 GET http://pypi.internal:8081/simple/ - HIER_DIRECT/127.0.0.1 text/html\n"
    "1795942225.390      9 127.0.0.1 TCP_MISS/200 550 GET http://pypi.internal:8081/simple/x/ - HIER_DIRECT/127.0.0.1 text/html\n"
    "1795942228.635      0 127.0.0.1 TCP_DENIED/403 3502 GET http://paste.example.com/raw/8f2k - HIER_NONE/- text/html\n"
    "1795942229.146      0 127.0.0.1 TCP_DENIED/403 3490 CONNECT paste.example.com:443 - HIER_NONE/- text/html\n"
    "1795942237.943      1 127.0.0.1 NONE_NONE/000 0 GET http://gone.internal/ - HIER_NONE/- -\n";

static void per_host(void **state)
{
    (void)state;
    struct sbx_timeline *tl = loadtest_bytes(&sbx_format_squid, "access.log", proxy_log,
                                             sizeof proxy_log - 1, 1, 0);
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
    assert_int_equal(sum.nproxy_hosts, 3);
    /* most requests first, then by name */
    assert_string_equal(sbx_str(tl, sum.proxy_hosts[0].host), "paste.example.com");
    assert_int_equal(sum.proxy_hosts[0].requests, 2);
    assert_int_equal(sum.proxy_hosts[0].denied, 2);
    assert_string_equal(sbx_str(tl, sum.proxy_hosts[1].host), "pypi.internal");
    assert_int_equal(sum.proxy_hosts[1].bytes_in, 428 + 550);
    assert_int_equal(sum.proxy_hosts[2].unreached, 1);
    /* reached: pypi only; the denied host is refused, once, with both requests counted */
    assert_int_equal(sum.hosts.n, 1);
    assert_string_equal(sum.hosts.s[0], "pypi.internal");
    assert_int_equal(sum.nrefused, 1);
    assert_string_equal(sum.refused[0].host, "paste.example.com");
    assert_int_equal(sum.refused[0].count, 2);
    assert_non_null(strstr(sum.refused[0].evidence, "TCP_DENIED/403 GET http://paste.example.com/raw/8f2k"));
    assert_string_equal(sum.refused[0].pattern, "proxy");
    sbx_summary_free(&sum);
    loadtest_drop(tl);
}

/* A host a command's output showed refused and the proxy denied too: one
 * refusal, every sighting counted, the earliest as evidence. */
static void merged_with_output(void **state)
{
    (void)state;
    static const char log[] =
        "{\"at\": \"2026-11-29T08:50:20.000Z\", \"kind\": \"command\", \"command\": "
        "\"curl -fsS https://paste.example.com/x\", \"exit\": 6, \"ms\": 5, \"stdout\": \"\", "
        "\"stderr\": \"curl: (6) Could not resolve host: paste.example.com\\n\"}\n";
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    char *a = malloc(sizeof log), *b = malloc(sizeof proxy_log);
    memcpy(a, log, sizeof log);
    memcpy(b, proxy_log, sizeof proxy_log);
    uint32_t s0 = sbx_timeline_add_source(&tl, "agent-run.jsonl", a, sizeof log - 1, SBX_DATA_HEAP);
    uint32_t s1 = sbx_timeline_add_source(&tl, "access.log", b, sizeof proxy_log - 1, SBX_DATA_HEAP);
    sbx_load_source(&tl, s0, &sbx_format_recorder, NULL);
    sbx_load_source(&tl, s1, &sbx_format_squid, NULL);
    sbx_timeline_finish(&tl);
    struct sbx_summary sum;
    char err[160];
    assert_true(sbx_summarize(&tl, NULL, &sum, err, sizeof err));
    assert_int_equal(sum.nrefused, 1);
    assert_int_equal(sum.refused[0].count, 3);
    assert_string_equal(sum.refused[0].pattern, "curl"); /* the command came first */
    assert_int_equal(sum.refused[0].event->kind, SBX_EV_COMMAND);
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
}

/* Thousands of distinct refused hosts, each denied twice and some also
 * reached: one refusal a host, every denial counted, the reached ones that
 * were refused dropped from the hosts reached (the per-host tables are
 * hashed: a linear search made this quadratic). */
static void many_refused_hosts(void **state)
{
    (void)state;
    for (size_t nhosts = 1000; nhosts <= 8000; nhosts *= 2) {
        struct sbx_buf log = SBX_BUF_INIT;
        for (int round = 0; round < 2; round++)
            for (size_t i = 0; i < nhosts; i++)
                sbx_buf_addf(&log, "%zu.000 0 127.0.0.1 TCP_DENIED/403 3400 CONNECT h%zu.example:443 - "
                                   "HIER_NONE/- text/html\n", 1795942225 + round * nhosts + i, i);
        for (size_t i = 0; i < 10; i++) /* reached, never refused */
            sbx_buf_addf(&log, "1795999999.000 1 127.0.0.1 TCP_MISS/200 10 GET http://ok%zu.example/ - "
                               "HIER_DIRECT/1.2.3.4 text/html\n", i);
        struct sbx_timeline *tl = loadtest_bytes(&sbx_format_squid, "access.log", log.p, log.len, 1, 0);
        struct sbx_summary sum;
        char err[160];
        assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
        assert_int_equal(sum.nrefused, nhosts);
        for (size_t i = 0; i < sum.nrefused; i++)
            assert_int_equal(sum.refused[i].count, 2);
        /* by first time: h0 first, the last one last */
        assert_string_equal(sum.refused[0].host, "h0.example");
        assert_int_equal(sum.hosts.n, 10);
        for (size_t i = 0; i < sum.hosts.n; i++)
            assert_non_null(strstr(sum.hosts.s[i], "ok"));
        sbx_summary_free(&sum);
        loadtest_drop(tl);
        sbx_buf_free(&log);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(per_host),
        cmocka_unit_test(merged_with_output),
        cmocka_unit_test(many_refused_hosts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
