/* A timeline made by hand for the tests of model/ and analyses/: commands,
 * provider records, files and proxy events are pushed as an importer would
 * make them (times, sandbox, program label, exit, output, path lists, the
 * proxy's answer), without reading any log, so a test of an analysis fails
 * only for that analysis.
 *
 * Texts (command lines, output, URLs) are kept in one source's bytes, which
 * the timeline takes over at fixture_finish: raw, or as a JSON string body
 * (escaped, as the recorder keeps its fields) where a test says so. A
 * command's texts also make its line, as a recorder's record holds its
 * fields (the secret scan reads the line): give a command its output and
 * its other fields before pushing the next event's texts. Times are
 * nanoseconds since the epoch (FX_MS and FX_S scale them).
 *
 * Header-only (each test is one program); include after <cmocka.h>. The
 * fixture owns its timeline (fixture_free); events pushed stay valid until
 * then, and may be changed until fixture_finish. */
#ifndef SBX_TEST_FIXTURE_H
#define SBX_TEST_FIXTURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "model/files.h"
#include "model/program.h"
#include "model/timeline.h"

#define FX_MS INT64_C(1000000)
#define FX_S INT64_C(1000000000)

struct fixture {
    struct sbx_timeline tl;
    struct sbx_evbuf buf;
    struct sbx_buf text; /* the source's bytes */
    uint32_t src;
    /* the provider's records come from a source of their own, as a loaded
     * runtime-commands.json's do (their clock can be moved apart) */
    uint32_t rec_src;
    bool has_rec_src;
};

static inline void fixture_init(struct fixture *fx, const char *source_name)
{
    memset(fx, 0, sizeof *fx);
    sbx_timeline_init(&fx->tl);
    fx->src = sbx_timeline_add_source(&fx->tl, source_name, NULL, 0, SBX_DATA_HEAP);
}

static inline uint32_t fixture_id(struct fixture *fx, const char *s)
{
    return s ? sbx_strtab_intern(&fx->tl.strings, s, strlen(s)) : 0;
}

/* A text field holding s, stored as flags say, appended to the source. It
 * belongs to no event yet: it is in the general form (model/event.h) until
 * fixture_finish puts each event's texts in the usual form where they lie
 * inside its line. */
static inline struct sbx_text fixture_bytes(struct fixture *fx, const char *s, uint32_t flags)
{
    static const struct sbx_event nowhere = {.line_off = SBX_SOURCE_MAX - 1}; /* past any fixture's bytes */
    struct sbx_text t = sbx_text_make(&fx->buf, &nowhere, fx->text.len, strlen(s), SBX_TEXT_PRESENT | flags);
    sbx_buf_adds(&fx->text, s);
    return t;
}

/* t as event e keeps it: the usual form when it lies inside e's line. */
static inline void fixture_place(struct fixture *fx, const struct sbx_event *e, struct sbx_text *t)
{
    if (t->flags & SBX_TEXT_LONG)
        *t = sbx_text_make(&fx->buf, e, sbx_text_off(e, t), sbx_text_len(t), t->flags);
}

/* A text field holding s, raw (marked unusual when a byte is not printable
 * ASCII: it could hide something). */
static inline struct sbx_text fixture_text(struct fixture *fx, const char *s)
{
    uint32_t flags = 0;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            flags |= SBX_TEXT_UNUSUAL;
    return fixture_bytes(fx, s, flags);
}

/* A text field holding the JSON string body s (still escaped), marked as
 * the JSON scanner marks one: escaped when it holds a backslash, unusual
 * when a \u escape or a non-ASCII byte is in it. */
static inline struct sbx_text fixture_json(struct fixture *fx, const char *s)
{
    uint32_t flags = strchr(s, '\\') ? SBX_TEXT_ESCAPED : 0;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p >= 0x80 || (p[0] == '\\' && p[1] == 'u'))
            flags |= SBX_TEXT_UNUSUAL;
        else if (p[0] == '\\' && p[1])
            p++; /* past an escape's second byte: in \\u the u is text */
    return fixture_bytes(fx, s, flags);
}

/* An event of kind in sandbox (NULL: none), from start to end. */
static inline struct sbx_event *fixture_event(struct fixture *fx, enum sbx_kind kind,
                                              const char *sandbox, int64_t start, int64_t end)
{
    struct sbx_event *e = sbx_evbuf_push(&fx->buf);
    e->kind = (uint8_t)kind;
    e->source = (uint16_t)fx->src;
    sbx_ev_set_line_no(e, (uint32_t)fx->buf.n);
    e->start = start;
    e->end = end;
    e->sandbox = fixture_id(fx, sandbox);
    if (kind == SBX_EV_AUDIT) /* as the importer: the entry's record behind its pointer */
        e->u.audit = sbx_evbuf_alloc(&fx->buf, sizeof *e->u.audit);
    return e;
}

