/* Timeline rows: one event per row, in fixed columns that shrink away on
 * narrow terminals (duration first, then the sandbox). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/sandboxio_line.h"
#include "model/files.h"
#include "analyses/secrets/secrets.h"
#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/views/views.h"

/* Each finding's look, in model/findings.h's order (heaviest first). */
static const enum sbx_style finding_styles[] = {
#define STYLE_OF(id, bit, name, mark, style, ...) SBX_STYLE_##style,
    SBX_FINDINGS(STYLE_OF)
#undef STYLE_OF
};

enum sbx_style sbx_finding_look(uint32_t findings, char *mark)
{
    size_t i = sbx_finding_rank(sbx_finding_heaviest(findings));
    if (i >= sbx_nfindings) {
        *mark = ' ';
        return SBX_STYLE_NORMAL;
    }
    *mark = sbx_findings[i].mark;
    return finding_styles[i];
}

void sbx_findings_words(uint32_t findings, struct sbx_buf *out)
{
    const char *sep = "";
    for (size_t i = 0; i < sbx_nfindings; i++)
        if (findings & sbx_findings[i].bit) {
            sbx_buf_addf(out, "%s%s", sep, sbx_findings[i].words);
            sep = ", ";
        }
}

void sbx_rows_look_init(struct sbx_rows_look *l, const struct sbx_timeline *tl,
                        const struct sbx_summary *sum, bool local)
{
    memset(l, 0, sizeof *l);
    l->tl = tl;
    l->sum = sum;
    l->local = local;
    if (sum && sum->patterns)
        l->scratch = sbx_secrets_scratch_new(sum->patterns);
}

void sbx_rows_look_free(struct sbx_rows_look *l)
{
    sbx_secrets_scratch_free(l->scratch);
    sbx_buf_free(&l->text);
    sbx_buf_free(&l->red);
    memset(l, 0, sizeof *l);
}

char *sbx_thousands(unsigned long long v, char *buf)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%llu", v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

static bool split_time(int64_t ns, bool local, struct tm *tm, int *ms)
{
    if (ns == SBX_TIME_UNKNOWN)
        return false;
    int64_t ms_all = ns >= 0 ? ns / 1000000 : -((-ns + 999999) / 1000000);
    time_t secs = (time_t)(ms_all >= 0 ? ms_all / 1000 : -((-ms_all + 999) / 1000));
    *ms = (int)(ms_all - (int64_t)secs * 1000);
    return local ? localtime_r(&secs, tm) != NULL : gmtime_r(&secs, tm) != NULL;
}

char *sbx_clock(int64_t ns, bool local, char *buf)
{
    struct tm tm;
    int ms;
    if (!split_time(ns, local, &tm, &ms)) {
        strcpy(buf, "--:--:--.---");
        return buf;
    }
    snprintf(buf, 16, "%02u:%02u:%02u.%03u", (unsigned)tm.tm_hour % 100u, (unsigned)tm.tm_min % 100u,
             (unsigned)tm.tm_sec % 100u, (unsigned)ms % 1000u);
    return buf;
}

char *sbx_stamp(int64_t ns, bool local, char *buf)
{
    struct tm tm;
    int ms;
    if (!split_time(ns, local, &tm, &ms)) {
        strcpy(buf, "unknown time");
        return buf;
    }
    char zone[8] = "UTC";
    if (local)
        strftime(zone, sizeof zone, "%Z", &tm);
    snprintf(buf, 40, "%04d-%02d-%02d %02d:%02d:%02d %.7s", (tm.tm_year + 1900) % 10000,
             (tm.tm_mon + 1) % 100, tm.tm_mday % 100, tm.tm_hour % 100, tm.tm_min % 100,
             tm.tm_sec % 100, zone);
    return buf;
}

enum { REVIEW_W = 3, MARK_W = 2, TIME_W = 13, DUR_W = 7, SANDBOX_W = 9, KIND_W = 2, EXIT_W = 5 };

static bool show_duration(int cols) { return cols >= 60; }

