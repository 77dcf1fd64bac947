/* The comparison of two runs: alignment, moves, replaced rows, the
 * run-level differences, normalisation, and linear memory for big runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/format.h"
#include "loadtest.h"
#include "analyses/compare/compare.h"
#include "render/compare/compare.h"
#include "render/sanitize.h"

struct run {
    struct sbx_timeline *tl;
    struct sbx_summary sum;
};

/* A recorder log: one command a line ("CMD" or "CMD|EXIT|STDOUT|STDERR"),
 * or "files:PATH" for a files event changing PATH. No quotes in them. */
static struct run *run_of(const char *const *lines, size_t n)
{
    struct sbx_buf log = SBX_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        char field[4][256] = {"", "0", "", ""};
        if (strncmp(lines[i], "files:", 6) == 0) {
            sbx_buf_addf(&log,
                         "{\"at\": \"2026-11-29T08:00:%02zu.000Z\", \"sandbox\": \"s1\", \"kind\": "
                         "\"files\", \"added\": [], \"removed\": [], \"changed\": [\"%s\"]}\n",
                         i % 60, lines[i] + 6);
            continue;
        }
        const char *p = lines[i];
        for (int f = 0; f < 4 && p; f++) {
            const char *bar = strchr(p, '|');
            size_t len = bar ? (size_t)(bar - p) : strlen(p);
            snprintf(field[f], sizeof field[f], "%.*s", (int)len, p);
            p = bar ? bar + 1 : NULL;
        }
        sbx_buf_addf(&log,
                     "{\"at\": \"2026-11-29T%02zu:%02zu:%02zu.000Z\", \"sandbox\": \"s1\", \"kind\": "
                     "\"command\", \"command\": \"%s\", \"cwd\": \"/w\", \"exit\": %s, "
                     "\"timed_out\": false, \"ms\": 10, \"stdout\": \"%s\", \"stderr\": \"%s\"}\n",
                     i / 3600, i / 60 % 60, i % 60, field[0], field[1], field[2], field[3]);
    }
    struct run *r = calloc(1, sizeof *r);
    r->tl = loadtest_bytes(&sbx_format_recorder, "run.jsonl", log.p ? log.p : "", log.len, 1, 0);
    sbx_buf_free(&log);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    assert_true(sbx_summarize(r->tl, &so, &r->sum, err, sizeof err));
    return r;
}

static void run_free(struct run *r)
{
    sbx_summary_free(&r->sum);
    loadtest_drop(r->tl);
    free(r);
}

/* The kinds of the rows as letters: s same, c changed, r replaced, a only
 * A, b only B, m moved. */
static void kinds(const struct sbx_compare *c, char *out)
{
    for (size_t r = 0; r < c->nrows; r++)
        out[r] = "scrabm"[c->rows[r].kind];
    out[c->nrows] = 0;
}

static struct sbx_compare *compare(const char *const *a, size_t na, const char *const *b,
                                   size_t nb, struct run **ra, struct run **rb)
{
    *ra = run_of(a, na);
    *rb = run_of(b, nb);
    struct sbx_compare *c = malloc(sizeof *c);
    sbx_compare((*ra)->tl, &(*ra)->sum, (*rb)->tl, &(*rb)->sum, c);
    return c;
}

static void done(struct sbx_compare *c, struct run *ra, struct run *rb)
{
    sbx_compare_free(c);
    free(c);
    run_free(ra);
    run_free(rb);
}

#define N(x) (sizeof(x) / sizeof(x)[0])

static void identical(void **state)
{
    (void)state;
    static const char *const a[] = {"ls", "cat x.csv", "python3 x.py", "files:./x.py"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, N(a), a, N(a), &ra, &rb);
    char k[64];
    kinds(c, k);
    assert_string_equal(k, "sss");
    assert_true(sbx_compare_same(c));
    assert_int_equal(c->nfiles, 1);
    assert_int_equal(c->files[0].change_a, SBX_CHANGED);
    assert_int_equal(c->files[0].change_b, SBX_CHANGED);
    done(c, ra, rb);
}

