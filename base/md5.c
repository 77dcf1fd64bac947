#include "base/md5.h"

#include <openssl/evp.h>

bool sbx_md5(const void *data, size_t n, unsigned char out[SBX_MD5_LEN])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!EVP_Digest(data, n, md, &len, EVP_md5(), NULL) || len != SBX_MD5_LEN)
        return false;
    for (int i = 0; i < SBX_MD5_LEN; i++)
        out[i] = md[i];
    return true;
}
