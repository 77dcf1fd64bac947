/* The secret scanner: prefilter, per-kind checks, PCRE2 confirmation.
 *
 * Why the shape: PCRE2 (even with the JIT) run over every byte with one big
 * alternation is far too slow for 1.7 GB of logs, and some patterns can
 * backtrack badly on hostile lines. So a table of two-byte anchors picks
 * candidate positions, a literal compare and a memoised run-length check
 * (amortised linear: a run of token characters is measured once, however
 * many candidates start inside it) throw most away, and only survivors run
 * an anchored, possessive PCRE2 pattern on a bounded window. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "analyses/secrets/secrets.h"

#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/simd.h"

#if SBX_X86_64
#include <immintrin.h>
#endif

/* ---- character classes ------------------------------------------------ */

enum cls {
    C_ALNUM = 1 << 0,     /* [A-Za-z0-9] */
    C_ALNUM_ = 1 << 1,    /* [A-Za-z0-9_] */
    C_TOKCH = 1 << 2,     /* [A-Za-z0-9_-] */
    C_ALNUMDASH = 1 << 3, /* [A-Za-z0-9-] */
    C_URLPATH = 1 << 4,   /* [A-Za-z0-9_/+-] */
    C_B64 = 1 << 5,       /* [A-Za-z0-9+/=] */
    C_KEY = 1 << 6,       /* [A-Za-z0-9_.-]: a key or option name */
};

/* Memo slots for run lengths: one per class, and extra ones for a JWT's
 * second and third segments so they never evict the first. */
enum memo { M_ALNUM, M_ALNUM_, M_TOKCH, M_TOKCH2, M_TOKCH3, M_ALNUMDASH, M_URLPATH, M_KEY, M_COUNT };
static const uint8_t memo_class[M_COUNT] = {
    C_ALNUM, C_ALNUM_, C_TOKCH, C_TOKCH, C_TOKCH, C_ALNUMDASH, C_URLPATH, C_KEY,
};

/* ---- PCRE2 rules ------------------------------------------------------- */

enum rule {
    R_GITHUB, R_GITHUB_PAT, R_GITLAB, R_AWS_ID, R_SLACK_TOKEN, R_SLACK_HOOK, R_OPENAI,
    R_ANTHROPIC, R_STRIPE, R_GOOGLE, R_HF, R_NPM, R_JWT, R_PEM_BEGIN, R_PEM_END,
    R_ASSIGN, R_OPTION, R_AWS_SPACE, R_AUTH, R_URL, R_COUNT
};

/* A quoted value: up to the closing quote or a backslash (JSON-escaped
 * quote); printable ASCII and spaces. An unquoted one: printable ASCII up to
 * a space, quote, backslash, shell/code punctuation, "=" or ":" (base64
 * padding at the end excepted). Keeping "=" and ":" out means a value never
 * contains another key's separator, so "token=token=token=…" costs linear
 * time. */
#define QVAL_D "\\\\{0,3}\"([\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]{1,512}+)"
#define QVAL_S "\\\\{0,3}'([\\x20-\\x26\\x28-\\x5b\\x5d-\\x7e]{1,512}+)"
#define UVAL "([^\\x00-\\x20\\x7f-\\xff\"'\\\\`,;&|<>(){}\\[\\]=:]{1,512}+(?:={1,3}+(?![A-Za-z0-9_]))?)"
#define KEYQ "(?:\\\\{0,3}[\"'`])?+"

static const char *const rule_pattern[R_COUNT] = {
    [R_GITHUB] = "gh[pousr]_[A-Za-z0-9]{36,251}+(?![A-Za-z0-9_])",
    [R_GITHUB_PAT] = "github_pat_[A-Za-z0-9_]{82,244}+(?![A-Za-z0-9_])",
    [R_GITLAB] = "glpat-[A-Za-z0-9_-]{20,255}+(?:\\.[A-Za-z0-9_-]{1,64}+){0,4}+(?![A-Za-z0-9_-])",
    [R_AWS_ID] = "(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])",
    [R_SLACK_TOKEN] = "xox[abposr]-[A-Za-z0-9-]{10,255}+(?![A-Za-z0-9-])",
    [R_SLACK_HOOK] = "(?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{20,300}+",
    [R_OPENAI] = "sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,400}+"
                 "|(?=[A-Za-z0-9_-]{0,300}?T3BlbkFJ)[A-Za-z0-9_-]{20,400}+)(?![A-Za-z0-9_-])",
    [R_ANTHROPIC] = "sk-ant-[A-Za-z0-9_-]{20,400}+(?![A-Za-z0-9_-])",
    [R_STRIPE] = "[sr]k_live_[A-Za-z0-9]{20,247}+(?![A-Za-z0-9])",
    [R_GOOGLE] = "AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])",
    [R_HF] = "hf_[A-Za-z0-9]{30,255}+(?![A-Za-z0-9_])",
    [R_NPM] = "npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])",
    [R_JWT] = "eyJ[A-Za-z0-9_-]{7,}+\\.eyJ[A-Za-z0-9_-]{7,}+\\.[A-Za-z0-9_-]*+",
    [R_PEM_BEGIN] = "-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----",
    [R_PEM_END] = "-----END (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----",
    /* after a key name: its closing quote, "=", ":", ":=" or "=>", a value */
    [R_ASSIGN] = KEYQ "[ \\t]{0,8}+(?::=|=>|=|:)[ \\t]{0,8}+(?|" QVAL_D "|" QVAL_S "|" UVAL ")",
    /* after an option name: "--password value" */
    [R_OPTION] = "[ \\t]{1,8}+(?!-)(?|" QVAL_D "|" QVAL_S "|" UVAL ")",
    /* "aws configure set aws_secret_access_key VALUE" */
    [R_AWS_SPACE] = KEYQ "[ \\t]{1,8}+(?:\\\\{0,3}[\"'])?+([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
    [R_AUTH] = KEYQ "[ \\t]{0,8}+[:=][ \\t]{0,8}+(?:\\\\{0,3}[\"'])?+"
               "(?:(?i:bearer|basic|token|bot)[ \\t]{1,8}+)?+"
               "([A-Za-z0-9._~+/-]{1,1024}+(?:={1,3}+(?![A-Za-z0-9_]))?)",
    /* after "://": user ":" password "@" */
    [R_URL] = "[^\\x00-\\x20\\x7f-\\xff/@:\"'\\\\<>]{0,128}+:([^\\x00-\\x20\\x7f-\\xff/@\"'\\\\<>]{1,256}+)@",
};

/* ---- anchors ------------------------------------------------------------ */

enum group {
    G_NONE, G_GH, G_GHPAT, G_GL, G_AWSID, G_XOX, G_HOOK, G_SK, G_AIZA, G_HF, G_NPM,
    G_JWT, G_PEM_B, G_PEM_E, G_URL,
    G_KW_FIRST /* keyword i has group G_KW_FIRST + i */
};

