/* Fuzz target for analyses/secrets/secrets: any bytes in, hits in bounds, in order and
 * not overlapping; the SIMD and plain prefilters agree (from the first byte
 * and from two later ones, so the vector blocks' edges move); the work stays
 * linear; masks are well formed; and the redacted text never contains the
 * bytes of a secret longer than 8 characters.
 *
 *   clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *     tests/fuzz/fuzz_secrets.c analyses/secrets/secrets*.c base/buf.c \
 *     $(pkg-config --cflags --libs libpcre2-8) -o fuzz_secrets
 *   ./fuzz_secrets -timeout=2 tests/fuzz/corpus/secrets */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "analyses/secrets/secrets.h"

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

static struct sbx_secrets *simd, *portable;

struct bytes {
    const char *p;
    size_t len;
};

static int by_bytes(const void *x, const void *y)
{
    const struct bytes *a = x, *b = y;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return memcmp(a->p, b->p, a->len);
}
static struct sbx_secrets_scratch *sc, *psc;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char err[256];
    simd = sbx_secrets_new(err, sizeof err);
    portable = sbx_secrets_new_with(SBX_SECRETS_PORTABLE, err, sizeof err);
    if (!simd || !portable) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    sc = sbx_secrets_scratch_new(simd);
    psc = sbx_secrets_scratch_new(portable);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size copy, so reading past the end is caught */
    char *text = sbx_xmalloc(size ? size : 1);
    if (size)
        memcpy(text, data, size);

    struct hits a = {NULL, 0, 0}, b = {NULL, 0, 0};
    size_t na = sbx_secrets_scan(simd, sc, text, size, collect, &a);
    size_t work = sbx_secrets_scratch_work(sc);
    size_t nb = sbx_secrets_scan(portable, psc, text, size, collect, &b);
    if (na != a.n || nb != b.n || na != nb)
        abort();
    if (work > 256 * size + 4096)
        abort();
    /* the same text started one and 33 bytes on: the vector pass's block
     * edges fall elsewhere, the plain pass's hits only move */
    for (size_t shift = 1; shift <= 33 && shift < size; shift += 32) {
        struct hits sa = {NULL, 0, 0}, sb = {NULL, 0, 0};
        sbx_secrets_scan(simd, sc, text + shift, size - shift, collect, &sa);
        sbx_secrets_scan(portable, psc, text + shift, size - shift, collect, &sb);
        if (sa.n != sb.n)
            abort();
        for (size_t i = 0; i < sa.n; i++)
            if (sa.v[i].kind != sb.v[i].kind || sa.v[i].off != sb.v[i].off || sa.v[i].len != sb.v[i].len ||
                sa.v[i].flags != sb.v[i].flags)
                abort();
        free(sa.v);
        free(sb.v);
    }
    char m[SBX_SECRET_MASK_MAX];
    for (size_t i = 0; i < a.n; i++) {
        const struct sbx_secret_hit *h = &a.v[i];
        if (h->kind >= sbx_secret_kind_count() || h->len == 0 || h->off > size || h->len > size - h->off)
            abort();
        if (i && a.v[i - 1].off + a.v[i - 1].len > h->off)
            abort();
        if (h->kind != b.v[i].kind || h->off != b.v[i].off || h->len != b.v[i].len || h->flags != b.v[i].flags)
            abort();
        size_t ml = sbx_secret_mask(h->kind, text + h->off, h->len, m, sizeof m);
        if (ml >= sizeof m || strlen(m) != ml)
            abort();
    }

    struct sbx_buf out = SBX_BUF_INIT;
    size_t replaced = sbx_secrets_redact(simd, sc, text, size, &out);
    if ((replaced == 0) != (a.n == 0))
        abort();
    /* each distinct secret once (hostile inputs repeat one secret a lot) */
    struct bytes *sec = sbx_xmalloc(sizeof *sec * (a.n ? a.n : 1));
    for (size_t i = 0; i < a.n; i++)
        sec[i] = (struct bytes){text + a.v[i].off, a.v[i].len};
    qsort(sec, a.n, sizeof *sec, by_bytes);
    for (size_t i = 0; i < a.n; i++) {
        if (i && !by_bytes(&sec[i - 1], &sec[i]))
            continue;
        if (sec[i].len > 8 && memmem(out.p, out.len, sec[i].p, sec[i].len)) {
            fprintf(stderr, "secret [%.*s] left in the redacted text\n", (int)sec[i].len, sec[i].p);
            abort();
        }
    }
    free(sec);
    sbx_buf_free(&out);
    free(a.v);
    free(b.v);
    free(text);
    return 0;
}
