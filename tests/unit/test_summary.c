/* The analyses behind the summary, each on a log made here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/hashcheck.h"
#include "analyses/secrets/secrets.h"
#include "analyses/summary.h"

static char *sha16(const char *s)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n;
    EVP_Digest(s, strlen(s), md, &n, EVP_sha256(), NULL);
    char *hex = malloc(17);
    for (int i = 0; i < 8; i++)
        sprintf(hex + 2 * i, "%02x", md[i]);
    return hex;
}

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

static struct run *summarize(const char *log, int threads)
{
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    size_t n = strlen(log);
    char *copy = malloc(n + 1);
    memcpy(copy, log, n + 1);
    uint32_t src = sbx_timeline_add_source(&r->tl, "run.jsonl", copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = threads};
    sbx_load_source(&r->tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = threads};
    assert_true(sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err));
    return r;
}

static void done(struct run *r)
{
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
}

static void add_cmd(struct sbx_buf *b, int sec, const char *cmd, int exit, int ms, const char *out,
                    const char *err, const char *hash, const char *extra)
{
    sbx_buf_addf(b,
                 "{\"at\": \"2026-01-01T00:00:%02d.000Z\", \"sandbox\": \"s1\", \"kind\": \"command\", "
                 "\"command\": \"%s\", \"exit\": %d, \"timed_out\": %s, \"ms\": %d, \"stdout\": \"%s\", "
                 "\"stderr\": \"%s\", \"stdout_hash\": \"%s\"%s}\n",
                 sec, cmd, exit, exit == 124 ? "true" : "false", ms, out, err, hash, extra ? extra : "");
}

static void commands(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    const char *empty = "e3b0c44298fc1c14";
    add_cmd(&b, 1, "pytest -q", 1, 134000, "", "", empty, NULL);
    add_cmd(&b, 2, "cd /w && pip install x", 1, 10, "", "", empty, NULL);
    add_cmd(&b, 3, "bash -c \\\"pytest -x\\\"", 2, 10, "", "", empty, NULL);
    add_cmd(&b, 4, "sleep 99", 124, 99000, "", "", empty, NULL);
    add_cmd(&b, 5, "ls", 0, 5, "", "", empty, NULL);
    struct run *r = summarize(b.p, 1);
    assert_int_equal(r->sum.commands, 5);
    assert_int_equal(r->sum.failed, 4);
    assert_int_equal(r->sum.timed_out, 1);
    assert_int_equal(r->sum.nfailed_by, 3);
    assert_string_equal(sbx_str(&r->tl, r->sum.failed_by[0].program), "pytest");
    assert_int_equal(r->sum.failed_by[0].count, 2);
    assert_string_equal(sbx_str(&r->tl, r->sum.failed_by[1].program), "pip install");
    assert_string_equal(sbx_str(&r->tl, r->sum.failed_by[2].program), "sleep");
    assert_non_null(r->sum.longest);
    assert_int_equal(r->sum.longest->u.cmd.ms, 134000);
    assert_int_equal(r->sum.nsandboxes, 1);
    assert_true(r->tl.order[0]->findings & SBX_F_FAILED);
    done(r);
    sbx_buf_free(&b);
}

static void files(void **state)
{
    (void)state;
    struct run *r = summarize(
        "{\"at\": \"2026-01-01T00:00:00Z\", \"kind\": \"files\", \"added\": [\"./b\", \"./a\"], \"changed\": [], \"removed\": []}\n"
        "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"files\", \"root\": \"/etc\", \"added\": [], \"changed\": [\"./hosts\"], \"removed\": []}\n"
        "{\"at\": \"2026-01-01T00:00:02Z\", \"kind\": \"files\", \"root\": \"/usr/local\", \"added\": [], \"changed\": [], \"removed\": []}\n", 1);
    assert_int_equal(r->sum.files[SBX_ADDED].n, 2);
    assert_string_equal(r->sum.files[SBX_ADDED].s[0], "a");
    assert_int_equal(r->sum.system[SBX_CHANGED].n, 1);
    assert_string_equal(r->sum.system[SBX_CHANGED].s[0], "/etc/hosts");
    assert_int_equal(r->sum.system_roots.n, 2);
    assert_true(r->tl.order[1]->findings & SBX_F_SYSTEM_FILES);
    assert_false(r->tl.order[2]->findings & SBX_F_SYSTEM_FILES);
    done(r);
}

static void network(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    const char *empty = "e3b0c44298fc1c14";
    add_cmd(&b, 1, "curl -fsS https://Pastebin.com/raw/x", 6, 70, "",
            "curl: (6) Could not resolve host: pastebin.com\\n", empty, NULL);
    add_cmd(&b, 2, "curl https://pastebin.com/raw/y", 7, 70, "",
            "curl: (7) Failed to connect to pastebin.com port 443 after 0 ms: Couldn't connect to server\\n",
            empty, NULL);
    add_cmd(&b, 3, "pip install --index-url https://pypi.org/simple x", 0, 70, "", "", empty, NULL);
    add_cmd(&b, 4, "npm i", 1, 70, "", "npm ERR! getaddrinfo ENOTFOUND registry.npmjs.org\\n", empty, NULL);
    add_cmd(&b, 5, "git clone git@github.com:o/r.git", 0, 70, "", "", empty, NULL);
    struct run *r = summarize(b.p, 1);
    assert_int_equal(r->sum.nrefused, 2);
    assert_string_equal(r->sum.refused[0].host, "pastebin.com");
    assert_int_equal(r->sum.refused[0].count, 2);
    assert_string_equal(r->sum.refused[0].evidence, "curl: (6) Could not resolve host: pastebin.com");
    assert_int_equal(r->sum.refused[0].event->line_no, 1);
    assert_string_equal(r->sum.refused[0].pattern, "curl");
    assert_string_equal(r->sum.refused[1].host, "registry.npmjs.org");
    /* reached or named, minus refused */
    assert_int_equal(r->sum.hosts.n, 2);
    assert_string_equal(r->sum.hosts.s[0], "github.com");
    assert_string_equal(r->sum.hosts.s[1], "pypi.org");
    assert_true(r->tl.order[0]->findings & SBX_F_REFUSED_HOST);
    done(r);
    sbx_buf_free(&b);
}