/* A two-byte anchor: the pair (a, b) at position i means a candidate of
 * group g starting at i - off. Pairs are chosen to be rare in ordinary logs
 * ("IA" inside AKIA, "yJ" inside eyJ, "-B" inside -----BEGIN, "k-" inside
 * sk-, "k_" inside sk_live_ and rk_live_). */
struct anchor {
    char a, b;
    uint8_t off, group;
};

static const struct anchor prefix_anchors[] = {
    {'g', 'h', 0, G_GH},   {'b', '_', 5, G_GHPAT}, {'g', 'l', 0, G_GL},    {'I', 'A', 2, G_AWSID},
    {'x', 'o', 0, G_XOX},  {'k', '.', 10, G_HOOK}, {'k', '-', 1, G_SK},    {'k', '_', 1, G_SK},
    {'I', 'z', 1, G_AIZA}, {'h', 'f', 0, G_HF},    {'n', 'p', 0, G_NPM},   {'y', 'J', 1, G_JWT},
    {'-', 'B', 4, G_PEM_B}, {'-', 'E', 4, G_PEM_E}, {':', '/', 0, G_URL},
};

/* Keyword anchors, matched in any letter case: a key name containing one
 * ("GITHUB_TOKEN", "client_secret", "--password", "x-api-key") is read
 * whole and judged by classify_key(). */
struct keyword {
    const char *word; /* lower case */
    char a, b;        /* the anchor pair inside word, at offset off */
    uint8_t off;
};

static const struct keyword keywords[] = {
    {"token", 'o', 'k', 1},   {"secret", 'c', 'r', 2}, {"passw", 's', 'w', 3},
    {"api_key", '_', 'k', 3}, {"api-key", '-', 'k', 3}, {"apikey", 'i', 'k', 2},
    {"authorization", 'z', 'a', 7},
};

#define SLOT_MAX 4
#define SLOTS 96

struct slot {
    uint8_t n;
    uint8_t off[SLOT_MAX], group[SLOT_MAX];
};

/* Double shufti (the SIMD prefilter): each anchor pair belongs to a bucket
 * of first bytes x second bytes; a byte's bucket bits come from two 16-entry
 * tables indexed by its low and high nibble. A position is a candidate when
 * first(t[i]) & second(t[i+1]) has a bit set; the exact bitmap then decides.
 * Eight buckets fit one set of tables (one shuffle per table and block).
 * Buckets are chosen so their cross products add few common pairs ("sr" in
 * /usr would be, hence c/C+r/R and s/S+w/W are kept apart): merging the
 * anchors' pairs into eight buckets and the nibbles' look-alikes ("ha",
 * "sv", "wo") add about one false candidate in 100 bytes of the bench's
 * logs, each a bitmap test. */
struct bucket {
    const char *first, *second;
};

static const struct bucket buckets[] = {
    {"oO_-iI", "kK"}, {"cC", "rR"}, {"zZ", "aA"},  {"n", "p"},
    {"-b", "BE_"},    {"k:", "-_./"}, {"gx", "hlo"}, {"sSIyh", "wWAzJf"},
};

#define NBUCKET_SETS 1 /* 8 buckets per set of tables */

struct shufti {
    uint8_t lo1[NBUCKET_SETS][16], hi1[NBUCKET_SETS][16];
    uint8_t lo2[NBUCKET_SETS][16], hi2[NBUCKET_SETS][16];
};

struct sbx_secrets {
    uint64_t bm[65536 / 64]; /* pair -> is an anchor (the exact test) */
    struct shufti sh;
    int simd; /* 0 scalar, 1 SSSE3, 2 AVX2 */
    uint8_t cls[256];        /* byte -> enum cls bits */
    uint8_t slot_of[65536];  /* pair -> index into slots (0: none) */
    struct slot slots[SLOTS];
    unsigned nslots;
    pcre2_code *re[R_COUNT];
};

struct run_memo {
    size_t start, end;
    int valid;
};

struct sbx_secrets_scratch {
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    struct run_memo memo[M_COUNT];
    size_t last_key_end;
    size_t work; /* bytes examined by the last scan (see the header) */
};

/* ---- building ----------------------------------------------------------- */

static unsigned pair_code(unsigned char a, unsigned char b)
{
    return (unsigned)a | (unsigned)b << 8;
}

static int add_anchor(struct sbx_secrets *s, unsigned char a, unsigned char b, uint8_t off, uint8_t group)
{
    unsigned p = pair_code(a, b);
    if (!s->slot_of[p]) {
        if (s->nslots + 1 >= SLOTS)
            return -1;
        s->slot_of[p] = (uint8_t)++s->nslots;
    }
    struct slot *sl = &s->slots[s->slot_of[p]];
    for (unsigned i = 0; i < sl->n; i++)
        if (sl->group[i] == group && sl->off[i] == off)
            return 0;
    if (sl->n == SLOT_MAX)
        return -1;
    sl->off[sl->n] = off;
    sl->group[sl->n] = group;
    sl->n++;
    s->bm[p >> 6] |= (uint64_t)1 << (p & 63);
    return 0;
}

static unsigned char upper(unsigned char c)
{
    return c >= 'a' && c <= 'z' ? (unsigned char)(c - 32) : c;
}

static void build_classes(struct sbx_secrets *s)
{
    for (int c = 0; c < 256; c++) {
        uint8_t m = 0;
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (alnum)
            m |= C_ALNUM | C_ALNUM_ | C_TOKCH | C_ALNUMDASH | C_URLPATH | C_B64 | C_KEY;
        if (c == '_')
            m |= C_ALNUM_ | C_TOKCH | C_URLPATH | C_KEY;
        if (c == '-')
            m |= C_TOKCH | C_ALNUMDASH | C_URLPATH | C_KEY;
        if (c == '/' || c == '+')
            m |= C_URLPATH | C_B64;
        if (c == '=')
            m |= C_B64;
        if (c == '.')
            m |= C_KEY;
        s->cls[c] = m;
    }
}

static int in(const char *set, unsigned char c)
{
    return c && strchr(set, c) != NULL;
}

/* Fills the shufti tables; fails if some anchor pair is in no bucket or a
 * bucket byte is not ASCII. */
static int build_shufti(struct sbx_secrets *s)
{
    for (size_t b = 0; b < sizeof buckets / sizeof *buckets; b++) {
        size_t r = b / 8;
        uint8_t bit = (uint8_t)(1u << (b % 8));
        if (r >= NBUCKET_SETS)
            return -1;
        for (const char *c = buckets[b].first; *c; c++) {
            if ((unsigned char)*c >= 0x80)
                return -1; /* the AVX2 pass relies on ASCII buckets */
            s->sh.lo1[r][(unsigned char)*c & 15] |= bit;
            s->sh.hi1[r][(unsigned char)*c >> 4] |= bit;
        }
        for (const char *c = buckets[b].second; *c; c++) {
            if ((unsigned char)*c >= 0x80)
                return -1;
            s->sh.lo2[r][(unsigned char)*c & 15] |= bit;
            s->sh.hi2[r][(unsigned char)*c >> 4] |= bit;
        }
    }
    for (unsigned p = 0; p < 65536; p++) {
        if (!((s->bm[p >> 6] >> (p & 63)) & 1))
            continue;
        int covered = 0;
        for (size_t b = 0; b < sizeof buckets / sizeof *buckets && !covered; b++)
            covered = in(buckets[b].first, (unsigned char)(p & 255)) && in(buckets[b].second, (unsigned char)(p >> 8));
        if (!covered)
            return -1;
    }
    return 0;
}

