/* sbx_fetch_runtime against tests/https/server.py, a stand-in for Runtime's
 * API that this test starts on 127.0.0.1 with a certificate it makes with
 * openssl(1): pages, Retry-After, the error shape, cut connections,
 * redirects, a server that never answers, TLS verification, what is written
 * and what is not, and where the key may go (the Authorization header only).
 * Every case is skipped when python3 or openssl is missing. Nothing but
 * 127.0.0.1 is contacted (proxies are switched off for the test). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "importers/fetch/fetch_internal.h"
#include "importers/fetch/fetch_runtime.h"
#include "base/http.h"
#include "base/timefmt.h"

extern char **environ;

#define KEY "rk_test_SECRET_9f8e7d"
#define SB "7f3a2c10"
#define SB2 "b4d49ff8"
#define MIN (60 * INT64_C(1000000000))
#define DAY (24 * 60 * MIN)

/* The whole group's: tools found, certificates made. */
struct group {
    bool usable;
    unsigned cases; /* names each case's folder */
    char tmp[64];
    char script[4096];
    char cert[128], key[128];       /* CN and SAN 127.0.0.1 */
    char other[128], other_key[128]; /* an unrelated self-signed certificate */
    char wrong[128], wrong_key[128]; /* SAN DNS:wrong.invalid only */
};

/* One case's: its server, its folder. */
struct t {
    struct group *g;
    pid_t pid;
    char dir[160];    /* this case's scratch folder: the server's files in srv/ */
    char srv[180];
    char out[200];    /* the fetch's output folder (not made) */
    char log[200];    /* the server's request log */
    char url[64];     /* https://127.0.0.1:PORT */
    int64_t now;
    struct sbx_fetch_opts opts;
    struct sbx_fetch_report rep;
    char err[1024];
    /* what progress reported */
    int64_t max_wait;
    long wait_status;
    size_t nprogress;
    bool progress_had_key;
};

static int run_quiet(char *const argv[])
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

static bool make_cert(const char *cert, const char *key, const char *cn, const char *san)
{
    char subj[64], ext[96];
    snprintf(subj, sizeof subj, "/CN=%s", cn);
    snprintf(ext, sizeof ext, "subjectAltName=%s", san);
    char *argv[] = {"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", (char *)key, "-out",
                    (char *)cert, "-days", "2", "-subj", subj, "-addext", ext, NULL};
    return run_quiet(argv) == 0;
}

static int group_setup(void **state)
{
    struct group *g = calloc(1, sizeof *g);
    *state = g;
    /* only 127.0.0.1, never through a proxy */
    unsetenv("https_proxy");
    unsetenv("HTTPS_PROXY");
    unsetenv("all_proxy");
    unsetenv("ALL_PROXY");
    setenv("NO_PROXY", "127.0.0.1", 1);
    const char *me = __FILE__, *slash = strrchr(me, '/');
    snprintf(g->script, sizeof g->script, "%.*s%s../https/server.py",
             slash ? (int)(slash - me) : 0, me, slash ? "/" : "");
    if (access(g->script, R_OK) != 0)
        snprintf(g->script, sizeof g->script, "tests/https/server.py");
    char *py[] = {"python3", "-c", "import ssl, http.server", NULL};
    char *ossl[] = {"openssl", "version", NULL};
    if (access(g->script, R_OK) != 0 || run_quiet(py) != 0 || run_quiet(ossl) != 0)
        return 0; /* every case skips */
    snprintf(g->tmp, sizeof g->tmp, "/tmp/sbxview-fetch-XXXXXX");
    if (!mkdtemp(g->tmp))
        return -1;
    snprintf(g->cert, sizeof g->cert, "%s/cert.pem", g->tmp);
    snprintf(g->key, sizeof g->key, "%s/key.pem", g->tmp);
    snprintf(g->other, sizeof g->other, "%s/other.pem", g->tmp);
    snprintf(g->other_key, sizeof g->other_key, "%s/other-key.pem", g->tmp);
    snprintf(g->wrong, sizeof g->wrong, "%s/wrong.pem", g->tmp);
    snprintf(g->wrong_key, sizeof g->wrong_key, "%s/wrong-key.pem", g->tmp);
    g->usable = make_cert(g->cert, g->key, "127.0.0.1", "IP:127.0.0.1") &&
                make_cert(g->other, g->other_key, "127.0.0.1", "IP:127.0.0.1") &&
                make_cert(g->wrong, g->wrong_key, "wrong.invalid", "DNS:wrong.invalid");
    return 0;
}

static void rm_rf(const char *path)
{
    char *argv[] = {"rm", "-rf", (char *)path, NULL};
    run_quiet(argv);
}

static int group_teardown(void **state)
{
    struct group *g = *state;
    if (g->tmp[0])
        rm_rf(g->tmp);
    free(g);
    return 0;
}