static void stdout_hashes(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    char *h = sha16("4.0\n");
    add_cmd(&b, 1, "python3 x.py", 0, 5, "4.0\\n", "", h, NULL);
    add_cmd(&b, 2, "python3 x.py", 0, 5, "4.1\\n", "", h, NULL); /* edited output */
    struct sbx_buf big = SBX_BUF_INIT;
    for (int i = 0; i < 2000; i++)
        sbx_buf_addc(&big, 'x');
    sbx_buf_adds(&big, "\\n[...]\\n");
    for (int i = 0; i < 2000; i++)
        sbx_buf_addc(&big, 'y');
    add_cmd(&b, 3, "big", 0, 5, big.p, "", "0123456789abcdef", NULL);
    sbx_buf_addf(&b, "{\"at\": \"2026-01-01T00:00:04Z\", \"kind\": \"command\", \"command\": \"nohash\", \"exit\": 0}\n");
    struct run *r = summarize(b.p, 1);
    assert_int_equal(r->sum.hash_verified, 1);
    assert_int_equal(r->sum.hash_mismatched, 1);
    assert_int_equal(r->sum.hash_unverifiable, 2);
    assert_true(r->tl.order[1]->findings & SBX_F_HASH_MISMATCH);
    /* the verdict the views show is the one the analysis kept */
    assert_int_equal(sbx_hash_verdict(&r->tl, r->tl.order[0]), SBX_HASH_VERIFIED);
    assert_int_equal(sbx_hash_verdict(&r->tl, r->tl.order[1]), SBX_HASH_MISMATCH);
    assert_int_equal(sbx_hash_verdict(&r->tl, r->tl.order[2]), SBX_HASH_CLIPPED);
    assert_int_equal(sbx_hash_verdict(&r->tl, r->tl.order[3]), SBX_HASH_NONE);
    /* and nothing is hashed again: without the analysis's mark, no verdict */
    r->tl.order[0]->u.cmd.flags &= ~(uint32_t)(SBX_CMD_HASH_CHECKED | SBX_CMD_HASH_VERIFIED);
    assert_int_equal(sbx_hash_verdict(&r->tl, r->tl.order[0]), SBX_HASH_PENDING);
    done(r);
    free(h);
    sbx_buf_free(&big);
    sbx_buf_free(&b);
}