struct sbx_secrets *sbx_secrets_new(char *err, size_t errsz)
{
    return sbx_secrets_new_with(0, err, errsz);
}

struct sbx_secrets *sbx_secrets_new_with(unsigned flags, char *err, size_t errsz)
{
    struct sbx_secrets *s = sbx_xcalloc(1, sizeof *s);
    build_classes(s);
    int bad = 0;
    for (size_t i = 0; i < sizeof prefix_anchors / sizeof *prefix_anchors; i++) {
        const struct anchor *a = &prefix_anchors[i];
        bad |= add_anchor(s, (unsigned char)a->a, (unsigned char)a->b, a->off, a->group);
    }
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++) {
        const struct keyword *k = &keywords[i];
        unsigned char a = (unsigned char)k->a, b = (unsigned char)k->b;
        uint8_t g = (uint8_t)(G_KW_FIRST + i);
        bad |= add_anchor(s, a, b, k->off, g);
        bad |= add_anchor(s, upper(a), b, k->off, g);
        bad |= add_anchor(s, a, upper(b), k->off, g);
        bad |= add_anchor(s, upper(a), upper(b), k->off, g);
    }
    if (bad || build_shufti(s)) {
        if (errsz)
            snprintf(err, errsz, "secrets: anchor table overflow or anchor outside the buckets");
        sbx_secrets_free(s);
        return NULL;
    }
    s->simd = 0;
#if SBX_X86_64
    if (!(flags & SBX_SECRETS_PORTABLE)) {
        if (sbx_cpu_avx2())
            s->simd = 2;
        else if (sbx_cpu_ssse3())
            s->simd = 1;
    }
#else
    (void)flags;
#endif
    for (int r = 0; r < R_COUNT; r++) {
        int code;
        PCRE2_SIZE at;
        s->re[r] = pcre2_compile((PCRE2_SPTR)rule_pattern[r], PCRE2_ZERO_TERMINATED,
                                 PCRE2_ANCHORED | PCRE2_NEVER_UTF | PCRE2_NEVER_UCP, &code, &at, NULL);
        if (!s->re[r]) {
            if (errsz) {
                PCRE2_UCHAR msg[160];
                pcre2_get_error_message(code, msg, sizeof msg);
                snprintf(err, errsz, "secrets: pattern %d at %zu: %s", r, (size_t)at, (const char *)msg);
            }
            sbx_secrets_free(s);
            return NULL;
        }
        /* Without the JIT (unsupported CPU, no executable memory) the
         * interpreter runs the same patterns, just slower. */
        (void)pcre2_jit_compile(s->re[r], PCRE2_JIT_COMPLETE);
    }
    return s;
}

void sbx_secrets_free(struct sbx_secrets *s)
{
    if (!s)
        return;
    for (int r = 0; r < R_COUNT; r++)
        pcre2_code_free(s->re[r]);
    free(s);
}

struct sbx_secrets_scratch *sbx_secrets_scratch_new(const struct sbx_secrets *s)
{
    (void)s;
    struct sbx_secrets_scratch *sc = sbx_xcalloc(1, sizeof *sc);
    sc->md = pcre2_match_data_create(4, NULL);
    sc->mctx = pcre2_match_context_create(NULL);
    if (!sc->md || !sc->mctx) {
        fprintf(stderr, "sbxview: out of memory (PCRE2 match data)\n");
        abort();
    }
    /* The patterns are possessive and windows are bounded; these only make
     * sure no pattern can ever run away. */
    pcre2_set_match_limit(sc->mctx, 200000);
    pcre2_set_depth_limit(sc->mctx, 2000);
    return sc;
}

void sbx_secrets_scratch_free(struct sbx_secrets_scratch *sc)
{
    if (!sc)
        return;
    pcre2_match_data_free(sc->md);
    pcre2_match_context_free(sc->mctx);
    free(sc);
}

const char *sbx_secret_kind_name(unsigned kind)
{
    static const char *const names[SBX_SECRET_KIND_COUNT] = {
        [SBX_SECRET_GITHUB_TOKEN] = "github-token",
        [SBX_SECRET_GITLAB_TOKEN] = "gitlab-token",
        [SBX_SECRET_AWS_ACCESS_KEY_ID] = "aws-access-key-id",
        [SBX_SECRET_AWS_SECRET_KEY] = "aws-secret-key",
        [SBX_SECRET_SLACK_TOKEN] = "slack-token",
        [SBX_SECRET_SLACK_WEBHOOK] = "slack-webhook",
        [SBX_SECRET_OPENAI_KEY] = "openai-key",
        [SBX_SECRET_ANTHROPIC_KEY] = "anthropic-key",
        [SBX_SECRET_STRIPE_KEY] = "stripe-key",
        [SBX_SECRET_GOOGLE_API_KEY] = "google-api-key",
        [SBX_SECRET_HUGGINGFACE_TOKEN] = "huggingface-token",
        [SBX_SECRET_NPM_TOKEN] = "npm-token",
        [SBX_SECRET_PRIVATE_KEY] = "private-key",
        [SBX_SECRET_JWT] = "jwt",
        [SBX_SECRET_AUTHORIZATION_HEADER] = "authorization-header",
        [SBX_SECRET_PASSWORD] = "password",
        [SBX_SECRET_TOKEN_ASSIGNMENT] = "token-assignment",
        [SBX_SECRET_URL_PASSWORD] = "url-password",
    };
    return kind < SBX_SECRET_KIND_COUNT ? names[kind] : "unknown";
}

size_t sbx_secret_kind_count(void)
{
    return SBX_SECRET_KIND_COUNT;
}

/* ---- scanning ----------------------------------------------------------- */

struct scan {
    const struct sbx_secrets *s;
    struct sbx_secrets_scratch *sc;
    const unsigned char *t;
    size_t n;
    size_t last_end; /* a hit may not start before this */
};

static void spend(struct scan *k, size_t bytes)
{
    k->sc->work += bytes;
}

