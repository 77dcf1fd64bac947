/* sandboxio's audit lines (audit.jsonl, from its FileSink or LoggingSink):
 * one JSON object per operation, written when it closed, already redacted
 * (each secret value is ***). exec, run_code and stream are commands (argv
 * kept as an argv text; run_code's captured code instead when it has no
 * argv), file_* operations are files events that name no path, any other
 * operation a note; network_denials > 0 is a refused connection on the
 * operation. ts is the start; the end is ts + duration_ms.
 *
 * Lines with an argv hold an array, which the scanner leaves to jansson to
 * validate; the rest is the recorder's way: one scan, texts kept as
 * references into the file, short repeated strings interned through small
 * caches. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/json/jsonline.h"
#include "importers/json/jsonscan.h"
#include "model/argv.h"
#include "model/files.h"
#include "base/jsonstr.h"
#include "model/program.h"
#include "base/timefmt.h"

enum { LABEL_CACHE_SIZE = 512, LABEL_CACHE_MAX = 160 };

/* A duration beyond a year is no duration sandboxio measured. */
#define MAX_MS (366LL * 24 * 3600 * 1000)

struct label_cache_entry {
    uint64_t hash;
    uint32_t len;
    uint32_t program;
    char argv[LABEL_CACHE_MAX];
};

struct sbio_state {
    struct sbx_jline j;
    struct sbx_jline_last sandbox[SBX_JLINE_LAST], event[SBX_JLINE_LAST];
    uint32_t run_code; /* strtab id of "run_code" (0: not yet interned) */
    struct label_cache_entry labels[LABEL_CACHE_SIZE];
};

enum field {
    F_OTHER, F_TS, F_EVENT, F_SANDBOX, F_ARGV, F_CODE, F_EXIT, F_MS, F_DENIALS,
    F_BYTES_IN, F_BYTES_OUT, F_SHA, F_BACKEND, F_ISOLATION, F_TENANT, F_SESSION,
    F_COUNT
};

/* The field a key names: by length first, then one comparison or two. */
static enum field field_of(const char *k, size_t n)
{
#define IS(word) (memcmp(k, word, sizeof word - 1) == 0)
    switch (n) {
    case 2: return IS("ts") ? F_TS : F_OTHER;
    case 4: return IS("argv") ? F_ARGV : IS("code") ? F_CODE : F_OTHER;
    case 5: return IS("event") ? F_EVENT : F_OTHER;
    case 7: return IS("backend") ? F_BACKEND : F_OTHER;
    case 8: return IS("bytes_in") ? F_BYTES_IN : F_OTHER;
    case 9:
        return IS("exit_code") ? F_EXIT : IS("isolation") ? F_ISOLATION
             : IS("tenant_id") ? F_TENANT : IS("bytes_out") ? F_BYTES_OUT : F_OTHER;
    case 10: return IS("sandbox_id") ? F_SANDBOX : IS("session_id") ? F_SESSION : F_OTHER;
    case 11: return IS("duration_ms") ? F_MS : IS("code_sha256") ? F_SHA : F_OTHER;
    case 15: return IS("network_denials") ? F_DENIALS : F_OTHER;
    default: return F_OTHER;
    }
#undef IS
}

static void *state_new(struct sbx_timeline *tl, uint32_t source,
                       const struct sbx_import_opts *opts)
{
    (void)opts; /* this format needs nothing from outside its file */
    struct sbio_state *st = sbx_xcalloc(1, sizeof *st);
    sbx_jline_init(&st->j, tl, source);
    return st;
}

static void state_free(void *p)
{
    struct sbio_state *st = p;
    sbx_jline_free(&st->j);
    free(st);
}

/* Whether an array's raw bytes hold a \u escape or a non-ASCII byte (its
 * strings could then hold any character: SBX_TEXT_UNUSUAL). */
static bool unusual_bytes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80 || (s[i] == '\\' && i + 1 < n && s[i + 1] == 'u'))
            return true;
    return false;
}

/* The program label of an argv (the label of its command line, so that
 * `bash -c "python3 x.py"` is python3 as in the recorder's logs), or 0 when
 * the array is not one of strings. Agents repeat commands: a small cache
 * keyed by the raw bytes, compared in full, saves the parse. */
