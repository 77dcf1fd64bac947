/* Runtime's saved shapes: finding the items (each with its own bytes and
 * line) in JSONL, arrays, pages and pages per line, printed on one line or
 * over many; detection; the format tables. Item readers: runtime_items.c,
 * runtime_webhook.c. */
#include "importers/formats/runtime/runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/json/jsonerr.h"
#include "importers/json/jsonload.h"
#include "importers/formats/runtime/runtime_impl.h"
#include "importers/formats/runtime/runtime_span.h"

/* Detection reads at most this much of a file, and looks at this many items. */
enum { DETECT_BYTES = 64 << 20, DETECT_TRIES = 50, DETECT_ITEMS = 8 };


void *sbx_rt_state_new(struct sbx_timeline *tl, uint32_t source, const struct sbx_rt_kind *kind,
                       const struct sbx_import_opts *opts)
{
    struct sbx_rt_state *st = sbx_xcalloc(1, sizeof *st);
    st->tl = tl;
    st->source = source;
    st->base = tl->sources[source].data;
    st->kind = kind;
    if (kind == &sbx_rt_webhooks)
        sbx_webhook_secrets_parse(&st->secrets, opts->webhook_secrets);
    return st;
}

void sbx_rt_state_free(void *state)
{
    struct sbx_rt_state *st = state;
    sbx_webhook_secrets_free(&st->secrets);
    free(st);
}

uint32_t sbx_rt_line_of(struct sbx_rt_state *st, const char *p)
{
    while (st->at < p) {
        const char *nl = memchr(st->at, '\n', (size_t)(p - st->at));
        if (!nl) {
            st->at = p;
            break;
        }
        st->line++;
        st->at = nl + 1;
    }
    return st->line;
}

static void skip_at(struct sbx_rt_state *st, struct sbx_evbuf *out, uint32_t line, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));

static void skip_at(struct sbx_rt_state *st, struct sbx_evbuf *out, uint32_t line, const char *fmt,
                    ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    sbx_evbuf_skip(out, st->tl, st->source, line, "%s", reason);
}

void sbx_rt_skip(struct sbx_rt_state *st, struct sbx_evbuf *out, const char *p, const char *fmt, ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    sbx_evbuf_skip(out, st->tl, st->source, sbx_rt_line_of(st, p), "%s", reason);
}

struct sbx_event *sbx_rt_push(struct sbx_rt_state *st, struct sbx_evbuf *out, const char *text,
                              size_t len)
{
    return sbx_evbuf_push_from(out, st->source, (uint64_t)(text - st->base), len,
                               sbx_rt_line_of(st, text));
}

bool sbx_rt_member(const char *text, size_t len, const char *key, const char **v, const char **vend)
{
    struct sbx_rt_iter it;
    sbx_rt_iter_begin(&it, text, text + len);
    const char *k, *mv, *mvend;
    size_t klen;
    bool found = false;
    /* the last of a key given twice, the one jansson's tree holds */
    while (sbx_rt_iter_next(&it, &k, &klen, &mv, &mvend))
        if (sbx_rt_key_is(k, klen, key)) {
            *v = mv;
            *vend = mvend;
            found = true;
        }
    return found;
}

/* jansson's tree of text[0..len) (importers/json/jsonload.h: what it met in
 * *facts), or NULL with the reason: where, as a byte of the line (a line of
 * JSONL) or as a line (a file read whole). */
static json_t *parse(struct sbx_rt_state *st, const char *line_start, const char *text, size_t len,
                     unsigned *facts, char *reason, size_t reasonsz)
{
    json_error_t e;
    json_t *v = sbx_json_load(text, len, 0, facts, &e);
    if (v)
        return v;
    size_t pos = e.position < 0 ? 0 : (size_t)e.position > len ? len : (size_t)e.position;
    if (line_start)
        snprintf(reason, reasonsz, "not JSON: %s (byte %zu)", sbx_json_problem(&e),
                 (size_t)(text + pos - line_start) + (pos < len));
    else
        snprintf(reason, reasonsz, "not JSON: %s (line %u)", sbx_json_problem(&e),
                 sbx_rt_line_of(st, text + pos));
    return NULL;
}

/* An object is one item when it has all its kind's keys; otherwise, with a
 * "data" or "events" array, a page of them. */
static bool has_item_keys(const struct sbx_rt_kind *k, json_t *o)
{
    for (int i = 0; i < 3 && k->sig[i][0]; i++)
        if (!sbx_rt_get(o, k->sig[i][0], k->sig[i][1]))
            return false;
    return true;
}

