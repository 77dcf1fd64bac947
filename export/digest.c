/* Digests of the sources, the run digest, the marker, and character counts. */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "export/body.h"
#include "base/utf8.h"

static void hex(const unsigned char *md, char out[SBX_DIGEST_HEX])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = digits[md[i] >> 4];
        out[2 * i + 1] = digits[md[i] & 15];
    }
    out[64] = '\0';
}

static void sha256(const void *data, size_t n, char out[SBX_DIGEST_HEX])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!EVP_Digest(data, n, md, &len, EVP_sha256(), NULL) || len != 32)
        abort(); /* SHA-256 is always there: a broken libcrypto */
    hex(md, out);
}

void sbx_export_marker_digest(const char *run_digest, const char *said, size_t n,
                              char out[SBX_DIGEST_HEX])
{
    struct sbx_buf all = SBX_BUF_INIT;
    sbx_buf_addf(&all, "sbxview marker 1\n%s\n", run_digest);
    sbx_buf_add(&all, said, n);
    sha256(all.p, all.len, out);
    sbx_buf_free(&all);
}

static int hexcmp(const void *a, const void *b)
{
    return memcmp(a, b, SBX_DIGEST_HEX);
}

void sbx_export_digests(const struct sbx_timeline *tl, struct sbx_export_digests *d)
{
    d->n = tl->nsources;
    d->file = sbx_xcalloc(d->n ? d->n : 1, sizeof *d->file);
    for (size_t i = 0; i < d->n; i++)
        sha256(tl->sources[i].data ? tl->sources[i].data : "", tl->sources[i].size, d->file[i]);
    char(*sorted)[SBX_DIGEST_HEX] = sbx_xcalloc(d->n ? d->n : 1, sizeof *sorted);
    memcpy(sorted, d->file, d->n * sizeof *sorted);
    qsort(sorted, d->n, sizeof *sorted, hexcmp);
    struct sbx_buf all = SBX_BUF_INIT;
    for (size_t i = 0; i < d->n; i++) {
        sbx_buf_add(&all, sorted[i], 64);
        sbx_buf_addc(&all, '\n');
    }
    sha256(all.p ? all.p : "", all.len, d->run);
    sbx_buf_free(&all);
    free(sorted);
}

void sbx_export_digests_free(struct sbx_export_digests *d)
{
    free(d->file);
    d->file = NULL;
    d->n = 0;
}

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool sbx_export_marker_found(const char *text, size_t n, const char *run_digest)
{
    static const char tag[] = "sbxview:";
    const size_t tl = sizeof tag - 1;
    if (!text || !run_digest || strlen(run_digest) != 64)
        return false;
    for (const char *p = text, *end = text + n; (size_t)(end - p) >= tl + 64;) {
        const char *hit = memmem(p, (size_t)(end - p), tag, tl);
        if (!hit || (size_t)(end - hit) < tl + 64)
            return false;
        const char *h = hit + tl;
        if (strncasecmp(h, run_digest, 64) == 0 && (h + 64 == end || !is_hex(h[64])) &&
            (hit == text || !is_hex(hit[-1])))
            return true;
        p = hit + 1;
    }
    return false;
}

size_t sbx_body_chars(const char *s, size_t n)
{
    size_t units = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (!k) {
            units++;
            i++;
            continue;
        }
        units += cp >= 0x10000 ? 2 : 1;
        i += k;
    }
    return units;
}

const char *sbx_body_kind_name(enum sbx_body_kind k)
{
    static const char *const names[] = {"markdown", "jira-adf", "jira-text", "slack"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}
