/* Tests for analyses/netview: a wrapper log and a proxy log together give one
 * row per host: requests, denials, bytes, first and last time, refused
 * hosts first (from the proxy and from a client's message), the commands
 * that ran while a request was made and those that name the host (as a
 * whole host name), a proxy request outside every command, and the order.
 * Also sbx_text_names_host's edges. The events are made here
 * (tests/unit/fixture.h), as the recorder and Squid's importer make them. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/allowlist.h"
#include "analyses/netview.h"
#include "tests/unit/fixture.h"

/* 2026-11-29T10:00:00Z */
#define T0 1795946400LL
#define AT(s) ((T0 + (s)) * 1000000000LL)
#define AT_MS(ms) (T0 * 1000000000LL + (ms) * FX_MS)

/* The wrapper's commands: their start and length (ms from T0), output. */
static const struct {
    int64_t start, ms;
    const char *command;
    int exit;
    const char *out, *err; /* NULL: none */
} WRAPPER[] = {
    {0, 2400, "pip install requests", 0, "Downloading https://files.pythonhosted.org/x.whl\n", ""},
    {3000, 900, "curl -sS https://paste.example.com/api", 56, "",
     "curl: (56) CONNECT tunnel failed, response 403\n"},
    {5000, 1500, "python3 sync.py", 1, "", "curl: (6) Could not resolve host: Mirror.Example.ORG\n"},
    {8999, 1, "echo notpypi.org pypi.org.evil.com www.pypi.org", 0, NULL, NULL},
};

/* The proxy's requests as Squid's native lines give them: the start (the
 * logged end less the elapsed time) and the elapsed ms, from T0. */
static const struct {
    int64_t start, ms;
    const char *host, *method, *url, *result;
    int status;
    int64_t bytes;
    unsigned flags;
} PROXY[] = {
    {300, 120, "pypi.org", "GET", "http://pypi.org/simple/requests/", "TCP_MISS", 200, 1210, 0},
    {900, 340, "files.pythonhosted.org", "CONNECT", "files.pythonhosted.org:443", "TCP_TUNNEL", 200,
     64212, SBX_NET_CONNECT},
    {1500, 80, "pypi.org", "GET", "http://pypi.org/simple/urllib3/", "TCP_MISS", 200, 980, 0},
    {3200, 0, "paste.example.com", "CONNECT", "paste.example.com:443", "TCP_DENIED", 403, 3490,
     SBX_NET_DENIED | SBX_NET_CONNECT},
    {5900, 0, "evil.example.net", "CONNECT", "evil.example.net:443", "TCP_DENIED", 403, 3502,
     SBX_NET_DENIED | SBX_NET_CONNECT},
    {6200, 0, "evil.example.net", "CONNECT", "evil.example.net:443", "TCP_DENIED", 403, 3502,
     SBX_NET_DENIED | SBX_NET_CONNECT},
    {20000, 3, "169.254.169.254", "GET", "http://169.254.169.254/latest/", "TCP_MISS", 503, 3521,
     SBX_NET_UNREACHED},
};

/* Both logs' events, in one timeline. */
static void both_logs(struct fixture *fx)
{
    fixture_init(fx, "agent-run.jsonl");
    for (size_t i = 0; i < sizeof WRAPPER / sizeof *WRAPPER; i++) {
        struct sbx_event *e = fixture_command(fx, "5e1f0a2b", AT_MS(WRAPPER[i].start),
                                              WRAPPER[i].ms, WRAPPER[i].command, WRAPPER[i].exit);
        if (WRAPPER[i].out)
            fixture_output(fx, e, WRAPPER[i].out, WRAPPER[i].err);
    }
    for (size_t i = 0; i < sizeof PROXY / sizeof *PROXY; i++) {
        struct sbx_event *e = fixture_request(fx, NULL, AT_MS(PROXY[i].start), PROXY[i].host);
        e->end = e->start + PROXY[i].ms * FX_MS;
        fixture_answer(fx, e, PROXY[i].method, PROXY[i].url, PROXY[i].result, PROXY[i].status,
                       PROXY[i].bytes, PROXY[i].flags);
    }
    fixture_finish(fx);
}

struct run {
    struct fixture fx;
    struct sbx_summary sum;
    struct sbx_netview nv;
};

static int setup(void **state)
{
    struct run *r = calloc(1, sizeof *r);
    both_logs(&r->fx);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (!sbx_summarize(&r->fx.tl, &so, &r->sum, err, sizeof err))
        return -1;
    sbx_netview_build(&r->nv, &r->fx.tl, &r->sum);
    *state = r;
    return 0;
}

static int teardown(void **state)
{
    struct run *r = *state;
    sbx_netview_free(&r->nv);
    sbx_summary_free(&r->sum);
    fixture_free(&r->fx);
    free(r);
    return 0;
}

static const struct sbx_nethost *host(const struct run *r, const char *name)
{
    const struct sbx_nethost *h = sbx_netview_find(&r->nv, name);
    if (!h)
        fail_msg("no host %s", name);
    return h;
}