static void one_insert_one_delete(void **state)
{
    (void)state;
    static const char *const a[] = {"ls", "cat x.csv", "python3 x.py"};
    static const char *const b[] = {"ls", "grep -n float x.py", "cat x.csv", "python3 x.py"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, N(a), b, N(b), &ra, &rb);
    char k[64];
    kinds(c, k);
    assert_string_equal(k, "sbss");
    assert_false(sbx_compare_same(c));
    assert_int_equal(c->nonly_b, 1);
    assert_int_equal(c->only_b[0], 1);
    assert_int_equal(c->nonly_a, 0);
    assert_int_equal(c->count[SBX_CMP_ONLY_B], 1);
    assert_int_equal(c->count[SBX_CMP_SAME], 3);
    done(c, ra, rb);

    c = compare(b, N(b), a, N(a), &ra, &rb); /* the other way: a delete */
    kinds(c, k);
    assert_string_equal(k, "sass");
    assert_int_equal(c->rows[1].a, 1);
    assert_int_equal(c->rows[1].b, SBX_CMP_NONE);
    assert_int_equal(c->nonly_a, 1);
    done(c, ra, rb);
}

static void a_move(void **state)
{
    (void)state;
    static const char *const a[] = {"make test", "ls", "cat x.csv", "python3 x.py"};
    static const char *const b[] = {"ls", "cat x.csv", "python3 x.py", "make test"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, N(a), b, N(b), &ra, &rb);
    char k[64];
    kinds(c, k);
    assert_string_equal(k, "msssm");
    assert_int_equal(c->rows[0].a, 0);
    assert_int_equal(c->rows[0].partner, 4);
    assert_int_equal(c->rows[4].b, 3);
    assert_int_equal(c->rows[4].partner, 0);
    assert_int_equal(c->count[SBX_CMP_MOVED], 1);
    assert_int_equal(c->nonly_a + c->nonly_b, 0); /* a move is not a command only one run has */
    assert_false(sbx_compare_same(c));
    done(c, ra, rb);
}

static void all_different_is_replaced(void **state)
{
    (void)state;
    static const char *const a[] = {"curl -fsS https://pastebin.com/raw/Zx81", "ls", "pip download pandas"};
    static const char *const b[] = {"grep -n float x.py", "python3 -c import_pandas"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, N(a), b, N(b), &ra, &rb);
    char k[64];
    kinds(c, k);
    assert_string_equal(k, "rra");
    assert_int_equal(c->rows[0].a, 0);
    assert_int_equal(c->rows[0].b, 0);
    assert_int_equal(c->nonly_a, 3);
    assert_int_equal(c->nonly_b, 2);
    done(c, ra, rb);
}

/* A replaced row sits where the delete and the insert were; the extra
 * delete stays a row of its own after it. */
static void replaced_in_a_hunk(void **state)
{
    (void)state;
    static const char *const a[] = {"ls", "pip download pandas", "export K=v && env", "git diff"};
    static const char *const b[] = {"ls", "python3 -c import_pandas", "git diff"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, N(a), b, N(b), &ra, &rb);
    char k[64];
    kinds(c, k);
    assert_string_equal(k, "sras");
    assert_int_equal(c->rows[1].a, 1);
    assert_int_equal(c->rows[1].b, 1);
    assert_int_equal(c->rows[2].a, 2);
    done(c, ra, rb);
}

