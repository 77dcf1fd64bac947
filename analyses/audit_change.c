/* An audit entry's change and who made it, in words (analyses/audit_change.h). */
#include "analyses/audit_change.h"

#include <strings.h>
#include <string.h>

static const char *str(const struct sbx_timeline *tl, uint32_t id)
{
    return sbx_str(tl, id);
}

/* The items of a "\n"-separated list, each after sign, ", " between. */
static size_t list(struct sbx_buf *out, const char *items, const char *sign, bool first)
{
    size_t n = 0;
    for (const char *p = items; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        sbx_buf_adds(out, first && n == 0 ? "" : ", ");
        sbx_buf_adds(out, sign);
        sbx_buf_add(out, p, len);
        n++;
        p += len + (nl ? 1 : 0);
    }
    return n;
}

/* The part of the action after its group ("key.created": "created"), with
 * '_' as a space. */
static void verb(struct sbx_buf *out, const char *action)
{
    const char *dot = strchr(action, '.');
    for (const char *p = dot ? dot + 1 : action; *p; p++)
        sbx_buf_addc(out, *p == '_' ? ' ' : *p);
}

static void network(const struct sbx_timeline *tl, const struct sbx_audit *a, struct sbx_buf *out)
{
    bool any = false;
    if (a->a || a->b) {
        sbx_buf_adds(out, "allow list: ");
        size_t shown = list(out, str(tl, a->a), "+ ", true);
        shown += list(out, str(tl, a->b), "- ", shown == 0);
        size_t all = (size_t)a->n_added + a->n_removed;
        if (all > shown)
            sbx_buf_addf(out, " and %zu more", all - shown);
        any = true;
    }
    if (a->aflags & SBX_AUDIT_PROXY_SET) {
        sbx_buf_adds(out, any ? "; " : "");
        sbx_buf_adds(out, "upstream proxy set");
        if (a->c) {
            sbx_buf_adds(out, " to ");
            sbx_buf_adds(out, str(tl, a->c));
        }
    } else if (a->aflags & SBX_AUDIT_PROXY_UNSET) {
        sbx_buf_adds(out, any ? "; " : "");
        sbx_buf_adds(out, "upstream proxy unset");
    }
}

static void other(const struct sbx_timeline *tl, const struct sbx_event *e, struct sbx_buf *out)
{
    const struct sbx_audit *a = e->u.audit;
    const char *flat = str(tl, a->a);
    sbx_buf_adds(out, str(tl, e->label));
    if (!flat[0]) {
        sbx_buf_adds(out, " (no detail)");
        return;
    }
    sbx_buf_adds(out, ": ");
    size_t shown = 0;
    for (const char *p = flat; *p; shown++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (shown)
            sbx_buf_adds(out, ", ");
        sbx_buf_add(out, p, len);
        p += len + (nl ? 1 : 0);
    }
    if (a->n_added > shown)
        sbx_buf_addf(out, " and %zu more", (size_t)a->n_added - shown);
}

void sbx_audit_change_words(const struct sbx_timeline *tl, const struct sbx_event *e,
                            struct sbx_buf *out)
{
    const struct sbx_audit *a = e->u.audit;
    const char *action = str(tl, e->label);
    switch (a->family) {
    case SBX_AUDIT_NETWORK: network(tl, a, out); return;
    case SBX_AUDIT_KEY:
        sbx_buf_adds(out, "key ");
        verb(out, action);
        if (a->a) {
            sbx_buf_adds(out, ": ");
            sbx_buf_adds(out, str(tl, a->a));
        }
        if (a->b) {
            sbx_buf_adds(out, " (role ");
            sbx_buf_adds(out, str(tl, a->b));
            sbx_buf_adds(out, ")");
        }
        return;
    case SBX_AUDIT_SECRET:
        sbx_buf_adds(out, "secret ");
        verb(out, action);
        sbx_buf_adds(out, a->a ? ": " : " (its name not given)");
        sbx_buf_adds(out, str(tl, a->a));
        return;
    case SBX_AUDIT_PREVIEW:
        sbx_buf_adds(out, "preview visibility:");
        if (a->a) {
            sbx_buf_adds(out, " from ");
            sbx_buf_adds(out, str(tl, a->a));
        }
        sbx_buf_adds(out, " to ");
        sbx_buf_adds(out, a->b ? str(tl, a->b) : "(not given)");
        return;
    default: other(tl, e, out); return;
    }
}

void sbx_audit_who_words(const struct sbx_timeline *tl, const struct sbx_event *e,
                         struct sbx_buf *out)
{
    const struct sbx_audit *a = e->u.audit;
    size_t start = out->len;
    if (a->inside) {
        sbx_buf_adds(out, "from inside sandbox ");
        sbx_buf_adds(out, str(tl, a->inside));
    }
    if (a->actor) {
        sbx_buf_adds(out, out->len > start ? " by " : "by ");
        sbx_buf_adds(out, str(tl, a->actor));
        if (a->person && a->person != a->actor) {
            sbx_buf_adds(out, " (");
            sbx_buf_adds(out, str(tl, a->person));
            sbx_buf_adds(out, ")");
        }
    }
    if (a->ip) {
        sbx_buf_adds(out, out->len > start ? " from " : "from ");
        sbx_buf_adds(out, str(tl, a->ip));
    }
    if (a->request) {
        sbx_buf_adds(out, out->len > start ? ", request " : "request ");
        sbx_buf_adds(out, str(tl, a->request));
    }
}

void sbx_audit_words(const struct sbx_timeline *tl, const struct sbx_event *e, struct sbx_buf *out)
{
    sbx_audit_change_words(tl, e, out);
    size_t before = out->len;
    sbx_buf_adds(out, ", ");
    size_t mark = out->len;
    sbx_audit_who_words(tl, e, out);
    if (out->len == mark)
        out->len = before; /* nobody named */
}

bool sbx_audit_adds_host(const struct sbx_timeline *tl, const struct sbx_event *e,
                         const char *host, size_t n)
{
    if (e->kind != SBX_EV_AUDIT || e->u.audit->family != SBX_AUDIT_NETWORK || !n)
        return false;
    for (const char *p = str(tl, e->u.audit->a); *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == n && strncasecmp(p, host, n) == 0)
            return true;
        p += len + (nl ? 1 : 0);
    }
    return false;
}
