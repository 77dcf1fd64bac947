/* Runtime's items as events: command records, lifecycle events (and the
 * file watch's sandbox.files.changed), audit entries, metrics points. Each
 * reader gets an item jansson has validated, and its bytes in the source. */
#include <stdio.h>
#include <string.h>

#include "importers/formats/runtime/runtime_impl.h"
#include "importers/formats/runtime/runtime_span.h"
#include "base/fnv.h"
#include "base/timefmt.h"
#include "model/files.h"

/* Interned strings are names and ids: longer ones are cut (at a character). */
enum { MAX_NAME = 256 };

/* A duration beyond a year is no command's. */
#define MAX_MS (366LL * 24 * 3600 * 1000)

json_t *sbx_rt_get(json_t *o, const char *camel, const char *snake)
{
    json_t *v = json_object_get(o, camel);
    if (!v && snake)
        v = json_object_get(o, snake);
    return v;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
    return sbx_fnv1a(SBX_FNV_BASIS ^ n, s, n);
}

uint32_t sbx_rt_intern(struct sbx_rt_state *st, const char *s, size_t n)
{
    if (n > MAX_NAME) {
        n = MAX_NAME;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--; /* not inside a UTF-8 sequence */
    }
    if (n == 0)
        return 0;
    struct sbx_rt_cached *c = NULL;
    if (n <= SBX_RT_CACHE_MAX) {
        uint64_t h = hash_bytes(s, n);
        c = &st->cache[h % SBX_RT_CACHE];
        if (c->id && c->hash == h && c->len == n && memcmp(c->s, s, n) == 0)
            return c->id;
        c->hash = h;
    }
    uint32_t id = sbx_strtab_intern(&st->tl->strings, s, n);
    if (c) {
        memcpy(c->s, s, n);
        c->len = (uint32_t)n;
        c->id = id;
    }
    return id;
}

uint32_t sbx_rt_string(struct sbx_rt_state *st, json_t *v, bool *bad)
{
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v)) {
        *bad = true;
        return 0;
    }
    return sbx_rt_intern(st, json_string_value(v), json_string_length(v));
}

bool sbx_rt_time(json_t *v, int64_t *ns, uint8_t *tflags)
{
    unsigned tf = 0;
    if (!json_is_string(v) || !sbx_time_parse(json_string_value(v), json_string_length(v), ns, &tf))
        return false;
    *tflags = (uint8_t)((tf & SBX_TIME_NO_ZONE ? SBX_EVT_NO_ZONE : 0) |
                        (tf & SBX_TIME_LEAP_SECOND ? SBX_EVT_LEAP_SECOND : 0));
    return true;
}

/* The item's time, required: false with the reason when absent or no time. */
static bool item_time(const struct sbx_rt_state *st, json_t *o, const char *camel,
                      const char *snake, int64_t *at, uint8_t *tf, char *reason, size_t reasonsz)
{
    json_t *v = sbx_rt_get(o, camel, snake);
    if (!v || json_is_null(v)) {
        snprintf(reason, reasonsz, "%s without %s", st->kind->name, camel);
        return false;
    }
    if (!sbx_rt_time(v, at, tf)) {
        snprintf(reason, reasonsz, "%s whose %s is not a time", st->kind->name, camel);
        return false;
    }
    return true;
}

/* An object member, NULL when absent or null; *bad when of another type. */
static json_t *object_member(json_t *o, const char *camel, const char *snake, bool *bad)
{
    json_t *v = o ? sbx_rt_get(o, camel, snake) : NULL;
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_object(v)) {
        *bad = true;
        return NULL;
    }
    return v;
}

/* An actor's display name: its name, else its id. */
static uint32_t actor_name(struct sbx_rt_state *st, json_t *actor, bool *bad)
{
    uint32_t id = sbx_rt_string(st, json_object_get(actor, "name"), bad);
    return id ? id : sbx_rt_string(st, json_object_get(actor, "id"), bad);
}

