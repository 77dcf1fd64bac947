/* SHA-256 (libcrypto's), for names derived from content: of one byte range,
 * or of pieces added one after another.
 *
 * Ownership: sbx_sha256_new returns a context the caller frees with
 * sbx_sha256_free; one per thread. sbx_sha256 keeps nothing. */
#ifndef SBX_SHA256_H
#define SBX_SHA256_H

#include <stddef.h>

enum { SBX_SHA256_LEN = 32 };

/* The digest of data[0..n) written into the caller's out. Safe from any thread. */
void sbx_sha256(const void *data, size_t n, unsigned char out[SBX_SHA256_LEN]);

struct sbx_sha256;
struct sbx_sha256 *sbx_sha256_new(void);
void sbx_sha256_free(struct sbx_sha256 *h);
/* Starts a digest, adds pieces, writes it into out (then begin again). */
void sbx_sha256_begin(struct sbx_sha256 *h);
void sbx_sha256_add(struct sbx_sha256 *h, const void *data, size_t n);
void sbx_sha256_end(struct sbx_sha256 *h, unsigned char out[SBX_SHA256_LEN]);

#endif
