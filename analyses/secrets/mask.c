/* Masks for display and redaction for exports (rules in secrets.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "analyses/secrets/secrets.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ELLIPSIS "\xe2\x80\xa6" /* U+2026 */
#define TAIL_MIN 12             /* chars after the prefix before a tail is shown */

static int starts(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    return n >= m && memcmp(s, lit, m) == 0;
}

static const char *find(const char *s, size_t n, const char *lit)
{
    return memmem(s, n, lit, strlen(lit));
}

/* The recognisable prefix of a secret of this kind, if its bytes have it. */
static size_t prefix_len(unsigned kind, const char *s, size_t n)
{
    switch (kind) {
    case SBX_SECRET_GITHUB_TOKEN:
        if (starts(s, n, "github_pat_"))
            return 11;
        return n >= 4 && starts(s, n, "gh") && s[3] == '_' ? 4 : 0;
    case SBX_SECRET_GITLAB_TOKEN:
        return starts(s, n, "glpat-") ? 6 : 0;
    case SBX_SECRET_AWS_ACCESS_KEY_ID:
        return starts(s, n, "AKIA") || starts(s, n, "ASIA") ? 4 : 0;
    case SBX_SECRET_SLACK_TOKEN:
        return n >= 5 && starts(s, n, "xox") && s[4] == '-' ? 5 : 0;
    case SBX_SECRET_SLACK_WEBHOOK: {
        const char *h = find(s, n < 24 ? n : 24, "hooks.slack.com/");
        if (!h)
            return 0;
        const char *slash = memchr(h + 16, '/', n - (size_t)(h + 16 - s));
        return slash ? (size_t)(slash + 1 - s) : 0;
    }
    case SBX_SECRET_OPENAI_KEY:
        if (starts(s, n, "sk-proj-"))
            return 8;
        if (starts(s, n, "sk-admin-"))
            return 9;
        if (starts(s, n, "sk-svcacct-"))
            return 11;
        return starts(s, n, "sk-") ? 3 : 0;
    case SBX_SECRET_ANTHROPIC_KEY:
        return starts(s, n, "sk-ant-") ? 7 : 0;
    case SBX_SECRET_STRIPE_KEY:
        return starts(s, n, "sk_live_") || starts(s, n, "rk_live_") ? 8 : 0;
    case SBX_SECRET_GOOGLE_API_KEY:
        return starts(s, n, "AIza") ? 4 : 0;
    case SBX_SECRET_HUGGINGFACE_TOKEN:
        return starts(s, n, "hf_") ? 3 : 0;
    case SBX_SECRET_NPM_TOKEN:
        return starts(s, n, "npm_") ? 4 : 0;
    case SBX_SECRET_JWT:
        return starts(s, n, "eyJ") ? 3 : 0;
    default:
        return 0;
    }
}

struct out {
    char *p;
    size_t cap, len;
};

/* Appends s[0..m) if it fits whole (with room for the NUL), else as much as
 * fits when `whole` is 0. */
static void put(struct out *o, const char *s, size_t m, int whole)
{
    if (o->cap == 0)
        return;
    size_t room = o->cap - 1 - o->len;
    if (m > room) {
        if (whole)
            return;
        m = room;
    }
    memcpy(o->p + o->len, s, m);
    o->len += m;
    o->p[o->len] = '\0';
}

static int printable(char c)
{
    return c > 0x20 && c < 0x7f;
}

static void mask_pem(const char *s, size_t n, struct out *o)
{
    const char *tail = NULL;
    size_t tail_len = 0;
    size_t back = n < 120 ? n : 120;
    if (n >= 5 && !memcmp(s + n - 5, "-----", 5)) {
        const char *e = NULL, *from = s + n - back;
        for (const char *q = find(from, back, "-----END "); q; q = find(q + 1, (size_t)(s + n - q - 1), "-----END "))
            e = q;
        if (e) {
            tail = e;
            tail_len = (size_t)(s + n - e);
        }
    }
    if (starts(s, n, "-----BEGIN ")) {
        const char *close = find(s + 11, (n - 11 < 120 ? n - 11 : 120), "-----");
        size_t hl = close ? (size_t)(close + 5 - s) : 11;
        if (tail && tail < s + hl)
            tail = NULL; /* only a header */
        put(o, s, hl, 0);
    }
    put(o, ELLIPSIS, 3, 1);
    if (tail)
        put(o, tail, tail_len, 1);
}

