/* Fuzz target for the event ids' digest (model/evid.h, base/hash128.h):
 * the 128-bit hash of any bytes is the same added whole or in any three
 * pieces, and a record's id digest is that of its canonical bytes — the
 * record without the whitespace a plain byte-by-byte reading finds between
 * JSON tokens (inside strings every byte counts), or a text line without
 * its final CR; and where the record is a JSON object, the same bytes come
 * out when the string bodies the JSON scanner finds are handed over whole
 * (sbx_evid_canonical_bodies), with vector code on and off. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash128.h"
#include "base/simd.h"
#include "importers/json/jsonscan.h"
#include "model/event.h"
#include "model/evid.h"
#include "model/evid_canon.h"
#include "tests/fuzz/canon_oracle.h"

/* The canonical bytes, the plain way. */
static size_t canonical_plain(const char *s, size_t n, char *out)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n || (s[i] != '{' && s[i] != '[')) {
        if (n && s[n - 1] == '\r')
            n--;
        memcpy(out, s, n);
        return n;
    }
    return canon_strip_plain(s + i, n - i, out);
}

static void check_bodies(const char *s, size_t n)
{
    static struct sbx_jscan scan;
    static bool ready;
    if (!ready) {
        sbx_jscan_init(&scan);
        ready = true;
    }
    if (!sbx_jscan_line(&scan, s, n))
        return;
    struct sbx_canon_body b[64];
    size_t nb = 0;
    for (size_t m = 0; m < scan.n && nb < 64; m++)
        if (scan.m[m].type == SBX_JSTRING)
            b[nb++] = (struct sbx_canon_body){(size_t)(scan.m[m].val - s), scan.m[m].val_len};
    /* the members in the order of the line (a key given twice keeps its last place) */
    for (size_t i = 1; i < nb; i++)
        for (size_t j = i; j > 0 && b[j - 1].off > b[j].off; j--) {
            struct sbx_canon_body t = b[j];
            b[j] = b[j - 1];
            b[j - 1] = t;
        }
    char *want = malloc(n + 1), *got = malloc(n + 1);
    struct canon_collect w = {want, 0};
    sbx_evid_canonical(s, n, canon_collect_piece, &w);
    for (int twin = 0; twin < 2; twin++) {
        sbx_simd_set_scalar(twin == 1);
        struct canon_collect g = {got, 0};
        sbx_evid_canonical_bodies(s, n, b, nb, canon_collect_piece, &g);
        if (g.n != w.n || memcmp(got, want, w.n) != 0)
            abort();
    }
    sbx_simd_set_scalar(false);
    free(want);
    free(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    /* the first two bytes choose the pieces' cuts */
    size_t n = size - 2;
    const char *s = (const char *)data + 2;
    size_t a = n ? data[0] % (n + 1) : 0, b = n ? data[1] % (n + 1) : 0;
    if (a > b) {
        size_t t = a;
        a = b;
        b = t;
    }
    uint64_t hi, lo, h2, l2;
    sbx_hash128(s, n, &hi, &lo);
    struct sbx_hash128 h;
    sbx_hash128_begin(&h);
    sbx_hash128_add(&h, s, a);
    sbx_hash128_add(&h, s + a, b - a);
    sbx_hash128_add(&h, s + b, n - b);
    sbx_hash128_end(&h, &h2, &l2);
    if (hi != h2 || lo != l2)
        abort();
    char *plain = malloc(n + 1);
    size_t pn = canonical_plain(s, n, plain);
    uint64_t k1, r1, k2, r2;
    sbx_evid_digest("recorder", SBX_EV_COMMAND, s, n, &k1, &r1);
    sbx_evid_digest("recorder", SBX_EV_COMMAND, plain, pn, &k2, &r2);
    /* a text line's final CR is dropped once: a stripped form that still
     * ends with one would lose it again */
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    bool json = i < n && (s[i] == '{' || s[i] == '[');
    if ((json || !pn || plain[pn - 1] != '\r') && (k1 != k2 || r1 != r2))
        abort();
    if (k1 >> (5 * SBX_EVID_CHARS))
        abort();
    free(plain);
    check_bodies(s, n);
    return 0;
}
