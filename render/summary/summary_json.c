/* The summary as JSON: exactly the "schema": 1 contract of docs/summary-json.md. */
#include <string.h>

#include "analyses/audit_change.h"
#include "analyses/cmdlink.h"
#include "analyses/runs.h"
#include "analyses/secrets/secrets.h"
#include "analyses/writers.h"
#include "base/numfmt.h"
#include "base/timefmt.h"
#include "base/jsonw.h"
#include "model/evid.h"
#include "render/review.h"
#include "render/during.h"
#include "render/summary/summary_common.h"
#include "render/untrusted.h"

/* "key": integer, the pair this contract writes most. */
static void int_field(struct sbx_jsonw *w, const char *key, int64_t v)
{
    sbx_jw_key(w, key);
    sbx_jw_int(w, v);
}

static void time_value(struct sbx_jsonw *w, int64_t ns)
{
    char buf[SBX_TIME_BUFSZ];
    if (ns == SBX_TIME_UNKNOWN)
        sbx_jw_null(w);
    else
        sbx_untrusted_json_cstr(w, sbx_time_format(ns, buf));
}

/* "id": the event's stable id (model/evid.h) */
static void id_field(struct sbx_sumctx *c, struct sbx_jsonw *w, const struct sbx_event *e)
{
    char id[SBX_EVID_LEN];
    sbx_event_id(c->tl, e, id);
    sbx_jw_key(w, "id");
    sbx_jw_cstr(w, id);
}

/* "during", "during_all", "during_count" and "ended_before" (render/during.h):
 * what was running in e's sandbox when e happened, for an event that did
 * not come from the wrapper; nothing for one that did. */
static void during_members(struct sbx_sumctx *c, struct sbx_jsonw *w, const struct sbx_event *e)
{
    struct sbx_during d;
    if (sbx_during_of(c->tl, c->sum, e, &d))
        sbx_during_json(c->tl, &d, w);
}

static void span_object(struct sbx_jsonw *w, const char *key, int64_t start, int64_t end)
{
    sbx_jw_key(w, key);
    sbx_jw_object(w);
    sbx_jw_key(w, "start");
    time_value(w, start);
    sbx_jw_key(w, "end");
    time_value(w, end);
    sbx_jw_end_object(w);
}

static void string_list(struct sbx_jsonw *w, const char *key, const struct sbx_strlist *l)
{
    sbx_jw_key(w, key);
    sbx_jw_array(w);
    for (size_t i = 0; i < l->n; i++)
        sbx_untrusted_json_cstr(w, l->s[i]);
    sbx_jw_end_array(w);
}

static void change_lists(struct sbx_jsonw *w, const struct sbx_strlist *lists)
{
    string_list(w, "added", &lists[SBX_ADDED]);
    string_list(w, "changed", &lists[SBX_CHANGED]);
    string_list(w, "removed", &lists[SBX_REMOVED]);
}

static void run(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    sbx_jw_key(w, "run");
    sbx_jw_object(w);
    sbx_jw_key(w, "start");
    time_value(w, s->start);
    sbx_jw_key(w, "end");
    time_value(w, s->end);
    span_object(w, "sandbox_span", s->sandbox_start, s->sandbox_end);
    span_object(w, "active_span", s->active_start, s->active_end);
    sbx_jw_key(w, "sandboxes");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->nsandboxes; i++)
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, s->sandboxes[i]));
    sbx_jw_end_array(w);
    sbx_jw_key(w, "sources");
    sbx_jw_array(w);
    for (size_t i = 0; i < c->tl->nsources; i++) {
        const struct sbx_source *src = &c->tl->sources[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "path");
        sbx_untrusted_json_cstr(w, sbx_display_path(src->path));
        sbx_jw_key(w, "format");
        sbx_untrusted_json_cstr(w, src->format);
        int_field(w, "events", (int64_t)src->events);
        int_field(w, "skipped", (int64_t)src->skipped);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_jw_end_object(w);
}

