/* Tests for HTTP/2 in the HTTPS client (base/http.h): against a TLS server
 * on 127.0.0.1 that offers h2 by ALPN (tests/s3/h2-server.js, Node's http2
 * module, a certificate made here by openssl(1)), responses come over
 * HTTP/2, two requests of one client too; against one offering HTTP/1.1
 * only, over HTTP/1.1; without the server's certificate as the CA file,
 * the connection is refused. A request's sink (base/http.h) takes a 2xx
 * answer's body in order, each chunk with its offset, over either version;
 * a 404's body stays the response's; a sink that refuses stops the request.
 * Skipped when node or openssl is missing. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/http.h"

extern char **environ;

struct group {
    bool usable;
    char tmp[64], cert[96], key[96], script[256];
};

static int run_quiet(char **argv)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int group_setup(void **state)
{
    struct group *g = calloc(1, sizeof *g);
    *state = g;
    unsetenv("https_proxy");
    unsetenv("HTTPS_PROXY");
    unsetenv("all_proxy");
    unsetenv("ALL_PROXY");
    setenv("NO_PROXY", "127.0.0.1", 1);
    snprintf(g->script, sizeof g->script, "tests/s3/h2-server.js");
    char *node[] = {"node", "--version", NULL}, *ossl[] = {"openssl", "version", NULL};
    if (access(g->script, R_OK) != 0 || run_quiet(node) != 0 || run_quiet(ossl) != 0)
        return 0; /* every case skips */
    snprintf(g->tmp, sizeof g->tmp, "/tmp/sbxview-h2-XXXXXX");
    if (!mkdtemp(g->tmp))
        return -1;
    snprintf(g->cert, sizeof g->cert, "%s/cert.pem", g->tmp);
    snprintf(g->key, sizeof g->key, "%s/key.pem", g->tmp);
    char *req[] = {"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                   "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", g->key, "-out", g->cert,
                   "-days", "2", "-subj", "/CN=127.0.0.1", "-addext",
                   "subjectAltName=IP:127.0.0.1", NULL};
    g->usable = run_quiet(req) == 0;
    return 0;
}

static int group_teardown(void **state)
{
    struct group *g = *state;
    if (g->tmp[0]) {
        char p[160];
        const char *names[] = {"cert.pem", "key.pem", "port", "requests.jsonl", "server.err", "port.tmp"};
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            snprintf(p, sizeof p, "%s/%s", g->tmp, names[i]);
            unlink(p);
        }
        rmdir(g->tmp);
    }
    free(g);
    return 0;
}