static bool argv_program(struct sbio_state *st, const struct sbx_jmember *m, uint32_t *program)
{
    struct label_cache_entry *c = NULL;
    uint64_t h = 0;
    if (m->val_len <= LABEL_CACHE_MAX) {
        h = sbx_jline_hash(m->val, m->val_len);
        c = &st->labels[h & (LABEL_CACHE_SIZE - 1)];
        if (c->len == m->val_len && c->hash == h && c->program &&
            memcmp(c->argv, m->val, m->val_len) == 0) {
            *program = c->program;
            return true;
        }
    }
    sbx_buf_clear(&st->j.scratch);
    sbx_buf_reserve(&st->j.scratch, SBX_ARGV_MAX(m->val_len));
    size_t n = sbx_argv_format(m->val, m->val_len, st->j.scratch.p);
    if (n == SIZE_MAX)
        return false;
    char label[128];
    size_t len = sbx_program_label(st->j.scratch.p, n, label, sizeof label);
    if (len == 3 && memcmp(label, "***", 3) == 0) {
        /* `bash -c ***`: the script was redacted; the shell is what is known */
        const char *sp = memchr(st->j.scratch.p, ' ', n);
        len = sbx_program_label(st->j.scratch.p, sp ? (size_t)(sp - st->j.scratch.p) : n, label,
                                sizeof label);
    }
    *program = sbx_strtab_intern(&st->j.tl->strings, label, len);
    if (c) {
        c->hash = h;
        c->len = (uint32_t)m->val_len;
        c->program = *program;
        memcpy(c->argv, m->val, m->val_len);
    }
    return true;
}

/* A count: a non-negative integer, or null (-1). False for anything else. */
static bool count_of(const struct sbx_jmember *m, int64_t *v)
{
    if (m->type == SBX_JNULL) {
        *v = -1;
        return true;
    }
    if (m->type != SBX_JINT || m->i < 0)
        return false;
    *v = m->i;
    return true;
}

/* A string member or null is fine; anything else is a bad field. */
static bool string_or_null(const struct sbx_jmember *m)
{
    return !m || m->type == SBX_JSTRING || m->type == SBX_JNULL;
}

static enum sbx_kind kind_of(const char *name, size_t n)
{
    if ((n == 4 && memcmp(name, "exec", 4) == 0) || (n == 6 && memcmp(name, "stream", 6) == 0) ||
        (n == 8 && memcmp(name, "run_code", 8) == 0))
        return SBX_EV_COMMAND;
    if (n > 5 && memcmp(name, "file_", 5) == 0)
        return SBX_EV_FILES;
    return SBX_EV_NOTE;
}

static void command_fields(struct sbio_state *st, struct sbx_evbuf *out, struct sbx_event *e,
                           const struct sbx_jmember *const *by)
{
    struct sbx_command *c = &e->u.cmd;
    const struct sbx_jmember *m;
    bool run_code = false;
    if (e->label) {
        if (!st->run_code)
            st->run_code = sbx_strtab_intern(&st->j.tl->strings, "run_code", 8);
        run_code = e->label == st->run_code;
    }
    if ((m = by[F_ARGV]) && m->type == SBX_JARRAY && argv_program(st, m, &c->program)) {
        c->command = sbx_jline_text(&st->j, out, e, m, SBX_TEXT_ARGV |
                                    (unusual_bytes(m->val, m->val_len) ? SBX_TEXT_UNUSUAL : 0));
    } else if (m && m->type != SBX_JNULL) {
        /* not an array of strings: shown as it is, flagged */
        e->findings |= SBX_F_BAD_FIELD;
        c->command = m->type == SBX_JSTRING
                         ? sbx_jline_text(&st->j, out, e, m, (m->val_escaped ? SBX_TEXT_ESCAPED : 0) |
                                              (m->val_unusual ? SBX_TEXT_UNUSUAL : 0))
                         : sbx_jline_text(&st->j, out, e, m, unusual_bytes(m->val, m->val_len) ? SBX_TEXT_UNUSUAL : 0);
        c->program = e->label;
    } else if (run_code && (m = by[F_CODE]) && m->type == SBX_JSTRING) {
        /* the code itself, when sandboxio captured it */
        c->command = sbx_jline_text(&st->j, out, e, m, (m->val_escaped ? SBX_TEXT_ESCAPED : 0) |
                                        (m->val_unusual ? SBX_TEXT_UNUSUAL : 0));
        c->program = e->label;
    } else {
        c->program = e->label; /* run_code, stream: no command line given */
    }
    if ((m = by[F_EXIT])) {
        bool negative_zero = m->type == SBX_JINT && m->i == 0 && m->val_len && m->val[0] == '-';
        if (m->type == SBX_JINT && m->i >= INT32_MIN && m->i <= INT32_MAX && !negative_zero) {
            sbx_cmd_set_exit(c, (int32_t)m->i);
            c->flags |= SBX_CMD_EXIT_KNOWN;
        } else if (m->type != SBX_JNULL) {
            e->findings |= SBX_F_BAD_FIELD;
        }
    }
}

