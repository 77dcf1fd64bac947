/* The proxy's clock against the wrapper's (analyses/proxyclock.h): the
 * proxy run's Squid log moved by offsets from milliseconds to 15 minutes
 * either way gives the same "During" link for every request and the same
 * counts as unmoved, the offset within 50 ms; a log whose requests agree
 * in too few commands keeps its own clock; a given skew is kept; the host
 * words, the sandbox rule and a host named only as a subdomain. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyses/cmdlink.h"
#include "analyses/summary.h"
#include "importers/load.h"
#include "tests/unit/fixture.h"

#define RUN "tests/fixtures/proxy-run"

struct loaded {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

static struct loaded *load(const char *const *paths, size_t n, const struct sbx_skew_given *g)
{
    struct loaded *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    struct sbx_load_opts opts = {.threads = 1};
    struct sbx_load_report rep = {0};
    assert_int_equal(sbx_load_paths(&r->tl, paths, n, &opts, &rep), n);
    sbx_load_report_free(&rep);
    struct sbx_summary_opts so = {.skews = g, .nskews = g ? 1 : 0};
    char err[160];
    assert_true(sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err));
    return r;
}

static void drop(struct loaded *r)
{
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
}

/* The proxy run's access.log with every time moved by offset_ms, in a
 * temporary folder: its path into path. */
static void moved_log(char *path, size_t n, long offset_ms)
{
    char dir[] = "/tmp/sbx-proxyclock-XXXXXX";
    assert_non_null(mkdtemp(dir));
    snprintf(path, n, "%s/access.log", dir);
    FILE *in = fopen(RUN "/access.log", "r"), *out = fopen(path, "w");
    assert_non_null(in);
    assert_non_null(out);
    long long s, ms;
    char rest[512];
    while (fscanf(in, "%lld.%lld %511[^\n]\n", &s, &ms, rest) == 3) {
        long long t = s * 1000 + ms + offset_ms;
        fprintf(out, "%lld.%03lld %s\n", t / 1000, t % 1000, rest);
    }
    fclose(in);
    fclose(out);
}

static void remove_log(const char *path)
{
    unlink(path);
    char dir[256];
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
    rmdir(dir);
}

/* The line of the command each request of the log ran during (0: none),
 * in the log's line order. */
static void during(const struct loaded *r, uint32_t src, uint32_t *lines, size_t n)
{
    memset(lines, 0, n * sizeof *lines);
    for (size_t i = 0; i < r->tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&r->tl, i);
        if (e->source != src || e->kind != SBX_EV_NETWORK)
            continue;
        assert_true(sbx_ev_line_no(e) >= 1 && sbx_ev_line_no(e) <= n);
        const struct sbx_event *c = sbx_command_during(&r->tl, e);
        lines[sbx_ev_line_no(e) - 1] = c ? sbx_ev_line_no(c) : 0;
    }
}

static uint32_t proxy_source(const struct loaded *r)
{
    assert_int_equal(r->sum.proxy_clocks.n, 1);
    return r->sum.proxy_clocks.c[0].source;
}

static int64_t distance(int64_t a, int64_t b)
{
    return a > b ? a - b : b - a;
}

