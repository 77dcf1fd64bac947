/* sbx_fetch_runtime: which routes, in which order, and what is kept. */
#include "importers/fetch/fetch_runtime.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "importers/fetch/fetch_internal.h"
#include "model/strtab.h"
#include "base/timefmt.h"

#ifndef SBX_VERSION
#define SBX_VERSION "0.2.0"
#endif

#define CURSOR_MAX 4096
#define PAGES_MAX 100000

static const struct {
    const char *name;
    int64_t secs;
} metric_ranges[] = {
    {"15m", 15 * 60},      {"1h", 3600},          {"6h", 6 * 3600},
    {"24h", 24 * 3600},    {"7d", 7 * 24 * 3600}, {"30d", 30 * 24 * 3600},
};
#define NRANGES (sizeof metric_ranges / sizeof *metric_ranges)

struct window {
    int64_t start, end; /* start == INT64_MAX: nothing seen */
};

enum list_kind { LIST_COMMANDS, LIST_EVENTS, LIST_AUDIT };

struct run {
    struct sbx_fetch_opts opts; /* defaults filled in */
    struct sbx_fetch_call call;
    char *base;
    const char *const *ids;
    size_t nids;
    struct window *windows; /* per id */
    int64_t now_ns, audit_from;
    struct sbx_fetch_out out;
    struct sbx_fetch_report rep;
    struct sbx_strtab audit_ids; /* audit entries already written */
};

bool sbx_fetch_valid_id(const char *id)
{
    size_t n = 0;
    for (; id[n]; n++) {
        char c = id[n];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return false;
    }
    return n >= 1 && n <= 64;
}

void sbx_fetch_report_free(struct sbx_fetch_report *report)
{
    for (size_t i = 0; i < report->nsaved; i++)
        free(report->saved[i].name);
    free(report->saved);
    memset(report, 0, sizeof *report);
}

static void saved(struct run *r, const char *name, const char *what, size_t items,
                  const char *range)
{
    struct sbx_fetch_report *rep = &r->rep;
    rep->saved = sbx_xrealloc(rep->saved, (rep->nsaved + 1) * sizeof *rep->saved);
    struct sbx_fetch_saved *s = &rep->saved[rep->nsaved++];
    memset(s, 0, sizeof *s);
    s->name = sbx_xstrndup(name, strlen(name));
    s->what = what;
    s->items = items;
    if (range)
        snprintf(s->range, sizeof s->range, "%s", range);
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Times come from the server and may be anywhere in int64's range. */
static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

static int64_t time_member(json_t *o, const char *camel, const char *snake)
{
    json_t *v = json_object_get(o, camel);
    if (!v)
        v = json_object_get(o, snake);
    const char *s = json_string_value(v);
    int64_t ns;
    if (!s || !sbx_time_parse(s, json_string_length(v), &ns, NULL))
        return SBX_TIME_UNKNOWN;
    return ns;
}

static void widen(struct window *w, int64_t t)
{
    if (t == SBX_TIME_UNKNOWN)
        return;
    if (t < w->start)
        w->start = t;
    if (t > w->end)
        w->end = t;
}

static void widen_by_command(struct run *r, struct window *w, json_t *cmd)
{
    int64_t start = time_member(cmd, "startedAt", "started_at");
    if (start == SBX_TIME_UNKNOWN)
        return;
    widen(w, start);
    json_t *d = json_object_get(cmd, "durationMs");
    if (!d)
        d = json_object_get(cmd, "duration_ms");
    const char *state = json_string_value(json_object_get(cmd, "state"));
    if (state && strcmp(state, "running") == 0) {
        widen(w, r->now_ns);
    } else if (json_is_number(d)) {
        double ms = json_number_value(d);
        if (ms > 0 && ms < 1e12)
            widen(w, sat_add(start, (int64_t)(ms * 1e6)));
    }
}

static bool names_sandbox(struct run *r, json_t *entry)
{
    const char *a = json_string_value(json_object_get(json_object_get(entry, "target"), "id"));
    const char *b = json_string_value(json_object_get(entry, "sandbox"));
    for (size_t i = 0; i < r->nids; i++)
        if ((a && strcmp(a, r->ids[i]) == 0) || (b && strcmp(b, r->ids[i]) == 0))
            return true;
    return false;
}

/* Whether an audit entry is kept; *older when it is past the walk's end. */
static bool keep_audit(struct run *r, json_t *entry, bool *older)
{
    int64_t at = time_member(entry, "at", "at");
    if (at == SBX_TIME_UNKNOWN)
        return true;
    if (at < r->audit_from)
        *older = true;
    for (size_t i = 0; i < r->nids; i++) {
        const struct window *w = &r->windows[i];
        if (at >= sat_add(w->start, -SBX_FETCH_MARGIN_NS) &&
            at <= sat_add(w->end, SBX_FETCH_MARGIN_NS))
            return true;
    }
    return names_sandbox(r, entry);
}

/* Whether s is new to the set (and now remembered). */
static bool first_time(struct sbx_strtab *set, const char *s, size_t n)
{
    uint32_t before = set->n;
    sbx_strtab_intern(set, s, n);
    return set->n != before;
}

struct spans {
    const char **p;
    size_t *len;
    size_t n, cap;
};

static bool add_span(void *ctx, size_t i, const char *el, size_t len)
{
    (void)i;
    struct spans *s = ctx;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->p = sbx_xrealloc(s->p, s->cap * sizeof *s->p);
        s->len = sbx_xrealloc(s->len, s->cap * sizeof *s->len);
    }
    s->p[s->n] = el;
    s->len[s->n++] = len;
    return true;
}