/* The event of a line the scanner has just accepted (its members are in
 * st->j.scan). */
static enum sbx_line_status import_scanned(struct sbio_state *st, struct sbx_evbuf *out,
                                           size_t len, uint64_t off, uint32_t line_no)
{
    const struct sbx_jmember *by[F_COUNT] = {0};
    for (size_t k = 0; k < st->j.scan.n; k++) {
        const struct sbx_jmember *m = &st->j.scan.m[k];
        by[field_of(m->ukey, m->ukey_len)] = m;
    }
    struct sbx_event *e = sbx_evbuf_push_from(out, st->j.source, off, len, line_no);
    const struct sbx_jmember *m;

    e->kind = SBX_EV_NOTE;
    if (st->j.scan.dups)
        e->tflags |= SBX_EVT_DUP_FIELD;
    if ((m = by[F_EVENT]) && m->type == SBX_JSTRING) {
        e->label = sbx_jline_intern(&st->j, st->event, m);
        e->kind = (uint8_t)kind_of(sbx_str(st->j.tl, e->label),
                                   sbx_strtab_len(&st->j.tl->strings, e->label));
    } else {
        e->findings |= SBX_F_BAD_FIELD;
    }

    int64_t ts = SBX_TIME_UNKNOWN;
    if ((m = by[F_TS]) && m->type == SBX_JSTRING) {
        size_t n;
        const char *s = sbx_jline_string(&st->j, m, &n);
        unsigned tf = 0;
        if (sbx_time_parse(s, n, &ts, &tf))
            e->tflags |= (uint8_t)((tf & SBX_TIME_NO_ZONE ? SBX_EVT_NO_ZONE : 0) |
                                  (tf & SBX_TIME_LEAP_SECOND ? SBX_EVT_LEAP_SECOND : 0));
        else
            e->findings |= SBX_F_BAD_FIELD;
    } else {
        e->findings |= SBX_F_BAD_FIELD;
    }
    e->start = e->end = ts;

    if ((m = by[F_SANDBOX]) && m->type == SBX_JSTRING)
        e->sandbox = sbx_jline_intern(&st->j, st->sandbox, m);
    else if (m && m->type != SBX_JNULL)
        e->findings |= SBX_F_BAD_FIELD;

    int64_t ms = -1;
    if ((m = by[F_MS])) {
        if (m->type == SBX_JINT && m->i >= 0 && m->i <= MAX_MS)
            ms = m->i;
        else if (m->type == SBX_JREAL && m->d >= 0 && m->d <= (double)MAX_MS)
            ms = (int64_t)(m->d + 0.5);
        else if (m->type != SBX_JNULL)
            e->findings |= SBX_F_BAD_FIELD;
    }
    if (ms >= 0 && ts != SBX_TIME_UNKNOWN)
        e->end = ts + ms * 1000000;

    int64_t denials = -1, bytes_in = -1, bytes_out = -1;
    if ((m = by[F_DENIALS]) && !count_of(m, &denials))
        e->findings |= SBX_F_BAD_FIELD;
    if ((m = by[F_BYTES_IN]) && !count_of(m, &bytes_in))
        e->findings |= SBX_F_BAD_FIELD;
    if ((m = by[F_BYTES_OUT]) && !count_of(m, &bytes_out))
        e->findings |= SBX_F_BAD_FIELD;
    if (!string_or_null(by[F_SHA]) || !string_or_null(by[F_BACKEND]) ||
        !string_or_null(by[F_ISOLATION]) || !string_or_null(by[F_TENANT]) ||
        !string_or_null(by[F_SESSION]) || !string_or_null(by[F_CODE]))
        e->findings |= SBX_F_BAD_FIELD;

    if (e->kind == SBX_EV_FILES) {
        static const uint32_t no_paths[SBX_CHANGE_COUNT];
        struct sbx_files *f = sbx_files_new(out, no_paths, true);
        f->flags |= SBX_FILES_OPERATION;
        struct sbx_files_more *more = sbx_files_more_mut(f);
        more->bytes_in = bytes_in;
        more->bytes_out = bytes_out;
        more->denials = denials > 0 ? (uint64_t)denials : 0;
        e->u.files = f;
        return SBX_LINE_OK;
    }
    if (e->kind == SBX_EV_COMMAND) {
        command_fields(st, out, e, by);
        if (ms >= 0) {
            sbx_cmd_set_ms(&e->u.cmd, ms);
            e->u.cmd.flags |= SBX_CMD_MS_KNOWN;
        }
    }
    if (denials > 0) { /* a note keeps them in u.cmd too (model/event.h) */
        e->u.cmd.denials = (uint64_t)denials;
        e->u.cmd.flags |= SBX_CMD_DENIALS;
    }
    return SBX_LINE_OK;
}

