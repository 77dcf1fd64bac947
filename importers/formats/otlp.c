/* OpenTelemetry traces as OTLP/JSON, one TracesData a line (the Collector's
 * file exporter): every span one event, pointing at its own JSON object.
 *
 * jansson validates each line and gives the values; a walk over the same
 * bytes (base/jsonwalk.h) gives where each span and each text it keeps
 * lies, in the same order. Old and new key names (scopeSpans or
 * instrumentationLibrarySpans, scope or instrumentationLibrary) are read
 * alike; 64-bit integers may be decimal strings or numbers and are read as
 * integers, never through a double. The tree of spans is built after loading
 * (model/spans.h). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "importers/format.h"
#include "importers/json/jsonerr.h"
#include "importers/json/jsonload.h"
#include "base/fnv.h"
#include "base/jsonwalk.h"
#include "base/numfmt.h"
#include "model/program.h"
#include "model/spans.h"

enum { CACHE_SIZE = 64, CACHE_MAX = 48 };

struct cached {
    uint32_t id, len;
    char s[CACHE_MAX];
};

struct otlp_state {
    struct sbx_timeline *tl;
    uint32_t source;
    struct cached cache[CACHE_SIZE]; /* tool names, sandboxes, agents, programs */
};

static uint32_t intern(struct otlp_state *st, const char *s, size_t n)
{
    if (n == 0)
        return 0;
    struct cached *c = NULL;
    if (n <= CACHE_MAX) {
        c = &st->cache[sbx_fnv1a(SBX_FNV_BASIS, s, n) % CACHE_SIZE];
        if (c->id && c->len == n && memcmp(c->s, s, n) == 0)
            return c->id;
    }
    uint32_t id = sbx_strtab_intern(&st->tl->strings, s, n);
    if (c) {
        c->id = id;
        c->len = (uint32_t)n;
        memcpy(c->s, s, n);
    }
    return id;
}

/* A 64-bit integer given as a number or a decimal string: 1 read, 0 absent
 * (or null), -1 something else or out of range. */
static int get_i64(json_t *v, int64_t *out)
{
    if (!v || json_is_null(v))
        return 0;
    if (json_is_integer(v)) {
        *out = (int64_t)json_integer_value(v);
        return 1;
    }
    if (!json_is_string(v))
        return -1;
    const char *s = json_string_value(v);
    size_t n = json_string_length(v), i = 0;
    bool neg = n && s[0] == '-';
    i = neg;
    if (i == n)
        return -1;
    uint64_t acc = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9 || acc > (limit - d) / 10)
            return -1;
        acc = acc * 10 + d;
    }
    *out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return 1;
}

/* A time in ns since the epoch: 0 (OTLP's "not set") and absent are unknown. */
static int get_time(json_t *v, int64_t *out)
{
    int64_t t;
    int r = get_i64(v, &t);
    if (r <= 0)
        return r;
    if (t < 0)
        return -1;
    *out = t ? t : SBX_TIME_UNKNOWN;
    return 1;
}

/* The attributes an event is made of; the rest stay in the span's JSON. */
enum attr_id {
    A_OP, A_TOOL, A_AGENT, A_ARGV, A_EXIT, A_DURATION, A_SANDBOX, A_DENIALS, A_ERROR, A_COUNT
};
static const char *const attr_names[A_COUNT] = {
    "gen_ai.operation.name", "gen_ai.tool.name",        "gen_ai.agent.name",
    "sandboxio.argv",        "sandboxio.exit_code",     "sandboxio.duration_ms",
    "sandboxio.sandbox.id",  "sandboxio.network_denials", "error.type",
};

struct attrs {
    json_t *v[A_COUNT]; /* the value object's one member ({"stringValue": x} -> x) */
    const char *kind[A_COUNT];
    size_t idx[A_COUNT]; /* its place in the attributes list */
};

static void read_attrs(json_t *list, struct attrs *a)
{
    memset(a, 0, sizeof *a);
    if (!json_is_array(list))
        return;
    size_t i;
    json_t *x;
    json_array_foreach(list, i, x) {
        const char *key = json_string_value(json_object_get(x, "key"));
        json_t *val = json_object_get(x, "value");
        if (!key || !json_is_object(val) || json_object_size(val) == 0)
            continue;
        for (int k = 0; k < A_COUNT; k++) {
            if (a->v[k] || strcmp(key, attr_names[k]) != 0)
                continue;
            const char *vk = json_object_iter_key(json_object_iter(val));
            a->v[k] = json_object_iter_value(json_object_iter(val));
            a->kind[k] = vk;
            a->idx[k] = i;
        }
    }
}