/* Appends a field of command e's record to the source and to e's line, a
 * newline after the field before it (a secret cannot run from one field
 * into the next), made as `as` makes texts (fixture_text, fixture_json). The
 * line must still end the source. */
static inline struct sbx_text fixture_append(struct fixture *fx, struct sbx_event *e,
                                             struct sbx_text (*as)(struct fixture *, const char *),
                                             const char *s)
{
    if (e->line_off + sbx_ev_line_len(e) != fx->text.len)
        fail_msg("line %u: another event's text came between its fields", (unsigned)sbx_ev_line_no(e));
    if (sbx_ev_line_len(e))
        sbx_buf_addc(&fx->text, '\n');
    struct sbx_text t = as(fx, s);
    sbx_ev_set_line_len(e, (uint32_t)(fx->text.len - e->line_off));
    return t;
}

/* A command of the wrapper's log that started at start and ran ms, with its
 * program label and exit code, and empty output. */
static inline struct sbx_event *fixture_command(struct fixture *fx, const char *sandbox,
                                                int64_t start, int64_t ms, const char *cmd,
                                                int exit)
{
    struct sbx_event *e = fixture_event(fx, SBX_EV_COMMAND, sandbox, start, start + ms * FX_MS);
    struct sbx_command *c = &e->u.cmd;
    e->line_off = fx->text.len;
    c->command = fixture_append(fx, e, fixture_text, cmd);
    char label[128];
    size_t n = sbx_program_label(cmd, strlen(cmd), label, sizeof label);
    c->program = sbx_strtab_intern(&fx->tl.strings, label, n);
    sbx_cmd_set_exit(c, exit);
    sbx_cmd_set_ms(c, ms);
    c->flags = SBX_CMD_EXIT_KNOWN | SBX_CMD_MS_KNOWN;
    c->out = fixture_append(fx, e, fixture_text, "");
    sbx_cmd_set_err(c, fixture_append(fx, e, fixture_text, ""));
    return e;
}

/* Gives a command its stdout and stderr, raw. */
static inline void fixture_output(struct fixture *fx, struct sbx_event *e, const char *out,
                                  const char *err)
{
    e->u.cmd.out = fixture_append(fx, e, fixture_text, out);
    sbx_cmd_set_err(&e->u.cmd, fixture_append(fx, e, fixture_text, err));
}

/* Gives a command its stdout and stderr as JSON string bodies, still
 * escaped as the recorder keeps them. */
static inline void fixture_output_json(struct fixture *fx, struct sbx_event *e, const char *out,
                                       const char *err)
{
    e->u.cmd.out = fixture_append(fx, e, fixture_json, out);
    sbx_cmd_set_err(&e->u.cmd, fixture_append(fx, e, fixture_json, err));
}

/* A field of a command's record that none of its texts refers to (an
 * environment the recorder added): it is in the line only. */
static inline void fixture_other_field(struct fixture *fx, struct sbx_event *e, const char *s)
{
    (void)fixture_append(fx, e, fixture_text, s);
}

/* The command timed out (its exit is what the wrapper gave then). */
static inline void fixture_timed_out(struct sbx_event *e)
{
    e->u.cmd.flags |= SBX_CMD_TIMED_OUT | SBX_CMD_TIMEOUT_KNOWN;
}

/* The stdout hash the recorder wrote for a command: 16 hex digits. */
static inline void fixture_stdout_hash(struct sbx_event *e, const char *hex16)
{
    e->u.cmd.stdout_hash = strtoull(hex16, NULL, 16);
    e->u.cmd.flags |= SBX_CMD_HASH_PRESENT;
}

/* A record of the provider's command record: program, exit (none when
 * state_flags says it runs or was never read) and a start, 5 ms long. */
static inline struct sbx_event *fixture_record(struct fixture *fx, const char *sandbox,
                                               int64_t start, const char *program, int exit,
                                               unsigned state_flags)
{
    struct sbx_event *e = fixture_event(fx, SBX_EV_COMMAND, sandbox, start, start + 5 * FX_MS);
    if (!fx->has_rec_src) {
        fx->rec_src = sbx_timeline_add_source(&fx->tl, "runtime-commands.json", NULL, 0, SBX_DATA_HEAP);
        fx->tl.sources[fx->rec_src].format = "runtime-commands";
        fx->has_rec_src = true;
    }
    e->source = (uint16_t)fx->rec_src;
    struct sbx_command *c = &e->u.cmd;
    c->program = fixture_id(fx, program);
    c->flags = SBX_CMD_RECORD | SBX_CMD_MS_KNOWN | state_flags;
    sbx_cmd_set_ms(c, 5);
    if (!(state_flags & (SBX_CMD_RUNNING | SBX_CMD_UNREAD))) {
        c->flags |= SBX_CMD_EXIT_KNOWN;
        sbx_cmd_set_exit(c, exit);
    }
    return e;
}