/* Writes the page's items (member `member` of the body) to f, one per line,
 * as served; for commands and events widens w, for audit entries keeps only
 * what keep_audit keeps, once per id. */
static bool write_items(struct run *r, const char *where, enum list_kind kind, json_t *list,
                        const struct sbx_buf *body, const char *member, FILE *f,
                        struct window *w, size_t *count, bool *older)
{
    const char *text;
    size_t tlen;
    struct spans sp = {0};
    struct sbx_buf line = SBX_BUF_INIT;
    bool ok = false;
    if (!sbx_json_member_text(body->p, body->len, member, &text, &tlen)) {
        sbx_fetch_fail(&r->call, where, "the \"%s\" list could not be read", member);
        return false;
    }
    sbx_json_array_each(text, tlen, add_span, &sp);
    if (sp.n != json_array_size(list)) {
        sbx_fetch_fail(&r->call, where, "the \"%s\" list could not be split", member);
        goto out;
    }
    for (size_t i = 0; i < sp.n; i++) {
        json_t *item = json_array_get(list, i);
        if (!json_is_object(item)) {
            sbx_fetch_fail(&r->call, where, "item %zu is not a JSON object", i + 1);
            goto out;
        }
        if (kind == LIST_COMMANDS) {
            widen_by_command(r, w, item);
        } else if (kind == LIST_EVENTS) {
            widen(w, time_member(item, "createdAt", "created_at"));
        } else {
            if (!keep_audit(r, item, older))
                continue;
            json_t *id = json_object_get(item, "id");
            if (json_is_string(id) &&
                !first_time(&r->audit_ids, json_string_value(id), json_string_length(id)))
                continue;
        }
        sbx_buf_clear(&line);
        sbx_json_compact(&line, sp.p[i], sp.len[i]);
        sbx_buf_addc(&line, '\n');
        fwrite(line.p, 1, line.len, f);
        (*count)++;
    }
    ok = true;
out:
    sbx_buf_free(&line);
    free(sp.p);
    free(sp.len);
    return ok;
}

struct list_spec {
    enum list_kind kind;
    const char *sandbox;     /* NULL for the audit log */
    const char *record;      /* "commands", "events", "audit" */
    const char *path_query;  /* "/v1/…?…" */
    const char *items, *next, *cursor_param; /* envelope member names */
};

