/* Unit tests for analyses/secrets/secrets: kinds and spans, masks,
 * placeholders, clipped tokens and JSON-escaped text as a table in
 * tests/unit/cases/secrets.test; redaction, no false positives on
 * ordinary output, linear work on hostile lines, SIMD/portable agreement,
 * and sharing one compiled set between threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "analyses/secrets/secrets.h"
#include "tests/unit/cases.h"

struct fx {
    struct sbx_secrets *s;
    struct sbx_secrets_scratch *sc;
};

static int setup(void **state)
{
    char err[256] = "";
    struct fx *f = sbx_xcalloc(1, sizeof *f);
    f->s = sbx_secrets_new(err, sizeof err);
    if (!f->s) {
        fprintf(stderr, "sbx_secrets_new: %s\n", err);
        free(f);
        return -1;
    }
    f->sc = sbx_secrets_scratch_new(f->s);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    sbx_secrets_scratch_free(f->sc);
    sbx_secrets_free(f->s);
    free(f);
    return 0;
}

#define MAX_HITS 64

struct found {
    size_t n;
    struct sbx_secret_hit h[MAX_HITS];
};

static void collect(const struct sbx_secret_hit *h, void *ctx)
{
    struct found *fo = ctx;
    if (fo->n < MAX_HITS)
        fo->h[fo->n] = *h;
    fo->n++;
}

/* Scans a copy of text in a buffer of exactly its length (no NUL after it),
 * so reading past the end is caught by ASan. */
static struct found scan_n(struct fx *f, const char *text, size_t n)
{
    struct found fo = {0};
    char *copy = sbx_xmalloc(n ? n : 1);
    memcpy(copy, text, n);
    size_t count = sbx_secrets_scan(f->s, f->sc, copy, n, collect, &fo);
    assert_int_equal(count, fo.n);
    for (size_t i = 0; i < fo.n && i < MAX_HITS; i++) {
        assert_true(fo.h[i].len > 0);
        assert_true(fo.h[i].off + fo.h[i].len <= n);
        if (i)
            assert_true(fo.h[i - 1].off + fo.h[i - 1].len <= fo.h[i].off);
    }
    free(copy);
    return fo;
}

static struct found scan(struct fx *f, const char *text)
{
    return scan_n(f, text, strlen(text));
}

static unsigned kind_named(const struct test_case *c, size_t i)
{
    for (unsigned k = 0; k < sbx_secret_kind_count(); k++)
        if (strcmp(sbx_secret_kind_name(k), c->field[i]) == 0)
            return k;
    case_fail(c, "no secret kind is named %s", c->field[i]);
    return SBX_SECRET_KIND_COUNT;
}

/* A text alone: nothing is found in it. With a kind and a secret: the one
 * hit is that secret (its first place in the text), of that kind. */
static void check_scan(struct fx *f, const struct test_case *c)
{
    const char *text = c->field[0];
    struct found fo = scan_n(f, text, c->len[0]);
    if (c->n == 1) {
        if (fo.n)
            case_fail(c, "unexpected %s [%.*s] in: %s", sbx_secret_kind_name(fo.h[0].kind),
                      (int)fo.h[0].len, text + fo.h[0].off, text);
        return;
    }
    case_want_fields(c, 3);
    unsigned kind = kind_named(c, 1);
    const char *at = strstr(text, c->field[2]);
    if (!at)
        case_fail(c, "the secret is not in the text");
    if (fo.n != 1)
        case_fail(c, "%zu hits in: %s", fo.n, text);
    if (fo.h[0].kind != kind)
        case_fail(c, "kind %s, expected %s, in: %s", sbx_secret_kind_name(fo.h[0].kind),
                  c->field[1], text);
    if (fo.h[0].off != (size_t)(at - text) || fo.h[0].len != c->len[2])
        case_fail(c, "hit [%.*s] at %zu, expected [%s] at %zu", (int)fo.h[0].len, text + fo.h[0].off,
                  fo.h[0].off, c->field[2], (size_t)(at - text));
}

static void check_mask(const struct test_case *c)
{
    case_want_fields(c, 3);
    char m[SBX_SECRET_MASK_MAX];
    size_t len = sbx_secret_mask(kind_named(c, 0), c->field[1], c->len[1], m, sizeof m);
    if (strcmp(m, c->field[2]) != 0 || len != c->len[2])
        case_fail(c, "masked [%s] (%zu), expected [%s]", m, len, c->field[2]);
}