static void commands(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    sbx_jw_key(w, "commands");
    sbx_jw_object(w);
    int_field(w, "total", (int64_t)s->commands);
    int_field(w, "failed", (int64_t)s->failed);
    int_field(w, "timed_out", (int64_t)s->timed_out);
    sbx_jw_key(w, "failed_by_program");
    sbx_jw_object(w);
    for (size_t i = 0; i < s->nfailed_by; i++) {
        const char *prog = sbx_str(c->tl, s->failed_by[i].program);
        sbx_jw_key(w, prog[0] ? prog : "?");
        sbx_jw_int(w, (int64_t)s->failed_by[i].count);
    }
    sbx_jw_end_object(w);
    sbx_jw_key(w, "longest");
    if (!s->longest) {
        sbx_jw_null(w);
    } else {
        const struct sbx_event *e = s->longest;
        sbx_jw_object(w);
        sbx_jw_key(w, "program");
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, e->u.cmd.program));
        sbx_jw_key(w, "command");
        size_t n;
        const char *cmd = sbx_sum_command(c, e, &n);
        sbx_untrusted_json(w, cmd, n);
        int_field(w, "ms", sbx_cmd_ms(&e->u.cmd));
        sbx_jw_key(w, "start");
        time_value(w, e->start);
        id_field(c, w, e);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_object(w);
}

/* Added within schema 1: every changed path and the commands that wrote
 * it (analyses/written.h). */
