#include "render/views/spans.h"

#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/jsonstr.h"
#include "base/jsonwalk.h"
#include "analyses/secrets/secrets.h"
#include "model/spans.h"
#include "base/timefmt.h"
#include "render/summary/summary_common.h"

enum { TREE_MAX = 5000, INDENT_MAX = 20 };

/* Log text, redacted with the summary's patterns, sanitised by the doc. */
static void untrusted(struct sbx_doc *d, struct sbx_rows_look *l, enum sbx_style style,
                      const char *s, size_t n)
{
    if (l->scratch) {
        sbx_buf_clear(&l->red);
        sbx_secrets_redact(l->sum->patterns, l->scratch, s, n, &l->red);
        s = l->red.p ? l->red.p : "";
        n = l->red.len;
    }
    sbx_doc_untrusted(d, style, s, n, true);
}

/* A JSON value as text to show: a string decoded, anything else as written
 * (an intValue given as a string loses its quotes too). */
static void value_text(const char *v, const char *vend, struct sbx_buf *out)
{
    sbx_buf_clear(out);
    const char *body;
    size_t n;
    if (!v)
        return;
    if (sbx_jwk_string(v, vend, &body, &n)) {
        sbx_buf_reserve(out, n);
        out->len = sbx_jstr_decode(body, n, out->p);
        out->p[out->len] = '\0';
    } else {
        sbx_buf_add(out, v, (size_t)(vend - v));
    }
}

/* The value of member key of the object [obj, end) as text; false when absent. */
static bool member_text(const char *obj, const char *end, const char *key, struct sbx_buf *out)
{
    const char *v, *vend;
    if (!sbx_jwk_member(obj, end, key, &v, &vend))
        return false;
    value_text(v, vend, out);
    return true;
}

/* What a span's attributes say of its failure and its denials, in words
 * ("error.type timeout, 2 connections refused by the sandbox"). */
static void evidence(const char *json, size_t len, struct sbx_buf *out)
{
    struct sbx_jwk it;
    struct sbx_span_attr a;
    struct sbx_buf v = SBX_BUF_INIT;
    sbx_span_attrs_begin(&it, json, len);
    while (sbx_span_attrs_next(&it, &a)) {
        bool err = sbx_jwk_key_is(a.key, a.key_len, "error.type");
        bool den = sbx_jwk_key_is(a.key, a.key_len, "sandboxio.network_denials");
        if (!err && !den)
            continue;
        value_text(a.val, a.val_end, &v);
        if (den && (v.len == 0 || strcmp(v.p, "0") == 0))
            continue;
        sbx_buf_adds(out, out->len ? ", " : "");
        if (err)
            sbx_buf_addf(out, "error.type %s", v.p ? v.p : "");
        else
            sbx_buf_addf(out, "%s connection%s refused by the sandbox", v.p,
                         strcmp(v.p, "1") == 0 ? "" : "s");
    }
    sbx_buf_free(&v);
}

/* One span of a tree: mark, start, duration, indent, kind, exit, and what
 * it is, in the finding's style when it has one. */
