/* The Squid access.log importer: native lines with padded columns, the
 * Apache combined shape, refused and unreached requests, CONNECT and IPv6
 * hosts, the start taken back by the elapsed time, bad lines with their
 * reasons, and detection both ways; and the two logs a real Squid wrote
 * (tests/fixtures/squid, made by tests/fixtures/make-squid-fixture). */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/loadtest.h"

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/summary.h"

static struct sbx_timeline *load_bytes(const char *bytes, size_t n, int threads)
{
    return loadtest_bytes(&sbx_format_squid, "access.log", bytes, n, threads, 1);
}
#define LOAD(s) load_bytes((s), sizeof(s) - 1, 1)

static void drop(struct sbx_timeline *tl)
{
    loadtest_drop(tl);
}

static const char *skip_reason(const struct sbx_timeline *tl, uint32_t line)
{
    return loadtest_skip_reason(tl, line);
}

static void assert_url(const struct sbx_timeline *tl, const struct sbx_event *e, const char *url)
{
    assert_true(e->u.net.url.flags & SBX_TEXT_PRESENT);
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t len;
    const char *s = sbx_text_get(tl, e, &e->u.net.url, &scratch, &len);
    assert_int_equal(len, strlen(url));
    assert_memory_equal(s, url, len);
    sbx_buf_free(&scratch);
}

static const char NATIVE[] =
    "1795942225.114     13 127.0.0.1 TCP_MISS/200 428 GET http://PyPI.Internal:8081/simple/ - HIER_DIRECT/127.0.0.1 text/html\n"
    "1795942228.635      0 127.0.0.1 TCP_DENIED/403 3502 GET http://paste.example.com/raw/8f2k - HIER_NONE/- text/html\n"
    "1795942229.146      0 127.0.0.1 TCP_DENIED/403 3490 CONNECT paste.example.com:443 - HIER_NONE/- text/html\n"
    "1795942237.687   6005 10.0.0.7 TCP_DENIED/403 3566 GET http://169.254.169.254/latest/meta-data/ - HIER_NONE/- text/html\n"
    "1795942238.830      0 127.0.0.1 NONE_NONE/000 0 - error:transaction-end-before-headers - HIER_NONE/- -\n"
    "1795942237.944      1 127.0.0.1 TCP_MISS/503 3521 GET http://files.internal/ - HIER_NONE/- text/html\n"
    "1795942229.884      6 127.0.0.1 TCP_TUNNEL/200 504 CONNECT [2001:DB8::1]:443 - HIER_DIRECT/2001:db8::1 -\n"
    "1795942230.001      2 127.0.0.1 TCP_MISS/200 77 GET http://user:pw@[fe80::1]:8080/x?a=b - HIER_DIRECT/fe80::1 text/plain extra fields here\n"
    "1795942231.220      6 127.0.0.1 TCP_MISS/503 1874 GET http://files.internal:8081/data.csv - HIER_DIRECT/127.0.0.1 text/csv\r\n";

static void native_padded_columns(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(NATIVE);
    assert_int_equal(tl->nskips, 0);
    assert_int_equal(tl->n, 9);
    const struct sbx_event *e = loadtest_at_line(tl, 1);
    assert_int_equal(e->kind, SBX_EV_NETWORK);
    assert_int_equal(e->end, 1795942225114000000LL);
    assert_int_equal(e->start, e->end - 13 * 1000000LL);
    assert_string_equal(sbx_str(tl, e->u.net.host), "pypi.internal");
    assert_string_equal(sbx_str(tl, e->u.net.method), "GET");
    assert_string_equal(sbx_str(tl, e->u.net.result), "TCP_MISS");
    assert_string_equal(sbx_str(tl, e->u.net.client), "127.0.0.1");
    assert_string_equal(sbx_str(tl, e->label), "TCP_MISS");
    assert_int_equal(e->u.net.status, 200);
    assert_int_equal(e->u.net.bytes_in, 428);
    assert_int_equal(e->u.net.bytes_out, -1);
    assert_int_equal(e->u.net.flags, 0);
    assert_int_equal(e->findings, 0);
    assert_int_equal(e->sandbox, 0);
    assert_url(tl, e, "http://PyPI.Internal:8081/simple/");
    assert_false(e->u.net.url.flags & SBX_TEXT_UNUSUAL);
    /* the elapsed time of a refused metadata request: 6005 ms */
    e = loadtest_at_line(tl, 4);
    assert_int_equal(e->end - e->start, 6005 * 1000000LL);
    assert_string_equal(sbx_str(tl, e->u.net.host), "169.254.169.254");
    assert_string_equal(sbx_str(tl, e->u.net.client), "10.0.0.7");
    /* the carriage return of a CRLF line is no part of the MIME type or line */
    e = loadtest_at_line(tl, 9);
    const char *l = sbx_event_line(tl, e);
    assert_memory_equal(l + sbx_ev_line_len(e) - 9, " text/csv", 9);
    drop(tl);
}