static json_t *page_items(const struct sbx_rt_kind *k, json_t *o, const char **key)
{
    if (has_item_keys(k, o))
        return NULL;
    static const char *const keys[] = {"data", "events"};
    for (int i = 0; i < 2; i++) {
        json_t *a = json_object_get(o, keys[i]);
        if (json_is_array(a)) {
            *key = keys[i];
            return a;
        }
    }
    return NULL;
}

enum { TOP, IN_ARRAY, IN_PAGE };

static bool import_value(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *x,
                         const char *text, size_t len, int depth, char *reason, size_t reasonsz);

/* The elements of the list [v, vend) whose tree is arr; one that cannot be
 * read is a skip at its line. */
static void import_list(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *arr, const char *v,
                        const char *vend, int depth)
{
    struct sbx_rt_iter it;
    sbx_rt_iter_begin(&it, v, vend);
    const char *e, *eend;
    char reason[200];
    for (size_t i = 0; sbx_rt_iter_next(&it, NULL, NULL, &e, &eend); i++) {
        json_t *x = json_array_get(arr, i);
        if (!x)
            break; /* cannot happen: jansson has validated the same bytes */
        reason[0] = '\0';
        uint32_t line = sbx_rt_line_of(st, e);
        if (!import_value(st, out, x, e, (size_t)(eend - e), depth, reason, sizeof reason))
            skip_at(st, out, line, "%s", reason);
    }
}

/* The value x (the tree of text[0..len)): an item, a page, or at the top an
 * array of items or pages. False only for an item that cannot be read. */
static bool import_value(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *x,
                         const char *text, size_t len, int depth, char *reason, size_t reasonsz)
{
    if (json_is_array(x)) {
        if (depth != TOP) {
            snprintf(reason, reasonsz, "not a %s: an array inside a list", st->kind->name);
            return false;
        }
        import_list(st, out, x, text, text + len, IN_ARRAY);
        return true;
    }
    if (!json_is_object(x)) {
        snprintf(reason, reasonsz, "not a %s: not a JSON object", st->kind->name);
        return false;
    }
    const char *key;
    json_t *items = depth != IN_PAGE ? page_items(st->kind, x, &key) : NULL;
    if (items) {
        const char *v, *vend;
        if (sbx_rt_member(text, len, key, &v, &vend))
            import_list(st, out, items, v, vend, IN_PAGE);
        return true;
    }
    return st->kind->item(st, out, x, text, len, reason, reasonsz);
}

static bool blank_byte(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

enum sbx_line_status sbx_rt_line(void *state, struct sbx_evbuf *out, const char *line, size_t len,
                                 uint64_t off, uint32_t line_no, char *reason, size_t reasonsz)
{
    (void)off; /* offsets come from the line's place in the source */
    struct sbx_rt_state *st = state;
    const char *p = line, *end = line + len;
    while (p < end && blank_byte(*p))
        p++;
    while (end > p && blank_byte(end[-1]))
        end--;
    if (p == end)
        return SBX_LINE_BLANK;
    st->at = line;
    st->line = line_no;
    if (*p != '{' && *p != '[') {
        snprintf(reason, reasonsz, "not JSON: the line is no object or array");
        return SBX_LINE_BAD;
    }
    unsigned facts;
    json_t *v = parse(st, line, p, (size_t)(end - p), &facts, reason, reasonsz);
    if (!v)
        return SBX_LINE_BAD;
    size_t from = out->n;
    bool ok = import_value(st, out, v, p, (size_t)(end - p), TOP, reason, reasonsz);
    sbx_jload_mark(out, from, facts);
    json_decref(v);
    return ok ? SBX_LINE_OK : SBX_LINE_BAD;
}

bool sbx_rt_spans_lines(const char *data, size_t size)
{
    const char *end = data + size, *p = sbx_rt_skip_ws(data, end);
    if (p == end || (*p != '{' && *p != '['))
        return false;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
        return false;
    const char *at;
    /* the newline is part of what is scanned: one inside a string is broken
       JSONL, not a value that goes on */
    return sbx_rt_value_end(p, nl + 1, &at) == SBX_RT_SPAN_SHORT;
}

/* The first byte of the next line after p's that starts (past blanks) an
 * object or an array, or end. */
static const char *next_value_line(const char *p, const char *end)
{
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return end;
        p = nl + 1;
        while (p < end && blank_byte(*p))
            p++;
        if (p < end && (*p == '{' || *p == '['))
            return p;
    }
    return end;
}