static void check_case(const struct test_case *c, void *ctx)
{
    if (strcmp(c->table, "scan") == 0)
        check_scan(ctx, c);
    else if (strcmp(c->table, "mask") == 0)
        check_mask(c);
    else
        case_fail(c, "no such table in this file's runner");
}

/* Kinds, spans, placeholders, clipped and escaped text, masks:
 * tests/unit/cases/secrets.test. */
static void test_case_file(void **state)
{
    cases_run("secrets.test", check_case, *state);
}

static void test_kind_names(void **state)
{
    (void)state;
    static const char *const names[] = {
        "github-token", "gitlab-token", "aws-access-key-id", "aws-secret-key", "slack-token", "slack-webhook",
        "openai-key", "anthropic-key", "stripe-key", "google-api-key", "huggingface-token", "npm-token",
        "private-key", "jwt", "authorization-header", "password", "token-assignment", "url-password",
    };
    assert_int_equal(sbx_secret_kind_count(), sizeof names / sizeof *names);
    for (unsigned k = 0; k < sbx_secret_kind_count(); k++)
        assert_string_equal(sbx_secret_kind_name(k), names[k]);
    assert_string_equal(sbx_secret_kind_name(SBX_SECRET_KIND_COUNT), "unknown");
}

#define GHP "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"
#define AWS_SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define JWT                                                                                                   \
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5" \
    "MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"


#define PEM_BODY "MIIEowIBAAKCAQEA1234567890abcdefABCDEF\nQWERTYUIOPasdfghjkl+/=="

static void test_private_keys(void **state)
{
    struct fx *f = *state;
    /* no END line: to the end of the field */
    const char *open = "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB";
    struct found fo = scan(f, open);
    assert_int_equal(fo.n, 1);
    assert_int_equal(fo.h[0].kind, SBX_SECRET_PRIVATE_KEY);
    assert_int_equal(fo.h[0].off, 0);
    assert_int_equal(fo.h[0].len, strlen(open));
    assert_true(fo.h[0].flags & SBX_SECRET_HIT_CUT);

    /* cut by the clip: the head is reported, and the tail with its END line */
    const char *clipped = "-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIBcD5vT8f3kX9qLmNoPqRsTu\\n[...]\\n"
                          "AwEHoUQDQgAEx1y2Z3a4B5c6D7e8F9g0\\n-----END EC PRIVATE KEY-----\\n";
    fo = scan(f, clipped);
    assert_int_equal(fo.n, 2);
    assert_int_equal(fo.h[0].kind, SBX_SECRET_PRIVATE_KEY);
    assert_int_equal(fo.h[0].off, 0);
    assert_int_equal(fo.h[0].len, strlen("-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIBcD5vT8f3kX9qLmNoPqRsTu"));
    assert_int_equal(fo.h[1].kind, SBX_SECRET_PRIVATE_KEY);
    assert_int_equal(fo.h[1].off, (size_t)(strstr(clipped, "AwEH") - clipped));
    const char *end_line = strstr(clipped, "-----END EC PRIVATE KEY-----");
    assert_int_equal(fo.h[1].off + fo.h[1].len, (size_t)(end_line - clipped) + strlen("-----END EC PRIVATE KEY-----"));
    assert_true(fo.h[0].flags & SBX_SECRET_HIT_CUT);
    assert_true(fo.h[1].flags & SBX_SECRET_HIT_CUT);
}


/* The token of the real sample log, masked. */
static void test_sample_log(void **state)
{
    (void)state;
    char m[SBX_SECRET_MASK_MAX];
    assert_int_equal(sbx_secret_mask(SBX_SECRET_GITHUB_TOKEN, GHP, strlen(GHP), m, sizeof m), strlen("ghp_…AB"));
    assert_string_equal(m, "ghp_…AB");
}

static void test_placeholders(void **state)
{
    (void)state;
    assert_true(sbx_secret_is_placeholder("", 0));
    assert_true(sbx_secret_is_placeholder("${VAR}", 6));
    assert_true(sbx_secret_is_placeholder("<token>", 7));
    assert_true(sbx_secret_is_placeholder("***", 3));
    assert_true(sbx_secret_is_placeholder("xxxx", 4));
    assert_true(sbx_secret_is_placeholder("ChangeMe", 8));
    assert_true(sbx_secret_is_placeholder("YOUR_TOKEN_HERE", 15));
    assert_false(sbx_secret_is_placeholder(AWS_SECRET, strlen(AWS_SECRET)));
    assert_false(sbx_secret_is_placeholder("password123", 11));
    assert_false(sbx_secret_is_placeholder("Zq8xLp2Wm4Rt6Yu8", 16));
}

