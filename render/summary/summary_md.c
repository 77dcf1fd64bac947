/* The summary as Markdown for a ticket. Everything from the log goes into an
 * inline code span whose backtick fence is longer than any run inside it,
 * after sanitising to one line, so nothing in a log can become a mention, a
 * link, an image or a closing command in the ticket. */
#include <stdlib.h>
#include <string.h>

#include "analyses/audit_change.h"
#include "analyses/secrets/secrets.h"
#include "model/evid.h"
#include "render/review.h"
#include "analyses/writers.h"
#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/md.h"
#include "render/sanitize.h"
#include "render/summary/summary_common.h"
#include "render/untrusted.h"

enum { PROXY_MAX = 5 };

/* Items each list shows: all of them in the summary; the export shortens
 * lists to fit a ticket. */
#define LIST_MAX ((size_t)c->list_max)

/* ", and 3 more" after shown items; " 3 more" when none was shown */
static void more(struct sbx_sumctx *c, struct sbx_buf *out, size_t n)
{
    sbx_buf_addf(out, "%s%zu more", c->list_max ? ", and " : " ", n);
}

static void code(struct sbx_sumctx *c, struct sbx_buf *out, const char *s, size_t n)
{
    sbx_md_code(out, s, n, c->ascii, c->secrets, c->scratch);
}

static void code_cstr(struct sbx_sumctx *c, struct sbx_buf *out, const char *s)
{
    code(c, out, s, strlen(s));
}

/* " (id `ID`)": the event's stable id (model/evid.h), our own characters */
static void id_tag(struct sbx_sumctx *c, struct sbx_buf *out, const struct sbx_event *e)
{
    char id[SBX_EVID_LEN];
    sbx_event_id(c->tl, e, id);
    sbx_buf_addf(out, " (id `%s`)", id);
}

static void list(struct sbx_sumctx *c, struct sbx_buf *out, const struct sbx_strlist *l)
{
    for (size_t i = 0; i < l->n && i < LIST_MAX; i++) {
        sbx_buf_adds(out, i ? ", " : " ");
        code_cstr(c, out, l->s[i]);
    }
    if (l->n > LIST_MAX)
        more(c, out, l->n - LIST_MAX);
}

/* Which command wrote each changed path, a system file's lines beneath. */
static void written(struct sbx_sumctx *c, struct sbx_buf *out)
{
    static const char *const verbs[SBX_CHANGE_COUNT] = {"added", "changed", "removed"};
    const struct sbx_summary *s = c->sum;
    struct sbx_sum_path p;
    size_t i = 0;
    if (sbx_sum_path_at(s, 0, &p))
        sbx_buf_adds(out, "**Written by:**\n\n");
    for (; i < LIST_MAX && sbx_sum_path_at(s, i, &p); i++) {
        sbx_buf_adds(out, "- ");
        code_cstr(c, out, p.path);
        sbx_buf_addf(out, " %s", verbs[p.change]);
        const struct sbx_written *w = p.written;
        if (!w || !w->nby)
            sbx_buf_adds(out, ": no command names this path");
        for (size_t k = 0; w && k < w->nby; k++) {
            const struct sbx_event *e = w->by[k].command;
            char t[SBX_TIME_BUFSZ];
            sbx_buf_addf(out, "%s by %s at %s: ", k ? ";" : "", sbx_write_rule_words(w->by[k].rule),
                         sbx_time_format(e->start, t) + 11);
            size_t n;
            const char *cmd = sbx_sum_command(c, e, &n); /* redacted: a cut leaves no secret's half */
            bool cut = n > 160;
            if (cut)
                for (n = 160; n > 0 && ((unsigned char)cmd[n] & 0xC0) == 0x80;)
                    n--;
            code(c, out, cmd, n);
            if (cut)
                sbx_buf_adds(out, " (cut)");
            sbx_buf_adds(out, " (");
            code_cstr(c, out, sbx_display_path(c->tl->sources[e->source].path));
            sbx_buf_addf(out, " line %u)", (unsigned)sbx_ev_line_no(e));
        }
        sbx_buf_addc(out, '\n');
        for (size_t k = 0; w && k < w->nlines; k++) {
            sbx_buf_adds(out, "  - ");
            code_cstr(c, out, w->lines[k]);
            sbx_buf_addc(out, '\n');
        }
        if (w && w->more_lines)
            sbx_buf_addf(out, "  - and %zu more line%s\n", w->more_lines, w->more_lines == 1 ? "" : "s");
    }
    size_t rest = 0;
    while (sbx_sum_path_at(s, i + rest, &p))
        rest++;
    if (rest)
        sbx_buf_addf(out, "- %zu more changed path%s\n", rest, rest == 1 ? "" : "s");
    if (i || rest)
        sbx_buf_addc(out, '\n');
}

