/* The analyses behind the summary, each on events made here
 * (tests/unit/fixture.h): commands as the recorder makes them, files
 * events, a record's other fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "analyses/hashcheck.h"
#include "analyses/secrets/secrets.h"
#include "analyses/summary.h"
#include "tests/unit/fixture.h"

/* 2026-01-01T00:00:00Z + s seconds */
#define AT(s) ((INT64_C(1767225600) + (s)) * FX_S)

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
    struct fixture fx;
    struct sbx_summary sum;
};

static struct run *start(void)
{
    struct run *r = calloc(1, sizeof *r);
    fixture_init(&r->fx, "run.jsonl");
    return r;
}

/* Sorts the events and runs the analyses on that many threads. */
static void summarize(struct run *r, int threads)
{
    fixture_finish(&r->fx);
    char err[256];
    struct sbx_summary_opts so = {.threads = threads};
    assert_true(sbx_summarize(&r->fx.tl, &so, &r->sum, err, sizeof err));
}

static void done(struct run *r)
{
    sbx_summary_free(&r->sum);
    fixture_free(&r->fx);
    free(r);
}

/* A command the wrapper logged at second sec, when it ended after ms (exit
 * 124: it timed out), with its output and stdout hash. */
static struct sbx_event *add_cmd(struct run *r, int sec, const char *cmd, int exit, int ms,
                                 const char *out, const char *err, const char *hash)
{
    struct sbx_event *e = fixture_command(&r->fx, "s1", AT(sec) - ms * FX_MS, ms, cmd, exit);
    fixture_output(&r->fx, e, out, err);
    if (exit == 124)
        fixture_timed_out(e);
    fixture_stdout_hash(e, hash);
    return e;
}

static const char EMPTY[] = "e3b0c44298fc1c14"; /* the hash of no output */

static void commands(void **state)
{
    (void)state;
    struct run *r = start();
    add_cmd(r, 1, "pytest -q", 1, 134000, "", "", EMPTY);
    add_cmd(r, 2, "cd /w && pip install x", 1, 10, "", "", EMPTY);
    add_cmd(r, 3, "bash -c \"pytest -x\"", 2, 10, "", "", EMPTY);
    add_cmd(r, 4, "sleep 99", 124, 99000, "", "", EMPTY);
    add_cmd(r, 5, "ls", 0, 5, "", "", EMPTY);
    summarize(r, 1);
    assert_int_equal(r->sum.commands, 5);
    assert_int_equal(r->sum.failed, 4);
    assert_int_equal(r->sum.timed_out, 1);
    assert_int_equal(r->sum.nfailed_by, 3);
    assert_string_equal(sbx_str(&r->fx.tl, r->sum.failed_by[0].program), "pytest");
    assert_int_equal(r->sum.failed_by[0].count, 2);
    assert_string_equal(sbx_str(&r->fx.tl, r->sum.failed_by[1].program), "pip install");
    assert_string_equal(sbx_str(&r->fx.tl, r->sum.failed_by[2].program), "sleep");
    assert_non_null(r->sum.longest);
    assert_int_equal(sbx_cmd_ms(&r->sum.longest->u.cmd), 134000);
    assert_int_equal(r->sum.nsandboxes, 1);
    assert_true(sbx_tl_at(&r->fx.tl, 0)->findings & SBX_F_FAILED);
    done(r);
}

static void files(void **state)
{
    (void)state;
    struct run *r = start();
    struct sbx_event *e = fixture_files(&r->fx, NULL, AT(0), NULL);
    fixture_paths(&r->fx, e, SBX_ADDED, "b", "a", NULL);
    e = fixture_files(&r->fx, NULL, AT(1), "/etc");
    fixture_paths(&r->fx, e, SBX_CHANGED, "/etc/hosts", NULL);
    fixture_files(&r->fx, NULL, AT(2), "/usr/local");
    summarize(r, 1);
    assert_int_equal(r->sum.files[SBX_ADDED].n, 2);
    assert_string_equal(r->sum.files[SBX_ADDED].s[0], "a");
    assert_int_equal(r->sum.system[SBX_CHANGED].n, 1);
    assert_string_equal(r->sum.system[SBX_CHANGED].s[0], "/etc/hosts");
    assert_int_equal(r->sum.system_roots.n, 2);
    /* the paths are the timeline's strings, kept, not copies (freed with it) */
    assert_true(r->sum.files[SBX_ADDED].kept && r->sum.system[SBX_CHANGED].kept);
    assert_ptr_equal(r->sum.files[SBX_ADDED].s[1], sbx_str(&r->fx.tl, sbx_strtab_intern(&r->fx.tl.strings, "b", 1)));
    assert_ptr_equal(r->sum.system[SBX_CHANGED].s[0],
                     sbx_str(&r->fx.tl, sbx_strtab_intern(&r->fx.tl.strings, "/etc/hosts", 10)));
    assert_false(r->sum.system_roots.kept); /* copies, as every other list */
    assert_true(sbx_tl_at(&r->fx.tl, 1)->findings & SBX_F_SYSTEM_FILES);
    assert_false(sbx_tl_at(&r->fx.tl, 2)->findings & SBX_F_SYSTEM_FILES);
    done(r);
}