static void on_progress(void *ctx, const struct sbx_fetch_progress *p)
{
    struct t *t = ctx;
    t->nprogress++;
    if (p->wait_ms > t->max_wait) {
        t->max_wait = p->wait_ms;
        t->wait_status = p->status;
    }
    if ((p->sandbox && strstr(p->sandbox, KEY)) || strstr(p->record, KEY))
        t->progress_had_key = true;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int case_setup(void **state)
{
    struct group *g = *state;
    struct t *t = calloc(1, sizeof *t);
    t->g = g;
    t->pid = -1;
    t->now = now_ns();
    if (g->usable) {
        snprintf(t->dir, sizeof t->dir, "%s/case%u", g->tmp, ++g->cases);
        snprintf(t->srv, sizeof t->srv, "%s/srv", t->dir);
        mkdir(t->dir, 0755);
        mkdir(t->srv, 0755);
        snprintf(t->out, sizeof t->out, "%s/run", t->dir);
        snprintf(t->log, sizeof t->log, "%s/requests.jsonl", t->srv);
    }
    t->opts = (struct sbx_fetch_opts){
        .api_key = KEY,
        .ca_file = g->cert,
        .connect_timeout_ms = 2000,
        .timeout_ms = 5000,
        .deadline_ms = 10000,
        .backoff_ms = 50,
        .progress = on_progress,
        .progress_ctx = t,
    };
    *state = t;
    return 0;
}

static void stop_server(struct t *t)
{
    if (t->pid > 0) {
        kill(t->pid, SIGTERM);
        waitpid(t->pid, NULL, 0);
        t->pid = -1;
    }
}

static int case_teardown(void **state)
{
    struct t *t = *state;
    stop_server(t);
    sbx_fetch_report_free(&t->rep);
    struct group *g = t->g;
    free(t);
    *state = g;
    return 0;
}

#define NEED_SERVER(t)                                                                         \
    do {                                                                                       \
        if (!(t)->g->usable)                                                                   \
            skip();                                                                            \
    } while (0)

/* ---- fixtures ---------------------------------------------------------- */

static json_t *iso(int64_t ns)
{
    char buf[SBX_TIME_BUFSZ];
    return json_string(sbx_time_format(ns, buf));
}

static json_t *command(const char *id, const char *sb, const char *program, int64_t start,
                       int ms)
{
    return json_pack("{s:s, s:s, s:s, s:i, s:s, s:o, s:i, s:{s:s, s:s}}", "id", id, "sandboxId",
                     sb, "program", program, "exitCode", 0, "state", "exited", "startedAt",
                     iso(start), "durationMs", ms, "actor", "kind", "agent", "name", "ci-agent");
}

static json_t *event(const char *id, const char *sb, const char *type, int64_t at)
{
    return json_pack("{s:s, s:s, s:o, s:s, s:{s:{s:s, s:s}}}", "id", id, "type", type,
                     "createdAt", iso(at), "resourceId", sb, "data", "sandbox", "id", sb,
                     "state", "running");
}

static json_t *audit(const char *id, int64_t at, const char *target, const char *from_sb)
{
    return json_pack("{s:s, s:s, s:o, s:s, s:{s:s, s:s}, s:o}", "seq", "000001", "id", id, "at",
                     iso(at), "action", "network.rules_changed", "target", "type", "sandbox",
                     "id", target, "sandbox", from_sb ? json_string(from_sb) : json_null());
}

static json_t *metrics(const char *sb)
{
    return json_pack("{s:s, s:s, s:i, s:[{s:s, s:f, s:i}, {s:s, s:f, s:i}]}", "sandboxId", sb,
                     "range", "?", "stepSeconds", 10, "points", "at", "2026-10-08T14:31:00Z",
                     "cpuPercent", 68.4, "memoryBytes", 536870912, "at",
                     "2026-10-08T14:31:10Z", "cpuPercent", 12.5, "memoryBytes", 1048576);
}

/* Sandbox SB ran from now-28 min to now-19 min: 7 commands (3 a page), 5
 * events; the audit log around it, 2 entries a page, newest first. */
static json_t *scenario(struct t *t)
{
    int64_t now = t->now;
    json_t *cmds = json_array();
    for (int k = 0; k < 7; k++) {
        char id[16];
        snprintf(id, sizeof id, "cmd-%d", k);
        json_t *c = command(id, SB, "pytest", now - (20 + k) * MIN, 2000);
        if (k == 1) {
            json_object_set_new(c, "ratio", json_real(0.1));
            json_object_set_new(c, "note", json_string("caf\xc3\xa9 \"q\"\n"));
        }
        json_array_append_new(cmds, c);
    }
    json_t *evs = json_array();
    json_array_append_new(evs, event("ev-stop", SB, "sandbox.stopped", now - 19 * MIN));
    json_array_append_new(evs, event("ev-other", "someother", "sandbox.running", now - 20 * MIN));
    json_array_append_new(evs, event("ev-files2", SB, "sandbox.files.changed", now - 22 * MIN));
    json_array_append_new(evs, event("ev-files1", SB, "sandbox.files.changed", now - 24 * MIN));
    json_array_append_new(evs, event("ev-run", SB, "sandbox.running", now - 27 * MIN));
    json_array_append_new(evs, event("ev-create", SB, "sandbox.created", now - 28 * MIN));
    json_t *aud = json_array();
    json_array_append_new(aud, audit("au-1", now - 1 * MIN, "elsewhere", NULL));
    json_array_append_new(aud, audit("au-2", now - 5 * MIN, SB, NULL));
    json_array_append_new(aud, audit("au-3", now - 12 * MIN, "elsewhere", NULL));
    json_array_append_new(aud, audit("au-4", now - 25 * MIN, "elsewhere", SB));
    json_array_append_new(aud, audit("au-5", now - 35 * MIN, "elsewhere", NULL));
    json_array_append_new(aud, audit("au-6", now - 40 * MIN, "elsewhere", NULL));
    json_array_append_new(aud, audit("au-7", now - 120 * MIN, "elsewhere", NULL));
    json_array_append_new(aud, audit("au-8", now - 3 * DAY, "elsewhere", NULL));
    return json_pack("{s:s, s:i, s:i, s:{s:o}, s:o, s:o, s:{s:o}, s:[]}", "key", KEY,
                     "page_size", 3, "audit_page_size", 2, "commands", SB, cmds, "events", evs,
                     "audit", aud, "metrics", SB, metrics(SB), "faults");
}

static void add_fault(json_t *sc, const char *fault_json)
{
    json_error_t e;
    json_t *f = json_loads(fault_json, 0, &e);
    assert_non_null(f);
    json_array_append_new(json_object_get(sc, "faults"), f);
}

/* ---- the server -------------------------------------------------------- */

static void start_server_cert(struct t *t, json_t *sc, const char *cert, const char *key)
{
    char data[200], port_file[200], errlog[200];
    snprintf(data, sizeof data, "%s/scenario.json", t->srv);
    snprintf(port_file, sizeof port_file, "%s/port", t->srv);
    snprintf(errlog, sizeof errlog, "%s/server.err", t->srv);
    assert_int_equal(json_dump_file(sc, data, 0), 0);
    json_decref(sc);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, errlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char *argv[] = {"python3",  t->g->script, "--cert", (char *)cert, "--key",  (char *)key,
                    "--data",   data,         "--log",  t->log,       "--port-file", port_file,
                    NULL};
    int rc = posix_spawnp(&t->pid, "python3", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    assert_int_equal(rc, 0);
    /* wait for the port file (written once the server listens) */
    for (int i = 0; i < 200; i++) {
        FILE *f = fopen(port_file, "r");
        int port = 0;
        if (f) {
            bool got = fscanf(f, "%d", &port) == 1;
            fclose(f);
            if (got && port > 0) {
                snprintf(t->url, sizeof t->url, "https://127.0.0.1:%d", port);
                t->opts.base_url = t->url;
                return;
            }
        }
        assert_int_equal(waitpid(t->pid, NULL, WNOHANG), 0); /* still alive */
        usleep(25000);
    }
    fail_msg("the test server did not start (see %s)", errlog);
}

static void start_server(struct t *t, json_t *sc)
{
    start_server_cert(t, sc, t->g->cert, t->g->key);
}

static bool fetch(struct t *t, const char *const *ids, size_t n)
{
    sbx_fetch_report_free(&t->rep);
    t->err[0] = '\0';
    bool ok = sbx_fetch_runtime(ids, n, t->out, &t->opts, &t->rep, t->err, sizeof t->err);
    assert_null(strstr(t->err, KEY));
    assert_false(t->progress_had_key);
    return ok;
}

static bool fetch1(struct t *t)
{
    const char *ids[] = {SB};
    return fetch(t, ids, 1);
}

/* ---- checking what came out ------------------------------------------- */

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbx_buf_add(&b, chunk, got);
    fclose(f);
    sbx_buf_add(&b, "", 0);
    if (n)
        *n = b.len;
    return b.p;
}

/* The ids of a saved .jsonl, in order, joined with spaces; every line must be
 * one JSON object, the file end with a newline and hold no blank line. */
static char *jsonl_ids(struct t *t, const char *name)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", t->out, name);
    size_t n;
    char *text = slurp(path, &n);
    assert_non_null(text);
    struct sbx_buf ids = SBX_BUF_INIT;
    sbx_buf_add(&ids, "", 0);
    if (n)
        assert_int_equal(text[n - 1], '\n');
    for (char *line = text; line < text + n;) {
        char *nl = memchr(line, '\n', (size_t)(text + n - line));
        assert_non_null(nl);
        assert_true(nl > line);
        json_error_t e;
        json_t *o = json_loadb(line, (size_t)(nl - line), JSON_REJECT_DUPLICATES, &e);
        assert_true(json_is_object(o));
        sbx_buf_addf(&ids, "%s%s", ids.len ? " " : "",
                     json_string_value(json_object_get(o, "id")));
        json_decref(o);
        line = nl + 1;
    }
    free(text);
    return ids.p;
}

