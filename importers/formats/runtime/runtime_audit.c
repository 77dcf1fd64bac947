/* What an audit entry changed, as facts (model/event.h's struct sbx_audit):
 * the family by the action's group, the fields of its detail that family
 * has, and for anything else the detail flattened. A secret's value is
 * never read; a flattened member whose key names a credential is kept as
 * its key only. The words are made in analyses/audit_change.c. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "importers/formats/runtime/runtime_impl.h"
#include "analyses/secrets/secrets.h"

/* Bounds on what one entry keeps: a hostile detail may be huge. */
enum {
    LIST_BYTES = 2048,  /* a list of hosts, joined */
    FLAT_BYTES = 1024,  /* the flattened detail */
    FLAT_VALUE = 96,    /* one flattened value */
    FLAT_DEPTH = 4,     /* nested objects followed */
};

static bool prefixed(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static enum sbx_audit_family family_of(const char *action)
{
    if (prefixed(action, "network."))
        return SBX_AUDIT_NETWORK;
    if (prefixed(action, "key."))
        return SBX_AUDIT_KEY;
    if (prefixed(action, "secret."))
        return SBX_AUDIT_SECRET;
    if (prefixed(action, "preview."))
        return SBX_AUDIT_PREVIEW;
    return SBX_AUDIT_OTHER;
}

/* Adds s[0..n) to b, a line break in it written as a space (lines part
 * the items). */
static void add_item(struct sbx_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sbx_buf_addc(b, s[i] == '\n' || s[i] == '\0' ? ' ' : s[i]);
}

static uint32_t intern_buf(struct sbx_rt_state *st, const struct sbx_buf *b)
{
    return b->len ? sbx_strtab_intern(&st->tl->strings, b->p, b->len) : 0;
}

/* A list of hosts: the strings, one a line, within LIST_BYTES; *count is
 * every string; a member of another type is bad. */
static uint32_t host_list(struct sbx_rt_state *st, json_t *v, uint16_t *count, uint8_t *aflags,
                          bool *bad)
{
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_array(v)) {
        *bad = true;
        return 0;
    }
    struct sbx_buf b = SBX_BUF_INIT;
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *h = json_array_get(v, i);
        if (!json_is_string(h) || json_string_length(h) == 0) {
            *bad = true;
            continue;
        }
        n++;
        size_t len = json_string_length(h);
        if (b.len + len + 1 > LIST_BYTES) {
            *aflags |= SBX_AUDIT_CUT;
            continue;
        }
        if (b.len)
            sbx_buf_addc(&b, '\n');
        size_t at = b.len;
        add_item(&b, json_string_value(h), len);
        for (size_t k = at; k < b.len; k++) /* host names are case-insensitive */
            if (b.p[k] >= 'A' && b.p[k] <= 'Z')
                b.p[k] = (char)(b.p[k] - 'A' + 'a');
    }
    *count = n > UINT16_MAX ? UINT16_MAX : (uint16_t)n;
    uint32_t id = intern_buf(st, &b);
    sbx_buf_free(&b);
    return id;
}

/* A string member by either spelling, interned; a value of another type is bad. */
static uint32_t member(struct sbx_rt_state *st, json_t *o, const char *camel, const char *snake,
                       bool *bad)
{
    return json_is_object(o) ? sbx_rt_string(st, sbx_rt_get(o, camel, snake), bad) : 0;
}

static bool target_is(json_t *target, const char *type)
{
    json_t *t = json_is_object(target) ? json_object_get(target, "type") : NULL;
    return json_is_string(t) && strcmp(json_string_value(t), type) == 0;
}

static uint32_t target_id(struct sbx_rt_state *st, json_t *target, const char *type, bool *bad)
{
    return target_is(target, type) ? sbx_rt_string(st, json_object_get(target, "id"), bad) : 0;
}