static bool string_is(json_t *v, const char *s)
{
    return json_is_string(v) && strcmp(json_string_value(v), s) == 0 &&
           json_string_length(v) == strlen(s);
}

static bool read_command(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *o,
                         const char *text, size_t len, char *reason, size_t reasonsz)
{
    int64_t at;
    uint8_t tf;
    if (!item_time(st, o, "startedAt", "started_at", &at, &tf, reason, reasonsz))
        return false;
    struct sbx_event *e = sbx_rt_push(st, out, text, len);
    e->kind = SBX_EV_COMMAND;
    e->start = e->end = at;
    e->tflags = tf;
    struct sbx_command *c = &e->u.cmd;
    c->flags = SBX_CMD_RECORD;
    bool bad = false;
    /* the two fields the cross-check matches on: absent is as bad as wrong */
    e->sandbox = sbx_rt_string(st, sbx_rt_get(o, "sandboxId", "sandbox_id"), &bad);
    c->program = sbx_rt_string(st, json_object_get(o, "program"), &bad);
    bad |= !e->sandbox || !c->program;

    json_t *state = json_object_get(o, "state");
    bool exited = true; /* without a state, an exit code says it exited */
    if (string_is(state, "running")) {
        c->flags |= SBX_CMD_RUNNING;
        exited = false;
    } else if (string_is(state, "unread")) {
        c->flags |= SBX_CMD_UNREAD;
        exited = false;
    } else if (state && !json_is_null(state) && !string_is(state, "exited")) {
        bad = true;
    }
    json_t *code = sbx_rt_get(o, "exitCode", "exit_code");
    if (code && !json_is_null(code)) {
        json_int_t x = json_is_integer(code) ? json_integer_value(code) : 0;
        if (json_is_integer(code) && x >= INT32_MIN && x <= INT32_MAX && exited) {
            sbx_cmd_set_exit(c, (int32_t)x);
            c->flags |= SBX_CMD_EXIT_KNOWN;
        } else {
            bad = true; /* not an exit code, or one for a command that has not exited */
        }
    } else if (string_is(state, "exited")) {
        bad = true; /* exited, with no code: shown as ? */
    }
    json_t *ms = sbx_rt_get(o, "durationMs", "duration_ms");
    if (ms && !json_is_null(ms)) {
        json_int_t x = json_is_integer(ms) ? json_integer_value(ms) : -1;
        int64_t end;
        if (x >= 0 && x <= MAX_MS && !__builtin_add_overflow(at, x * 1000000, &end)) {
            sbx_cmd_set_ms(c, x);
            c->flags |= SBX_CMD_MS_KNOWN;
            e->end = end;
        } else {
            bad = true;
        }
    }
    json_t *actor = object_member(o, "actor", NULL, &bad);
    if (actor) {
        e->label = actor_name(st, actor, &bad);
        c->actor_id = sbx_rt_string(st, json_object_get(actor, "id"), &bad);
    }
    if (bad)
        e->findings |= SBX_F_BAD_FIELD;
    return true;
}

/* Lifecycle types that are a sandbox's state changing; other sandbox.*
 * types (and snapshot.*, volume.*) are notes. */