static void test_entropy(void **state)
{
    (void)state;
    assert_float_equal(sbx_secret_entropy("", 0), 0.0, 1e-9);
    assert_float_equal(sbx_secret_entropy("aaaa", 4), 0.0, 1e-9);
    assert_float_equal(sbx_secret_entropy("abcd", 4), 2.0, 1e-6);
    assert_float_equal(sbx_secret_entropy("aabb", 4), 1.0, 1e-6);
    /* 10 distinct of 11 with s twice: 9/11*log2(11) + 2/11*log2(11/2) */
    assert_float_equal(sbx_secret_entropy("password123", 11), 3.2776, 1e-3);
    assert_float_equal(sbx_secret_entropy_floor(8), 2.4, 1e-6);
    assert_float_equal(sbx_secret_entropy_floor(16), 3.4, 1e-6);
    assert_float_equal(sbx_secret_entropy_floor(40), 3.5, 1e-9);
    assert_true(sbx_secret_entropy("password123", 11) >= sbx_secret_entropy_floor(11));
    assert_true(sbx_secret_entropy("aaaa1111", 8) < sbx_secret_entropy_floor(8));
}

static void test_clip(void **state)
{
    struct fx *f = *state;
    /* the JSON-escaped clip marker (the plain one: secrets.test) */
    const char *esc = "head ghp_1234567890abcd\\n[...]\\nrest of output";
    struct found fo = scan(f, esc);
    assert_int_equal(fo.n, 1);
    assert_int_equal(fo.h[0].kind, SBX_SECRET_GITHUB_TOKEN);
    assert_int_equal(fo.h[0].off, 5);
    assert_int_equal(fo.h[0].len, strlen("ghp_1234567890abcd"));
    assert_true(fo.h[0].flags & SBX_SECRET_HIT_CUT);
}

static void test_json_escaped(void **state)
{
    struct fx *f = *state;
    /* a backslash ends a token: nothing of the escape is in the span */
    struct found fo = scan(f, "t=" GHP "\\t");
    assert_int_equal(fo.n, 1);
    assert_int_equal(fo.h[0].len, strlen(GHP));
}

static void test_masks(void **state)
{
    (void)state;
    char m[SBX_SECRET_MASK_MAX];
    /* truncation never splits the ellipsis; cap 0 writes nothing */
    assert_int_equal(sbx_secret_mask(SBX_SECRET_GITHUB_TOKEN, GHP, strlen(GHP), m, 6), 4);
    assert_string_equal(m, "ghp_");
    assert_int_equal(sbx_secret_mask(SBX_SECRET_GITHUB_TOKEN, GHP, strlen(GHP), m, 8), 7);
    assert_string_equal(m, "ghp_…");
    m[0] = 'z';
    assert_int_equal(sbx_secret_mask(SBX_SECRET_GITHUB_TOKEN, GHP, strlen(GHP), m, 0), 0);
    assert_int_equal(m[0], 'z');
}

static char *redact(struct fx *f, const char *text, size_t *count)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, "> ");
    *count = sbx_secrets_redact(f->s, f->sc, text, strlen(text), &b);
    char *r = sbx_xstrndup(b.p + 2, b.len - 2);
    assert_memory_equal(b.p, "> ", 2); /* appends */
    sbx_buf_free(&b);
    return r;
}

static void test_redact(void **state)
{
    struct fx *f = *state;
    size_t count;
    char *r = redact(f, "echo \\\"deploy token: " GHP "\\\" && export AWS_SECRET_ACCESS_KEY=" AWS_SECRET, &count);
    assert_string_equal(r, "echo \\\"deploy token: ghp_…AB\\\" && export AWS_SECRET_ACCESS_KEY=…EY");
    assert_int_equal(count, 2);
    free(r);

    r = redact(f, "nothing to see", &count);
    assert_string_equal(r, "nothing to see");
    assert_int_equal(count, 0);
    free(r);

    /* a password echoed back later is redacted there too */
    r = redact(f, "mysql --password=Xk9mP2vLq1 && echo $P\nXk9mP2vLq1\nend", &count);
    assert_string_equal(r, "mysql --password=[redacted] && echo $P\n[redacted]\nend");
    assert_int_equal(count, 2);
    free(r);

    r = redact(f, "-----BEGIN RSA PRIVATE KEY-----\\n" PEM_BODY "\\n-----END RSA PRIVATE KEY-----\\n", &count);
    assert_string_equal(r, "-----BEGIN RSA PRIVATE KEY-----…-----END RSA PRIVATE KEY-----\\n");
    free(r);
}

