/* SHA-256 of a byte range (libcrypto's), for names derived from content.
 * Safe from any thread; nothing to free. */
#ifndef SBX_SHA256_H
#define SBX_SHA256_H

#include <stddef.h>

enum { SBX_SHA256_LEN = 32 };

/* The digest of data[0..n) written into the caller's out. */
void sbx_sha256(const void *data, size_t n, unsigned char out[SBX_SHA256_LEN]);

#endif
