/* Tests for analyses/netview: a wrapper log and a proxy log together give one
 * row per host: requests, denials, bytes, first and last time, refused
 * hosts first (from the proxy and from a client's message), the commands
 * that ran while a request was made and those that name the host (as a
 * whole host name), a proxy request outside every command, and the order.
 * Also sbx_text_names_host's edges. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/allowlist.h"
#include "analyses/netview.h"

/* 2026-11-29T10:00:00Z */
#define T0 1795946400LL
#define AT(s) ((T0 + (s)) * 1000000000LL)

static const char WRAPPER[] =
    "{\"at\": \"2026-11-29T10:00:02.400Z\", \"sandbox\": \"5e1f0a2b\", \"kind\": \"command\", "
    "\"command\": \"pip install requests\", \"exit\": 0, \"ms\": 2400, \"stdout\": "
    "\"Downloading https://files.pythonhosted.org/x.whl\\n\", \"stderr\": \"\"}\n"
    "{\"at\": \"2026-11-29T10:00:03.900Z\", \"sandbox\": \"5e1f0a2b\", \"kind\": \"command\", "
    "\"command\": \"curl -sS https://paste.example.com/api\", \"exit\": 56, \"ms\": 900, "
    "\"stdout\": \"\", \"stderr\": \"curl: (56) CONNECT tunnel failed, response 403\\n\"}\n"
    "{\"at\": \"2026-11-29T10:00:06.500Z\", \"sandbox\": \"5e1f0a2b\", \"kind\": \"command\", "
    "\"command\": \"python3 sync.py\", \"exit\": 1, \"ms\": 1500, \"stdout\": \"\", "
    "\"stderr\": \"curl: (6) Could not resolve host: Mirror.Example.ORG\\n\"}\n"
    "{\"at\": \"2026-11-29T10:00:09.000Z\", \"sandbox\": \"5e1f0a2b\", \"kind\": \"command\", "
    "\"command\": \"echo notpypi.org pypi.org.evil.com www.pypi.org\", \"exit\": 0, \"ms\": 1}\n";

static const char PROXY[] =
    "1795946400.420    120 10.0.0.7 TCP_MISS/200 1210 GET http://pypi.org/simple/requests/ - HIER_DIRECT/1.1.1.1 text/html\n"
    "1795946401.240    340 10.0.0.7 TCP_TUNNEL/200 64212 CONNECT files.pythonhosted.org:443 - HIER_DIRECT/1.1.1.2 -\n"
    "1795946401.580     80 10.0.0.7 TCP_MISS/200 980 GET http://pypi.org/simple/urllib3/ - HIER_DIRECT/1.1.1.1 text/html\n"
    "1795946403.200      0 10.0.0.7 TCP_DENIED/403 3490 CONNECT paste.example.com:443 - HIER_NONE/- text/html\n"
    "1795946405.900      0 10.0.0.7 TCP_DENIED/403 3502 CONNECT evil.example.net:443 - HIER_NONE/- text/html\n"
    "1795946406.200      0 10.0.0.7 TCP_DENIED/403 3502 CONNECT evil.example.net:443 - HIER_NONE/- text/html\n"
    "1795946420.003      3 10.0.0.7 TCP_MISS/503 3521 GET http://169.254.169.254/latest/ - HIER_NONE/- text/html\n";

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    struct sbx_netview nv;
};

static void load(struct sbx_timeline *tl, const struct sbx_format *fmt, const char *name,
                 const char *text, size_t n)
{
    char *copy = malloc(n);
    memcpy(copy, text, n);
    uint32_t src = sbx_timeline_add_source(tl, name, copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(tl, src, fmt, &lo);
}

static int setup(void **state)
{
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    load(&r->tl, &sbx_format_recorder, "agent-run.jsonl", WRAPPER, sizeof WRAPPER - 1);
    load(&r->tl, &sbx_format_squid, "access.log", PROXY, sizeof PROXY - 1);
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (r->tl.nskips || !sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err))
        return -1;
    sbx_netview_build(&r->nv, &r->tl, &r->sum);
    *state = r;
    return 0;
}