static void empty_runs(void **state)
{
    (void)state;
    static const char *const a[] = {"ls", "make"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(NULL, 0, NULL, 0, &ra, &rb);
    assert_int_equal(c->nrows, 0);
    assert_true(sbx_compare_same(c));
    done(c, ra, rb);

    c = compare(NULL, 0, a, N(a), &ra, &rb);
    char k[64];
    kinds(c, k);
    assert_string_equal(k, "bb");
    assert_int_equal(c->nonly_b, 2);
    done(c, ra, rb);

    c = compare(a, N(a), NULL, 0, &ra, &rb);
    kinds(c, k);
    assert_string_equal(k, "aa");
    done(c, ra, rb);
}

static void changed_pairs_and_failures(void **state)
{
    (void)state;
    static const char *const a[] = {"make|0|ok|", "pytest|1||2 failed", "ls|0|a b|"};
    static const char *const b[] = {"make|2||error", "pytest|0|passed|", "ls|0|a b|"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, N(a), b, N(b), &ra, &rb);
    char k[64];
    kinds(c, k);
    assert_string_equal(k, "ccs");
    assert_int_equal(c->rows[0].diff & SBX_CMP_D_EXIT, SBX_CMP_D_EXIT);
    assert_int_equal(c->rows[0].diff & SBX_CMP_D_OUTPUT, SBX_CMP_D_OUTPUT);
    assert_int_equal(c->rows[0].diff & SBX_CMP_D_DURATION, 0);
    assert_true(c->rows[0].ratio > 0.99 && c->rows[0].ratio < 1.01);
    assert_int_equal(c->nfail_new, 1);
    assert_int_equal(c->fail_new[0], 0); /* make failed in B */
    assert_int_equal(c->nfail_gone, 1);
    assert_int_equal(c->fail_gone[0], 1); /* pytest failed in A */
    assert_int_equal(c->nonly_a + c->nonly_b, 0);
    done(c, ra, rb);
}

static void run_level(void **state)
{
    (void)state;
    static const char *const a[] = {
        "curl -fsS https://pastebin.com/raw/Zx81|6||curl: (6) Could not resolve host: pastebin.com",
        "files:./x.py", "files:./y.py"};
    static const char *const b[] = {"grep -n float x.py", "files:./x.py"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, N(a), b, N(b), &ra, &rb);
    assert_int_equal(c->nhosts, 1);
    assert_string_equal(c->hosts[0].host, "pastebin.com");
    assert_int_equal(c->hosts[0].a, SBX_CMP_H_REFUSED);
    assert_int_equal(c->hosts[0].b, 0);
    assert_int_equal(c->nfiles, 2);
    assert_string_equal(c->files[0].path, "x.py");
    assert_int_equal(c->files[0].change_b, SBX_CHANGED);
    assert_string_equal(c->files[1].path, "y.py");
    assert_int_equal(c->files[1].change_a, SBX_CHANGED);
    assert_int_equal(c->files[1].change_b, -1);
    assert_int_equal(c->nfail_gone, 1);
    assert_true(c->findings_gone & SBX_F_REFUSED_HOST);
    assert_true(c->findings_gone & SBX_F_FAILED);
    assert_int_equal(c->findings_new, 0);
    done(c, ra, rb);
}

/* A finding of a kind the other run's sources cannot tell is "not checked"
 * there, never "gone" or "new"; each kind A has, each direction. */
static void not_checked_is_not_gone(void **state)
{
    (void)state;
    static const char *const a[] = {
        "curl -fsS https://pastebin.com/raw/Zx81|6||curl: (6) Could not resolve host: pastebin.com"};
    static const char *const b[] = {"true"};
    static const uint32_t kinds_in_a[] = {SBX_F_REFUSED_HOST, SBX_F_FAILED};
    for (int swap = 0; swap < 2; swap++) {
        for (size_t k = 0; k < N(kinds_in_a); k++) {
            for (int tell = 0; tell < 2; tell++) {
                struct run *ra = run_of(swap ? b : a, 1), *rb = run_of(swap ? a : b, 1);
                struct run *plain = swap ? ra : rb; /* the run without the findings */
                if (!tell)
                    plain->sum.checkable &= ~kinds_in_a[k];
                struct sbx_compare c;
                sbx_compare(ra->tl, &ra->sum, rb->tl, &rb->sum, &c);
                uint32_t moved = swap ? c.findings_new : c.findings_gone;
                uint32_t unchecked = swap ? c.findings_unchecked_a : c.findings_unchecked_b;
                assert_int_equal((moved & kinds_in_a[k]) != 0, tell);
                assert_int_equal((unchecked & kinds_in_a[k]) != 0, !tell);
                assert_int_equal((swap ? c.findings_unchecked_b : c.findings_unchecked_a), 0);
                assert_false(sbx_compare_same(&c));
                struct sbx_buf out = SBX_BUF_INIT;
                struct sbx_cmp_run x = {ra->tl, &ra->sum, "a"}, y = {rb->tl, &rb->sum, "b"};
                char err[128];
                assert_true(sbx_render_compare(&x, &y, &c, SBX_SUMMARY_TEXT, true, &out, err, sizeof err));
                /* the kind's name on the line of its list */
                const char *name = sbx_finding_of(kinds_in_a[k])->name;
                const char *lead = tell ? (swap ? "NEW in B: " : "gone in B: ")
                                        : (swap ? "not checked in A: " : "not checked in B: ");
                const char *findings = strstr(out.p, "Findings:");
                const char *at = findings ? strstr(findings, lead) : NULL;
                const char *eol = at ? strchr(at, '\n') : NULL;
                const char *hit = at ? strstr(at, name) : NULL;
                if (!hit || (eol && hit > eol))
                    fail_msg("no %s after \"%s\" in:\n%s", name, lead, out.p);
                sbx_buf_free(&out);
                sbx_compare_free(&c);
                run_free(ra);
                run_free(rb);
            }
        }
    }
}

static void norm_is(const char *cmd, const char *want)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_cmp_normalize(cmd, strlen(cmd), &b);
    assert_string_equal(b.p, want);
    sbx_buf_free(&b);
}