static void denied_is_a_refused_host(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(NATIVE);
    const struct sbx_event *e = loadtest_at_line(tl, 2);
    assert_true(e->u.net.flags & SBX_NET_DENIED);
    assert_false(e->u.net.flags & SBX_NET_UNREACHED);
    assert_int_equal(e->findings, 0); /* the fact only: the summary refuses the host */
    assert_string_equal(sbx_str(tl, e->u.net.host), "paste.example.com");
    assert_int_equal(e->u.net.status, 403);
    assert_int_equal(e->start, e->end);
    /* refused CONNECT: the host without its port */
    e = loadtest_at_line(tl, 3);
    assert_int_equal(e->u.net.flags, SBX_NET_DENIED | SBX_NET_CONNECT);
    assert_string_equal(sbx_str(tl, e->u.net.host), "paste.example.com");
    assert_url(tl, e, "paste.example.com:443");
    /* the same host interned once (through the host cache or not) */
    assert_int_equal(loadtest_at_line(tl, 2)->u.net.host, e->u.net.host);
    /* no other line is refused */
    size_t refused = 0;
    for (size_t i = 0; i < tl->n; i++)
        refused += (sbx_tl_at(tl, i)->u.net.flags & SBX_NET_DENIED) != 0;
    assert_int_equal(refused, 3);
    drop(tl);
}

static void unreached(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(NATIVE);
    const struct sbx_event *e = loadtest_at_line(tl, 5); /* NONE_NONE/000 */
    assert_int_equal(e->u.net.flags, SBX_NET_UNREACHED);
    assert_int_equal(e->findings, 0);
    assert_int_equal(e->u.net.status, 0);
    assert_int_equal(e->u.net.host, 0);
    assert_string_equal(sbx_str(tl, e->u.net.method), "-");
    assert_url(tl, e, "error:transaction-end-before-headers");
    e = loadtest_at_line(tl, 6); /* HIER_NONE with 503 */
    assert_int_equal(e->u.net.flags, SBX_NET_UNREACHED);
    assert_int_equal(e->u.net.status, 503);
    e = loadtest_at_line(tl, 9); /* 503 from a host that was reached */
    assert_int_equal(e->u.net.flags, 0);
    drop(tl);
}

static void connect_and_ipv6(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(NATIVE);
    const struct sbx_event *e = loadtest_at_line(tl, 7);
    assert_int_equal(e->u.net.flags, SBX_NET_CONNECT);
    assert_string_equal(sbx_str(tl, e->u.net.host), "2001:db8::1");
    assert_string_equal(sbx_str(tl, e->u.net.method), "CONNECT");
    assert_url(tl, e, "[2001:DB8::1]:443");
    /* user info, brackets and port stripped; trailing fields tolerated */
    e = loadtest_at_line(tl, 8);
    assert_string_equal(sbx_str(tl, e->u.net.host), "fe80::1");
    assert_int_equal(e->u.net.bytes_in, 77);
    assert_url(tl, e, "http://user:pw@[fe80::1]:8080/x?a=b");
    drop(tl);
}

