/* The host allow list: its file's rules, its matching, and the analysis
 * that marks every event showing a host it lacks (proxy requests, refusals
 * in output, hosts in command lines, repeated command lines included). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyses/allowlist.h"
#include "query/query.h"
#include "analyses/summary.h"
#include "tests/unit/loadtest.h"

static struct sbx_allowlist *parse(const char *text, char *err, size_t errsz)
{
    return sbx_allowlist_parse(text, strlen(text), "allow.txt", err, errsz);
}

static bool allows(const struct sbx_allowlist *a, const char *host)
{
    return sbx_allowlist_allows(a, host, strlen(host));
}

static void matching(void **state)
{
    (void)state;
    char err[256] = "";
    struct sbx_allowlist *a = parse("# the hosts the agent needs\n"
                                    "\n"
                                    "pypi.org   # the index\n"
                                    "  *.PythonHosted.org.\n"
                                    "Registry.Internal:8081\r\n"
                                    "[2001:db8::1]:443\n"
                                    "10.0.0.7\n"
                                    "b\xC3\xBC" "cher.example\n"
                                    "pypi.org\n",
                                    err, sizeof err);
    assert_non_null(a);
    assert_string_equal(err, "");
    assert_int_equal(sbx_allowlist_size(a), 6); /* the repeated entry counts once */
    /* exact entries: any case, a trailing dot, any port */
    assert_true(allows(a, "pypi.org"));
    assert_true(allows(a, "PyPI.ORG."));
    assert_true(allows(a, "pypi.org:443"));
    assert_false(allows(a, "files.pypi.org")); /* no wildcard: not its subdomains */
    assert_false(allows(a, "pypi.org.evil.com"));
    assert_true(allows(a, "registry.internal"));
    assert_true(allows(a, "registry.internal:9999")); /* the entry's port is not a limit */
    /* a wildcard: the domain and every name under it, nothing else */
    assert_true(allows(a, "pythonhosted.org"));
    assert_true(allows(a, "files.pythonhosted.org"));
    assert_true(allows(a, "a.b.FILES.pythonhosted.org."));
    assert_false(allows(a, "evilpythonhosted.org"));
    assert_false(allows(a, "pythonhosted.org.evil.com"));
    /* addresses, with or without brackets and ports */
    assert_true(allows(a, "2001:db8::1"));
    assert_true(allows(a, "[2001:db8::1]"));
    assert_true(allows(a, "[2001:db8::1]:8443"));
    assert_false(allows(a, "2001:db8::2"));
    assert_true(allows(a, "10.0.0.7:80"));
    assert_false(allows(a, "10.0.0.70"));
    /* international names as given: bytes compared, only ASCII folded */
    assert_true(allows(a, "B\xC3\xBC" "CHER.example"));
    assert_false(allows(a, "xn--bcher-kva.example"));
    assert_false(allows(a, ""));
    assert_false(allows(a, "."));
    sbx_allowlist_free(a);

    /* an empty list allows nothing */
    a = parse("# nothing yet\n\n", err, sizeof err);
    assert_non_null(a);
    assert_int_equal(sbx_allowlist_size(a), 0);
    assert_false(allows(a, "pypi.org"));
    sbx_allowlist_free(a);
}

static void bad_entries(void **state)
{
    (void)state;
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"ok.example\nhttps://pypi.org/simple\n", "allow.txt:2: a URL: write only its host"},
        {"\n# c\npypi.org files.pythonhosted.org\n", "allow.txt:3: one host a line (this line holds a space)"},
        {"*\n", "allow.txt:1: '*' may only stand for the first label, as in *.example.com"},
        {"a.*.example.com\n", "allow.txt:1: '*' may only stand for the first label, as in *.example.com"},
        {"*example.com\n", "allow.txt:1: '*' may only stand for the first label, as in *.example.com"},
        {"*.\n", "allow.txt:1: '*.' needs a domain after it"},
        {"a..example.com\n", "allow.txt:1: an empty label (two dots, or a leading dot)"},
        {".example.com\n", "allow.txt:1: an empty label (two dots, or a leading dot)"},
        {"pypi.org:https\n", "allow.txt:1: a port must be a number"},
        {"[2001:db8::1\n", "allow.txt:1: an IPv6 address without its closing ']'"},
        {"[2001:db8::1]x\n", "allow.txt:1: only a port may follow ']' (as in [2001:db8::1]:443)"},
        {"pypi.org/simple\n", "allow.txt:1: not a host name (it holds a '/')"},
        {"user@pypi.org\n", "allow.txt:1: a character no host name holds"},
        {"ok\nx\001y\n", "allow.txt:2: a character no host name holds"},
        {"ok\n\nx\0y\n", "allow.txt:3: a NUL byte"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256] = "";
        size_t len = strlen(cases[i].text);
        if (strcmp(cases[i].text, "ok\n\nx") == 0)
            len = 9; /* the NUL case: the text goes on past the NUL */
        struct sbx_allowlist *a = sbx_allowlist_parse(cases[i].text, len, "allow.txt", err, sizeof err);
        assert_null(a);
        assert_string_equal(err, cases[i].message);
    }
    char long_name[600];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    char err[256];
    assert_null(parse(long_name, err, sizeof err));
    assert_string_equal(err, "allow.txt:1: longer than a host name can be (253 bytes)");
}