static void normalisation(void **state)
{
    (void)state;
    norm_is("  ls   -la\t x ", "ls\tls -la x");
    norm_is("pip download -d /tmp/w pandas", "pip download\tpip download -d /tmp/<tmp> pandas");
    norm_is("cat /var/tmp/abc/d.txt;ls /dev/shm/q", "cat\tcat /var/tmp/<tmp>;ls /dev/shm/<tmp>");
    norm_is("cat /workspace/tmp/x /tmp/", "cat\tcat /workspace/tmp/x /tmp/");
    norm_is("rm -rf tmp.Ab12Cd9xYz", "rm\trm -rf tmp.<rand>");
    norm_is("rm tmpa1b2_c3d tmp.ab", "rm\trm tmp<rand> tmp.ab");
    norm_is("curl http://localhost:8080/x", "curl\tcurl http://localhost:<port>/x");
    norm_is("nc [::1]:443", "nc\tnc [::1]:<port>");
    norm_is("git checkout 4bf9d1d", "git checkout\tgit checkout <hex>");
    norm_is("echo deadbeefcafe 299d6e0 abcdefg",
            "echo\techo deadbeefcafe <hex> abcdefg"); /* letters only, or a g: not hex */
    norm_is("sha256sum e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "sha256sum\tsha256sum <hex>");
    norm_is("docker rm 123e4567-e89b-12d3-a456-426614174000",
            "docker rm\tdocker rm <uuid>");
    norm_is("kill 48213 && sleep 5", "kill\tkill <n> && sleep 5");
    norm_is("touch -d @1700000000.25 f v123456", "touch\ttouch -d @<n> f v123456");
    norm_is("log --since 2026-11-29T08:38:48.291532+00:00 x",
            "log\tlog --since <time> x");
    norm_is("date 2026-11-29", "date\tdate <time>");
    /* a time that runs into a word: the date alone, so that the key
       normalised again is the same key */
    norm_is("at 2026-11-23 08:38:48Z9 x", "at\tat <time> 08:<port>:48Z9 x");
    norm_is("", "\t");
    /* volatile parts that differ give the same key */
    struct sbx_buf x = SBX_BUF_INIT, y = SBX_BUF_INIT;
    sbx_cmp_normalize("curl -o /tmp/tmp.XyZ123 http://h:8001 # pid 31337", 49, &x);
    sbx_cmp_normalize("curl -o /tmp/tmp.QrS987 http://h:9002 # pid 4242", 48, &y);
    assert_int_not_equal(x.len, 0);
    assert_false(x.len == y.len && memcmp(x.p, y.p, x.len) == 0); /* 4242 is short: kept */
    sbx_buf_clear(&y);
    sbx_cmp_normalize("curl -o /tmp/tmp.QrS987 http://h:9002 # pid 42424", 49, &y);
    assert_int_equal(x.len, y.len);
    assert_memory_equal(x.p, y.p, x.len);
    sbx_buf_free(&x);
    sbx_buf_free(&y);
}

/* The LCS against the textbook dynamic programme on small random inputs. */
static size_t lcs_dp(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    size_t *t = calloc((na + 1) * (nb + 1), sizeof *t);
    for (size_t i = na; i-- > 0;)
        for (size_t j = nb; j-- > 0;) {
            size_t *c = &t[i * (nb + 1) + j];
            if (a[i] == b[j])
                *c = 1 + t[(i + 1) * (nb + 1) + j + 1];
            else
                *c = t[(i + 1) * (nb + 1) + j] > t[i * (nb + 1) + j + 1] ? t[(i + 1) * (nb + 1) + j]
                                                                         : t[i * (nb + 1) + j + 1];
        }
    size_t r = t[0];
    free(t);
    return r;
}

static void check_match(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
                        const size_t *m, size_t matched)
{
    size_t last = SBX_CMP_NONE, count = 0;
    for (size_t i = 0; i < na; i++) {
        if (m[i] == SBX_CMP_NONE)
            continue;
        assert_true(m[i] < nb);
        assert_int_equal(a[i], b[m[i]]);
        assert_true(last == SBX_CMP_NONE || m[i] > last);
        last = m[i];
        count++;
    }
    assert_int_equal(count, matched);
}

static void lcs_random(void **state)
{
    (void)state;
    uint32_t a[40], b[40];
    size_t m[40];
    unsigned seed = 12345;
    for (int round = 0; round < 3000; round++) {
        size_t na = (seed = seed * 1103515245 + 12345) >> 16 & 31;
        size_t nb = (seed = seed * 1103515245 + 12345) >> 16 & 31;
        uint32_t alphabet = 1 + (round % 6);
        for (size_t i = 0; i < na; i++)
            a[i] = ((seed = seed * 1103515245 + 12345) >> 16) % alphabet;
        for (size_t j = 0; j < nb; j++)
            b[j] = ((seed = seed * 1103515245 + 12345) >> 16) % alphabet + (round % 7 == 0);
        size_t got = sbx_cmp_lcs(a, na, b, nb, m, NULL);
        assert_int_equal(got, lcs_dp(a, na, b, nb));
        check_match(a, na, b, nb, m, got);
    }
}

/* 10,000 each: right, and work arrays linear in the input (a quadratic
 * table would be 10^8 entries). */
static void lcs_big(void **state)
{
    (void)state;
    enum { BIG = 10000 };
    uint32_t *a = malloc(BIG * sizeof *a), *b = malloc(BIG * sizeof *b);
    size_t *m = malloc(BIG * sizeof *m), work;
    /* the same ids backwards: every id in both, the longest match 1 */
    for (size_t i = 0; i < BIG; i++)
        a[i] = (uint32_t)i, b[i] = (uint32_t)(BIG - 1 - i);
    assert_int_equal(sbx_cmp_lcs(a, BIG, b, BIG, m, &work), 1);
    check_match(a, BIG, b, BIG, m, 1);
    assert_true(work <= 64 * 2 * BIG + 4096);
    /* interleaved edits: every 7th of A gone, every 11th of B new */
    size_t nb = 0, dropped = 0;
    for (size_t i = 0; i < BIG; i++) {
        a[i] = (uint32_t)(i % 500);
        if (i % 11 == 5 && nb < BIG)
            b[nb++] = 100000 + (uint32_t)i;
        if (i % 7 == 3)
            dropped++;
        else if (nb < BIG)
            b[nb++] = a[i];
    }
    size_t got = sbx_cmp_lcs(a, BIG, b, nb, m, &work);
    check_match(a, BIG, b, nb, m, got);
    assert_int_equal(got, BIG - dropped); /* every id of B that A has */
    assert_true(work <= 64 * (BIG + nb) + 4096);
    free(a);
    free(b);
    free(m);
}

/* Two runs of 10,000 commands through the whole comparison. */
static void compare_big(void **state)
{
    (void)state;
    enum { BIG = 10000 };
    char (*ca)[48] = malloc(BIG * sizeof *ca), (*cb)[48] = malloc(BIG * sizeof *cb);
    const char **a = malloc(BIG * sizeof *a), **b = malloc(BIG * sizeof *b);
    for (size_t i = 0; i < BIG; i++) {
        snprintf(ca[i], sizeof ca[i], "step %zu --in /tmp/run%zu/x", i % 2000, i);
        if (i % 1000 == 7)
            snprintf(cb[i], sizeof cb[i], "other %zu", i % 2000);
        else
            snprintf(cb[i], sizeof cb[i], "step %zu --in /tmp/w%zu/y", i % 2000, i);
        a[i] = ca[i];
        b[i] = cb[i];
    }
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, BIG, b, BIG, &ra, &rb);
    assert_int_equal(c->na, BIG);
    assert_int_equal(c->nb, BIG);
    assert_int_equal(c->count[SBX_CMP_SAME], BIG - 10);
    assert_int_equal(c->count[SBX_CMP_REPLACED], 10);
    assert_int_equal(c->nrows, BIG);
    /* other 7 and other 1007 replace every step 7 and step 1007 */
    assert_int_equal(c->nonly_b, 2);
    assert_int_equal(c->nonly_a, 2);
    assert_true(c->lcs_work_bytes <= 64 * 2 * BIG + 4096);
    done(c, ra, rb);
    free(ca);
    free(cb);
    free(a);
    free(b);
}