static void tree_line(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e,
                      uint32_t depth)
{
    char mark, clock[16], dur[SBX_TIME_BUFSZ] = "";
    enum sbx_style fstyle = sbx_finding_look(e->findings, &mark);
    sbx_doc_set_indent(d, 0);
    sbx_doc_addf(d, fstyle, "%c ", mark);
    sbx_doc_addf(d, SBX_STYLE_TIME, "%s ", sbx_clock(e->start, l->local, clock));
    if (e->start != SBX_TIME_UNKNOWN && e->end != SBX_TIME_UNKNOWN && e->end >= e->start)
        sbx_duration_text(e->end - e->start, SBX_DUR_WORDS, dur);
    sbx_doc_addf(d, SBX_STYLE_DURATION, "%8s ", dur);
    int indent = 2 * (int)(depth < INDENT_MAX ? depth : INDENT_MAX);
    sbx_doc_set_indent(d, 34 + indent);
    sbx_doc_addf(d, SBX_STYLE_NORMAL, "%*s", indent, "");
    sbx_doc_addf(d, SBX_STYLE_KIND, "%c ", sbx_kind_mark((enum sbx_kind)e->kind));
    char exit[16] = "";
    if (e->kind == SBX_EV_COMMAND && (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN))
        snprintf(exit, sizeof exit, "%d", (int)sbx_cmd_exit(&e->u.cmd));
    else if (e->kind == SBX_EV_COMMAND)
        snprintf(exit, sizeof exit, "?");
    bool bad = e->findings & (SBX_F_FAILED | SBX_F_TIMED_OUT);
    sbx_doc_addf(d, bad ? fstyle : SBX_STYLE_EXIT_OK, "%4s ", exit);
    enum sbx_style tstyle = e->findings ? fstyle
                            : e->kind == SBX_EV_NOTE ? SBX_STYLE_NOTE : SBX_STYLE_NORMAL;
    const char *label = sbx_str(l->tl, e->label);
    if (e->kind != SBX_EV_COMMAND)
        sbx_doc_addf(d, tstyle, "%s ", sbx_kind_name((enum sbx_kind)e->kind));
    untrusted(d, l, tstyle, label, strlen(label));
    if (e->kind == SBX_EV_COMMAND) {
        size_t n;
        struct sbx_buf tmp = SBX_BUF_INIT;
        const char *s = sbx_text_get(l->tl, e, &e->u.cmd.command, &tmp, &n);
        sbx_doc_adds(d, tstyle, ": ");
        untrusted(d, l, tstyle, s, n);
        sbx_buf_free(&tmp);
    }
    if (e->findings & (SBX_F_FAILED | SBX_F_REFUSED_HOST)) {
        struct sbx_buf ev = SBX_BUF_INIT;
        evidence(sbx_event_line(l->tl, e), sbx_ev_line_len(e), &ev);
        if (ev.len) {
            sbx_doc_adds(d, fstyle, " [");
            untrusted(d, l, fstyle, ev.p, ev.len);
            sbx_doc_adds(d, fstyle, "]");
        }
        sbx_buf_free(&ev);
    }
    sbx_doc_end_line(d);
}

static void tree(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_spans *sp,
                 uint32_t top)
{
    const struct sbx_span_node *t = &sp->nodes[top];
    if (!t->descendants)
        return;
    size_t tools = 0, failed = 0, refused = 0;
    for (uint32_t c = sbx_spans_next_in(sp, top, top); c != SBX_SPAN_NONE;
         c = sbx_spans_next_in(sp, top, c)) {
        const struct sbx_event *e = sp->nodes[c].event;
        tools += e->kind == SBX_EV_COMMAND;
        failed += e->kind == SBX_EV_COMMAND && (e->findings & (SBX_F_FAILED | SBX_F_TIMED_OUT));
        refused += (e->findings & SBX_F_REFUSED_HOST) != 0;
    }
    char what[160];
    snprintf(what, sizeof what, "Spans beneath it: %u (%zu tool call%s, %zu failed, %zu refused network)",
             t->descendants, tools, tools == 1 ? "" : "s", failed, refused);
    sbx_doc_heading(d, what);
    size_t shown = 0;
    for (uint32_t c = sbx_spans_next_in(sp, top, top); c != SBX_SPAN_NONE;
         c = sbx_spans_next_in(sp, top, c)) {
        if (shown++ == TREE_MAX) {
            sbx_doc_addf(d, SBX_STYLE_NOTE, "... and %zu more", (size_t)t->descendants - TREE_MAX);
            sbx_doc_end_line(d);
            break;
        }
        tree_line(d, l, sp->nodes[c].event, sp->nodes[c].depth - t->depth - 1);
    }
}

static const char *status_name(const char *code)
{
    if (strcmp(code, "0") == 0 || strcmp(code, "STATUS_CODE_UNSET") == 0)
        return "unset";
    if (strcmp(code, "1") == 0 || strcmp(code, "STATUS_CODE_OK") == 0)
        return "OK";
    if (strcmp(code, "2") == 0 || strcmp(code, "STATUS_CODE_ERROR") == 0)
        return "ERROR";
    return NULL;
}

static void status_field(struct sbx_doc *d, struct sbx_rows_look *l, const char *json, size_t len)
{
    const char *st, *stend;
    struct sbx_buf code = SBX_BUF_INIT, msg = SBX_BUF_INIT;
    if (!sbx_jwk_member(json, json + len, "status", &st, &stend) ||
        !member_text(st, stend, "code", &code)) {
        sbx_buf_free(&code);
        return;
    }
    const char *name = status_name(code.p);
    sbx_doc_field(d, "Status");
    if (name)
        sbx_doc_adds(d, strcmp(name, "ERROR") == 0 ? SBX_STYLE_FAILED : SBX_STYLE_NORMAL, name);
    else
        untrusted(d, l, SBX_STYLE_WARNING, code.p, code.len);
    if (member_text(st, stend, "message", &msg) && msg.len) {
        sbx_doc_adds(d, SBX_STYLE_NORMAL, ": ");
        untrusted(d, l, SBX_STYLE_NORMAL, msg.p, msg.len);
    }
    sbx_doc_end_line(d);
    sbx_buf_free(&code);
    sbx_buf_free(&msg);
}