static bool lifecycle_type(const char *t, size_t n)
{
    static const char *const types[] = {
        "sandbox.created", "sandbox.running",      "sandbox.paused",      "sandbox.woken",
        "sandbox.stopped", "sandbox.start_failed", "sandbox.wake_failed",
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (n == strlen(types[i]) && memcmp(t, types[i], n) == 0)
            return true;
    return false;
}

/* A watch event's path as shown: an absolute path as it is, a relative one
 * (without "./") under the watched root. */
static uint32_t watch_path(struct sbx_rt_state *st, const char *root, size_t root_len,
                           const char *p, size_t n)
{
    if (n && p[0] == '/')
        return sbx_strtab_intern(&st->tl->strings, p, n);
    while (n >= 2 && p[0] == '.' && p[1] == '/') {
        p += 2;
        n -= 2;
    }
    struct sbx_buf b = SBX_BUF_INIT;
    if (root_len) {
        sbx_buf_add(&b, root, root_len);
        if (root[root_len - 1] != '/')
            sbx_buf_addc(&b, '/');
    }
    sbx_buf_add(&b, p, n);
    uint32_t id = sbx_strtab_intern(&st->tl->strings, b.p ? b.p : "", b.len);
    sbx_buf_free(&b);
    return id;
}

/* Which list a watch event's type goes to, or -1. */
static int change_of(json_t *type)
{
    if (string_is(type, "create"))
        return SBX_ADDED;
    if (string_is(type, "write") || string_is(type, "chmod") || string_is(type, "rename"))
        return SBX_CHANGED; /* a rename lists its new path */
    if (string_is(type, "remove"))
        return SBX_REMOVED;
    return -1;
}

/* sandbox.files.changed: data.watch.path is the root, data.events the
 * changes; the event keeps its id (sbx_files_more), so it is made with the
 * rare fields. */
static void read_files(struct sbx_rt_state *st, struct sbx_evbuf *out, struct sbx_event *e,
                       json_t *data, bool *bad)
{
    e->kind = SBX_EV_FILES;
    json_t *watch = object_member(data, "watch", NULL, bad);
    json_t *path = watch ? json_object_get(watch, "path") : NULL;
    const char *root = NULL;
    size_t root_len = 0;
    uint32_t root_id = 0;
    if (json_is_string(path)) {
        root = json_string_value(path);
        root_len = json_string_length(path);
        while (root_len > 1 && root[root_len - 1] == '/')
            root_len--;
        root_id = sbx_rt_intern(st, root, root_len);
    } else if (path && !json_is_null(path)) {
        *bad = true;
    }
    json_t *events = data ? json_object_get(data, "events") : NULL;
    if (events && !json_is_null(events) && !json_is_array(events)) {
        *bad = true;
        events = NULL;
    }
    size_t n = json_is_array(events) ? json_array_size(events) : 0;
    uint32_t room[SBX_CHANGE_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        json_t *ch = json_array_get(events, i);
        int c = change_of(json_object_get(ch, "type"));
        if (c >= 0 && json_is_string(json_object_get(ch, "path")))
            room[c]++;
        else
            *bad = true; /* not an object, an unknown type, or no path */
    }
    struct sbx_files *f = sbx_files_new(out, room, true);
    e->u.files = f;
    f->root = root_id;
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) /* list after list, each in the record's order */
        for (size_t i = 0; i < n && f->n[c] < room[c]; i++) {
            json_t *ch = json_array_get(events, i);
            json_t *p = json_object_get(ch, "path");
            if (change_of(json_object_get(ch, "type")) == c && json_is_string(p))
                sbx_files_add(f, (enum sbx_change)c,
                              watch_path(st, root, root_len, json_string_value(p), json_string_length(p)));
        }
}

struct sbx_event *sbx_rt_lifecycle(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *o,
                                   const char *text, size_t len, char *reason, size_t reasonsz)
{
    json_t *type = json_object_get(o, "type");
    if (!json_is_string(type) || json_string_length(type) == 0) {
        snprintf(reason, reasonsz, "lifecycle event %s", type ? "whose type is not a string"
                                                              : "without a type");
        return NULL;
    }
    int64_t at;
    uint8_t tf;
    if (!item_time(st, o, "createdAt", "created_at", &at, &tf, reason, reasonsz))
        return NULL;
    struct sbx_event *e = sbx_rt_push(st, out, text, len);
    e->start = e->end = at;
    e->tflags = tf;
    bool bad = false;
    json_t *data = object_member(o, "data", NULL, &bad);
    json_t *sandbox = object_member(data, "sandbox", NULL, &bad);
    e->sandbox = sbx_rt_string(st, sbx_rt_get(o, "resourceId", "resource_id"), &bad);
    if (!e->sandbox && sandbox)
        e->sandbox = sbx_rt_string(st, json_object_get(sandbox, "id"), &bad);
    const char *t = json_string_value(type);
    size_t tn = json_string_length(type);
    /* every kind keeps the event's id: a webhook delivery of it is the same event */
    uint32_t id = sbx_rt_string(st, json_object_get(o, "id"), &bad);
    if (tn == strlen("sandbox.files.changed") && memcmp(t, "sandbox.files.changed", tn) == 0) {
        read_files(st, out, e, data, &bad);
        sbx_files_more_mut(e->u.files)->id = id;
    } else {
        e->label = sbx_rt_intern(st, t, tn);
        e->kind = lifecycle_type(t, tn) ? SBX_EV_LIFECYCLE : SBX_EV_NOTE;
        e->u.life.id = id;
        if (e->kind == SBX_EV_LIFECYCLE && sandbox) {
            e->u.life.state = sbx_rt_string(st, json_object_get(sandbox, "state"), &bad);
            e->u.life.previous =
                sbx_rt_string(st, sbx_rt_get(sandbox, "previousState", "previous_state"), &bad);
            e->u.life.reason =
                sbx_rt_string(st, sbx_rt_get(sandbox, "stopReason", "stop_reason"), &bad);
        }
    }
    if (bad)
        e->findings |= SBX_F_BAD_FIELD;
    return e;
}

