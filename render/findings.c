#include "render/findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/audit_change.h"
#include "analyses/cmdlink.h"
#include "base/numfmt.h"
#include "base/timefmt.h"
#include "model/files.h"
#include "analyses/secrets/secrets.h"
#include "analyses/webhook.h"
#include "analyses/writers.h"
#include "render/during.h"

enum { COMMAND_MAX = 300, EVIDENCE_MAX = 1023, HOST_MAX = 512 };

/* The longest prefix of s[0..max) (s holds more) that ends at a character's
 * start. */
static size_t utf8_cut(const char *s, size_t max)
{
    while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
        max--;
    return max;
}

struct report {
    const struct sbx_timeline *tl;
    const struct sbx_summary *sum;
    struct sbx_secrets_scratch *scratch;
    struct sbx_findings *out;
    uint32_t allowed;
};

static void during_words(const struct report *r, const struct sbx_event *e, struct sbx_buf *out);
static void add(struct report *r, uint32_t k, const struct sbx_event *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* b redacted whole into out, and only then cut (never inside a character) */
static char *redact_cut(struct report *r, const struct sbx_buf *b)
{
    struct sbx_buf red = SBX_BUF_INIT;
    sbx_secrets_redact(r->sum->patterns, r->scratch, b->p ? b->p : "", b->len, &red);
    if (red.len > EVIDENCE_MAX) {
        red.len = utf8_cut(red.p, EVIDENCE_MAX);
        red.p[red.len] = '\0';
    }
    return red.p ? red.p : sbx_xstrndup("", 0);
}

static void add(struct report *r, uint32_t k, const struct sbx_event *e, const char *fmt, ...)
{
    if (r->allowed & k)
        return;
    struct sbx_buf whole = SBX_BUF_INIT, during = SBX_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sbx_buf_vaddf(&whole, fmt, ap);
    va_end(ap);
    during_words(r, e, &during);
    /* whatever the evidence quotes is redacted, whole, and only then cut: a
     * check's output lands in CI logs */
    struct sbx_findings *o = r->out;
    SBX_GROW(o->f, o->n, o->cap);
    o->f[o->n++] = (struct sbx_finding_item){k, e, redact_cut(r, &whole), during.len ? redact_cut(r, &during) : NULL};
    sbx_buf_free(&whole);
    sbx_buf_free(&during);
}

/* A source's file name, without its folders: the evidence stays the same
 * wherever the run is read from. */
static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static const char *str(const struct report *r, uint32_t id)
{
    return sbx_str(r->tl, id);
}

/* The command line, redacted whole, then cut to COMMAND_MAX bytes (never
 * inside a character, so never inside a mask's "…"). */
static void command_line(const struct report *r, const struct sbx_event *e, char *out, size_t n)
{
    struct sbx_buf tmp = SBX_BUF_INIT, red = SBX_BUF_INIT;
    size_t len;
    const char *s = sbx_text_get(r->tl, e, &e->u.cmd.command, &tmp, &len);
    sbx_secrets_redact(r->sum->patterns, r->scratch, s, len, &red);
    size_t keep = red.len < COMMAND_MAX ? red.len : utf8_cut(red.p, COMMAND_MAX);
    /* evidence is a C string: a NUL in the command is written as the
       sanitiser shows it, so that what follows it is not lost */
    size_t k = 0;
    for (size_t i = 0; i < keep && k + 3 <= n; i++) {
        if (red.p[i] == '\0') {
            out[k++] = '^';
            out[k++] = '@';
        } else {
            out[k++] = red.p[i];
        }
    }
    out[k < n ? k : n - 1] = '\0';
    sbx_buf_free(&red);
    sbx_buf_free(&tmp);
}

/* A host name redacted on its own: it is lowered, which only its own text
 * shows (see sbx_secrets_redact), and cut to HOST_MAX - 1 bytes after. */
static const char *host(const struct report *r, const char *name, char out[HOST_MAX])
{
    struct sbx_buf red = SBX_BUF_INIT;
    sbx_secrets_redact(r->sum->patterns, r->scratch, name, strlen(name), &red);
    size_t keep = red.len < HOST_MAX ? red.len : utf8_cut(red.p, HOST_MAX - 1);
    snprintf(out, HOST_MAX, "%.*s", (int)keep, red.p ? red.p : "");
    sbx_buf_free(&red);
    return out;
}

/* "running then: …; ended just before: …" for an event that did not come
 * from the wrapper (render/during.h); nothing for one that did. */
static void during_words(const struct report *r, const struct sbx_event *e, struct sbx_buf *out)
{
    struct sbx_during d;
    if (sbx_during_of(r->tl, r->sum, e, &d))
        sbx_during_text(r->tl, &d, out);
}

/* "; written by RULE: $ COMMAND, …; + line; - line" for a changed path
 * (analyses/written.h), or "; no command names it"; add() redacts it whole
 * and cuts it. */
static void writers_of(const struct report *r, const char *path, struct sbx_buf *out)
{
    const struct sbx_written *w = sbx_written_find(&r->sum->written, path);
    if (!w)
        return;
    if (!w->nby)
        sbx_buf_adds(out, "; no command names it");
    char cmd[COMMAND_MAX * 2 + 1];
    for (size_t i = 0; i < w->nby; i++) {
        command_line(r, w->by[i].command, cmd, sizeof cmd);
        sbx_buf_addf(out, "%s %s: $ %s", i ? "," : "; written by", sbx_write_rule_words(w->by[i].rule), cmd);
    }
    for (size_t i = 0; i < w->nlines; i++)
        sbx_buf_addf(out, "; %s", w->lines[i]);
}

static void collect(struct report *r)
{
    const struct sbx_summary *s = r->sum;
    const struct sbx_crosscheck *x = &s->cross;
    char cmd[320], hbuf[HOST_MAX];
    struct sbx_buf words = SBX_BUF_INIT;
    for (size_t i = 0; i < s->naccount; i++) {
        const struct sbx_event *e = s->account[i];
        if (!e->u.audit->inside)
            continue;
        sbx_buf_clear(&words);
        sbx_audit_words(r->tl, e, &words);
        /* the words of an action of no known family begin with it */
        bool named = e->u.audit->family == SBX_AUDIT_OTHER;
        add(r, SBX_F_ACCOUNT_INSIDE, e, "%s%son %s: %s", named ? "" : str(r, e->label), named ? "" : " ",
            str(r, e->u.audit->target), words.p);
    }
    for (size_t i = 0; i < x->noutside; i++) {
        const struct sbx_event *e = x->outside[i];
        char how[64] = "exit unknown";
        const struct sbx_command *c = &e->u.cmd;
        if (c->flags & SBX_CMD_RUNNING)
            snprintf(how, sizeof how, "running");
        else if (c->flags & SBX_CMD_UNREAD)
            snprintf(how, sizeof how, "unread: started in the background");
        else if (c->flags & SBX_CMD_EXIT_KNOWN)
            snprintf(how, sizeof how, "exit %d", (int)sbx_cmd_exit(c));
        char dur[SBX_NUM_BUFSZ];
        if (c->flags & SBX_CMD_MS_KNOWN)
            snprintf(how + strlen(how), sizeof how - strlen(how), ", %s",
                     sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(c)), SBX_DUR_WORDS, dur));
        add(r, SBX_F_OUTSIDE_WRAPPER, e, "%s (%s) is in Runtime's record but not in the wrapper's log",
            str(r, c->program), how);
    }
    sbx_buf_free(&words);
    for (size_t i = 0; i < s->ngaps; i++) {
        const struct sbx_gap *g = &s->gaps[i];
        const struct sbx_command *c = &g->record->u.cmd;
        char how[32] = "exit unknown";
        if (c->flags & SBX_CMD_EXIT_KNOWN)
            snprintf(how, sizeof how, "exit %d", (int)sbx_cmd_exit(c));
        add(r, SBX_F_REMOVED_FROM_LOG, g->record,
            "%s (%s) is in Runtime's record and fits the gap between line %u and %u of %s: possibly removed from the log",
            str(r, c->program), how, sbx_ev_line_no(g->before), sbx_ev_line_no(g->after), file_name(r->tl->sources[g->before->source].path));
    }
    for (size_t i = 0; i < s->witness.nunwrapped; i++) {
        const struct sbx_event *e = s->witness.unwrapped[i];
        command_line(r, e, cmd, sizeof cmd);
        add(r, SBX_F_UNWRAPPED, e, "$ %s: in %s's log but not in the wrapper's", cmd,
            r->tl->sources[e->source].format);
    }
    for (size_t i = 0; i < x->nmissing; i++) {
        command_line(r, x->missing[i], cmd, sizeof cmd);
        add(r, SBX_F_MISSING_FROM_RECORD, x->missing[i], "$ %s: not in Runtime's record, within its span", cmd);
    }
    for (size_t i = 0; i < x->nexit_mismatch; i++) {
        const struct sbx_pair *p = &x->exit_mismatch[i];
        command_line(r, p->wrapper, cmd, sizeof cmd);
        add(r, SBX_F_EXIT_MISMATCH, p->wrapper, "$ %s: the wrapper saw exit %d, Runtime's record %d", cmd,
            (int)sbx_cmd_exit(&p->wrapper->u.cmd), (int)sbx_cmd_exit(&p->record->u.cmd));
    }
    for (size_t i = 0; i < s->nrefused; i++) {
        const struct sbx_refusal *f = &s->refused[i];
        if (f->event->kind != SBX_EV_COMMAND) { /* the proxy's denial: the request is the evidence */
            add(r, SBX_F_REFUSED_HOST, f->event, "%s (%zu time%s): %s", host(r, f->host, hbuf), f->count,
                f->count == 1 ? "" : "s", f->evidence);
            continue;
        }
        command_line(r, f->event, cmd, sizeof cmd);
        add(r, SBX_F_REFUSED_HOST, f->event, "%s (%zu time%s): %s; $ %s", host(r, f->host, hbuf), f->count,
            f->count == 1 ? "" : "s", f->evidence, cmd);
    }
    for (size_t i = 0; i < s->ndenials; i++) { /* the sandbox's own policy: no host named */
        const struct sbx_event *e = s->denials[i];
        unsigned long long n = (unsigned long long)sbx_event_denials(e);
        if (e->kind == SBX_EV_COMMAND && (e->u.cmd.command.flags & SBX_TEXT_PRESENT)) {
            command_line(r, e, cmd, sizeof cmd);
            add(r, SBX_F_REFUSED_HOST, e, "%llu connection%s refused by the sandbox's network policy; $ %s", n,
                n == 1 ? "" : "s", cmd);
        } else {
            add(r, SBX_F_REFUSED_HOST, e, "%llu connection%s refused by the sandbox's network policy during %s",
                n, n == 1 ? "" : "s", str(r, e->label));
        }
    }
    for (size_t i = 0; i < s->nunlisted; i++) {
        const struct sbx_unlisted *u = &s->unlisted[i];
        add(r, SBX_F_UNLISTED_HOST, u->first, "%s (%zu event%s) is not on the allow list", host(r, u->host, hbuf),
            u->events,
            u->events == 1 ? "" : "s");
    }
    for (size_t i = 0; i < s->nsecrets; i++) {
        const struct sbx_secret_found *f = &s->secrets[i];
        add(r, SBX_F_SECRET, f->event, "%s %s in %s", sbx_secret_kind_name(f->kind), f->sample, f->where);
    }
    for (size_t i = 0; i < s->nrisky; i++) {
        const struct sbx_risky_found *f = &s->risky[i];
        if (f->event->kind == SBX_EV_COMMAND && (f->event->u.cmd.command.flags & SBX_TEXT_PRESENT)) {
            command_line(r, f->event, cmd, sizeof cmd);
            add(r, f->kind, f->event, "%s; $ %s", f->why, cmd);
        } else {
            add(r, f->kind, f->event, "%s", f->why);
        }
    }
    for (size_t i = 0; i < r->tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(r->tl, i);
        if ((e->findings & SBX_F_BAD_SIGNATURE) && sbx_event_signed_off(e)) {
            char when[64];
            add(r, SBX_F_BAD_SIGNATURE, e, "%s: replayed: the Runtime-Signature matches a secret given, but was %s",
                str(r, e->label), sbx_webhook_replay_words(sbx_event_signed_off(e), when, sizeof when));
        } else if (e->findings & SBX_F_BAD_SIGNATURE) {
            add(r, SBX_F_BAD_SIGNATURE, e, "%s: the Runtime-Signature does not verify with any secret given",
                str(r, e->label));
        }
        if (e->findings & SBX_F_HASH_MISMATCH) {
            command_line(r, e, cmd, sizeof cmd);
            add(r, SBX_F_HASH_MISMATCH, e, "$ %s: stdout does not hash to the recorded %016llx", cmd,
                (unsigned long long)e->u.cmd.stdout_hash);
        }
        if ((e->findings & SBX_F_SYSTEM_FILES) && e->kind == SBX_EV_FILES) {
            const struct sbx_files *f = e->u.files;
            for (int c = 0; c < SBX_CHANGE_COUNT; c++)
                for (uint32_t k = 0; f && k < f->n[c]; k++) {
                    struct sbx_buf by = SBX_BUF_INIT;
                    const char *path = sbx_files_path(r->tl, f, (enum sbx_change)c, k);
                    writers_of(r, path, &by);
                    add(r, SBX_F_SYSTEM_FILES, e, "%s %s%s",
                        c == SBX_ADDED ? "added" : c == SBX_CHANGED ? "changed" : "removed",
                        path, by.p ? by.p : "");
                    sbx_buf_free(&by);
                }
        }
        if (e->findings & SBX_F_HIDDEN_TEXT) {
            command_line(r, e, cmd, sizeof cmd);
            add(r, SBX_F_HIDDEN_TEXT, e, "$ %s", cmd);
        }
        if (e->findings & SBX_F_DUP_FIELD) {
            if (e->kind == SBX_EV_COMMAND && (e->u.cmd.command.flags & SBX_TEXT_PRESENT)) {
                command_line(r, e, cmd, sizeof cmd);
                add(r, SBX_F_DUP_FIELD, e, "$ %s: a field given twice, the last value read", cmd);
            } else {
                add(r, SBX_F_DUP_FIELD, e, "%s%s%s: a field given twice, the last value read",
                    sbx_kind_name(e->kind), e->label ? " " : "", str(r, e->label));
            }
        }
    }
}

