/* Unit tests for analyses/secrets/secrets: kinds and spans, masks, redaction,
 * placeholders, clipped tokens, JSON-escaped text, no false positives on
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
static struct found scan(struct fx *f, const char *text)
{
    struct found fo = {0};
    size_t n = strlen(text);
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

/* The one hit in text must be `secret` (its first occurrence) of kind. */
static void expect_one(struct fx *f, const char *text, unsigned kind, const char *secret)
{
    struct found fo = scan(f, text);
    if (fo.n != 1)
        fail_msg("%zu hits in: %s", fo.n, text);
    const char *at = strstr(text, secret);
    assert_non_null(at);
    if (fo.h[0].kind != kind)
        fail_msg("kind %s, expected %s, in: %s", sbx_secret_kind_name(fo.h[0].kind), sbx_secret_kind_name(kind),
                 text);
    assert_int_equal(fo.h[0].off, (size_t)(at - text));
    assert_int_equal(fo.h[0].len, strlen(secret));
}

static void expect_none(struct fx *f, const char *text)
{
    struct found fo = scan(f, text);
    if (fo.n)
        fail_msg("unexpected %s [%.*s] in: %s", sbx_secret_kind_name(fo.h[0].kind), (int)fo.h[0].len,
                 text + fo.h[0].off, text);
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

static void test_prefix_kinds(void **state)
{
    struct fx *f = *state;
    expect_one(f, "deploy " GHP " done", SBX_SECRET_GITHUB_TOKEN, GHP);
    expect_one(f, "x gho_16C7e42F292c6912E7710c838347Ae178B4a y", SBX_SECRET_GITHUB_TOKEN,
               "gho_16C7e42F292c6912E7710c838347Ae178B4a");
    expect_one(f,
               "GH=github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefgh"
               "ijklm;",
               SBX_SECRET_GITHUB_TOKEN,
               "github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklm");
    expect_one(f, "git remote add glpat-Ab3De5Fg7Hi9Jk1Lm3No x", SBX_SECRET_GITLAB_TOKEN, "glpat-Ab3De5Fg7Hi9Jk1Lm3No");
    expect_one(f, "id AKIAIOSFODNN7EXAMPLE.", SBX_SECRET_AWS_ACCESS_KEY_ID, "AKIAIOSFODNN7EXAMPLE");
    expect_one(f, "(ASIAY34FZKBOKMUTVV7A)", SBX_SECRET_AWS_ACCESS_KEY_ID, "ASIAY34FZKBOKMUTVV7A");
    expect_one(f, "slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx ok", SBX_SECRET_SLACK_TOKEN,
               "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx");
    expect_one(f, "post https://hooks.slack.com/services/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 now",
               SBX_SECRET_SLACK_WEBHOOK,
               "https://hooks.slack.com/services/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");
    expect_one(f, "k=sk-abcdefghij1234567890T3BlbkFJabcdefghij1234567890 ", SBX_SECRET_OPENAI_KEY,
               "sk-abcdefghij1234567890T3BlbkFJabcdefghij1234567890");
    expect_one(f, "use sk-proj-Ab3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1Vw3Xy5Za7Bc9De1Fg3", SBX_SECRET_OPENAI_KEY,
               "sk-proj-Ab3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1Vw3Xy5Za7Bc9De1Fg3");
    expect_one(f, "\"sk-ant-api03-Ab3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1Vw3Xy5Za7Bc9De1Fg3-xyzAA\"", SBX_SECRET_ANTHROPIC_KEY,
               "sk-ant-api03-Ab3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1Vw3Xy5Za7Bc9De1Fg3-xyzAA");
    expect_one(f, "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", SBX_SECRET_STRIPE_KEY, "sk_live_4eC39HqLyjWDarjtT1zdp7dc");
    expect_one(f, "stripe rk_live_4eC39HqLyjWDarjtT1zdp7dcXY!", SBX_SECRET_STRIPE_KEY,
               "rk_live_4eC39HqLyjWDarjtT1zdp7dcXY");
    expect_one(f, "key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY&q=1", SBX_SECRET_GOOGLE_API_KEY,
               "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY");
    expect_one(f, "login hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", SBX_SECRET_HUGGINGFACE_TOKEN,
               "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567");
    expect_one(f, "//registry.npmjs.org/:_authToken=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", SBX_SECRET_NPM_TOKEN,
               "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789");
    expect_one(f, "cookie: session=" JWT "; path=/", SBX_SECRET_JWT, JWT);
}

#define PEM_BODY "MIIEowIBAAKCAQEA1234567890abcdefABCDEF\nQWERTYUIOPasdfghjkl+/=="

static void test_private_keys(void **state)
{
    struct fx *f = *state;
    const char *pem = "-----BEGIN RSA PRIVATE KEY-----\n" PEM_BODY "\n-----END RSA PRIVATE KEY-----";
    char text[512];
    snprintf(text, sizeof text, "$ cat id_rsa\n%s\n$ next", pem);
    expect_one(f, text, SBX_SECRET_PRIVATE_KEY, pem);

    /* JSON-escaped, as the importer keeps string bodies */
    const char *esc = "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA1234567890abcdef\\nQWERTYUIOPasdf+/==\\n"
                      "-----END RSA PRIVATE KEY-----";
    snprintf(text, sizeof text, "{\"stdout\": \"%s\\n\"}", esc);
    expect_one(f, text, SBX_SECRET_PRIVATE_KEY, esc);

    /* encrypted PEM with header lines */
    const char *enc = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,2A9F3B1C\n\n"
                      "MIIEowIBAAKCAQEA1234567890abcdef\n-----END RSA PRIVATE KEY-----";
    expect_one(f, enc, SBX_SECRET_PRIVATE_KEY, enc);

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

    /* a header alone, or in source code, is not a key */
    expect_none(f, "if not pem.startswith(\"-----BEGIN RSA PRIVATE KEY-----\"):");
    expect_none(f, "-----BEGIN PRIVATE KEY----- not found in the file you gave, sorry about that");
    expect_none(f, "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n"
                   "-----END PUBLIC KEY-----");
}

static void test_context_kinds(void **state)
{
    struct fx *f = *state;
    expect_one(f, "curl -H \"Authorization: Bearer abcDEF123ghiJKL456mnoPQR\" https://api.example.com",
               SBX_SECRET_AUTHORIZATION_HEADER, "abcDEF123ghiJKL456mnoPQR");
    expect_one(f, "curl -H 'authorization: Basic dXNlcjpwYXNzd29yZDEyMw==' x", SBX_SECRET_AUTHORIZATION_HEADER,
               "dXNlcjpwYXNzd29yZDEyMw==");
    expect_one(f, "> Proxy-Authorization: token 9f8e7d6c5b4a39281706f5e4d3c2b1a0", SBX_SECRET_AUTHORIZATION_HEADER,
               "9f8e7d6c5b4a39281706f5e4d3c2b1a0");
    expect_one(f, "mysql --password=password123 -u root", SBX_SECRET_PASSWORD, "password123");
    expect_one(f, "mysql --password hunter22x -u root", SBX_SECRET_PASSWORD, "hunter22x");
    expect_one(f, "psql\nPASSWORD: Xk9#mP2$vL\n", SBX_SECRET_PASSWORD, "Xk9#mP2$vL");
    expect_one(f, "{\"password\": \"correct horse battery\"}", SBX_SECRET_PASSWORD, "correct horse battery");
    expect_one(f, "export GITHUB_TOKEN=abcdef0123456789abcdef && run", SBX_SECRET_TOKEN_ASSIGNMENT,
               "abcdef0123456789abcdef");
    expect_one(f, "DB_PASSWORD=s3cr3tPa55 ./migrate", SBX_SECRET_TOKEN_ASSIGNMENT, "s3cr3tPa55");
    expect_one(f, "{\"token\": \"Zq8xLp2Wm4Rt6Yu8\"}", SBX_SECRET_TOKEN_ASSIGNMENT, "Zq8xLp2Wm4Rt6Yu8");
    expect_one(f, "{\"access_token\":\"ya29.a0AfH6SMBx3k9Qp2Lm7Rt\",\"token_type\":\"Bearer\"}",
               SBX_SECRET_TOKEN_ASSIGNMENT, "ya29.a0AfH6SMBx3k9Qp2Lm7Rt");
    expect_one(f, "settings(api_key='Qw3Er5Ty7Ui9Op1A')", SBX_SECRET_TOKEN_ASSIGNMENT, "Qw3Er5Ty7Ui9Op1A");
    expect_one(f, "client_secret: 8a7Bq2Zx9Lm4Np6Rt1Vw", SBX_SECRET_TOKEN_ASSIGNMENT, "8a7Bq2Zx9Lm4Np6Rt1Vw");
    expect_one(f, "curl -H 'X-API-Key: 7Hq2Lm9Zx4Rt8Wp3' x", SBX_SECRET_TOKEN_ASSIGNMENT, "7Hq2Lm9Zx4Rt8Wp3");
    expect_one(f, "https://example.com/cb?access_token=Zq8xLp2Wm4Rt6Yu8&x=1", SBX_SECRET_TOKEN_ASSIGNMENT,
               "Zq8xLp2Wm4Rt6Yu8");
    expect_one(f, "DATABASE_URL=postgres://admin:Sup3rS3cret!@db:5432/x", SBX_SECRET_URL_PASSWORD, "Sup3rS3cret!");
    expect_one(f, "aws configure set aws_secret_access_key " AWS_SECRET, SBX_SECRET_AWS_SECRET_KEY, AWS_SECRET);
    expect_one(f, "\"SecretAccessKey\": \"" AWS_SECRET "\",", SBX_SECRET_AWS_SECRET_KEY, AWS_SECRET);
    /* a token in a context is reported as its own kind */
    expect_one(f, "GITHUB_TOKEN=" GHP, SBX_SECRET_GITHUB_TOKEN, GHP);
    expect_one(f, "Authorization: Bearer " JWT, SBX_SECRET_JWT, JWT);
    expect_one(f, "git clone https://x-access-token:" GHP "@github.com/o/r", SBX_SECRET_GITHUB_TOKEN, GHP);
}

/* The two secrets of the real sample log, as they appear there. */
static void test_sample_log(void **state)
{
    struct fx *f = *state;
    const char *cmd = "\"command\": \"echo \\\"deploy token: " GHP "\\\"\", \"cwd\": \"/workspace\"";
    expect_one(f, cmd, SBX_SECRET_GITHUB_TOKEN, GHP);
    expect_one(f, "deploy token: " GHP "\\n", SBX_SECRET_GITHUB_TOKEN, GHP);
    expect_one(f, "export AWS_SECRET_ACCESS_KEY=" AWS_SECRET " && env | grep -c AWS", SBX_SECRET_AWS_SECRET_KEY,
               AWS_SECRET);
    char m[SBX_SECRET_MASK_MAX];
    assert_int_equal(sbx_secret_mask(SBX_SECRET_GITHUB_TOKEN, GHP, strlen(GHP), m, sizeof m), strlen("ghp_…AB"));
    assert_string_equal(m, "ghp_…AB");
}

static void test_placeholders(void **state)
{
    struct fx *f = *state;
    static const char *const texts[] = {
        "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "ghp_xxxxxxxx…",
        "echo ${GITHUB_TOKEN}",
        "GITHUB_TOKEN=${GITHUB_TOKEN}",
        "TOKEN=$GH_TOKEN",
        "API_TOKEN=<your-api-token>",
        "token: <token>",
        "PASSWORD=***",
        "password=********",
        "password=changeme",
        "SECRET_KEY=changeme",
        "api_key=xxxxxxxxxxxx",
        "OPENAI_API_KEY=your_openai_api_key_here",
        "\"password\": null",
        "\"token\": \"{{ .Values.token }}\"",
        "password = self.password",
        "token=get_token()",
        "api_key=OPENAI_API_KEY",
        "password=getpass.getpass()",
        "Authorization: Bearer $GITHUB_TOKEN",
        "Authorization: Bearer ${TOKEN}",
        "Looking in indexes: https://ci-bot:****@pkgs.example.internal/simple",
        "DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app",
        "AKIA0000000000000000",
        "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
        "password=aaaa1111",
        "TOKEN=testtesttest",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        expect_none(f, texts[i]);

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
    /* JSON-escaped clip marker, then the plain one */
    const char *esc = "head ghp_1234567890abcd\\n[...]\\nrest of output";
    struct found fo = scan(f, esc);
    assert_int_equal(fo.n, 1);
    assert_int_equal(fo.h[0].kind, SBX_SECRET_GITHUB_TOKEN);
    assert_int_equal(fo.h[0].off, 5);
    assert_int_equal(fo.h[0].len, strlen("ghp_1234567890abcd"));
    assert_true(fo.h[0].flags & SBX_SECRET_HIT_CUT);
    expect_one(f, "x AKIAIOSFODNN7E\n[...]\ntail", SBX_SECRET_AWS_ACCESS_KEY_ID, "AKIAIOSFODNN7E");
    expect_one(f, "at the end: npm_AbCdEfGh12", SBX_SECRET_NPM_TOKEN, "npm_AbCdEfGh12");
    expect_one(f, "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIx\\n[...]\\n", SBX_SECRET_JWT,
               "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIx");
    /* fewer than 8 body characters, or cut by anything but the clip */
    expect_none(f, "head ghp_1234567\\n[...]\\nrest");
    expect_none(f, "head ghp_1234567890abcd and more");
    expect_none(f, "head ghp_1234567890abcd\\nnext line");
}

static void test_json_escaped(void **state)
{
    struct fx *f = *state;
    expect_one(f, "{\\\"token\\\": \\\"Zq8xLp2Wm4Rt6Yu8\\\"}", SBX_SECRET_TOKEN_ASSIGNMENT, "Zq8xLp2Wm4Rt6Yu8");
    expect_one(f, "ok\\npassword: Xk9#mP2$vL\\n", SBX_SECRET_PASSWORD, "Xk9#mP2$vL");
    expect_one(f, "line\\n" GHP "\\nnext", SBX_SECRET_GITHUB_TOKEN, GHP);
    expect_one(f, "\\u0022" GHP "\\u0022", SBX_SECRET_GITHUB_TOKEN, GHP);
    expect_one(f, "-H \\\"Authorization: Bearer abcDEF123ghiJKL456mnoPQR\\\"", SBX_SECRET_AUTHORIZATION_HEADER,
               "abcDEF123ghiJKL456mnoPQR");
    /* a backslash ends a token: nothing of the escape is in the span */
    struct found fo = scan(f, "t=" GHP "\\t");
    assert_int_equal(fo.n, 1);
    assert_int_equal(fo.h[0].len, strlen(GHP));
}

static void test_masks(void **state)
{
    (void)state;
    char m[SBX_SECRET_MASK_MAX];
    struct {
        unsigned kind;
        const char *secret, *mask;
    } cases[] = {
        {SBX_SECRET_GITHUB_TOKEN, GHP, "ghp_…AB"},
        {SBX_SECRET_GITHUB_TOKEN, "ghp_1234567", "ghp_…"},
        {SBX_SECRET_AWS_ACCESS_KEY_ID, "AKIAIOSFODNN7EXAMPLE", "AKIA…LE"},
        {SBX_SECRET_AWS_SECRET_KEY, AWS_SECRET, "…EY"},
        {SBX_SECRET_OPENAI_KEY, "sk-proj-Ab3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1", "sk-proj-…u1"},
        {SBX_SECRET_ANTHROPIC_KEY, "sk-ant-api03-Ab3De5Fg7Hi9Jk1Lm3No5Pq7", "sk-ant-…q7"},
        {SBX_SECRET_STRIPE_KEY, "rk_live_4eC39HqLyjWDarjtT1zdp7dcXY", "rk_live_…XY"},
        {SBX_SECRET_SLACK_WEBHOOK, "https://hooks.slack.com/services/T0AB12CD3/B0CD34EF5/aB3dE5fG7h",
         "https://hooks.slack.com/services/…7h"},
        {SBX_SECRET_JWT, JWT, "eyJ…5c"},
        {SBX_SECRET_PASSWORD, "password123", "[redacted]"},
        {SBX_SECRET_TOKEN_ASSIGNMENT, "Zq8xLp2Wm4Rt6Yu8", "…u8"},
        {SBX_SECRET_PRIVATE_KEY, "-----BEGIN RSA PRIVATE KEY-----\n" PEM_BODY "\n-----END RSA PRIVATE KEY-----",
         "-----BEGIN RSA PRIVATE KEY-----…-----END RSA PRIVATE KEY-----"},
        {SBX_SECRET_PRIVATE_KEY, "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBcD5vT8f3kX9qLmNoPqRsTu",
         "-----BEGIN EC PRIVATE KEY-----…"},
        {SBX_SECRET_PRIVATE_KEY, "AwEHoUQDQgAEx1y2Z3a4B5c6D7e8F9g0\n-----END EC PRIVATE KEY-----",
         "…-----END EC PRIVATE KEY-----"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len = sbx_secret_mask(cases[i].kind, cases[i].secret, strlen(cases[i].secret), m, sizeof m);
        assert_string_equal(m, cases[i].mask);
        assert_int_equal(len, strlen(cases[i].mask));
    }
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_prefix_kinds),
        cmocka_unit_test(test_private_keys),
        cmocka_unit_test(test_context_kinds),
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
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