static void from_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/sbx-allowlist-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64], err[512];
    snprintf(path, sizeof path, "%s/allow", dir);
    assert_null(sbx_allowlist_load(path, err, sizeof err));
    char want[128];
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    assert_string_equal(err, want);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("*.internal\n\nexample..com\n", f);
    fclose(f);
    assert_null(sbx_allowlist_load(path, err, sizeof err));
    snprintf(want, sizeof want, "%s:3: an empty label (two dots, or a leading dot)", path);
    assert_string_equal(err, want);
    f = fopen(path, "w");
    fputs("*.internal", f); /* no final newline */
    fclose(f);
    struct sbx_allowlist *a = sbx_allowlist_load(path, err, sizeof err);
    assert_non_null(a);
    assert_true(allows(a, "pypi.internal"));
    sbx_allowlist_free(a);
    unlink(path);
    rmdir(dir);
}

static const char proxy_log[] =
    "1795942225.114     13 127.0.0.1 TCP_MISS/200 428 GET http://pypi.internal:8081/simple/ - HIER_DIRECT/127.0.0.1 text/html\n"
    "1795942228.635      0 127.0.0.1 TCP_DENIED/403 3502 GET http://paste.example.com/raw/8f2k - HIER_NONE/- text/html\n"
    "1795942229.146      0 127.0.0.1 TCP_DENIED/403 3490 CONNECT paste.example.com:443 - HIER_NONE/- text/html\n"
    "1795942230.000      5 127.0.0.1 TCP_TUNNEL/200 9000 CONNECT github.com:443 - HIER_DIRECT/140.82.1.1 -\n";

/* Three commands: one names an unlisted host (twice: the second line is
 * the same command, which the analysis does not scan again), one shows a
 * refusal of another, one names only listed hosts. */
static const char wrapper_log[] =
    "{\"at\": \"2026-11-29T08:50:20.000Z\", \"kind\": \"command\", \"command\": "
    "\"git clone https://gitlab.example.org/x.git\", \"exit\": 0, \"ms\": 5, \"stdout\": \"\", \"stderr\": \"\"}\n"
    "{\"at\": \"2026-11-29T08:50:21.000Z\", \"kind\": \"command\", \"command\": "
    "\"git clone https://gitlab.example.org/x.git\", \"exit\": 0, \"ms\": 5, \"stdout\": \"\", \"stderr\": \"\"}\n"
    "{\"at\": \"2026-11-29T08:50:22.000Z\", \"kind\": \"command\", \"command\": "
    "\"python3 fetch.py\", \"exit\": 6, \"ms\": 5, \"stdout\": \"\", "
    "\"stderr\": \"curl: (6) Could not resolve host: paste.example.com\\n\"}\n"
    "{\"at\": \"2026-11-29T08:50:23.000Z\", \"kind\": \"command\", \"command\": "
    "\"pip download --index-url http://pypi.internal:8081/simple x\", \"exit\": 0, \"ms\": 5, "
    "\"stdout\": \"\", \"stderr\": \"\"}\n";

static void load_run(struct sbx_timeline *tl)
{
    sbx_timeline_init(tl);
    char *a = malloc(sizeof wrapper_log), *b = malloc(sizeof proxy_log);
    memcpy(a, wrapper_log, sizeof wrapper_log);
    memcpy(b, proxy_log, sizeof proxy_log);
    uint32_t s0 = sbx_timeline_add_source(tl, "agent-run.jsonl", a, sizeof wrapper_log - 1, SBX_DATA_HEAP);
    uint32_t s1 = sbx_timeline_add_source(tl, "access.log", b, sizeof proxy_log - 1, SBX_DATA_HEAP);
    sbx_load_source(tl, s0, &sbx_format_recorder, NULL);
    sbx_load_source(tl, s1, &sbx_format_squid, NULL);
    sbx_timeline_finish(tl);
}

/* The events marked, as their timeline positions from 1 ("1 3 4"). */
static const char *marked(const struct sbx_timeline *tl, char *buf, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_tl_at(tl, i)->findings & SBX_F_UNLISTED_HOST)
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%zu", buf[0] ? " " : "", i + 1);
    return buf;
}