/* safe: short prefix-less secrets become a bare "…" instead of
 * "[redacted]" (see sbx_secrets_redact). */
static size_t mask_into(unsigned kind, const char *s, size_t n, char *out, size_t cap, int safe)
{
    struct out o = {out, cap, 0};
    if (cap)
        out[0] = '\0';
    if (kind == SBX_SECRET_PRIVATE_KEY) {
        mask_pem(s, n, &o);
        return o.len;
    }
    size_t pl = prefix_len(kind, s, n);
    size_t body = n - pl;
    int tail = body >= TAIL_MIN && printable(s[n - 2]) && printable(s[n - 1]);
    if (!pl && !tail) {
        if (safe)
            put(&o, ELLIPSIS, 3, 1);
        else
            put(&o, "[redacted]", 10, 0);
        return o.len;
    }
    put(&o, s, pl, 0);
    put(&o, ELLIPSIS, 3, 1);
    if (tail)
        put(&o, s + n - 2, 2, 1);
    return o.len;
}

size_t sbx_secret_mask(unsigned kind, const char *secret, size_t n, char *out, size_t cap)
{
    return mask_into(kind, secret, n, out, cap, 0);
}

/* ---- redaction ----------------------------------------------------------- */

struct hits {
    struct sbx_secret_hit *v;
    size_t n, cap;
};

static void collect(const struct sbx_secret_hit *h, void *ctx)
{
    struct hits *hs = ctx;
    SBX_GROW(hs->v, hs->n, hs->cap);
    hs->v[hs->n++] = *h;
}

/* Coverage map, one byte per text byte: 0 not secret, COV_START | kind where
 * a hit or a repeat starts, COV_IN inside one. */
#define COV_START 0x80
#define COV_IN 0x40
#define COV_KIND 0x3f

/* Marks [q, q + len) covered; `done` is how far this secret already marked,
 * so each secret marks each byte once. */
static void cover(unsigned char *cov, size_t q, size_t len, unsigned kind, size_t *done)
{
    if (!(cov[q] & COV_START))
        cov[q] = (unsigned char)(COV_START | kind);
    for (size_t p = q + 1 > *done ? q + 1 : *done; p < q + len; p++)
        if (!cov[p])
            cov[p] = COV_IN;
    if (q + len > *done)
        *done = q + len;
}

#define REPEAT_MIN 8
#define REPEAT_SECRETS 64
#define REPEAT_BYTES ((size_t)16 << 20)

static size_t redact_as_is(const struct sbx_secrets *s, struct sbx_secrets_scratch *sc, const char *text,
                           size_t n, struct sbx_buf *out);

static int has_upper(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (t[i] >= 'A' && t[i] <= 'Z')
            return 1;
    return 0;
}

static char case_to(char c, char from, char to)
{
    return c >= from && c <= from + 25 ? (char)(c - from + to) : c;
}

/* Text with no capital letter may have been lowered (host names are): a
 * credential all of whose letters are capitals (AKIA…) is still the
 * credential lowered, so it is looked for in the upper-case form too, and
 * that form's masks are written lowered. */