static enum sbx_line_status import_line(void *state, struct sbx_evbuf *out, const char *line,
                                        size_t len, uint64_t off, uint32_t line_no, char *reason,
                                        size_t reasonsz)
{
    struct sbio_state *st = state;
    enum sbx_line_status s = sbx_jline_scan(&st->j, line, len, reason, reasonsz);
    return s == SBX_LINE_OK ? import_scanned(st, out, len, off, line_no) : s;
}

/* The hot path: scan and find the line's end in one pass; a line that
 * fails is looked at again on its own, for the reason. */
static enum sbx_line_status scan_line(void *state, struct sbx_evbuf *out, const char *p,
                                      const char *limit, size_t *len, uint64_t off,
                                      uint32_t line_no, char *reason, size_t reasonsz)
{
    struct sbio_state *st = state;
    if (sbx_jscan_stream(&st->j.scan, p, limit, len))
        return import_scanned(st, out, *len, off, line_no);
    const char *nl = memchr(p, '\n', (size_t)(limit - p));
    *len = nl ? (size_t)(nl - p) : (size_t)(limit - p);
    return import_line(state, out, p, *len, off, line_no, reason, reasonsz);
}

/* A sandboxio line: a JSON object with a string ts, a string event and
 * sandbox_id, and at least one more of sandboxio's own keys. Neither the
 * recorder's lines (kind, at) nor Runtime's records (startedAt, type,
 * action, points) have ts and event; the extra key keeps a log of some
 * other program's that happens to use those three names from reading as
 * this. */
static bool is_sandboxio(const struct sbx_jscan *s)
{
    const struct sbx_jmember *ts = sbx_jscan_get(s, "ts"), *ev = sbx_jscan_get(s, "event");
    if (!ts || ts->type != SBX_JSTRING || !ev || ev->type != SBX_JSTRING ||
        !sbx_jscan_get(s, "sandbox_id"))
        return false;
    int own = 0;
    for (size_t k = 0; k < s->n; k++) {
        enum field f = field_of(s->m[k].ukey, s->m[k].ukey_len);
        own += f != F_OTHER && f != F_TS && f != F_EVENT && f != F_SANDBOX;
    }
    return own > 0;
}

/* Among the first lines, one is a sandboxio line; broken lines before it
 * do not hide the format. */
static bool detect(const char *data, size_t size)
{
    struct sbx_jscan scan;
    sbx_jscan_init(&scan);
    bool found = false;
    const char *p = data, *end = data + size;
    for (int lines = 0; p < end && lines < 50 && !found; lines++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (sbx_jscan_line(&scan, p, len))
            found = is_sandboxio(&scan);
        p += len + 1;
    }
    sbx_jscan_free(&scan);
    return found;
}

const struct sbx_format sbx_format_sandboxio = {
    .name = "sandboxio",
    .detect = detect,
    .state_new = state_new,
    .state_free = state_free,
    .line = import_line,
    .scan = scan_line,
};