/* Where a whole-file read stands. Failed scans are charged to a budget of
 * bytes: a file of values that never end cannot make the read quadratic. */
struct whole {
    struct sbx_rt_state *st;
    struct sbx_evbuf *out;
    const char *end;
    size_t budget;
};

/* A value at p that the structure scan could not end (failed at `at`):
 * reported at its first line; true when reading may go on. */
static bool broken(struct whole *w, const char *p, enum sbx_rt_span s, const char *at)
{
    /* the end of the file is on its last line, not on one after its last newline */
    if (p == w->end)
        p--;
    if (at == w->end)
        at--;
    uint32_t first = sbx_rt_line_of(w->st, p);
    size_t cost = (size_t)(at - p);
    if (s == SBX_RT_SPAN_SHORT)
        skip_at(w->st, w->out, first,
                "the JSON text that starts here never ends (the file may be cut short)");
    else
        skip_at(w->st, w->out, first, "not JSON: an unexpected byte on line %u",
                sbx_rt_line_of(w->st, at));
    if (cost >= w->budget) {
        skip_at(w->st, w->out, sbx_rt_line_of(w->st, at),
                "the rest of the file is not read: too much of it is broken JSON");
        return false;
    }
    w->budget -= cost;
    return true;
}

/* The elements of the array at open (within limit) one by one, so that a
 * long list read whole never holds more than one element's tree and a
 * broken element leaves the ones before it loaded. True when the array is
 * well formed, with *resume just past it; false after a broken element
 * (reported), with *resume where reading may go on, or NULL to stop. */
static bool elements(struct whole *w, const char *open, const char *limit, int depth,
                     const char **resume)
{
    struct sbx_rt_state *st = w->st;
    struct sbx_rt_iter it;
    sbx_rt_iter_begin(&it, open, limit);
    const char *e, *eend;
    char reason[200];
    while (sbx_rt_iter_next(&it, NULL, NULL, &e, &eend)) {
        reason[0] = '\0';
        uint32_t line = sbx_rt_line_of(st, e); /* before a parse error moves on */
        json_t *x = NULL;
        unsigned facts = 0;
        if (*e != '{' && *e != '[')
            snprintf(reason, sizeof reason, "not a %s: not a JSON object", st->kind->name);
        else
            x = parse(st, NULL, e, (size_t)(eend - e), &facts, reason, sizeof reason);
        size_t from = w->out->n;
        if (!x || !import_value(st, w->out, x, e, (size_t)(eend - e), depth, reason, sizeof reason))
            skip_at(st, w->out, line, "%s", reason);
        sbx_jload_mark(w->out, from, facts);
        json_decref(x);
    }
    if (it.status == SBX_RT_SPAN_OK) {
        *resume = it.p;
        return true;
    }
    /* the element that failed starts after the last good one and its comma */
    const char *q = sbx_rt_skip_ws(it.p, limit);
    if (q < limit && *q == ',')
        q = sbx_rt_skip_ws(q + 1, limit);
    if (q > it.err_at)
        q = it.err_at;
    *resume = broken(w, q, it.status, it.err_at) ? next_value_line(q, w->end) : NULL;
    return false;
}

/* A page ([p, vend), its structure scanned) read an item at a time: its
 * envelope (the page with its list emptied) is validated on its own, then
 * each item, so that a long page never becomes one tree and a broken item
 * costs only itself. False, having read nothing, when it is no page (or its
 * envelope is not valid: then the page is read whole, and fails whole). */
static bool page_by_items(struct whole *w, const char *p, const char *vend, const char **resume)
{
    struct sbx_rt_iter it;
    sbx_rt_iter_begin(&it, p, vend);
    const char *key, *v, *ve, *list = NULL, *list_end = NULL, *list_key = NULL;
    size_t klen;
    while (sbx_rt_iter_next(&it, &key, &klen, &v, &ve)) {
        bool events = sbx_rt_key_is(key, klen, "events");
        if (*v == '[' && (events || sbx_rt_key_is(key, klen, "data"))) {
            list = v;
            list_end = ve;
            list_key = events ? "events" : "data";
        }
    }
    if (it.status != SBX_RT_SPAN_OK || !list)
        return false;
    struct sbx_buf env = SBX_BUF_INIT;
    sbx_buf_add(&env, p, (size_t)(list - p));
    sbx_buf_adds(&env, "[]");
    sbx_buf_add(&env, list_end, (size_t)(vend - list_end));
    unsigned facts;
    json_t *o = sbx_json_load(env.p, env.len, 0, &facts, NULL);
    sbx_buf_free(&env);
    const char *k = NULL;
    bool page = json_is_object(o) && page_items(w->st->kind, o, &k) && strcmp(k, list_key) == 0;
    json_decref(o);
    if (!page)
        return false;
    const char *r;
    size_t from = w->out->n;
    *resume = elements(w, list, list_end, IN_PAGE, &r) || r ? vend : NULL;
    sbx_jload_mark(w->out, from, facts); /* a key the envelope gives twice */
    return true;
}