static bool show_sandbox(const struct sbx_rows_look *l, int cols)
{
    return l->sum && l->sum->nsandboxes > 1 && cols >= 70;
}

int sbx_row_text_col(const struct sbx_rows_look *l, int cols)
{
    return (l->review_cells ? REVIEW_W : 0) + MARK_W + TIME_W + (show_duration(cols) ? DUR_W : 0) +
           (show_sandbox(l, cols) ? SANDBOX_W : 0) + KIND_W + EXIT_W;
}

static enum sbx_style sandbox_style(const struct sbx_rows_look *l, uint32_t id)
{
    for (size_t i = 0; i < l->sum->nsandboxes; i++)
        if (l->sum->sandboxes[i] == id)
            return (enum sbx_style)(SBX_STYLE_SANDBOX1 + (int)(i % SBX_SANDBOX_STYLES));
    return SBX_STYLE_NORMAL;
}

static const char kind_marks[SBX_EV_KIND_COUNT] = {
    [SBX_EV_COMMAND] = '$', [SBX_EV_FILES] = 'F', [SBX_EV_NETWORK] = 'N', [SBX_EV_LIFECYCLE] = 'L',
    [SBX_EV_AUDIT] = 'A',   [SBX_EV_METRIC] = 'M', [SBX_EV_SPAN] = 'S',   [SBX_EV_NOTE] = '#',
};

char sbx_kind_mark(enum sbx_kind k)
{
    return (unsigned)k < SBX_EV_KIND_COUNT ? kind_marks[k] : '?';
}

/* words, then s redacted, appended to out. */
static void add_redacted(struct sbx_buf *out, const char *words, const char *s)
{
    sbx_buf_adds(out, words);
    sbx_secrets_redact_any(s, strlen(s), out);
}

static void sha_of(void *ctx, const char *key, size_t klen, const char *val, size_t vlen,
                   bool string)
{
    if (string && klen == 11 && memcmp(key, "code_sha256", 11) == 0)
        snprintf(ctx, 65, "%.*s", (int)(vlen > 64 ? 64 : vlen), val);
}

/* A command the log gives no command line for (sandboxio's run_code
 * without captured code, an operation without argv): its name, and for
 * run_code whether any code was sent. */
static void no_command_text(struct sbx_rows_look *l, const struct sbx_event *e, struct sbx_buf *out)
{
    const char *label = sbx_str(l->tl, e->label);
    sbx_buf_adds(out, label[0] ? label : "command");
    if (strcmp(label, "run_code") != 0 || strcmp(l->tl->sources[e->source].format, "sandboxio") != 0) {
        sbx_buf_adds(out, ": no command line in the log");
        return;
    }
    char sha[65] = "";
    sbx_sandboxio_extras(sbx_event_line(l->tl, e), sbx_ev_line_len(e), sha_of, sha);
    if (strcmp(sha, SBX_SANDBOXIO_EMPTY_SHA256) == 0)
        sbx_buf_adds(out, ": no code sent");
    else if (sha[0])
        sbx_buf_addf(out, ": code not captured (sha256 %.12s...)", sha);
    else
        sbx_buf_adds(out, ": code not captured");
}

/* "1,615 bytes out", "12 bytes in, 0 bytes out", "" when unknown. */
static void bytes_words(int64_t in, int64_t out, struct sbx_buf *b)
{
    char n[32];
    if (in > 0 || (in == 0 && out <= 0))
        sbx_buf_addf(b, "%s bytes in", sbx_thousands((unsigned long long)in, n));
    if (out >= 0 && (out > 0 || in < 0))
        sbx_buf_addf(b, "%s%s bytes out", in > 0 || (in == 0 && out <= 0) ? ", " : "",
                     sbx_thousands((unsigned long long)out, n));
}

/* A webhook delivery's signature check, after what the row says of its event. */
static void webhook_tag(const struct sbx_event *e, struct sbx_buf *t)
{
    if (e->tflags & SBX_EVT_WEBHOOK)
        sbx_buf_adds(t, e->tflags & SBX_EVT_SIG_OK ? " [webhook, signed]"
                        : e->tflags & SBX_EVT_SIG_BAD ? " [webhook, SIGNATURE FAILED]"
                                                      : " [webhook, unchecked]");
}