static const char COMBINED[] =
    "10.0.0.5 - alice [10/Oct/2026:13:55:36 +0000] \"GET http://Example.COM/a?q=1 HTTP/1.1\" 200 2326 "
    "\"http://ref.example/\" \"Mozilla/5.0 (say \\\"hi\\\" there)\" TCP_MISS:HIER_DIRECT\n"
    "10.0.0.5 - - [10/Oct/2026:15:55:36 +0200] \"CONNECT evil.example.net:443 HTTP/1.1\" 403 3490 "
    "\"-\" \"curl/8.5 \\\"x\\\"\" TCP_DENIED:HIER_NONE and more\n"
    "10.0.0.6 - - [29/Feb/2028:00:00:00 -0130] \"GET http://plain.example/ HTTP/1.0\" 200 - \"-\" \"-\"\n"
    "10.0.0.6 - - [01/Jan/2027:00:00:00 +0000] \"GET http://common.example/ HTTP/1.0\" 404 12\n";

static void combined(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(COMBINED);
    assert_int_equal(tl->nskips, 0);
    assert_int_equal(tl->n, 4);
    const struct sbx_event *e = loadtest_at_line(tl, 1);
    assert_int_equal(e->kind, SBX_EV_NETWORK);
    /* 2026-10-10T13:55:36Z */
    assert_int_equal(e->end, 1791640536LL * 1000000000);
    assert_int_equal(e->start, e->end);
    assert_string_equal(sbx_str(tl, e->u.net.host), "example.com");
    assert_string_equal(sbx_str(tl, e->u.net.method), "GET");
    assert_string_equal(sbx_str(tl, e->label), "GET");
    assert_string_equal(sbx_str(tl, e->u.net.result), "TCP_MISS");
    assert_string_equal(sbx_str(tl, e->u.net.client), "10.0.0.5");
    assert_int_equal(e->u.net.status, 200);
    assert_int_equal(e->u.net.bytes_in, 2326);
    assert_int_equal(e->u.net.bytes_out, -1);
    assert_int_equal(e->u.net.flags, 0);
    assert_url(tl, e, "http://Example.COM/a?q=1");
    /* the same instant written at +0200; a refusal from the trailing Squid codes */
    e = loadtest_at_line(tl, 2);
    assert_int_equal(e->end, 1791640536LL * 1000000000);
    assert_int_equal(e->u.net.flags, SBX_NET_DENIED | SBX_NET_CONNECT);
    assert_string_equal(sbx_str(tl, e->u.net.host), "evil.example.net");
    assert_string_equal(sbx_str(tl, e->label), "CONNECT");
    /* a leap day at -01:30, bytes "-", no Squid codes */
    e = loadtest_at_line(tl, 3);
    assert_int_equal(e->end, (1835395200LL + 5400) * 1000000000);
    assert_int_equal(e->u.net.bytes_in, -1);
    assert_int_equal(e->u.net.result, 0);
    /* the common format: no referer, no user agent */
    e = loadtest_at_line(tl, 4);
    assert_int_equal(e->u.net.status, 404);
    assert_string_equal(sbx_str(tl, e->u.net.host), "common.example");
    drop(tl);
}

struct bad {
    const char *line, *reason;
};