static int is_alnum(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static int has(const struct scan *k, size_t at, const char *lit, size_t m)
{
    return at <= k->n && k->n - at >= m && memcmp(k->t + at, lit, m) == 0;
}

static int has_ci(const struct scan *k, size_t at, const char *word, size_t m)
{
    if (at > k->n || k->n - at < m)
        return 0;
    for (size_t j = 0; j < m; j++)
        if (lower(k->t[at + j]) != (unsigned char)word[j])
            return 0;
    return 1;
}

/* May a token start at s? Not in the middle of a word, but right after a
 * JSON escape such as \n or \u0022 is fine. */
static int left_ok(const struct scan *k, size_t s)
{
    if (s == 0 || !is_alnum(k->t[s - 1]))
        return 1;
    const unsigned char *t = k->t;
    unsigned char c = t[s - 1];
    if (s >= 2 && t[s - 2] == '\\' && (c == 'n' || c == 'r' || c == 't' || c == 'b' || c == 'f'))
        return 1;
    return s >= 6 && t[s - 6] == '\\' && t[s - 5] == 'u' && is_hex(t[s - 4]) && is_hex(t[s - 3]) &&
           is_hex(t[s - 2]) && is_hex(c);
}

/* The recorder's clip marker, or the end of the text, at p. */
static int at_cut(const struct scan *k, size_t p)
{
    return p >= k->n || has(k, p, "\n[...]\n", 7) || has(k, p, "\\n[...]\\n", 9);
}

/* End of the run of class characters starting at pos. Memoised, so the
 * many candidates inside one long run cost one pass in total. */
static size_t run_end(struct scan *k, enum memo mi, size_t pos)
{
    struct run_memo *m = &k->sc->memo[mi];
    if (m->valid && pos >= m->start && pos <= m->end)
        return m->end;
    const uint8_t bit = memo_class[mi];
    size_t p = pos;
    while (p < k->n && (k->s->cls[k->t[p]] & bit)) {
        if (m->valid && p == m->start) {
            p = m->end;
            break;
        }
        p++;
    }
    spend(k, p - pos);
    m->start = pos;
    m->end = p;
    m->valid = 1;
    return p;
}

/* Runs rule r anchored at `at` over at most `window` bytes. Returns the
 * match length (0: no match); *g1s and *g1e get group 1 (SIZE_MAX if unset). */
static size_t re_match(struct scan *k, enum rule r, size_t at, size_t window, size_t *g1s, size_t *g1e)
{
    if (at > k->n)
        return 0;
    size_t len = k->n - at < window ? k->n - at : window;
    spend(k, len); /* an upper bound: the patterns are anchored and possessive */
    int rc = pcre2_match(k->s->re[r], (PCRE2_SPTR)(k->t + at), len, 0, 0, k->sc->md, k->sc->mctx);
    if (rc < 0)
        return 0;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(k->sc->md);
    if (g1s) {
        if (rc >= 2 && ov[2] != PCRE2_UNSET) {
            *g1s = at + ov[2];
            *g1e = at + ov[3];
        } else {
            *g1s = *g1e = SIZE_MAX;
        }
    }
    return ov[1];
}

static int random_enough(struct scan *k, size_t from, size_t to)
{
    size_t len = to - from;
    spend(k, len);
    double floor = sbx_secret_entropy_floor(len) - 0.4;
    if (floor > 3.0)
        floor = 3.0;
    return sbx_secret_entropy((const char *)k->t + from, len) >= floor;
}

static int emit(struct scan *k, struct sbx_secret_hit *h, unsigned kind, size_t from, size_t to, unsigned flags)
{
    if (from < k->last_end || to <= from)
        return 0;
    h->kind = kind;
    h->off = from;
    h->len = to - from;
    h->flags = flags;
    return 1;
}

struct prefix_spec {
    unsigned kind;
    enum rule rule;
    enum memo memo;
    unsigned min, max;
    int cut_ok;
};

/* A token of prefix length plen at s: body run within [min, max] and the
 * pattern confirms; or a body cut by the clip or the end of the text. */
static int try_prefix(struct scan *k, size_t s, size_t plen, const struct prefix_spec *ps, struct sbx_secret_hit *h)
{
    size_t b = s + plen;
    if (b > k->n || !left_ok(k, s))
        return 0;
    size_t e = run_end(k, ps->memo, b);
    size_t r = e - b;
    if (r >= ps->min && r <= ps->max) {
        size_t m = re_match(k, ps->rule, s, plen + ps->max + 300, NULL, NULL);
        if (m && random_enough(k, b, s + m))
            return emit(k, h, ps->kind, s, s + m, 0);
        return 0;
    }
    if (ps->cut_ok && r >= 8 && r < ps->min && at_cut(k, e) && random_enough(k, b, e))
        return emit(k, h, ps->kind, s, e, SBX_SECRET_HIT_CUT);
    return 0;
}

static const struct prefix_spec
    SP_GITHUB = {SBX_SECRET_GITHUB_TOKEN, R_GITHUB, M_ALNUM, 36, 251, 1},
    SP_GITHUB_PAT = {SBX_SECRET_GITHUB_TOKEN, R_GITHUB_PAT, M_ALNUM_, 82, 244, 1},
    SP_GITLAB = {SBX_SECRET_GITLAB_TOKEN, R_GITLAB, M_TOKCH, 20, 255, 1},
    SP_AWS_ID = {SBX_SECRET_AWS_ACCESS_KEY_ID, R_AWS_ID, M_ALNUM, 16, 16, 1},
    SP_SLACK = {SBX_SECRET_SLACK_TOKEN, R_SLACK_TOKEN, M_ALNUMDASH, 10, 255, 1},
    SP_OPENAI_PROJ = {SBX_SECRET_OPENAI_KEY, R_OPENAI, M_TOKCH, 20, 400, 1},
    SP_OPENAI = {SBX_SECRET_OPENAI_KEY, R_OPENAI, M_TOKCH, 28, 400, 0},
    SP_ANTHROPIC = {SBX_SECRET_ANTHROPIC_KEY, R_ANTHROPIC, M_TOKCH, 20, 400, 1},
    SP_STRIPE = {SBX_SECRET_STRIPE_KEY, R_STRIPE, M_ALNUM, 20, 247, 1},
    SP_GOOGLE = {SBX_SECRET_GOOGLE_API_KEY, R_GOOGLE, M_TOKCH, 35, 35, 1},
    SP_HF = {SBX_SECRET_HUGGINGFACE_TOKEN, R_HF, M_ALNUM, 30, 255, 1},
    SP_NPM = {SBX_SECRET_NPM_TOKEN, R_NPM, M_ALNUM, 36, 36, 1};

static int try_sk(struct scan *k, size_t s, struct sbx_secret_hit *h)
{
    if (has(k, s, "sk_live_", 8) || has(k, s, "rk_live_", 8))
        return try_prefix(k, s, 8, &SP_STRIPE, h);
    if (!has(k, s, "sk-", 3))
        return 0;
    if (has(k, s, "sk-ant-", 7))
        return try_prefix(k, s, 7, &SP_ANTHROPIC, h);
    if (has(k, s, "sk-proj-", 8))
        return try_prefix(k, s, 8, &SP_OPENAI_PROJ, h);
    if (has(k, s, "sk-admin-", 9))
        return try_prefix(k, s, 9, &SP_OPENAI_PROJ, h);
    if (has(k, s, "sk-svcacct-", 11))
        return try_prefix(k, s, 11, &SP_OPENAI_PROJ, h);
    return try_prefix(k, s, 3, &SP_OPENAI, h);
}

static int try_hook(struct scan *k, size_t s, struct sbx_secret_hit *h)
{
    if (!has(k, s, "hooks.slack.com/", 16))
        return 0;
    size_t e = run_end(k, M_URLPATH, s + 16);
    if (e - (s + 16) < 29)
        return 0;
    if (s >= 8 && has(k, s - 8, "https://", 8))
        s -= 8;
    else if (s >= 7 && has(k, s - 7, "http://", 7))
        s -= 7;
    size_t m = re_match(k, R_SLACK_HOOK, s, 400, NULL, NULL);
    if (!m || !random_enough(k, s, s + m))
        return 0;
    return emit(k, h, SBX_SECRET_SLACK_WEBHOOK, s, s + m, 0);
}

static int try_jwt(struct scan *k, size_t s, struct sbx_secret_hit *h)
{
    if (!has(k, s, "eyJ", 3) || !left_ok(k, s))
        return 0;
    const unsigned char *t = k->t;
    size_t e1 = run_end(k, M_TOKCH, s), end = 0;
    unsigned flags = 0;
    if (e1 - s >= 10 && e1 < k->n && t[e1] == '.' && has(k, e1 + 1, "eyJ", 3)) {
        size_t e2 = run_end(k, M_TOKCH2, e1 + 1);
        if (e2 - (e1 + 1) >= 10 && e2 < k->n && t[e2] == '.') {
            size_t e3 = run_end(k, M_TOKCH3, e2 + 1);
            end = s + re_match(k, R_JWT, s, e3 - s + 1, NULL, NULL);
            if (end == s)
                return 0;
        } else if (at_cut(k, e2)) {
            end = e2;
            flags = SBX_SECRET_HIT_CUT;
        }
    } else if (e1 - s >= 11 && at_cut(k, e1)) {
        end = e1;
        flags = SBX_SECRET_HIT_CUT;
    }
    /* No entropy test: the eyJ….eyJ… structure is decisive, and a test
     * that could fail after reading a long token would make dense "eyJ"
     * candidates quadratic. */
    if (!end)
        return 0;
    return emit(k, h, SBX_SECRET_JWT, s, end, flags);
}

/* A line break in a PEM body: a newline, CR, or a JSON escape of one (any
 * number of backslashes then n, r or t). Returns its length or 0. */
static size_t pem_break(const struct scan *k, size_t p)
{
    const unsigned char *t = k->t;
    if (p >= k->n)
        return 0;
    if (t[p] == '\n' || t[p] == '\r')
        return 1;
    size_t q = p;
    while (q < k->n && q - p < 4 && t[q] == '\\')
        q++;
    if (q > p && q < k->n && (t[q] == 'n' || t[q] == 'r' || t[q] == 't'))
        return q + 1 - p;
    return 0;
}

static int try_pem_begin(struct scan *k, size_t s, struct sbx_secret_hit *h)
{
    if (!has(k, s, "-----BEGIN ", 11))
        return 0;
    size_t hl = re_match(k, R_PEM_BEGIN, s, 120, NULL, NULL);
    if (!hl)
        return 0;
    const unsigned char *t = k->t;
    size_t p = s + hl, limit = k->n - p > 65536 ? p + 65536 : k->n;
    /* the body starts on a new line (spaces allowed before the break) */
    while (p < limit && (t[p] == ' ' || t[p] == '\t'))
        p++;
    size_t br = pem_break(k, p);
    if (!br)
        return 0;
    p += br;
    size_t nb64 = 0, last = p;
    int colon = 0; /* the current line is a header ("Proc-Type: 4,ENCRYPTED") */
    while (p < limit) {
        unsigned char c = t[p];
        if (k->s->cls[c] & C_B64) {
            nb64++;
            last = ++p;
        } else if ((br = pem_break(k, p))) {
            p += br;
            colon = 0;
        } else if (c == ':') {
            colon = 1;
            p++;
        } else if ((c == ' ' && colon) || c == ',' || (c == '-' && !has(k, p, "-----", 5))) {
            p++;
        } else {
            break;
        }
    }
    spend(k, p - (s + hl));
    if (nb64 < 16)
        return 0;
    if (p < k->n && t[p] == '-') {
        size_t el = re_match(k, R_PEM_END, p, 120, NULL, NULL);
        if (el)
            return emit(k, h, SBX_SECRET_PRIVATE_KEY, s, p + el, 0);
    }
    return emit(k, h, SBX_SECRET_PRIVATE_KEY, s, last, SBX_SECRET_HIT_CUT);
}

/* An END line whose BEGIN is gone (clipped): the base64 lines before it. */
static int try_pem_end(struct scan *k, size_t s, struct sbx_secret_hit *h)
{
    if (!has(k, s, "-----END ", 9))
        return 0;
    size_t el = re_match(k, R_PEM_END, s, 120, NULL, NULL);
    if (!el)
        return 0;
    const unsigned char *t = k->t;
    size_t lo = s > 65536 ? s - 65536 : 0;
    if (lo < k->last_end)
        lo = k->last_end;
    size_t q = s, first = s, nb64 = 0;
    while (q > lo) {
        unsigned char c = t[q - 1];
        if ((c == 'n' || c == 'r' || c == 't') && q - 1 > lo && t[q - 2] == '\\') {
            q -= 2;
            while (q > lo && t[q - 1] == '\\')
                q--;
        } else if (k->s->cls[c] & C_B64) {
            nb64++;
            first = --q;
        } else if (c == '\n' || c == '\r') {
            q--;
        } else {
            break;
        }
    }
    spend(k, s - q);
    if (nb64 < 16)
        return 0;
    return emit(k, h, SBX_SECRET_PRIVATE_KEY, first, s + el, SBX_SECRET_HIT_CUT);
}

static int run_group(struct scan *k, unsigned group, size_t i, struct sbx_secret_hit *h);

/* A context value that is itself a prefix-kind token: report that kind. */
static int prefix_at(struct scan *k, size_t vs, struct sbx_secret_hit *h)
{
    for (size_t a = 0; a < sizeof prefix_anchors / sizeof *prefix_anchors; a++) {
        const struct anchor *an = &prefix_anchors[a];
        if (an->group == G_URL)
            continue;
        size_t i = vs + an->off;
        if (an->group == G_HOOK && has(k, vs, "https://", 8))
            i += 8;
        if (i + 1 < k->n && k->t[i] == (unsigned char)an->a && k->t[i + 1] == (unsigned char)an->b &&
            run_group(k, an->group, i, h) && h->off == vs)
            return 1;
    }
    return 0;
}

/* Judging a context value (see secrets.h): placeholders, code references,
 * minimum length and the entropy floor. */
static int code_reference(struct scan *k, size_t vs, size_t ve)
{
    const unsigned char *t = k->t;
    if (ve < k->n && t[ve] == '(')
        return 1; /* a call: token=get_token() */
    int letters_only = 1, dots = 0, unders = 0;
    for (size_t p = vs; p < ve; p++) {
        unsigned char c = t[p];
        if (c == '.') {
            if (p == vs || p + 1 == ve || t[p - 1] == '.')
                return 0;
            dots++;
        } else if (c == '_') {
            unders++;
        } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            letters_only = 0;
        }
    }
    if (!letters_only)
        return 0;
    if (dots)
        return 1; /* self.password, os.environ, settings.SECRET_KEY */
    if (!unders)
        return 0;
    /* a variable named for a secret: api_key=OPENAI_API_KEY */
    static const char *const ends[] = {"token", "secret", "password", "passwd", "key"};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        size_t m = strlen(ends[i]);
        if (ve - vs >= m && has_ci(k, ve - m, ends[i], m))
            return 1;
    }
    return 0;
}