static void findings(void **state)
{
    (void)state;
    char err[256], buf[128];
    struct sbx_allowlist *a = parse("*.internal\ngithub.com\n", err, sizeof err);
    assert_non_null(a);
    for (int threads = 1; threads <= 2; threads++) {
        struct sbx_timeline tl;
        load_run(&tl);
        struct sbx_summary sum;
        struct sbx_summary_opts opts = {.threads = threads, .allow = a};
        assert_true(sbx_summarize(&tl, &opts, &sum, err, sizeof err));
        assert_true(sum.allow_list);
        /* by first sighting: the clone (twice), then paste (a refusal, then the proxy twice) */
        assert_int_equal(sum.nunlisted, 2);
        assert_string_equal(sum.unlisted[0].host, "gitlab.example.org");
        assert_int_equal(sum.unlisted[0].events, 2);
        assert_int_equal(sum.unlisted[0].first->start, sbx_tl_at(&tl, 0)->start);
        assert_string_equal(sum.unlisted[1].host, "paste.example.com");
        assert_int_equal(sum.unlisted[1].events, 3);
        assert_int_equal(sum.unlisted[1].first->kind, SBX_EV_COMMAND);
        assert_ptr_equal(sum.unlisted[1].first, sbx_tl_at(&tl, 2));
        /* proxy: 08:50:25 pypi, 28 and 29 paste, 30 github; commands 20, 21, 22, 23 */
        assert_string_equal(marked(&tl, buf, sizeof buf), "1 2 3 6 7");
        /* the query word */
        struct sbx_query *q = sbx_query_compile(SBX_QUERY_FILTER, "unlisted", 8, NULL, err, sizeof err);
        assert_non_null(q);
        uint32_t *hits = NULL;
        assert_int_equal(sbx_query_run(q, &tl, NULL, 0, &hits, NULL), 5);
        free(hits);
        sbx_query_free(q);
        sbx_summary_free(&sum);
        sbx_timeline_free(&tl);
    }
    sbx_allowlist_free(a);

    /* without a list: no finding, and the summary says none was given */
    struct sbx_timeline tl;
    load_run(&tl);
    struct sbx_summary sum;
    assert_true(sbx_summarize(&tl, NULL, &sum, err, sizeof err));
    assert_false(sum.allow_list);
    assert_int_equal(sum.nunlisted, 0);
    assert_string_equal(marked(&tl, buf, sizeof buf), "");
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
}

/* Thousands of commands, split between threads, most of them repeats the
 * analysis does not scan again: every one that names the host is marked. */
static void many_repeats(void **state)
{
    (void)state;
    struct sbx_buf log = SBX_BUF_INIT;
    enum { N = 6000 };
    for (int i = 0; i < N; i++)
        sbx_buf_addf(&log,
                     "{\"at\": \"2026-11-29T08:%02d:%02d.%03dZ\", \"kind\": \"command\", \"command\": "
                     "\"%s\", \"exit\": 0, \"ms\": 1, \"stdout\": \"\", \"stderr\": \"\"}\n",
                     i / 6000, i / 100 % 60, i % 100 * 10,
                     i % 3 == 0 ? "curl -s https://Upload.Example.NET/x" : "curl -s https://pypi.internal/y");
    char err[256];
    struct sbx_allowlist *a = parse("*.internal\n", err, sizeof err);
    for (int threads = 1; threads <= 4; threads *= 2) {
        struct sbx_timeline *tl = loadtest_bytes(&sbx_format_recorder, "agent-run.jsonl", log.p,
                                                 log.len, threads, 1);
        assert_int_equal(tl->n, N);
        struct sbx_summary sum;
        struct sbx_summary_opts opts = {.threads = threads, .allow = a};
        assert_true(sbx_summarize(tl, &opts, &sum, err, sizeof err));
        assert_int_equal(sum.nunlisted, 1);
        assert_string_equal(sum.unlisted[0].host, "upload.example.net");
        assert_int_equal(sum.unlisted[0].events, N / 3);
        assert_ptr_equal(sum.unlisted[0].first, sbx_tl_at(tl, 0));
        for (size_t i = 0; i < tl->n; i++)
            assert_int_equal(!!(sbx_tl_at(tl, i)->findings & SBX_F_UNLISTED_HOST), i % 3 == 0);
        sbx_summary_free(&sum);
        loadtest_drop(tl);
    }
    sbx_allowlist_free(a);
    sbx_buf_free(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matching),
        cmocka_unit_test(bad_entries),
        cmocka_unit_test(from_file),
        cmocka_unit_test(findings),
        cmocka_unit_test(many_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