size_t sbx_secrets_redact(const struct sbx_secrets *s, struct sbx_secrets_scratch *sc, const char *text, size_t n,
                          struct sbx_buf *out)
{
    if (has_upper(text, n))
        return redact_as_is(s, sc, text, n, out);
    struct sbx_buf low = SBX_BUF_INIT, up = SBX_BUF_INIT, red = SBX_BUF_INIT;
    size_t count = redact_as_is(s, sc, text, n, &low);
    for (size_t i = 0; i < low.len; i++)
        sbx_buf_addc(&up, case_to(low.p[i], 'a', 'A'));
    size_t more = up.len ? redact_as_is(s, sc, up.p, up.len, &red) : 0;
    if (more) {
        for (size_t i = 0; i < red.len; i++)
            sbx_buf_addc(out, case_to(red.p[i], 'A', 'a'));
    } else if (low.len) {
        sbx_buf_add(out, low.p, low.len);
    }
    sbx_buf_free(&low);
    sbx_buf_free(&up);
    sbx_buf_free(&red);
    return count + more;
}

static size_t redact_as_is(const struct sbx_secrets *s, struct sbx_secrets_scratch *sc, const char *text,
                           size_t n, struct sbx_buf *out)
{
    struct hits hs = {NULL, 0, 0};
    sbx_secrets_scan(s, sc, text, n, collect, &hs);
    if (!hs.n) {
        sbx_buf_add(out, text, n);
        return 0;
    }
    unsigned char *cov = sbx_xcalloc(n, 1);
    int safe = 0;
    for (size_t i = 0; i < hs.n; i++) {
        size_t done = 0;
        cover(cov, hs.v[i].off, hs.v[i].len, hs.v[i].kind, &done);
        if (memchr(text + hs.v[i].off, '[', hs.v[i].len) || memchr(text + hs.v[i].off, ']', hs.v[i].len))
            safe = 1;
    }
    /* Other occurrences of each distinct secret (a password echoed back).
     * Searching costs O(n) per secret, so their number is bounded. The
     * searched ones are kept (as hit indexes) for the mask check below. */
    size_t budget = REPEAT_BYTES / (n ? n : 1);
    if (budget < REPEAT_SECRETS)
        budget = REPEAT_SECRETS;
    size_t *searched = sbx_xmalloc(sizeof *searched * (hs.n < budget ? hs.n : budget));
    size_t nsearched = 0;
    for (size_t i = 0; i < hs.n && nsearched < budget; i++) {
        const char *sec = text + hs.v[i].off;
        size_t len = hs.v[i].len;
        if (len < REPEAT_MIN)
            continue;
        int seen = 0;
        for (size_t j = 0; j < nsearched && !seen; j++)
            seen = hs.v[searched[j]].len == len && !memcmp(text + hs.v[searched[j]].off, sec, len);
        if (seen)
            continue;
        searched[nsearched++] = i;
        size_t done = 0;
        const char *p = text, *end = text + n, *q;
        while ((q = memmem(p, (size_t)(end - p), sec, len))) {
            cover(cov, (size_t)(q - text), len, hs.v[i].kind, &done);
            p = q + 1;
        }
    }

    /* Each covered run is masked from its own bytes: a mask's ASCII parts
     * are the run's first and last bytes, and any searched secret that
     * starts or ends outside the run would have been covered with it, so a
     * secret can reappear only inside a mask's prefix (a PEM header, a long
     * prefix such as github_pat_) - checked here - or by straddling the
     * literal "[redacted]", which needs a bracket in a secret ("safe"). */
    size_t pos = 0, count = 0;
    char m[SBX_SECRET_MASK_MAX];
    while (pos < n) {
        size_t a = pos;
        while (a < n && !cov[a])
            a++;
        sbx_buf_add(out, text + pos, a - pos);
        if (a == n)
            break;
        size_t b = a + 1;
        while (b < n && cov[b])
            b++;
        size_t ml = mask_into(cov[a] & COV_KIND, text + a, b - a, m, sizeof m, safe);
        for (size_t j = 0; j < nsearched; j++) {
            const struct sbx_secret_hit *h = &hs.v[searched[j]];
            if (h->len <= ml && memmem(m, ml, text + h->off, h->len)) {
                memcpy(m, ELLIPSIS, 3);
                ml = 3;
                break;
            }
        }
        sbx_buf_add(out, m, ml);
        pos = b;
        count++;
    }
    free(searched);
    free(cov);
    free(hs.v);
    return count;
}