static bool read_event(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *o,
                       const char *text, size_t len, char *reason, size_t reasonsz)
{
    return sbx_rt_lifecycle(st, out, o, text, len, reason, reasonsz) != NULL;
}

static bool read_audit(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *o,
                       const char *text, size_t len, char *reason, size_t reasonsz)
{
    json_t *action = json_object_get(o, "action");
    if (!json_is_string(action) || json_string_length(action) == 0) {
        snprintf(reason, reasonsz, "audit entry %s",
                 action ? "whose action is not a string" : "without an action");
        return false;
    }
    int64_t at;
    uint8_t tf;
    if (!item_time(st, o, "at", NULL, &at, &tf, reason, reasonsz))
        return false;
    struct sbx_event *e = sbx_rt_push(st, out, text, len);
    e->kind = SBX_EV_AUDIT;
    e->start = e->end = at;
    e->tflags = tf;
    e->label = sbx_rt_intern(st, json_string_value(action), json_string_length(action));
    struct sbx_audit *a = e->u.audit = sbx_evbuf_alloc(out, sizeof *a);
    bool bad = false;
    json_t *actor = object_member(o, "actor", NULL, &bad);
    if (actor) {
        a->actor = actor_name(st, actor, &bad);
        a->actor_kind = sbx_rt_string(st, json_object_get(actor, "kind"), &bad);
        a->actor_id = sbx_rt_string(st, json_object_get(actor, "id"), &bad);
        a->person = sbx_rt_string(st, json_object_get(actor, "person"), &bad);
    }
    json_t *target = object_member(o, "target", NULL, &bad);
    uint32_t target_sandbox = 0;
    if (target) {
        json_t *type = json_object_get(target, "type"), *id = json_object_get(target, "id");
        bool typed = json_is_string(type), named = json_is_string(id);
        bad |= (type && !typed && !json_is_null(type)) || (id && !named && !json_is_null(id));
        struct sbx_buf b = SBX_BUF_INIT;
        if (typed)
            sbx_buf_add(&b, json_string_value(type), json_string_length(type));
        if (typed && named)
            sbx_buf_addc(&b, ':');
        if (named)
            sbx_buf_add(&b, json_string_value(id), json_string_length(id));
        a->target = sbx_rt_intern(st, b.p ? b.p : "", b.len);
        sbx_buf_free(&b);
        if (named && string_is(type, "sandbox"))
            target_sandbox = sbx_rt_intern(st, json_string_value(id), json_string_length(id));
    }
    a->via = sbx_rt_string(st, json_object_get(o, "via"), &bad);
    a->inside = sbx_rt_string(st, json_object_get(o, "sandbox"), &bad);
    a->ip = sbx_rt_string(st, json_object_get(o, "ip"), &bad);
    a->request = sbx_rt_string(st, sbx_rt_get(o, "requestId", "request_id"), &bad);
    sbx_rt_audit_change(st, a, json_string_value(action), json_object_get(o, "detail"), target, &bad);
    e->sandbox = a->inside ? a->inside : target_sandbox;
    if (bad)
        e->findings |= SBX_F_BAD_FIELD;
    return true;
}