static void assert_ids(struct t *t, const char *name, const char *want)
{
    char *got = jsonl_ids(t, name);
    assert_string_equal(got, want);
    free(got);
}

/* No file under path holds the key, and no temporary folder is left. */
static void assert_clean_tree(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        assert_null(strstr(de->d_name, "sbxview-fetch"));
        char sub[600];
        snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
        struct stat st;
        assert_int_equal(lstat(sub, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            assert_clean_tree(sub);
        } else {
            size_t n;
            char *text = slurp(sub, &n);
            assert_non_null(text);
            assert_null(memmem(text, n, KEY, strlen(KEY)));
            free(text);
        }
    }
    closedir(d);
}

/* The case's folder after a failure: no run folder, nothing hidden beside
 * it, only the server's own files. */
static void assert_nothing_written(struct t *t)
{
    DIR *d = opendir(t->dir);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            assert_string_equal(de->d_name, "srv");
    closedir(d);
}

/* After a success: the run folder holds no key and nothing temporary, and
 * nothing else was left beside it. */
static void assert_clean_run(struct t *t)
{
    assert_clean_tree(t->out);
    DIR *d = opendir(t->dir);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            assert_true(strcmp(de->d_name, "srv") == 0 || strcmp(de->d_name, "run") == 0);
    closedir(d);
}

struct reqs {
    size_t n;
    json_t *all; /* array of request objects */
};

/* The server's request log; every request carried the key in its
 * Authorization header, and no path or query holds it. */
static struct reqs requests(struct t *t)
{
    struct reqs r = {0, json_array()};
    size_t n;
    char *text = slurp(t->log, &n);
    if (!text)
        return r;
    for (char *line = text; line < text + n;) {
        char *nl = memchr(line, '\n', (size_t)(text + n - line));
        assert_non_null(nl);
        json_error_t e;
        json_t *o = json_loadb(line, (size_t)(nl - line), 0, &e);
        assert_non_null(o);
        const char *path = json_string_value(json_object_get(o, "path"));
        const char *query = json_string_value(json_object_get(o, "query"));
        assert_null(strstr(path, KEY));
        assert_null(strstr(query, KEY));
        assert_null(strstr(query, "rk_test"));
        json_t *h = json_object_get(o, "headers");
        assert_string_equal(json_string_value(json_object_get(h, "Authorization")),
                            "Bearer " KEY);
        /* the key in no other header */
        const char *name;
        json_t *v;
        json_object_foreach(h, name, v) {
            if (strcmp(name, "Authorization") != 0)
                assert_null(strstr(json_string_value(v), KEY));
        }
        json_array_append_new(r.all, o);
        r.n++;
        line = nl + 1;
    }
    free(text);
    return r;
}

