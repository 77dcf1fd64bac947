/* MD5 (libcrypto's), for one thing only: checking a body against the ETag
 * S3 gives an object uploaded in one part (the hex MD5 of its bytes). Not
 * for names or anything a digest must protect.
 *
 * Ownership: nothing is kept; out is the caller's. */
#ifndef SBX_MD5_H
#define SBX_MD5_H

#include <stdbool.h>
#include <stddef.h>

enum { SBX_MD5_LEN = 16 };

/* The digest of data[0..n) into out; false when libcrypto offers no MD5
 * (a FIPS-only build). Safe from any thread. */
bool sbx_md5(const void *data, size_t n, unsigned char out[SBX_MD5_LEN]);

#endif