static void written_by(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    static const char *const verbs[SBX_CHANGE_COUNT] = {"added", "changed", "removed"};
    sbx_jw_key(w, "written_by");
    sbx_jw_array(w);
    struct sbx_sum_path p;
    for (size_t i = 0; sbx_sum_path_at(c->sum, i, &p); i++) {
        const struct sbx_written *wr = p.written;
        sbx_jw_object(w);
        sbx_jw_key(w, "path");
        sbx_untrusted_json_cstr(w, p.path);
        sbx_jw_key(w, "change");
        sbx_jw_cstr(w, verbs[p.change]);
        sbx_jw_key(w, "system");
        sbx_jw_bool(w, p.system);
        sbx_jw_key(w, "by");
        sbx_jw_array(w);
        for (size_t k = 0; wr && k < wr->nby; k++) {
            const struct sbx_event *e = wr->by[k].command;
            sbx_jw_object(w);
            sbx_jw_key(w, "rule");
            sbx_jw_cstr(w, sbx_write_rule_words(wr->by[k].rule));
            sbx_jw_key(w, "source");
            sbx_untrusted_json_cstr(w, sbx_display_path(c->tl->sources[e->source].path));
            int_field(w, "line", sbx_ev_line_no(e));
            sbx_jw_end_object(w);
        }
        sbx_jw_end_array(w);
        sbx_jw_key(w, "lines");
        if (wr && p.system && (wr->nlines || wr->more_lines)) {
            sbx_jw_object(w);
            sbx_jw_key(w, "from");
            sbx_jw_cstr(w, wr->lines_from_diff ? "diff" : "commands");
            sbx_jw_key(w, "lines");
            sbx_jw_array(w);
            for (size_t k = 0; k < wr->nlines; k++)
                sbx_untrusted_json_cstr(w, wr->lines[k]);
            sbx_jw_end_array(w);
            int_field(w, "more", (int64_t)wr->more_lines);
            sbx_jw_end_object(w);
        } else {
            sbx_jw_null(w);
        }
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

static void files(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    sbx_jw_key(w, "files");
    sbx_jw_object(w);
    change_lists(w, c->sum->files);
    sbx_jw_key(w, "from_manifests");
    sbx_jw_bool(w, c->sum->files_from_manifests);
    sbx_jw_key(w, "diff");
    if (c->tl->ndiffs || c->sum->diff_files) {
        sbx_jw_object(w);
        int_field(w, "files", (int64_t)c->sum->diff_files);
        int_field(w, "added_lines", (int64_t)c->sum->diff_added_lines);
        int_field(w, "removed_lines", (int64_t)c->sum->diff_removed_lines);
        sbx_jw_end_object(w);
    } else {
        sbx_jw_null(w);
    }
    sbx_jw_key(w, "system");
    sbx_jw_object(w);
    change_lists(w, c->sum->system);
    sbx_jw_end_object(w);
    written_by(c, w);
    sbx_jw_end_object(w);
}

static void skew_fields(struct sbx_jsonw *w, const struct sbx_skew *k);

static void network(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    sbx_jw_key(w, "network");
    sbx_jw_object(w);
    string_list(w, "hosts", &s->hosts);
    sbx_jw_key(w, "refused");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->nrefused; i++) {
        const struct sbx_refusal *r = &s->refused[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "host");
        sbx_untrusted_json_cstr(w, r->host);
        int_field(w, "count", (int64_t)r->count);
        sbx_jw_key(w, "first");
        time_value(w, r->first);
        sbx_jw_key(w, "evidence");
        size_t n;
        const char *ev = sbx_sum_redact(c, r->evidence, strlen(r->evidence), &n);
        sbx_untrusted_json(w, ev, n);
        during_members(c, w, r->event);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    /* added to schema 1: what the egress proxy saw, per host */
    sbx_jw_key(w, "proxy_hosts");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->nproxy_hosts; i++) {
        const struct sbx_host_stat *h = &s->proxy_hosts[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "host");
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, h->host));
        int_field(w, "requests", (int64_t)h->requests);
        int_field(w, "denied", (int64_t)h->denied);
        int_field(w, "unreached", (int64_t)h->unreached);
        int_field(w, "bytes_in", h->bytes_in);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    /* added to schema 1: connections the sandbox's own network policy
     * refused (no host named), and the first operation they happened in */
    sbx_jw_key(w, "sandbox_denials");
    sbx_jw_object(w);
    int_field(w, "operations", (int64_t)s->ndenials);
    int_field(w, "connections", (int64_t)s->denied_connections);
    sbx_jw_key(w, "first");
    if (!s->ndenials) {
        sbx_jw_null(w);
    } else {
        const struct sbx_event *e = s->denials[0];
        sbx_jw_object(w);
        sbx_jw_key(w, "start");
        time_value(w, e->start);
        sbx_jw_key(w, "operation");
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, e->label));
        int_field(w, "connections", (int64_t)sbx_event_denials(e));
        sbx_jw_key(w, "sandbox");
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, e->sandbox));
        sbx_jw_key(w, "command");
        if (e->kind == SBX_EV_COMMAND && (e->u.cmd.command.flags & SBX_TEXT_PRESENT)) {
            size_t n;
            const char *cmd = sbx_sum_command(c, e, &n);
            sbx_untrusted_json(w, cmd, n);
        } else {
            sbx_jw_null(w);
        }
        sbx_jw_key(w, "source");
        sbx_untrusted_json_cstr(w, sbx_display_path(c->tl->sources[e->source].path));
        int_field(w, "line", sbx_ev_line_no(e));
        id_field(c, w, e);
        during_members(c, w, e);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_object(w);
    /* added to schema 1: null without --allow-list, else the hosts it lacks */
    sbx_jw_key(w, "unlisted");
    if (!s->allow_list) {
        sbx_jw_null(w);
    } else {
        sbx_jw_array(w);
        for (size_t i = 0; i < s->nunlisted; i++) {
            const struct sbx_unlisted *u = &s->unlisted[i];
            sbx_jw_object(w);
            sbx_jw_key(w, "host");
            sbx_untrusted_json_cstr(w, u->host);
            int_field(w, "events", (int64_t)u->events);
            sbx_jw_key(w, "first");
            time_value(w, u->first->start);
            during_members(c, w, u->first);
            sbx_jw_end_object(w);
        }
        sbx_jw_end_array(w);
    }
    /* added to schema 1: each proxy log's clock against the wrapper's */
    sbx_jw_key(w, "proxy_clocks");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->proxy_clocks.n; i++) {
        const struct sbx_proxy_clock *pc = &s->proxy_clocks.c[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "path");
        sbx_untrusted_json_cstr(w, sbx_display_path(c->tl->sources[pc->source].path));
        sbx_jw_key(w, "format");
        sbx_jw_cstr(w, pc->format);
        sbx_jw_key(w, "skew");
        sbx_jw_object(w);
        skew_fields(w, &pc->skew);
        sbx_jw_end_object(w);
        int_field(w, "commands", (int64_t)pc->commands);
        int_field(w, "commands_agreeing", (int64_t)pc->commands_agreeing);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_jw_end_object(w);
}