void sbx_rt_file(void *state, struct sbx_evbuf *out, const char *data, size_t size, uint64_t off)
{
    (void)off;
    struct sbx_rt_state *st = state;
    st->at = data;
    st->line = 1;
    struct whole w = {st, out, data + size, 4 * size + (1u << 20)};
    const char *p = data;
    bool recovering = false; /* after a broken value, its stray ',' ']' '}' are no news */
    char reason[200];
    while (p) {
        p = sbx_rt_skip_ws(p, w.end);
        if (p == w.end)
            break;
        if (*p == '[') {
            recovering = !elements(&w, p, w.end, IN_ARRAY, &p);
            continue;
        }
        if (*p != '{') {
            if (recovering && (*p == ',' || *p == ']' || *p == '}')) {
                p++;
                continue;
            }
            sbx_rt_skip(st, out, p, "not JSON: text outside any object or array");
            recovering = true;
            p = next_value_line(p, w.end);
            continue;
        }
        const char *vend;
        enum sbx_rt_span s = sbx_rt_value_end(p, w.end, &vend);
        if (s != SBX_RT_SPAN_OK) {
            /* from the next line: the items of a broken page still load */
            recovering = true;
            p = broken(&w, p, s, vend) ? next_value_line(p, w.end) : NULL;
            continue;
        }
        recovering = false;
        if (page_by_items(&w, p, vend, &p))
            continue;
        uint32_t line = sbx_rt_line_of(st, p);
        unsigned facts;
        json_t *v = parse(st, NULL, p, (size_t)(vend - p), &facts, reason, sizeof reason);
        size_t from = out->n;
        if (!v || !import_value(st, out, v, p, (size_t)(vend - p), TOP, reason, sizeof reason))
            skip_at(st, out, line, "%s", reason);
        sbx_jload_mark(out, from, facts);
        json_decref(v);
        p = vend;
    }
}

/* Detection: the first item that can be read decides. */
enum verdict { UNKNOWN, MATCH, NOMATCH };

static bool valid_json(const char *p, const char *end)
{
    json_t *v = sbx_json_load(p, (size_t)(end - p), 0, NULL, NULL);
    json_decref(v);
    return v != NULL;
}

static enum verdict classify(const struct sbx_rt_kind *k, const char *o, const char *oend,
                             int depth)
{
    struct sbx_rt_iter it;
    sbx_rt_iter_begin(&it, o, oend);
    bool sig[3] = {false, false, false}, next = false, events_list = false;
    const char *list = NULL, *list_end = NULL, *key, *v, *vend;
    size_t klen;
    while (sbx_rt_iter_next(&it, &key, &klen, &v, &vend)) {
        for (int i = 0; i < 3 && k->sig[i][0]; i++)
            if (sbx_rt_key_is(key, klen, k->sig[i][0]) ||
                (k->sig[i][1] && sbx_rt_key_is(key, klen, k->sig[i][1])))
                sig[i] = true;
        bool is_events = sbx_rt_key_is(key, klen, "events");
        if ((is_events || sbx_rt_key_is(key, klen, "data")) && *v == '[') {
            list = v;
            list_end = vend;
            events_list = is_events;
        }
        next |= sbx_rt_key_is(key, klen, "next");
    }
    if (it.status != SBX_RT_SPAN_OK)
        return UNKNOWN;
    bool all = true;
    for (int i = 0; i < 3 && k->sig[i][0]; i++)
        all &= sig[i];
    if (all)
        return valid_json(o, oend) ? MATCH : UNKNOWN;
    if (!list || depth == IN_PAGE)
        return NOMATCH;
    struct sbx_rt_iter items;
    sbx_rt_iter_begin(&items, list, list_end);
    const char *e, *eend;
    bool any = false;
    for (int n = 0; n < DETECT_ITEMS && sbx_rt_iter_next(&items, NULL, NULL, &e, &eend); n++) {
        any = true;
        enum verdict r = *e == '{' ? classify(k, e, eend, IN_PAGE) : UNKNOWN;
        if (r != UNKNOWN)
            return r;
    }
    if (!any && k->audit_envelope && events_list && next && valid_json(o, oend))
        return MATCH; /* an empty page of the audit log */
    return UNKNOWN;
}