static char *read_fixture(size_t *n)
{
    /* next to this source file, wherever the tests are run from */
    char path[4096];
    const char *me = __FILE__, *slash = strrchr(me, '/');
    int dir = slash ? (int)(slash - me) : 0;
    snprintf(path, sizeof path, "%.*s%sfixtures/secrets-clean.txt", dir, me, slash ? "/" : "");
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fp = fopen("tests/unit/fixtures/secrets-clean.txt", "rb");
    if (!fp)
        return NULL;
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
        sbx_buf_add(&b, chunk, got);
    fclose(fp);
    *n = b.len;
    return b.p;
}

static void test_no_false_positives(void **state)
{
    struct fx *f = *state;
    size_t n = 0;
    char *text = read_fixture(&n);
    assert_non_null(text);
    assert_true(n > 4096);
    struct found fo = {0};
    sbx_secrets_scan(f->s, f->sc, text, n, collect, &fo);
    if (fo.n)
        fail_msg("false positive %s: [%.*s]", sbx_secret_kind_name(fo.h[0].kind), (int)fo.h[0].len, text + fo.h[0].off);
    /* and line by line, as the fields are scanned */
    for (char *p = text, *end = text + n; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        assert_int_equal(sbx_secrets_scan(f->s, f->sc, p, len, NULL, NULL), 0);
        p += len + 1;
    }
    free(text);
}

/* Hostile lines: the work counter must stay linear (a quadratic scan of 1 MB
 * would be ~10^11). Timing is left to the fuzz harness. */
static void test_hostile_lines_linear(void **state)
{
    struct fx *f = *state;
    static const char *const units[] = {
        "eyJ", "eyJaaaaaaaaaa.", "eyJaaaaaaaaaa.eyJbbbbbbbbbb.", "token=", "token=Zq8xLp2Wm4Rt6Yuxxxx ",
        "\"token\": \"", "-----BEGIN RSA PRIVATE KEY-----\\n", "AAAAAAAAAAAAAAA\\n-----END RSA PRIVATE KEY-----\\n",
        "ghp_", "://", "://aaaa:bbbb@", "sk-", "sk-T3BlbkFJ", "Authorization: Bearer ",
        "authorization=authorization=", "hooks.slack.com/", "--password ", "--password=--password=",
        "api_key=api_key=", "AKIA", "aws_secret=", "tokentokentoken", "\\n[...]\\n", "zzz://u:Zq8xLp2Wm4@",
        "github_pat_", "glpat-", "xoxb-", "Ik", "za",
    };
    const size_t n = (size_t)1 << 20;
    char *t = sbx_xmalloc(n);
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        size_t ul = strlen(units[u]);
        for (size_t i = 0; i < n; i++)
            t[i] = units[u][i % ul];
        sbx_secrets_scan(f->s, f->sc, t, n, NULL, NULL);
        size_t work = sbx_secrets_scratch_work(f->sc);
        if (work > 256 * n)
            fail_msg("work %zu for %zu bytes of \"%s\"", work, n, units[u]);
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_secrets_redact(f->s, f->sc, t, n, &b);
        assert_true(b.len > 0);
        sbx_buf_free(&b);
    }
    free(t);
}

