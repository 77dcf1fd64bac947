/* The filter's host:NAME term and searching proxy lines (query/query): a
 * network event to the host, and the commands whose texts name it as a
 * whole host name; not www.NAME or NAMEx; case; combined and negated;
 * a search finds a proxy line by its URL; highlighting finds the host. */
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
#include "query/query.h"

static const char WRAPPER[] =
    "{\"at\": \"2026-11-29T10:00:02Z\", \"sandbox\": \"s1\", \"kind\": \"command\", "
    "\"command\": \"curl https://Paste.Example.com/x\", \"exit\": 56, \"ms\": 900}\n"
    "{\"at\": \"2026-11-29T10:00:04Z\", \"sandbox\": \"s1\", \"kind\": \"command\", "
    "\"command\": \"curl https://www.paste.example.com/ https://paste.example.community/\", \"exit\": 0}\n"
    "{\"at\": \"2026-11-29T10:00:05Z\", \"sandbox\": \"s1\", \"kind\": \"command\", "
    "\"command\": \"python3 up.py\", \"exit\": 1, \"stderr\": \"Could not resolve host: paste.example.com.\\n\"}\n";

static const char PROXY[] =
    "1795946403.200      0 10.0.0.7 TCP_DENIED/403 3490 CONNECT paste.example.com:443 - HIER_NONE/- text/html\n"
    "1795946403.300      5 10.0.0.7 TCP_MISS/200 99 GET http://pypi.org/simple/requests/ - HIER_DIRECT/1.1.1.1 text/html\n";

static void load(struct sbx_timeline *tl, const struct sbx_format *fmt, const char *name, const char *s,
                 size_t n)
{
    char *copy = malloc(n);
    memcpy(copy, s, n);
    uint32_t src = sbx_timeline_add_source(tl, name, copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(tl, src, fmt, &lo);
}

/* The matching events as "source:line" words, in timeline order. */
static char *matches(const struct sbx_timeline *tl, enum sbx_query_kind kind, const char *text)
{
    char err[256];
    struct sbx_query *q = sbx_query_compile(kind, text, strlen(text), NULL, err, sizeof err);
    if (!q)
        fail_msg("%s: %s", text, err);
    uint32_t *out = NULL;
    size_t n = sbx_query_run(q, tl, NULL, 0, &out, NULL);
    struct sbx_buf b = SBX_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, out[i]);
        sbx_buf_addf(&b, "%s%c%u", i ? " " : "", tl->sources[e->source].format[0], sbx_ev_line_no(e));
    }
    free(out);
    sbx_query_free(q);
    char *s = sbx_xstrndup(b.p ? b.p : "", b.len);
    sbx_buf_free(&b);
    return s;
}

#define assert_matches(tl, kind, text, want)                                                   \
    do {                                                                                       \
        char *got_ = matches((tl), (kind), (text));                                            \
        if (strcmp(got_, (want)) != 0)                                                         \
            fail_msg("%s: got [%s], wanted [%s]", (text), got_, (want));                       \
        free(got_);                                                                            \
    } while (0)

static void host_term(void **state)
{
    (void)state;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    load(&tl, &sbx_format_recorder, "run.jsonl", WRAPPER, sizeof WRAPPER - 1);
    load(&tl, &sbx_format_squid, "access.log", PROXY, sizeof PROXY - 1);
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, 5);
    /* r1 names it in another case, r3's stderr with a full stop after it,
     * s1 is the proxy's denial; r2 names only longer hosts */
    assert_matches(&tl, SBX_QUERY_FILTER, "host:paste.example.com", "r1 s1 r3");
    assert_matches(&tl, SBX_QUERY_FILTER, "host:PASTE.example.com", "r1 s1 r3");
    assert_matches(&tl, SBX_QUERY_FILTER, "host:paste.example.com kind:network", "s1");
    assert_matches(&tl, SBX_QUERY_FILTER, "host:paste.example.com !kind:network failed", "r1 r3");
    assert_matches(&tl, SBX_QUERY_FILTER, "!host:paste.example.com", "s2 r2");
    assert_matches(&tl, SBX_QUERY_FILTER, "host:pypi.org", "s2");
    assert_matches(&tl, SBX_QUERY_FILTER, "host:example.com", "");
    /* a search reads a proxy line's host and URL */
    assert_matches(&tl, SBX_QUERY_SEARCH, "simple/requests", "s2");
    assert_matches(&tl, SBX_QUERY_SEARCH, "paste", "r1 s1 r2 r3");
    char err[256];
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_FILTER, "host:paste.example.com", 22, NULL, err,
                                            sizeof err);
    assert_non_null(q);
    assert_true(sbx_query_has_pattern(q));
    size_t b, e;
    const char *s = "see www.paste.example.com and paste.example.com";
    assert_true(sbx_query_find(q, s, strlen(s), 0, &b, &e));
    assert_int_equal(b, 30);
    assert_int_equal(e, 47);
    sbx_query_free(q);
    q = sbx_query_compile(SBX_QUERY_FILTER, "host:", 5, NULL, err, sizeof err);
    assert_null(q);
    assert_non_null(strstr(err, "needs a value"));
    sbx_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(host_term),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