static int teardown(void **state)
{
    struct run *r = *state;
    sbx_netview_free(&r->nv);
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
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
        const char *s = sbx_text_get(&r->tl, h->commands[i], &h->commands[i]->u.cmd.command, &b, &n);
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
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    static const char log[] = "{\"at\": \"2026-11-29T10:00:02Z\", \"kind\": \"command\", \"command\": \"ls\", \"exit\": 0}\n";
    load(&tl, &sbx_format_recorder, "a.jsonl", log, sizeof log - 1);
    sbx_timeline_finish(&tl);
    struct sbx_netview nv;
    sbx_netview_build(&nv, &tl, NULL);
    assert_int_equal(nv.n, 0);
    assert_null(sbx_netview_find(&nv, "pypi.org"));
    sbx_netview_free(&nv);
    sbx_timeline_free(&tl);
}

/* Names in output as the recorder keeps it (JSON-escaped): after a \n or a
 * colour escape, a \u escape spelling part of the name (decoded), a host
 * with no dot; and what is not a name. */
static void names_through_escapes(void **state)
{
    (void)state;
    static const char log[] =
        "{\"at\": \"2026-11-29T10:00:01Z\", \"sandbox\": \"s\", \"kind\": \"command\", \"command\": "
        "\"curl http://localhost:8000/ https://pypi.org/ https://api.github.com/ http://mirror.example.org/\", "
        "\"exit\": 0}\n"
        "{\"at\": \"2026-11-29T10:00:02Z\", \"sandbox\": \"s\", \"kind\": \"command\", \"command\": \"a\", "
        "\"exit\": 0, \"stdout\": \"see\\npypi.org\\n\\u001b[32mapi.github.com\\u001b[0m\\nlocalhost\\n\"}\n"
        "{\"at\": \"2026-11-29T10:00:03Z\", \"sandbox\": \"s\", \"kind\": \"command\", \"command\": \"b\", "
        "\"exit\": 0, \"stdout\": \"www.pypi.org notlocalhost localhost.example api.github.community\"}\n"
        "{\"at\": \"2026-11-29T10:00:04Z\", \"sandbox\": \"s\", \"kind\": \"command\", \"command\": \"c\", "
        "\"exit\": 0, \"stderr\": \"MIRROR.EXAMPLE.ORG and \\u006dirror.example.org and LOCALHOST\"}\n"
        "{\"at\": \"2026-11-29T10:00:05Z\", \"sandbox\": \"s\", \"kind\": \"command\", \"command\": \"d\", "
        "\"exit\": 0, \"stdout\": \"a\\\\npypi.org is a literal backslash-n before it\"}\n";
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    load(&tl, &sbx_format_recorder, "a.jsonl", log, sizeof log - 1);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.nskips, 0);
    struct sbx_summary sum;
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(&tl, &so, &sum, err, sizeof err));
    struct sbx_netview nv;
    sbx_netview_build(&nv, &tl, &sum);
    /* the curl names all four; a names three of them; c names the mirror twice */
    const struct sbx_nethost *h = sbx_netview_find(&nv, "pypi.org");
    assert_non_null(h);
    assert_int_equal(h->named, 2); /* the curl and a; not b (www.), not d (\\n is text) */
    h = sbx_netview_find(&nv, "api.github.com");
    assert_non_null(h);
    assert_int_equal(h->named, 2);
    h = sbx_netview_find(&nv, "localhost");
    assert_non_null(h);
    assert_int_equal(h->named, 3); /* the curl, a, and c's upper case */
    h = sbx_netview_find(&nv, "mirror.example.org");
    assert_non_null(h);
    assert_int_equal(h->named, 2); /* the curl, and c (in capitals, and through \u006d) */
    assert_int_equal(h->first, 1795946401LL * 1000000000LL);
    assert_int_equal(h->last, 1795946404LL * 1000000000LL);
    sbx_netview_free(&nv);
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
}

/* With an allow list: the hosts it lacks come after the refused ones. */
static void allow_list(void **state)
{
    (void)state;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    load(&tl, &sbx_format_recorder, "agent-run.jsonl", WRAPPER, sizeof WRAPPER - 1);
    load(&tl, &sbx_format_squid, "access.log", PROXY, sizeof PROXY - 1);
    sbx_timeline_finish(&tl);
    char err[256];
    static const char allow[] = "pypi.org\n*.pythonhosted.org\n";
    struct sbx_allowlist *al = sbx_allowlist_parse(allow, sizeof allow - 1, "allow.txt", err, sizeof err);
    assert_non_null(al);
    struct sbx_summary sum;
    struct sbx_summary_opts so = {.threads = 1, .allow = al};
    assert_true(sbx_summarize(&tl, &so, &sum, err, sizeof err));
    struct sbx_netview nv;
    sbx_netview_build(&nv, &tl, &sum);
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
    sbx_timeline_free(&tl);
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