static void secrets(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    add_cmd(&b, 1, "echo \\\"deploy token: ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\\\"", 0, 5,
            "deploy token: ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\\n", "", "c50a9aa8e86e2388", NULL);
    struct run *r = summarize(b.p, 1);
    assert_true(r->sum.nsecrets >= 2);
    assert_string_equal(sbx_secret_kind_name(r->sum.secrets[0].kind), "github-token");
    assert_string_equal(r->sum.secrets[0].where, "command");
    assert_string_equal(r->sum.secrets[0].sample, "ghp_\xE2\x80\xA6" "AB");
    assert_string_equal(r->sum.secrets[1].where, "stdout");
    assert_null(strstr(r->sum.secrets[0].sample, "1234567890"));
    assert_true(r->tl.order[0]->findings & SBX_F_SECRET);
    done(r);
    sbx_buf_free(&b);
}

/* A secret in a field the recorder added (not command or output) is found
 * too, and said to be in the record. */
static void secrets_in_other_fields(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    add_cmd(&b, 1, "ls", 0, 5, "", "", "e3b0c44298fc1c14",
            ", \"env\": \"GITHUB_TOKEN=ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\"");
    struct run *r = summarize(b.p, 1);
    assert_int_equal(r->sum.nsecrets, 1);
    assert_string_equal(r->sum.secrets[0].where, "record");
    done(r);
    sbx_buf_free(&b);
}

/* Several threads must give exactly what one gives. */
static void threads_agree(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    const char *empty = "e3b0c44298fc1c14";
    for (int i = 0; i < 30000; i++) {
        if (i % 1000 == 7)
            add_cmd(&b, i % 60, "curl https://h.example/x", 6, i % 500, "",
                    "curl: (6) Could not resolve host: h.example\\n", empty, NULL);
        else if (i % 1000 == 9)
            add_cmd(&b, i % 60, "echo ghp_1234567890abcdefghijklmnopqrstuvwxyzAB", 0, 1, "", "", empty, NULL);
        else
            add_cmd(&b, i % 60, "pytest -q", i % 5 == 0, i % 500, "", "", empty, NULL);
    }
    struct run *one = summarize(b.p, 1), *two = summarize(b.p, 2);
    assert_int_equal(one->sum.failed, two->sum.failed);
    assert_int_equal(one->sum.nsecrets, two->sum.nsecrets);
    assert_int_equal(one->sum.nsecrets, 30);
    for (size_t i = 0; i < one->sum.nsecrets; i++)
        assert_int_equal(one->sum.secrets[i].event->line_no, two->sum.secrets[i].event->line_no);
    assert_int_equal(one->sum.nrefused, 1);
    assert_int_equal(two->sum.refused[0].count, 30);
    assert_int_equal(one->sum.refused[0].event->line_no, two->sum.refused[0].event->line_no);
    assert_int_equal(one->sum.hash_verified, two->sum.hash_verified);
    done(one);
    done(two);
    sbx_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commands), cmocka_unit_test(files),   cmocka_unit_test(network),
        cmocka_unit_test(stdout_hashes), cmocka_unit_test(secrets),
        cmocka_unit_test(secrets_in_other_fields), cmocka_unit_test(threads_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