static void files_text(struct sbx_rows_look *l, const struct sbx_event *e, struct sbx_buf *out)
{
    static const char *const verbs[SBX_CHANGE_COUNT] = {"added", "changed", "removed"};
    const struct sbx_files *f = e->u.files;
    if (f && (f->flags & SBX_FILES_OPERATION)) {
        sbx_buf_addf(out, "%s: ", sbx_str(l->tl, e->label));
        size_t before = out->len;
        bytes_words(sbx_files_more(f)->bytes_in, sbx_files_more(f)->bytes_out, out);
        sbx_buf_adds(out, out->len > before ? ", no path named" : "no path named");
        return;
    }
    const char *root = f && f->root ? sbx_str(l->tl, f->root) : "";
    sbx_buf_addf(out, "files %s: ", root[0] ? root : "workspace");
    bool any = false;
    for (int c = 0; f && c < SBX_CHANGE_COUNT; c++) {
        if (!f->n[c])
            continue;
        sbx_buf_addf(out, "%s%u %s (", any ? ", " : "", f->n[c], verbs[c]);
        for (uint32_t i = 0; i < f->n[c] && i < 3; i++)
            sbx_buf_addf(out, "%s%s", i ? " " : "", sbx_files_path(l->tl, f, (enum sbx_change)c, i));
        if (f->n[c] > 3)
            sbx_buf_addf(out, " +%u more", f->n[c] - 3);
        sbx_buf_adds(out, ")");
        any = true;
    }
    if (!any)
        sbx_buf_adds(out, "unchanged");
}