bool sbx_rt_detect(const struct sbx_rt_kind *kind, const char *data, size_t size)
{
    const char *end = data + (size < DETECT_BYTES ? size : DETECT_BYTES), *p = data;
    for (int tries = 0; tries < DETECT_TRIES; tries++) {
        p = sbx_rt_skip_ws(p, end);
        if (p == end)
            break;
        enum verdict r = UNKNOWN;
        const char *next = NULL;
        if (*p == '{') {
            const char *vend;
            if (sbx_rt_value_end(p, end, &vend) == SBX_RT_SPAN_OK) {
                r = classify(kind, p, vend, TOP);
                next = vend;
            }
        } else if (*p == '[') {
            struct sbx_rt_iter it;
            sbx_rt_iter_begin(&it, p, end);
            const char *e, *eend;
            int n = 0;
            while (r == UNKNOWN && n++ < DETECT_ITEMS && sbx_rt_iter_next(&it, NULL, NULL, &e, &eend))
                if (*e == '{')
                    r = classify(kind, e, eend, IN_ARRAY);
            if (it.done && it.status == SBX_RT_SPAN_OK)
                next = it.p;
        }
        if (r != UNKNOWN)
            return r == MATCH;
        p = next ? next : next_value_line(p, end);
    }
    return false;
}

static void *commands_new(struct sbx_timeline *tl, uint32_t source,
                          const struct sbx_import_opts *opts)
{
    return sbx_rt_state_new(tl, source, &sbx_rt_commands, opts);
}
static bool commands_detect(const char *data, size_t size)
{
    return sbx_rt_detect(&sbx_rt_commands, data, size);
}
static void *events_new(struct sbx_timeline *tl, uint32_t source,
                        const struct sbx_import_opts *opts)
{
    return sbx_rt_state_new(tl, source, &sbx_rt_events, opts);
}
static bool events_detect(const char *data, size_t size)
{
    return sbx_rt_detect(&sbx_rt_events, data, size);
}
static void *audit_new(struct sbx_timeline *tl, uint32_t source,
                       const struct sbx_import_opts *opts)
{
    return sbx_rt_state_new(tl, source, &sbx_rt_audit, opts);
}
static bool audit_detect(const char *data, size_t size)
{
    return sbx_rt_detect(&sbx_rt_audit, data, size);
}
static void *metrics_new(struct sbx_timeline *tl, uint32_t source,
                         const struct sbx_import_opts *opts)
{
    return sbx_rt_state_new(tl, source, &sbx_rt_metrics, opts);
}
static bool metrics_detect(const char *data, size_t size)
{
    return sbx_rt_detect(&sbx_rt_metrics, data, size);
}
static void *webhooks_new(struct sbx_timeline *tl, uint32_t source,
                          const struct sbx_import_opts *opts)
{
    return sbx_rt_state_new(tl, source, &sbx_rt_webhooks, opts);
}
static bool webhooks_detect(const char *data, size_t size)
{
    return sbx_rt_detect(&sbx_rt_webhooks, data, size);
}

#define RUNTIME_FORMAT(fname, prefix)                                                         \
    {                                                                                         \
        .name = fname, .detect = prefix##_detect, .state_new = prefix##_new,                  \
        .state_free = sbx_rt_state_free, .line = sbx_rt_line, .spans_lines = sbx_rt_spans_lines, \
        .file = sbx_rt_file,                                                                  \
    }

const struct sbx_format sbx_format_runtime_commands = RUNTIME_FORMAT("runtime-commands", commands);
const struct sbx_format sbx_format_runtime_events = RUNTIME_FORMAT("runtime-events", events);
const struct sbx_format sbx_format_runtime_audit = RUNTIME_FORMAT("runtime-audit", audit);
const struct sbx_format sbx_format_runtime_metrics = RUNTIME_FORMAT("runtime-metrics", metrics);
const struct sbx_format sbx_format_runtime_webhooks = RUNTIME_FORMAT("runtime-webhooks", webhooks);