/* "Trace" with the span's own id after it. */
static void id_fields(struct sbx_doc *d, struct sbx_rows_look *l, const char *json, size_t len)
{
    struct sbx_buf v = SBX_BUF_INIT;
    if (member_text(json, json + len, "traceId", &v)) {
        sbx_doc_field(d, "Trace");
        untrusted(d, l, SBX_STYLE_NORMAL, v.p ? v.p : "", v.len);
        if (member_text(json, json + len, "spanId", &v)) {
            sbx_doc_adds(d, SBX_STYLE_NOTE, ", span ");
            untrusted(d, l, SBX_STYLE_NORMAL, v.p ? v.p : "", v.len);
        }
        sbx_doc_end_line(d);
    }
    sbx_buf_free(&v);
}

/* The span's name and its kind (internal, server, client ...). */
static void name_field(struct sbx_doc *d, struct sbx_rows_look *l, const char *json, size_t len)
{
    static const char *const kinds[] = {"unspecified", "internal", "server", "client", "producer", "consumer"};
    struct sbx_buf v = SBX_BUF_INIT;
    sbx_doc_field(d, "Span");
    if (member_text(json, json + len, "name", &v))
        untrusted(d, l, SBX_STYLE_NORMAL, v.p ? v.p : "", v.len);
    if (member_text(json, json + len, "kind", &v)) {
        int k = v.len == 1 && v.p[0] >= '0' && v.p[0] <= '5' ? v.p[0] - '0' : -1;
        sbx_doc_adds(d, SBX_STYLE_NOTE, " (");
        if (k >= 0)
            sbx_doc_adds(d, SBX_STYLE_NOTE, kinds[k]);
        else
            untrusted(d, l, SBX_STYLE_NOTE, v.p ? v.p : "", v.len);
        sbx_doc_adds(d, SBX_STYLE_NOTE, ")");
    }
    sbx_doc_end_line(d);
    sbx_buf_free(&v);
}

static void service_field(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_source *src = &l->tl->sources[e->source];
    const char *res, *res_end;
    if (!sbx_span_resource(src->data, src->size, e->line_off, &res, &res_end))
        return;
    struct sbx_jwk it;
    struct sbx_span_attr a;
    struct sbx_buf v = SBX_BUF_INIT;
    sbx_span_attrs_begin(&it, res, (size_t)(res_end - res));
    while (sbx_span_attrs_next(&it, &a)) {
        if (!sbx_jwk_key_is(a.key, a.key_len, "service.name"))
            continue;
        value_text(a.val, a.val_end, &v);
        sbx_doc_field(d, "Service");
        untrusted(d, l, SBX_STYLE_NORMAL, v.p ? v.p : "", v.len);
        sbx_doc_end_line(d);
        break;
    }
    sbx_buf_free(&v);
}

static void span_ref(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *p)
{
    char clock[16];
    const char *label = sbx_str(l->tl, p->label);
    sbx_doc_addf(d, SBX_STYLE_NORMAL, "%s ", sbx_kind_name((enum sbx_kind)p->kind));
    untrusted(d, l, SBX_STYLE_NORMAL, label, strlen(label));
    sbx_doc_addf(d, SBX_STYLE_NOTE, " (started %s, ", sbx_clock(p->start, l->local, clock));
    const char *path = sbx_display_path(l->tl->sources[p->source].path);
    untrusted(d, l, SBX_STYLE_NOTE, path, strlen(path));
    sbx_doc_addf(d, SBX_STYLE_NOTE, ":%u)", sbx_ev_line_no(p));
}