static int by_kind_then_time(const void *a, const void *b)
{
    const struct sbx_finding_item *x = a, *y = b;
    size_t rx = sbx_finding_rank(x->kind), ry = sbx_finding_rank(y->kind);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    return sbx_event_cmp(x->event, y->event);
}

void sbx_findings_collect(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                          uint32_t allowed, struct sbx_findings *out)
{
    struct report r = {tl, sum, sbx_secrets_scratch_new(sum->patterns), out, allowed};
    collect(&r);
    sbx_secrets_scratch_free(r.scratch);
    if (out->n)
        qsort(out->f, out->n, sizeof *out->f, by_kind_then_time);
}

/* What an event that got through did: "$ CMD exited 0", "GET URL: 200". */
static void reach_what(struct report *r, const struct sbx_event *e, struct sbx_buf *out)
{
    char cmd[COMMAND_MAX * 2 + 1];
    if (e->kind == SBX_EV_COMMAND) {
        command_line(r, e, cmd, sizeof cmd);
        sbx_buf_addf(out, "$ %s exited 0", cmd);
        return;
    }
    struct sbx_buf tmp = SBX_BUF_INIT;
    size_t len;
    const char *url = sbx_text_get(r->tl, e, &e->u.net.url, &tmp, &len);
    sbx_buf_addf(out, "%s%s%.*s", str(r, e->u.net.method), e->u.net.method ? " " : "", (int)len, url);
    if (e->u.net.status >= 0)
        sbx_buf_addf(out, ": %d", (int)e->u.net.status);
    sbx_buf_adds(out, " through the proxy");
    sbx_buf_free(&tmp);
}

