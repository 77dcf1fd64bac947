/* The import options (importers/format.h) reach every import: a load split
 * over threads, a file read whole, the lines a followed file gains, the
 * runs list's rows and the review's loader. The webhook secret stands for
 * them all: given, Runtime's deliveries are checked; only in the
 * environment, they are not (importers read no environment). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "app/loader.h"
#include "importers/follow.h"
#include "importers/format.h"
#include "importers/load.h"
#include "importers/runs.h"

#define SECRET "s3cret"
#define T0 "1791469920" /* the event's createdAt, 2026-10-08T14:32:00Z */
#define BODY                                                                                     \
    "{\"id\": \"e1\", \"type\": \"sandbox.paused\", \"createdAt\": \"2026-10-08T14:32:00Z\", "     \
    "\"resourceId\": \"7f3a2c10\", \"data\": {\"sandbox\": {\"id\": \"7f3a2c10\", \"state\": "     \
    "\"paused\", \"previousState\": \"running\"}}}"

/* A delivery of BODY signed with key, on one line (multi_line: over several). */
static void delivery(struct sbx_buf *b, const char *key, bool multi_line)
{
    struct sbx_buf msg = SBX_BUF_INIT;
    sbx_buf_addf(&msg, "%s.%s", T0, BODY);
    unsigned char mac[32];
    unsigned int n = 0;
    assert_non_null(HMAC(EVP_sha256(), key, (int)strlen(key), (unsigned char *)msg.p, msg.len,
                         mac, &n));
    sbx_buf_free(&msg);
    sbx_buf_addf(b, "{\"headers\": {\"Runtime-Signature\": \"t=%s,v1=", T0);
    for (unsigned i = 0; i < n; i++)
        sbx_buf_addf(b, "%02x", mac[i]);
    sbx_buf_adds(b, multi_line ? "\"},\n  \"body\": \"" : "\"}, \"body\": \"");
    for (const char *s = BODY; *s; s++) {
        if (*s == '"')
            sbx_buf_addc(b, '\\');
        sbx_buf_addc(b, *s);
    }
    sbx_buf_adds(b, "\"}\n");
}

/* Deliveries signed right (even i) and wrong (odd i), n of them. */
static void deliveries(struct sbx_buf *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        delivery(b, i % 2 ? "wrong" : SECRET, false);
}

static void write_file(const char *path, const struct sbx_buf *b, const char *mode)
{
    FILE *f = fopen(path, mode);
    assert_non_null(f);
    assert_int_equal(fwrite(b->p, 1, b->len, f), b->len);
    fclose(f);
}

/* Every delivery checked (given a secret) as the file says, or none. */
static void assert_checked(const struct sbx_timeline *tl, size_t n, bool checked)
{
    assert_int_equal(tl->n, n);
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        unsigned want = !checked ? 0 : sbx_ev_line_no(e) % 2 ? SBX_EVT_SIG_OK : SBX_EVT_SIG_BAD;
        if ((e->tflags & (SBX_EVT_SIG_OK | SBX_EVT_SIG_BAD)) != want)
            fail_msg("line %u: flags %#x, not %#x", sbx_ev_line_no(e), e->tflags, want);
    }
}

struct fixture {
    char dir[64];
    char path[128]; /* dir/runs/r1/hooks.jsonl */
    char runs[96];  /* dir/runs */
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/sbxview-import-XXXXXX");
    if (!mkdtemp(fx->dir))
        return -1;
    snprintf(fx->runs, sizeof fx->runs, "%s/runs", fx->dir);
    mkdir(fx->runs, 0700);
    snprintf(fx->path, sizeof fx->path, "%s/r1", fx->runs);
    mkdir(fx->path, 0700);
    snprintf(fx->path, sizeof fx->path, "%s/r1/hooks.jsonl", fx->runs);
    /* only the options give the secret: the environment's is a trap */
    setenv("RUNTIME_WEBHOOK_SECRET", SECRET, 1);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    unsetenv("RUNTIME_WEBHOOK_SECRET");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    if (system(cmd) != 0)
        return -1;
    free(fx);
    return 0;
}