/* How many requests went to path (and, if given, had `has` in the query). */
static size_t count_requests(const struct reqs *r, const char *path, const char *has)
{
    size_t c = 0, i;
    json_t *o;
    json_array_foreach(r->all, i, o) {
        if (strcmp(json_string_value(json_object_get(o, "path")), path) == 0 &&
            (!has || strstr(json_string_value(json_object_get(o, "query")), has)))
            c++;
    }
    return c;
}

/* ---- cases -------------------------------------------------------------- */

static void every_page_saved(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    start_server(t, scenario(t));
    assert_true(fetch1(t));
    assert_string_equal(t->err, "");
    assert_ids(t, "runtime-commands-" SB ".jsonl",
               "cmd-0 cmd-1 cmd-2 cmd-3 cmd-4 cmd-5 cmd-6");
    assert_ids(t, "runtime-events-" SB ".jsonl",
               "ev-stop ev-files2 ev-files1 ev-run ev-create");
    /* the window is now-28 .. now-19 min, widened by 10 min: au-1 is after
     * it, au-6 before it (and ends the walk), au-2 names the sandbox */
    assert_ids(t, "runtime-audit.jsonl", "au-2 au-3 au-4 au-5");

    /* items as served: numbers not re-encoded, strings kept escaped */
    char path[400];
    snprintf(path, sizeof path, "%s/runtime-commands-" SB ".jsonl", t->out);
    char *text = slurp(path, NULL);
    assert_non_null(strstr(text, "\"ratio\":0.1,"));
    assert_non_null(strstr(text, "\"note\":\"caf\\u00e9 \\\"q\\\"\\n\""));
    free(text);

    /* metrics: the response as served, for the finest range reaching back to
     * now-38 min */
    snprintf(path, sizeof path, "%s/runtime-metrics-" SB ".json", t->out);
    text = slurp(path, NULL);
    json_error_t e;
    json_t *m = json_loads(text, 0, &e);
    free(text);
    assert_string_equal(json_string_value(json_object_get(m, "range")), "1h");
    assert_int_equal(json_array_size(json_object_get(m, "points")), 2);
    json_decref(m);

    struct reqs r = requests(t);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB "/commands", NULL), 3);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB "/commands", "limit=100"), 3);
    assert_int_equal(count_requests(&r, "/v1/events", "resourceId=" SB), 2);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB "/metrics", "range=1h"), 1);
    /* the walk stopped at the page holding au-6: 3 of 4 pages */
    assert_int_equal(count_requests(&r, "/v1/audit", "limit=200"), 3);
    assert_int_equal(count_requests(&r, "/v1/audit", "before="), 2);
    assert_int_equal(r.n, 9);
    json_decref(r.all);

    /* the report */
    assert_int_equal(t->rep.nsaved, 4);
    assert_string_equal(t->rep.saved[0].name, "runtime-commands-" SB ".jsonl");
    assert_int_equal(t->rep.saved[0].items, 7);
    assert_int_equal(t->rep.saved[1].items, 5);
    assert_string_equal(t->rep.saved[2].range, "1h");
    assert_int_equal(t->rep.saved[2].items, 2);
    assert_string_equal(t->rep.saved[3].name, "runtime-audit.jsonl");
    assert_int_equal(t->rep.saved[3].items, 4);
    assert_true(t->nprogress >= 9);
    assert_clean_run(t);
}

static void several_sandboxes_share_one_audit_walk(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    int64_t now = t->now;
    /* SB2 ran two days ago: now-2d-15min .. now-2d */
    json_t *c2 = json_array();
    json_array_append_new(c2, command("b-cmd-0", SB2, "git", now - 2 * DAY - 5 * MIN, 40));
    json_object_set_new(json_object_get(sc, "commands"), SB2, c2);
    json_t *evs = json_object_get(sc, "events");
    json_array_append_new(evs, event("b-ev-stop", SB2, "sandbox.stopped", now - 2 * DAY));
    json_array_append_new(evs,
                          event("b-ev-create", SB2, "sandbox.created", now - 2 * DAY - 15 * MIN));
    json_object_set_new(json_object_get(sc, "metrics"), SB2, metrics(SB2));
    /* the audit log, newest first, with SB2's entries where they belong */
    json_t *aud = json_array();
    json_t *old = json_object_get(sc, "audit");
    for (size_t i = 0; i < 7; i++) /* au-1 .. au-7 */
        json_array_append(aud, json_array_get(old, i));
    json_array_append_new(aud, audit("b-au-1", now - 2 * DAY - 5 * MIN, "elsewhere", NULL));
    json_array_append_new(aud, audit("b-au-2", now - 2 * DAY - 30 * MIN, "elsewhere", NULL));
    json_array_append_new(aud, audit("b-au-3", now - 5 * DAY, "elsewhere", NULL));
    json_object_set_new(sc, "audit", aud);
    /* each audit page starts with the previous page's last entry */
    json_object_set_new(sc, "audit_overlap", json_true());
    json_object_set_new(sc, "audit_page_size", json_integer(3));
    start_server(t, sc);
    const char *ids[] = {SB, SB2, SB};
    assert_true(fetch(t, ids, 3));
    assert_ids(t, "runtime-commands-" SB2 ".jsonl", "b-cmd-0");
    assert_ids(t, "runtime-events-" SB2 ".jsonl", "b-ev-stop b-ev-create");
    /* one walk for both; au-7 (2 h ago) is in no window; b-au-2 is before
     * SB2's window and ends the walk; repeated entries written once */
    assert_ids(t, "runtime-audit.jsonl", "au-2 au-3 au-4 au-5 b-au-1");
    struct reqs r = requests(t);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB2 "/metrics", "range=7d"), 1);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB "/metrics", "range=1h"), 1);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB "/commands", NULL), 3);
    /* pages of 3 advancing by 2: au-1..3, au-3..5, au-5..7, then au-7, b-au-1
     * and b-au-2, which ends the walk before b-au-3 */
    assert_int_equal(count_requests(&r, "/v1/audit", NULL), 4);
    json_decref(r.all);
    assert_int_equal(t->rep.nsaved, 7);
    assert_clean_run(t);
}

