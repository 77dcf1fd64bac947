#include "model/spans.h"

#include <stdlib.h>
#include <string.h>

#include "base/hex.h"

bool sbx_span_event(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    const char *f = tl->sources[e->source].format;
    return f && strcmp(f, SBX_OTLP_FORMAT) == 0;
}

static bool hex64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = sbx_hex_digit(s[i]);
        if (d < 0)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return true;
}

/* The string member key of the object as hex of exactly digits digits: 1,
 * 0 when absent or empty, -1 when it is something else. */
static int hex_member(const char *key, const char *k, size_t klen, const char *v, const char *vend,
                      size_t digits, uint64_t *hi, uint64_t *lo)
{
    if (!sbx_jwk_key_is(k, klen, key))
        return -2;
    const char *body;
    size_t n;
    if (!sbx_jwk_string(v, vend, &body, &n))
        return -1;
    if (n == 0)
        return 0;
    if (n != digits)
        return -1;
    if (digits == 32)
        return hex64(body, 16, hi) && hex64(body + 16, 16, lo) ? 1 : -1;
    return hex64(body, 16, lo) ? 1 : -1;
}

bool sbx_span_ids_parse(const char *json, size_t len, struct sbx_span_ids *ids)
{
    memset(ids, 0, sizeof *ids);
    struct sbx_jwk w;
    sbx_jwk_begin(&w, json, json + len);
    if (w.close != '}')
        return false;
    const char *k, *v, *vend;
    size_t klen;
    int trace = 0, span = 0, parent = 0;
    bool parent_seen = false;
    /* the ids come first in every writer's output: stop once all three are read */
    while ((!trace || !span || !parent_seen) && sbx_jwk_next(&w, &k, &klen, &v, &vend)) {
        int r;
        uint64_t unused = 0;
        if ((r = hex_member("traceId", k, klen, v, vend, 32, &ids->trace_hi, &ids->trace_lo)) != -2)
            trace = r;
        else if ((r = hex_member("spanId", k, klen, v, vend, 16, &unused, &ids->span)) != -2)
            span = r;
        else if ((r = hex_member("parentSpanId", k, klen, v, vend, 16, &unused, &ids->parent)) != -2) {
            parent = r;
            parent_seen = true;
        }
    }
    ids->has_parent = parent == 1;
    return trace == 1 && span == 1;
}

/* An open-addressing table of (trace, span) -> node index. */
struct idtab {
    uint32_t *slot; /* node index + 1; 0 empty */
    size_t mask;
};

static size_t id_hash(uint64_t hi, uint64_t lo, uint64_t span)
{
    uint64_t h = (hi * 0x9E3779B97F4A7C15ull) ^ (lo * 0xC2B2AE3D27D4EB4Full) ^ span;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return (size_t)(h ^ (h >> 32));
}

static void idtab_init(struct idtab *t, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    t->slot = sbx_xcalloc(cap, sizeof *t->slot);
    t->mask = cap - 1;
}

/* The index stored under the ids, or SBX_SPAN_NONE; with insert, stores
 * idx when absent. */
static uint32_t idtab_find(struct idtab *t, const struct sbx_span_ids *ids, uint64_t span,
                           const struct sbx_span_ids *all, uint32_t insert)
{
    size_t i = id_hash(ids->trace_hi, ids->trace_lo, span) & t->mask;
    for (;; i = (i + 1) & t->mask) {
        uint32_t s = t->slot[i];
        if (!s) {
            if (insert != SBX_SPAN_NONE)
                t->slot[i] = insert + 1;
            return SBX_SPAN_NONE;
        }
        const struct sbx_span_ids *o = &all[s - 1];
        if (o->span == span && o->trace_hi == ids->trace_hi && o->trace_lo == ids->trace_lo)
            return s - 1;
    }
}

/* Counts distinct traces: a table of the first node of each. */
static size_t count_traces(const struct sbx_span_ids *ids, const bool *ok, size_t n)
{
    struct idtab t;
    idtab_init(&t, n);
    size_t traces = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ok[i])
            continue;
        size_t h = id_hash(ids[i].trace_hi, ids[i].trace_lo, 0) & t.mask;
        for (;; h = (h + 1) & t.mask) {
            uint32_t s = t.slot[h];
            if (!s) {
                t.slot[h] = (uint32_t)i + 1;
                traces++;
                break;
            }
            if (ids[s - 1].trace_hi == ids[i].trace_hi && ids[s - 1].trace_lo == ids[i].trace_lo)
                break;
        }
    }
    free(t.slot);
    return traces;
}

/* Cuts loops of parents: walking up from each node, a node met again on the
 * same walk closes a loop, and the link into it is cut. */
