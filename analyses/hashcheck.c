#include "analyses/hashcheck.h"

#include <string.h>

/* The recorder's clip: first 2000 and last 2000 characters around this. */
static const char CLIP_MARK[] = "\n[...]\n";
static const char CLIP_MARK_ESCAPED[] = "\\n[...]\\n";
enum { CLIPPED_MIN_CHARS = 4007 };

/* Whether a stdout was clipped by the recorder. The mark follows the first
 * 2000 characters, so it starts at least 2000 bytes in; it is found by its
 * '[' (rare in output) rather than its leading newline or backslash
 * (common, in escaped text). */
static bool has_clip_mark(const char *s, size_t n, bool escaped)
{
    const char *mark = escaped ? CLIP_MARK_ESCAPED : CLIP_MARK;
    size_t before = escaped ? 2 : 1; /* "\\n" or "\n" ahead of the '[' */
    size_t mlen = escaped ? sizeof CLIP_MARK_ESCAPED - 1 : sizeof CLIP_MARK - 1;
    if (n < CLIPPED_MIN_CHARS)
        return false;
    const char *p = s + 2000, *end = s + n;
    while ((p = memchr(p, '[', (size_t)(end - p)))) {
        const char *start = p - before;
        if ((size_t)(end - start) >= mlen && memcmp(start, mark, mlen) == 0)
            return true;
        p++;
    }
    return false;
}

enum sbx_hash_state sbx_hash_verdict(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    const struct sbx_command *c = &e->u.cmd;
    if (e->kind != SBX_EV_COMMAND || !(c->flags & SBX_CMD_HASH_PRESENT))
        return SBX_HASH_NONE;
    if (has_clip_mark(sbx_text_raw(tl, e, &c->out), sbx_text_len(&c->out), c->out.flags & SBX_TEXT_ESCAPED))
        return SBX_HASH_CLIPPED;
    if (!(c->flags & SBX_CMD_HASH_CHECKED))
        return SBX_HASH_PENDING;
    if (c->flags & SBX_CMD_HASH_VERIFIED)
        return SBX_HASH_VERIFIED;
    return e->findings & SBX_F_HASH_MISMATCH ? SBX_HASH_MISMATCH : SBX_HASH_ERROR;
}

enum sbx_hash_state sbx_hash_check(const struct sbx_timeline *tl, const struct sbx_event *e,
                                   EVP_MD_CTX *ctx, const EVP_MD *sha256, struct sbx_buf *scratch,
                                   const char **decoded, size_t *decoded_len)
{
    const struct sbx_command *c = &e->u.cmd;
    if (decoded)
        *decoded = NULL;
    if (e->kind != SBX_EV_COMMAND || !(c->flags & SBX_CMD_HASH_PRESENT))
        return SBX_HASH_NONE;
    const char *raw = sbx_text_raw(tl, e, &c->out);
    if (has_clip_mark(raw, sbx_text_len(&c->out), c->out.flags & SBX_TEXT_ESCAPED))
        return SBX_HASH_CLIPPED;
    size_t len;
    const char *out = sbx_text_get(tl, e, &c->out, scratch, &len);
    if (decoded) {
        *decoded = out;
        *decoded_len = len;
    }
    EVP_MD_CTX *own = ctx ? NULL : EVP_MD_CTX_new();
    const EVP_MD *md_type = sha256 ? sha256 : EVP_sha256();
    if (!ctx)
        ctx = own;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    bool ok = ctx && EVP_DigestInit_ex2(ctx, md_type, NULL) && EVP_DigestUpdate(ctx, out, len) &&
              EVP_DigestFinal_ex(ctx, md, &mdlen) && mdlen >= 8;
    EVP_MD_CTX_free(own);
    if (!ok)
        return SBX_HASH_ERROR;
    uint64_t first8 = 0;
    for (int i = 0; i < 8; i++)
        first8 = first8 << 8 | md[i];
    return first8 == c->stdout_hash ? SBX_HASH_VERIFIED : SBX_HASH_MISMATCH;
}