/* A kept list: finish sorts and drops repeats without freeing them, free
 * leaves the strings to their owner; a list of copies still frees its. */
static void kept_lists(void **state)
{
    (void)state;
    static const char *const owner[] = {"c", "a", "b", "a", "c", "c"};
    struct sbx_strlist kept = {0}, copies = {0};
    for (size_t i = 0; i < 6; i++) {
        sbx_strlist_keep(&kept, owner[i]);
        sbx_strlist_add(&copies, owner[i], 1);
    }
    sbx_strlist_finish(&kept);
    sbx_strlist_finish(&copies);
    assert_int_equal(kept.n, 3);
    assert_int_equal(copies.n, 3);
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(kept.s[i], copies.s[i]);
        assert_ptr_not_equal(kept.s[i], copies.s[i]);
    }
    assert_ptr_equal(kept.s[0], owner[1]); /* the owner's "a" */
    sbx_strlist_free(&kept); /* would abort freeing a string it does not own */
    sbx_strlist_free(&copies);
    assert_false(kept.kept);
}

static void network(void **state)
{
    (void)state;
    struct run *r = start();
    add_cmd(r, 1, "curl -fsS https://Pastebin.com/raw/x", 6, 70, "",
            "curl: (6) Could not resolve host: pastebin.com\n", EMPTY);
    add_cmd(r, 2, "curl https://pastebin.com/raw/y", 7, 70, "",
            "curl: (7) Failed to connect to pastebin.com port 443 after 0 ms: Couldn't connect to server\n",
            EMPTY);
    add_cmd(r, 3, "pip install --index-url https://pypi.org/simple x", 0, 70, "", "", EMPTY);
    add_cmd(r, 4, "npm i", 1, 70, "", "npm ERR! getaddrinfo ENOTFOUND registry.npmjs.org\n", EMPTY);
    add_cmd(r, 5, "git clone git@github.com:o/r.git", 0, 70, "", "", EMPTY);
    summarize(r, 1);
    assert_int_equal(r->sum.nrefused, 2);
    assert_string_equal(r->sum.refused[0].host, "pastebin.com");
    assert_int_equal(r->sum.refused[0].count, 2);
    assert_string_equal(r->sum.refused[0].evidence, "curl: (6) Could not resolve host: pastebin.com");
    assert_int_equal(sbx_ev_line_no(r->sum.refused[0].event), 1);
    assert_string_equal(r->sum.refused[0].pattern, "curl");
    assert_string_equal(r->sum.refused[1].host, "registry.npmjs.org");
    /* reached or named, minus refused */
    assert_int_equal(r->sum.hosts.n, 2);
    assert_string_equal(r->sum.hosts.s[0], "github.com");
    assert_string_equal(r->sum.hosts.s[1], "pypi.org");
    assert_true(sbx_tl_at(&r->fx.tl, 0)->findings & SBX_F_REFUSED_HOST);
    done(r);
}

static void stdout_hashes(void **state)
{
    (void)state;
    struct run *r = start();
    char *h = sha16("4.0\n");
    add_cmd(r, 1, "python3 x.py", 0, 5, "4.0\n", "", h);
    add_cmd(r, 2, "python3 x.py", 0, 5, "4.1\n", "", h); /* edited output */
    struct sbx_buf big = SBX_BUF_INIT; /* clipped by the recorder, and kept escaped */
    for (int i = 0; i < 2000; i++)
        sbx_buf_addc(&big, 'x');
    sbx_buf_adds(&big, "\\n[...]\\n");
    for (int i = 0; i < 2000; i++)
        sbx_buf_addc(&big, 'y');
    struct sbx_event *e = fixture_command(&r->fx, "s1", AT(3) - 5 * FX_MS, 5, "big", 0);
    fixture_output_json(&r->fx, e, big.p, "");
    fixture_stdout_hash(e, "0123456789abcdef");
    fixture_command(&r->fx, NULL, AT(4), 0, "nohash", 0);
    summarize(r, 1);
    struct sbx_timeline *tl = &r->fx.tl;
    assert_int_equal(r->sum.hash_verified, 1);
    assert_int_equal(r->sum.hash_mismatched, 1);
    assert_int_equal(r->sum.hash_unverifiable, 2);
    assert_true(sbx_tl_at(tl, 1)->findings & SBX_F_HASH_MISMATCH);
    /* the mismatch is named: the one command, not only a count */
    assert_int_equal(r->sum.nhash_mismatches, 1);
    assert_ptr_equal(r->sum.hash_mismatches[0], sbx_tl_at(tl, 1));
    /* the verdict the views show is the one the analysis kept */
    assert_int_equal(sbx_hash_verdict(tl, sbx_tl_at(tl, 0)), SBX_HASH_VERIFIED);
    assert_int_equal(sbx_hash_verdict(tl, sbx_tl_at(tl, 1)), SBX_HASH_MISMATCH);
    assert_int_equal(sbx_hash_verdict(tl, sbx_tl_at(tl, 2)), SBX_HASH_CLIPPED);
    assert_int_equal(sbx_hash_verdict(tl, sbx_tl_at(tl, 3)), SBX_HASH_NONE);
    /* and nothing is hashed again: without the analysis's mark, no verdict */
    sbx_tl_at(tl, 0)->u.cmd.flags &= ~(uint32_t)(SBX_CMD_HASH_CHECKED | SBX_CMD_HASH_VERIFIED);
    assert_int_equal(sbx_hash_verdict(tl, sbx_tl_at(tl, 0)), SBX_HASH_PENDING);
    done(r);
    free(h);
    sbx_buf_free(&big);
}

