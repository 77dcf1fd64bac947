/* Jira's edit by the comment id the review file kept, and Slack's post,
 * through sbx_send_post against tests/https/ticket_server.py on 127.0.0.1
 * (a certificate made here with openssl(1)): the kept comment read (GET),
 * then edited with PUT and its id given back, only while it holds the kept
 * body's marker; a kept id the issue no longer has (a 404), a comment
 * rewritten since or someone else's, posts a new comment and gives its id,
 * the other left alone; an id that is no Jira id is never put in a URL;
 * the same body on the ticket already is found, not edited; --repost
 * posts. Every case is skipped when python3 or openssl is missing.
 * Nothing but 127.0.0.1 is contacted. */
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
#include <jansson.h>

#include "export/send.h"
#include "export/target.h"

extern char **environ;

#define TOK "kept_test_TOKEN_0123456789abcdef"
#define D1 "1111111111111111111111111111111111111111111111111111111111111111"
#define D2 "2222222222222222222222222222222222222222222222222222222222222222"
#define D3 "3333333333333333333333333333333333333333333333333333333333333333"

struct srv {
    bool usable;
    pid_t pid;
    char tmp[64], cert[128], key[128], log[128], port[128], script[4096];
    char url[64], jira[96], slack[160];
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
    int st;
    if (rc != 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int setup(void **state)
{
    struct srv *s = calloc(1, sizeof *s);
    *state = s;
    unsetenv("https_proxy");
    unsetenv("HTTPS_PROXY");
    unsetenv("all_proxy");
    unsetenv("ALL_PROXY");
    setenv("NO_PROXY", "127.0.0.1", 1);
    const char *me = __FILE__, *slash = strrchr(me, '/');
    snprintf(s->script, sizeof s->script, "%.*s%s../https/ticket_server.py",
             slash ? (int)(slash - me) : 0, me, slash ? "/" : "");
    if (access(s->script, R_OK) != 0)
        snprintf(s->script, sizeof s->script, "tests/https/ticket_server.py");
    char *py[] = {"python3", "-c", "import ssl, http.server", NULL};
    char *ossl[] = {"openssl", "version", NULL};
    if (access(s->script, R_OK) != 0 || run_quiet(py) != 0 || run_quiet(ossl) != 0)
        return 0; /* every case skips */
    snprintf(s->tmp, sizeof s->tmp, "/tmp/sbxview-kept-XXXXXX");
    if (!mkdtemp(s->tmp))
        return -1;
    snprintf(s->cert, sizeof s->cert, "%s/cert.pem", s->tmp);
    snprintf(s->key, sizeof s->key, "%s/key.pem", s->tmp);
    snprintf(s->log, sizeof s->log, "%s/requests.jsonl", s->tmp);
    snprintf(s->port, sizeof s->port, "%s/port", s->tmp);
    char *req[] = {"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                   "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", s->key, "-out", s->cert,
                   "-days", "2", "-subj", "/CN=127.0.0.1", "-addext",
                   "subjectAltName=IP:127.0.0.1", NULL};
    if (run_quiet(req) != 0)
        return 0;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"python3", s->script, "--cert", s->cert, "--key", s->key, "--token", TOK,
                    "--log", s->log, "--port-file", s->port, NULL};
    int rc = posix_spawnp(&s->pid, "python3", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    for (int i = 0; i < 400; i++) {
        FILE *f = fopen(s->port, "r");
        int port = 0;
        if (f) {
            bool got = fscanf(f, "%d", &port) == 1;
            fclose(f);
            if (got && port > 0) {
                snprintf(s->url, sizeof s->url, "https://127.0.0.1:%d", port);
                snprintf(s->jira, sizeof s->jira, "%s/jira", s->url);
                snprintf(s->slack, sizeof s->slack, "%s/slack/services/T0/B0/%s", s->url, TOK);
                s->usable = true;
                return 0;
            }
        }
        if (waitpid(s->pid, NULL, WNOHANG) != 0)
            return -1;
        usleep(25000);
    }
    return -1;
}

static int teardown(void **state)
{
    struct srv *s = *state;
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, NULL, 0);
    }
    if (s->tmp[0]) {
        char *rm[] = {"rm", "-rf", s->tmp, NULL};
        run_quiet(rm);
    }
    free(s);
    return 0;
}

/* How many requests the server got of method to a path ending in tail. */
static int requests(const struct srv *s, const char *method, const char *tail)
{
    FILE *f = fopen(s->log, "r");
    int n = 0;
    char line[1 << 16];
    while (f && fgets(line, sizeof line, f)) {
        json_t *e = json_loads(line, 0, NULL);
        const char *m = json_string_value(json_object_get(e, "method"));
        const char *p = json_string_value(json_object_get(e, "path"));
        if (m && p && strcmp(m, method) == 0 && strlen(p) >= strlen(tail) &&
            strcmp(p + strlen(p) - strlen(tail), tail) == 0)
            n++;
        json_decref(e);
    }
    if (f)
        fclose(f);
    return n;
}