static void test_edges(void **state)
{
    struct fx *f = *state;
    assert_int_equal(sbx_secrets_scan(f->s, f->sc, "", 0, NULL, NULL), 0);
    assert_int_equal(sbx_secrets_scan(f->s, f->sc, "g", 1, NULL, NULL), 0);
    /* a count without a callback */
    const char *two = GHP " and AKIAIOSFODNN7EXAMPLE";
    assert_int_equal(sbx_secrets_scan(f->s, f->sc, two, strlen(two), NULL, NULL), 2);
    /* a NUL byte inside the text is just a byte */
    const char nul[] = "x\0" GHP;
    assert_int_equal(sbx_secrets_scan(f->s, f->sc, nul, sizeof nul - 1, NULL, NULL), 1);
    /* a secret right at the end, and the last-block tail paths of the SIMD scan */
    for (size_t pad = 0; pad < 70; pad++) {
        char text[160];
        memset(text, ' ', pad);
        memcpy(text + pad, GHP, strlen(GHP));
        struct found fo = {0};
        sbx_secrets_scan(f->s, f->sc, text, pad + strlen(GHP), collect, &fo);
        assert_int_equal(fo.n, 1);
        assert_int_equal(fo.h[0].off, pad);
    }
}

/* The SIMD prefilter and the plain C one find the same hits. */
static void test_portable_agrees(void **state)
{
    struct fx *f = *state;
    char err[256];
    struct sbx_secrets *p = sbx_secrets_new_with(SBX_SECRETS_PORTABLE, err, sizeof err);
    assert_non_null(p);
    struct sbx_secrets_scratch *psc = sbx_secrets_scratch_new(p);
    size_t n = 0;
    char *fixture = read_fixture(&n);
    assert_non_null(fixture);
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_add(&b, fixture, n);
    free(fixture);
    static const char *const extra[] = {
        GHP, "AKIAIOSFODNN7EXAMPLE", "token: Zq8xLp2Wm4Rt6Yu8", JWT, ("-----BEGIN RSA PRIVATE KEY-----\n" PEM_BODY),
        "https://u:Sup3rS3cret!@h", "sk-proj-Ab3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1Vw3Xy5Za7Bc9", "xoxb-1234567890-AbCdEfGhIj",
    };
    /* secrets at every alignment against 16- and 32-byte blocks */
    for (size_t i = 0; i < 64; i++) {
        sbx_buf_add(&b, "..........", i % 10);
        sbx_buf_adds(&b, extra[i % (sizeof extra / sizeof *extra)]);
        sbx_buf_addc(&b, i % 3 ? ' ' : '\n');
    }
    struct found a = {0}, c = {0};
    size_t na = sbx_secrets_scan(f->s, f->sc, b.p, b.len, collect, &a);
    size_t nc = sbx_secrets_scan(p, psc, b.p, b.len, collect, &c);
    assert_int_equal(na, nc);
    assert_true(na >= 48);
    for (size_t i = 0; i < na && i < MAX_HITS; i++) {
        assert_int_equal(a.h[i].kind, c.h[i].kind);
        assert_int_equal(a.h[i].off, c.h[i].off);
        assert_int_equal(a.h[i].len, c.h[i].len);
    }
    sbx_buf_free(&b);
    sbx_secrets_scratch_free(psc);
    sbx_secrets_free(p);
}

/* Every hit, for texts with more than MAX_HITS of them. */
struct all_hits {
    struct sbx_secret_hit *v;
    size_t n, cap;
};

static void collect_all(const struct sbx_secret_hit *h, void *ctx)
{
    struct all_hits *a = ctx;
    SBX_GROW(a->v, a->n, a->cap);
    a->v[a->n++] = *h;
}

/* A large generated text dense in the anchors' letters (both cases, with
 * the separators that follow them), so that nearly every pair of letters
 * lands in some bucket, real secrets at every alignment: the SIMD
 * prefilter, which merges anchor pairs into buckets, finds exactly what the
 * plain one does, from every start in a 64-byte block. */