static const char *attr_str(const struct attrs *a, enum attr_id k)
{
    return a->v[k] && strcmp(a->kind[k], "stringValue") == 0 ? json_string_value(a->v[k]) : NULL;
}

/* 1 an intValue read, 0 absent, -1 of another kind or unreadable. */
static int attr_int(const struct attrs *a, enum attr_id k, int64_t *out)
{
    if (!a->v[k])
        return 0;
    if (strcmp(a->kind[k], "intValue") != 0)
        return -1;
    return get_i64(a->v[k], out) == 1 ? 1 : -1;
}

/* The body of a string value in [v, vend) as a text of event ev (pushed to buf). */
static bool text_of(struct sbx_evbuf *buf, const struct sbx_event *ev, const char *v,
                    const char *vend, uint64_t line_off, const char *line, struct sbx_text *t)
{
    const char *body;
    size_t n;
    if (!sbx_jwk_string(v, vend, &body, &n))
        return false;
    uint32_t flags = SBX_TEXT_PRESENT;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)body[i];
        if (c == '\\') {
            flags |= SBX_TEXT_ESCAPED;
            if (i + 1 < n && body[i + 1] == 'u')
                flags |= SBX_TEXT_UNUSUAL;
            i++;
        } else if (c >= 0x80) {
            flags |= SBX_TEXT_UNUSUAL;
        }
    }
    *t = sbx_text_make(buf, ev, line_off + (uint64_t)(body - line), n, flags);
    return true;
}

/* The stringValue of the idx-th attribute of the span at [s, send), as a text. */
static bool attr_text(struct sbx_evbuf *buf, const struct sbx_event *ev, const char *s,
                      const char *send, size_t idx, uint64_t line_off, const char *line,
                      struct sbx_text *t)
{
    const char *v, *vend;
    if (!sbx_jwk_member(s, send, "attributes", &v, &vend))
        return false;
    struct sbx_jwk w;
    sbx_jwk_begin(&w, v, vend);
    const char *e, *eend;
    for (size_t i = 0; sbx_jwk_next(&w, NULL, NULL, &e, &eend); i++) {
        if (i < idx)
            continue;
        return sbx_jwk_member(e, eend, "value", &v, &vend) &&
               sbx_jwk_member(v, vend, "stringValue", &e, &eend) &&
               text_of(buf, ev, e, eend, line_off, line, t);
    }
    return false;
}

/* The program of an argv (a JSON array of strings, as text): its words
 * shell-quoted and read by the command-line rule, so "git diff" and
 * "python3 -m pytest" get the labels a recorded command would. */
static uint32_t argv_program(struct otlp_state *st, json_t *argv_json)
{
    json_t *arr = sbx_json_load(json_string_value(argv_json), json_string_length(argv_json),
                                JSON_DECODE_ANY, NULL, NULL);
    struct sbx_buf line = SBX_BUF_INIT;
    size_t i;
    json_t *w;
    json_array_foreach(arr, i, w) {
        const char *s = json_string_value(w);
        if (!s || i >= 8)
            break;
        sbx_buf_adds(&line, i ? " '" : "'");
        for (const char *end = s + json_string_length(w); s < end; s++)
            if (*s == '\'')
                sbx_buf_adds(&line, "'\\''");
            else
                sbx_buf_addc(&line, *s);
        sbx_buf_adds(&line, "'");
    }
    json_decref(arr);
    char label[128];
    size_t n = line.len ? sbx_program_label(line.p, line.len, label, sizeof label) : 0;
    sbx_buf_free(&line);
    return intern(st, label, n);
}

