#include "analyses/webhook.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hex.h"
#include "base/numfmt.h"
#include "base/timefmt.h"

enum { MAC_LEN = 32 };

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

size_t sbx_webhook_secrets_parse(struct sbx_webhook_secrets *s, const char *list)
{
    memset(s, 0, sizeof *s);
    if (!list)
        return 0;
    const char *p = list;
    while (*p) {
        const char *e = strchr(p, ',');
        if (!e)
            e = p + strlen(p);
        const char *a = p, *b = e;
        while (a < b && blank(*a))
            a++;
        while (b > a && blank(b[-1]))
            b--;
        if (b > a) {
            s->key = sbx_xrealloc(s->key, (s->n + 1) * sizeof *s->key);
            s->len = sbx_xrealloc(s->len, (s->n + 1) * sizeof *s->len);
            s->key[s->n] = sbx_xmalloc((size_t)(b - a));
            memcpy(s->key[s->n], a, (size_t)(b - a));
            s->len[s->n++] = (size_t)(b - a);
        }
        p = *e ? e + 1 : e;
    }
    return s->n;
}

void sbx_webhook_secrets_free(struct sbx_webhook_secrets *s)
{
    for (size_t i = 0; i < s->n; i++) {
        OPENSSL_cleanse(s->key[i], s->len[i]);
        free(s->key[i]);
    }
    free(s->key);
    free(s->len);
    memset(s, 0, sizeof *s);
}

/* HMAC-SHA256 of "<t>.<body>" under key, streamed (the body is not copied). */
static bool mac_of(EVP_MAC *mac, const unsigned char *key, size_t key_len, const char *t,
                   size_t t_len, const char *body, size_t body_len, unsigned char out[MAC_LEN])
{
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    if (!ctx)
        return false;
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
        OSSL_PARAM_construct_end(),
    };
    size_t n = 0;
    bool ok = EVP_MAC_init(ctx, key, key_len, params) &&
              EVP_MAC_update(ctx, (const unsigned char *)t, t_len) &&
              EVP_MAC_update(ctx, (const unsigned char *)".", 1) &&
              (body_len == 0 || EVP_MAC_update(ctx, (const unsigned char *)body, body_len)) &&
              EVP_MAC_final(ctx, out, &n, MAC_LEN) && n == MAC_LEN;
    EVP_MAC_CTX_free(ctx);
    return ok;
}

/* A v1 value as bytes: exactly 64 hex digits. */
static bool unhex(const char *s, size_t n, unsigned char out[MAC_LEN])
{
    if (n != 2 * MAC_LEN)
        return false;
    for (size_t i = 0; i < MAC_LEN; i++) {
        int hi = sbx_hex_digit(s[2 * i]), lo = sbx_hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return true;
}

/* One "name=value" part of the header, trimmed. */
struct part {
    const char *name, *value;
    size_t name_len, value_len;
};

/* The part starting at *p (before end); advances *p past its comma. */
static bool next_part(const char **p, const char *end, struct part *out)
{
    if (*p >= end)
        return false;
    const char *e = memchr(*p, ',', (size_t)(end - *p));
    if (!e)
        e = end;
    const char *a = *p, *b = e;
    *p = e < end ? e + 1 : end;
    while (a < b && blank(*a))
        a++;
    while (b > a && blank(b[-1]))
        b--;
    const char *eq = memchr(a, '=', (size_t)(b - a));
    if (!eq) {
        *out = (struct part){a, b, (size_t)(b - a), 0};
        return true;
    }
    const char *ne = eq, *vs = eq + 1;
    while (ne > a && blank(ne[-1]))
        ne--;
    while (vs < b && blank(*vs))
        vs++;
    *out = (struct part){a, vs, (size_t)(ne - a), (size_t)(b - vs)};
    return true;
}

static bool part_is(const struct part *pt, const char *name)
{
    size_t n = strlen(name);
    return pt->name_len == n && memcmp(pt->name, name, n) == 0;
}

/* Unix seconds: digits only, at most 12 of them (year 33658). */
static bool parse_t(const char *s, size_t n, int64_t *out)
{
    if (n == 0 || n > 12)
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

enum sbx_sig sbx_webhook_verify(const struct sbx_webhook_secrets *s, const char *header,
                                size_t header_len, const char *body, size_t body_len,
                                int64_t event_ns, int64_t tolerance_s, int64_t *off_s)
{
    if (off_s)
        *off_s = 0;
    if (!s || s->n == 0)
        return SBX_SIG_UNCHECKED;
    if (!header)
        return SBX_SIG_NO_HEADER;
    const char *end = header + header_len, *p = header;
    struct part pt;
    const char *t = NULL;
    size_t t_len = 0, nv1 = 0;
    int64_t t_val = 0;
    while (next_part(&p, end, &pt)) {
        if (part_is(&pt, "t")) {
            if (t || !parse_t(pt.value, pt.value_len, &t_val))
                return SBX_SIG_MALFORMED; /* two times, or one that is not a time */
            t = pt.value;
            t_len = pt.value_len;
        } else if (part_is(&pt, "v1")) {
            nv1++;
        }
    }
    if (!t || nv1 == 0)
        return SBX_SIG_MALFORMED;

    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (!mac)
        return SBX_SIG_MISMATCH; /* nothing could be verified */
    bool matched = false;
    for (size_t k = 0; k < s->n && !matched; k++) {
        unsigned char want[MAC_LEN], got[MAC_LEN];
        if (!mac_of(mac, s->key[k], s->len[k], t, t_len, body, body_len, want))
            continue;
        p = header;
        while (next_part(&p, end, &pt))
            if (part_is(&pt, "v1") && unhex(pt.value, pt.value_len, got) &&
                CRYPTO_memcmp(want, got, MAC_LEN) == 0)
                matched = true; /* no early exit: the time taken does not say which */
        OPENSSL_cleanse(want, sizeof want);
    }
    EVP_MAC_free(mac);
    if (!matched)
        return SBX_SIG_MISMATCH;
    if (event_ns != SBX_TIME_UNKNOWN) {
        int64_t event_s = event_ns / 1000000000 - (event_ns % 1000000000 < 0);
        int64_t d = t_val - event_s;
        if (off_s)
            *off_s = d;
        if (d > tolerance_s || -d > tolerance_s)
            return SBX_SIG_TOO_OLD;
    }
    return SBX_SIG_OK;
}

char *sbx_webhook_replay_words(int64_t off_s, char *buf, size_t n)
{
    char dur[SBX_NUM_BUFSZ];
    int64_t s = off_s < 0 ? -off_s : off_s;
    snprintf(buf, n, "signed %s %s the event", sbx_duration_text(s * 1000000000LL, SBX_DUR_WORDS, dur),
             off_s < 0 ? "before" : "after");
    return buf;
}

const char *sbx_sig_name(enum sbx_sig r)
{
    switch (r) {
    case SBX_SIG_OK: return "verified";
    case SBX_SIG_NO_HEADER: return "no Runtime-Signature header";
    case SBX_SIG_MALFORMED: return "malformed Runtime-Signature header";
    case SBX_SIG_MISMATCH: return "signature does not match";
    case SBX_SIG_TOO_OLD: return "replayed: signed too far from the event's time";
    case SBX_SIG_UNCHECKED: return "not checked (no secret)";
    }
    return "?";
}