/* Where an event is: {"at", "source", "line", "id"}. */
static void event_ref(struct sbx_sumctx *c, struct sbx_jsonw *w, const struct sbx_event *e)
{
    sbx_jw_object(w);
    sbx_jw_key(w, "at");
    time_value(w, e->start);
    sbx_jw_key(w, "source");
    sbx_untrusted_json_cstr(w, sbx_display_path(c->tl->sources[e->source].path));
    int_field(w, "line", sbx_ev_line_no(e));
    id_field(c, w, e); /* added within schema 1: the event's id, as check and --goto name it */
    sbx_jw_end_object(w);
}


/* The verdict and the whole story (analyses/chain.h). */
static void story(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    const struct sbx_story_item *h;
    size_t n = sbx_sum_story_findings(s, &h);
    struct sbx_buf words = SBX_BUF_INIT;
    sbx_jw_key(w, "verdict");
    sbx_jw_object(w);
    int_field(w, "findings", (int64_t)n);
    sbx_jw_key(w, "heaviest");
    sbx_untrusted_json_cstr(w, h ? sbx_finding_of(h->finding)->name : NULL);
    sbx_sum_verdict_words(c, &words);
    sbx_jw_key(w, "words");
    sbx_untrusted_json(w, words.p ? words.p : "", words.len);
    sbx_jw_end_object(w);
    sbx_jw_key(w, "story");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->story.n; i++) {
        const struct sbx_story_item *it = &s->story.items[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "at");
        time_value(w, it->event->start);
        sbx_jw_key(w, "event");
        event_ref(c, w, it->event);
        during_members(c, w, it->event);
        sbx_jw_key(w, "finding");
        sbx_untrusted_json_cstr(w, it->finding ? sbx_finding_of(it->finding)->name : NULL);
        sbx_buf_clear(&words);
        sbx_sum_item_words(c, it, &words);
        sbx_jw_key(w, "words");
        sbx_untrusted_json(w, words.p ? words.p : "", words.len);
        sbx_jw_key(w, "links");
        sbx_jw_array(w);
        for (size_t k = 0; k < it->nlinks; k++) {
            sbx_jw_object(w);
            sbx_jw_key(w, "kind");
            sbx_untrusted_json_cstr(w, sbx_link_name(it->links[k].kind));
            sbx_jw_key(w, "evidence");
            sbx_untrusted_json_cstr(w, it->links[k].evidence);
            sbx_jw_key(w, "event");
            event_ref(c, w, it->links[k].event);
            sbx_jw_end_object(w);
        }
        sbx_jw_end_array(w);
        int_field(w, "more_links", (int64_t)it->more);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_buf_free(&words);
}

/* A command as the cross-check reports it: sandbox, program, start, exit
 * (null unless known), and for a wrapper command its command line; with
 * during, what was running then (an outside-the-wrapper record). */
static void command_entry_during(struct sbx_sumctx *c, struct sbx_jsonw *w, const struct sbx_event *e,
                                 bool during)
{
    const struct sbx_command *cmd = &e->u.cmd;
    sbx_jw_object(w);
    sbx_jw_key(w, "sandbox");
    sbx_untrusted_json_cstr(w, sbx_str(c->tl, e->sandbox));
    sbx_jw_key(w, "program");
    sbx_untrusted_json_cstr(w, sbx_str(c->tl, cmd->program));
    sbx_jw_key(w, "start");
    time_value(w, e->start);
    sbx_jw_key(w, "exit");
    if (cmd->flags & SBX_CMD_EXIT_KNOWN)
        sbx_jw_int(w, sbx_cmd_exit(cmd));
    else
        sbx_jw_null(w);
    if (cmd->flags & SBX_CMD_RECORD) {
        sbx_jw_key(w, "state");
        sbx_untrusted_json_cstr(w, cmd->flags & SBX_CMD_RUNNING ? "running"
                       : cmd->flags & SBX_CMD_UNREAD ? "unread" : "exited");
    } else {
        size_t n;
        const char *line = sbx_sum_command(c, e, &n);
        sbx_jw_key(w, "command");
        sbx_untrusted_json(w, line, n);
    }
    id_field(c, w, e);
    if (during)
        during_members(c, w, e);
    sbx_jw_end_object(w);
}

static void command_entry(struct sbx_sumctx *c, struct sbx_jsonw *w, const struct sbx_event *e)
{
    command_entry_during(c, w, e, false);
}