static bool starts_with(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A tool call: the tool, its argv as the command, exit, duration, sandbox,
 * failure and denials. */
static void tool_event(struct otlp_state *st, struct sbx_evbuf *buf, struct sbx_event *e,
                       const struct attrs *a,
                       const char *name, const char *s, const char *send, uint64_t line_off,
                       const char *line)
{
    struct sbx_command *c = &e->u.cmd;
    e->kind = SBX_EV_COMMAND;
    const char *tool = attr_str(a, A_TOOL);
    if (!tool && starts_with(name, "execute_tool "))
        tool = name + 13;
    if (tool)
        e->label = intern(st, tool, strlen(tool));
    const char *argv = attr_str(a, A_ARGV);
    if (argv && attr_text(buf, e, s, send, a->idx[A_ARGV], line_off, line, &c->command)) {
        c->command.flags |= SBX_TEXT_ARGV; /* a JSON string holding the array */
        c->program = argv_program(st, a->v[A_ARGV]);
    } else if (a->v[A_TOOL] && attr_text(buf, e, s, send, a->idx[A_TOOL], line_off, line, &c->command)) {
        c->program = e->label;
    } else {
        /* the span's name, past "execute_tool " */
        const char *v, *vend;
        if (sbx_jwk_member(s, send, "name", &v, &vend) &&
            text_of(buf, e, v, vend, line_off, line, &c->command) && starts_with(name, "execute_tool ") &&
            !(c->command.flags & SBX_TEXT_ESCAPED)) {
            c->command = sbx_text_make(buf, e, sbx_text_off(e, &c->command) + 13,
                                       sbx_text_len(&c->command) - 13, c->command.flags);
        }
        c->program = e->label;
    }
    int64_t v;
    int r = attr_int(a, A_EXIT, &v);
    if (r == 1 && v >= INT32_MIN && v <= INT32_MAX) {
        sbx_cmd_set_exit(c, (int32_t)v);
        c->flags |= SBX_CMD_EXIT_KNOWN;
    } else if (r) {
        e->findings |= SBX_F_BAD_FIELD;
    }
    r = attr_int(a, A_DURATION, &v);
    if (r == 1 && v >= 0) {
        sbx_cmd_set_ms(c, v);
        c->flags |= SBX_CMD_MS_KNOWN;
    } else if (r) {
        e->findings |= SBX_F_BAD_FIELD;
    }
    if (!(c->flags & SBX_CMD_MS_KNOWN) && e->start != SBX_TIME_UNKNOWN &&
        e->end != SBX_TIME_UNKNOWN && e->end >= e->start) {
        sbx_cmd_set_ms(c, sbx_ns_to_ms(e->end - e->start));
        c->flags |= SBX_CMD_MS_KNOWN;
    }
    r = attr_int(a, A_DENIALS, &v);
    if (r == 1 && v > 0) { /* the denials analysis makes them a refused host */
        c->flags |= SBX_CMD_DENIALS;
        c->denials = (uint64_t)v;
    }
    else if (r < 0 || (r == 1 && v < 0))
        e->findings |= SBX_F_BAD_FIELD;
}

/* 1: the id is hex of the length; 0: absent or empty; -1: something else. */
static int hex_id(json_t *v, size_t digits)
{
    if (!v)
        return 0;
    const char *s = json_string_value(v);
    if (!s)
        return -1;
    size_t n = json_string_length(v);
    if (n == 0)
        return 0;
    if (n != digits)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
            return -1;
    return 1;
}

#define FAIL(...) (snprintf(reason, reasonsz, __VA_ARGS__), false)

/* A tool call that timed out: error.type "timeout", or exit 137 (killed)
 * with a status message that says it timed out. */
static bool timed_out(const struct attrs *a, const struct sbx_command *c, const char *message)
{
    const char *type = attr_str(a, A_ERROR);
    if (type && strcasecmp(type, "timeout") == 0)
        return true;
    if (!(c->flags & SBX_CMD_EXIT_KNOWN) || sbx_cmd_exit(c) != 137 || !message)
        return false;
    static const char *const words[] = {"timeout", "timed out", "time out", "deadline exceeded"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcasestr(message, words[i]))
            return true;
    return false;
}

/* One span (sp, whose text is [s, send) of line): an event, or false with
 * the reason. */
static bool import_span(struct otlp_state *st, struct sbx_evbuf *out, json_t *sp, const char *s,
                        const char *send, const char *line, uint64_t line_off, uint32_t line_no,
                        char *reason, size_t reasonsz)
{
    if (!json_is_object(sp))
        return FAIL("not a span: not a JSON object");
    if (hex_id(json_object_get(sp, "traceId"), 32) != 1)
        return FAIL("traceId is not 32 hex digits");
    if (hex_id(json_object_get(sp, "spanId"), 16) != 1)
        return FAIL("spanId is not 16 hex digits");
    if (hex_id(json_object_get(sp, "parentSpanId"), 16) < 0)
        return FAIL("parentSpanId is not 16 hex digits");
    json_t *jname = json_object_get(sp, "name");
    if (jname && !json_is_string(jname))
        return FAIL("the span's name is not a string");
    const char *name = jname ? json_string_value(jname) : "";
    int64_t start = SBX_TIME_UNKNOWN, end = SBX_TIME_UNKNOWN;
    int rs = get_time(json_object_get(sp, "startTimeUnixNano"), &start);
    int re = get_time(json_object_get(sp, "endTimeUnixNano"), &end);
    struct attrs a;
    read_attrs(json_object_get(sp, "attributes"), &a);

    uint64_t soff = line_off + (uint64_t)(s - line);
    struct sbx_event *e = sbx_evbuf_push_from(out, st->source, soff, (size_t)(send - s), line_no);
    e->start = start;
    e->end = end;
    if (rs < 0 || re < 0 || (start != SBX_TIME_UNKNOWN && end != SBX_TIME_UNKNOWN && end < start))
        e->findings |= SBX_F_BAD_FIELD;
    const char *op = attr_str(&a, A_OP);
    const char *sandbox = attr_str(&a, A_SANDBOX);
    if (sandbox)
        e->sandbox = intern(st, sandbox, strlen(sandbox));
    if ((op && strcmp(op, "execute_tool") == 0) || (!op && starts_with(name, "execute_tool "))) {
        tool_event(st, out, e, &a, name, s, send, line_off, line);
    } else if ((op && strcmp(op, "invoke_agent") == 0) ||
               (!op && (strcmp(name, "invoke_agent") == 0 || starts_with(name, "invoke_agent ")))) {
        e->kind = SBX_EV_SPAN;
        const char *agent = attr_str(&a, A_AGENT);
        if (!agent)
            agent = starts_with(name, "invoke_agent ") ? name + 13 : name;
        e->label = intern(st, agent, strlen(agent));
    } else {
        e->kind = SBX_EV_NOTE;
        e->label = intern(st, name, strlen(name));
    }
    json_t *status = json_object_get(sp, "status");
    json_t *code = json_object_get(status, "code");
    const char *scode = json_string_value(code);
    bool error = (json_is_integer(code) && json_integer_value(code) == 2) ||
                 (scode && strcmp(scode, "STATUS_CODE_ERROR") == 0);
    if (error || a.v[A_ERROR])
        e->tflags |= SBX_EVT_ERROR; /* the spans analysis makes it a failure */
    const char *message = json_string_value(json_object_get(status, "message"));
    if (e->kind == SBX_EV_COMMAND && timed_out(&a, &e->u.cmd, message))
        e->u.cmd.flags |= SBX_CMD_TIMED_OUT | SBX_CMD_TIMEOUT_KNOWN;
    return true;
}

/* The spans of one scope entry; a span that cannot be read is a skip. */
static void import_scope(struct otlp_state *st, struct sbx_evbuf *out, json_t *scope,
                         const char *sc, const char *scend, const char *line, uint64_t off,
                         uint32_t line_no, size_t *nspan)
{
    json_t *spans = json_object_get(scope, "spans");
    const char *v, *vend;
    if (!json_is_array(spans) || !sbx_jwk_member(sc, scend, "spans", &v, &vend))
        return;
    struct sbx_jwk w;
    sbx_jwk_begin(&w, v, vend);
    const char *s, *send;
    char reason[120];
    for (size_t i = 0; i < json_array_size(spans) && sbx_jwk_next(&w, NULL, NULL, &s, &send); i++) {
        ++*nspan;
        if (!import_span(st, out, json_array_get(spans, i), s, send, line, off, line_no, reason,
                         sizeof reason))
            sbx_evbuf_skip(out, st->tl, st->source, line_no, "span %zu of the line: %s", *nspan,
                           reason);
    }
}

static void import_resource(struct otlp_state *st, struct sbx_evbuf *out, json_t *rs,
                            const char *r, const char *rend, const char *line, uint64_t off,
                            uint32_t line_no, size_t *nspan)
{
    static const char *const lists[] = {"scopeSpans", "instrumentationLibrarySpans"};
    for (int k = 0; k < 2; k++) {
        json_t *list = json_object_get(rs, lists[k]);
        const char *v, *vend;
        if (!json_is_array(list) || !sbx_jwk_member(r, rend, lists[k], &v, &vend))
            continue;
        struct sbx_jwk w;
        sbx_jwk_begin(&w, v, vend);
        const char *sc, *scend;
        for (size_t i = 0; i < json_array_size(list) && sbx_jwk_next(&w, NULL, NULL, &sc, &scend); i++)
            import_scope(st, out, json_array_get(list, i), sc, scend, line, off, line_no, nspan);
    }
}

static enum sbx_line_status import_line(void *state, struct sbx_evbuf *out, const char *line,
                                        size_t len, uint64_t off, uint32_t line_no, char *reason,
                                        size_t reasonsz)
{
    struct otlp_state *st = state;
    size_t b = 0;
    while (b < len && (line[b] == ' ' || line[b] == '\t' || line[b] == '\r'))
        b++;
    if (b == len)
        return SBX_LINE_BLANK;
    json_error_t err;
    unsigned facts;
    json_t *root = sbx_json_load(line, len, 0, &facts, &err);
    if (!root) {
        snprintf(reason, reasonsz, "not JSON: %s (byte %lld)", sbx_json_problem(&err),
                 (long long)err.position);
        return SBX_LINE_BAD;
    }
    json_t *list = json_object_get(root, "resourceSpans");
    const char *v, *vend;
    if (!json_is_array(list) || !sbx_jwk_member(line + b, line + len, "resourceSpans", &v, &vend)) {
        json_decref(root);
        snprintf(reason, reasonsz, "not OTLP traces: no resourceSpans list");
        return SBX_LINE_BAD;
    }
    size_t nspan = 0, from = out->n;
    struct sbx_jwk w;
    sbx_jwk_begin(&w, v, vend);
    const char *r, *rend;
    for (size_t i = 0; i < json_array_size(list) && sbx_jwk_next(&w, NULL, NULL, &r, &rend); i++)
        import_resource(st, out, json_array_get(list, i), r, rend, line, off, line_no, &nspan);
    json_decref(root);
    sbx_jload_mark(out, from, facts);
    return nspan ? SBX_LINE_OK : SBX_LINE_BLANK;
}

static void *state_new(struct sbx_timeline *tl, uint32_t source,
                       const struct sbx_import_opts *opts)
{
    (void)opts; /* this format needs nothing from outside its file */
    struct otlp_state *st = sbx_xcalloc(1, sizeof *st);
    st->tl = tl;
    st->source = source;
    return st;
}

static void state_free(void *p)
{
    free(p);
}

/* OTLP/JSON traces: the first non-blank line is a JSON object with a
 * resourceSpans list (read within the first 64 KiB: a long first line
 * counts when the key came before the cut). */
static bool detect(const char *data, size_t size)
{
    const char *end = data + (size < (64u << 10) ? size : (64u << 10)), *p = data;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    if (p == end || *p != '{')
        return false;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    struct sbx_jwk w;
    sbx_jwk_begin(&w, p, nl ? nl : end);
    const char *k, *v, *vend;
    size_t klen;
    for (int i = 0; i < 64; i++) {
        if (!sbx_jwk_next(&w, &k, &klen, &v, &vend)) {
            /* cut short inside a long value: was it the list? */
            const char *q = w.p;
            while (q < end && (*q == ' ' || *q == ',' || *q == '\n'))
                q++;
            return !nl && size > (64u << 10) && end - q > 17 &&
                   memcmp(q, "\"resourceSpans\"", 15) == 0;
        }
        if (sbx_jwk_key_is(k, klen, "resourceSpans"))
            return *v == '[';
    }
    return false;
}

const struct sbx_format sbx_format_otlp = {
    .name = SBX_OTLP_FORMAT,
    .detect = detect,
    .state_new = state_new,
    .state_free = state_free,
    .line = import_line,
};
