/* The flight-recorder log (agent-run.jsonl), both spellings: one JSON object
 * per line; kind "command" and "files" become events of those kinds, any
 * other kind a note. Text fields are kept as references into the file; only
 * short repeated strings (sandbox, cwd, program label) are interned. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/formats/recorder_files.h"
#include "importers/json/jsonline.h"
#include "importers/json/jsonscan.h"
#include "model/program.h"
#include "base/timefmt.h"

enum { LABEL_CACHE_SIZE = 1024, LABEL_CACHE_MAX_COMMAND = 120 };

struct label_cache_entry {
    uint64_t hash;
    uint32_t len;
    uint32_t program;
    char command[LABEL_CACHE_MAX_COMMAND];
};

struct recorder_state {
    struct sbx_jline j;
    struct sbx_jline_last sandbox[SBX_JLINE_LAST], cwd[SBX_JLINE_LAST];
    struct label_cache_entry labels[LABEL_CACHE_SIZE];
    struct sbx_recfiles files;
};

enum field {
    F_OTHER, F_AT, F_SANDBOX, F_KIND, F_COMMAND, F_CWD, F_EXIT, F_TIMED_OUT, F_MS,
    F_STDOUT, F_STDERR, F_HASH, F_ROOT, F_ADDED, F_CHANGED, F_REMOVED, F_COUNT
};

/* The field a key names, in both spellings. By length first, then whole
 * constant-size comparisons the compiler turns into a load or two: this
 * runs for every member of every line. */
static enum field field_of(const char *k, size_t n)
{
#define IS(word) (memcmp(k, word, sizeof word - 1) == 0)
    switch (n) {
    case 2: return IS("at") ? F_AT : IS("ms") ? F_MS : F_OTHER;
    case 3: return IS("cwd") ? F_CWD : F_OTHER;
    case 4: return IS("kind") ? F_KIND : IS("exit") ? F_EXIT : IS("root") ? F_ROOT : F_OTHER;
    case 5: return IS("added") ? F_ADDED : F_OTHER;
    case 6: return IS("stdout") ? F_STDOUT : IS("stderr") ? F_STDERR : F_OTHER;
    case 7: return IS("sandbox") ? F_SANDBOX : IS("command") ? F_COMMAND
                 : IS("changed") ? F_CHANGED : IS("removed") ? F_REMOVED : F_OTHER;
    case 8: return IS("timedOut") ? F_TIMED_OUT : F_OTHER;
    case 9: return IS("timed_out") ? F_TIMED_OUT : F_OTHER;
    case 10: return IS("stdoutHash") ? F_HASH : F_OTHER;
    case 11: return IS("stdout_hash") ? F_HASH : F_OTHER;
    default: return F_OTHER;
    }
#undef IS
}

static void *state_new(struct sbx_timeline *tl, uint32_t source,
                       const struct sbx_import_opts *opts)
{
    (void)opts; /* this format needs nothing from outside its file */
    struct recorder_state *st = sbx_xcalloc(1, sizeof *st);
    sbx_jline_init(&st->j, tl, source);
    sbx_recfiles_init(&st->files);
    return st;
}

static void state_free(void *p)
{
    struct recorder_state *st = p;
    sbx_jline_free(&st->j);
    sbx_recfiles_free(&st->files);
    free(st);
}

static struct sbx_text text_of(const struct recorder_state *st, struct sbx_evbuf *out,
                               const struct sbx_event *e, const struct sbx_jmember *m)
{
    return sbx_jline_text(&st->j, out, e, m, (m->val_escaped ? SBX_TEXT_ESCAPED : 0) |
                                                 (m->val_unusual ? SBX_TEXT_UNUSUAL : 0) |
                                                 (m->type == SBX_JSTRING && !m->val_hides ? SBX_TEXT_SHOWN : 0));
}

/* 16 plus each hex digit's value, 0 for a byte that is none: one load a
 * byte instead of three range tests. */
static const unsigned char hex_value[256] = {
    ['0'] = 16, ['1'] = 17, ['2'] = 18, ['3'] = 19, ['4'] = 20, ['5'] = 21, ['6'] = 22,
    ['7'] = 23, ['8'] = 24, ['9'] = 25, ['a'] = 26, ['b'] = 27, ['c'] = 28, ['d'] = 29,
    ['e'] = 30, ['f'] = 31, ['A'] = 26, ['B'] = 27, ['C'] = 28, ['D'] = 29, ['E'] = 30,
    ['F'] = 31,
};

