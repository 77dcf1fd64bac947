/* The recorder's stdout hash check for one command: the record carries the
 * first 16 hex digits of the SHA-256 of stdout as it was captured; a clipped
 * stdout (the recorder keeps its first and last 2000 characters) cannot be
 * checked. The content analysis checks every command once and keeps the
 * verdict on it; views read that verdict. Owns nothing; thread-safe with
 * one context per thread. */
#ifndef SBX_HASHCHECK_H
#define SBX_HASHCHECK_H

#include <openssl/evp.h>

#include "model/timeline.h"

enum sbx_hash_state {
    SBX_HASH_NONE,      /* no hash in the record */
    SBX_HASH_CLIPPED,   /* stdout was clipped: cannot be checked */
    SBX_HASH_VERIFIED,
    SBX_HASH_MISMATCH,
    SBX_HASH_ERROR,     /* the digest could not be computed */
    SBX_HASH_PENDING,   /* not checked yet: the analyses have not run */
};

/* ctx and sha256 may be NULL (made and freed inside: slower); scratch holds
 * decoded stdout between calls. When stdout was decoded to be hashed and out
 * is not NULL, *out and *out_len get it (valid until scratch changes), so a
 * caller that reads it too need not decode it again; else *out is NULL. */
enum sbx_hash_state sbx_hash_check(const struct sbx_timeline *tl, const struct sbx_event *e,
                                   EVP_MD_CTX *ctx, const EVP_MD *sha256, struct sbx_buf *scratch,
                                   const char **out, size_t *out_len);

/* The verdict the content analysis kept on e (SBX_CMD_HASH_CHECKED and
 * _VERIFIED, SBX_F_HASH_MISMATCH), or NONE / CLIPPED as the record says,
 * without hashing anything. */
enum sbx_hash_state sbx_hash_verdict(const struct sbx_timeline *tl, const struct sbx_event *e);

#endif