/* What the proxy saw per host: refused first, then the busiest. */
static void proxy_hosts(struct sbx_sumctx *c, struct sbx_buf *out)
{
    const struct sbx_summary *s = c->sum;
    size_t *order = sbx_sum_proxy_order(c->tl, s);
    size_t proxy_max = c->list_max == SBX_SUM_LIST_WHOLE ? s->nproxy_hosts
                       : LIST_MAX < PROXY_MAX                ? LIST_MAX
                                                             : PROXY_MAX;
    for (size_t k = 0; k < s->nproxy_hosts && k < proxy_max; k++) {
        const struct sbx_host_stat *h = &s->proxy_hosts[order[k]];
        char bytes[SBX_NUM_BUFSZ];
        sbx_buf_adds(out, "- proxy: ");
        code_cstr(c, out, sbx_str(c->tl, h->host));
        sbx_buf_addf(out, " %zu request%s", h->requests, h->requests == 1 ? "" : "s");
        if (h->denied)
            sbx_buf_addf(out, ", **%zu denied**", h->denied);
        if (h->unreached)
            sbx_buf_addf(out, ", %zu unreached", h->unreached);
        if (h->bytes_in > 0)
            sbx_buf_addf(out, ", %s in", sbx_size_text(h->bytes_in, bytes));
        sbx_buf_addc(out, '\n');
    }
    if (s->nproxy_hosts > proxy_max) {
        size_t rest = 0;
        for (size_t k = proxy_max; k < s->nproxy_hosts; k++)
            rest += s->proxy_hosts[order[k]].requests;
        sbx_buf_addf(out, "- proxy: %zu more host%s (%zu request%s)\n", s->nproxy_hosts - proxy_max,
                     s->nproxy_hosts - proxy_max == 1 ? "" : "s",
                     rest, rest == 1 ? "" : "s");
    }
    free(order);
}

/* With an allow list: the hosts it lacks. */
static void unlisted(struct sbx_sumctx *c, struct sbx_buf *out)
{
    const struct sbx_summary *s = c->sum;
    char t[SBX_TIME_BUFSZ];
    if (!s->allow_list)
        return;
    if (!s->nunlisted) {
        sbx_buf_adds(out, "**Unlisted hosts:** none: every host seen is on the allow list\n\n");
        return;
    }
    sbx_buf_addf(out, "**Unlisted hosts:** %zu not on the allow list\n\n", s->nunlisted);
    for (size_t i = 0; i < s->nunlisted && i < LIST_MAX; i++) {
        const struct sbx_unlisted *u = &s->unlisted[i];
        sbx_buf_adds(out, "- ");
        code_cstr(c, out, u->host);
        sbx_buf_addf(out, " in %zu event%s, first at %s\n", u->events, u->events == 1 ? "" : "s",
                     sbx_time_format(u->first->start, t));
    }
    if (s->nunlisted > LIST_MAX)
        sbx_buf_addf(out, "- and %zu more\n", s->nunlisted - LIST_MAX);
    sbx_buf_addc(out, '\n');
}