static void a_moved_proxy_log_keeps_its_links(void **state)
{
    (void)state;
    const char *base_paths[] = {RUN "/agent-run.jsonl", RUN "/access.log"};
    struct loaded *base = load(base_paths, 2, NULL);
    uint32_t want[9];
    during(base, proxy_source(base), want, 9);
    /* the fixture's requests ran during pip, curl, python3 and git */
    static const uint32_t fixture_links[9] = {1, 1, 1, 2, 3, 3, 3, 4, 0};
    assert_memory_equal(want, fixture_links, sizeof want);
    assert_int_equal(base->sum.proxy_clocks.c[0].skew.how, SBX_SKEW_MEASURED);
    assert_int_equal(base->sum.proxy_clocks.c[0].skew.ns, 0); /* one clock: nothing moved */
    /* beyond what the unmoved log's evidence allows (offsets from -150 to
     * +200 ms fit it as well: spread 175 ms), the offset is found within
     * 50 ms; inside it, within the spread reported */
    static const struct {
        long ms;
        bool far;
    } offsets[] = {{2500, true},        {-2500, true},        {45000, true}, {-90000, true},
                   {15 * 60000, true},  {-15 * 60000, true},  {1, false},    {-1, false},
                   {175, false},        {-150, false}};
    for (size_t k = 0; k < sizeof offsets / sizeof *offsets; k++) {
        long off = offsets[k].ms;
        print_message("proxy %+ld ms\n", off);
        char path[256];
        moved_log(path, sizeof path, off);
        const char *paths[] = {RUN "/agent-run.jsonl", path};
        struct loaded *r = load(paths, 2, NULL);
        const struct sbx_proxy_clock *pc = &r->sum.proxy_clocks.c[0];
        assert_int_equal(pc->skew.how, SBX_SKEW_MEASURED);
        assert_true(distance(pc->skew.ns, off * FX_MS) <= (offsets[k].far ? 50 * FX_MS : pc->skew.spread_ns));
        assert_int_equal(pc->skew.pairs, 2);
        assert_int_equal(pc->skew.comparable, 2);
        assert_int_equal(r->tl.sources[pc->source].clock, SBX_CLOCK_MEASURED);
        assert_int_equal(r->tl.sources[pc->source].clock_offset, pc->skew.ns);
        uint32_t got[9];
        during(r, pc->source, got, 9);
        assert_memory_equal(got, want, sizeof got);
        assert_int_equal(r->sum.nrefused, base->sum.nrefused);
        assert_int_equal(r->sum.nproxy_hosts, base->sum.nproxy_hosts);
        assert_int_equal(r->sum.hosts.n, base->sum.hosts.n);
        for (size_t i = 1; i < r->tl.n; i++) /* sorted again after the move */
            assert_true(sbx_event_cmp(sbx_tl_at(&r->tl, i - 1), sbx_tl_at(&r->tl, i)) <= 0);
        drop(r);
        remove_log(path);
    }
    drop(base);
}

/* --skew squid=… is kept as given, and its agreeing requests counted. */
static void a_given_skew_is_kept(void **state)
{
    (void)state;
    char path[256];
    moved_log(path, sizeof path, 2500);
    const char *paths[] = {RUN "/agent-run.jsonl", path};
    static const struct {
        const char *source;
        int64_t ms;
        size_t agree;
    } cases[] = {{"squid", 2500, 2}, {"access.log", 2400, 2}, {"squid", 0, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct sbx_skew_given g = {cases[k].source, cases[k].ms * FX_MS};
        struct loaded *r = load(paths, 2, &g);
        const struct sbx_proxy_clock *pc = &r->sum.proxy_clocks.c[0];
        assert_int_equal(pc->skew.how, SBX_SKEW_GIVEN);
        assert_int_equal(pc->skew.ns, cases[k].ms * FX_MS);
        assert_int_equal(pc->skew.pairs, cases[k].agree);
        assert_int_equal(r->tl.sources[pc->source].clock, SBX_CLOCK_GIVEN);
        drop(r);
    }
    remove_log(path);
}

/* Requests that agree only in one command of several that name their
 * hosts: uncertain, the log on its own clock. */
static void agreement_in_one_command_is_uncertain(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "run");
    fixture_command(&fx, "s1", 100 * FX_S, 4000, "pip download --index-url http://pypi.internal/simple x", 0);
    fixture_command(&fx, "s1", 110 * FX_S, 300, "git clone https://github.com/a/b", 0);
    fixture_command(&fx, "s1", 120 * FX_S, 700, "curl -fsS https://paste.example.com/x", 56);
    for (int i = 0; i < 3; i++) /* all three inside pip at +10 s */
        fixture_request(&fx, NULL, (111 + i) * FX_S, "pypi.internal");
    fixture_request(&fx, NULL, 127 * FX_S, "github.com");      /* inside git at +17 s */
    fixture_request(&fx, NULL, 140 * FX_S + 100 * FX_MS, "paste.example.com"); /* curl at +20 s */
    fixture_finish(&fx);
    struct sbx_proxy_clocks pc;
    sbx_proxy_clocks_run(&fx.tl, &pc);
    assert_int_equal(pc.n, 1);
    assert_int_equal(pc.c[0].skew.how, SBX_SKEW_UNCERTAIN);
    assert_int_equal(pc.c[0].skew.pairs, 3);
    assert_int_equal(pc.c[0].skew.comparable, 5);
    assert_int_equal(pc.c[0].commands, 3);
    assert_int_equal(pc.c[0].commands_agreeing, 1);
    assert_int_equal(fx.tl.sources[0].clock, SBX_CLOCK_OWN);
    assert_int_equal(fx.tl.sources[0].clock_offset, 0);
    sbx_proxy_clocks_free(&pc);
    fixture_free(&fx);
}

