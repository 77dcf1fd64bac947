/* Fuzz target for analyses/compare/compare's normalisation and alignment: any bytes.
 * Normalising is idempotent (a key normalised again stays the key); the
 * input's lines, split at the first NUL into run A and run B, align into a
 * valid common subsequence, as long as the dynamic programme's when both are
 * short. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/compare/compare.h"

enum { SMALL = 48 };

static size_t lcs_dp(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    static size_t t[SMALL + 1][SMALL + 1];
    for (size_t i = na + 1; i-- > 0;)
        for (size_t j = nb + 1; j-- > 0;) {
            if (i == na || j == nb)
                t[i][j] = 0;
            else if (a[i] == b[j])
                t[i][j] = 1 + t[i + 1][j + 1];
            else
                t[i][j] = t[i + 1][j] > t[i][j + 1] ? t[i + 1][j] : t[i][j + 1];
        }
    return t[0][0];
}

/* The lines of s[0..n) as ids: a hash of each normalised line, folded to a
 * few values so that lines match often. */
static uint32_t *ids_of(const char *s, size_t n, size_t *count, struct sbx_buf *key)
{
    uint32_t *ids = malloc((n + 1) * sizeof *ids);
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (s + i)) : n - i;
        sbx_buf_clear(key);
        sbx_cmp_normalize(s + i, len, key);
        uint32_t h = 2166136261u;
        for (size_t j = 0; j < key->len; j++)
            h = (h ^ (unsigned char)key->p[j]) * 16777619u;
        ids[k++] = h % 7;
        i += len + 1;
    }
    *count = k;
    return ids;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    struct sbx_buf once = SBX_BUF_INIT, twice = SBX_BUF_INIT;
    sbx_cmp_normalize_text(s, size, &once);
    sbx_cmp_normalize_text(once.p ? once.p : "", once.len, &twice);
    if (once.len != twice.len || (once.len && memcmp(once.p, twice.p, once.len) != 0))
        abort();
    sbx_buf_free(&once);
    sbx_buf_free(&twice);

    const char *nul = memchr(s, '\0', size);
    size_t split = nul ? (size_t)(nul - s) : size / 2;
    size_t rest = nul ? split + 1 : split;
    struct sbx_buf key = SBX_BUF_INIT;
    size_t na, nb;
    uint32_t *a = ids_of(s, split, &na, &key), *b = ids_of(s + rest, size - rest, &nb, &key);
    sbx_buf_free(&key);
    size_t *m = malloc((na + 1) * sizeof *m), work;
    size_t got = sbx_cmp_lcs(a, na, b, nb, m, &work);
    size_t last = SBX_CMP_NONE, count = 0;
    for (size_t i = 0; i < na; i++) {
        if (m[i] == SBX_CMP_NONE)
            continue;
        if (m[i] >= nb || a[i] != b[m[i]] || (last != SBX_CMP_NONE && m[i] <= last))
            abort();
        last = m[i];
        count++;
    }
    if (count != got || work > 64 * (na + nb) + 4096)
        abort();
    if (na <= SMALL && nb <= SMALL && got != lcs_dp(a, na, b, nb))
        abort();
    free(a);
    free(b);
    free(m);
    return 0;
}