static void bad_lines(void **state)
{
    (void)state;
    static const struct bad cases[] = {
        {"1795942225.114 13 127.0.0.1 TCP_MISS/200 428 GET http://a/ - HIER_DIRECT/1.2.3.4",
         "missing field: MIME type"},
        {"1795942225.114", "missing field: elapsed time"},
        {"1795942225 13 127.0.0.1 TCP_MISS/200 428 GET http://a/ - HIER_DIRECT/- -",
         "the time is not seconds.milliseconds"},
        {"99999999999.000 13 127.0.0.1 TCP_MISS/200 428 GET http://a/ - HIER_DIRECT/- -",
         "the time is out of range"},
        {"1795942225.114 x13 127.0.0.1 TCP_MISS/200 428 GET http://a/ - HIER_DIRECT/- -",
         "the elapsed time is not a number"},
        {"1795942225.114 99999999999999 127.0.0.1 TCP_MISS/200 428 GET http://a/ - HIER_DIRECT/- -",
         "the elapsed time is out of range"},
        {"1795942225.114 13 127.0.0.1 TCP_MISS 428 GET http://a/ - HIER_DIRECT/- -",
         "the result/status is not CODE/STATUS"},
        {"1795942225.114 13 127.0.0.1 TCP_MISS/2x0 428 GET http://a/ - HIER_DIRECT/- -",
         "the HTTP status is not a number"},
        {"1795942225.114 13 127.0.0.1 TCP_MISS/2000 428 GET http://a/ - HIER_DIRECT/- -",
         "the HTTP status is out of range"},
        {"1795942225.114 13 127.0.0.1 TCP_MISS/200 -4 GET http://a/ - HIER_DIRECT/- -",
         "the byte count is not a number"},
        {"1795942225.114 13 127.0.0.1 TCP_MISS/200 99999999999999999999 GET http://a/ - HIER_DIRECT/- -",
         "the byte count is out of range"},
        {"10.0.0.5 - - [10/Oct/2026:13:55:36] \"GET http://a/ HTTP/1.1\" 200 1",
         "the time is not [dd/Mon/yyyy:HH:MM:SS +zzzz]"},
        {"10.0.0.5 - - [10/Okt/2026:13:55:36 +0000] \"GET http://a/ HTTP/1.1\" 200 1",
         "the time has no month name"},
        {"10.0.0.5 - - [31/Feb/2026:13:55:36 +0000] \"GET http://a/ HTTP/1.1\" 200 1",
         "the time is not a valid date and time"},
        {"10.0.0.5 - - [10/Oct/2026:13:55:36 +0000] GET", "missing field: quoted request"},
        {"10.0.0.5 - - [10/Oct/2026:13:55:36 +0000] \"GET http://a/ HTTP/1.1",
         "the request's quote is not closed"},
        {"10.0.0.5 - - [10/Oct/2026:13:55:36 +0000] \"GET http://a/ HTTP/1.1\"",
         "missing field: HTTP status"},
        {"10.0.0.5 - - [10/Oct/2026:13:55:36 +0000] \"GET http://a/ HTTP/1.1\" 200",
         "missing field: byte count"},
        {"10.0.0.5 - - [10/Oct/2026:13:55:36 +0000] \"GET http://a/ HTTP/1.1\" 200 1 \"-\" \"agent \\\"",
         "the user agent's quote is not closed"},
        {"10.0.0.5 - - [10/Oct/2026:13:55:36 +0000] \"GET http://a/ HTTP/1.1\" 200 1 http://ref/",
         "the referer is not quoted"},
    };
    size_t n = sizeof cases / sizeof cases[0];
    struct sbx_buf log = SBX_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        sbx_buf_add(&log, cases[i].line, strlen(cases[i].line));
        sbx_buf_addc(&log, '\n');
    }
    /* the rest loads */
    static const char good[] = "1795942225.114 13 127.0.0.1 TCP_MISS/200 428 GET http://a/ - HIER_DIRECT/- -\n";
    sbx_buf_add(&log, good, sizeof good - 1);
    struct sbx_timeline *tl = load_bytes(log.p, log.len, 1);
    assert_int_equal(tl->n, 1);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 0)), n + 1);
    assert_int_equal(tl->nskips, n);
    for (size_t i = 0; i < n; i++) {
        const char *r = skip_reason(tl, (uint32_t)(i + 1));
        assert_non_null(r);
        assert_string_equal(r, cases[i].reason);
    }
    drop(tl);
    sbx_buf_free(&log);
}

static void blank_lines_and_threads(void **state)
{
    (void)state;
    /* blank lines are no events and no skips; two threads agree with one */
    struct sbx_buf log = SBX_BUF_INIT;
    sbx_buf_add(&log, "\n   \n", 5);
    for (int i = 0; i < 200; i++) {
        sbx_buf_add(&log, NATIVE, sizeof NATIVE - 1);
        sbx_buf_add(&log, COMBINED, sizeof COMBINED - 1);
        sbx_buf_add(&log, "\t\r\n", 3);
    }
    struct sbx_timeline *one = load_bytes(log.p, log.len, 1), *two = load_bytes(log.p, log.len, 2);
    assert_int_equal(one->nskips, 0);
    assert_int_equal(one->n, 200 * 13);
    assert_int_equal(two->n, one->n);
    for (size_t i = 0; i < one->n; i++) {
        assert_int_equal(sbx_ev_line_no(sbx_tl_at(one, i)), sbx_ev_line_no(sbx_tl_at(two, i)));
        assert_int_equal(sbx_tl_at(one, i)->start, sbx_tl_at(two, i)->start);
        assert_string_equal(sbx_str(one, sbx_tl_at(one, i)->u.net.host),
                            sbx_str(two, sbx_tl_at(two, i)->u.net.host));
    }
    drop(one);
    drop(two);
    sbx_buf_free(&log);
}