/* The server (h1: HTTP/1.1 only) on a free port; its base URL into url. */
static pid_t start(struct group *g, bool h1, char *url, size_t urlsz)
{
    char port_file[160], log[160], errlog[160];
    snprintf(port_file, sizeof port_file, "%s/port", g->tmp);
    snprintf(log, sizeof log, "%s/requests.jsonl", g->tmp);
    snprintf(errlog, sizeof errlog, "%s/server.err", g->tmp);
    unlink(port_file);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, errlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char *argv[] = {"node", g->script, g->cert, g->key, "runs", "examples/csv-fix", log, port_file,
                    h1 ? "--h1" : NULL, NULL};
    pid_t pid;
    assert_int_equal(posix_spawnp(&pid, "node", &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    for (int i = 0; i < 400; i++) {
        FILE *f = fopen(port_file, "r");
        int port = 0;
        if (f) {
            bool got = fscanf(f, "%d", &port) == 1;
            fclose(f);
            if (got && port > 0) {
                snprintf(url, urlsz, "https://127.0.0.1:%d/runs/run/agent-run.jsonl", port);
                return pid;
            }
        }
        assert_int_equal(waitpid(pid, NULL, WNOHANG), 0);
        usleep(25000);
    }
    fail_msg("the h2 test server did not start (see %s)", errlog);
    return -1;
}

static void stop(pid_t pid)
{
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
}

/* GETs url twice on one client; each response's version into v[0..1]. */
static enum sbx_http_result get_twice(const char *ca, const char *url, int v[2], char *err,
                                      size_t errsz)
{
    struct sbx_http_config cfg = {.ca_file = ca, .connect_timeout_ms = 5000, .timeout_ms = 10000};
    struct sbx_http *h = sbx_http_new(&cfg, err, errsz);
    assert_non_null(h);
    enum sbx_http_result r = SBX_HTTP_DONE;
    for (int i = 0; i < 2 && r == SBX_HTTP_DONE; i++) {
        struct sbx_http_response resp = {0};
        struct sbx_http_request req = {.url = url};
        r = sbx_http_do(h, &req, &resp, err, errsz);
        v[i] = resp.version;
        if (r == SBX_HTTP_DONE) {
            assert_int_equal(resp.status, 200);
            assert_true(resp.body.len > 0);
        }
        sbx_http_response_free(&resp);
    }
    sbx_http_free(h);
    return r;
}

static void over_http2_where_offered(void **state)
{
    struct group *g = *state;
    if (!g->usable)
        skip();
    static const struct {
        bool h1;
        int version;
    } cases[] = {{false, 2}, {true, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char url[128], err[512];
        pid_t pid = start(g, cases[i].h1, url, sizeof url);
        int v[2] = {0, 0};
        enum sbx_http_result r = get_twice(g->cert, url, v, err, sizeof err);
        stop(pid);
        if (r != SBX_HTTP_DONE)
            fail_msg("case %zu: %s", i, err);
        assert_int_equal(v[0], cases[i].version);
        assert_int_equal(v[1], cases[i].version);
    }
}

static void refused_without_its_certificate(void **state)
{
    struct group *g = *state;
    if (!g->usable)
        skip();
    char url[128], err[512];
    pid_t pid = start(g, false, url, sizeof url);
    int v[2] = {-1, -1};
    enum sbx_http_result r = get_twice(NULL, url, v, err, sizeof err);
    stop(pid);
    assert_int_equal(r, SBX_HTTP_TLS);
    assert_int_equal(v[0], 0); /* no response at all */
}

/* What a sink was given: the bytes, in order of their offsets. */
struct sunk {
    struct sbx_buf bytes;
    long status;
    bool out_of_order, refuse;
    size_t calls;
};

static bool take(void *ctx, long status, const char *data, size_t n, uint64_t at)
{
    struct sunk *k = ctx;
    k->calls++;
    k->status = status;
    if (at != k->bytes.len)
        k->out_of_order = true;
    sbx_buf_add(&k->bytes, data, n);
    return !k->refuse;
}

static void read_file(const char *path, struct sbx_buf *out)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbx_buf_add(out, chunk, n);
    fclose(f);
}

static void a_sink_takes_the_body(void **state)
{
    struct group *g = *state;
    if (!g->usable)
        skip();
    struct sbx_buf want = SBX_BUF_INIT;
    read_file("examples/csv-fix/agent-run.jsonl", &want);
    for (int h1 = 0; h1 < 2; h1++) {
        char url[128], missing[160], err[512];
        pid_t pid = start(g, h1, url, sizeof url);
        snprintf(missing, sizeof missing, "%.*s/nothing", (int)(strrchr(url, '/') - url), url);
        struct sbx_http_config cfg = {.ca_file = g->cert, .connect_timeout_ms = 5000,
                                      .timeout_ms = 10000};
        struct sbx_http *h = sbx_http_new(&cfg, err, sizeof err);
        assert_non_null(h);
        static const struct {
            bool missing, refuse;
            enum sbx_http_result result;
        } cases[] = {{false, false, SBX_HTTP_DONE}, {true, false, SBX_HTTP_DONE},
                     {false, true, SBX_HTTP_ERROR}};
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            struct sunk k = {.bytes = SBX_BUF_INIT, .refuse = cases[i].refuse};
            struct sbx_http_response resp = {0};
            struct sbx_http_request req = {.url = cases[i].missing ? missing : url, .sink = take,
                                           .sink_ctx = &k};
            enum sbx_http_result r = sbx_http_do(h, &req, &resp, err, sizeof err);
            if (r != cases[i].result)
                fail_msg("h1 %d, case %zu: result %d (%s)", h1, i, (int)r, err);
            if (cases[i].missing) { /* the store's error is the response's, not the sink's */
                assert_int_equal(resp.status, 404);
                assert_int_equal(k.calls, 0);
                assert_non_null(strstr(resp.body.p, "NoSuchKey"));
            } else if (cases[i].refuse) {
                assert_int_equal(k.calls, 1);
                assert_int_equal(resp.sunk, 0);
            } else {
                assert_int_equal(k.status, 200);
                assert_false(k.out_of_order);
                assert_int_equal(resp.sunk, want.len);
                assert_int_equal(k.bytes.len, want.len);
                assert_memory_equal(k.bytes.p, want.p, want.len);
                assert_int_equal(resp.body.len, 0);
            }
            sbx_buf_free(&k.bytes);
            sbx_http_response_free(&resp);
        }
        sbx_http_free(h);
        stop(pid);
    }
    sbx_buf_free(&want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(over_http2_where_offered),
        cmocka_unit_test(refused_without_its_certificate),
        cmocka_unit_test(a_sink_takes_the_body),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
