#include "render/md.h"

#include "render/sanitize.h"

size_t sbx_md_backtick_run(const char *s, size_t n)
{
    size_t longest = 0, run = 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    return longest;
}

/* With the caller's patterns, or without them the shared ones: markdown
 * never holds log text unredacted. */
static void redact(const char *s, size_t n, const struct sbx_secrets *secrets,
                   struct sbx_secrets_scratch *scratch, struct sbx_buf *out)
{
    if (secrets && scratch)
        sbx_secrets_redact(secrets, scratch, s, n, out);
    else
        sbx_secrets_redact_any(s, n, out);
}

/* Redacted before sanitising too: an escape sequence can swallow a
 * token's first bytes ("ESC ghp_…" is ESC SP g, then "hp_…"), so only the
 * raw text shows the whole token; and after, for what sanitising joins. */
static void clean(struct sbx_buf *out, const char *s, size_t n, unsigned flags,
                  const struct sbx_secrets *secrets, struct sbx_secrets_scratch *scratch)
{
    struct sbx_buf raw = SBX_BUF_INIT, safe = SBX_BUF_INIT;
    if (n) {
        redact(s, n, secrets, scratch, &raw);
        s = raw.p;
        n = raw.len;
    }
    sbx_sanitize(&safe, s, n, flags, 0);
    if (safe.len)
        redact(safe.p, safe.len, secrets, scratch, out);
    sbx_buf_free(&raw);
    sbx_buf_free(&safe);
}

static void fence(struct sbx_buf *out, size_t k)
{
    for (size_t i = 0; i < k; i++)
        sbx_buf_addc(out, '`');
}

void sbx_md_code(struct sbx_buf *out, const char *s, size_t n, bool ascii,
                 const struct sbx_secrets *secrets, struct sbx_secrets_scratch *scratch)
{
    struct sbx_buf t = SBX_BUF_INIT;
    clean(&t, s, n, SBX_SAN_ONE_LINE | (ascii ? SBX_SAN_ASCII : 0u), secrets, scratch);
    size_t k = sbx_md_backtick_run(t.p, t.len) + 1;
    fence(out, k);
    /* a space keeps a leading or trailing backtick from joining the fence */
    bool pad = t.len && (t.p[0] == '`' || t.p[t.len - 1] == '`' || t.p[0] == ' ');
    if (pad)
        sbx_buf_addc(out, ' ');
    if (t.len)
        sbx_buf_add(out, t.p, t.len);
    else
        sbx_buf_adds(out, " ");
    if (pad)
        sbx_buf_addc(out, ' ');
    fence(out, k);
    sbx_buf_free(&t);
}

void sbx_md_block(struct sbx_buf *out, const char *s, size_t n, const struct sbx_secrets *secrets,
                  struct sbx_secrets_scratch *scratch)
{
    struct sbx_buf t = SBX_BUF_INIT;
    clean(&t, s, n, 0, secrets, scratch);
    size_t k = sbx_md_backtick_run(t.p, t.len) + 1;
    if (k < 3)
        k = 3;
    fence(out, k);
    sbx_buf_addc(out, '\n');
    if (t.len) {
        sbx_buf_add(out, t.p, t.len);
        if (t.p[t.len - 1] != '\n')
            sbx_buf_addc(out, '\n');
    }
    fence(out, k);
    sbx_buf_addc(out, '\n');
    sbx_buf_free(&t);
}