static void retry_after_429_waited_out(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"commands\", \"page\": 2, \"action\": \"status\", \"status\": 429,"
                  " \"retry_after\": \"1\", \"code\": \"rate_limited\", \"message\": \"slow\"}");
    start_server(t, sc);
    int64_t t0 = now_ns();
    assert_true(fetch1(t));
    int64_t took = now_ns() - t0;
    assert_true(took >= 1000 * INT64_C(1000000));
    assert_int_equal(t->max_wait, 1000);
    assert_int_equal(t->wait_status, 429);
    assert_ids(t, "runtime-commands-" SB ".jsonl",
               "cmd-0 cmd-1 cmd-2 cmd-3 cmd-4 cmd-5 cmd-6");
    struct reqs r = requests(t);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB "/commands", NULL), 4);
    json_decref(r.all);
}

static void http_date(int64_t unix_s, char *buf, size_t n)
{
    time_t tt = (time_t)unix_s;
    struct tm tm;
    gmtime_r(&tt, &tm);
    static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char *const mons[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    snprintf(buf, n, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday], tm.tm_mday,
             mons[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void unavailable_503_then_success(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    char date[64], fault[256];
    http_date(time(NULL) + 1, date, sizeof date);
    snprintf(fault, sizeof fault,
             "{\"route\": \"events\", \"page\": 1, \"action\": \"status\", \"status\": 503, "
             "\"retry_after\": \"%s\", \"times\": 1}", date);
    add_fault(sc, fault);
    /* and a 503 without Retry-After: the growing delay alone */
    add_fault(sc, "{\"route\": \"audit\", \"page\": 2, \"action\": \"status\", \"status\": 503}");
    start_server(t, sc);
    assert_true(fetch1(t));
    assert_true(t->max_wait >= 50 && t->max_wait <= 2000);
    assert_int_equal(t->wait_status, 503);
    assert_ids(t, "runtime-events-" SB ".jsonl", "ev-stop ev-files2 ev-files1 ev-run ev-create");
    assert_ids(t, "runtime-audit.jsonl", "au-2 au-3 au-4 au-5");
    struct reqs r = requests(t);
    assert_int_equal(count_requests(&r, "/v1/events", NULL), 3);
    assert_int_equal(count_requests(&r, "/v1/audit", NULL), 4);
    json_decref(r.all);
}

static void retry_after_past_the_deadline_gives_up(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"commands\", \"page\": 1, \"action\": \"status\", \"status\": 429,"
                  " \"retry_after\": \"30\", \"times\": -1, \"message\": \"Too many requests\"}");
    start_server(t, sc);
    t->opts.deadline_ms = 2000;
    int64_t t0 = now_ns();
    assert_false(fetch1(t));
    /* gave up without waiting the 30 s (a wide bound: emulated, the requests are slow) */
    assert_true(now_ns() - t0 < 15000 * INT64_C(1000000));
    assert_non_null(strstr(t->err, "sandbox " SB ", commands, page 1: HTTP 429"));
    assert_non_null(strstr(t->err, "Too many requests"));
    assert_non_null(strstr(t->err, "deadline"));
    assert_int_equal(t->rep.nsaved, 0);
    assert_nothing_written(t);
}

static void unauthorized_shows_message_and_hint(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    json_object_set_new(sc, "key", json_string("rk_test_the_right_one"));
    start_server(t, sc);
    assert_false(fetch1(t));
    assert_string_equal(t->err,
                        "sandbox " SB ", commands, page 1: HTTP 401 unauthorized: The API key is "
                        "missing or not valid. (hint: Create a key in the console and pass it as "
                        "a Bearer token.) [request req_test_1]");
    struct reqs r = requests(t);
    assert_int_equal(r.n, 1); /* a 4xx is final */
    json_decref(r.all);
    assert_nothing_written(t);
}

static void hostile_error_text_is_returned_raw_and_key_cut(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    /* a server that echoes the key and sends terminal escapes: the key is
     * cut out; the rest is the caller's to sanitise */
    add_fault(sc, "{\"route\": \"commands\", \"action\": \"status\", \"status\": 403, "
                  "\"code\": \"forbidden\", \"message\": \"key " KEY " \\u001b]0;owned\\u0007\","
                  " \"hint\": \"" KEY "\"}");
    start_server(t, sc);
    assert_false(fetch1(t));
    assert_non_null(strstr(t->err, "HTTP 403 forbidden: key [redacted] \x1b]0;owned\x07"));
    assert_non_null(strstr(t->err, "(hint: [redacted])"));
    assert_nothing_written(t);
}

static void cut_mid_page_is_retried(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"commands\", \"page\": 2, \"action\": \"cut\"}");
    start_server(t, sc);
    assert_true(fetch1(t));
    assert_int_equal(t->wait_status, 0);
    assert_ids(t, "runtime-commands-" SB ".jsonl",
               "cmd-0 cmd-1 cmd-2 cmd-3 cmd-4 cmd-5 cmd-6");
}

static void cut_every_time_leaves_nothing(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"events\", \"page\": 2, \"action\": \"cut\", \"times\": -1}");
    start_server(t, sc);
    /* into an existing run folder: what was there stays, nothing is added */
    assert_int_equal(mkdir(t->out, 0755), 0);
    char keep[300];
    snprintf(keep, sizeof keep, "%s/agent-run.jsonl", t->out);
    FILE *f = fopen(keep, "w");
    fputs("{}\n", f);
    fclose(f);
    t->opts.retries = 2;
    assert_false(fetch1(t));
    assert_non_null(strstr(t->err, "sandbox " SB ", events, page 2: "));
    assert_non_null(strstr(t->err, "(after 2 retries)"));
    DIR *d = opendir(t->out);
    struct dirent *de;
    size_t n = 0;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' || strlen(de->d_name) > 2) {
            assert_string_equal(de->d_name, "agent-run.jsonl");
            n++;
        }
    closedir(d);
    assert_int_equal(n, 1);
    assert_clean_run(t);
    struct reqs r = requests(t);
    assert_int_equal(count_requests(&r, "/v1/events", "cursor="), 3);
    json_decref(r.all);
}