/* Every page of one listing into f. */
static bool fetch_list(struct run *r, const struct list_spec *ls, FILE *f, struct window *w,
                       size_t *count)
{
    char *cursor = NULL;
    bool ok = false, older = false;
    struct sbx_http_response resp = {0};
    struct sbx_strtab cursors; /* a cursor met twice would loop */
    sbx_strtab_init(&cursors);
    for (unsigned page = 1;; page++) {
        struct sbx_buf url = SBX_BUF_INIT, where = SBX_BUF_INIT;
        sbx_buf_addf(&url, "%s%s", r->base, ls->path_query);
        if (cursor) {
            sbx_buf_addf(&url, "&%s=", ls->cursor_param);
            sbx_http_escape(&url, cursor, strlen(cursor));
        }
        if (ls->sandbox)
            sbx_buf_addf(&where, "sandbox %s, %s, page %u", ls->sandbox, ls->record, page);
        else
            sbx_buf_addf(&where, "audit log, page %u", page);
        struct sbx_fetch_progress prog = {ls->sandbox, ls->record, page, *count, 0, 0};
        if (r->opts.progress)
            r->opts.progress(r->opts.progress_ctx, &prog);
        json_t *root;
        bool got = sbx_fetch_get(&r->call, url.p, where.p, &prog, &resp, &root);
        sbx_buf_free(&url);
        if (!got) {
            sbx_buf_free(&where);
            goto out;
        }
        json_t *list = json_object_get(root, ls->items), *next = json_object_get(root, ls->next);
        bool page_ok = false;
        if (!json_is_array(list))
            sbx_fetch_fail(&r->call, where.p, "the response has no \"%s\" list", ls->items);
        else if (next && !json_is_null(next) && !json_is_string(next))
            sbx_fetch_fail(&r->call, where.p, "\"%s\" is neither a string nor null", ls->next);
        else if (json_is_string(next) && json_string_length(next) == 0)
            sbx_fetch_fail(&r->call, where.p, "\"%s\" is an empty string", ls->next);
        else if (json_is_string(next) && json_string_length(next) > CURSOR_MAX)
            sbx_fetch_fail(&r->call, where.p, "\"%s\" is over %d bytes", ls->next, CURSOR_MAX);
        else if (json_is_string(next) &&
                 !first_time(&cursors, json_string_value(next), json_string_length(next)))
            sbx_fetch_fail(&r->call, where.p, "\"%s\" repeats an earlier page's (a loop)",
                           ls->next);
        else if (json_is_string(next) && page == PAGES_MAX)
            sbx_fetch_fail(&r->call, where.p, "more than %d pages", PAGES_MAX);
        else
            page_ok = write_items(r, where.p, ls->kind, list, &resp.body, ls->items, f, w,
                                  count, &older);
        sbx_buf_free(&where);
        free(cursor);
        cursor = page_ok && json_is_string(next) && !older
                     ? sbx_xstrndup(json_string_value(next), json_string_length(next))
                     : NULL;
        json_decref(root);
        if (!page_ok)
            goto out;
        if (!cursor)
            break;
    }
    ok = true;
out:
    free(cursor);
    sbx_http_response_free(&resp);
    sbx_strtab_free(&cursors);
    return ok;
}

static const char *pick_range(struct run *r, const struct window *w)
{
    if (r->opts.metrics_range)
        return r->opts.metrics_range;
    int64_t from = sat_add(w->start, -SBX_FETCH_MARGIN_NS);
    for (size_t i = 0; i < NRANGES; i++)
        if (from >= r->now_ns - metric_ranges[i].secs * INT64_C(1000000000))
            return metric_ranges[i].name;
    return metric_ranges[NRANGES - 1].name;
}

static bool fetch_metrics(struct run *r, const char *id, const char *range, FILE *f,
                          size_t *points)
{
    struct sbx_buf url = SBX_BUF_INIT, where = SBX_BUF_INIT;
    sbx_buf_addf(&url, "%s/v1/sandboxes/%s/metrics?range=%s", r->base, id, range);
    sbx_buf_addf(&where, "sandbox %s, metrics (range %s)", id, range);
    struct sbx_fetch_progress prog = {id, "metrics", 1, 0, 0, 0};
    if (r->opts.progress)
        r->opts.progress(r->opts.progress_ctx, &prog);
    struct sbx_http_response resp = {0};
    json_t *root;
    bool ok = sbx_fetch_get(&r->call, url.p, where.p, &prog, &resp, &root);
    if (ok) {
        json_t *pts = json_object_get(root, "points");
        if (!json_is_array(pts)) {
            sbx_fetch_fail(&r->call, where.p, "the response has no \"points\" list");
            ok = false;
        } else {
            *points = json_array_size(pts);
            fwrite(resp.body.p, 1, resp.body.len, f);
            if (!resp.body.len || resp.body.p[resp.body.len - 1] != '\n')
                fputc('\n', f);
        }
        json_decref(root);
    }
    sbx_http_response_free(&resp);
    sbx_buf_free(&url);
    sbx_buf_free(&where);
    return ok;
}

static char *file_name(const char *kind, const char *id, const char *ext)
{
    struct sbx_buf b = SBX_BUF_INIT;
    if (id)
        sbx_buf_addf(&b, "runtime-%s-%s.%s", kind, id, ext);
    else
        sbx_buf_addf(&b, "runtime-%s.%s", kind, ext);
    return b.p;
}