/* A password key is strong context: there the floor is lower (a passphrase
 * such as "correct horse battery" has ~3.3 bits per char). */
static int value_ok(struct scan *k, size_t vs, size_t ve, size_t min_len, int check_code, int password)
{
    size_t len = ve - vs;
    spend(k, 3 * len); /* placeholder, code reference and entropy passes */
    const char *v = (const char *)k->t + vs;
    if (len < min_len || sbx_secret_is_placeholder(v, len))
        return 0;
    if (check_code && code_reference(k, vs, ve))
        return 0;
    double floor = sbx_secret_entropy_floor(len);
    if (password && (floor -= 0.3) > 3.0)
        floor = 3.0;
    return sbx_secret_entropy(v, len) >= floor;
}

enum mode { MODE_NONE, MODE_AUTH, MODE_AWS, MODE_PASSWORD, MODE_TOKEN };

static int ends_with(const char *s, size_t n, const char *suffix)
{
    size_t m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static int contains(const char *s, size_t n, const char *part)
{
    size_t m = strlen(part);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(s + i, part, m) == 0)
            return 1;
    return 0;
}

static enum mode classify_key(const char *norm, size_t n)
{
    if (ends_with(norm, n, "authorization"))
        return MODE_AUTH;
    if ((contains(norm, n, "aws") && contains(norm, n, "secret")) || ends_with(norm, n, "secretaccesskey"))
        return MODE_AWS;
    if ((n == 8 && !memcmp(norm, "password", 8)) || (n == 6 && !memcmp(norm, "passwd", 6)))
        return MODE_PASSWORD;
    static const char *const ends[] = {"token", "secret", "password", "passwd", "apikey", "secretkey"};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
        if (ends_with(norm, n, ends[i]))
            return MODE_TOKEN;
    return MODE_NONE;
}

