#include "base/sha256.h"

#include <stdlib.h>

#include <openssl/evp.h>

void sbx_sha256(const void *data, size_t n, unsigned char out[SBX_SHA256_LEN])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!EVP_Digest(data, n, md, &len, EVP_sha256(), NULL) || len != SBX_SHA256_LEN)
        abort(); /* SHA-256 is always there: a broken libcrypto */
    for (int i = 0; i < SBX_SHA256_LEN; i++)
        out[i] = md[i];
}

struct sbx_sha256 {
    EVP_MD_CTX *ctx;
    const EVP_MD *md;
};

struct sbx_sha256 *sbx_sha256_new(void)
{
    struct sbx_sha256 *h = malloc(sizeof *h);
    if (!h || !(h->ctx = EVP_MD_CTX_new()))
        abort(); /* as the project's allocators do */
    h->md = EVP_sha256();
    return h;
}

void sbx_sha256_free(struct sbx_sha256 *h)
{
    if (!h)
        return;
    EVP_MD_CTX_free(h->ctx);
    free(h);
}

void sbx_sha256_begin(struct sbx_sha256 *h)
{
    if (!EVP_DigestInit_ex(h->ctx, h->md, NULL))
        abort();
}

void sbx_sha256_add(struct sbx_sha256 *h, const void *data, size_t n)
{
    if (n && !EVP_DigestUpdate(h->ctx, data, n))
        abort();
}

void sbx_sha256_end(struct sbx_sha256 *h, unsigned char out[SBX_SHA256_LEN])
{
    unsigned int len = 0;
    if (!EVP_DigestFinal_ex(h->ctx, out, &len) || len != SBX_SHA256_LEN)
        abort();
}