static void changes(struct sbx_sumctx *c, struct sbx_buf *out, const struct sbx_strlist *lists,
                    const char *where)
{
    static const char *const verbs[SBX_CHANGE_COUNT] = {"added", "changed", "removed"};
    size_t total = 0;
    for (int k = 0; k < SBX_CHANGE_COUNT; k++) {
        total += lists[k].n;
        if (!lists[k].n)
            continue;
        sbx_buf_addf(out, "- **%s %s** (%zu):", where, verbs[k], lists[k].n);
        list(c, out, &lists[k]);
        sbx_buf_addc(out, '\n');
    }
    if (!total)
        sbx_buf_addf(out, "- %s: unchanged\n", where);
}

static void review_part(struct sbx_sumctx *c, struct sbx_buf *out);
static void facts(struct sbx_sumctx *c, struct sbx_buf *out);
/* The verdict and the whole story: sbxview's words as they are, what the
 * log says in code spans. */
static void story(struct sbx_sumctx *c, struct sbx_buf *out)
{
    const struct sbx_summary *s = c->sum;
    const struct sbx_story_item *h;
    size_t n = sbx_sum_story_findings(s, &h);
    struct sbx_buf w = SBX_BUF_INIT;
    char t[SBX_TIME_BUFSZ];
    if (!n) {
        sbx_buf_adds(out, "**Verdict:** no findings\n\n");
    } else {
        sbx_buf_addf(out, "**Verdict:** %zu finding%s, the heaviest: %s: ", n, n == 1 ? "" : "s",
                     sbx_sum_item_kind_words(h));
        sbx_sum_item_detail(c, h, &w);
        code(c, out, w.p ? w.p : "", w.len);
        sbx_buf_adds(out, "\n\n");
    }
    if (!s->story.n)
        return;
    sbx_buf_addf(out, "**Story:** %zu event%s in time order, each with its links\n\n", s->story.n,
                 s->story.n == 1 ? "" : "s");
    if (!c->list_max) { /* a ticket's body cut to the counts */
        sbx_buf_free(&w);
        return;
    }
    /* whole, unless an export shortens the body to fit a ticket */
    size_t shown = c->list_max < SBX_SUMMARY_LIST_MAX && LIST_MAX < s->story.n ? LIST_MAX : s->story.n;
    for (size_t i = 0; i < shown; i++) {
        const struct sbx_story_item *it = &s->story.items[i];
        sbx_buf_clear(&w);
        sbx_sum_item_detail(c, it, &w);
        sbx_sum_item_during(c, it, &w);
        sbx_buf_addf(out, "- %s %s: ", sbx_time_format(it->event->start, t), sbx_sum_item_kind_words(it));
        code(c, out, w.p ? w.p : "", w.len);
        sbx_buf_addc(out, '\n');
        for (size_t k = 0; k < it->nlinks; k++) {
            sbx_buf_addf(out, "  - %s: ", sbx_link_words(it->links[k].kind));
            code_cstr(c, out, it->links[k].evidence);
            sbx_buf_addc(out, '\n');
        }
        if (it->more)
            sbx_buf_addf(out, "  - and %zu more link%s\n", it->more, it->more == 1 ? "" : "s");
    }
    if (shown < s->story.n)
        sbx_buf_addf(out, "- and %zu more\n", s->story.n - shown);
    sbx_buf_addc(out, '\n');
    sbx_buf_free(&w);
}

void sbx_render_markdown(struct sbx_sumctx *c, struct sbx_buf *out)
{
    facts(c, out);
    review_part(c, out);
}

/* A command's program, and for a record its state and exit ("curl (exited,
 * exit 0)"), as the JSON's "state" and "exit" give them. */