static void server_errors_retried_then_final(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"metrics\", \"action\": \"status\", \"status\": 500, "
                  "\"times\": 2, \"code\": \"internal\"}");
    add_fault(sc, "{\"route\": \"audit\", \"page\": 1, \"action\": \"status\", \"status\": 502,"
                  " \"times\": -1, \"code\": \"bad_gateway\", \"message\": \"upstream\"}");
    start_server(t, sc);
    t->opts.retries = 2;
    assert_false(fetch1(t));
    assert_non_null(strstr(t->err, "audit log, page 1: HTTP 502 bad_gateway: upstream "
                                   "[request req_test_"));
    assert_non_null(strstr(t->err, "] (after 2 retries)"));
    struct reqs r = requests(t);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB "/metrics", NULL), 3);
    assert_int_equal(count_requests(&r, "/v1/audit", NULL), 3);
    json_decref(r.all);
    assert_nothing_written(t);
}

static void redirect_not_followed(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"commands\", \"page\": 1, \"action\": \"redirect\"}");
    start_server(t, sc);
    assert_false(fetch1(t));
    assert_non_null(strstr(t->err, "sandbox " SB ", commands, page 1: HTTP 302: a redirect to "
                                   "https://127.0.0.1:"));
    assert_non_null(strstr(t->err, "not followed"));
    struct reqs r = requests(t);
    assert_int_equal(r.n, 1);
    assert_int_equal(count_requests(&r, "/v1/elsewhere", NULL), 0);
    json_decref(r.all);
    assert_nothing_written(t);
}

static void silent_server_times_out(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"commands\", \"page\": 1, \"action\": \"hang\"}");
    start_server(t, sc);
    t->opts.timeout_ms = 800;
    int64_t t0 = now_ns();
    assert_false(fetch1(t));
    int64_t took = now_ns() - t0;
    assert_true(took >= 700 * INT64_C(1000000) && took < 5000 * INT64_C(1000000));
    assert_non_null(strstr(t->err, "sandbox " SB ", commands, page 1: Timeout"));
    assert_nothing_written(t);
}

static void untrusted_certificate_refused(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    start_server(t, scenario(t));
    t->opts.ca_file = t->g->other; /* a CA that did not sign the server's certificate */
    assert_false(fetch1(t));
    assert_non_null(strstr(t->err, "sandbox " SB ", commands, page 1: "));
    assert_non_null(strstr(t->err, "certificate"));
    struct reqs r = requests(t);
    assert_int_equal(r.n, 0); /* no request (and no key) went out */
    json_decref(r.all);
    assert_nothing_written(t);
}

static void wrong_host_name_refused(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    /* a trusted certificate, but for another name than 127.0.0.1 */
    start_server_cert(t, scenario(t), t->g->wrong, t->g->wrong_key);
    t->opts.ca_file = t->g->wrong;
    assert_false(fetch1(t));
    assert_non_null(strstr(t->err, "127.0.0.1"));
    struct reqs r = requests(t);
    assert_int_equal(r.n, 0);
    json_decref(r.all);
    assert_nothing_written(t);
}

static void only_https(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    start_server(t, scenario(t));
    char plain[80];
    snprintf(plain, sizeof plain, "http://%s", t->url + strlen("https://"));
    t->opts.base_url = plain;
    assert_false(fetch1(t));
    assert_string_equal(t->err, "the API's URL must start with https://");
    t->opts.base_url = "https://127.0.0.1:1/x?y=1";
    assert_false(fetch1(t));
    struct reqs r = requests(t);
    assert_int_equal(r.n, 0);
    json_decref(r.all);
    assert_nothing_written(t);
}

static void malformed_and_oversized_pages_refused(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"events\", \"page\": 1, \"action\": \"garbage\"}");
    add_fault(sc, "{\"route\": \"commands\", \"page\": 1, \"action\": \"big\", \"size\": 100000}");
    start_server(t, sc);
    t->opts.max_body = 8192;
    assert_false(fetch1(t));
    assert_string_equal(t->err,
                        "sandbox " SB ", commands, page 1: the response is over 8192 bytes");
    assert_nothing_written(t);
    t->opts.max_body = 0;
    assert_false(fetch1(t));
    assert_non_null(strstr(t->err, "sandbox " SB ", events, page 1: the response is not JSON"));
    assert_nothing_written(t);
}

static void cursor_loop_detected(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"commands\", \"page\": 2, \"action\": \"loop\", \"times\": -1}");
    start_server(t, sc);
    assert_false(fetch1(t));
    assert_string_equal(t->err, "sandbox " SB ", commands, page 2: \"nextCursor\" repeats an "
                                "earlier page's (a loop)");
    assert_nothing_written(t);
}

static void unknown_sandbox_is_an_error(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    start_server(t, scenario(t));
    const char *ids[] = {"deadbeef"};
    assert_false(fetch(t, ids, 1));
    assert_non_null(strstr(t->err, "sandbox deadbeef: Runtime has no commands or events"));
    assert_nothing_written(t);
    const char *bad[] = {"../etc"};
    assert_false(fetch(t, bad, 1));
    assert_non_null(strstr(t->err, "sandbox id"));
}

