/* The summary as plain text: one line per topic, most important first
 * within each; a line wider than the width (80, or the terminal's) wraps
 * onto indented rows, never cut. */
#include <stdlib.h>
#include <string.h>

#include "analyses/audit_change.h"
#include "analyses/secrets/secrets.h"
#include "analyses/writers.h"
#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/sanitize.h"
#include "render/style.h"
#include "render/summary/summary_common.h"
#include "render/summary/wrap.h"
#include "render/untrusted.h"

enum { LABEL_WIDTH = 11 /* "Commands:  " */ };

struct line {
    struct sbx_sumctx *c;
    struct sbx_buf b;
    const struct sbx_event *event; /* where Enter on this line leads, in the summary view */
    const char *filter;
};

static const char *times_sign(const struct sbx_sumctx *c) { return c->ascii ? "x" : "\xC3\x97"; }

/* Every list is named whole: a long one wraps onto indented rows of the
 * width, so the text states each item the JSON does. */

/* Untrusted text, redacted and made safe to show on one line. */
static void add_untrusted(struct line *l, const char *s, size_t n)
{
    sbx_untrusted_text(&l->b, s, n, SBX_SAN_ONE_LINE | (l->c->ascii ? SBX_SAN_ASCII : 0), 0);
}

static void add_untrusted_cstr(struct line *l, const char *s)
{
    add_untrusted(l, s, strlen(s));
}

static void styled_part(const struct line *l, struct sbx_buf *out, enum sbx_style style,
                        const char *s, size_t n)
{
    const char *on = l->c->sgr[style];
    if (!n)
        return;
    if (on)
        sbx_buf_adds(out, on);
    sbx_buf_add(out, s, n);
    if (on)
        sbx_buf_adds(out, "\033[0m");
}

/* One row of the line: its label (the first row's "Commands:  ") in the
 * label style, the rest in style; a continuation row after `indent` blanks. */
static void emit_row(const struct line *l, struct sbx_buf *out, enum sbx_style style, int indent,
                     const char *s, size_t n, size_t label)
{
    for (int i = 0; i < indent; i++)
        sbx_buf_addc(out, ' ');
    if (!l->c->sgr) {
        sbx_buf_add(out, s, n);
    } else {
        styled_part(l, out, SBX_STYLE_LABEL, s, label);
        styled_part(l, out, style, s + label, n - label);
    }
    sbx_buf_addc(out, '\n');
}

/* A line in its style; a topic line's label ("Commands:  ") in the label
 * style. Printed, a line wider than the width wraps onto indented rows, so
 * no fact is cut off; for the summary view (lines asked for) it stays one
 * line, which the view's document wraps. */
static void emit_styled(struct line *l, struct sbx_buf *out, enum sbx_style style)
{
    const char *s = l->b.p ? l->b.p : "";
    size_t n = l->b.len;
    size_t label = n > LABEL_WIDTH && s[0] != ' ' ? LABEL_WIDTH : 0;
    int cols = l->c->cols;
    if (l->c->lines || cols <= 0 || sbx_text_width(s, n) <= cols) {
        emit_row(l, out, style, 0, s, n, label);
    } else {
        int indent = sbx_wrap_indent(s, n, LABEL_WIDTH, cols);
        struct sbx_wrap_row row;
        size_t next = sbx_wrap_next(s, n, 0, cols, cols - indent, &row);
        emit_row(l, out, style, 0, s, row.end, label < row.end ? label : 0);
        while (next < n) {
            next = sbx_wrap_next(s, n, next, cols - indent, cols - indent, &row);
            emit_row(l, out, style, indent, s + row.begin, row.end - row.begin, 0);
        }
    }
    if (l->c->lines) {
        SBX_GROW(l->c->lines, l->c->nlines, l->c->caplines);
        l->c->lines[l->c->nlines++] = (struct sbx_summary_line){style, label, l->event, l->filter};
    }
    l->event = NULL;
    l->filter = NULL;
    sbx_buf_clear(&l->b);
}

static void emit(struct line *l, struct sbx_buf *out)
{
    emit_styled(l, out, SBX_STYLE_NORMAL);
}

static void list_items(struct line *l, const struct sbx_strlist *list)
{
    for (size_t i = 0; i < list->n; i++) {
        if (i)
            sbx_buf_adds(&l->b, ", ");
        add_untrusted_cstr(l, list->s[i]);
    }
}

/* The agents' commands, when they did not fill the run's span (the
 * sandbox lived before or after them). */
static void active_span(struct line *l)
{
    const struct sbx_summary *s = l->c->sum;
    char a[SBX_TIME_BUFSZ], b[SBX_TIME_BUFSZ], d[SBX_NUM_BUFSZ];
    if (s->active_start == SBX_TIME_UNKNOWN || s->active_end == SBX_TIME_UNKNOWN ||
        (s->active_start == s->start && s->active_end == s->end))
        return;
    sbx_buf_addf(&l->b, "; commands %s", sbx_time_format(s->active_start, a) + 11);
    sbx_buf_addf(&l->b, " to %s (%s)", sbx_time_format(s->active_end, b) + 11,
                 sbx_duration_text(s->active_end - s->active_start, SBX_DUR_WORDS, d));
}