static void record_program(struct sbx_sumctx *c, struct sbx_buf *out, const struct sbx_event *e)
{
    code_cstr(c, out, sbx_str(c->tl, e->u.cmd.program));
    bool record = e->u.cmd.flags & SBX_CMD_RECORD;
    if (record)
        sbx_buf_adds(out, e->u.cmd.flags & SBX_CMD_RUNNING ? " (running"
                          : e->u.cmd.flags & SBX_CMD_UNREAD ? " (unread" : " (exited");
    if (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN)
        sbx_buf_addf(out, "%sexit %d", record ? ", " : " (", (int)sbx_cmd_exit(&e->u.cmd));
    if (record || (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN))
        sbx_buf_adds(out, ")");
}

static void facts(struct sbx_sumctx *c, struct sbx_buf *out)
{
    const struct sbx_summary *s = c->sum;
    const struct sbx_timeline *tl = c->tl;
    char a[SBX_TIME_BUFSZ], b[SBX_TIME_BUFSZ], d[SBX_NUM_BUFSZ];

    sbx_buf_adds(out, "### Agent run summary\n\n");
    story(c, out);
    sbx_buf_addf(out, "**Run:** %s to %s", sbx_time_format(s->start, a), sbx_time_format(s->end, b));
    if (sbx_summary_span_ns(s) >= 0)
        sbx_buf_addf(out, " (%s)", sbx_duration_text(sbx_summary_span_ns(s), SBX_DUR_WORDS, d));
    if (s->nsandboxes) {
        sbx_buf_adds(out, s->nsandboxes == 1 ? " in sandbox" : " in sandboxes");
        for (size_t i = 0; i < s->nsandboxes; i++) {
            sbx_buf_adds(out, i ? ", " : " ");
            code_cstr(c, out, sbx_str(tl, s->sandboxes[i]));
        }
    }
    /* the agents' active span, when it is not the run's (as the text) */
    if (s->active_start != SBX_TIME_UNKNOWN && s->active_end != SBX_TIME_UNKNOWN &&
        (s->active_start != s->start || s->active_end != s->end))
        sbx_buf_addf(out, "; commands %s to %s (%s)", sbx_time_format(s->active_start, a),
                     sbx_time_format(s->active_end, b),
                     sbx_duration_text(s->active_end - s->active_start, SBX_DUR_WORDS, d));
    sbx_buf_adds(out, "  \n**Sources:**");
    for (size_t i = 0; i < tl->nsources; i++) {
        sbx_buf_adds(out, i ? "; " : " ");
        code_cstr(c, out, sbx_display_path(tl->sources[i].path));
        sbx_buf_addf(out, " (%s, %zu events, %zu skipped)", tl->sources[i].format,
                     tl->sources[i].events, tl->sources[i].skipped);
    }
    sbx_buf_adds(out, "\n\n");

    sbx_buf_addf(out, "**Commands:** %zu, %zu failed, %zu timed out", s->commands, s->failed,
                 s->timed_out);
    if (s->longest) {
        sbx_buf_addf(out, "; longest %s at %s: ", sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(&s->longest->u.cmd)), SBX_DUR_WORDS, d),
                     sbx_time_format(s->longest->start, a));
        size_t n;
        const char *cmd = sbx_sum_command(c, s->longest, &n);
        code(c, out, cmd, n);
    }
    sbx_buf_adds(out, "\n\n");
    for (size_t i = 0; i < s->nfailed_by && i < LIST_MAX; i++) {
        const char *prog = sbx_str(tl, s->failed_by[i].program);
        sbx_buf_adds(out, "- ");
        code_cstr(c, out, prog[0] ? prog : "?");
        sbx_buf_addf(out, " failed %zu time%s\n", s->failed_by[i].count,
                     s->failed_by[i].count == 1 ? "" : "s");
    }
    if (s->nfailed_by > LIST_MAX) {
        size_t rest = 0;
        for (size_t i = LIST_MAX; i < s->nfailed_by; i++)
            rest += s->failed_by[i].count;
        sbx_buf_addf(out, "- %zu more program%s failed %zu time%s\n", s->nfailed_by - LIST_MAX,
                     s->nfailed_by - LIST_MAX == 1 ? "" : "s", rest, rest == 1 ? "" : "s");
    }
    if (s->nfailed_by)
        sbx_buf_addc(out, '\n');

    sbx_buf_adds(out, "**Files:**\n\n");
    if (s->workspace_manifests || sbx_change_count(s->files))
        changes(c, out, s->files, "workspace");
    else
        sbx_buf_adds(out, "- workspace: not checked (no manifest of it)\n");
    if (s->files_from_manifests)
        sbx_buf_adds(out, "- workspace compared by its manifests, before and after\n");
    if (s->diff_files)
        sbx_buf_addf(out, "- diff: %zu file%s, %zu line%s added, %zu removed\n", s->diff_files,
                     s->diff_files == 1 ? "" : "s", s->diff_added_lines,
                     s->diff_added_lines == 1 ? "" : "s", s->diff_removed_lines);
    if (s->system_roots.n) {
        struct sbx_buf where = SBX_BUF_INIT;
        for (size_t i = 0; i < s->system_roots.n; i++) {
            sbx_buf_adds(&where, i ? ", " : "");
            sbx_untrusted_cstr(&where, s->system_roots.s[i], SBX_SAN_ONE_LINE | SBX_SAN_ASCII, 40);
        }
        /* system roots are shown as plain text: keep markdown specials out */
        for (size_t i = 0; i < where.len; i++)
            if (strchr("*_`[]()<>#|!@\\~", where.p[i]))
                where.p[i] = '?';
        changes(c, out, s->system, where.p);
        sbx_buf_free(&where);
    } else {
        sbx_buf_adds(out, "- system folders: not checked (no manifest of them)\n");
    }
    sbx_buf_addc(out, '\n');

    written(c, out);

    sbx_buf_addf(out, "**Network:** %zu refused, ", s->nrefused);
    if (s->ndenials)
        sbx_buf_addf(out, "%llu connection%s refused by the sandbox, ",
                     (unsigned long long)s->denied_connections, s->denied_connections == 1 ? "" : "s");
    sbx_buf_addf(out, "%zu %shost%s named\n\n", s->hosts.n, s->nrefused ? "other " : "",
                 s->hosts.n == 1 ? "" : "s");
    for (size_t i = 0; i < s->ndenials && i < LIST_MAX; i++) {
        const struct sbx_event *e = s->denials[i];
        unsigned long long n = (unsigned long long)sbx_event_denials(e);
        sbx_buf_addf(out, "- %llu connection%s refused by the sandbox's network policy (no host named), at %s in ",
                     n, n == 1 ? "" : "s", sbx_time_format(e->start, a));
        const char *op = sbx_str(c->tl, e->label);
        code_cstr(c, out, op[0] ? op : "?");
        if (e->sandbox) {
            sbx_buf_adds(out, " in sandbox ");
            code_cstr(c, out, sbx_str(c->tl, e->sandbox));
        }
        sbx_buf_adds(out, " (");
        code_cstr(c, out, sbx_display_path(c->tl->sources[e->source].path));
        sbx_buf_addf(out, " line %u)", (unsigned)sbx_ev_line_no(e));
        if (e->kind == SBX_EV_COMMAND && (e->u.cmd.command.flags & SBX_TEXT_PRESENT)) {
            size_t len;
            const char *cmd = sbx_sum_command(c, e, &len);
            sbx_buf_adds(out, ": ");
            code(c, out, cmd, len);
        }
        id_tag(c, out, e);
        sbx_buf_addc(out, '\n');
    }
    if (s->ndenials > LIST_MAX)
        sbx_buf_addf(out, "- and %zu more operations with refused connections\n", s->ndenials - LIST_MAX);
    for (size_t i = 0; i < s->nrefused && i < LIST_MAX; i++) {
        const struct sbx_refusal *r = &s->refused[i];
        size_t n;
        sbx_buf_adds(out, "- refused ");
        code_cstr(c, out, r->host);
        sbx_buf_addf(out, " %zu time%s, first at %s: ", r->count, r->count == 1 ? "" : "s",
                     sbx_time_format(r->first, a));
        const char *ev = sbx_sum_redact(c, r->evidence, strlen(r->evidence), &n);
        code(c, out, ev, n);
        if (r->event->kind == SBX_EV_COMMAND) { /* a proxy's denial has no command */
            sbx_buf_adds(out, " from ");
            const char *cmd = sbx_sum_command(c, r->event, &n);
            code(c, out, cmd, n);
        }
        sbx_buf_addc(out, '\n');
    }
    if (s->hosts.n) {
        sbx_buf_adds(out, "- hosts named:");
        list(c, out, &s->hosts);
        sbx_buf_addc(out, '\n');
    }
    proxy_hosts(c, out);
    for (size_t i = 0; i < s->proxy_clocks.n; i++) {
        const struct sbx_proxy_clock *pc = &s->proxy_clocks.c[i];
        sbx_buf_adds(out, "- proxy clock ");
        code_cstr(c, out, sbx_display_path(c->tl->sources[pc->source].path));
        sbx_buf_addf(out, " (%s): ", pc->format);
        sbx_sum_proxy_clock_words(pc, out);
        sbx_buf_addc(out, '\n');
    }
    sbx_buf_addc(out, '\n');
    unlisted(c, out);

    struct sbx_buf words = SBX_BUF_INIT;
    sbx_sum_account_words(c->tl, s, &words);
    sbx_buf_addf(out, "**Account:** %s\n\n", words.p);
    for (size_t i = 0; i < s->naccount && i < LIST_MAX; i++) {
        const struct sbx_event *e = s->account[i];
        sbx_buf_addf(out, "- %s: ", sbx_time_format(e->start, a));
        code_cstr(c, out, sbx_str(c->tl, e->label));
        sbx_buf_adds(out, ": ");
        sbx_buf_clear(&words);
        sbx_audit_words(c->tl, e, &words);
        code(c, out, words.p ? words.p : "", words.len);
        id_tag(c, out, e);
        sbx_buf_addc(out, '\n');
    }
    if (s->naccount)
        sbx_buf_addc(out, '\n');
    sbx_buf_clear(&words);
    sbx_sum_record_words(s, &words);
    sbx_buf_addf(out, "**Record:** %s\n\n", words.p);
    for (size_t i = 0; i < s->ngaps && i < LIST_MAX; i++) {
        const struct sbx_gap *g = &s->gaps[i];
        sbx_buf_addf(out, "- **possibly removed from the log** at %s, between line %u and %u of ",
                     sbx_time_format(g->record->start, a), sbx_ev_line_no(g->before), sbx_ev_line_no(g->after));
        code_cstr(c, out, sbx_display_path(c->tl->sources[g->before->source].path));
        sbx_buf_adds(out, ": ");
        record_program(c, out, g->record);
        sbx_buf_adds(out, " in ");
        code_cstr(c, out, sbx_str(c->tl, g->record->sandbox));
        sbx_buf_addc(out, '\n');
    }
    if (s->ngaps > LIST_MAX)
        sbx_buf_addf(out, "- %zu more possibly removed\n", s->ngaps - LIST_MAX);
    if (s->ngaps)
        sbx_buf_addc(out, '\n');
    for (size_t i = 0; i < s->cross.noutside && i < LIST_MAX; i++) {
        const struct sbx_event *e = s->cross.outside[i];
        sbx_buf_addf(out, "- outside the wrapper at %s: ", sbx_time_format(e->start, a));
        record_program(c, out, e);
        sbx_buf_adds(out, " in ");
        code_cstr(c, out, sbx_str(c->tl, e->sandbox));
        id_tag(c, out, e);
        sbx_buf_addc(out, '\n');
    }
    if (s->cross.noutside)
        sbx_buf_addc(out, '\n');
    sbx_buf_clear(&words);
    if (sbx_sum_witness_words(c->tl, s, &words)) {
        sbx_buf_addf(out, "**Witnesses:** %s\n\n", words.p);
        for (size_t i = 0; i < s->witness.nclocks; i++) { /* which file each clock is */
            const struct sbx_source *src = &c->tl->sources[s->witness.clocks[i].source];
            sbx_buf_adds(out, "- ");
            code_cstr(c, out, sbx_display_path(src->path));
            sbx_buf_addf(out, " (%s): %s\n", src->format,
                         s->witness.clocks[i].skew.how == SBX_SKEW_UNCERTAIN ? "its own clock, the skew uncertain"
                                                                             : "on the wrapper's clock");
        }
        sbx_buf_addc(out, '\n');
        for (size_t i = 0; i < s->witness.nunwrapped && i < LIST_MAX; i++) {
            const struct sbx_event *e = s->witness.unwrapped[i];
            size_t n;
            const char *cmd = sbx_sum_command(c, e, &n);
            sbx_buf_addf(out, "- unwrapped at %s: ", sbx_time_format(e->start, a));
            code(c, out, cmd, n);
            sbx_buf_adds(out, " in ");
            code_cstr(c, out, sbx_str(c->tl, e->sandbox));
            sbx_buf_addf(out, " (%s's log only)", c->tl->sources[e->source].format);
            id_tag(c, out, e);
            sbx_buf_addc(out, '\n');
        }
        if (s->witness.nunwrapped)
            sbx_buf_addc(out, '\n');
    }
    sbx_buf_clear(&words);
    if (sbx_sum_sandbox_words(s, &words)) {
        sbx_buf_addf(out, "**Sandbox:** %s", words.p);
        if (s->stop_reasons.n) {
            sbx_buf_adds(out, s->stop_reasons.n == 1 ? "; stop reason:" : "; stop reasons:");
            list(c, out, &s->stop_reasons);
        }
        sbx_buf_adds(out, "\n\n");
    }
    sbx_buf_free(&words);
    const struct sbx_trace_stats *t = &s->traces;
    if (t->spans) {
        sbx_buf_addf(out, "**Traces:** %zu span%s in %zu trace%s", t->spans, t->spans == 1 ? "" : "s",
                     t->traces, t->traces == 1 ? "" : "s");
        if (t->agents.n) {
            sbx_buf_adds(out, t->agents.n == 1 ? ", agent" : ", agents");
            list(c, out, &t->agents);
        }
        sbx_buf_addf(out, "; %zu tool call%s, %zu failed", t->tool_calls,
                     t->tool_calls == 1 ? "" : "s", t->failed);
        if (t->refused)
            sbx_buf_addf(out, ", %zu with connections refused", t->refused);
        if (t->orphans)
            sbx_buf_addf(out, ", %zu orphan%s (parent not loaded)", t->orphans,
                         t->orphans == 1 ? "" : "s");
        sbx_buf_adds(out, "\n\n");
    }
    sbx_buf_addf(out, "**Integrity:** stdout hash verified for %zu, %zu mismatched, %zu unverifiable\n\n",
                 s->hash_verified, s->hash_mismatched, s->hash_unverifiable);
    for (size_t i = 0; i < s->nhash_mismatches && i < LIST_MAX; i++) {
        const struct sbx_event *e = s->hash_mismatches[i];
        size_t n;
        const char *cmd = sbx_sum_command(c, e, &n);
        sbx_buf_addf(out, "- stdout hash mismatch at %s: ", sbx_time_format(e->start, a));
        code_cstr(c, out, sbx_str(c->tl, e->u.cmd.program));
        sbx_buf_adds(out, " in ");
        code_cstr(c, out, sbx_str(c->tl, e->sandbox));
        sbx_buf_adds(out, ": ");
        code(c, out, cmd, n);
        sbx_buf_addc(out, '\n');
    }
    if (s->nhash_mismatches > LIST_MAX)
        sbx_buf_addf(out, "- %zu more hash mismatches\n", s->nhash_mismatches - LIST_MAX);
    if (s->nhash_mismatches)
        sbx_buf_addc(out, '\n');

    sbx_buf_addf(out, "**Secrets:** %zu found\n\n", s->nsecrets);
    for (size_t i = 0; i < s->nsecrets && i < LIST_MAX; i++) {
        const struct sbx_secret_found *f = &s->secrets[i];
        sbx_buf_addf(out, "- %s in %s at %s: ", sbx_secret_kind_name(f->kind), f->where,
                     sbx_time_format(f->event->start, a));
        code_cstr(c, out, f->sample);
        id_tag(c, out, f->event);
        sbx_buf_addc(out, '\n');
    }
    if (s->nsecrets > LIST_MAX)
        sbx_buf_addf(out, "- and %zu more\n", s->nsecrets - LIST_MAX);
    if (s->nsecrets)
        sbx_buf_addc(out, '\n');

    if (s->nrisky) {
        sbx_buf_addf(out, "**Risky commands:** %zu found\n\n", s->nrisky);
        for (size_t i = 0; i < s->nrisky && i < LIST_MAX; i++) {
            const struct sbx_risky_found *f = &s->risky[i];
            const char *sb = sbx_str(tl, f->event->sandbox);
            sbx_buf_addf(out, "- %s at %s, %s", sbx_finding_of(f->kind)->name, sbx_time_format(f->event->start, a),
                         sbx_kind_name(f->event->kind));
            if (sb[0]) {
                sbx_buf_adds(out, " in ");
                code_cstr(c, out, sb);
            }
            sbx_buf_adds(out, ": ");
            code_cstr(c, out, f->why);
            if (f->event->kind == SBX_EV_COMMAND) {
                size_t n;
                const char *cmd = sbx_sum_command(c, f->event, &n);
                sbx_buf_adds(out, " ");
                code(c, out, cmd, n);
            }
            sbx_buf_addc(out, '\n');
        }
        if (s->nrisky > LIST_MAX)
            sbx_buf_addf(out, "- and %zu more\n", s->nrisky - LIST_MAX);
        sbx_buf_addc(out, '\n');
    }

    size_t skipped = 0;
    for (size_t i = 0; i < tl->nsources; i++)
        skipped += tl->sources[i].skipped;
    sbx_buf_addf(out, "**Skipped lines:** %zu\n", skipped);
    for (size_t i = 0; i < tl->nskips && i < LIST_MAX; i++) {
        const struct sbx_skip *k = &tl->skips[i];
        sbx_buf_adds(out, "- ");
        code_cstr(c, out, sbx_display_path(tl->sources[k->source].path));
        sbx_buf_addf(out, " line %u: ", k->line);
        code_cstr(c, out, k->reason);
        sbx_buf_addc(out, '\n');
    }
    if (!s->nunread)
        return;
    sbx_buf_addf(out, "\n**Files not read:** %zu\n", s->nunread);
    for (size_t i = 0; i < s->nunread && i < LIST_MAX; i++) {
        sbx_buf_adds(out, "- ");
        code_cstr(c, out, sbx_display_path(s->unread[i].path));
        sbx_buf_adds(out, ": ");
        code_cstr(c, out, s->unread[i].reason);
        sbx_buf_addc(out, '\n');
    }
    if (s->nunread > LIST_MAX)
        sbx_buf_addf(out, "- and %zu more\n", s->nunread - LIST_MAX);
}

/* The run's review, after everything else, when there is one. */
static void review_part(struct sbx_sumctx *c, struct sbx_buf *out)
{
    if (!c->review_state || sbx_review_state_empty(c->review_state))
        return;
    sbx_buf_addc(out, '\n');
    sbx_review_markdown(c->tl, c->sum, c->review, c->review_state, out);
}