#define KEY_MAX 64

/* Whether R_ASSIGN can match at p: its start, KEYQ, blanks and the
 * separator's first byte, tested without PCRE2 ("test_refresh_token(" is
 * common in test output and never an assignment). A run of backslashes the
 * optional quote group cannot end in a quote leaves that group empty. */
static int may_assign(const struct scan *k, size_t p)
{
    const unsigned char *t = k->t;
    size_t q = p;
    while (q < k->n && q - p < 3 && t[q] == '\\')
        q++;
    if (q < k->n && (t[q] == '"' || t[q] == '\'' || t[q] == '`'))
        p = q + 1;
    for (size_t b = 0; b < 8 && p < k->n && (t[p] == ' ' || t[p] == '\t'); b++)
        p++;
    return p < k->n && (t[p] == ':' || t[p] == '=');
}

static int try_keyword(struct scan *k, const struct keyword *kw, size_t i, struct sbx_secret_hit *h)
{
    if (i < kw->off)
        return 0;
    size_t ks = i - kw->off, wl = strlen(kw->word);
    if (!has_ci(k, ks, kw->word, wl))
        return 0;
    const unsigned char *t = k->t;
    /* The key's end first (memoised, so "tokentoken…" stays linear), and
     * each key is judged once, from the first anchor found in it. */
    size_t ke = run_end(k, M_KEY, ks + wl);
    if (ke - (ks + wl) > KEY_MAX || ke == k->sc->last_key_end)
        return 0;
    k->sc->last_key_end = ke;
    size_t kb = ks;
    while (kb > 0 && ks - kb < KEY_MAX && (k->s->cls[t[kb - 1]] & C_KEY))
        kb--;
    /* "\ntoken: …" in JSON-escaped text: the n belongs to the escape */
    if (kb < ks && kb > 0 && t[kb - 1] == '\\')
        kb++;
    spend(k, ks - kb);

    char norm[2 * KEY_MAX + 16];
    size_t nn = 0;
    for (size_t p = kb; p < ke; p++)
        if (t[p] != '_' && t[p] != '-' && t[p] != '.')
            norm[nn++] = (char)lower(t[p]);
    enum mode mode = classify_key(norm, nn);
    if (mode == MODE_NONE)
        return 0;

    size_t vs = SIZE_MAX, ve = SIZE_MAX;
    if (mode == MODE_AUTH) {
        re_match(k, R_AUTH, ke, 1200, &vs, &ve);
    } else {
        if (may_assign(k, ke))
            re_match(k, R_ASSIGN, ke, 600, &vs, &ve);
        if (vs == SIZE_MAX && t[kb] == '-')
            re_match(k, R_OPTION, ke, 600, &vs, &ve);
        if (vs == SIZE_MAX && mode == MODE_AWS)
            re_match(k, R_AWS_SPACE, ke, 100, &vs, &ve);
    }
    if (vs == SIZE_MAX || vs < k->last_end)
        return 0;
    if (prefix_at(k, vs, h))
        return 1;
    if (mode == MODE_AWS) {
        int b64 = ve - vs == 40;
        for (size_t p = vs; b64 && p < ve; p++)
            b64 = is_alnum(t[p]) || t[p] == '/' || t[p] == '+';
        if (b64 && value_ok(k, vs, ve, 40, 0, 0))
            return emit(k, h, SBX_SECRET_AWS_SECRET_KEY, vs, ve, 0);
        mode = MODE_TOKEN;
    }
    int quoted = t[vs - 1] == '"' || t[vs - 1] == '\'';
    if (mode == MODE_AUTH)
        return value_ok(k, vs, ve, 8, 0, 0) && emit(k, h, SBX_SECRET_AUTHORIZATION_HEADER, vs, ve, 0);
    if (mode == MODE_PASSWORD)
        return value_ok(k, vs, ve, 6, !quoted, 1) && emit(k, h, SBX_SECRET_PASSWORD, vs, ve, 0);
    return value_ok(k, vs, ve, 8, !quoted, 0) && emit(k, h, SBX_SECRET_TOKEN_ASSIGNMENT, vs, ve, 0);
}