/* key: [the commands es[0..n), each as command_entry writes it] */
static void command_list(struct sbx_sumctx *c, struct sbx_jsonw *w, const char *key,
                         const struct sbx_event **es, size_t n)
{
    sbx_jw_key(w, key);
    sbx_jw_array(w);
    for (size_t i = 0; i < n; i++)
        command_entry(c, w, es[i]);
    sbx_jw_end_array(w);
}

static const char *const skew_how[] = {
    [SBX_SKEW_NONE] = "none", [SBX_SKEW_MEASURED] = "measured",
    [SBX_SKEW_UNCERTAIN] = "uncertain", [SBX_SKEW_GIVEN] = "given",
};

/* How a clock's offset was found, inside its skew object. */
static void skew_fields(struct sbx_jsonw *w, const struct sbx_skew *k)
{
    sbx_jw_key(w, "how");
    sbx_jw_cstr(w, skew_how[k->how]);
    sbx_jw_key(w, "ms");
    if (k->how == SBX_SKEW_NONE || (k->how == SBX_SKEW_UNCERTAIN && !k->pairs))
        sbx_jw_null(w);
    else
        sbx_jw_int(w, sbx_ns_to_ms(k->ns));
    int_field(w, "pairs", (int64_t)k->pairs);
    int_field(w, "comparable", (int64_t)k->comparable);
    int_field(w, "spread_ms", sbx_ns_to_ms(k->spread_ns));
}

/* The commands only a later log saw, and each later log's clock with what
 * its uncertain skew left unconcluded. */