static void network(struct sbx_rt_state *st, struct sbx_audit *a, json_t *detail, bool *bad)
{
    json_t *allow = json_object_get(detail, "allow");
    if (allow && !json_is_object(allow) && !json_is_null(allow))
        *bad = true;
    if (json_is_object(allow)) {
        a->a = host_list(st, json_object_get(allow, "added"), &a->n_added, &a->aflags, bad);
        a->b = host_list(st, json_object_get(allow, "removed"), &a->n_removed, &a->aflags, bad);
    }
    json_t *proxy = sbx_rt_get(detail, "upstreamProxy", "upstream_proxy");
    if (proxy && json_is_null(proxy)) {
        a->aflags |= SBX_AUDIT_PROXY_UNSET;
    } else if (json_is_object(proxy)) {
        a->c = member(st, proxy, "url", NULL, bad);
        if (!a->c)
            a->c = member(st, proxy, "host", NULL, bad);
        a->aflags |= SBX_AUDIT_PROXY_SET;
    } else if (json_is_string(proxy)) {
        a->c = sbx_rt_string(st, proxy, bad);
        a->aflags |= SBX_AUDIT_PROXY_SET;
    } else if (proxy) {
        *bad = true;
    }
}

static void preview(struct sbx_rt_state *st, struct sbx_audit *a, json_t *detail, bool *bad)
{
    json_t *vis = json_object_get(detail, "visibility");
    json_t *o = json_is_object(vis) ? vis : detail;
    a->a = member(st, o, "from", NULL, bad);
    a->b = member(st, o, "to", NULL, bad);
    if (!a->b && json_is_string(vis)) /* "visibility": the new one, "previousVisibility": the old */
        a->b = sbx_rt_string(st, vis, bad);
    if (!a->a)
        a->a = member(st, detail, "previousVisibility", "previous_visibility", bad);
}

/* Whether a member's key names a credential: its value is not kept. */
static bool secret_key(const char *k)
{
    static const char *const words[] = {"value", "secret", "password", "passwd", "token",
                                        "credential", "private"};
    char low[64];
    size_t n = 0;
    for (; k[n] && n < sizeof low - 1; n++)
        low[n] = (char)tolower((unsigned char)k[n]);
    low[n] = '\0';
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strstr(low, words[i]))
            return true;
    return false;
}

struct flat {
    struct sbx_buf b;
    size_t members; /* every leaf met */
    bool cut;
};

/* s[0..n) appended to b, at most max bytes of it: a longer one is redacted
 * first (analyses/secrets/secrets.h), so the cut never leaves the readable
 * start of a credential behind, then cut at a character and marked. */
static void add_bounded(struct sbx_buf *b, const char *s, size_t n, size_t max)
{
    if (n <= max) {
        sbx_buf_add(b, s, n);
        return;
    }
    struct sbx_buf red = SBX_BUF_INIT;
    sbx_secrets_redact_any(s, n, &red);
    size_t keep = red.len < max ? red.len : max;
    while (keep > 0 && keep < red.len && ((unsigned char)red.p[keep] & 0xC0) == 0x80)
        keep--; /* not inside a character */
    sbx_buf_add(b, red.p, keep);
    if (keep < red.len)
        sbx_buf_adds(b, "…");
    sbx_buf_free(&red);
}

static void value_text(struct sbx_buf *b, json_t *v)
{
    if (json_is_string(v)) {
        add_item(b, json_string_value(v), json_string_length(v));
    } else if (json_is_array(v)) {
        sbx_buf_addc(b, '[');
        for (size_t i = 0; i < json_array_size(v) && b->len < 4 * FLAT_VALUE; i++) {
            if (i)
                sbx_buf_adds(b, ", ");
            json_t *x = json_array_get(v, i);
            if (json_is_object(x) || json_is_array(x))
                sbx_buf_adds(b, json_is_object(x) ? "{…}" : "[…]");
            else
                value_text(b, x);
        }
        sbx_buf_addc(b, ']');
    } else if (json_is_integer(v)) {
        sbx_buf_addf(b, "%lld", (long long)json_integer_value(v));
    } else if (json_is_real(v)) {
        sbx_buf_addf(b, "%g", json_real_value(v));
    } else if (json_is_boolean(v)) {
        sbx_buf_adds(b, json_is_true(v) ? "true" : "false");
    } else {
        sbx_buf_adds(b, "null");
    }
}