static int try_url(struct scan *k, size_t i, struct sbx_secret_hit *h)
{
    if (!has(k, i, "://", 3))
        return 0;
    /* most URLs have no userinfo: look for the "@" before running PCRE2 */
    const unsigned char *t = k->t;
    size_t p = i + 3, lim = k->n - p > 400 ? p + 400 : k->n;
    while (p < lim && t[p] > 0x20 && t[p] < 0x7f && !memchr("/@\"'\\<>", t[p], 7))
        p++;
    spend(k, p - i);
    if (p == lim || t[p] != '@')
        return 0;
    size_t vs, ve;
    if (!re_match(k, R_URL, i + 3, 400, &vs, &ve) || vs == SIZE_MAX || vs < k->last_end)
        return 0;
    if (prefix_at(k, vs, h))
        return 1;
    return value_ok(k, vs, ve, 6, 0, 1) && emit(k, h, SBX_SECRET_URL_PASSWORD, vs, ve, 0);
}

/* The candidate of `group` whose anchor pair is at i. */
static int run_group(struct scan *k, unsigned group, size_t i, struct sbx_secret_hit *h)
{
    const unsigned char *t = k->t;
    /* a prefix-kind start before the last hit's end can never be reported:
     * do no work for it */
    static const uint8_t start_off[G_KW_FIRST] = {[G_GHPAT] = 5, [G_AWSID] = 2, [G_HOOK] = 10, [G_SK] = 1,
                                                  [G_AIZA] = 1, [G_JWT] = 1, [G_PEM_B] = 4};
    if (group < G_KW_FIRST && (i < start_off[group] || i - start_off[group] < k->last_end))
        return 0;
    switch (group) {
    case G_GH:
        if (i + 4 <= k->n && memchr("pousr", t[i + 2], 5) && t[i + 3] == '_')
            return try_prefix(k, i, 4, &SP_GITHUB, h);
        return 0;
    case G_GHPAT:
        return i >= 5 && has(k, i - 5, "github_pat_", 11) && try_prefix(k, i - 5, 11, &SP_GITHUB_PAT, h);
    case G_GL:
        return has(k, i, "glpat-", 6) && try_prefix(k, i, 6, &SP_GITLAB, h);
    case G_AWSID:
        return i >= 2 && (has(k, i - 2, "AKIA", 4) || has(k, i - 2, "ASIA", 4)) &&
               try_prefix(k, i - 2, 4, &SP_AWS_ID, h);
    case G_XOX:
        return i + 5 <= k->n && has(k, i, "xox", 3) && memchr("abposr", t[i + 3], 6) && t[i + 4] == '-' &&
               try_prefix(k, i, 5, &SP_SLACK, h);
    case G_HOOK:
        return i >= 10 && try_hook(k, i - 10, h);
    case G_SK:
        return i >= 1 && try_sk(k, i - 1, h);
    case G_AIZA:
        return i >= 1 && has(k, i - 1, "AIza", 4) && try_prefix(k, i - 1, 4, &SP_GOOGLE, h);
    case G_HF:
        return has(k, i, "hf_", 3) && try_prefix(k, i, 3, &SP_HF, h);
    case G_NPM:
        return has(k, i, "npm_", 4) && try_prefix(k, i, 4, &SP_NPM, h);
    case G_JWT:
        return i >= 1 && try_jwt(k, i - 1, h);
    case G_PEM_B:
        return i >= 4 && try_pem_begin(k, i - 4, h);
    case G_PEM_E:
        return i >= 4 && try_pem_end(k, i - 4, h);
    case G_URL:
        return try_url(k, i, h);
    default:
        if (group >= G_KW_FIRST && group - G_KW_FIRST < sizeof keywords / sizeof *keywords)
            return try_keyword(k, &keywords[group - G_KW_FIRST], i, h);
        return 0;
    }
}

static int anchor_at(const struct sbx_secrets *s, const unsigned char *t, size_t i)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint16_t p; /* pair_code: the first byte low, in one load */
    memcpy(&p, t + i, 2);
#else
    unsigned p = pair_code(t[i], t[i + 1]);
#endif
    return (s->bm[p >> 6] >> (p & 63)) & 1;
}

/* The first test run_group() itself makes for group at i, inline: most
 * anchor pairs in ordinary output fail it ("ok" in "look", "np" in
 * "input"), and so need no call. Never false where run_group could hit. */
static inline int may_hit(const struct scan *k, unsigned group, size_t i)
{
    const unsigned char *t = k->t;
    if (group == G_NPM)
        return i + 4 <= k->n && t[i + 2] == 'm' && t[i + 3] == '_';
    if (group >= G_KW_FIRST && group - G_KW_FIRST < sizeof keywords / sizeof *keywords) {
        const struct keyword *kw = &keywords[group - G_KW_FIRST];
        return i >= kw->off && lower(t[i - kw->off]) == (unsigned char)kw->word[0];
    }
    return 1;
}

/* Whether some candidate whose anchor pair is at i passes may_hit: tested
 * inline before candidate() is called, since most anchor pairs in ordinary
 * output ("ok" in "look", "np" in "input") fail it. */
static inline int slot_may_hit(const struct scan *k, size_t i)
{
    const struct sbx_secrets *s = k->s;
    const struct slot *sl = &s->slots[s->slot_of[pair_code(k->t[i], k->t[i + 1])]];
    for (unsigned e = 0; e < sl->n; e++)
        if (may_hit(k, sl->group[e], i))
            return 1;
    return 0;
}

/* Tries the candidates whose anchor pair is at i; on a hit, reports it and
 * returns where scanning resumes (the hit's end), else i + 1. */
static size_t candidate(struct scan *k, size_t i, void (*cb)(const struct sbx_secret_hit *, void *), void *ctx,
                        size_t *count)
{
    const struct sbx_secrets *s = k->s;
    const struct slot *sl = &s->slots[s->slot_of[pair_code(k->t[i], k->t[i + 1])]];
    struct sbx_secret_hit h;
    spend(k, 1);
    for (unsigned e = 0; e < sl->n; e++) {
        if (may_hit(k, sl->group[e], i) && run_group(k, sl->group[e], i, &h)) {
            ++*count;
            if (cb)
                cb(&h, ctx);
            k->last_end = h.off + h.len;
            return k->last_end > i ? k->last_end : i + 1;
        }
    }
    return i + 1;
}

/* The anchor test, the inline first test, then the candidate: where
 * scanning resumes after position i. */
static inline size_t try_at(struct scan *k, size_t i, void (*cb)(const struct sbx_secret_hit *, void *), void *ctx,
                            size_t *count)
{
    if (!anchor_at(k->s, k->t, i) || !slot_may_hit(k, i))
        return i + 1;
    return candidate(k, i, cb, ctx, count);
}

typedef void (*hit_fn)(const struct sbx_secret_hit *, void *);

/* Each scanner handles whole blocks from i and returns where the plain C
 * loop must take over (fewer than a block plus one byte left). Candidate
 * bits come from the shufti buckets, which over-approximate: each bit is
 * checked against the exact bitmap before anything else runs. */
#if SBX_X86_64
/* One pass of table lookups per byte: the low and high nibbles of each byte
 * give both its first-byte bucket bits (x) and its second-byte ones (y);
 * the pair starting at a byte is x of that byte and y of the next, so x is
 * shifted one byte on (carrying the last byte of the previous vector) and
 * not the text reloaded one byte on. A block of 64 bytes at i thus tests
 * the pairs starting at i - 1 .. i + 62; the pair at i - 1 only when the
 * block before was read whole (after a hit, scanning resumes with no carry,
 * as the scalar loop does). */