static void unusual_url(void **state)
{
    (void)state;
    struct sbx_timeline *tl = LOAD(
        "1795942225.114 13 127.0.0.1 TCP_MISS/200 428 GET http://a/\xe2\x80\xae\x1b[0m - HIER_DIRECT/- -\n");
    assert_int_equal(tl->n, 1);
    assert_true(sbx_tl_at(tl, 0)->u.net.url.flags & SBX_TEXT_UNUSUAL);
    drop(tl);
}

#define DETECT(s) sbx_detect_format((s), sizeof(s) - 1)

static void detection(void **state)
{
    (void)state;
    assert_ptr_equal(DETECT(NATIVE), &sbx_format_squid);
    assert_ptr_equal(DETECT(COMBINED), &sbx_format_squid);
    /* a damaged first line does not hide the format */
    assert_ptr_equal(DETECT("garbage\n" "1795942225.114 13 127.0.0.1 TCP_MISS/200 428 GET http://a/ - "
                            "HIER_DIRECT/- -\n"),
                     &sbx_format_squid);
    /* a recorder log is the recorder's, and not squid */
    static const char recorder[] =
        "{\"at\": \"2026-11-29T08:38:48.291532+00:00\", \"sandbox\": \"b4d49ff8\", \"kind\": \"command\", "
        "\"command\": \"ls\", \"exit\": 0}\n";
    assert_ptr_equal(DETECT(recorder), &sbx_format_recorder);
    assert_false(sbx_format_squid.detect(recorder, sizeof recorder - 1));
    /* squid is not a recorder log */
    assert_false(sbx_format_recorder.detect(NATIVE, sizeof NATIVE - 1));
    assert_false(sbx_format_recorder.detect(COMBINED, sizeof COMBINED - 1));
    /* Runtime's JSON, as a page and as lines */
    static const char page[] =
        "{\n  \"commands\": [\n    {\"id\": \"c1\", \"sandboxId\": \"s1\", \"command\": \"ls\",\n"
        "     \"startedAt\": \"2026-11-29T08:38:48Z\", \"exitCode\": 0}\n  ]\n}\n";
    assert_false(sbx_format_squid.detect(page, sizeof page - 1));
    static const char events[] =
        "{\"type\": \"sandbox.started\", \"sandboxId\": \"s1\", \"at\": \"2026-11-29T08:38:48Z\"}\n"
        "[{\"type\": \"sandbox.stopped\"}]\n";
    assert_false(sbx_format_squid.detect(events, sizeof events - 1));
    /* text that is neither */
    assert_null(DETECT("hello world\nthis is a note\n"));
    assert_null(DETECT(""));
    assert_null(DETECT("\n\n  \n"));
}

/* ------------------------------------------------------- a real Squid's logs */

/* The path of tests/fixtures/squid/NAME: beside this file, or from the
 * project root when __FILE__ is relative to elsewhere. */
static void fixture_path(char *path, size_t size, const char *name)
{
    const char *me = __FILE__, *slash = strrchr(me, '/');
    int n = slash ? (int)(slash - me) : 0;
    snprintf(path, size, "%.*s%s../fixtures/squid/%s", n, me, slash ? "/" : "", name);
    FILE *probe = fopen(path, "r");
    if (probe)
        fclose(probe);
    else
        snprintf(path, size, "tests/fixtures/squid/%s", name);
}

/* What a native line says, read here with sscanf: independent of the importer. */
struct said {
    char result[32], method[16], url[512], host[256];
    int status;
    long long bytes, end_ms;
};