static void flat_value(struct flat *f, json_t *v)
{
    struct sbx_buf t = SBX_BUF_INIT;
    value_text(&t, v);
    add_bounded(&f->b, t.p ? t.p : "", t.len, FLAT_VALUE);
    sbx_buf_free(&t);
}

static void flat_member(struct flat *f, const char *key, size_t klen, const char *k, json_t *v);

static void flatten(struct flat *f, json_t *o, const char *prefix, int depth)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v)
    {
        struct sbx_buf key = SBX_BUF_INIT;
        sbx_buf_addf(&key, "%s%s%s", prefix, prefix[0] ? "." : "", k);
        if (json_is_object(v) && depth < FLAT_DEPTH && json_object_size(v)) {
            flatten(f, v, key.p, depth + 1);
            sbx_buf_free(&key);
            continue;
        }
        flat_member(f, key.p, key.len, k, v);
        sbx_buf_free(&key);
    }
}

/* One leaf: "key=value", or the key alone when it names a credential. */
static void flat_member(struct flat *f, const char *key, size_t klen, const char *k, json_t *v)
{
    f->members++;
    if (f->cut || f->b.len >= FLAT_BYTES) {
        f->cut = true;
        return;
    }
    if (f->b.len)
        sbx_buf_addc(&f->b, '\n');
    struct sbx_buf line = SBX_BUF_INIT;
    add_item(&line, key, klen);
    add_bounded(&f->b, line.p, line.len, FLAT_VALUE);
    sbx_buf_free(&line);
    if (secret_key(k)) {
        sbx_buf_adds(&f->b, " (not shown)");
        return;
    }
    sbx_buf_addc(&f->b, '=');
    if (json_is_object(v))
        sbx_buf_adds(&f->b, json_object_size(v) ? "{…}" : "{}");
    else
        flat_value(f, v);
}

static void other(struct sbx_rt_state *st, struct sbx_audit *a, json_t *detail)
{
    a->family = SBX_AUDIT_OTHER;
    a->a = a->b = a->c = 0;
    a->n_added = a->n_removed = 0;
    a->aflags = 0;
    if (!json_is_object(detail))
        return;
    struct flat f = {SBX_BUF_INIT, 0, false};
    flatten(&f, detail, "", 0);
    a->a = intern_buf(st, &f.b);
    a->n_added = f.members > UINT16_MAX ? UINT16_MAX : (uint16_t)f.members;
    if (f.cut)
        a->aflags |= SBX_AUDIT_CUT;
    sbx_buf_free(&f.b);
}

void sbx_rt_audit_change(struct sbx_rt_state *st, struct sbx_audit *a, const char *action,
                         json_t *detail, json_t *target, bool *bad)
{
    if (detail && !json_is_null(detail) && !json_is_object(detail)) {
        *bad = true;
        detail = NULL;
    }
    if (json_is_null(detail))
        detail = NULL;
    a->family = (uint8_t)family_of(action);
    switch (a->family) {
    case SBX_AUDIT_NETWORK:
        if (detail)
            network(st, a, detail, bad);
        break;
    case SBX_AUDIT_KEY:
        a->a = target_id(st, target, "key", bad);
        if (!a->a)
            a->a = member(st, detail, "keyId", "key_id", bad);
        a->b = member(st, detail, "role", NULL, bad);
        break;
    case SBX_AUDIT_SECRET: /* the name only: a value given is never read */
        a->a = member(st, detail, "name", NULL, bad);
        if (!a->a)
            a->a = target_id(st, target, "secret", bad);
        break;
    case SBX_AUDIT_PREVIEW:
        if (detail)
            preview(st, a, detail, bad);
        break;
    default: break;
    }
    /* a known family whose fields are not there says what the detail does */
    if (!a->a && !a->b && !a->c && !(a->aflags & (SBX_AUDIT_PROXY_SET | SBX_AUDIT_PROXY_UNSET)) &&
        a->family != SBX_AUDIT_SECRET)
        other(st, a, detail);
}