__attribute__((target("avx2"))) static size_t scan_avx2(struct scan *k, size_t i, hit_fn cb, void *ctx,
                                                        size_t *count)
{
    _Static_assert(NBUCKET_SETS == 1, "the AVX2 pass reads one set of tables");
    const struct shufti *sh = &k->s->sh;
    const unsigned char *t = k->t;
    const size_t n = k->n;
    const __m256i l1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)sh->lo1[0]));
    const __m256i h1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)sh->hi1[0]));
    const __m256i l2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)sh->lo2[0]));
    const __m256i h2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)sh->hi2[0]));
    const __m256i low = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
    /* m: the pairs starting one byte before each byte of the 32 at src;
       carry: x of the vector before. The low nibble needs no mask: pshufb
       reads the low four bits, and gives 0 for a byte of 0x80 or more,
       which is in no bucket (build_shufti checks). */
#define PAIRS32(src, carry, m)                                                                          \
    do {                                                                                                \
        __m256i v_ = _mm256_loadu_si256((const __m256i *)(src));                                        \
        __m256i hi_ = _mm256_and_si256(_mm256_srli_epi16(v_, 4), low);                                 \
        __m256i x_ = _mm256_and_si256(_mm256_shuffle_epi8(l1, v_), _mm256_shuffle_epi8(h1, hi_));      \
        __m256i y_ = _mm256_and_si256(_mm256_shuffle_epi8(l2, v_), _mm256_shuffle_epi8(h2, hi_));      \
        __m256i xs_ = _mm256_alignr_epi8(x_, _mm256_permute2x128_si256(carry, x_, 0x21), 15);          \
        carry = x_;                                                                                     \
        m = _mm256_and_si256(xs_, y_);                                                                  \
    } while (0)
#define BITS32(m) (uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, zero))
    /* the last block comes from a zero-padded copy, so that short texts (one
       call per command, stdout and stderr) need no byte-at-a-time tail */
    unsigned char tail[64];
    __m256i carry = zero, m0, m1;
    while (i < n) {
        uint64_t bits;
        if (n - i >= 64) {
            /* whole blocks without a candidate pair, in a tight loop */
            int found = 0;
            for (;;) {
                PAIRS32(t + i, carry, m0);
                PAIRS32(t + i + 32, carry, m1);
                __m256i any = _mm256_or_si256(m0, m1);
                if (!_mm256_testz_si256(any, any)) {
                    found = 1;
                    break;
                }
                i += 64;
                if (n - i < 64)
                    break;
            }
            if (!found)
                continue;
            bits = BITS32(m0) | BITS32(m1) << 32;
        } else {
            memset(tail, 0, sizeof tail);
            memcpy(tail, t + i, n - i);
            PAIRS32(tail, carry, m0);
            PAIRS32(tail + 32, carry, m1);
            bits = (BITS32(m0) | BITS32(m1) << 32) & ((1ull << (n - i)) - 1); /* pairs that end inside */
        }
        size_t next = i + 64;
        while (bits) {
            size_t j = i - 1 + (size_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (!anchor_at(k->s, t, j) || !slot_may_hit(k, j))
                continue;
            size_t resume = candidate(k, j, cb, ctx, count);
            if (resume > j + 1) {
                next = resume; /* after a hit: the next block starts there */
                carry = zero;
                break;
            }
        }
        i = next;
    }
#undef PAIRS32
#undef BITS32
    return i;
}

__attribute__((target("ssse3"))) static size_t scan_ssse3(struct scan *k, size_t i, hit_fn cb, void *ctx,
                                                          size_t *count)
{
    const struct shufti *sh = &k->s->sh;
    const unsigned char *t = k->t;
    const size_t n = k->n;
    __m128i l1[NBUCKET_SETS], h1[NBUCKET_SETS], l2[NBUCKET_SETS], h2[NBUCKET_SETS];
    for (int r = 0; r < NBUCKET_SETS; r++) {
        l1[r] = _mm_loadu_si128((const __m128i *)sh->lo1[r]);
        h1[r] = _mm_loadu_si128((const __m128i *)sh->hi1[r]);
        l2[r] = _mm_loadu_si128((const __m128i *)sh->lo2[r]);
        h2[r] = _mm_loadu_si128((const __m128i *)sh->hi2[r]);
    }
    const __m128i low = _mm_set1_epi8(0x0f), zero = _mm_setzero_si128();
    while (i + 17 <= n) {
        __m128i a = _mm_loadu_si128((const __m128i *)(t + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(t + i + 1));
        __m128i alo = _mm_and_si128(a, low), ahi = _mm_and_si128(_mm_srli_epi16(a, 4), low);
        __m128i blo = _mm_and_si128(b, low), bhi = _mm_and_si128(_mm_srli_epi16(b, 4), low);
        __m128i m = zero;
        for (int r = 0; r < NBUCKET_SETS; r++) {
            __m128i x = _mm_and_si128(_mm_shuffle_epi8(l1[r], alo), _mm_shuffle_epi8(h1[r], ahi));
            __m128i y = _mm_and_si128(_mm_shuffle_epi8(l2[r], blo), _mm_shuffle_epi8(h2[r], bhi));
            m = _mm_or_si128(m, _mm_and_si128(x, y));
        }
        uint32_t bits = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(m, zero)) & 0xffffu;
        size_t next = i + 16;
        while (bits) {
            size_t j = i + (size_t)__builtin_ctz(bits);
            bits &= bits - 1;
            if (!anchor_at(k->s, t, j) || !slot_may_hit(k, j))
                continue;
            size_t resume = candidate(k, j, cb, ctx, count);
            if (resume > j + 1) {
                next = resume;
                break;
            }
        }
        i = next;
    }
    return i;
}
#endif

size_t sbx_secrets_scan(const struct sbx_secrets *s, struct sbx_secrets_scratch *sc, const char *text, size_t n,
                        void (*cb)(const struct sbx_secret_hit *hit, void *ctx), void *ctx)
{
    struct scan k = {s, sc, (const unsigned char *)text, n, 0};
    for (int m = 0; m < M_COUNT; m++)
        sc->memo[m].valid = 0;
    sc->last_key_end = SIZE_MAX;
    sc->work = n; /* the prefilter's pass */
    size_t count = 0, i = 0;
#if SBX_X86_64
    if (s->simd && sbx_simd_on()) /* the scalar twin below when off */
        i = s->simd == 2 ? scan_avx2(&k, i, cb, ctx, &count) : scan_ssse3(&k, i, cb, ctx, &count);
#endif
    while (i + 1 < n)
        i = try_at(&k, i, cb, ctx, &count);
    return count;
}

size_t sbx_secrets_scratch_work(const struct sbx_secrets_scratch *sc)
{
    return sc->work;
}