static bool parse_hash16(const char *s, size_t n, uint64_t *out)
{
    if (n != 16)
        return false;
    uint64_t v = 0;
    unsigned all = 16;
#pragma GCC unroll 16
    for (size_t i = 0; i < 16; i++) {
        unsigned d = hex_value[(unsigned char)s[i]];
        all &= d;
        v = v << 4 | (d & 15);
    }
    if (!all)
        return false;
    *out = v;
    return true;
}

/* Agents run the same commands again and again (pytest -q, git status):
 * the label of a command line already seen is taken from a small cache
 * keyed by the raw bytes, checked in full, so the shell parse runs once per
 * distinct line. */
static void set_program(struct recorder_state *st, struct sbx_event *e, const struct sbx_jmember *m)
{
    struct label_cache_entry *c = NULL;
    if (m->val_len <= LABEL_CACHE_MAX_COMMAND) {
        uint64_t h = sbx_jline_hash(m->val, m->val_len);
        c = &st->labels[h & (LABEL_CACHE_SIZE - 1)];
        if (c->hash == h && c->len == m->val_len && memcmp(c->command, m->val, m->val_len) == 0) {
            e->u.cmd.program = c->program;
            return;
        }
        c->hash = h;
    }
    size_t n;
    const char *cmd = sbx_jline_string(&st->j, m, &n);
    char label[128];
    size_t len = sbx_program_label(cmd, n, label, sizeof label);
    e->u.cmd.program = sbx_strtab_intern(&st->j.tl->strings, label, len);
    if (c) {
        memcpy(c->command, m->val, m->val_len);
        c->len = (uint32_t)m->val_len;
        c->program = e->u.cmd.program;
    }
}

/* The event of a line the scanner has just accepted (its members are in
 * st->j.scan). */
static enum sbx_line_status import_scanned(struct recorder_state *st, struct sbx_evbuf *out,
                                           size_t len, uint64_t off, uint32_t line_no)
{
    /* each field we read, found in one pass over the members (the scanner
       keeps one member a key, with its last value) */
    const struct sbx_jmember *by[F_COUNT] = {0};
    for (size_t k = 0; k < st->j.scan.n; k++) {
        const struct sbx_jmember *m = &st->j.scan.m[k];
        by[field_of(m->ukey, m->ukey_len)] = m;
    }

    const struct sbx_jmember *kind = by[F_KIND];
    struct sbx_event *e = sbx_evbuf_push_from(out, st->j.source, off, len, line_no);
    e->kind = SBX_EV_NOTE;
    if (st->j.scan.dups)
        e->tflags |= SBX_EVT_DUP_FIELD;
    if (kind && kind->type == SBX_JSTRING) {
        size_t n;
        const char *k = sbx_jline_string(&st->j, kind, &n);
        if (n == 7 && memcmp(k, "command", 7) == 0)
            e->kind = SBX_EV_COMMAND;
        else if (n == 5 && memcmp(k, "files", 5) == 0)
            e->kind = SBX_EV_FILES;
        else
            e->label = sbx_strtab_intern(&st->j.tl->strings, k, n);
    } else {
        e->findings |= SBX_F_BAD_FIELD;
    }

    int64_t at = SBX_TIME_UNKNOWN;
    if (by[F_AT] && by[F_AT]->type == SBX_JSTRING) {
        size_t n;
        const char *s = sbx_jline_string(&st->j, by[F_AT], &n);
        unsigned tf = 0;
        if (sbx_time_parse(s, n, &at, &tf)) {
            e->tflags |= (uint8_t)((tf & SBX_TIME_NO_ZONE ? SBX_EVT_NO_ZONE : 0) |
                                  (tf & SBX_TIME_LEAP_SECOND ? SBX_EVT_LEAP_SECOND : 0));
        } else {
            at = SBX_TIME_UNKNOWN;
            e->findings |= SBX_F_BAD_FIELD;
        }
    } else {
        e->findings |= SBX_F_BAD_FIELD;
    }
    e->start = e->end = at;
    if (by[F_SANDBOX]) {
        if (by[F_SANDBOX]->type == SBX_JSTRING)
            e->sandbox = sbx_jline_intern(&st->j, st->sandbox, by[F_SANDBOX]);
        else
            e->findings |= SBX_F_BAD_FIELD;
    }

    if (e->kind == SBX_EV_FILES) {
        const struct sbx_jmember *const lists[SBX_CHANGE_COUNT] = {
            [SBX_ADDED] = by[F_ADDED], [SBX_CHANGED] = by[F_CHANGED], [SBX_REMOVED] = by[F_REMOVED]};
        sbx_recfiles_read(&st->files, &st->j, out, e, by[F_ROOT], lists);
        return SBX_LINE_OK;
    }
    if (e->kind != SBX_EV_COMMAND)
        return SBX_LINE_OK;

    struct sbx_command *c = &e->u.cmd;
    const struct sbx_jmember *m;
    if ((m = by[F_COMMAND])) {
        if (m->type == SBX_JSTRING) {
            c->command = text_of(st, out, e, m);
            set_program(st, e, m);
        } else {
            e->findings |= SBX_F_BAD_FIELD;
        }
    }
    if ((m = by[F_CWD]) && m->type == SBX_JSTRING)
        c->cwd = sbx_jline_intern(&st->j, st->cwd, m);
    if ((m = by[F_EXIT])) {
        /* -0 is no exit status a process returns: someone wrote it by hand */
        bool negative_zero = m->type == SBX_JINT && m->i == 0 && m->val_len && m->val[0] == '-';
        if (m->type == SBX_JINT && m->i >= INT32_MIN && m->i <= INT32_MAX && !negative_zero) {
            sbx_cmd_set_exit(c, (int32_t)m->i);
            c->flags |= SBX_CMD_EXIT_KNOWN;
        } else if (m->type != SBX_JNULL) {
            e->findings |= SBX_F_BAD_FIELD; /* "not a valid exit code": shown as ? */
        }
    }
    if ((m = by[F_TIMED_OUT])) {
        if (m->type == SBX_JTRUE || m->type == SBX_JFALSE) {
            c->flags |= SBX_CMD_TIMEOUT_KNOWN | (m->type == SBX_JTRUE ? SBX_CMD_TIMED_OUT : 0);
        } else {
            e->findings |= SBX_F_BAD_FIELD;
        }
    }
    if ((m = by[F_MS])) {
        /* a duration beyond a year is not a duration the wrapper measured */
        if (m->type == SBX_JINT && m->i >= 0 && m->i <= 366LL * 24 * 3600 * 1000) {
            sbx_cmd_set_ms(c, m->i);
            c->flags |= SBX_CMD_MS_KNOWN;
            if (at != SBX_TIME_UNKNOWN)
                e->start = at - m->i * 1000000;
        } else {
            e->findings |= SBX_F_BAD_FIELD;
        }
    }
    if ((m = by[F_STDOUT]) && m->type == SBX_JSTRING)
        c->out = text_of(st, out, e, m);
    if ((m = by[F_STDERR]) && m->type == SBX_JSTRING)
        sbx_cmd_set_err(c, text_of(st, out, e, m));
    if ((m = by[F_HASH])) {
        size_t n;
        uint64_t hash; /* not &c->stdout_hash: the event's fields are 4-aligned (model/event.h) */
        const char *s = m->type == SBX_JSTRING ? sbx_jline_string(&st->j, m, &n) : NULL;
        if (s && parse_hash16(s, n, &hash)) {
            c->stdout_hash = hash;
            c->flags |= SBX_CMD_HASH_PRESENT;
        } else
            e->findings |= SBX_F_BAD_FIELD;
    }
    return SBX_LINE_OK;
}