static void test_portable_agrees_generated(void **state)
{
    struct fx *f = *state;
    char err[256];
    struct sbx_secrets *p = sbx_secrets_new_with(SBX_SECRETS_PORTABLE, err, sizeof err);
    assert_non_null(p);
    struct sbx_secrets_scratch *psc = sbx_secrets_scratch_new(p);
    static const char alphabet[] = "oOkKcCrRsSwWzZaAgGhHlLxXnNpPiIyYjJbBeEfFtT_-.:/ =\"\n";
    static const char *const secrets[] = {
        GHP, "AKIAIOSFODNN7EXAMPLE", "token: Zq8xLp2Wm4Rt6Yu8", JWT, "sk-ant-Ab3De5Fg7Hi9Jk1Lm3No5Pq7",
        "https://u:Sup3rS3cret!@h", "xoxb-1234567890-AbCdEfGhIj", "api_key=Qw8Er7Ty6Ui5Op4As3",
        "AUTHORIZATION: Bearer Zx9Cv8Bn7Mm6Lk5Jh4", "--password Pq9Wo8Ei7Ru6Ty5",
    };
    struct sbx_buf b = SBX_BUF_INIT;
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; b.len < 300000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (x % 97 == 0)
            sbx_buf_adds(&b, secrets[i % (sizeof secrets / sizeof *secrets)]);
        else
            sbx_buf_addc(&b, alphabet[x % (sizeof alphabet - 1)]);
    }
    size_t total = 0;
    for (size_t start = 0; start < 64; start += 7) {
        struct all_hits a = {0}, c = {0};
        size_t na = sbx_secrets_scan(f->s, f->sc, b.p + start, b.len - start, collect_all, &a);
        size_t nc = sbx_secrets_scan(p, psc, b.p + start, b.len - start, collect_all, &c);
        assert_int_equal(na, nc);
        assert_int_equal(a.n, c.n);
        for (size_t i = 0; i < a.n; i++) {
            assert_int_equal(a.v[i].kind, c.v[i].kind);
            assert_int_equal(a.v[i].off, c.v[i].off);
            assert_int_equal(a.v[i].len, c.v[i].len);
        }
        total += na;
        free(a.v);
        free(c.v);
    }
    assert_true(total > 1000);
    sbx_buf_free(&b);
    sbx_secrets_scratch_free(psc);
    sbx_secrets_free(p);
}

/* The SIMD and plain prefilters on every scan case of secrets.test and on
 * overlapping anchors, each inside a JSON record's field at every offset
 * across two 64-byte block edges (the pair that straddles a block is the
 * vector pass's carry), after plain, non-ASCII or anchor-dense filler. */
struct twins {
    struct fx *f;
    struct sbx_secrets *p;
    struct sbx_secrets_scratch *psc;
    size_t texts, hits;
};

static void twins_agree_on(struct twins *tw, const char *text, size_t len)
{
    static const char *const fillers[] = {"          ", "\u00e9 \u2192 caf\u00e9 Ã©â ",
                                          "ok look np input gh:/ k-k_ æ±"};
    static const char *const fields[] = {"{\"command\": \"", "{\"at\": 1, \"stdout\": \"",
                                         "{\"stderr\": \"x\", \"note\": \""};
    for (size_t off = 0; off < 130; off++) {
        struct sbx_buf b = SBX_BUF_INIT;
        const char *fill = fillers[off % 3];
        sbx_buf_adds(&b, fields[off % 3]);
        while (b.len < off)
            sbx_buf_add(&b, fill, strlen(fill) < off - b.len ? strlen(fill) : off - b.len);
        sbx_buf_add(&b, text, len);
        sbx_buf_adds(&b, fill);
        sbx_buf_adds(&b, "\"}");
        struct all_hits a = {0}, c = {0};
        size_t na = sbx_secrets_scan(tw->f->s, tw->f->sc, b.p, b.len, collect_all, &a);
        size_t nc = sbx_secrets_scan(tw->p, tw->psc, b.p, b.len, collect_all, &c);
        if (na != nc)
            fail_msg("SIMD %zu hits, plain %zu, at offset %zu in: %.*s", na, nc, off, (int)b.len, b.p);
        for (size_t i = 0; i < a.n; i++)
            if (a.v[i].kind != c.v[i].kind || a.v[i].off != c.v[i].off || a.v[i].len != c.v[i].len ||
                a.v[i].flags != c.v[i].flags)
                fail_msg("hit %zu differs at offset %zu in: %.*s", i, off, (int)b.len, b.p);
        tw->texts++;
        tw->hits += na;
        free(a.v);
        free(c.v);
        sbx_buf_free(&b);
    }
}

static void twins_case(const struct test_case *c, void *ctx)
{
    if (strcmp(c->table, "scan") == 0)
        twins_agree_on(ctx, c->field[0], c->len[0]);
}