/* A request through the proxy to host (NULL: none named) at the time
 * given, 1 µs long. */
static inline struct sbx_event *fixture_request(struct fixture *fx, const char *sandbox,
                                                int64_t at, const char *host)
{
    int64_t end = at == SBX_TIME_UNKNOWN ? SBX_TIME_UNKNOWN : at + 1000;
    struct sbx_event *e = fixture_event(fx, SBX_EV_NETWORK, sandbox, at, end);
    e->u.net.host = fixture_id(fx, host);
    e->u.net.status = -1;
    e->u.net.bytes_in = e->u.net.bytes_out = -1;
    return e;
}

/* What the proxy logged of request e: its method, its URL as the log wrote
 * it, Squid's result code, the HTTP status (-1: none), the bytes sent back
 * (-1: not said) and the flags an importer reads from those (enum
 * sbx_network_flags: SBX_NET_DENIED for a TCP_DENIED, …). */
static inline void fixture_answer(struct fixture *fx, struct sbx_event *e, const char *method,
                                  const char *url, const char *result, int status,
                                  int64_t bytes_in, unsigned flags)
{
    struct sbx_network *n = &e->u.net;
    n->method = fixture_id(fx, method);
    n->url = fixture_text(fx, url);
    n->result = fixture_id(fx, result);
    n->status = status;
    n->bytes_in = bytes_in;
    n->flags = flags;
}

/* A files event in sandbox (NULL: none) at a time, for root (NULL: the
 * workspace; else as the importer keeps it, without a trailing slash),
 * naming no path yet (fixture_path, fixture_paths). */
static inline struct sbx_event *fixture_files(struct fixture *fx, const char *sandbox, int64_t at,
                                              const char *root)
{
    static const uint32_t none[SBX_CHANGE_COUNT];
    struct sbx_event *e = fixture_event(fx, SBX_EV_FILES, sandbox, at, at);
    e->u.files = sbx_files_new(&fx->buf, none, false);
    e->u.files->root = fixture_id(fx, root);
    return e;
}

/* Adds path to a files event's list of one change, as the importer keeps
 * it: a display path, already under the root ("/etc/hosts" for "./hosts"
 * under /etc), interned. The event gets a new struct with one more path
 * (the lists of one struct are filled in order), the rest copied. */
static inline void fixture_path(struct fixture *fx, struct sbx_event *e, enum sbx_change change,
                                const char *path)
{
    const struct sbx_files *f = e->u.files;
    uint32_t room[SBX_CHANGE_COUNT] = {f->n[0], f->n[1], f->n[2]};
    room[change]++;
    struct sbx_files *g = sbx_files_new(&fx->buf, room, (f->flags & SBX_FILES_MORE) != 0);
    g->root = f->root;
    g->flags = f->flags;
    if (f->flags & SBX_FILES_MORE)
        *sbx_files_more_mut(g) = *sbx_files_more(f);
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        for (uint32_t k = 0; k < f->n[c]; k++)
            sbx_files_add(g, (enum sbx_change)c, sbx_files_ids(f, (enum sbx_change)c)[k]);
        if (c == (int)change)
            sbx_files_add(g, change, sbx_strtab_intern(&fx->tl.strings, path, strlen(path)));
    }
    e->u.files = g;
}

/* fixture_path for each path given, up to a NULL. */
__attribute__((sentinel)) static inline void fixture_paths(struct fixture *fx, struct sbx_event *e,
                                                           enum sbx_change change, ...)
{
    va_list ap;
    va_start(ap, change);
    for (const char *p; (p = va_arg(ap, const char *));)
        fixture_path(fx, e, change, p);
    va_end(ap);
}

/* Sorts the events; the timeline is then read as any loaded one. */
static inline void fixture_finish(struct fixture *fx)
{
    for (size_t i = 0; i < fx->buf.n; i++) {
        struct sbx_event *e = sbx_evbuf_at(&fx->buf, i);
        if (e->kind == SBX_EV_COMMAND) {
            fixture_place(fx, e, &e->u.cmd.command);
            fixture_place(fx, e, &e->u.cmd.out);
            struct sbx_text err = sbx_cmd_err(&e->u.cmd);
            fixture_place(fx, e, &err);
            sbx_cmd_set_err(&e->u.cmd, err);
        } else if (e->kind == SBX_EV_NETWORK) {
            fixture_place(fx, e, &e->u.net.url);
        }
    }
    sbx_timeline_set_data(&fx->tl, fx->src, fx->text.p, fx->text.len, SBX_DATA_HEAP);
    fx->text = (struct sbx_buf)SBX_BUF_INIT;
    sbx_timeline_adopt(&fx->tl, &fx->buf);
    sbx_timeline_finish(&fx->tl);
}

static inline void fixture_free(struct fixture *fx)
{
    sbx_timeline_free(&fx->tl);
    sbx_buf_free(&fx->text);
}

#endif