static void run_line(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    char a[SBX_TIME_BUFSZ], b[SBX_TIME_BUFSZ], d[SBX_NUM_BUFSZ];
    sbx_buf_addf(&l->b, "Run:       %s", sbx_time_format(s->start, a));
    if (s->end != SBX_TIME_UNKNOWN && s->start != SBX_TIME_UNKNOWN) {
        const char *end = sbx_time_format(s->end, b);
        /* same day: the end time alone */
        sbx_buf_addf(&l->b, " to %s (%s)", strncmp(a, end, 11) == 0 ? end + 11 : end,
                     sbx_duration_text(sbx_summary_span_ns(s), SBX_DUR_WORDS, d));
    }
    if (s->nsandboxes) {
        sbx_buf_adds(&l->b, s->nsandboxes == 1 ? ", sandbox " : ", sandboxes ");
        for (size_t i = 0; i < s->nsandboxes; i++) {
            if (i)
                sbx_buf_adds(&l->b, ", ");
            add_untrusted_cstr(l, sbx_str(l->c->tl, s->sandboxes[i]));
        }
    }
    active_span(l);
    emit(l, out);
    sbx_buf_adds(&l->b, "Sources:   ");
    for (size_t i = 0; i < l->c->tl->nsources; i++) {
        const struct sbx_source *src = &l->c->tl->sources[i];
        if (i)
            sbx_buf_adds(&l->b, "; ");
        add_untrusted_cstr(l, sbx_display_path(src->path));
        sbx_buf_addf(&l->b, " (%s, %zu events", src->format, src->events);
        if (src->skipped)
            sbx_buf_addf(&l->b, ", %zu skipped", src->skipped);
        sbx_buf_adds(&l->b, ")");
    }
    emit(l, out);
}

static void commands_line(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    sbx_buf_addf(&l->b, "Commands:  %zu", s->commands);
    if (s->failed) {
        sbx_buf_addf(&l->b, " (%zu failed: ", s->failed);
        for (size_t i = 0; i < s->nfailed_by; i++) {
            if (i)
                sbx_buf_adds(&l->b, ", ");
            const char *prog = sbx_str(l->c->tl, s->failed_by[i].program);
            add_untrusted_cstr(l, prog[0] ? prog : "?");
            sbx_buf_addf(&l->b, " %s%zu", times_sign(l->c), s->failed_by[i].count);
        }
        sbx_buf_adds(&l->b, ")");
        l->filter = "failed";
    } else if (s->commands) {
        sbx_buf_adds(&l->b, " (none failed)");
        l->filter = "kind:command";
    }
    emit_styled(l, out, s->failed ? SBX_STYLE_WARNING : SBX_STYLE_NORMAL);
    if (s->longest) {
        char d[SBX_TIME_BUFSZ];
        size_t n;
        sbx_buf_adds(&l->b, "           ");
        if (s->timed_out)
            sbx_buf_addf(&l->b, "%zu timed out; ", s->timed_out);
        char t[SBX_TIME_BUFSZ];
        sbx_buf_addf(&l->b, "longest %s at %s: ",
                     sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(&s->longest->u.cmd)), SBX_DUR_WORDS, d),
                     sbx_time_format(s->longest->start, t) + 11);
        l->event = s->longest;
        const char *cmd = sbx_sum_command(l->c, s->longest, &n);
        add_untrusted(l, cmd, n);
        emit(l, out);
    }
}

static void changes(struct line *l, const struct sbx_strlist *lists)
{
    static const char *const verbs[SBX_CHANGE_COUNT] = {"added", "changed", "removed"};
    bool any = false;
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        if (!lists[c].n)
            continue;
        sbx_buf_addf(&l->b, "%s%zu %s (", any ? ", " : "", lists[c].n, verbs[c]);
        list_items(l, &lists[c]);
        sbx_buf_adds(&l->b, ")");
        any = true;
    }
}

static void files_line(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    sbx_buf_adds(&l->b, "Files:     ");
    l->filter = sbx_change_count(s->system) ? "system" : "kind:files";
    if (sbx_change_count(s->files))
        changes(l, s->files);
    else if (s->workspace_manifests)
        sbx_buf_adds(&l->b, "workspace unchanged");
    else
        sbx_buf_adds(&l->b, "workspace not checked");
    if (!s->system_roots.n) {
        sbx_buf_adds(&l->b, "; system folders not checked");
    } else if (!sbx_change_count(s->system)) {
        sbx_buf_adds(&l->b, "; ");
        list_items(l, &s->system_roots);
        sbx_buf_adds(&l->b, " unchanged");
    } else {
        sbx_buf_adds(&l->b, "; SYSTEM: ");
        changes(l, s->system);
    }
    emit_styled(l, out, sbx_change_count(s->system) ? SBX_STYLE_FINDING : SBX_STYLE_NORMAL);
    if (s->files_from_manifests || s->diff_files) {
        sbx_buf_adds(&l->b, "           ");
        if (s->files_from_manifests)
            sbx_buf_adds(&l->b, "workspace from the manifests");
        if (s->diff_files)
            sbx_buf_addf(&l->b, "%sdiff: %zu file%s, +%zu -%zu lines",
                         s->files_from_manifests ? "; " : "", s->diff_files,
                         s->diff_files == 1 ? "" : "s", s->diff_added_lines, s->diff_removed_lines);
        l->filter = "kind:files";
        emit(l, out);
    }
}

/* Which command wrote each changed path, on rows of the Files topic: each
 * writer by its rule and where it was logged (Enter leads to the first;
 * the command lines are in the markdown and the files view), the paths no
 * command names together, then a system file's lines. */