static void load(const char *path, const struct sbx_load_opts *opts, struct sbx_timeline *tl)
{
    sbx_timeline_init(tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {path};
    assert_int_equal(sbx_load_paths(tl, paths, 1, opts, &rep), 1);
    assert_int_equal(rep.nerrors, 0);
    sbx_load_report_free(&rep);
}

/* Split over three threads: every part's import has the secret. */
static void split_load(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    deliveries(&b, 9);
    write_file(fx->path, &b, "w");
    sbx_buf_free(&b);
    struct sbx_timeline tl;
    struct sbx_load_opts opts = {.threads = 3, .split_min = 1, .import.webhook_secrets = SECRET};
    load(fx->path, &opts, &tl);
    assert_checked(&tl, 9, true);
    sbx_timeline_free(&tl);
    opts.import.webhook_secrets = NULL;
    load(fx->path, &opts, &tl);
    assert_checked(&tl, 9, false);
    sbx_timeline_free(&tl);
    load(fx->path, NULL, &tl);
    assert_checked(&tl, 9, false);
    sbx_timeline_free(&tl);
}

/* Deliveries printed over many lines are read whole: that import has it too. */
static void whole_file(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    delivery(&b, SECRET, true);
    delivery(&b, "wrong", true);
    write_file(fx->path, &b, "w");
    sbx_buf_free(&b);
    struct sbx_timeline tl;
    struct sbx_load_opts opts = {.import.webhook_secrets = SECRET};
    load(fx->path, &opts, &tl);
    assert_int_equal(tl.n, 2);
    assert_int_equal(sbx_tl_at(&tl, 0)->tflags & (SBX_EVT_SIG_OK | SBX_EVT_SIG_BAD), SBX_EVT_SIG_OK);
    assert_int_equal(sbx_tl_at(&tl, 1)->tflags & (SBX_EVT_SIG_OK | SBX_EVT_SIG_BAD), SBX_EVT_SIG_BAD);
    sbx_timeline_free(&tl);
}

/* The lines a followed file gains are checked with what the follow was given. */
static void followed_lines(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    deliveries(&b, 1);
    write_file(fx->path, &b, "w");
    struct sbx_load_opts opts = {.threads = 1, .import.webhook_secrets = SECRET};
    for (int given = 1; given >= 0; given--) {
        write_file(fx->path, &b, "w");
        struct sbx_timeline tl;
        load(fx->path, given ? &opts : NULL, &tl);
        struct sbx_follow *f = sbx_follow_start(&tl, given ? &opts.import : NULL);
        assert_int_equal(sbx_follow_count(f), 1);
        struct sbx_buf more = SBX_BUF_INIT;
        delivery(&more, "wrong", false);
        delivery(&more, SECRET, false);
        write_file(fx->path, &more, "a");
        sbx_buf_free(&more);
        struct sbx_follow_report rep;
        assert_int_equal(sbx_follow_poll(f, &tl, &rep), 2);
        sbx_follow_report_free(&rep);
        assert_checked(&tl, 3, given);
        sbx_follow_free(f);
        sbx_timeline_free(&tl);
    }
    sbx_buf_free(&b);
}

/* A runs list's rows: the bad signature is among a row's findings only
 * when the fill was given the secret. */
static void runs_rows(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    deliveries(&b, 2);
    write_file(fx->path, &b, "w");
    sbx_buf_free(&b);
    const struct sbx_import_opts import = {.webhook_secrets = SECRET};
    for (int given = 1; given >= 0; given--) {
        struct sbx_runs runs;
        assert_true(sbx_runs_discover(fx->runs, &runs));
        assert_int_equal(runs.n, 1);
        sbx_runs_fill_free(sbx_runs_fill_start(&runs, NULL, given ? &import : NULL, 1, false));
        assert_int_equal(runs.rows[0].state, SBX_RUN_READY);
        assert_int_equal(!!(runs.rows[0].findings & SBX_F_BAD_SIGNATURE), given);
        sbx_runs_free(&runs);
    }
}

/* The review's loader, in full and as a preview. */
static void loader(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    deliveries(&b, 4);
    write_file(fx->path, &b, "w");
    sbx_buf_free(&b);
    const char *paths[] = {fx->path};
    for (int given = 1; given >= 0; given--) {
        struct sbx_loader_inputs in = {.paths = paths, .n = 1};
        if (given)
            in.import.webhook_secrets = SECRET;
        struct sbx_loader l;
        sbx_loader_start(&l, &in, 1, false);
        assert_int_equal(l.loaded, 1);
        assert_checked(&l.tl, 4, given);
        sbx_loader_free(&l);
        struct sbx_timeline tl;
        struct sbx_summary sum;
        assert_true(sbx_loader_preview(&in, 1 << 20, &tl, &sum));
        assert_checked(&tl, 4, given);
        sbx_summary_free(&sum);
        sbx_timeline_free(&tl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(split_load, setup, teardown),
        cmocka_unit_test_setup_teardown(whole_file, setup, teardown),
        cmocka_unit_test_setup_teardown(followed_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(runs_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(loader, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