static void cut_cycles(struct sbx_spans *s)
{
    uint8_t *state = sbx_xcalloc(s->n, 1); /* 0 new, 1 on this walk, 2 done */
    uint32_t *path = NULL;
    size_t npath = 0, cap = 0;
    for (size_t i = 0; i < s->n; i++) {
        npath = 0;
        uint32_t j = (uint32_t)i;
        while (j != SBX_SPAN_NONE && state[j] == 0) {
            state[j] = 1;
            SBX_GROW(path, npath, cap);
            path[npath++] = j;
            j = s->nodes[j].parent;
        }
        if (j != SBX_SPAN_NONE && state[j] == 1) {
            struct sbx_span_node *last = &s->nodes[path[npath - 1]];
            last->parent = SBX_SPAN_NONE;
            last->flags |= SBX_SPAN_CYCLE;
            s->cycles++;
        }
        for (size_t k = 0; k < npath; k++)
            state[path[k]] = 2;
    }
    free(path);
    free(state);
}

static void link_children(struct sbx_spans *s)
{
    uint32_t *last = sbx_xmalloc((s->n ? s->n : 1) * sizeof *last);
    for (size_t i = 0; i < s->n; i++)
        last[i] = SBX_SPAN_NONE;
    s->roots = sbx_xmalloc((s->n ? s->n : 1) * sizeof *s->roots);
    for (size_t i = 0; i < s->n; i++) {
        struct sbx_span_node *nd = &s->nodes[i];
        if (nd->parent == SBX_SPAN_NONE) {
            s->roots[s->nroots++] = (uint32_t)i;
            continue;
        }
        if (last[nd->parent] == SBX_SPAN_NONE)
            s->nodes[nd->parent].first_child = (uint32_t)i;
        else
            s->nodes[last[nd->parent]].next_sibling = (uint32_t)i;
        last[nd->parent] = (uint32_t)i;
    }
    free(last);
    /* depths in pre-order from each root; then, backwards, the counts of
     * spans beneath (a child comes after its parent in pre-order) */
    uint32_t *pre = sbx_xmalloc(s->n * sizeof *pre);
    size_t k = 0;
    for (size_t r = 0; r < s->nroots; r++) {
        uint32_t top = s->roots[r];
        pre[k++] = top;
        for (uint32_t c = sbx_spans_next_in(s, top, top); c != SBX_SPAN_NONE;
             c = sbx_spans_next_in(s, top, c)) {
            s->nodes[c].depth = s->nodes[s->nodes[c].parent].depth + 1;
            pre[k++] = c;
        }
    }
    while (k--) {
        const struct sbx_span_node *nd = &s->nodes[pre[k]];
        if (nd->parent != SBX_SPAN_NONE)
            s->nodes[nd->parent].descendants += nd->descendants + 1;
    }
    free(pre);
}

void sbx_spans_build(const struct sbx_timeline *tl, struct sbx_spans *out)
{
    memset(out, 0, sizeof *out);
    /* spans come from OTLP sources only: which they are, once (none loaded:
     * no walk over the events at all) */
    bool *otlp = sbx_xcalloc(tl->nsources ? tl->nsources : 1, sizeof *otlp);
    bool any = false;
    for (size_t s = 0; s < tl->nsources; s++) {
        const char *f = tl->sources[s].format;
        any |= otlp[s] = f && strcmp(f, SBX_OTLP_FORMAT) == 0;
    }
    size_t cap = 0;
    for (size_t i = 0; any && i < tl->n; i++) {
        if (!otlp[sbx_tl_at(tl, i)->source])
            continue;
        SBX_GROW(out->nodes, out->n, cap);
        out->nodes[out->n++] = (struct sbx_span_node){
            .event = sbx_tl_at(tl, i), .parent = SBX_SPAN_NONE, .first_child = SBX_SPAN_NONE,
            .next_sibling = SBX_SPAN_NONE};
    }
    free(otlp);
    if (!out->n)
        return;
    struct sbx_span_ids *ids = sbx_xmalloc(out->n * sizeof *ids);
    bool *ok = sbx_xmalloc(out->n * sizeof *ok);
    struct idtab t;
    idtab_init(&t, out->n);
    for (size_t i = 0; i < out->n; i++) {
        const struct sbx_event *e = out->nodes[i].event;
        ok[i] = sbx_span_ids_parse(sbx_event_line(tl, e), sbx_ev_line_len(e), &ids[i]);
        if (!ok[i])
            out->nodes[i].flags |= SBX_SPAN_NO_IDS;
        else if (idtab_find(&t, &ids[i], ids[i].span, ids, (uint32_t)i) != SBX_SPAN_NONE)
            out->nodes[i].flags |= SBX_SPAN_DUPLICATE;
    }
    for (size_t i = 0; i < out->n; i++) {
        if (!ok[i] || !ids[i].has_parent)
            continue;
        uint32_t p = idtab_find(&t, &ids[i], ids[i].parent, ids, SBX_SPAN_NONE);
        if (p == SBX_SPAN_NONE) {
            out->nodes[i].flags |= SBX_SPAN_ORPHAN;
            out->orphans++;
        } else {
            out->nodes[i].parent = p; /* p == i is a loop of one: cut below */
        }
    }
    out->traces = count_traces(ids, ok, out->n);
    free(t.slot);
    free(ids);
    free(ok);
    cut_cycles(out);
    link_children(out);
}