static void witness_members(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_witnesses *x = &c->sum->witness;
    sbx_jw_key(w, "unwrapped");
    sbx_jw_array(w);
    for (size_t i = 0; i < x->nunwrapped; i++)
        command_entry_during(c, w, x->unwrapped[i], true);
    sbx_jw_end_array(w);
    sbx_jw_key(w, "witness_clocks");
    sbx_jw_array(w);
    for (size_t i = 0; i < x->nclocks; i++) {
        const struct sbx_source *src = &c->tl->sources[x->clocks[i].source];
        sbx_jw_object(w);
        sbx_jw_key(w, "path");
        sbx_untrusted_json_cstr(w, sbx_display_path(src->path));
        sbx_jw_key(w, "format");
        sbx_jw_cstr(w, src->format);
        sbx_jw_key(w, "skew");
        sbx_jw_object(w);
        skew_fields(w, &x->clocks[i].skew);
        sbx_jw_end_object(w);
        sbx_jw_key(w, "not_concluded");
        sbx_jw_array(w);
        for (size_t j = 0; j < x->nunconcluded; j++)
            if (x->unconcluded[j]->source == x->clocks[i].source)
                command_entry(c, w, x->unconcluded[j]);
        sbx_jw_end_array(w);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

/* The record's clock, and with an uncertain one what was not concluded. */
static void skew_object(struct sbx_sumctx *c, struct sbx_jsonw *w, const struct sbx_crosscheck *x)
{
    sbx_jw_key(w, "skew");
    sbx_jw_object(w);
    skew_fields(w, &x->skew);
    sbx_jw_key(w, "not_concluded");
    sbx_jw_object(w);
    command_list(c, w, "records", x->unmatched_records, x->nunmatched_records);
    command_list(c, w, "commands", x->unmatched_commands, x->nunmatched_commands);
    sbx_jw_end_object(w);
    sbx_jw_end_object(w);
}

static void integrity(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    const struct sbx_crosscheck *x = &s->cross;
    sbx_jw_key(w, "integrity");
    sbx_jw_object(w);
    sbx_jw_key(w, "outside_wrapper");
    sbx_jw_array(w);
    for (size_t i = 0; i < x->noutside; i++)
        command_entry_during(c, w, x->outside[i], true);
    sbx_jw_end_array(w);
    sbx_jw_key(w, "removed_from_log");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->ngaps; i++) {
        const struct sbx_gap *g = &s->gaps[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "record");
        command_entry(c, w, g->record);
        sbx_jw_key(w, "source");
        sbx_untrusted_json_cstr(w, sbx_display_path(c->tl->sources[g->before->source].path));
        int_field(w, "after_line", sbx_ev_line_no(g->before));
        int_field(w, "before_line", sbx_ev_line_no(g->after));
        during_members(c, w, g->record);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    command_list(c, w, "missing_from_record", x->missing, x->nmissing);
    sbx_jw_key(w, "clock_skew_ms");
    if (x->skew_known)
        sbx_jw_int(w, sbx_ns_to_ms(x->skew_ns));
    else
        sbx_jw_null(w);
    /* added to schema 1: the rest of the cross-check */
    sbx_jw_key(w, "command_record");
    sbx_jw_object(w);
    int_field(w, "records", (int64_t)x->records);
    int_field(w, "matched", (int64_t)x->npairs);
    int_field(w, "older_than_record", (int64_t)x->older_than_record);
    int_field(w, "running", (int64_t)x->running);
    int_field(w, "unread", (int64_t)x->unread);
    skew_object(c, w, x);
    sbx_jw_key(w, "exit_mismatch");
    sbx_jw_array(w);
    for (size_t i = 0; i < x->nexit_mismatch; i++) {
        sbx_jw_object(w);
        sbx_jw_key(w, "wrapper");
        command_entry(c, w, x->exit_mismatch[i].wrapper);
        sbx_jw_key(w, "record");
        command_entry(c, w, x->exit_mismatch[i].record);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_jw_end_object(w);
    sbx_jw_key(w, "webhook_signatures");
    sbx_jw_object(w);
    int_field(w, "deliveries", (int64_t)s->webhooks);
    int_field(w, "verified", (int64_t)s->signatures_verified);
    int_field(w, "failed", (int64_t)s->signatures_failed);
    sbx_jw_end_object(w);
    sbx_jw_key(w, "stdout_hash");
    sbx_jw_object(w);
    int_field(w, "verified", (int64_t)s->hash_verified);
    int_field(w, "mismatched", (int64_t)s->hash_mismatched);
    command_list(c, w, "mismatched_commands", s->hash_mismatches, s->nhash_mismatches);
    int_field(w, "unverifiable", (int64_t)s->hash_unverifiable);
    sbx_jw_end_object(w);
    witness_members(c, w);
    sbx_jw_end_object(w);
}

static void secrets(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    sbx_jw_key(w, "secrets");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->nsecrets; i++) {
        const struct sbx_secret_found *f = &s->secrets[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "kind");
        sbx_untrusted_json_cstr(w, sbx_secret_kind_name(f->kind));
        sbx_jw_key(w, "start");
        time_value(w, f->event->start);
        sbx_jw_key(w, "where");
        sbx_untrusted_json_cstr(w, f->where);
        sbx_jw_key(w, "sample");
        sbx_untrusted_json_cstr(w, f->sample);
        id_field(c, w, f->event);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

/* risky: [{kind, start, sandbox, event, command (for a command), why}] */
static void risky(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    sbx_jw_key(w, "risky");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->nrisky; i++) {
        const struct sbx_risky_found *f = &s->risky[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "kind");
        sbx_untrusted_json_cstr(w, sbx_finding_of(f->kind)->name);
        sbx_jw_key(w, "start");
        time_value(w, f->event->start);
        sbx_jw_key(w, "sandbox");
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, f->event->sandbox));
        sbx_jw_key(w, "event");
        sbx_untrusted_json_cstr(w, sbx_kind_name(f->event->kind));
        if (f->event->kind == SBX_EV_COMMAND) {
            size_t n;
            const char *line = sbx_sum_command(c, f->event, &n);
            sbx_jw_key(w, "command");
            sbx_untrusted_json(w, line, n);
        }
        sbx_jw_key(w, "why");
        sbx_untrusted_json_cstr(w, f->why);
        during_members(c, w, f->event);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

static void skipped(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    sbx_jw_key(w, "skipped");
    sbx_jw_array(w);
    for (size_t i = 0; i < c->tl->nskips; i++) {
        const struct sbx_skip *k = &c->tl->skips[i];
        sbx_jw_object(w);
        sbx_jw_key(w, "source");
        sbx_untrusted_json_cstr(w, sbx_display_path(c->tl->sources[k->source].path));
        int_field(w, "line", k->line);
        sbx_jw_key(w, "reason");
        sbx_untrusted_json_cstr(w, k->reason);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

/* Added to schema 1: the input files that were not read, and why. */
static void unread_files(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    sbx_jw_key(w, "unread_files");
    sbx_jw_array(w);
    for (size_t i = 0; i < c->sum->nunread; i++) {
        sbx_jw_object(w);
        sbx_jw_key(w, "path");
        sbx_untrusted_json_cstr(w, sbx_display_path(c->sum->unread[i].path));
        sbx_jw_key(w, "reason");
        sbx_untrusted_json_cstr(w, c->sum->unread[i].reason);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

static void account(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    struct sbx_buf words = SBX_BUF_INIT;
    sbx_jw_key(w, "account");
    sbx_jw_object(w);
    sbx_jw_key(w, "changes");
    sbx_jw_array(w);
    for (size_t i = 0; i < s->naccount; i++) {
        const struct sbx_event *e = s->account[i];
        const char *inside = sbx_str(c->tl, e->u.audit->inside);
        sbx_jw_object(w);
        sbx_jw_key(w, "at");
        time_value(w, e->start);
        sbx_jw_key(w, "action");
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, e->label));
        sbx_jw_key(w, "actor");
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, e->u.audit->actor));
        sbx_jw_key(w, "sandbox");
        sbx_untrusted_json_cstr(w, inside[0] ? inside : NULL);
        sbx_jw_key(w, "target"); /* added to schema 1 */
        sbx_untrusted_json_cstr(w, sbx_str(c->tl, e->u.audit->target));
        /* added to schema 1: what it changed, who from where, what ran then */
        sbx_buf_clear(&words);
        sbx_audit_change_words(c->tl, e, &words);
        sbx_jw_key(w, "change");
        sbx_untrusted_json(w, words.p ? words.p : "", words.len);
        sbx_jw_key(w, "person");
        sbx_untrusted_json_cstr(w, e->u.audit->person ? sbx_str(c->tl, e->u.audit->person) : NULL);
        sbx_jw_key(w, "ip");
        sbx_untrusted_json_cstr(w, e->u.audit->ip ? sbx_str(c->tl, e->u.audit->ip) : NULL);
        sbx_jw_key(w, "request_id");
        sbx_untrusted_json_cstr(w, e->u.audit->request ? sbx_str(c->tl, e->u.audit->request) : NULL);
        during_members(c, w, e);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    int_field(w, "audit_entries", (int64_t)s->audit_entries); /* added to schema 1: loaded, and about the run */
    int_field(w, "audit_entries_about_run", (int64_t)s->audit_about_run);
    sbx_jw_end_object(w);
    sbx_buf_free(&words);
}

/* Added to schema 1: lifecycle events and metrics peaks. */
static void sandbox_life(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_summary *s = c->sum;
    sbx_jw_key(w, "lifecycle");
    sbx_jw_object(w);
    int_field(w, "events", (int64_t)s->lifecycle);
    int_field(w, "pauses", (int64_t)s->pauses);
    int_field(w, "wakes", (int64_t)s->wakes);
    int_field(w, "stops", (int64_t)s->stops);
    int_field(w, "failed_starts", (int64_t)s->failed_starts);
    string_list(w, "stop_reasons", &s->stop_reasons);
    sbx_jw_end_object(w);
    sbx_jw_key(w, "metrics");
    sbx_jw_object(w);
    int_field(w, "readings", (int64_t)s->metrics);
    sbx_jw_key(w, "cpu_peak_percent");
    if (s->cpu_peak) {
        const struct sbx_metric *m = &s->cpu_peak->u.metric;
        sbx_jw_int(w, sbx_round_nearest(m->cpu_peak_percent >= 0 ? m->cpu_peak_percent : m->cpu_percent));
    } else {
        sbx_jw_null(w);
    }
    sbx_jw_key(w, "memory_peak_bytes");
    if (s->memory_peak) {
        const struct sbx_metric *m = &s->memory_peak->u.metric;
        sbx_jw_int(w, m->memory_peak_bytes >= 0 ? m->memory_peak_bytes : m->memory_bytes);
    } else {
        sbx_jw_null(w);
    }
    sbx_jw_end_object(w);
}

/* Added to schema 1: the OpenTelemetry spans, when some were loaded. */
static void traces(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    const struct sbx_trace_stats *t = &c->sum->traces;
    if (!t->spans)
        return;
    sbx_jw_key(w, "traces");
    sbx_jw_object(w);
    int_field(w, "spans", (int64_t)t->spans);
    int_field(w, "traces", (int64_t)t->traces);
    int_field(w, "orphans", (int64_t)t->orphans);
    string_list(w, "agents", &t->agents);
    int_field(w, "tool_calls", (int64_t)t->tool_calls);
    int_field(w, "failed", (int64_t)t->failed);
    int_field(w, "refused", (int64_t)t->refused);
    sbx_jw_end_object(w);
}

/* added within schema 1: the runs list's row of the run, exactly as the list
 * computes it from the logs (analyses/runs.h), so a runs list can read the
 * row from this manifest instead of the logs (docs/summary-json.md) */
static void runs_row(struct sbx_sumctx *c, struct sbx_jsonw *w)
{
    struct sbx_runs one;
    sbx_runs_init(&one, "");
    sbx_runs_add(&one, "", "");
    sbx_run_row_fill(&one, 0, c->tl, c->sum);
    const struct sbx_run_row *row = &one.rows[0];
    sbx_jw_key(w, "runs_row");
    sbx_jw_object(w);
    sbx_jw_key(w, "start_ns");
    if (row->start == SBX_TIME_UNKNOWN)
        sbx_jw_null(w);
    else
        sbx_jw_int(w, row->start);
    sbx_jw_key(w, "end_ns");
    if (row->end == SBX_TIME_UNKNOWN)
        sbx_jw_null(w);
    else
        sbx_jw_int(w, row->end);
    int_field(w, "events", (int64_t)row->events);
    sbx_jw_key(w, "counts");
    sbx_jw_object(w);
    for (int col = SBX_RUN_SANDBOXES; col < SBX_RUN_LOG_END; col++)
        int_field(w, sbx_run_col_name((enum sbx_run_col)col), (int64_t)row->count[col]);
    sbx_jw_end_object(w);
    sbx_jw_key(w, "known");
    sbx_jw_array(w);
    for (int col = SBX_RUN_SANDBOXES; col < SBX_RUN_LOG_END; col++)
        if (row->known & (1u << col))
            sbx_jw_cstr(w, sbx_run_col_name((enum sbx_run_col)col));
    sbx_jw_end_array(w);
    sbx_jw_key(w, "findings");
    sbx_jw_array(w);
    for (size_t k = 0; k < sbx_nfindings; k++)
        if (row->findings & sbx_findings[k].bit)
            sbx_jw_cstr(w, sbx_findings[k].name);
    sbx_jw_end_array(w);
    /* the first command whose stdout does not hash to its hash, as the list names it */
    sbx_jw_key(w, "stdout_mismatch");
    sbx_jw_object(w);
    sbx_jw_key(w, "first");
    sbx_untrusted_json_cstr(w, row->mismatch);
    int_field(w, "count", (int64_t)row->mismatches);
    sbx_jw_end_object(w);
    sbx_jw_end_object(w);
    sbx_runs_free(&one);
}

void sbx_render_json(struct sbx_sumctx *c, struct sbx_buf *out)
{
    struct sbx_jsonw w;
    sbx_jw_init(&w, out, true);
    if (c->spill)
        sbx_jw_spill(&w, c->spill_at, c->spill, c->spill_ctx);
    sbx_jw_object(&w);
    sbx_jw_key(&w, "schema");
    sbx_jw_int(&w, 1);
    story(c, &w);
    run(c, &w);
    commands(c, &w);
    files(c, &w);
    network(c, &w);
    account(c, &w);
    integrity(c, &w);
    sandbox_life(c, &w);
    traces(c, &w);
    secrets(c, &w);
    skipped(c, &w);
    unread_files(c, &w);
    /* added within schema 1: the run's review, or null (docs/review-file.md) */
    sbx_jw_key(&w, "review");
    if (c->review_state && !sbx_review_state_empty(c->review_state)) {
        sbx_jw_object(&w);
        sbx_review_json_members(c->tl, c->review, c->review_state, &w);
        sbx_jw_end_object(&w);
    } else {
        sbx_jw_null(&w);
    }
    risky(c, &w);
    runs_row(c, &w);
    sbx_jw_end_object(&w);
    sbx_buf_addc(out, '\n');
}