static bool read_native_line(const char *line, struct said *s)
{
    long long sec, ms;
    if (sscanf(line, "%lld.%3lld %*d %*s %31[^/]/%d %lld %15s %511s", &sec, &ms, s->result,
               &s->status, &s->bytes, s->method, s->url) != 7)
        return false;
    s->end_ms = sec * 1000 + ms;
    /* the host: after "://" (CONNECT: from the start) up to a port or path, lower case */
    const char *h = strstr(s->url, "://");
    h = h ? h + 3 : strcmp(s->method, "CONNECT") == 0 ? s->url : "";
    size_t k = 0;
    while (h[k] && h[k] != ':' && h[k] != '/' && k + 1 < sizeof s->host) {
        s->host[k] = (char)tolower((unsigned char)h[k]);
        k++;
    }
    s->host[k] = '\0';
    return true;
}

/* Every line of the native log, as it says. */
static size_t read_native(struct said *out, size_t max)
{
    char path[4096], line[2048];
    fixture_path(path, sizeof path, "native.log");
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    size_t n = 0;
    while (fgets(line, sizeof line, fp)) {
        assert_true(n < max);
        assert_true(read_native_line(line, &out[n]));
        n++;
    }
    fclose(fp);
    return n;
}

static struct sbx_timeline *load_fixture(const char *name)
{
    char path[4096];
    fixture_path(path, sizeof path, name);
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {path};
    assert_int_equal(sbx_load_paths(tl, paths, 1, NULL, &rep), 1);
    assert_int_equal(rep.nerrors, 0);
    sbx_load_report_free(&rep);
    assert_string_equal(tl->sources[0].format, "squid");
    assert_int_equal(tl->nskips, 0);
    return tl;
}

/* Per host, what the lines say: requests, denials and bytes. */
struct host_said {
    const char *host;
    size_t requests, denied;
    long long bytes;
};

static size_t hosts_said(const struct said *s, size_t n, struct host_said *hosts)
{
    size_t nh = 0;
    for (size_t i = 0; i < n; i++) {
        if (!s[i].host[0])
            continue;
        size_t h = 0;
        while (h < nh && strcmp(hosts[h].host, s[i].host) != 0)
            h++;
        if (h == nh)
            hosts[nh++] = (struct host_said){s[i].host, 0, 0, 0};
        hosts[h].requests++;
        hosts[h].denied += strcmp(s[i].result, "TCP_DENIED") == 0;
        hosts[h].bytes += s[i].bytes;
    }
    return nh;
}

/* The summary's proxy hosts and refusals are what the lines say. */
static void check_summary(struct sbx_timeline *tl, const struct host_said *hosts, size_t nh)
{
    struct sbx_summary sum;
    char err[256];
    assert_true(sbx_summarize(tl, NULL, &sum, err, sizeof err));
    assert_int_equal(sum.nproxy_hosts, nh);
    size_t nrefused = 0;
    for (size_t h = 0; h < nh; h++) {
        const struct sbx_host_stat *st = NULL;
        for (size_t i = 0; i < sum.nproxy_hosts; i++)
            if (strcmp(sbx_str(tl, sum.proxy_hosts[i].host), hosts[h].host) == 0)
                st = &sum.proxy_hosts[i];
        assert_non_null(st);
        assert_int_equal(st->requests, hosts[h].requests);
        assert_int_equal(st->denied, hosts[h].denied);
        assert_int_equal(st->bytes_in, hosts[h].bytes);
        bool refused = false, listed = false;
        for (size_t r = 0; r < sum.nrefused; r++)
            if (strcmp(sum.refused[r].host, hosts[h].host) == 0) {
                refused = true;
                assert_int_equal(sum.refused[r].count, hosts[h].denied);
            }
        for (size_t i = 0; i < sum.hosts.n; i++)
            listed |= strcmp(sum.hosts.s[i], hosts[h].host) == 0;
        assert_int_equal(refused, hosts[h].denied > 0);
        assert_int_equal(listed, hosts[h].denied < hosts[h].requests);
        nrefused += refused;
    }
    assert_int_equal(sum.nrefused, nrefused);
    sbx_summary_free(&sum);
}