static bool has_command(const struct run *r, const struct sbx_nethost *h, const char *prefix)
{
    struct sbx_buf b = SBX_BUF_INIT;
    bool yes = false;
    for (size_t i = 0; i < h->ncommands && !yes; i++) {
        size_t n;
        const char *s = sbx_text_get(&r->fx.tl, h->commands[i], &h->commands[i]->u.cmd.command, &b, &n);
        yes = n >= strlen(prefix) && memcmp(s, prefix, strlen(prefix)) == 0;
    }
    sbx_buf_free(&b);
    return yes;
}

static void counts_and_bytes(void **state)
{
    struct run *r = *state;
    const struct sbx_nethost *pypi = host(r, "pypi.org");
    assert_int_equal(pypi->requests, 2);
    assert_int_equal(pypi->denied, 0);
    assert_int_equal(pypi->bytes_in, 1210 + 980);
    assert_int_equal(pypi->bytes_out, -1); /* squid's native format does not say */
    assert_int_equal(pypi->first, AT(0) + 300000000LL);
    assert_int_equal(pypi->last, AT(1) + 580000000LL);
    assert_false(pypi->refused);
    const struct sbx_nethost *evil = host(r, "evil.example.net");
    assert_int_equal(evil->requests, 2);
    assert_int_equal(evil->denied, 2);
    assert_true(evil->refused);
    const struct sbx_nethost *meta = host(r, "169.254.169.254");
    assert_int_equal(meta->unreached, 1);
    assert_false(meta->refused);
    assert_int_equal(r->nv.requests, 7);
}

static void refused_first_then_requests(void **state)
{
    struct run *r = *state;
    const struct sbx_netview *nv = &r->nv;
    size_t i = 0;
    while (i < nv->n && nv->hosts[i].refused)
        i++;
    assert_int_equal(i, nv->refused);
    assert_int_equal(nv->refused, 3); /* paste and evil by the proxy, mirror by curl's message */
    for (size_t k = 1; k < nv->n; k++)
        if (nv->hosts[k].refused == nv->hosts[k - 1].refused)
            assert_true(nv->hosts[k].requests <= nv->hosts[k - 1].requests);
    /* the refused ones: most requests first */
    assert_string_equal(nv->hosts[0].host, "evil.example.net");
    const struct sbx_nethost *mirror = host(r, "mirror.example.org");
    assert_true(mirror->refused);
    assert_int_equal(mirror->requests, 0);
    assert_int_equal(mirror->refusals, 1);
    /* a host the proxy never saw shows when the command that named it ran */
    assert_int_equal(mirror->first, AT(5));
}

static void commands_that_touched(void **state)
{
    struct run *r = *state;
    /* (a) requests made while pip ran, and (b) pip's output names it */
    const struct sbx_nethost *files = host(r, "files.pythonhosted.org");
    assert_int_equal(files->linked, 1);
    assert_int_equal(files->ncommands, 1);
    assert_true(has_command(r, files, "pip install"));
    assert_int_equal(files->named, 1);
    /* (a) only: pip's text never names pypi.org */
    const struct sbx_nethost *pypi = host(r, "pypi.org");
    assert_int_equal(pypi->linked, 2);
    assert_int_equal(pypi->named, 0);
    assert_int_equal(pypi->ncommands, 1);
    /* evil: denied while python3 ran; paste: curl both ran and named it */
    assert_true(has_command(r, host(r, "evil.example.net"), "python3 sync.py"));
    const struct sbx_nethost *paste = host(r, "paste.example.com");
    assert_int_equal(paste->ncommands, 1);
    assert_int_equal(paste->linked, 1);
    assert_int_equal(paste->named, 1);
    /* no command ran at 10:00:20 */
    const struct sbx_nethost *meta = host(r, "169.254.169.254");
    assert_int_equal(meta->linked, 0);
    assert_int_equal(meta->ncommands, 0);
}

static void whole_host_names(void **state)
{
    (void)state;
    const char *h = "pypi.org";
    size_t n = strlen(h);
#define NAMES(s) sbx_text_names_host((s), strlen(s), h, n)
    assert_true(NAMES("pypi.org"));
    assert_true(NAMES("https://PyPI.org/simple"));
    assert_true(NAMES("see pypi.org."));
    assert_true(NAMES("user@pypi.org:443"));
    assert_false(NAMES("notpypi.org"));
    assert_false(NAMES("www.pypi.org"));
    assert_false(NAMES("pypi.org.evil.com"));
    assert_false(NAMES("pypi.org-mirror"));
    assert_false(NAMES("pypi.or"));
    assert_false(NAMES(""));
#undef NAMES
    assert_true(sbx_text_names_host("[2001:db8::1]:443", 17, "2001:db8::1", 11));
    assert_false(sbx_text_names_host("2001:db8::12", 12, "2001:db8::1", 11));
}

static void no_network(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "a.jsonl");
    fixture_command(&fx, NULL, AT(2), 0, "ls", 0);
    fixture_finish(&fx);
    struct sbx_netview nv;
    sbx_netview_build(&nv, &fx.tl, NULL);
    assert_int_equal(nv.n, 0);
    assert_null(sbx_netview_find(&nv, "pypi.org"));
    sbx_netview_free(&nv);
    fixture_free(&fx);
}