static void written_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    struct sbx_sum_path p;
    size_t n = 0, named = 0, unnamed = 0;
    bool system = false;
    /* one source logged every writer (the usual case): named once, at the end */
    int one_source = -1;
    for (size_t k = 0; sbx_sum_path_at(s, k, &p); k++)
        for (size_t j = 0; p.written && j < p.written->nby; j++) {
            int src = p.written->by[j].command->source;
            one_source = one_source == -1 || one_source == src ? src : -2;
        }
    for (; sbx_sum_path_at(s, n, &p); n++) {
        const struct sbx_written *w = p.written;
        system |= p.system;
        if (!w || !w->nby)
            continue;
        sbx_buf_adds(&l->b, named++ ? "; " : "           written: ");
        add_untrusted_cstr(l, p.path);
        for (size_t k = 0; k < w->nby; k++) {
            const struct sbx_event *e = w->by[k].command;
            sbx_buf_addf(&l->b, "%s by %s (", k ? "," : "", sbx_write_rule_words(w->by[k].rule));
            if (one_source < 0)
                add_untrusted_cstr(l, sbx_display_path(l->c->tl->sources[e->source].path));
            sbx_buf_addf(&l->b, one_source < 0 ? ":%u)" : "line %u)", sbx_ev_line_no(e));
            if (!l->event)
                l->event = e;
        }
    }
    if (one_source >= 0) {
        sbx_buf_adds(&l->b, ", logged in ");
        add_untrusted_cstr(l, sbx_display_path(l->c->tl->sources[one_source].path));
    }
    for (size_t k = 0; k < n && sbx_sum_path_at(s, k, &p); k++) {
        if (p.written && p.written->nby)
            continue;
        sbx_buf_adds(&l->b, unnamed++ ? ", " : named ? "; no command names " : "           no command names ");
        add_untrusted_cstr(l, p.path);
    }
    if (!n)
        return;
    l->filter = system ? "system" : "kind:files";
    emit(l, out);
    for (size_t k = 0; k < n && sbx_sum_path_at(s, k, &p); k++) {
        const struct sbx_written *w = p.written;
        if (!w || (!w->nlines && !w->more_lines))
            continue;
        sbx_buf_adds(&l->b, "  ");
        add_untrusted_cstr(l, p.path);
        sbx_buf_adds(&l->b, w->lines_from_diff ? ", lines from the diff:" : ", lines from the commands:");
        for (size_t j = 0; j < w->nlines; j++) {
            sbx_buf_adds(&l->b, j ? "; " : " ");
            add_untrusted_cstr(l, w->lines[j]);
        }
        if (w->more_lines)
            sbx_buf_addf(&l->b, "; and %zu more", w->more_lines);
        l->filter = "system";
        emit_styled(l, out, SBX_STYLE_FINDING);
    }
}

/* The operations during which the sandbox's network policy refused
 * connections: no host is known, the operation is the evidence. */
static void denial_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    for (size_t i = 0; i < s->ndenials; i++) {
        const struct sbx_event *e = s->denials[i];
        char t[SBX_TIME_BUFSZ];
        unsigned long long n = (unsigned long long)sbx_event_denials(e);
        sbx_buf_addf(&l->b, "  %s %s %llu connection%s refused by the sandbox's network policy, in ",
                     sbx_time_format(e->start, t) + 11, l->c->ascii ? "<-" : "\xE2\x86\x90", n,
                     n == 1 ? "" : "s");
        add_untrusted_cstr(l, sbx_str(l->c->tl, e->label)[0] ? sbx_str(l->c->tl, e->label) : "?");
        if (e->sandbox) {
            sbx_buf_adds(&l->b, " in sandbox ");
            add_untrusted_cstr(l, sbx_str(l->c->tl, e->sandbox));
        }
        sbx_buf_adds(&l->b, " (");
        add_untrusted_cstr(l, sbx_display_path(l->c->tl->sources[e->source].path));
        sbx_buf_addf(&l->b, ":%u)", (unsigned)sbx_ev_line_no(e));
        l->event = e;
        emit_styled(l, out, SBX_STYLE_DETAIL);
        if (e->kind != SBX_EV_COMMAND || !(e->u.cmd.command.flags & SBX_TEXT_PRESENT))
            continue;
        size_t len;
        const char *cmd = sbx_sum_command(l->c, e, &len);
        l->event = e;
        sbx_buf_adds(&l->b, "    $ ");
        add_untrusted(l, cmd, len);
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
}

/* What the proxy saw per host: refused first, then the busiest. */
static void proxy_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    size_t *order = sbx_sum_proxy_order(l->c->tl, s);
    for (size_t k = 0; k < s->nproxy_hosts; k++) {
        const struct sbx_host_stat *h = &s->proxy_hosts[order[k]];
        char bytes[SBX_NUM_BUFSZ];
        sbx_buf_adds(&l->b, "  proxy ");
        add_untrusted_cstr(l, sbx_str(l->c->tl, h->host));
        sbx_buf_addf(&l->b, ": %zu request%s", h->requests, h->requests == 1 ? "" : "s");
        if (h->denied)
            sbx_buf_addf(&l->b, ", %zu DENIED", h->denied);
        if (h->unreached)
            sbx_buf_addf(&l->b, ", %zu unreached", h->unreached);
        if (h->bytes_in > 0)
            sbx_buf_addf(&l->b, ", %s in", sbx_size_text(h->bytes_in, bytes));
        l->filter = h->denied ? "refused" : "kind:network";
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    free(order);
}

/* Each proxy log's clock: on the wrapper's, or its own and why. */
static void proxy_clock_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_proxy_clocks *pc = &l->c->sum->proxy_clocks;
    for (size_t i = 0; i < pc->n; i++) {
        sbx_buf_adds(&l->b, "  proxy clock ");
        add_untrusted_cstr(l, sbx_display_path(l->c->tl->sources[pc->c[i].source].path));
        sbx_buf_addf(&l->b, " (%s): ", pc->c[i].format);
        sbx_sum_proxy_clock_words(&pc->c[i], &l->b);
        l->filter = "kind:network";
        emit_styled(l, out, pc->c[i].skew.how == SBX_SKEW_UNCERTAIN ? SBX_STYLE_FINDING : SBX_STYLE_DETAIL);
    }
}

/* With an allow list: the hosts it lacks. */
static void unlisted_line(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    if (!s->allow_list)
        return;
    sbx_buf_adds(&l->b, "Unlisted:  ");
    if (!s->nunlisted) {
        sbx_buf_adds(&l->b, "none: every host seen is on the allow list");
        emit(l, out);
        return;
    }
    sbx_buf_addf(&l->b, "%zu not on the allow list: ", s->nunlisted);
    for (size_t i = 0; i < s->nunlisted; i++) {
        const struct sbx_unlisted *u = &s->unlisted[i];
        char t[SBX_TIME_BUFSZ];
        if (i)
            sbx_buf_adds(&l->b, ", ");
        add_untrusted_cstr(l, u->host);
        sbx_buf_addf(&l->b, " (%zu event%s, first %s)", u->events, u->events == 1 ? "" : "s",
                     sbx_time_format(u->first->start, t) + 11);
    }
    if (s->nunlisted == 1 && s->unlisted[0].events == 1)
        l->event = s->unlisted[0].first;
    else
        l->filter = "unlisted";
    emit_styled(l, out, SBX_STYLE_FINDING);
}