/* The native log a real Squid wrote: one event per line with the line's time,
 * result, status, method, bytes and host; per host the summary counts what
 * the lines say. */
static void real_squid_native(void **state)
{
    (void)state;
    struct said said[64];
    size_t n = read_native(said, 64);
    struct sbx_timeline *tl = load_fixture("native.log");
    assert_int_equal(tl->n, n);
    size_t denials = 0, connects = 0;
    for (size_t i = 0; i < n; i++) {
        const struct sbx_event *e = loadtest_at_line(tl, (uint32_t)(i + 1));
        const struct said *s = &said[i];
        assert_int_equal(e->end, s->end_ms * 1000000);
        assert_string_equal(sbx_str(tl, e->u.net.result), s->result);
        assert_string_equal(sbx_str(tl, e->u.net.method), s->method);
        assert_string_equal(sbx_str(tl, e->u.net.host), s->host);
        assert_int_equal(e->u.net.status, s->status);
        assert_int_equal(e->u.net.bytes_in, s->bytes);
        assert_url(tl, e, s->url);
        bool denied = strcmp(s->result, "TCP_DENIED") == 0;
        assert_int_equal(!!(e->u.net.flags & SBX_NET_DENIED), denied);
        assert_int_equal(!!(e->u.net.flags & SBX_NET_CONNECT), strcmp(s->method, "CONNECT") == 0);
        assert_int_equal(!!(e->u.net.flags & SBX_NET_UNREACHED),
                         strcmp(s->result, "NONE_NONE") == 0 && s->status == 0);
        denials += denied;
        connects += strcmp(s->method, "CONNECT") == 0;
    }
    /* what the fixture maker asked for is there */
    assert_true(denials >= 3);
    assert_true(connects >= 1);
    struct host_said hosts[64];
    size_t nh = hosts_said(said, n, hosts);
    check_summary(tl, hosts, nh);
    loadtest_drop(tl);
}

/* The combined log of the same requests: the same hosts, statuses, bytes and
 * Squid codes (also after a user agent with quotes inside), times to the second. */
static void real_squid_combined(void **state)
{
    (void)state;
    struct said said[64];
    size_t n = read_native(said, 64);
    struct sbx_timeline *tl = load_fixture("combined.log");
    assert_int_equal(tl->n, n);
    for (size_t i = 0; i < n; i++) {
        const struct sbx_event *e = loadtest_at_line(tl, (uint32_t)(i + 1));
        const struct said *s = &said[i];
        assert_int_equal(e->end, s->end_ms / 1000 * 1000000000);
        assert_string_equal(sbx_str(tl, e->u.net.result), s->result);
        assert_string_equal(sbx_str(tl, e->u.net.host), s->host);
        assert_int_equal(e->u.net.status, s->status);
        assert_int_equal(e->u.net.bytes_in, s->bytes);
        assert_int_equal(!!(e->u.net.flags & SBX_NET_DENIED), strcmp(s->result, "TCP_DENIED") == 0);
        if (s->host[0]) {
            assert_string_equal(sbx_str(tl, e->u.net.method), s->method);
            assert_url(tl, e, s->url);
        }
    }
    /* a user agent with quotes inside is in the log, and was read past */
    char path[4096], line[2048];
    fixture_path(path, sizeof path, "combined.log");
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    bool quoted_agent = false;
    while (fgets(line, sizeof line, fp))
        quoted_agent |= strstr(line, "\"hi\"") != NULL;
    fclose(fp);
    assert_true(quoted_agent);
    struct host_said hosts[64];
    size_t nh = hosts_said(said, n, hosts);
    check_summary(tl, hosts, nh);
    loadtest_drop(tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(native_padded_columns),
        cmocka_unit_test(denied_is_a_refused_host),
        cmocka_unit_test(unreached),
        cmocka_unit_test(connect_and_ipv6),
        cmocka_unit_test(combined),
        cmocka_unit_test(bad_lines),
        cmocka_unit_test(blank_lines_and_threads),
        cmocka_unit_test(unusual_url),
        cmocka_unit_test(detection),
        cmocka_unit_test(real_squid_native),
        cmocka_unit_test(real_squid_combined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