void sbx_spans_free(struct sbx_spans *s)
{
    free(s->nodes);
    free(s->roots);
    memset(s, 0, sizeof *s);
}

uint32_t sbx_spans_find(const struct sbx_spans *s, const struct sbx_event *e)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sbx_event_cmp(s->nodes[mid].event, e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* events that compare equal (one line's spans with one start) sit together */
    for (size_t i = lo; i < s->n && sbx_event_cmp(s->nodes[i].event, e) == 0; i++)
        if (s->nodes[i].event == e)
            return (uint32_t)i;
    return SBX_SPAN_NONE;
}

uint32_t sbx_spans_next_in(const struct sbx_spans *s, uint32_t top, uint32_t cur)
{
    if (s->nodes[cur].first_child != SBX_SPAN_NONE)
        return s->nodes[cur].first_child;
    while (cur != top && cur != SBX_SPAN_NONE) {
        if (s->nodes[cur].next_sibling != SBX_SPAN_NONE)
            return s->nodes[cur].next_sibling;
        cur = s->nodes[cur].parent;
    }
    return SBX_SPAN_NONE;
}

uint32_t sbx_spans_agent_of(const struct sbx_spans *s, uint32_t node)
{
    for (uint32_t a = s->nodes[node].parent; a != SBX_SPAN_NONE; a = s->nodes[a].parent)
        if (s->nodes[a].event->kind == SBX_EV_SPAN)
            return a;
    return SBX_SPAN_NONE;
}

static const char *value_kind(const char *k, size_t klen)
{
    static const char *const kinds[][2] = {
        {"stringValue", "string"}, {"intValue", "int"},       {"boolValue", "bool"},
        {"doubleValue", "double"}, {"arrayValue", "array"},   {"kvlistValue", "kvlist"},
        {"bytesValue", "bytes"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (sbx_jwk_key_is(k, klen, kinds[i][0]))
            return kinds[i][1];
    return NULL;
}

void sbx_span_attrs_begin(struct sbx_jwk *it, const char *json, size_t len)
{
    const char *v = NULL, *vend = NULL;
    if (!sbx_jwk_member(json, json + len, "attributes", &v, &vend))
        v = vend = json + len;
    sbx_jwk_begin(it, v, vend);
}

bool sbx_span_attrs_next(struct sbx_jwk *it, struct sbx_span_attr *a)
{
    const char *e, *eend;
    while (sbx_jwk_next(it, NULL, NULL, &e, &eend)) {
        const char *kv, *kvend, *vv, *vvend;
        if (!sbx_jwk_member(e, eend, "key", &kv, &kvend) || !sbx_jwk_string(kv, kvend, &a->key, &a->key_len))
            continue;
        a->kind = "empty";
        a->val = a->val_end = NULL;
        if (sbx_jwk_member(e, eend, "value", &vv, &vvend)) {
            struct sbx_jwk w;
            sbx_jwk_begin(&w, vv, vvend);
            const char *k, *x, *xend;
            size_t klen;
            while (sbx_jwk_next(&w, &k, &klen, &x, &xend)) {
                const char *kind = value_kind(k, klen);
                if (kind) {
                    a->kind = kind;
                    a->val = x;
                    a->val_end = xend;
                    break;
                }
            }
        }
        return true;
    }
    return false;
}

bool sbx_span_resource(const char *data, size_t size, uint64_t span_off, const char **res,
                       const char **res_end)
{
    if (span_off >= size)
        return false;
    const char *at = data + span_off, *line = at;
    while (line > data && line[-1] != '\n')
        line--;
    const char *nl = memchr(at, '\n', (size_t)(data + size - at));
    const char *end = nl ? nl : data + size;
    while (line < end && (*line == ' ' || *line == '\t'))
        line++;
    const char *list, *list_end;
    if (!sbx_jwk_member(line, end, "resourceSpans", &list, &list_end))
        return false;
    struct sbx_jwk w;
    sbx_jwk_begin(&w, list, list_end);
    const char *e, *eend;
    while (sbx_jwk_next(&w, NULL, NULL, &e, &eend))
        if (e <= at && at < eend)
            return sbx_jwk_member(e, eend, "resource", res, res_end);
    return false;
}