static void network_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    sbx_buf_adds(&l->b, "Network:   ");
    if (s->nrefused) {
        sbx_buf_addf(&l->b, "%zu refused (", s->nrefused);
        if (s->nrefused == 1)
            l->event = s->refused[0].event;
        else
            l->filter = "refused";
        for (size_t i = 0; i < s->nrefused; i++) {
            if (i)
                sbx_buf_adds(&l->b, ", ");
            add_untrusted_cstr(l, s->refused[i].host);
        }
        sbx_buf_adds(&l->b, "); ");
    }
    if (s->ndenials) {
        sbx_buf_addf(&l->b, "%llu connection%s refused by the sandbox (no host named); ",
                     (unsigned long long)s->denied_connections, s->denied_connections == 1 ? "" : "s");
        if (s->nrefused + s->ndenials == 1)
            l->event = s->denials[0];
        else
            l->filter = "refused";
    }
    if (s->hosts.n) {
        sbx_buf_addf(&l->b, "%zu host%s named (", s->hosts.n, s->hosts.n == 1 ? "" : "s");
        list_items(l, &s->hosts);
        sbx_buf_adds(&l->b, ")");
    } else { /* "other" than the refused ones, when there are */
        sbx_buf_adds(&l->b, s->nrefused ? "no other hosts named" : "no hosts named");
    }
    emit_styled(l, out, s->nrefused || s->ndenials ? SBX_STYLE_FINDING : SBX_STYLE_NORMAL);
    denial_lines(l, out);
    for (size_t i = 0; i < s->nrefused; i++) {
        const struct sbx_refusal *r = &s->refused[i];
        char t[SBX_TIME_BUFSZ];
        size_t n;
        const char *ev = sbx_sum_redact(l->c, r->evidence, strlen(r->evidence), &n);
        sbx_buf_addf(&l->b, "  %s %s ", sbx_time_format(r->first, t) + 11, l->c->ascii ? "<-" : "\xE2\x86\x90");
        add_untrusted(l, ev, n);
        l->event = r->event;
        emit_styled(l, out, SBX_STYLE_DETAIL);
        if (r->event->kind != SBX_EV_COMMAND)
            continue; /* the proxy's denial: its evidence is the request itself */
        const char *cmd = sbx_sum_command(l->c, r->event, &n);
        l->event = r->event;
        sbx_buf_adds(&l->b, "    $ ");
        add_untrusted(l, cmd, n);
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    proxy_lines(l, out);
    proxy_clock_lines(l, out);
    unlisted_line(l, out);
}

static void account_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    sbx_buf_adds(&l->b, "Account:   ");
    sbx_sum_account_words(l->c->tl, s, &l->b);
    if (s->naccount == 1)
        l->event = s->account[0];
    else if (s->naccount)
        l->filter = "account";
    emit_styled(l, out, s->naccount ? SBX_STYLE_FINDING : SBX_STYLE_NORMAL);
    struct sbx_buf w = SBX_BUF_INIT;
    for (size_t i = 0; i < s->naccount; i++) {
        const struct sbx_event *e = s->account[i];
        char t[SBX_TIME_BUFSZ];
        sbx_buf_addf(&l->b, "  %s ", sbx_time_format(e->start, t) + 11);
        const char *target = sbx_str(l->c->tl, e->u.audit->target);
        const char *inside = sbx_str(l->c->tl, e->u.audit->inside);
        sbx_buf_clear(&w);
        /* the words of an action of no known family begin with it */
        bool named = e->u.audit->family == SBX_AUDIT_OTHER;
        if (!named)
            sbx_buf_adds(&w, sbx_str(l->c->tl, e->label));
        /* the sandbox it acted on is often the one it acted from: say it once */
        bool same = inside[0] && strncmp(target, "sandbox:", 8) == 0 && strcmp(target + 8, inside) == 0;
        if (target[0] && !same) {
            sbx_buf_adds(&w, named ? "on " : " on ");
            sbx_buf_adds(&w, target);
        }
        if (w.len)
            sbx_buf_adds(&w, ": ");
        sbx_audit_words(l->c->tl, e, &w);
        add_untrusted(l, w.p, w.len);
        l->event = e;
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    sbx_buf_free(&w);
}

/* The screen the printed summary is cut to fit: the story gets what the
 * rest leaves of it (the prompt and the next one kept), or the whole screen
 * when the rest does not fit anyway. */
enum { SCREEN_ROWS = 24, PROMPT_ROWS = 2 };

static size_t rows_of(const struct sbx_buf *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->len; i++)
        n += b->p[i] == '\n';
    return n;
}

/* full: with the heaviest finding's evidence; else its kind's words only */
static void verdict_line(struct line *l, struct sbx_buf *out, bool full)
{
    const struct sbx_story_item *h;
    size_t n = sbx_sum_story_findings(l->c->sum, &h);
    struct sbx_buf w = SBX_BUF_INIT;
    if (full || !n)
        sbx_sum_verdict_words(l->c, &w);
    else
        sbx_buf_addf(&w, "%zu finding%s, the heaviest: %s", n, n == 1 ? "" : "s", sbx_sum_item_kind_words(h));
    sbx_buf_adds(&l->b, "Verdict:   ");
    add_untrusted(l, w.p, w.len);
    sbx_buf_free(&w);
    l->event = h ? h->event : NULL;
    emit_styled(l, out, n ? SBX_STYLE_FINDING : SBX_STYLE_GOOD);
}