static enum sbx_line_status import_line(void *state, struct sbx_evbuf *out, const char *line,
                                        size_t len, uint64_t off, uint32_t line_no, char *reason,
                                        size_t reasonsz)
{
    struct recorder_state *st = state;
    enum sbx_line_status s = sbx_jline_scan(&st->j, line, len, reason, reasonsz);
    return s == SBX_LINE_OK ? import_scanned(st, out, len, off, line_no) : s;
}

/* The hot path: scan the object and find the line's end in the same pass;
 * only a line that fails is looked at again, on its own, for the reason. */
static enum sbx_line_status scan_line(void *state, struct sbx_evbuf *out, const char *p,
                                      const char *limit, size_t *len, uint64_t off,
                                      uint32_t line_no, char *reason, size_t reasonsz)
{
    struct recorder_state *st = state;
    if (sbx_jscan_stream(&st->j.scan, p, limit, len))
        return import_scanned(st, out, *len, off, line_no);
    const char *nl = memchr(p, '\n', (size_t)(limit - p));
    *len = nl ? (size_t)(nl - p) : (size_t)(limit - p);
    return import_line(state, out, p, *len, off, line_no, reason, reasonsz);
}

/* A recorder log: among its first lines, one is a JSON object with "kind"
 * and "at". Broken lines before it do not hide the format. */
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
            found = sbx_jscan_get(&scan, "kind") && sbx_jscan_get(&scan, "at");
        p += len + 1;
    }
    sbx_jscan_free(&scan);
    return found;
}

const struct sbx_format sbx_format_recorder = {
    .name = "recorder",
    .detect = detect,
    .state_new = state_new,
    .state_free = state_free,
    .line = import_line,
    .scan = scan_line,
};
