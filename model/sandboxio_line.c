/* sandboxio's lines read again for the views, with the model's JSON walker. */
#include <string.h>

#include "base/buf.h"
#include "base/jsonstr.h"
#include "base/jsonwalk.h"
#include "model/sandboxio_line.h"

/* The keys the event itself keeps (or the detail shows on its own). */
static bool kept_by_event(const char *key, size_t klen)
{
    static const char *const kept[] = {"ts",        "event",       "sandbox_id",      "argv",
                                       "exit_code", "duration_ms", "network_denials", "code"};
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        if (sbx_jwk_key_is(key, klen, kept[i]))
            return true;
    return false;
}

/* The object the line holds, past leading blanks: its '{', or NULL. */
static const char *object_of(const char *line, size_t len)
{
    const char *p = line, *end = line + len;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p < end && *p == '{' && sbx_jwk_value_end(p, end) ? p : NULL;
}

static void call_with(const char *key, size_t klen, const char *v, const char *vend,
                      sbx_sandboxio_field_fn fn, void *ctx)
{
    /* decoded text is never longer than its escaped form */
    struct sbx_buf k = SBX_BUF_INIT, s = SBX_BUF_INIT;
    sbx_buf_reserve(&k, klen + 1);
    size_t kn = sbx_jstr_decode(key, klen, k.p);
    const char *body;
    size_t n;
    if (sbx_jwk_string(v, vend, &body, &n)) {
        sbx_buf_reserve(&s, n + 1);
        fn(ctx, k.p, kn, s.p, sbx_jstr_decode(body, n, s.p), true);
    } else {
        fn(ctx, k.p, kn, v, (size_t)(vend - v), false);
    }
    sbx_buf_free(&k);
    sbx_buf_free(&s);
}

bool sbx_sandboxio_extras(const char *line, size_t len, sbx_sandboxio_field_fn fn, void *ctx)
{
    const char *obj = object_of(line, len);
    if (!obj)
        return false;
    struct sbx_jwk w;
    sbx_jwk_begin(&w, obj, line + len);
    const char *key, *v, *vend;
    size_t klen;
    while (sbx_jwk_next(&w, &key, &klen, &v, &vend))
        if (!kept_by_event(key, klen))
            call_with(key, klen, v, vend, fn, ctx);
    return true;
}

bool sbx_sandboxio_code(const char *line, size_t len, sbx_sandboxio_field_fn fn, void *ctx)
{
    const char *obj = object_of(line, len), *v, *vend, *body;
    size_t n;
    if (!obj || !sbx_jwk_member(obj, line + len, "code", &v, &vend) ||
        !sbx_jwk_string(v, vend, &body, &n))
        return false;
    call_with("code", 4, v, vend, fn, ctx);
    return true;
}