/* One item and its links. */
static void story_item(struct line *l, struct sbx_buf *out, const struct sbx_story_item *it)
{
    const char *arrow = l->c->ascii ? "->" : "\xE2\x86\x92";
    char t[SBX_TIME_BUFSZ];
    struct sbx_buf w = SBX_BUF_INIT;
    sbx_sum_item_words(l->c, it, &w);
    sbx_buf_addf(&l->b, "  %s ", sbx_time_format(it->event->start, t) + 11);
    add_untrusted(l, w.p, w.len);
    sbx_buf_free(&w);
    l->event = it->event;
    emit_styled(l, out, it->finding ? SBX_STYLE_FINDING : SBX_STYLE_WARNING);
    for (size_t k = 0; k < it->nlinks; k++) {
        const struct sbx_story_link *ln = &it->links[k];
        sbx_buf_addf(&l->b, "    %s %s: ", arrow, sbx_link_words(ln->kind));
        add_untrusted_cstr(l, ln->evidence);
        l->event = ln->event;
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    if (it->more) {
        sbx_buf_addf(&l->b, "    %s and %zu more link%s", arrow, it->more, it->more == 1 ? "" : "s");
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
}

struct ranked_item {
    size_t rank, pos;
};

static int by_weight(const void *x, const void *y)
{
    const struct ranked_item *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The items that fit in rows, the heaviest first (what reached a widened
 * host weighs as the change that let it), each measured as printed; one
 * too long for what is left makes room for the lighter ones after it
 * (FIT_TRIES items measured at most). keep[i] for items[i]. Returns how
 * many fit. */
enum { FIT_TRIES = 64 };
static size_t fitting(struct line *l, size_t rows, bool *keep)
{
    const struct sbx_story *st = &l->c->sum->story;
    struct ranked_item *r = sbx_xmalloc((st->n + 1) * sizeof *r);
    for (size_t i = 0; i < st->n; i++) {
        uint32_t f = st->items[i].finding;
        r[i] = (struct ranked_item){sbx_finding_rank(f ? f : SBX_F_ACCOUNT_CHANGE), i};
    }
    qsort(r, st->n, sizeof *r, by_weight);
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t used = 0, kept = 0;
    for (size_t i = 0; i < st->n && i < FIT_TRIES && used < rows; i++) {
        sbx_buf_clear(&scratch);
        story_item(l, &scratch, &st->items[r[i].pos]);
        size_t need = rows_of(&scratch) + (kept + 1 < st->n ? 1 : 0); /* and "and N more" */
        if (used + need > rows)
            continue;
        keep[r[i].pos] = true;
        used += rows_of(&scratch);
        kept++;
    }
    sbx_buf_free(&scratch);
    free(r);
    return kept;
}

/* The story in rows rows at most (SIZE_MAX: whole): its items in time
 * order, cut with "and N more" when they do not fit. */
static void story_lines(struct line *l, struct sbx_buf *out, size_t rows)
{
    const struct sbx_story *st = &l->c->sum->story;
    if (!st->n)
        return;
    bool *keep = NULL;
    size_t kept = st->n;
    if (rows != SIZE_MAX) {
        keep = sbx_xcalloc(st->n, sizeof *keep);
        kept = rows > 1 ? fitting(l, rows - 1, keep) : 0;
    }
    if (!kept) {
        sbx_buf_addf(&l->b, "Story:     %zu event%s, with links (sbxview summary --story)", st->n,
                     st->n == 1 ? "" : "s");
        emit(l, out);
        free(keep);
        return;
    }
    sbx_buf_addf(&l->b, "Story:     %zu event%s in time order, each with its links", st->n,
                 st->n == 1 ? "" : "s");
    emit(l, out);
    for (size_t i = 0; i < st->n; i++)
        if (!keep || keep[i])
            story_item(l, out, &st->items[i]);
    if (kept < st->n) {
        sbx_buf_addf(&l->b, "  and %zu more: sbxview summary --story tells them all", st->n - kept);
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    free(keep);
}

/* The verdict and the story, first. Printed, they fit what the rest of the
 * summary (rows_rest rows) leaves of a screen; in the summary view (lines
 * asked for) and with --story the story is whole. */
static void story_first(struct line *l, struct sbx_buf *out, size_t rows_rest)
{
    if (l->c->story_whole || l->c->lines) {
        verdict_line(l, out, true);
        story_lines(l, out, SIZE_MAX);
        return;
    }
    size_t screen = SCREEN_ROWS - PROMPT_ROWS;
    size_t rows = rows_rest + 2 <= screen ? screen - rows_rest : screen;
    struct sbx_buf v = SBX_BUF_INIT;
    verdict_line(l, &v, true);
    bool full = rows_of(&v) + (l->c->sum->story.n ? 1 : 0) <= rows;
    if (!full) {
        sbx_buf_clear(&v);
        verdict_line(l, &v, false);
    }
    sbx_buf_add(out, v.p, v.len);
    size_t left = rows > rows_of(&v) ? rows - rows_of(&v) : 0;
    sbx_buf_free(&v);
    story_lines(l, out, left ? left : 1);
}

/* A record's program, state, exit and sandbox, as the JSON's command
 * entry gives them. */
static void record_command(struct line *l, const struct sbx_event *e)
{
    add_untrusted_cstr(l, sbx_str(l->c->tl, e->u.cmd.program));
    bool record = e->u.cmd.flags & SBX_CMD_RECORD;
    if (record)
        sbx_buf_adds(&l->b, e->u.cmd.flags & SBX_CMD_RUNNING ? " (running"
                            : e->u.cmd.flags & SBX_CMD_UNREAD ? " (unread" : " (exited");
    if (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN)
        sbx_buf_addf(&l->b, "%sexit %d", record ? ", " : " (", (int)sbx_cmd_exit(&e->u.cmd));
    if (record || (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN))
        sbx_buf_adds(&l->b, ")");
    sbx_buf_adds(&l->b, " in ");
    add_untrusted_cstr(l, sbx_str(l->c->tl, e->sandbox));
}

static void record_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_crosscheck *x = &l->c->sum->cross;
    sbx_buf_adds(&l->b, "Record:    ");
    sbx_sum_record_words(l->c->sum, &l->b);
    const struct sbx_summary *s = l->c->sum;
    bool bad = x->noutside || s->ngaps || x->nmissing || x->nexit_mismatch || x->nunmatched_records ||
               x->nunmatched_commands; /* an uncertain skew left them unexplained */
    if (x->noutside)
        l->filter = "outside";
    if (s->ngaps)
        l->filter = "removed";
    emit_styled(l, out, bad ? SBX_STYLE_FINDING : SBX_STYLE_NORMAL);
    for (size_t i = 0; i < s->ngaps; i++) {
        const struct sbx_gap *g = &s->gaps[i];
        char t[SBX_TIME_BUFSZ];
        sbx_buf_addf(&l->b, "  %s possibly removed: ", sbx_time_format(g->record->start, t) + 11);
        record_command(l, g->record);
        sbx_buf_addf(&l->b, ", between line %u and %u of ", sbx_ev_line_no(g->before), sbx_ev_line_no(g->after));
        add_untrusted_cstr(l, sbx_display_path(l->c->tl->sources[g->before->source].path));
        l->event = g->record;
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    for (size_t i = 0; i < x->noutside; i++) {
        const struct sbx_event *e = x->outside[i];
        char t[SBX_TIME_BUFSZ];
        sbx_buf_addf(&l->b, "  %s outside the wrapper: ", sbx_time_format(e->start, t) + 11);
        record_command(l, e);
        l->event = e;
        emit_styled(l, out, SBX_STYLE_DETAIL);
        if (e->u.cmd.flags & SBX_CMD_RECORD)
            continue; /* a record has a program, not a command line */
        size_t n;
        const char *cmd = sbx_sum_command(l->c, e, &n);
        l->event = e;
        sbx_buf_adds(&l->b, "    $ ");
        add_untrusted(l, cmd, n);
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
}

/* The later logs of the commands, then what only they saw. */
static void witness_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_witnesses *w = &l->c->sum->witness;
    sbx_buf_adds(&l->b, "Witnesses: ");
    if (!sbx_sum_witness_words(l->c->tl, l->c->sum, &l->b)) {
        sbx_buf_clear(&l->b);
        return;
    }
    if (w->nunwrapped)
        l->filter = "unwrapped";
    emit_styled(l, out, w->nunwrapped || w->nunconcluded ? SBX_STYLE_FINDING : SBX_STYLE_NORMAL);
    for (size_t i = 0; i < w->nclocks; i++) { /* which file each clock is */
        const struct sbx_source *src = &l->c->tl->sources[w->clocks[i].source];
        const struct sbx_skew *k = &w->clocks[i].skew;
        sbx_buf_adds(&l->b, "  ");
        add_untrusted_cstr(l, src->path);
        if (k->how == SBX_SKEW_UNCERTAIN)
            sbx_buf_addf(&l->b, " (%s): its own clock, the skew uncertain", src->format);
        else
            sbx_buf_addf(&l->b, " (%s): skew %+lld ms", src->format, (long long)sbx_ns_to_ms(k->ns));
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    for (size_t i = 0; i < w->nunwrapped; i++) { /* every one: the text names what the JSON does */
        const struct sbx_event *e = w->unwrapped[i];
        char t[SBX_TIME_BUFSZ];
        size_t n;
        const char *cmd = sbx_sum_command(l->c, e, &n);
        sbx_buf_addf(&l->b, "  %s unwrapped: $ ", sbx_time_format(e->start, t) + 11);
        add_untrusted(l, cmd, n);
        sbx_buf_adds(&l->b, " in ");
        add_untrusted_cstr(l, sbx_str(l->c->tl, e->sandbox));
        sbx_buf_addf(&l->b, " (%s's log only)", l->c->tl->sources[e->source].format);
        l->event = e;
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
}

static void sandbox_line(struct line *l, struct sbx_buf *out)
{
    sbx_buf_adds(&l->b, "Sandbox:   ");
    if (!sbx_sum_sandbox_words(l->c->sum, &l->b)) {
        sbx_buf_clear(&l->b); /* nothing loaded about it: no line */
        return;
    }
    const struct sbx_strlist *why = &l->c->sum->stop_reasons;
    if (why->n) {
        sbx_buf_adds(&l->b, why->n == 1 ? "; stop reason: " : "; stop reasons: ");
        list_items(l, why);
    }
    l->filter = "kind:lifecycle";
    emit_styled(l, out, l->c->sum->signatures_failed ? SBX_STYLE_FINDING : SBX_STYLE_NORMAL);
}

/* The OpenTelemetry spans, only when some were loaded; then the agents
 * (Enter on that line: the first agent's span and its tree). */
static void traces_line(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    const struct sbx_trace_stats *t = &s->traces;
    if (!t->spans)
        return;
    sbx_buf_addf(&l->b, "Traces:    %zu span%s, %zu trace%s: %zu tool call%s, %zu failed", t->spans,
                 t->spans == 1 ? "" : "s", t->traces, t->traces == 1 ? "" : "s", t->tool_calls,
                 t->tool_calls == 1 ? "" : "s", t->failed);
    if (t->refused)
        sbx_buf_addf(&l->b, ", %zu refused network", t->refused);
    l->filter = "kind:span";
    emit_styled(l, out, t->refused ? SBX_STYLE_FINDING : t->failed ? SBX_STYLE_WARNING : SBX_STYLE_NORMAL);
    if (!t->agents.n && !t->orphans)
        return;
    sbx_buf_adds(&l->b, "           ");
    if (t->agents.n) {
        sbx_buf_adds(&l->b, t->agents.n == 1 ? "agent " : "agents ");
        list_items(l, &t->agents);
    }
    if (t->orphans)
        sbx_buf_addf(&l->b, "%s%zu orphan span%s (parent not loaded)", t->agents.n ? "; " : "",
                     t->orphans, t->orphans == 1 ? "" : "s");
    for (size_t i = 0; i < s->spans.n && !l->event; i++)
        if (s->spans.nodes[i].event->kind == SBX_EV_SPAN)
            l->event = s->spans.nodes[i].event;
    emit_styled(l, out, SBX_STYLE_DETAIL);
}

static void integrity_line(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    sbx_buf_addf(&l->b, "Integrity: stdout hash verified for %zu, %zu mismatched, %zu unverifiable",
                 s->hash_verified, s->hash_mismatched, s->hash_unverifiable);
    emit_styled(l, out, s->hash_mismatched ? SBX_STYLE_FINDING : SBX_STYLE_NORMAL);
    for (size_t i = 0; i < s->nhash_mismatches; i++) {
        const struct sbx_event *e = s->hash_mismatches[i];
        char t[SBX_TIME_BUFSZ];
        size_t n;
        sbx_buf_addf(&l->b, "  %s ", sbx_time_format(e->start, t) + 11);
        add_untrusted_cstr(l, sbx_str(l->c->tl, e->u.cmd.program));
        sbx_buf_adds(&l->b, ": stdout does not hash to the recorded hash: $ ");
        const char *cmd = sbx_sum_command(l->c, e, &n);
        add_untrusted(l, cmd, n);
        if (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN)
            sbx_buf_addf(&l->b, " (exit %d)", (int)sbx_cmd_exit(&e->u.cmd));
        sbx_buf_adds(&l->b, " in ");
        add_untrusted_cstr(l, sbx_str(l->c->tl, e->sandbox));
        l->event = e;
        l->filter = "mismatch";
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
}

static bool same_secret(const struct sbx_secret_found *x, const struct sbx_secret_found *y)
{
    return x->kind == y->kind && strcmp(x->sample, y->sample) == 0;
}

/* Sorts places by (kind, sample, timeline position). */
static int by_secret(const void *a, const void *b, void *ctx)
{
    const struct sbx_summary *s = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const struct sbx_secret_found *x = &s->secrets[i], *y = &s->secrets[j];
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    int c = strcmp(x->sample, y->sample);
    return c ? c : (i < j ? -1 : i > j);
}

struct secret_group {
    size_t first; /* index of its earliest place in sum->secrets */
    size_t begin, end; /* its places: idx[begin..end) */
};

static int by_first_place(const void *a, const void *b)
{
    const struct secret_group *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* One line per secret (kind and masked sample), earliest first: a token
 * echoed and printed is one secret seen in two places. */
static void secrets_line(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    sbx_buf_adds(&l->b, "Secrets:   ");
    if (!s->nsecrets) {
        sbx_buf_adds(&l->b, "none found");
        emit(l, out);
        return;
    }
    size_t *idx = sbx_xmalloc(s->nsecrets * sizeof *idx);
    for (size_t i = 0; i < s->nsecrets; i++)
        idx[i] = i;
    qsort_r(idx, s->nsecrets, sizeof *idx, by_secret, (void *)s);
    struct secret_group *groups = sbx_xmalloc(s->nsecrets * sizeof *groups);
    size_t ngroups = 0;
    for (size_t i = 0; i < s->nsecrets; i++) {
        if (i == 0 || !same_secret(&s->secrets[idx[i - 1]], &s->secrets[idx[i]]))
            groups[ngroups++] = (struct secret_group){idx[i], i, i};
        groups[ngroups - 1].end = i + 1;
    }
    qsort(groups, ngroups, sizeof *groups, by_first_place);
    sbx_buf_addf(&l->b, "%zu found, masked (%zu place%s)", ngroups, s->nsecrets,
                 s->nsecrets == 1 ? "" : "s");
    l->filter = "secret";
    emit_styled(l, out, SBX_STYLE_FINDING);
    static const char *const places[] = {"command", "stdout", "stderr"};
    for (size_t g = 0; g < ngroups; g++) {
        const struct sbx_secret_found *f = &s->secrets[groups[g].first];
        char t[SBX_TIME_BUFSZ];
        sbx_buf_addf(&l->b, "  %s %s ", sbx_time_format(f->event->start, t) + 11,
                     sbx_secret_kind_name(f->kind));
        add_untrusted_cstr(l, f->sample);
        const char *sep = " in ";
        for (size_t p = 0; p < sizeof places / sizeof places[0]; p++) {
            bool seen = false;
            for (size_t k = groups[g].begin; k < groups[g].end && !seen; k++)
                seen = strcmp(s->secrets[idx[k]].where, places[p]) == 0;
            if (seen) {
                sbx_buf_addf(&l->b, "%s%s", sep, places[p]);
                sep = ", ";
            }
        }
        if (groups[g].end - groups[g].begin > 1)
            sbx_buf_addf(&l->b, " (%zu times)", groups[g].end - groups[g].begin);
        l->event = f->event;
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    free(groups);
    free(idx);
}

/* Risky commands (analyses/risky.h), when any: the kinds, then each with
 * its reason and command line. */
static void risky_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_summary *s = l->c->sum;
    if (!s->nrisky)
        return;
    uint32_t kinds = 0;
    for (size_t i = 0; i < s->nrisky; i++)
        kinds |= s->risky[i].kind;
    sbx_buf_addf(&l->b, "Risky:     %zu found:", s->nrisky);
    const char *sep = " ";
    for (size_t k = 0; k < sbx_nfindings; k++)
        if (kinds & sbx_findings[k].bit) {
            sbx_buf_addf(&l->b, "%s%s", sep, sbx_findings[k].name);
            sep = ", ";
            if (kinds == sbx_findings[k].bit)
                l->filter = sbx_findings[k].word;
        }
    if (s->nrisky == 1)
        l->event = s->risky[0].event;
    emit_styled(l, out, SBX_STYLE_FINDING);
    for (size_t i = 0; i < s->nrisky; i++) {
        const struct sbx_risky_found *f = &s->risky[i];
        char t[SBX_TIME_BUFSZ];
        size_t n;
        const char *sb = sbx_str(l->c->tl, f->event->sandbox);
        sbx_buf_addf(&l->b, "  %s %s, %s", sbx_time_format(f->event->start, t) + 11,
                     sbx_finding_of(f->kind)->name, sbx_kind_name(f->event->kind));
        if (sb[0]) {
            sbx_buf_adds(&l->b, " in ");
            add_untrusted_cstr(l, sb);
        }
        sbx_buf_adds(&l->b, ": ");
        const char *why = sbx_sum_redact(l->c, f->why, strlen(f->why), &n);
        add_untrusted(l, why, n);
        l->event = f->event;
        emit_styled(l, out, SBX_STYLE_DETAIL);
        if (f->event->kind != SBX_EV_COMMAND)
            continue;
        const char *cmd = sbx_sum_command(l->c, f->event, &n);
        sbx_buf_adds(&l->b, "    $ ");
        add_untrusted(l, cmd, n);
        l->event = f->event;
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
}

static void skipped_line(struct line *l, struct sbx_buf *out)
{
    const struct sbx_timeline *tl = l->c->tl;
    size_t total = 0;
    for (size_t i = 0; i < tl->nsources; i++)
        total += tl->sources[i].skipped;
    const struct sbx_summary *s = l->c->sum;
    sbx_buf_adds(&l->b, "Skipped:   ");
    if (!total && !s->nunread) {
        sbx_buf_adds(&l->b, "no lines");
        emit(l, out);
        return;
    }
    if (total)
        sbx_buf_addf(&l->b, "%zu line%s", total, total == 1 ? "" : "s");
    else
        sbx_buf_adds(&l->b, "no lines");
    if (s->nunread)
        sbx_buf_addf(&l->b, "; %zu file%s not read", s->nunread, s->nunread == 1 ? "" : "s");
    emit_styled(l, out, SBX_STYLE_WARNING);
    for (size_t i = 0; i < s->nunread; i++) {
        sbx_buf_adds(&l->b, "  ");
        add_untrusted_cstr(l, sbx_display_path(s->unread[i].path));
        sbx_buf_adds(&l->b, ": ");
        add_untrusted_cstr(l, s->unread[i].reason);
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    for (size_t i = 0; i < tl->nskips; i++) {
        const struct sbx_skip *k = &tl->skips[i];
        sbx_buf_adds(&l->b, "  ");
        add_untrusted_cstr(l, sbx_display_path(tl->sources[k->source].path));
        sbx_buf_addf(&l->b, ":%u: %s", k->line, k->reason);
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
}

/* The run's review, when there is one: its state and verdict, then a row
 * per triaged finding and per note (docs/review-file.md). */
static void review_lines(struct line *l, struct sbx_buf *out)
{
    const struct sbx_review_state *st = l->c->review_state;
    if (!st || sbx_review_state_empty(st))
        return;
    const char *state = st->verdict ? "done" : "in progress";
    sbx_buf_addf(&l->b, "Review:    %s", state);
    if (st->verdict) {
        sbx_buf_addf(&l->b, "; verdict %s by ", st->verdict->state);
        add_untrusted_cstr(l, st->verdict->author);
        sbx_buf_adds(&l->b, ": ");
        add_untrusted_cstr(l, st->verdict->text ? st->verdict->text : "");
    }
    sbx_buf_addf(&l->b, "; %zu triaged, %zu note%s", st->ntriage, st->nnotes, st->nnotes == 1 ? "" : "s");
    emit_styled(l, out, SBX_STYLE_NORMAL);
    for (size_t i = 0; i < st->ntriage; i++) {
        const struct sbx_review_triage *t = &st->triage[i];
        sbx_buf_addf(&l->b, "  triaged %s %s by ", t->item, t->state);
        add_untrusted_cstr(l, t->author);
        sbx_buf_adds(&l->b, ": ");
        add_untrusted_cstr(l, t->reason ? t->reason : "");
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
    for (size_t i = 0; i < st->nnotes; i++) {
        const struct sbx_review_note *n = &st->notes[i];
        sbx_buf_addf(&l->b, "  note on %s%s%s by ", n->item, n->to ? ".." : "", n->to ? n->to : "");
        add_untrusted_cstr(l, n->author);
        sbx_buf_adds(&l->b, ": ");
        add_untrusted_cstr(l, n->text);
        emit_styled(l, out, SBX_STYLE_DETAIL);
    }
}

static void rest(struct line *l, struct sbx_buf *out)
{
    run_line(l, out);
    commands_line(l, out);
    files_line(l, out);
    written_lines(l, out);
    network_lines(l, out);
    account_lines(l, out);
    record_lines(l, out);
    witness_lines(l, out);
    sandbox_line(l, out);
    traces_line(l, out);
    integrity_line(l, out);
    secrets_line(l, out);
    risky_lines(l, out);
    skipped_line(l, out);
    review_lines(l, out);
}

void sbx_render_text(struct sbx_sumctx *c, struct sbx_buf *out)
{
    struct line l = {.c = c};
    if (c->lines || c->story_whole) { /* in order: the view's lines follow the text's */
        story_first(&l, out, 0);
        rest(&l, out);
    } else { /* the rest first, to know what it leaves of the screen */
        struct sbx_buf after = SBX_BUF_INIT;
        rest(&l, &after);
        story_first(&l, out, rows_of(&after));
        sbx_buf_add(out, after.p, after.len);
        sbx_buf_free(&after);
    }
    sbx_buf_free(&l.b);
}