static void parent_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_spans *sp,
                          uint32_t node, const char *json, size_t len)
{
    const struct sbx_span_node *nd = &sp->nodes[node];
    if (nd->parent != SBX_SPAN_NONE) {
        const struct sbx_event *p = sp->nodes[nd->parent].event;
        sbx_doc_field(d, p->kind == SBX_EV_SPAN ? "Agent" : "Parent");
        span_ref(d, l, p);
        sbx_doc_end_line(d);
        uint32_t agent = sbx_spans_agent_of(sp, node);
        if (agent != SBX_SPAN_NONE && agent != nd->parent) {
            sbx_doc_field(d, "Agent");
            span_ref(d, l, sp->nodes[agent].event);
            sbx_doc_end_line(d);
        }
    } else if (nd->flags & (SBX_SPAN_ORPHAN | SBX_SPAN_CYCLE)) {
        struct sbx_buf v = SBX_BUF_INIT;
        member_text(json, json + len, "parentSpanId", &v);
        sbx_doc_field(d, "Parent");
        untrusted(d, l, SBX_STYLE_WARNING, v.p ? v.p : "", v.len);
        sbx_doc_adds(d, SBX_STYLE_WARNING, nd->flags & SBX_SPAN_ORPHAN
                                               ? " not loaded: an orphan, shown as a root"
                                               : " closes a loop of parents: shown as a root");
        sbx_doc_end_line(d);
        sbx_buf_free(&v);
    } else {
        sbx_doc_field(d, "Parent");
        sbx_doc_adds(d, SBX_STYLE_NOTE, "none (a root span)");
        sbx_doc_end_line(d);
    }
    if (nd->flags & SBX_SPAN_DUPLICATE) {
        sbx_doc_field(d, "");
        sbx_doc_adds(d, SBX_STYLE_WARNING, "another span with the same ids came first: it has the children");
        sbx_doc_end_line(d);
    }
}

static void attributes(struct sbx_doc *d, struct sbx_rows_look *l, const char *json, size_t len)
{
    struct sbx_jwk it;
    struct sbx_span_attr a;
    struct sbx_buf key = SBX_BUF_INIT, v = SBX_BUF_INIT;
    size_t n = 0;
    sbx_span_attrs_begin(&it, json, len);
    while (sbx_span_attrs_next(&it, &a)) {
        if (n++ == 0)
            sbx_doc_heading(d, "Attributes");
        sbx_buf_clear(&key);
        sbx_buf_reserve(&key, a.key_len);
        key.len = sbx_jstr_decode(a.key, a.key_len, key.p);
        value_text(a.val, a.val_end, &v);
        bool err = strcmp(a.kind, "string") == 0 && key.len == 10 && memcmp(key.p, "error.type", 10) == 0;
        bool den = key.len == 25 && memcmp(key.p, "sandboxio.network_denials", 25) == 0 && v.len &&
                   strcmp(v.p, "0") != 0;
        sbx_doc_set_indent(d, 4);
        untrusted(d, l, SBX_STYLE_FIELD, key.p, key.len);
        sbx_doc_adds(d, SBX_STYLE_NOTE, " = ");
        untrusted(d, l, err ? SBX_STYLE_FAILED : den ? SBX_STYLE_REFUSED : SBX_STYLE_NORMAL,
                  v.p ? v.p : "", v.len);
        if (strcmp(a.kind, "string") != 0)
            sbx_doc_addf(d, SBX_STYLE_NOTE, " (%s)", a.kind);
        sbx_doc_end_line(d);
    }
    sbx_buf_free(&key);
    sbx_buf_free(&v);
}

void sbx_span_detail(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    if (!sbx_span_event(l->tl, e))
        return;
    const char *json = sbx_event_line(l->tl, e);
    size_t len = sbx_ev_line_len(e);
    name_field(d, l, json, len);
    status_field(d, l, json, len);
    if (e->findings & (SBX_F_FAILED | SBX_F_REFUSED_HOST)) {
        struct sbx_buf ev = SBX_BUF_INIT;
        evidence(json, len, &ev);
        if (ev.len) {
            char mark;
            sbx_doc_field(d, "Evidence");
            untrusted(d, l, sbx_finding_look(e->findings, &mark), ev.p, ev.len);
            if (e->findings & SBX_F_REFUSED_HOST)
                sbx_doc_adds(d, SBX_STYLE_NOTE, " (its policy names no host)");
            sbx_doc_end_line(d);
        }
        sbx_buf_free(&ev);
    }
    service_field(d, l, e);
    id_fields(d, l, json, len);
    const struct sbx_spans *sp = l->sum ? &l->sum->spans : NULL;
    uint32_t node = sp ? sbx_spans_find(sp, e) : SBX_SPAN_NONE;
    if (node != SBX_SPAN_NONE)
        parent_fields(d, l, sp, node, json, len);
    /* the tree first: for an agent it is what the reader came for */
    if (node != SBX_SPAN_NONE)
        tree(d, l, sp, node);
    attributes(d, l, json, len);
}
