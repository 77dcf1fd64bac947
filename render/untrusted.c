#include "render/untrusted.h"

#include <string.h>

#include "analyses/secrets/secrets.h"
#include "render/sanitize.h"

const char *sbx_untrusted_redact(struct sbx_buf *tmp, const char *s, size_t n, size_t *len)
{
    sbx_buf_clear(tmp);
    sbx_secrets_redact_any(s, n, tmp);
    *len = tmp->len;
    return tmp->p ? tmp->p : "";
}

/* Redacted again after sanitising (as render/md.c does): an escape can hide
 * a token's first bytes from the raw text, and sanitising can join pieces
 * into one. The cut comes last; sanitised text is a fixed point, so cutting
 * it is sanitising it once more with max_cols. */
bool sbx_untrusted_text(struct sbx_buf *out, const char *s, size_t n, unsigned flags, int max_cols)
{
    struct sbx_buf red = SBX_BUF_INIT, safe = SBX_BUF_INIT;
    size_t len;
    const char *r = sbx_untrusted_redact(&red, s, n, &len);
    bool hidden = sbx_sanitize(&safe, r, len, flags, 0);
    r = sbx_untrusted_redact(&red, safe.p ? safe.p : "", safe.len, &len);
    if (max_cols > 0)
        sbx_sanitize(out, r, len, flags, max_cols);
    else
        sbx_buf_add(out, r, len);
    sbx_buf_free(&safe);
    sbx_buf_free(&red);
    return hidden;
}

bool sbx_untrusted_cstr(struct sbx_buf *out, const char *s, unsigned flags, int max_cols)
{
    return sbx_untrusted_text(out, s, strlen(s), flags, max_cols);
}

void sbx_untrusted_json(struct sbx_jsonw *w, const char *s, size_t n)
{
    struct sbx_buf red = SBX_BUF_INIT;
    size_t len;
    const char *r = sbx_untrusted_redact(&red, s, n, &len);
    sbx_jw_string(w, r, len);
    sbx_buf_free(&red);
}

void sbx_untrusted_json_cstr(struct sbx_jsonw *w, const char *s)
{
    if (!s)
        sbx_jw_null(w);
    else
        sbx_untrusted_json(w, s, strlen(s));
}