static void secrets(void **state)
{
    (void)state;
    struct run *r = start();
    add_cmd(r, 1, "echo \"deploy token: ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\"", 0, 5,
            "deploy token: ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\n", "", "c50a9aa8e86e2388");
    summarize(r, 1);
    assert_true(r->sum.nsecrets >= 2);
    assert_string_equal(sbx_secret_kind_name(r->sum.secrets[0].kind), "github-token");
    assert_string_equal(r->sum.secrets[0].where, "command");
    assert_string_equal(r->sum.secrets[0].sample, "ghp_\xE2\x80\xA6" "AB");
    assert_string_equal(r->sum.secrets[1].where, "stdout");
    assert_null(strstr(r->sum.secrets[0].sample, "1234567890"));
    assert_true(sbx_tl_at(&r->fx.tl, 0)->findings & SBX_F_SECRET);
    done(r);
}

/* A secret in a field the recorder added (not command or output) is found
 * too, and said to be in the record. */
static void secrets_in_other_fields(void **state)
{
    (void)state;
    struct run *r = start();
    struct sbx_event *e = add_cmd(r, 1, "ls", 0, 5, "", "", EMPTY);
    fixture_other_field(&r->fx, e, "GITHUB_TOKEN=ghp_1234567890abcdefghijklmnopqrstuvwxyzAB");
    summarize(r, 1);
    assert_int_equal(r->sum.nsecrets, 1);
    assert_string_equal(r->sum.secrets[0].where, "record");
    done(r);
}

/* 30000 commands: one in a thousand refused, one in a thousand with a secret. */
static struct run *many_commands(void)
{
    struct run *r = start();
    for (int i = 0; i < 30000; i++) {
        if (i % 1000 == 7)
            add_cmd(r, i % 60, "curl https://h.example/x", 6, i % 500, "",
                    "curl: (6) Could not resolve host: h.example\n", EMPTY);
        else if (i % 1000 == 9)
            add_cmd(r, i % 60, "echo ghp_1234567890abcdefghijklmnopqrstuvwxyzAB", 0, 1, "", "", EMPTY);
        else
            add_cmd(r, i % 60, "pytest -q", i % 5 == 0, i % 500, "", "", EMPTY);
    }
    return r;
}

/* Several threads must give exactly what one gives. */
static void threads_agree(void **state)
{
    (void)state;
    struct run *one = many_commands(), *two = many_commands();
    summarize(one, 1);
    summarize(two, 2);
    assert_int_equal(one->sum.failed, two->sum.failed);
    assert_int_equal(one->sum.nsecrets, two->sum.nsecrets);
    assert_int_equal(one->sum.nsecrets, 30);
    for (size_t i = 0; i < one->sum.nsecrets; i++)
        assert_int_equal(sbx_ev_line_no(one->sum.secrets[i].event), sbx_ev_line_no(two->sum.secrets[i].event));
    assert_int_equal(one->sum.nrefused, 1);
    assert_int_equal(two->sum.refused[0].count, 30);
    assert_int_equal(sbx_ev_line_no(one->sum.refused[0].event), sbx_ev_line_no(two->sum.refused[0].event));
    assert_int_equal(one->sum.hash_verified, two->sum.hash_verified);
    done(one);
    done(two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commands), cmocka_unit_test(files),   cmocka_unit_test(network),
        cmocka_unit_test(kept_lists),
        cmocka_unit_test(stdout_hashes), cmocka_unit_test(secrets),
        cmocka_unit_test(secrets_in_other_fields), cmocka_unit_test(threads_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