/* How many requests of method to a path holding part. */
static int requests_to(const struct srv *s, const char *method, const char *part)
{
    FILE *f = fopen(s->log, "r");
    int n = 0;
    char line[1 << 16];
    while (f && fgets(line, sizeof line, f)) {
        json_t *e = json_loads(line, 0, NULL);
        const char *m = json_string_value(json_object_get(e, "method"));
        const char *p = json_string_value(json_object_get(e, "path"));
        if (m && p && strcmp(m, method) == 0 && strstr(p, part))
            n++;
        json_decref(e);
    }
    if (f)
        fclose(f);
    return n;
}

/* requests(), once the server has logged want of them (it logs a request
 * after answering it): waits for that, up to 10 s, then says how many. */
static int logged(const struct srv *s, const char *method, const char *tail, int want)
{
    int n = requests(s, method, tail);
    for (int i = 0; i < 400 && n < want; i++) {
        usleep(25000);
        n = requests(s, method, tail);
    }
    return n;
}

/* Sends a Jira v2 body saying what, marked digest, to key; kept and
 * kept_body: the comment id and body marker an earlier export kept. */
static enum sbx_send_status jira(const struct srv *s, const char *key, const char *what,
                                 const char *digest, const char *kept, const char *kept_body,
                                 bool repost, char id[SBX_SEND_ID_MAX])
{
    char to[64], body[256], err[256];
    snprintf(to, sizeof to, "jira:%s", key);
    snprintf(body, sizeof body, "%s\nsbxview:%s\n", what, digest);
    struct sbx_target t;
    assert_true(sbx_target_parse(to, &t, err, sizeof err));
    struct sbx_send_env env = {.jira_url = s->jira, .jira_user = "reviewer@example.com",
                               .jira_token = TOK, .ca_file = s->cert, .jira_api = 2};
    struct sbx_send_opts o = {.timeout_ms = 5000, .wait_max_ms = -1, .kept_comment = kept,
                              .kept_body = kept_body, .repost = repost};
    struct sbx_send_result res;
    bool ok = sbx_send_post(&t, &env, body, strlen(body), digest, &o, &res);
    if (!ok)
        print_message("jira %s: %s\n", key, res.message);
    snprintf(id, SBX_SEND_ID_MAX, "%s", res.comment_id);
    enum sbx_send_status st = res.status;
    sbx_send_result_free(&res);
    sbx_target_free(&t);
    return st;
}

static void jira_edits_the_kept_comment(void **state)
{
    struct srv *s = *state;
    if (!s->usable)
        skip();
    char id[SBX_SEND_ID_MAX], id2[SBX_SEND_ID_MAX], id3[SBX_SEND_ID_MAX], path[SBX_SEND_ID_MAX + 32];
    assert_int_equal(jira(s, "OPS-7", "first state", D1, NULL, NULL, false, id), SBX_SEND_POSTED);
    assert_true(id[0] && strspn(id, "0123456789") == strlen(id));
    /* the review changed: the kept comment is read, still holds D1, and is
     * edited, the same id given back */
    assert_int_equal(jira(s, "OPS-7", "second state", D2, id, D1, false, id2), SBX_SEND_EDITED);
    assert_string_equal(id2, id);
    snprintf(path, sizeof path, "/issue/OPS-7/comment/%s", id);
    assert_int_equal(logged(s, "GET", path, 1), 1);
    assert_int_equal(logged(s, "PUT", path, 1), 1);
    assert_int_equal(logged(s, "POST", "/issue/OPS-7/comment", 1), 1);
    /* the same body again: found by its marker, neither edited nor posted */
    assert_int_equal(jira(s, "OPS-7", "second state", D2, id, D2, false, id3), SBX_SEND_EXISTED);
    assert_int_equal(requests(s, "PUT", path), 1);
    /* --repost: a new comment, the kept one left alone */
    assert_int_equal(jira(s, "OPS-7", "third state", D3, id, D2, true, id3), SBX_SEND_POSTED);
    assert_string_not_equal(id3, id);
    assert_int_equal(logged(s, "POST", "/issue/OPS-7/comment", 2), 2);
    assert_int_equal(requests(s, "PUT", path), 1);
}

static void jira_posts_anew_when_the_comment_is_gone(void **state)
{
    struct srv *s = *state;
    if (!s->usable)
        skip();
    char id[SBX_SEND_ID_MAX], other[SBX_SEND_ID_MAX];
    /* a comment of another issue is not one of this issue's */
    assert_int_equal(jira(s, "OPS-8", "elsewhere", D1, NULL, NULL, false, other),
                     SBX_SEND_POSTED);
    assert_int_equal(logged(s, "POST", "/issue/OPS-8/comment", 1), 1);
    static const char *const gone[] = {"999999", NULL};
    for (size_t i = 0; i < 2; i++) {
        const char *kept = gone[i] ? gone[i] : other;
        int gets = requests_to(s, "GET", "/comment/"), puts = requests(s, "PUT", ""),
            posts = requests(s, "POST", "/issue/OPS-9/comment");
        assert_int_equal(jira(s, "OPS-9", i ? "state b" : "state a", i ? D2 : D1, kept, D1,
                              false, id),
                         SBX_SEND_POSTED);
        assert_true(id[0] && strcmp(id, kept) != 0);
        assert_int_equal(logged(s, "POST", "/issue/OPS-9/comment", posts + 1), posts + 1);
        assert_int_equal(requests_to(s, "GET", "/comment/"), gets + 1); /* read: a 404 */
        assert_int_equal(requests(s, "PUT", ""), puts);
    }
}

