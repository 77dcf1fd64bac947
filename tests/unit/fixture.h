/* A timeline made by hand for the tests of model/ and analyses/: commands,
 * provider records, files and proxy events are pushed as an importer would
 * make them (times, sandbox, program label, exit, output), without reading
 * any log, so a test of an analysis fails only for that analysis.
 *
 * Texts (command lines, output) are kept raw in one source's bytes, which
 * the timeline takes over at fixture_finish. Times are nanoseconds since the
 * epoch (FX_MS and FX_S scale them).
 *
 * Header-only (each test is one program); include after <cmocka.h>. The
 * fixture owns its timeline (fixture_free); events pushed stay valid until
 * then, and may be changed until fixture_finish. */
#ifndef SBX_TEST_FIXTURE_H
#define SBX_TEST_FIXTURE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
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

/* A text field holding s, raw (marked unusual when a byte is not printable
 * ASCII, as the JSON scanner marks it). */
static inline struct sbx_text fixture_text(struct fixture *fx, const char *s)
{
    struct sbx_text t = {fx->text.len, (uint32_t)strlen(s), SBX_TEXT_PRESENT};
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            t.flags |= SBX_TEXT_UNUSUAL;
    sbx_buf_adds(&fx->text, s);
    return t;
}

/* An event of kind in sandbox (NULL: none), from start to end. */
static inline struct sbx_event *fixture_event(struct fixture *fx, enum sbx_kind kind,
                                              const char *sandbox, int64_t start, int64_t end)
{
    struct sbx_event *e = sbx_evbuf_push(&fx->buf);
    e->kind = (uint8_t)kind;
    e->source = (uint16_t)fx->src;
    e->line_no = (uint32_t)fx->buf.n;
    e->start = start;
    e->end = end;
    e->sandbox = fixture_id(fx, sandbox);
    return e;
}

/* A command of the wrapper's log that started at start and ran ms, with its
 * program label and exit code, and empty output. */
static inline struct sbx_event *fixture_command(struct fixture *fx, const char *sandbox,
                                                int64_t start, int64_t ms, const char *cmd,
                                                int exit)
{
    struct sbx_event *e = fixture_event(fx, SBX_EV_COMMAND, sandbox, start, start + ms * FX_MS);
    struct sbx_command *c = &e->u.cmd;
    c->command = fixture_text(fx, cmd);
    char label[128];
    size_t n = sbx_program_label(cmd, strlen(cmd), label, sizeof label);
    c->program = sbx_strtab_intern(&fx->tl.strings, label, n);
    c->exit = exit;
    c->ms = ms;
    c->flags = SBX_CMD_EXIT_KNOWN | SBX_CMD_MS_KNOWN;
    c->out = fixture_text(fx, "");
    c->err = fixture_text(fx, "");
    return e;
}

/* Gives a command its stdout and stderr. */
static inline void fixture_output(struct fixture *fx, struct sbx_event *e, const char *out,
                                  const char *err)
{
    e->u.cmd.out = fixture_text(fx, out);
    e->u.cmd.err = fixture_text(fx, err);
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
    c->ms = 5;
    if (!(state_flags & (SBX_CMD_RUNNING | SBX_CMD_UNREAD))) {
        c->flags |= SBX_CMD_EXIT_KNOWN;
        c->exit = exit;
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

/* Sorts the events; the timeline is then read as any loaded one. */
static inline void fixture_finish(struct fixture *fx)
{
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