void sbx_findings_reached(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                          struct sbx_findings *out)
{
    struct report r = {tl, sum, sbx_secrets_scratch_new(sum->patterns), out, 0};
    struct sbx_buf what = SBX_BUF_INIT;
    for (size_t i = 0; i < sum->story.n; i++) {
        const struct sbx_story_item *it = &sum->story.items[i];
        for (size_t k = 0; k < it->nlinks; k++) {
            if (it->links[k].kind != SBX_LINK_WIDENED_BEFORE)
                continue;
            sbx_buf_clear(&what);
            reach_what(&r, it->event, &what);
            add(&r, 0, it->event, "%s: %s: %s", what.p, sbx_link_words(SBX_LINK_REACHED_AFTER),
                it->links[k].evidence);
        }
    }
    sbx_buf_free(&what);
    sbx_secrets_scratch_free(r.scratch);
}

void sbx_findings_free(struct sbx_findings *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->f[i].evidence);
        free(f->f[i].during);
    }
    free(f->f);
    f->f = NULL;
    f->n = f->cap = 0;
}

bool sbx_findings_skew_note(const struct sbx_summary *sum, struct sbx_buf *out)
{
    const struct sbx_crosscheck *x = &sum->cross;
    bool any = false;
    if (x->skew.how == SBX_SKEW_UNCERTAIN) {
        sbx_buf_addf(out, "skew uncertain (%zu of %zu pairs agree%s): %zu record%s and %zu command%s left "
                          "unmatched are not concluded outside the wrapper or missing from the record; "
                          "--skew SOURCE=OFFSET sets the offset",
                     x->skew.pairs, x->skew.comparable, x->skew.pairs ? " on one offset" : "",
                     x->nunmatched_records, x->nunmatched_records == 1 ? "" : "s", x->nunmatched_commands,
                     x->nunmatched_commands == 1 ? "" : "s");
        any = true;
    }
    /* the later command logs (sandboxio's, OTLP's) whose clock is uncertain */
    const struct sbx_witnesses *w = &sum->witness;
    for (size_t i = 0; i < w->nclocks; i++) {
        const struct sbx_skew *k = &w->clocks[i].skew;
        if (k->how != SBX_SKEW_UNCERTAIN)
            continue;
        size_t left = 0;
        for (size_t j = 0; j < w->nunconcluded; j++)
            left += w->unconcluded[j]->source == w->clocks[i].source;
        sbx_buf_addf(out, "%s%s's log: skew uncertain (%zu of %zu pairs agree%s): %zu command%s left "
                          "unmatched are not concluded unwrapped",
                     any ? "; " : "", w->clocks[i].format, k->pairs,
                     k->comparable, k->pairs ? " on one offset" : "", left, left == 1 ? "" : "s");
        any = true;
    }
    /* the proxy logs whose clock is uncertain: their requests stay on their own */
    for (size_t i = 0; i < sum->proxy_clocks.n; i++) {
        const struct sbx_proxy_clock *pc = &sum->proxy_clocks.c[i];
        if (pc->skew.how != SBX_SKEW_UNCERTAIN)
            continue;
        sbx_buf_addf(out, "%s%s's log: skew uncertain (%zu of %zu requests agree on one offset): its "
                          "requests keep its own clock; --skew SOURCE=OFFSET sets the offset",
                     any ? "; " : "", pc->format, pc->skew.pairs, pc->skew.comparable);
        any = true;
    }
    return any;
}

void sbx_finding_words(const struct sbx_finding_item *f, struct sbx_buf *out)
{
    sbx_buf_adds(out, f->evidence);
    if (f->during) {
        sbx_buf_adds(out, "; ");
        sbx_buf_adds(out, f->during);
    }
}