/* Opens name in the temporary folder, runs the listing into it, closes it. */
static bool list_to_file(struct run *r, const struct list_spec *ls, const char *name,
                         struct window *w, size_t *count)
{
    FILE *f = sbx_fetch_out_create(&r->out, name, r->call.err, r->call.errsz);
    if (!f)
        return false;
    bool ok = fetch_list(r, ls, f, w, count);
    char ignored[64]; /* after a failed fetch, its reason is the one to keep */
    bool closed = ok ? sbx_fetch_out_close(f, name, r->call.err, r->call.errsz)
                     : sbx_fetch_out_close(f, name, ignored, sizeof ignored);
    return ok && closed;
}

static bool fetch_sandbox(struct run *r, size_t i)
{
    const char *id = r->ids[i];
    struct window *w = &r->windows[i];
    *w = (struct window){INT64_MAX, INT64_MIN};
    size_t ncmd = 0, nev = 0, npts = 0;
    struct sbx_buf pq = SBX_BUF_INIT;
    sbx_buf_addf(&pq, "/v1/sandboxes/%s/commands?limit=100", id);
    struct list_spec cmds = {LIST_COMMANDS, id, "commands", pq.p, "data", "nextCursor",
                             "cursor"};
    char *name = file_name("commands", id, "jsonl");
    bool ok = list_to_file(r, &cmds, name, w, &ncmd);
    if (ok)
        saved(r, name, "commands", ncmd, NULL);
    free(name);
    sbx_buf_clear(&pq);
    sbx_buf_addf(&pq, "/v1/events?resourceId=%s&limit=100", id);
    struct list_spec evs = {LIST_EVENTS, id, "events", pq.p, "data", "nextCursor", "cursor"};
    name = file_name("events", id, "jsonl");
    ok = ok && list_to_file(r, &evs, name, w, &nev);
    if (ok)
        saved(r, name, "events", nev, NULL);
    free(name);
    sbx_buf_free(&pq);
    if (!ok)
        return false;
    if (w->start == INT64_MAX) {
        snprintf(r->call.err, r->call.errsz,
                 "sandbox %s: Runtime has no commands or events of it (a wrong id, another "
                 "account's sandbox, or records past their 14 days)",
                 id);
        return false;
    }
    const char *range = pick_range(r, w);
    name = file_name("metrics", id, "json");
    FILE *f = sbx_fetch_out_create(&r->out, name, r->call.err, r->call.errsz);
    ok = f && fetch_metrics(r, id, range, f, &npts);
    char ignored[64];
    if (f && !(ok ? sbx_fetch_out_close(f, name, r->call.err, r->call.errsz)
                  : sbx_fetch_out_close(f, name, ignored, sizeof ignored)))
        ok = false;
    if (ok)
        saved(r, name, "metrics points", npts, range);
    free(name);
    return ok;
}

static bool fetch_audit(struct run *r)
{
    r->audit_from = INT64_MAX;
    for (size_t i = 0; i < r->nids; i++)
        if (sat_add(r->windows[i].start, -SBX_FETCH_MARGIN_NS) < r->audit_from)
            r->audit_from = sat_add(r->windows[i].start, -SBX_FETCH_MARGIN_NS);
    struct list_spec ls = {LIST_AUDIT, NULL, "audit", "/v1/audit?limit=200", "events", "next",
                           "before"};
    struct window unused = {INT64_MAX, INT64_MIN};
    size_t n = 0;
    char *name = file_name("audit", NULL, "jsonl");
    bool ok = list_to_file(r, &ls, name, &unused, &n);
    if (ok)
        saved(r, name, "audit entries", n, NULL);
    free(name);
    return ok;
}

static bool check_base(const char *base, char *err, size_t errsz)
{
    if (strncasecmp(base, "https://", 8) != 0 || !base[8]) {
        snprintf(err, errsz, "the API's URL must start with https://");
        return false;
    }
    for (const char *p = base; *p; p++) {
        if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '?' || *p == '#') {
            snprintf(err, errsz, "the API's URL may not hold spaces, control characters, "
                                 "a query or a fragment");
            return false;
        }
    }
    return true;
}

