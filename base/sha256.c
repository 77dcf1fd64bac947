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