void sbx_draw_event_row(struct sbx_grid *g, int row, struct sbx_rows_look *l,
                        const struct sbx_event *e, bool selected)
{
    char mark;
    /* the row stands for its second witnesses too: their findings show on it */
    uint32_t findings = l->sum ? sbx_witness_findings(&l->sum->witness, e) : e->findings;
    enum sbx_style fstyle = sbx_finding_look(findings, &mark);
    enum sbx_style base = selected ? SBX_STYLE_CURSOR : SBX_STYLE_NORMAL;
    sbx_grid_fill(g, row, 0, g->cols, base);
    int col = 0;
    if (l->review_cells) {
        char cells[2];
        l->review_cells(l->review_ctx, e, cells);
        sbx_grid_text(g, row, 0, 2, selected ? base : SBX_STYLE_KIND, cells, 2);
        col = REVIEW_W;
    }
    col = sbx_grid_textf(g, row, col, g->cols, selected ? base : fstyle, "%c", mark) + 1;
    if ((e->tflags & SBX_EVT_TIME_INFERRED) && e->start != SBX_TIME_UNKNOWN)
        sbx_grid_text(g, row, col - 1, col, selected ? base : SBX_STYLE_TIME, "~", 1); /* a guessed time */
    char buf[32];
    /* an event on another day than the run's start shows its date instead of
     * its seconds (audit entries reach back 400 days) */
    if (l->sum && l->sum->start != SBX_TIME_UNKNOWN && e->start != SBX_TIME_UNKNOWN) {
        char a[40], b[40];
        sbx_stamp(e->start, l->local, a);
        sbx_stamp(l->sum->start, l->local, b);
        if (strncmp(a, b, 10) != 0) {
            snprintf(buf, sizeof buf, "%.5s %.5s", a + 5, a + 11); /* "11-26 08:38" */
            col = sbx_grid_text(g, row, col, g->cols, selected ? base : SBX_STYLE_WARNING, buf,
                                strlen(buf)) + 2;
            goto after_time;
        }
    }
    col = sbx_grid_text(g, row, col, g->cols, selected ? base : SBX_STYLE_TIME,
                        sbx_clock(e->start, l->local, buf), 12) + 1;
after_time:
    if (show_duration(g->cols)) {
        buf[0] = '\0';
        if (e->start != SBX_TIME_UNKNOWN && e->end != SBX_TIME_UNKNOWN && e->end > e->start)
            sbx_duration_text(e->end - e->start, SBX_DUR_SHORT, buf);
        else if (e->kind == SBX_EV_COMMAND && (e->u.cmd.flags & SBX_CMD_MS_KNOWN))
            sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(&e->u.cmd)), SBX_DUR_SHORT, buf);
        int w = (int)strlen(buf);
        sbx_grid_text(g, row, col + DUR_W - 1 - w, col + DUR_W - 1,
                      selected ? base : SBX_STYLE_DURATION, buf, (size_t)w);
        col += DUR_W;
    }
    if (show_sandbox(l, g->cols)) {
        const char *sb = sbx_str(l->tl, e->sandbox);
        sbx_grid_untrusted(g, row, col, col + SANDBOX_W - 1,
                           selected ? base : sandbox_style(l, e->sandbox), sb, strlen(sb));
        col += SANDBOX_W;
    }
    char k = sbx_kind_mark((enum sbx_kind)e->kind);
    sbx_grid_textf(g, row, col, g->cols, selected ? base : SBX_STYLE_KIND, "%c", k);
    col += KIND_W;
    buf[0] = '\0';
    if (e->kind == SBX_EV_COMMAND) {
        if (e->u.cmd.flags & SBX_CMD_TIMED_OUT)
            snprintf(buf, sizeof buf, "T/O");
        else if (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN)
            snprintf(buf, sizeof buf, "%d", (int)sbx_cmd_exit(&e->u.cmd));
        else
            snprintf(buf, sizeof buf, "?");
    }
    int w = (int)strlen(buf);
    if (w > EXIT_W - 1) {
        buf[EXIT_W - 1] = '\0';
        w = EXIT_W - 1;
    }
    bool bad_exit = e->findings & (SBX_F_FAILED | SBX_F_TIMED_OUT);
    sbx_grid_text(g, row, col + EXIT_W - 1 - w, col + EXIT_W - 1,
                  selected ? base : bad_exit ? fstyle : SBX_STYLE_EXIT_OK, buf, (size_t)w);
    col += EXIT_W;
    /* the text: in the finding's style when there is one, so it stands out */
    enum sbx_style tstyle = selected ? base : e->findings ? fstyle
                            : e->kind == SBX_EV_NOTE ? SBX_STYLE_NOTE : SBX_STYLE_NORMAL;
    int text_col = col;
    size_t n;
    const char *s;
    sbx_buf_clear(&l->text);
    struct sbx_buf t = SBX_BUF_INIT;
    switch (e->kind) {
    case SBX_EV_COMMAND:
        if (e->u.cmd.flags & SBX_CMD_RECORD) { /* Runtime keeps the program only */
            sbx_buf_addf(&t, "[record] %s", sbx_str(l->tl, e->u.cmd.program));
            if (e->u.cmd.flags & (SBX_CMD_RUNNING | SBX_CMD_UNREAD))
                sbx_buf_adds(&t, e->u.cmd.flags & SBX_CMD_RUNNING ? " (running)" : " (unread)");
            if (e->label)
                sbx_buf_addf(&t, " by %s", sbx_str(l->tl, e->label));
            sbx_grid_untrusted(g, row, col, g->cols, tstyle, t.p, t.len);
            break;
        } else {
        if (!(e->u.cmd.command.flags & SBX_TEXT_PRESENT) && e->label) {
            no_command_text(l, e, &t);
            sbx_grid_untrusted(g, row, col, g->cols, tstyle, t.p, t.len);
            break;
        }
        s = sbx_text_get(l->tl, e, &e->u.cmd.command, &l->text, &n);
        sbx_grid_untrusted(g, row, col, g->cols, tstyle, s, n); /* it redacts, then cuts */
        break;
        }
    case SBX_EV_AUDIT: {
        const struct sbx_audit *a = e->u.audit;
        /* each name redacted on its own: one cut where it was stored is a
         * secret's end only within its own text */
        add_redacted(&t, "", sbx_str(l->tl, e->label));
        add_redacted(&t, " by ", sbx_str(l->tl, a->actor));
        if (a->target)
            add_redacted(&t, " on ", sbx_str(l->tl, a->target));
        if (a->inside)
            add_redacted(&t, ", FROM INSIDE sandbox ", sbx_str(l->tl, a->inside));
        if (a->via)
            add_redacted(&t, " (via ", sbx_str(l->tl, a->via));
        if (a->via)
            sbx_buf_addc(&t, ')');
        sbx_grid_untrusted(g, row, col, g->cols, tstyle, t.p, t.len);
        break;
    }
    case SBX_EV_LIFECYCLE: {
        const struct sbx_lifecycle *lc = &e->u.life;
        sbx_buf_adds(&t, sbx_str(l->tl, e->label));
        if (lc->reason)
            sbx_buf_addf(&t, " (%s)", sbx_str(l->tl, lc->reason));
        webhook_tag(e, &t);
        sbx_grid_untrusted(g, row, col, g->cols, tstyle, t.p, t.len);
        break;
    }
    case SBX_EV_NETWORK: {
        const struct sbx_network *nw = &e->u.net;
        if (nw->flags & SBX_NET_DENIED)
            sbx_buf_adds(&t, "DENIED ");
        else if (nw->flags & SBX_NET_UNREACHED)
            sbx_buf_adds(&t, "unreached ");
        sbx_buf_addf(&t, "%s ", sbx_str(l->tl, nw->method));
        size_t n;
        struct sbx_buf url = SBX_BUF_INIT;
        const char *u = sbx_text_get(l->tl, e, &nw->url, &url, &n);
        sbx_buf_add(&t, u, n);
        sbx_buf_free(&url);
        if (nw->status >= 0)
            sbx_buf_addf(&t, " -> %d", (int)nw->status);
        if (nw->bytes_in >= 0)
            sbx_buf_addf(&t, ", %lld bytes", (long long)nw->bytes_in);
        sbx_grid_untrusted(g, row, col, g->cols, tstyle, t.p, t.len);
        break;
    }
    case SBX_EV_METRIC: {
        const struct sbx_metric *m = &e->u.metric;
        char num[SBX_NUM_BUFSZ];
        sbx_buf_adds(&t, "metrics:");
        if (m->cpu_percent >= 0)
            sbx_buf_addf(&t, " CPU %s", sbx_percent_text(m->cpu_percent, num));
        if (m->memory_bytes >= 0)
            sbx_buf_addf(&t, " memory %s", sbx_size_text(m->memory_bytes, num));
        sbx_grid_untrusted(g, row, col, g->cols, tstyle, t.p, t.len);
        break;
    }
    case SBX_EV_FILES: {
        struct sbx_buf t = SBX_BUF_INIT;
        files_text(l, e, &t);
        webhook_tag(e, &t);
        sbx_grid_untrusted(g, row, col, g->cols, tstyle, t.p, t.len);
        sbx_buf_free(&t);
        break;
    }
    default: {
        const char *label = sbx_str(l->tl, e->label);
        col = sbx_grid_textf(g, row, col, g->cols, tstyle, "%s ", sbx_kind_name((enum sbx_kind)e->kind));
        if (label[0]) {
            col = sbx_grid_untrusted(g, row, col, g->cols, tstyle, label, strlen(label));
            webhook_tag(e, &t); /* a note delivered by webhook: its signature before its line */
            col = sbx_grid_text(g, row, col, g->cols, tstyle, t.p ? t.p : "", t.len);
            col = sbx_grid_text(g, row, col, g->cols, tstyle, ": ", 2);
        }
        s = sbx_event_line(l->tl, e);
        sbx_grid_untrusted(g, row, col, g->cols, tstyle, s, sbx_ev_line_len(e)); /* it redacts, then cuts */
        break;
    }
    }
    sbx_buf_free(&t);
    if (l->find)
        sbx_grid_highlight(g, row, text_col, g->cols, l->find, l->find_ctx, SBX_STYLE_MATCH);
}