static void existing_files_need_force(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    start_server(t, scenario(t));
    assert_int_equal(mkdir(t->out, 0755), 0);
    char old[300], other[300];
    snprintf(old, sizeof old, "%s/runtime-audit.jsonl", t->out);
    snprintf(other, sizeof other, "%s/agent-run.jsonl", t->out);
    FILE *f = fopen(old, "w");
    fputs("{\"id\": \"from-before\"}\n", f);
    fclose(f);
    f = fopen(other, "w");
    fputs("{}\n", f);
    fclose(f);
    assert_false(fetch1(t));
    assert_non_null(strstr(t->err, "runtime-audit.jsonl exists"));
    struct reqs r = requests(t);
    assert_int_equal(r.n, 0); /* refused before anything was fetched */
    json_decref(r.all);
    assert_ids(t, "runtime-audit.jsonl", "from-before");

    t->opts.force = true;
    assert_true(fetch1(t));
    assert_ids(t, "runtime-audit.jsonl", "au-2 au-3 au-4 au-5");
    char *text = slurp(other, NULL);
    assert_string_equal(text, "{}\n");
    free(text);
    assert_clean_run(t);
}

/* Times at the ends of int64 nanoseconds widen the window without
 * overflowing (UBSan would stop the test): it then covers every audit
 * entry, and the metrics range is the widest. */
static void extreme_times_saturate(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    json_t *cmds = json_object_get(json_object_get(sc, "commands"), SB);
    json_t *c = json_array_get(cmds, 6);
    json_object_set_new(c, "startedAt", json_string("1677-09-21T00:12:44Z"));
    json_object_set_new(c, "durationMs", json_real(9.9e11));
    json_object_set_new(json_array_get(cmds, 0), "startedAt",
                        json_string("2262-04-11T23:47:16Z"));
    json_object_set_new(json_array_get(cmds, 0), "durationMs", json_real(9.9e11));
    start_server(t, sc);
    assert_true(fetch1(t));
    assert_ids(t, "runtime-audit.jsonl", "au-1 au-2 au-3 au-4 au-5 au-6 au-7 au-8");
    assert_string_equal(t->rep.saved[2].range, "30d");
}

static void empty_cursor_refused(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"events\", \"action\": \"raw\", \"status\": 200, "
                  "\"body\": \"{\\\"data\\\": [], \\\"nextCursor\\\": \\\"\\\"}\"}");
    start_server(t, sc);
    assert_false(fetch1(t));
    assert_string_equal(t->err, "sandbox " SB ", events, page 1: \"nextCursor\" is an empty string");
    assert_nothing_written(t);
}

/* Cancels a fetch once the server has seen its request for page 2 (the
 * round-th such request), not after a fixed time: under an emulator page 1
 * alone can take longer than any delay chosen here. */
struct canceller {
    _Atomic bool flag;
    const char *log;
    size_t want; /* page-2 requests the server must have logged */
};

/* Requests for a commands page after the first in the server's log (plain
 * reads: cmocka's asserts are not for other threads). */
static size_t page2_requests(const char *log)
{
    FILE *fp = fopen(log, "r");
    if (!fp)
        return 0;
    size_t n = 0;
    char line[8192];
    while (fgets(line, sizeof line, fp))
        n += strstr(line, "/v1/sandboxes/" SB "/commands") && strstr(line, "cursor=");
    fclose(fp);
    return n;
}

static void *cancel_later(void *arg)
{
    struct canceller *c = arg;
    /* a minute at most, so a fetch that never asks for page 2 still ends */
    for (int i = 0; i < 6000 && page2_requests(c->log) < c->want; i++)
        usleep(10 * 1000);
    atomic_store(&c->flag, true);
    return NULL;
}

/* A cancel stops a request that hangs and a Retry-After wait alike: the
 * hang lasts a minute and the wait 8 s, past the request's timeout, so only
 * the cancel can end either with "cancelled". */
static void cancel_leaves_nothing(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    json_t *sc = scenario(t);
    add_fault(sc, "{\"route\": \"commands\", \"page\": 2, \"action\": \"hang\"}");
    add_fault(sc, "{\"route\": \"commands\", \"page\": 2, \"action\": \"status\", "
                  "\"status\": 429, \"retry_after\": \"8\"}");
    start_server(t, sc);
    t->opts.timeout_ms = 8000;
    for (size_t round = 0; round < 2; round++) {
        struct canceller c = {false, t->log, round + 1};
        t->opts.cancel = &c.flag;
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, cancel_later, &c), 0);
        assert_false(fetch1(t));
        pthread_join(th, NULL);
        assert_string_equal(t->err, "sandbox " SB ", commands, page 2: cancelled");
        assert_nothing_written(t);
    }
    struct reqs r = requests(t);
    assert_int_equal(count_requests(&r, "/v1/sandboxes/" SB "/commands", "cursor="), 2);
    json_decref(r.all);
}

struct trace {
    struct sbx_buf all;
};

static void on_trace(void *ctx, const char *line, size_t len)
{
    struct trace *tr = ctx;
    sbx_buf_add(&tr->all, line, len);
    sbx_buf_addc(&tr->all, '\n');
}

static void trace_redacts_authorization(void **state)
{
    struct t *t = *state;
    NEED_SERVER(t);
    start_server(t, scenario(t));
    struct trace tr = {SBX_BUF_INIT};
    t->opts.trace = on_trace;
    t->opts.trace_ctx = &tr;
    assert_true(fetch1(t));
    assert_non_null(tr.all.p);
    assert_null(memmem(tr.all.p, tr.all.len, KEY, strlen(KEY)));
    assert_null(memmem(tr.all.p, tr.all.len, "Bearer", 6));
    assert_non_null(strstr(tr.all.p, "> Authorization: [redacted]"));
    assert_non_null(strstr(tr.all.p, "> GET /v1/sandboxes/" SB "/commands?limit=100"));
    assert_non_null(strstr(tr.all.p, "< HTTP/1.1 200"));
    assert_null(strstr(tr.all.p, "cmd-0")); /* no bodies */
    sbx_buf_free(&tr.all);
}

/* ---- the pieces, without a server --------------------------------------- */