/* A kept id whose comment does not hold the kept body's marker — it was
 * rewritten since (here: another export's edit gave it D3), it is another
 * run's comment (D1 on it, D2 kept), or no marker is kept at all — is read
 * and left alone: a new comment is posted, with its own id. */
static void jira_leaves_a_comment_without_the_marker(void **state)
{
    struct srv *s = *state;
    if (!s->usable)
        skip();
    char a[SBX_SEND_ID_MAX], b[SBX_SEND_ID_MAX], id[SBX_SEND_ID_MAX];
    assert_int_equal(jira(s, "OPS-11", "run a", D1, NULL, NULL, false, a), SBX_SEND_POSTED);
    assert_int_equal(jira(s, "OPS-11", "run b", D2, NULL, NULL, false, b), SBX_SEND_POSTED);
    /* b rewritten: it now holds D3, no longer D2 */
    assert_int_equal(jira(s, "OPS-11", "run b, rewritten", D3, b, D2, false, id), SBX_SEND_EDITED);
    char path[96];
    snprintf(path, sizeof path, "/issue/OPS-11/comment/%s", b);
    assert_int_equal(logged(s, "PUT", path, 1), 1); /* logged once answered: wait for it */
    struct {
        const char *kept, *kept_body;
    } cases[] = {
        {b, D2},    /* rewritten: D2 is gone from it */
        {a, D2},    /* another run's comment: D1 on it */
        {a, NULL},  /* no marker kept: nothing to check it by */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char digest[65];
        memset(digest, "cdef"[i], 64);
        digest[64] = '\0';
        int gets = requests_to(s, "GET", "/comment/"), puts = requests(s, "PUT", ""),
            posts = requests(s, "POST", "/issue/OPS-11/comment");
        assert_int_equal(jira(s, "OPS-11", "a new state", digest, cases[i].kept,
                              cases[i].kept_body, false, id),
                         SBX_SEND_POSTED);
        assert_true(id[0] && strcmp(id, a) != 0 && strcmp(id, b) != 0);
        assert_int_equal(logged(s, "POST", "/issue/OPS-11/comment", posts + 1), posts + 1);
        assert_int_equal(requests_to(s, "GET", "/comment/"), gets + (cases[i].kept_body ? 1 : 0));
        assert_int_equal(requests(s, "PUT", ""), puts);
    }
}

static void jira_never_puts_a_hostile_id_in_a_url(void **state)
{
    struct srv *s = *state;
    if (!s->usable)
        skip();
    static const char *const bad[] = {"../../issue/OPS-1/comment/1", "1?x=2", "12a", "",
                                      "123456789012345678901"};
    char id[SBX_SEND_ID_MAX];
    int puts = requests(s, "PUT", ""), gets = requests_to(s, "GET", "/comment/");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char digest[65];
        memset(digest, "456789ab"[i], 64);
        digest[64] = '\0';
        assert_int_equal(jira(s, "OPS-10", "a state", digest, bad[i], D1, false, id),
                         SBX_SEND_POSTED);
    }
    assert_int_equal(logged(s, "POST", "/issue/OPS-10/comment", 5), 5);
    assert_int_equal(requests(s, "PUT", ""), puts);
    assert_int_equal(requests_to(s, "GET", "/comment/"), gets);
}

static void slack_posts_with_no_id(void **state)
{
    struct srv *s = *state;
    if (!s->usable)
        skip();
    char err[256], body[256];
    snprintf(body, sizeof body, "{\"text\": \"state\\nsbxview:%s\", \"mrkdwn\": true}", D1);
    struct sbx_target t;
    assert_true(sbx_target_parse("slack:", &t, err, sizeof err));
    struct sbx_send_env env = {.slack_webhook_url = s->slack, .ca_file = s->cert};
    struct sbx_send_opts o = {.timeout_ms = 5000, .wait_max_ms = -1, .kept_comment = "5"};
    struct sbx_send_result res;
    assert_true(sbx_send_post(&t, &env, body, strlen(body), D1, &o, &res));
    assert_int_equal(res.status, SBX_SEND_POSTED);
    assert_string_equal(res.comment_id, ""); /* the webhook answers "ok" */
    assert_int_equal(logged(s, "POST", TOK, 1), 1);
    assert_int_equal(requests(s, "PUT", TOK), 0); /* a webhook's post is never edited */
    sbx_send_result_free(&res);
    sbx_target_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jira_edits_the_kept_comment),
        cmocka_unit_test(jira_posts_anew_when_the_comment_is_gone),
        cmocka_unit_test(jira_leaves_a_comment_without_the_marker),
        cmocka_unit_test(jira_never_puts_a_hostile_id_in_a_url),
        cmocka_unit_test(slack_posts_with_no_id),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
