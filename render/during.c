#include "render/during.h"

#include <string.h>

#include "analyses/cmdlink.h"
#include "base/timefmt.h"
#include "render/summary/summary_common.h"
#include "render/untrusted.h"

bool sbx_during_of(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                   const struct sbx_event *e, struct sbx_during *d)
{
    memset(d, 0, sizeof *d);
    if (!sum || !sum->cmds || !sbx_event_not_wrapper(tl, e))
        return false;
    d->total = sbx_cmdindex_running(sum->cmds, e, d->running, SBX_DURING_MAX);
    d->nrunning = d->total < SBX_DURING_MAX ? d->total : SBX_DURING_MAX;
    d->inner = sbx_cmdindex_during(sum->cmds, e);
    d->ended = sbx_cmdindex_ended_before(sum->cmds, e);
    return true;
}

/* {at, command, source, line}: a record's command is its program. */
static void command_ref(const struct sbx_timeline *tl, struct sbx_jsonw *w, const struct sbx_event *e)
{
    if (!e) {
        sbx_jw_null(w);
        return;
    }
    char t[SBX_TIME_BUFSZ];
    sbx_jw_object(w);
    sbx_jw_key(w, "at");
    if (e->start == SBX_TIME_UNKNOWN)
        sbx_jw_null(w);
    else
        sbx_jw_cstr(w, sbx_time_format(e->start, t));
    sbx_jw_key(w, "command");
    if (e->u.cmd.flags & SBX_CMD_RECORD) {
        sbx_untrusted_json_cstr(w, sbx_str(tl, e->u.cmd.program));
    } else {
        struct sbx_buf tmp = SBX_BUF_INIT;
        size_t n;
        const char *line = sbx_text_get(tl, e, &e->u.cmd.command, &tmp, &n);
        sbx_untrusted_json(w, line, n);
        sbx_buf_free(&tmp);
    }
    sbx_jw_key(w, "source");
    sbx_untrusted_json_cstr(w, sbx_display_path(tl->sources[e->source].path));
    sbx_jw_key(w, "line");
    sbx_jw_int(w, sbx_ev_line_no(e));
    sbx_jw_end_object(w);
}

void sbx_during_json(const struct sbx_timeline *tl, const struct sbx_during *d, struct sbx_jsonw *w)
{
    sbx_jw_key(w, "during");
    command_ref(tl, w, d->inner);
    sbx_jw_key(w, "during_all");
    sbx_jw_array(w);
    for (size_t i = 0; i < d->nrunning; i++)
        command_ref(tl, w, d->running[i]);
    sbx_jw_end_array(w);
    sbx_jw_key(w, "during_count");
    sbx_jw_int(w, (int64_t)d->total);
    sbx_jw_key(w, "ended_before");
    command_ref(tl, w, d->ended);
}

enum { COMMAND_MAX = 300 };

/* One command as sbx_during_text names it: its line redacted, then cut
 * (never inside a character), a NUL shown as the sanitiser shows it. */
static void command_words(const struct sbx_timeline *tl, const struct sbx_event *c, struct sbx_buf *out)
{
    char t[SBX_TIME_BUFSZ];
    if (c->u.cmd.flags & SBX_CMD_RECORD) {
        sbx_buf_adds(out, sbx_str(tl, c->u.cmd.program));
        sbx_buf_addf(out, " (Runtime's record, started %s)", sbx_time_format(c->start, t) + 11);
        return;
    }
    struct sbx_buf tmp = SBX_BUF_INIT, red = SBX_BUF_INIT;
    size_t len;
    const char *s = sbx_text_get(tl, c, &c->u.cmd.command, &tmp, &len);
    s = sbx_untrusted_redact(&red, s, len, &len);
    if (len > COMMAND_MAX) {
        len = COMMAND_MAX;
        while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
            len--;
    }
    sbx_buf_adds(out, "$ ");
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\0')
            sbx_buf_adds(out, "^@");
        else
            sbx_buf_addc(out, s[i]);
    }
    sbx_buf_addf(out, " (started %s)", sbx_time_format(c->start, t) + 11);
    sbx_buf_free(&tmp);
    sbx_buf_free(&red);
}

void sbx_during_text(const struct sbx_timeline *tl, const struct sbx_during *d, struct sbx_buf *out)
{
    sbx_buf_adds(out, "running then: ");
    if (!d->total)
        sbx_buf_adds(out, "no command");
    for (size_t i = 0; i < d->nrunning; i++) {
        sbx_buf_adds(out, i ? " and within it " : "");
        command_words(tl, d->running[i], out);
    }
    if (d->total > d->nrunning)
        sbx_buf_addf(out, ", and %zu more", d->total - d->nrunning);
    sbx_buf_adds(out, "; ended just before: ");
    if (d->ended)
        command_words(tl, d->ended, out);
    else
        sbx_buf_adds(out, "no command");
}