static void retry_after_values(void **state)
{
    (void)state;
    int64_t now = 1790000000;
    char date[64];
    assert_int_equal(sbx_http_retry_after_ms(NULL, now), -1);
    assert_int_equal(sbx_http_retry_after_ms("", now), -1);
    assert_int_equal(sbx_http_retry_after_ms("soon", now), -1);
    assert_int_equal(sbx_http_retry_after_ms("-1", now), -1);
    assert_int_equal(sbx_http_retry_after_ms("0", now), 0);
    assert_int_equal(sbx_http_retry_after_ms(" 7 ", now), 7000);
    assert_int_equal(sbx_http_retry_after_ms("99999999999999999999", now), 86400000);
    http_date(now + 42, date, sizeof date);
    assert_int_equal(sbx_http_retry_after_ms(date, now), 42000);
    http_date(now - 42, date, sizeof date);
    assert_int_equal(sbx_http_retry_after_ms(date, now), 0);
}

static void escaping_and_json_text(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_http_escape(&b, "a+b/c=d e&f~g.h_i-j\xc3\xa9", 21);
    assert_string_equal(b.p, "a%2Bb%2Fc%3Dd%20e%26f~g.h_i-j%C3%A9");
    sbx_buf_clear(&b);
    const char *pretty = "{\n  \"a\" : [ 1 , 2.50 ],\n  \"s\": \"x \\\" y\\\\\", \"t\":\t\"  \"\n}";
    sbx_json_compact(&b, pretty, strlen(pretty));
    assert_string_equal(b.p, "{\"a\":[1,2.50],\"s\":\"x \\\" y\\\\\",\"t\":\"  \"}");
    sbx_buf_free(&b);

    const char *page = "{\"n\\u0065xt\": null, \"data\" : [ {\"id\": \"a,]\"} , [1,[2]],\"s\" , 3 ,"
                       "true ]}";
    const char *text;
    size_t len;
    assert_true(sbx_json_member_text(page, strlen(page), "next", &text, &len));
    assert_int_equal(len, 4);
    assert_true(sbx_json_member_text(page, strlen(page), "data", &text, &len));
    assert_int_equal(text[0], '[');
    assert_int_equal(text[len - 1], ']');
    assert_false(sbx_json_member_text(page, strlen(page), "nope", &text, &len));
    assert_true(sbx_json_member_text("{\"s\": \"v\"}", 10, "s", &text, &len));
    assert_int_equal(len, 3); /* a string with its quotes */
    assert_memory_equal(text, "\"v\"", 3);
}

static void redaction(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"Authorization: Bearer " KEY, "Authorization: [redacted]"},
        {"authorization:Bearer " KEY, "authorization: [redacted]"},
        {"[HTTP/2] [1] [authorization: Bearer " KEY "]", "[HTTP/2] [1] [authorization: [redacted]"},
        {"Proxy-Authorization: Basic dXNlcjpwdw==", "Proxy-Authorization: [redacted]"},
        {"GET /x?" KEY "&" KEY " HTTP/1.1", "GET /x?[redacted]&[redacted] HTTP/1.1"},
        {"x-request-id: req_1", "x-request-id: req_1"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_add(&b, "", 0);
        sbx_http_redact(&b, cases[i][0], strlen(cases[i][0]), KEY);
        assert_string_equal(b.p, cases[i][1]);
        sbx_buf_free(&b);
    }
}

static bool join_el(void *ctx, size_t i, const char *el, size_t len)
{
    struct sbx_buf *b = ctx;
    sbx_buf_addf(b, "%s%zu=", i ? "|" : "", i);
    sbx_buf_add(b, el, len);
    return true;
}

static void array_elements_split(void **state)
{
    (void)state;
    const char *arr = " [ {\"id\": \"a,]\"} , [1,[2]],\"s\\\"]\" , 3 ,true, {} ] ";
    struct sbx_buf b = SBX_BUF_INIT;
    size_t n = sbx_json_array_each(arr, strlen(arr), join_el, &b);
    assert_int_equal(n, 6);
    assert_string_equal(b.p, "0={\"id\": \"a,]\"}|1=[1,[2]]|2=\"s\\\"]\"|3=3|4=true|5={}");
    sbx_buf_clear(&b);
    assert_int_equal(sbx_json_array_each("[]", 2, join_el, &b), 0);
    assert_int_equal(sbx_json_array_each(" [ ] ", 5, join_el, &b), 0);
    sbx_buf_free(&b);
    assert_true(sbx_fetch_valid_id("7f3a2c10"));
    assert_true(sbx_fetch_valid_id("sb_A-9"));
    assert_false(sbx_fetch_valid_id(""));
    assert_false(sbx_fetch_valid_id("a/b"));
    assert_false(sbx_fetch_valid_id("a b"));
    assert_false(sbx_fetch_valid_id(".."));
    char long_id[70];
    memset(long_id, 'a', 65);
    long_id[65] = '\0';
    assert_false(sbx_fetch_valid_id(long_id));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(retry_after_values),
        cmocka_unit_test(escaping_and_json_text),
        cmocka_unit_test(array_elements_split),
        cmocka_unit_test(redaction),
#define CASE(f) cmocka_unit_test_setup_teardown(f, case_setup, case_teardown)
        CASE(every_page_saved),
        CASE(several_sandboxes_share_one_audit_walk),
        CASE(retry_after_429_waited_out),
        CASE(unavailable_503_then_success),
        CASE(retry_after_past_the_deadline_gives_up),
        CASE(unauthorized_shows_message_and_hint),
        CASE(hostile_error_text_is_returned_raw_and_key_cut),
        CASE(cut_mid_page_is_retried),
        CASE(cut_every_time_leaves_nothing),
        CASE(server_errors_retried_then_final),
        CASE(redirect_not_followed),
        CASE(silent_server_times_out),
        CASE(untrusted_certificate_refused),
        CASE(wrong_host_name_refused),
        CASE(only_https),
        CASE(malformed_and_oversized_pages_refused),
        CASE(cursor_loop_detected),
        CASE(unknown_sandbox_is_an_error),
        CASE(existing_files_need_force),
        CASE(trace_redacts_authorization),
        CASE(cancel_leaves_nothing),
        CASE(extreme_times_saturate),
        CASE(empty_cursor_refused),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