static bool fill_opts(struct sbx_fetch_opts *o, char *err, size_t errsz)
{
    if (!o->base_url)
        o->base_url = SBX_RUNTIME_API_DEFAULT;
    if (!check_base(o->base_url, err, errsz))
        return false;
    if (!o->api_key || !*o->api_key) {
        snprintf(err, errsz, "no API key");
        return false;
    }
    if (o->metrics_range) {
        size_t i = 0;
        while (i < NRANGES && strcmp(o->metrics_range, metric_ranges[i].name) != 0)
            i++;
        if (i == NRANGES) {
            snprintf(err, errsz, "the metrics range is one of 15m, 1h, 6h, 24h, 7d, 30d");
            return false;
        }
    }
    if (o->connect_timeout_ms <= 0)
        o->connect_timeout_ms = 10000;
    if (o->timeout_ms <= 0)
        o->timeout_ms = 60000;
    if (o->deadline_ms <= 0)
        o->deadline_ms = 60000;
    if (o->backoff_ms <= 0)
        o->backoff_ms = 1000;
    o->retries = o->retries == 0 ? 3 : o->retries < 0 ? 0 : o->retries;
    if (!o->max_body)
        o->max_body = SBX_HTTP_MAX_BODY_DEFAULT;
    return true;
}

bool sbx_fetch_runtime(const char *const *ids, size_t nids, const char *dir,
                       const struct sbx_fetch_opts *opts, struct sbx_fetch_report *report,
                       char *err, size_t errsz)
{
    memset(report, 0, sizeof *report);
    struct run r = {.opts = *opts};
    if (!fill_opts(&r.opts, err, errsz))
        return false;
    if (!nids) {
        snprintf(err, errsz, "no sandbox id given");
        return false;
    }
    /* the ids, each once */
    const char **uniq = sbx_xcalloc(nids, sizeof *uniq);
    size_t nu = 0;
    for (size_t i = 0; i < nids; i++) {
        if (!sbx_fetch_valid_id(ids[i])) {
            snprintf(err, errsz,
                     "a sandbox id is 1 to 64 letters, digits, _ or -: argument %zu is not", i + 1);
            free(uniq);
            return false;
        }
        size_t j = 0;
        while (j < nu && strcmp(uniq[j], ids[i]) != 0)
            j++;
        if (j == nu)
            uniq[nu++] = ids[i];
    }
    r.ids = uniq;
    r.nids = nu;
    size_t nnames = 3 * nu + 1;
    char **names = sbx_xcalloc(nnames, sizeof *names);
    for (size_t i = 0; i < nu; i++) {
        names[3 * i] = file_name("commands", uniq[i], "jsonl");
        names[3 * i + 1] = file_name("events", uniq[i], "jsonl");
        names[3 * i + 2] = file_name("metrics", uniq[i], "json");
    }
    names[3 * nu] = file_name("audit", NULL, "jsonl");
    bool opened = sbx_fetch_out_open(&r.out, dir, names, nnames, r.opts.force, err, errsz);
    for (size_t i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    if (!opened) {
        free(uniq);
        return false;
    }

    size_t bl = strlen(r.opts.base_url);
    while (bl > 8 && r.opts.base_url[bl - 1] == '/')
        bl--;
    r.base = sbx_xstrndup(r.opts.base_url, bl);
    r.call = (struct sbx_fetch_call){.opts = &r.opts, .err = err, .errsz = errsz};
    struct sbx_http_config hc = {
        .ca_file = r.opts.ca_file,
        .connect_timeout_ms = r.opts.connect_timeout_ms,
        .timeout_ms = r.opts.timeout_ms,
        .max_body = r.opts.max_body,
        .user_agent = "sbxview/" SBX_VERSION,
        .trace = r.opts.trace,
        .trace_ctx = r.opts.trace_ctx,
        .cancel = r.opts.cancel,
    };
    r.call.http = sbx_http_new(&hc, err, errsz);
    r.windows = sbx_xcalloc(nu, sizeof *r.windows);
    r.now_ns = now_ns();
    sbx_strtab_init(&r.audit_ids);
    bool ok = r.call.http != NULL;
    for (size_t i = 0; ok && i < nu; i++)
        ok = fetch_sandbox(&r, i);
    ok = ok && fetch_audit(&r);
    if (ok)
        ok = sbx_fetch_out_commit(&r.out, r.opts.force, err, errsz);
    else
        sbx_fetch_out_abort(&r.out);
    if (ok)
        *report = r.rep;
    else
        sbx_fetch_report_free(&r.rep);
    sbx_strtab_free(&r.audit_ids);
    sbx_http_free(r.call.http);
    free(r.windows);
    free(r.base);
    free(uniq);
    return ok;
}