/* Which requests and commands pair: by sandbox (none on the request: any),
 * and by a host the command line names as a word of its own. */
static void which_pairs_count(void **state)
{
    (void)state;
    static const struct {
        const char *req_sandbox, *host, *command;
        enum sbx_skew_how how;
    } cases[] = {
        {NULL, "github.com", "git clone https://github.com/a/b", SBX_SKEW_MEASURED},
        {"s1", "github.com", "git clone https://GitHub.com/a/b", SBX_SKEW_MEASURED},
        {"s2", "github.com", "git clone https://github.com/a/b", SBX_SKEW_NONE},
        {NULL, "github.com", "curl https://api.github.com/x", SBX_SKEW_NONE},
        {NULL, "api.github.com", "curl https://api.github.com:443/x", SBX_SKEW_MEASURED},
        {NULL, "example.com", "curl http://user@example.com.evil.net/", SBX_SKEW_NONE},
        {NULL, "example.com", "ping -c1 example.com.", SBX_SKEW_MEASURED},
        {NULL, "10.0.0.1", "nc 10.0.0.1 80", SBX_SKEW_MEASURED},
        {NULL, "github.com", "make test", SBX_SKEW_NONE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        print_message("%s: %s\n", cases[k].host, cases[k].command);
        struct fixture fx;
        fixture_init(&fx, "run");
        fixture_command(&fx, "s1", 100 * FX_S, 1000, cases[k].command, 0);
        fixture_request(&fx, cases[k].req_sandbox, 100 * FX_S + 400 * FX_MS, cases[k].host);
        fixture_finish(&fx);
        struct sbx_proxy_clocks pc;
        sbx_proxy_clocks_run(&fx.tl, &pc);
        assert_int_equal(pc.n, 1);
        assert_int_equal(pc.c[0].skew.how, cases[k].how);
        if (cases[k].how == SBX_SKEW_MEASURED)
            assert_int_equal(pc.c[0].skew.ns, 0);
        sbx_proxy_clocks_free(&pc);
        fixture_free(&fx);
    }
}

static void words(const char *w, size_t len, void *ctx)
{
    struct sbx_buf *b = ctx;
    sbx_buf_add(b, w, len);
    sbx_buf_addc(b, '|');
}

static void host_words(void **state)
{
    (void)state;
    static const struct {
        const char *line, *want;
    } cases[] = {
        {"curl -fsS https://paste.example.com/x -o /tmp/x", "curl|fsS|https|paste.example.com|x|o|tmp|x|"},
        {"git clone git@github.com:a/b.git", "git|clone|git|github.com|a|b.git|"},
        {"wget -q ..example.org.. --", "wget|q|example.org|"},
        {"", ""},
        {"---", ""},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_proxy_words(cases[k].line, strlen(cases[k].line), words, &b);
        sbx_buf_addc(&b, '\0');
        assert_string_equal(b.p, cases[k].want);
        sbx_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_moved_proxy_log_keeps_its_links),
        cmocka_unit_test(a_given_skew_is_kept),
        cmocka_unit_test(agreement_in_one_command_is_uncertain),
        cmocka_unit_test(which_pairs_count),
        cmocka_unit_test(host_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