/* Every format of a comparison of hostile runs: no escape byte reaches the
 * output, no secret either, and text lines fit 80 columns. */
static void render_is_safe(void **state)
{
    (void)state;
    static const char *const a[] = {
        "echo ghp_1234567890abcdefghijklmnopqrstuvwxyzAB|0|ghp_1234567890abcdefghijklmnopqrstuvwxyzAB|",
        "printf \\u001b]52;c;SGVsbG8=\\u0007 \\u202e gnp.exe|0|\\u001b[2J|",
        "ls"};
    static const char *const b[] = {"ls", "cat \\u001b[31mred \\u009b2J x|3||\\u001b]0;title\\u0007"};
    struct run *ra, *rb;
    struct sbx_compare *c = compare(a, N(a), b, N(b), &ra, &rb);
    struct sbx_buf raw = SBX_BUF_INIT;
    size_t n;
    const struct sbx_event *e = c->cmd_a[1].ev;
    const char *p = sbx_text_get(ra->tl, e, &e->u.cmd.command, &raw, &n);
    assert_non_null(memchr(p, 0x1b, n)); /* the escape is in the run */
    sbx_buf_free(&raw);
    struct sbx_cmp_run x = {ra->tl, &ra->sum, "run\x1b[2Ja"}, y = {rb->tl, &rb->sum, "run-b"};
    for (int f = SBX_SUMMARY_TEXT; f <= SBX_SUMMARY_JSON; f++) {
        struct sbx_buf out = SBX_BUF_INIT;
        char err[128];
        assert_true(sbx_render_compare(&x, &y, c, (enum sbx_summary_format)f, false, &out, err, sizeof err));
        assert_non_null(out.p);
        assert_int_equal(strlen(out.p), out.len);
        assert_null(strchr(out.p, '\x1b'));
        assert_null(strstr(out.p, "\xc2\x9b"));
        assert_null(strstr(out.p, "\xe2\x80\xae")); /* U+202E itself */
        assert_null(strstr(out.p, "1234567890abcdefghijklmnopqrstuvwxyz"));
        assert_null(strchr(out.p, '\a'));
        assert_non_null(strstr(out.p, "ghp_")); /* masked, not dropped */
        if (f == SBX_SUMMARY_TEXT)
            for (const char *line = out.p; *line;) {
                const char *nl = strchr(line, '\n');
                assert_non_null(nl);
                assert_true(sbx_text_width(line, (size_t)(nl - line)) <= 80);
                line = nl + 1;
            }
        sbx_buf_free(&out);
    }
    done(c, ra, rb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identical),
        cmocka_unit_test(one_insert_one_delete),
        cmocka_unit_test(a_move),
        cmocka_unit_test(all_different_is_replaced),
        cmocka_unit_test(replaced_in_a_hunk),
        cmocka_unit_test(empty_runs),
        cmocka_unit_test(changed_pairs_and_failures),
        cmocka_unit_test(run_level),
        cmocka_unit_test(not_checked_is_not_gone),
        cmocka_unit_test(normalisation),
        cmocka_unit_test(lcs_random),
        cmocka_unit_test(lcs_big),
        cmocka_unit_test(compare_big),
        cmocka_unit_test(render_is_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
