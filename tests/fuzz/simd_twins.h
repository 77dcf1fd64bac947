/* The vector paths against their scalar twins (base/simd.h), on the same
 * bytes: each function is run with vector code on, then with
 * sbx_simd_set_scalar(true), and the answers must be equal in every detail
 * a caller can see. Shared by the differential fuzz target fuzz_simd and the
 * unit test test_simd, which feed it boundaries and random text.
 *
 * Header-only; a twins_ctx is made by twins_new and freed by twins_free.
 * twins_differ and twins_lit_differ return a static string naming the first
 * function whose twins disagree, or NULL when every one agrees. */
#ifndef SBX_TEST_SIMD_TWINS_H
#define SBX_TEST_SIMD_TWINS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/hidden.h"
#include "analyses/refusals.h"
#include "analyses/secrets/secrets.h"
#include "base/jsonstr.h"
#include "base/simd.h"
#include "importers/json/jsonscan.h"
#include "model/event.h"
#include "model/evid.h"
#include "query/lit.h"

struct twins_hits {
    struct sbx_secret_hit v[64];
    size_t n;
};

struct twins_ctx {
    struct sbx_secrets *secrets;
    struct sbx_secrets_scratch *scratch;
    struct sbx_jscan scan[2]; /* one per twin: the members of both stay readable */
};

static inline struct twins_ctx *twins_new(void)
{
    struct twins_ctx *t = calloc(1, sizeof *t);
    char err[256];
    if (!t || !(t->secrets = sbx_secrets_new(err, sizeof err)))
        abort();
    t->scratch = sbx_secrets_scratch_new(t->secrets);
    sbx_jscan_init(&t->scan[0]);
    sbx_jscan_init(&t->scan[1]);
    return t;
}

static inline void twins_free(struct twins_ctx *t)
{
    sbx_jscan_free(&t->scan[0]);
    sbx_jscan_free(&t->scan[1]);
    sbx_secrets_scratch_free(t->scratch);
    sbx_secrets_free(t->secrets);
    free(t);
}

static inline void twins_collect(const struct sbx_secret_hit *h, void *ctx)
{
    struct twins_hits *hs = ctx;
    if (hs->n < sizeof hs->v / sizeof *hs->v)
        hs->v[hs->n] = *h;
    hs->n++;
}

/* Everything a caller reads of a scanned line, compared between the two. */
static inline bool twins_same_line(const struct sbx_jscan *a, bool ok_a, const struct sbx_jscan *b,
                                   bool ok_b)
{
    if (ok_a != ok_b)
        return false;
    if (!ok_a)
        return a->err_code == b->err_code && a->err_pos == b->err_pos &&
               strcmp(a->err, b->err) == 0;
    if (a->n != b->n || a->dups != b->dups)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        const struct sbx_jmember *x = &a->m[i], *y = &b->m[i];
        if (x->key != y->key || x->key_len != y->key_len || x->val != y->val ||
            x->val_len != y->val_len || x->type != y->type || x->key_escaped != y->key_escaped ||
            x->val_escaped != y->val_escaped || x->val_unusual != y->val_unusual ||
            x->val_hides != y->val_hides || x->i != y->i ||
            memcmp(&x->d, &y->d, sizeof x->d) != 0 || x->ukey_len != y->ukey_len ||
            memcmp(x->ukey, y->ukey, x->ukey_len) != 0)
            return false;
    }
    return true;
}

/* One answer per twin: [0] vector, [1] scalar. */
#define TWINS_RUN(...)                                                                         \
    for (int twin = 0; twin < 2; twin++) {                                                     \
        sbx_simd_set_scalar(twin == 1);                                                        \
        __VA_ARGS__;                                                                           \
    }                                                                                          \
    sbx_simd_set_scalar(false)

static inline const char *twins_differ(struct twins_ctx *t, const char *s, size_t n)
{
    bool b[2];
    TWINS_RUN(b[twin] = sbx_text_hides(s, n, false));
    if (b[0] != b[1])
        return "sbx_text_hides (raw)";
    TWINS_RUN(b[twin] = sbx_text_hides(s, n, true));
    if (b[0] != b[1])
        return "sbx_text_hides (escaped)";
    TWINS_RUN(b[twin] = sbx_netpat_might_refuse(s, n));
    if (b[0] != b[1])
        return "sbx_netpat_might_refuse";

    char *out[2] = {malloc(n + 1), malloc(n + 1)};
    size_t len[2];
    TWINS_RUN(len[twin] = sbx_jstr_decode(s, n, out[twin]));
    bool same = len[0] == len[1] && memcmp(out[0], out[1], len[0]) == 0;
    free(out[0]);
    free(out[1]);
    if (!same)
        return "sbx_jstr_decode";

    const char *end[2];
    unsigned char esc[2];
    TWINS_RUN(esc[twin] = 0;
              end[twin] = sbx_jscan_string(&t->scan[twin], s, s, s + n, &esc[twin]));
    if (end[0] != end[1] || (end[0] && esc[0] != esc[1]))
        return "sbx_jscan_string";
    if (!end[0] && !twins_same_line(&t->scan[0], false, &t->scan[1], false))
        return "sbx_jscan_string (its error)";
    TWINS_RUN(b[twin] = sbx_jscan_line(&t->scan[twin], s, n));
    if (!twins_same_line(&t->scan[0], b[0], &t->scan[1], b[1]))
        return "sbx_jscan_line";

    uint64_t key[2], rest[2];
    TWINS_RUN(sbx_evid_digest("recorder", SBX_EV_COMMAND, s, n, &key[twin], &rest[twin]));
    if (key[0] != key[1] || rest[0] != rest[1])
        return "sbx_evid_digest (the canonical bytes)";

    struct twins_hits hits[2];
    TWINS_RUN(hits[twin].n = 0;
              sbx_secrets_scan(t->secrets, t->scratch, s, n, twins_collect, &hits[twin]));
    if (hits[0].n != hits[1].n)
        return "sbx_secrets_scan";
    for (size_t i = 0; i < hits[0].n && i < 64; i++) {
        const struct sbx_secret_hit *x = &hits[0].v[i], *y = &hits[1].v[i];
        if (x->kind != y->kind || x->off != y->off || x->len != y->len || x->flags != y->flags)
            return "sbx_secrets_scan";
    }
    return NULL;
}

/* The search's literal of pattern pat in s[0..n), both ways it is used. */
static inline const char *twins_lit_differ(const char *pat, size_t plen, bool caseless,
                                           const char *s, size_t n)
{
    struct sbx_lit lit;
    sbx_lit_extract(pat, plen, caseless, &lit);
    if (lit.n == 0)
        return NULL;
    const char *at[2];
    bool b[2];
    TWINS_RUN(at[twin] = sbx_lit_find(&lit, s, n));
    if (at[0] != at[1])
        return "sbx_lit_find";
    TWINS_RUN(b[twin] = sbx_lit_json_may_have(&lit, s, n));
    if (b[0] != b[1])
        return "sbx_lit_json_may_have";
    return NULL;
}

#endif