/* Names in output as the recorder keeps it (JSON-escaped): after a \n or a
 * colour escape, a \u escape spelling part of the name (decoded), a host
 * with no dot; and what is not a name. */
static void names_through_escapes(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "a.jsonl");
    fixture_command(&fx, "s", AT(1), 0,
                    "curl http://localhost:8000/ https://pypi.org/ https://api.github.com/ "
                    "http://mirror.example.org/", 0);
    struct sbx_event *e = fixture_command(&fx, "s", AT(2), 0, "a", 0);
    fixture_output_json(&fx, e, "see\\npypi.org\\n\\u001b[32mapi.github.com\\u001b[0m\\nlocalhost\\n", "");
    e = fixture_command(&fx, "s", AT(3), 0, "b", 0);
    fixture_output_json(&fx, e, "www.pypi.org notlocalhost localhost.example api.github.community", "");
    e = fixture_command(&fx, "s", AT(4), 0, "c", 0);
    fixture_output_json(&fx, e, "", "MIRROR.EXAMPLE.ORG and \\u006dirror.example.org and LOCALHOST");
    e = fixture_command(&fx, "s", AT(5), 0, "d", 0);
    fixture_output_json(&fx, e, "a\\\\npypi.org is a literal backslash-n before it", "");
    /* named only through \u escapes of ASCII (the first and the last ones
       of the range), and not through an escaped backslash before a u */
    e = fixture_command(&fx, "s", AT(6), 0, "e", 0);
    fixture_output_json(&fx, e, "get\\u0020api.github\\u002ecom and \\\\u0070ypi.org", "");
    e = fixture_command(&fx, "s", AT(7), 0, "f", 0);
    fixture_output_json(&fx, e, "\\u006dirror.example.org\\u007f", "");
    fixture_finish(&fx);
    struct sbx_summary sum;
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&fx.tl, &so, &sum, err, sizeof err));
    struct sbx_netview nv;
    sbx_netview_build(&nv, &fx.tl, &sum);
    /* the curl names all four; a names three of them; c names the mirror twice */
    const struct sbx_nethost *h = sbx_netview_find(&nv, "pypi.org");
    assert_non_null(h);
    assert_int_equal(h->named, 2); /* the curl and a; not b (www.), not d (\\n is text), not e */
    h = sbx_netview_find(&nv, "api.github.com");
    assert_non_null(h);
    assert_int_equal(h->named, 3); /* the curl, a, and e through \\u0020 and \\u002e */
    h = sbx_netview_find(&nv, "localhost");
    assert_non_null(h);
    assert_int_equal(h->named, 3); /* the curl, a, and c's upper case */
    h = sbx_netview_find(&nv, "mirror.example.org");
    assert_non_null(h);
    assert_int_equal(h->named, 3); /* the curl, c (in capitals), f (through \u006d) */
    assert_int_equal(h->first, 1795946401LL * 1000000000LL);
    assert_int_equal(h->last, 1795946407LL * 1000000000LL);
    sbx_netview_free(&nv);
    sbx_summary_free(&sum);
    fixture_free(&fx);
}

/* With an allow list: the hosts it lacks come after the refused ones. */
static void allow_list(void **state)
{
    (void)state;
    struct fixture fx;
    both_logs(&fx);
    char err[256];
    static const char allow[] = "pypi.org\n*.pythonhosted.org\n";
    struct sbx_allowlist *al = sbx_allowlist_parse(allow, sizeof allow - 1, "allow.txt", err, sizeof err);
    assert_non_null(al);
    struct sbx_summary sum;
    struct sbx_summary_opts so = {.threads = 1, .allow = al};
    assert_true(sbx_summarize(&fx.tl, &so, &sum, err, sizeof err));
    struct sbx_netview nv;
    sbx_netview_build(&nv, &fx.tl, &sum);
    assert_true(nv.unlisted > 0);
    size_t i = 0;
    while (i < nv.n && nv.hosts[i].refused)
        i++;
    assert_true(nv.hosts[i].unlisted);
    assert_false(sbx_netview_find(&nv, "pypi.org")->unlisted);
    assert_false(sbx_netview_find(&nv, "files.pythonhosted.org")->unlisted);
    assert_true(sbx_netview_find(&nv, "169.254.169.254")->unlisted);
    for (size_t k = 1; k < nv.n; k++) /* refused, then unlisted, then the rest */
        assert_true(nv.hosts[k - 1].refused >= nv.hosts[k].refused &&
                    (nv.hosts[k - 1].refused != nv.hosts[k].refused ||
                     nv.hosts[k - 1].unlisted >= nv.hosts[k].unlisted));
    sbx_netview_free(&nv);
    sbx_summary_free(&sum);
    sbx_allowlist_free(al);
    fixture_free(&fx);
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(counts_and_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(refused_first_then_requests, setup, teardown),
        cmocka_unit_test_setup_teardown(commands_that_touched, setup, teardown),
        cmocka_unit_test(whole_host_names),
        cmocka_unit_test(no_network),
        cmocka_unit_test(names_through_escapes),
        cmocka_unit_test(allow_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