/* A reading: negative when absent (or, with *bad, not a non-negative number). */
static double reading(json_t *o, const char *camel, const char *snake, bool *bad)
{
    json_t *v = sbx_rt_get(o, camel, snake);
    if (!v || json_is_null(v))
        return -1;
    double d = json_is_number(v) ? json_number_value(v) : -1;
    if (d < 0)
        *bad = true;
    return d < 0 ? -1 : d;
}

static int64_t byte_count(json_t *o, const char *camel, const char *snake, bool *bad)
{
    json_t *v = sbx_rt_get(o, camel, snake);
    if (!v || json_is_null(v))
        return -1;
    if (json_is_integer(v) && json_integer_value(v) >= 0)
        return json_integer_value(v);
    if (json_is_real(v) && json_real_value(v) >= 0 && json_real_value(v) < 9e18)
        return (int64_t)json_real_value(v);
    *bad = true;
    return -1;
}

static bool read_metrics(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *o,
                         const char *text, size_t len, char *reason, size_t reasonsz)
{
    json_t *points = json_object_get(o, "points");
    const char *v, *vend;
    if (!json_is_array(points) || !sbx_rt_member(text, len, "points", &v, &vend)) {
        snprintf(reason, reasonsz, "metrics object without a points array");
        return false;
    }
    bool sandbox_bad = false;
    uint32_t sandbox = sbx_rt_string(st, sbx_rt_get(o, "sandboxId", "sandbox_id"), &sandbox_bad);
    sandbox_bad |= !sandbox;
    struct sbx_rt_iter it;
    sbx_rt_iter_begin(&it, v, vend);
    const char *p, *pend;
    for (size_t i = 0; sbx_rt_iter_next(&it, NULL, NULL, &p, &pend); i++) {
        json_t *pt = json_array_get(points, i);
        if (!json_is_object(pt)) {
            sbx_rt_skip(st, out, p, "metrics point that is not a JSON object");
            continue;
        }
        int64_t at;
        uint8_t tf;
        if (!sbx_rt_time(json_object_get(pt, "at"), &at, &tf)) {
            sbx_rt_skip(st, out, p, "metrics point %s",
                        json_object_get(pt, "at") ? "whose at is not a time" : "without at");
            continue;
        }
        struct sbx_event *e = sbx_rt_push(st, out, p, (size_t)(pend - p));
        e->kind = SBX_EV_METRIC;
        e->start = e->end = at;
        e->tflags = tf;
        e->sandbox = sandbox;
        bool bad = sandbox_bad;
        struct sbx_metric *m = &e->u.metric;
        m->cpu_percent = reading(pt, "cpuPercent", "cpu_percent", &bad);
        m->cpu_peak_percent = reading(pt, "cpuPeakPercent", "cpu_peak_percent", &bad);
        m->memory_bytes = byte_count(pt, "memoryBytes", "memory_bytes", &bad);
        m->memory_peak_bytes = byte_count(pt, "memoryPeakBytes", "memory_peak_bytes", &bad);
        if (bad)
            e->findings |= SBX_F_BAD_FIELD;
    }
    return true;
}

const struct sbx_rt_kind sbx_rt_commands = {
    "command record", {{"startedAt", "started_at"}, {"program", NULL}}, false, read_command};
const struct sbx_rt_kind sbx_rt_events = {
    "lifecycle event", {{"type", NULL}, {"createdAt", "created_at"}}, false, read_event};
const struct sbx_rt_kind sbx_rt_audit = {
    "audit entry", {{"action", NULL}, {"at", NULL}, {"seq", NULL}}, true, read_audit};
const struct sbx_rt_kind sbx_rt_metrics = {
    "metrics object", {{"points", NULL}, {"sandboxId", "sandbox_id"}}, false, read_metrics};