static void test_portable_agrees_block_edges(void **state)
{
    char err[256];
    struct twins tw = {*state, sbx_secrets_new_with(SBX_SECRETS_PORTABLE, err, sizeof err), NULL, 0, 0};
    assert_non_null(tw.p);
    tw.psc = sbx_secrets_scratch_new(tw.p);
    cases_run("secrets.test", twins_case, &tw);
    static const char *const overlapping[] = {
        "tokensecret=Zq8xLp2Wm4Rt6Yu8", "sk-sk-ant-Ab3De5Fg7Hi9Jk1Lm3No5Pq7", "ghghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
        "AKAKIAIOSFODNN7EXAMPLE", "eyeyJ" JWT, "--passw--password Pq9Wo8Ei7Ru6Ty5", "x://u:Sup3rS3cret!@h://",
        "api_key-api-key=Qw8Er7Ty6Ui5Op4As3", "npnpm_1234567890abcdefghijABCDEFGHIJ123456",
    };
    for (size_t i = 0; i < sizeof overlapping / sizeof *overlapping; i++)
        twins_agree_on(&tw, overlapping[i], strlen(overlapping[i]));
    assert_true(tw.texts > 10000);
    assert_true(tw.hits > tw.texts / 2);
    sbx_secrets_scratch_free(tw.psc);
    sbx_secrets_free(tw.p);
}

struct thread_job {
    const struct sbx_secrets *s;
    const char *text;
    size_t n, hits;
};

static void *thread_scan(void *arg)
{
    struct thread_job *j = arg;
    struct sbx_secrets_scratch *sc = sbx_secrets_scratch_new(j->s);
    for (int r = 0; r < 200; r++)
        j->hits += sbx_secrets_scan(j->s, sc, j->text, j->n, NULL, NULL);
    sbx_secrets_scratch_free(sc);
    return NULL;
}

static void test_threads(void **state)
{
    struct fx *f = *state;
    const char *text = "deploy " GHP " and password=Xk9mP2vLq1 and " JWT;
    struct thread_job jobs[2] = {{f->s, text, strlen(text), 0}, {f->s, text, strlen(text), 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, thread_scan, &jobs[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    assert_int_equal(jobs[0].hits, 600);
    assert_int_equal(jobs[1].hits, 600);
}

/* Lowered text (a host name) is searched upper-cased too: an AWS key id
 * lowered is masked, lowered; text with a capital is left as it is. */
static void test_redact_lowered(void **state)
{
    struct fx *f = *state;
    size_t count;
    char *r = redact(f, "connect akiaiosfodnn7example.s3.amazonaws.com:443", &count);
    assert_string_equal(r, "connect akia…le.s3.amazonaws.com:443");
    assert_int_equal(count, 1);
    free(r);
    r = redact(f, "host ghp_1234567890abcdefghijklmnopqrstuvwxyzab", &count);
    assert_string_equal(r, "host ghp_…ab");
    free(r);
    r = redact(f, "Connect akiaiosfodnn7example", &count); /* not lowered: as it is */
    assert_string_equal(r, "Connect akiaiosfodnn7example");
    assert_int_equal(count, 0);
    free(r);
    r = redact(f, "pypi.org files.pythonhosted.org:443", &count);
    assert_string_equal(r, "pypi.org files.pythonhosted.org:443");
    assert_int_equal(count, 0);
    free(r);
}

/* The shared patterns find what the summary's do, from any thread. */
static void test_redact_any(void **state)
{
    struct fx *f = *state;
    struct sbx_buf a = SBX_BUF_INIT, b = SBX_BUF_INIT;
    const char *text = "x " GHP " y AKIAIOSFODNN7EXAMPLE";
    sbx_secrets_redact(f->s, f->sc, text, strlen(text), &a);
    assert_int_equal(sbx_secrets_redact_any(text, strlen(text), &b), 2);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.p, b.p, a.len);
    assert_ptr_equal(sbx_secrets_shared(), sbx_secrets_shared());
    sbx_buf_free(&a);
    sbx_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_case_file),
        cmocka_unit_test(test_private_keys),
        cmocka_unit_test(test_sample_log),
        cmocka_unit_test(test_placeholders),
        cmocka_unit_test(test_entropy),
        cmocka_unit_test(test_clip),
        cmocka_unit_test(test_json_escaped),
        cmocka_unit_test(test_masks),
        cmocka_unit_test(test_redact),
        cmocka_unit_test(test_no_false_positives),
        cmocka_unit_test(test_hostile_lines_linear),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_portable_agrees),
        cmocka_unit_test(test_portable_agrees_generated),
        cmocka_unit_test(test_portable_agrees_block_edges),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_redact_lowered),
        cmocka_unit_test(test_redact_any),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
