/* The detail of one event, as a document the detail view scrolls. */
#include <stdio.h>
#include <string.h>

#include "analyses/audit_change.h"
#include "analyses/chain.h"
#include "analyses/cmdlink.h"
#include "model/diffs.h"
#include "model/evid.h"
#include "model/files.h"
#include "analyses/hashcheck.h"
#include "analyses/hidden.h"
#include "analyses/webhook.h"
#include "model/sandboxio_line.h"
#include "analyses/secrets/secrets.h"
#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/summary/summary_common.h"
#include "render/during.h"
#include "render/views/spans.h"
#include "render/views/views.h"

enum { FIELD_W = 13 };

void sbx_doc_field(struct sbx_doc *d, const char *name)
{
    sbx_doc_set_indent(d, FIELD_W);
    sbx_doc_addf(d, SBX_STYLE_FIELD, "%-*s", FIELD_W, name);
}

void sbx_doc_heading(struct sbx_doc *d, const char *what)
{
    sbx_doc_set_indent(d, 0);
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_HEADING, what);
    sbx_doc_end_line(d);
}

static void untrusted(struct sbx_doc *d, struct sbx_rows_look *l, enum sbx_style style,
                      const char *s, size_t n, bool one_line)
{
    if (l->scratch) {
        sbx_buf_clear(&l->red);
        sbx_secrets_redact(l->sum->patterns, l->scratch, s, n, &l->red);
        s = l->red.p ? l->red.p : "";
        n = l->red.len;
    }
    sbx_doc_untrusted(d, style, s, n, one_line);
}

static bool listed(const struct sbx_event *const *list, size_t n, const struct sbx_event *e)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == e)
            return true;
    return false;
}

static void time_field(struct sbx_doc *d, struct sbx_rows_look *l, const char *name, int64_t t,
                       const struct sbx_event *e)
{
    char stamp[40], clock[16];
    sbx_doc_field(d, name);
    if (t == SBX_TIME_UNKNOWN) {
        sbx_doc_adds(d, SBX_STYLE_WARNING, "unknown");
    } else {
        sbx_stamp(t, l->local, stamp);
        sbx_clock(t, l->local, clock);
        /* the date, then the clock with milliseconds, then the zone */
        sbx_doc_addf(d, SBX_STYLE_NORMAL, "%.10s %s %s", stamp, clock, stamp + 20);
        if (e->tflags & SBX_EVT_NO_ZONE)
            sbx_doc_adds(d, SBX_STYLE_WARNING, " (the record gave no zone: read as UTC)");
        if (e->tflags & SBX_EVT_LEAP_SECOND)
            sbx_doc_adds(d, SBX_STYLE_WARNING, " (a leap second)");
        if ((e->tflags & SBX_EVT_TIME_INFERRED) && strcmp(name, "Started") == 0)
            sbx_doc_adds(d, SBX_STYLE_NOTE, " ~ inferred: the source has no times; placed after the run's last event");
        else if (e->tflags & SBX_EVT_TIME_INFERRED)
            sbx_doc_adds(d, SBX_STYLE_NOTE, " ~ inferred");
    }
    sbx_doc_end_line(d);
}

/* Which clock the times above are on, and the source's own time beside
 * them when it was moved (docs/formats/runtime.md, "Cross-check"). */
static void clock_field(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_source *src = &l->tl->sources[e->source];
    bool runtime = strncmp(src->format, "runtime-", 8) == 0;
    if (src->clock == SBX_CLOCK_OWN && !runtime) {
        /* a later command log (sandboxio's, OTLP's) whose skew is uncertain */
        for (size_t i = 0; l->sum && i < l->sum->witness.nclocks; i++)
            if (l->sum->witness.clocks[i].source == e->source &&
                l->sum->witness.clocks[i].skew.how == SBX_SKEW_UNCERTAIN) {
                sbx_doc_field(d, "Clock");
                sbx_doc_addf(d, SBX_STYLE_WARNING,
                             "%s's own: the skew to the wrapper's log is uncertain, not applied", src->format);
                sbx_doc_end_line(d);
            }
        /* a proxy log whose skew is uncertain, or that has nothing to align */
        const struct sbx_proxy_clock *pc = l->sum ? sbx_proxy_clock_of(&l->sum->proxy_clocks, e->source) : NULL;
        if (pc && (pc->skew.how == SBX_SKEW_UNCERTAIN || pc->skew.how == SBX_SKEW_NONE)) {
            sbx_doc_field(d, "Clock");
            sbx_doc_addf(d, SBX_STYLE_WARNING, "%s's own: %s", src->format,
                         pc->skew.how == SBX_SKEW_UNCERTAIN
                             ? "the skew to the wrapper's log is uncertain, not applied"
                             : "no request's host is named by a wrapper command to align it to");
            sbx_doc_end_line(d);
        }
        return;
    }
    sbx_doc_field(d, "Clock");
    if (src->clock == SBX_CLOCK_OWN) {
        bool uncertain = l->sum && l->sum->cross.skew.how == SBX_SKEW_UNCERTAIN;
        sbx_doc_adds(d, SBX_STYLE_WARNING,
                     uncertain ? "Runtime's own: the skew to the wrapper's log is uncertain, not applied"
                               : "Runtime's own: no wrapper command to align it to");
        sbx_doc_end_line(d);
        return;
    }
    char stamp[40], clock[16];
    int64_t own = sbx_event_own_time(l->tl, e, e->start);
    long long ms = (long long)sbx_ns_to_ms(src->clock_offset), abs_ms = ms < 0 ? -ms : ms;
    sbx_doc_addf(d, SBX_STYLE_NORMAL, "the wrapper's; this source's runs %s%lld.%03lld s from it (%s)",
                 ms < 0 ? "-" : "+", abs_ms / 1000, abs_ms % 1000,
                 src->clock == SBX_CLOCK_GIVEN ? "given with --skew" : "measured");
    if (own != SBX_TIME_UNKNOWN) {
        sbx_stamp(own, l->local, stamp);
        sbx_clock(own, l->local, clock);
        sbx_doc_addf(d, SBX_STYLE_NOTE, "; its own time %.10s %s %s", stamp, clock, stamp + 20);
    }
    sbx_doc_end_line(d);
}

static size_t count_lines(const char *s, size_t n)
{
    size_t lines = n && s[n - 1] != '\n';
    for (const char *p = s; (p = memchr(p, '\n', (size_t)(s + n - p))); p++)
        lines++;
    return lines;
}

static void output_block(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e,
                         const struct sbx_text *t, const char *name, enum sbx_style style)
{
    if (!(t->flags & SBX_TEXT_PRESENT))
        return;
    size_t n;
    struct sbx_buf tmp = SBX_BUF_INIT;
    const char *s = sbx_text_get(l->tl, e, t, &tmp, &n);
    char what[96];
    size_t lines = count_lines(s, n);
    if (n)
        snprintf(what, sizeof what, "%s: %zu line%s, %zu bytes", name, lines, lines == 1 ? "" : "s", n);
    else
        snprintf(what, sizeof what, "%s: empty", name);
    sbx_doc_heading(d, what);
    if (n) {
        /* the newline that ends the last line does not start another */
        untrusted(d, l, style, s, s[n - 1] == '\n' ? n - 1 : n, false);
        sbx_doc_end_line(d);
    }
    sbx_buf_free(&tmp);
}

/* Untrusted text in which sandboxio's redaction mark, *** (exactly three),
 * is drawn in the escape style: a value removed, not text. */
static void untrusted_marked(struct sbx_doc *d, struct sbx_rows_look *l, enum sbx_style style,
                             const char *s, size_t n, bool one_line)
{
    const char *p = s, *end = s + n, *from = s;
    while (end - p >= 3 && (p = memmem(p, (size_t)(end - p), "***", 3))) {
        size_t run = 3;
        while (p + run < end && p[run] == '*')
            run++;
        if (run == 3 && (p == s || p[-1] != '*')) {
            if (p > from)
                untrusted(d, l, style, from, (size_t)(p - from), one_line);
            sbx_doc_add(d, SBX_STYLE_ESCAPE, "***", 3);
            from = p + 3;
        }
        p += run;
    }
    if (from < end)
        untrusted(d, l, style, from, (size_t)(end - from), one_line);
}

static bool from_sandboxio(const struct sbx_rows_look *l, const struct sbx_event *e)
{
    return strcmp(l->tl->sources[e->source].format, "sandboxio") == 0;
}

struct extras {
    struct sbx_doc *d;
    struct sbx_rows_look *l;
};

/* One field of a sandboxio line the event does not keep. */
static void extra_field(void *ctx, const char *key, size_t klen, const char *val, size_t vlen,
                        bool string)
{
    struct extras *x = ctx;
    static const char *const names[][2] = {
        {"backend", "Backend"},     {"isolation", "Isolation"}, {"tenant_id", "Tenant"},
        {"session_id", "Session"},  {"bytes_in", "Bytes in"},   {"bytes_out", "Bytes out"},
        {"code_sha256", "Code sha256"},
    };
    const char *name = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !name; i++)
        if (strlen(names[i][0]) == klen && memcmp(names[i][0], key, klen) == 0)
            name = names[i][1];
    if (name) {
        sbx_doc_field(x->d, name);
    } else { /* a field sandboxio's format does not name: as it is */
        sbx_doc_field(x->d, "");
        untrusted(x->d, x->l, SBX_STYLE_FIELD, key, klen, true);
        sbx_doc_adds(x->d, SBX_STYLE_FIELD, ": ");
    }
    if (string && klen == 11 && memcmp(key, "code_sha256", 11) == 0 &&
        vlen == sizeof SBX_SANDBOXIO_EMPTY_SHA256 - 1 && memcmp(val, SBX_SANDBOXIO_EMPTY_SHA256, vlen) == 0)
        sbx_doc_adds(x->d, SBX_STYLE_NOTE, "no code sent (the empty string's)");
    else if (string && !vlen)
        sbx_doc_adds(x->d, SBX_STYLE_NOTE, "(empty)");
    else
        untrusted_marked(x->d, x->l, SBX_STYLE_NORMAL, val, vlen, true);
    sbx_doc_end_line(x->d);
}

/* What else a sandboxio line says (backend, isolation, tenant, session,
 * bytes, the code's hash, unknown fields), and what *** means. */
static void sandboxio_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const char *line = sbx_event_line(l->tl, e);
    struct extras x = {d, l};
    sbx_sandboxio_extras(line, sbx_ev_line_len(e), extra_field, &x);
    if (memmem(line, sbx_ev_line_len(e), "***", 3)) {
        sbx_doc_field(d, "Redacted");
        sbx_doc_add(d, SBX_STYLE_ESCAPE, "***", 3);
        sbx_doc_adds(d, SBX_STYLE_NOTE, " is a value sandboxio removed before it wrote the line");
        sbx_doc_end_line(d);
    }
}

static void code_block(void *ctx, const char *key, size_t klen, const char *val, size_t vlen,
                       bool string)
{
    struct extras *x = ctx;
    (void)key;
    (void)klen;
    (void)string;
    sbx_doc_heading(x->d, "Code, as sandboxio captured it");
    untrusted_marked(x->d, x->l, SBX_STYLE_NORMAL, val, vlen && val[vlen - 1] == '\n' ? vlen - 1 : vlen,
                     false);
    sbx_doc_end_line(x->d);
}

/* The command of a sandboxio operation: its argv as a command line, or
 * run_code's code when captured, or what is known instead. */
static void sandboxio_command(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_command *c = &e->u.cmd;
    const char *line = sbx_event_line(l->tl, e);
    struct extras x = {d, l};
    if (!(c->command.flags & SBX_TEXT_PRESENT)) {
        sbx_doc_heading(d, "Command");
        sbx_doc_adds(d, SBX_STYLE_NOTE, strcmp(sbx_str(l->tl, e->label), "run_code") == 0
                                            ? "none: run_code sends code, which sandboxio did not capture"
                                            : "none in the log");
        sbx_doc_end_line(d);
        return;
    }
    size_t n;
    struct sbx_buf tmp = SBX_BUF_INIT;
    const char *s = sbx_text_get(l->tl, e, &c->command, &tmp, &n);
    if (c->command.flags & SBX_TEXT_ARGV) {
        sbx_doc_heading(d, "Command, from its argv");
        sbx_doc_adds(d, SBX_STYLE_KIND, "$ ");
        sbx_doc_set_indent(d, 2);
        untrusted_marked(d, l, SBX_STYLE_NORMAL, s, n, false);
        sbx_doc_set_indent(d, 0);
        sbx_doc_end_line(d);
        sbx_sandboxio_code(line, sbx_ev_line_len(e), code_block, &x);
    } else {
        x.l = l;
        code_block(&x, "code", 4, s, n, true);
    }
    sbx_buf_free(&tmp);
}

static void findings_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    if (!e->findings)
        return;
    char mark;
    enum sbx_style style = sbx_finding_look(e->findings, &mark);
    struct sbx_buf words = SBX_BUF_INIT;
    sbx_findings_words(e->findings, &words);
    sbx_doc_field(d, "Findings");
    sbx_doc_add(d, style, words.p, words.len);
    sbx_doc_end_line(d);
    sbx_buf_free(&words);
    const struct sbx_summary *sum = l->sum;
    for (size_t i = 0; sum && i < sum->nrefused; i++) {
        const struct sbx_refusal *r = &sum->refused[i];
        if (r->event != e)
            continue;
        sbx_doc_field(d, "");
        sbx_doc_adds(d, SBX_STYLE_REFUSED, "refused ");
        untrusted(d, l, SBX_STYLE_REFUSED, r->host, strlen(r->host), true);
        sbx_doc_addf(d, SBX_STYLE_DETAIL, " (%s): ", r->pattern ? r->pattern : "");
        untrusted(d, l, SBX_STYLE_DETAIL, r->evidence, strlen(r->evidence), true);
        sbx_doc_end_line(d);
    }
    unsigned long long denied = (unsigned long long)sbx_event_denials(e);
    if (denied) {
        sbx_doc_field(d, "");
        sbx_doc_addf(d, SBX_STYLE_REFUSED, "%llu connection%s refused by the sandbox's network policy",
                     denied, denied == 1 ? "" : "s");
        sbx_doc_adds(d, SBX_STYLE_DETAIL, " (no host named: the log counts them only)");
        sbx_doc_end_line(d);
    }
    /* the risky kinds' reasons: which rule fired, on which words (the
     * list is in timeline order: the event's entries are found by search) */
    size_t lo = 0, hi = sum ? sum->nrisky : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sbx_event_cmp(sum->risky[mid].event, e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; sum && lo < sum->nrisky && sbx_event_cmp(sum->risky[lo].event, e) == 0; lo++) {
        const struct sbx_risky_found *f = &sum->risky[lo];
        if (f->event != e)
            continue;
        char kmark;
        sbx_doc_field(d, "");
        sbx_doc_addf(d, sbx_finding_look(f->kind, &kmark), "%s: ", sbx_finding_of(f->kind)->words);
        untrusted(d, l, SBX_STYLE_DETAIL, f->why, strlen(f->why), true);
        sbx_doc_end_line(d);
    }
    for (size_t i = 0; sum && i < sum->nsecrets; i++) {
        const struct sbx_secret_found *f = &sum->secrets[i];
        if (f->event != e)
            continue;
        sbx_doc_field(d, "");
        sbx_doc_addf(d, SBX_STYLE_SECRET, "%s ", sbx_secret_kind_name(f->kind));
        sbx_doc_untrusted(d, SBX_STYLE_SECRET, f->sample, strlen(f->sample), true);
        sbx_doc_addf(d, SBX_STYLE_DETAIL, " in %s (masked here)", f->where);
        sbx_doc_end_line(d);
    }
}

/* A webhook delivery's signature check; a replay says how far from the
 * event it was signed. */
static void delivery_words(struct sbx_doc *d, const struct sbx_event *e)
{
    char words[64];
    if (e->tflags & SBX_EVT_SIG_OK)
        sbx_doc_adds(d, SBX_STYLE_GOOD, "signature verified");
    else if ((e->tflags & SBX_EVT_SIG_BAD) && sbx_event_signed_off(e))
        sbx_doc_addf(d, SBX_STYLE_SECRET, "REPLAYED: the secret matches, but %s",
                     sbx_webhook_replay_words(sbx_event_signed_off(e), words, sizeof words));
    else if (e->tflags & SBX_EVT_SIG_BAD)
        sbx_doc_adds(d, SBX_STYLE_SECRET, "SIGNATURE FAILED");
    else
        sbx_doc_adds(d, SBX_STYLE_NOTE, "unchecked (no RUNTIME_WEBHOOK_SECRET given)");
}

/* One witness: where it is, and what it adds (a delivery's signature, how
 * far its start is from the row's). */
static void witness_line(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *row,
                         const struct sbx_event *w)
{
    const struct sbx_source *src = &l->tl->sources[w->source];
    const char *path = sbx_display_path(src->path);
    untrusted(d, l, SBX_STYLE_NORMAL, path, strlen(path), true);
    sbx_doc_addf(d, SBX_STYLE_NORMAL, ":%u (%s)", sbx_ev_line_no(w), src->format);
    if (w->tflags & SBX_EVT_WEBHOOK) {
        sbx_doc_adds(d, SBX_STYLE_NORMAL, ": ");
        delivery_words(d, w);
    } else if (row->kind == SBX_EV_COMMAND && w->start != SBX_TIME_UNKNOWN &&
               row->start != SBX_TIME_UNKNOWN) {
        sbx_doc_addf(d, SBX_STYLE_NOTE, ", started %+lld ms from this one",
                     (long long)((w->start - row->start) / 1000000));
    }
    if (w->findings) {
        struct sbx_buf words = SBX_BUF_INIT;
        sbx_findings_words(w->findings, &words);
        char mark;
        sbx_doc_adds(d, SBX_STYLE_NORMAL, "; ");
        sbx_doc_add(d, sbx_finding_look(w->findings, &mark), words.p, words.len);
        sbx_buf_free(&words);
    }
    sbx_doc_end_line(d);
}

/* The other logs' accounts of this event (one row stands for them all), or
 * the row this account is folded into. */
static void witness_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    if (!l->sum)
        return;
    size_t n;
    const struct sbx_witness *w = sbx_witness_seconds(&l->sum->witness, e, &n);
    for (size_t i = 0; i < n; i++) {
        sbx_doc_field(d, i ? "" : "Also seen");
        witness_line(d, l, e, w[i].second);
    }
    const struct sbx_event *first = sbx_witness_first_of(&l->sum->witness, e);
    if (first) {
        sbx_doc_field(d, "Same as");
        witness_line(d, l, e, first);
    }
    if (e->findings & SBX_F_UNWRAPPED) {
        sbx_doc_field(d, "Wrapper");
        sbx_doc_adds(d, SBX_STYLE_OUTSIDE, "RAN OUTSIDE THE WRAPPER: the wrapper's log has no command like it");
        sbx_doc_end_line(d);
    }
}

/* Where the hidden text is, and what tag characters spell (they are ASCII
 * moved to an invisible plane: a way to slip instructions past a reader). */
static void hidden_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    if (e->kind != SBX_EV_COMMAND || !(e->findings & SBX_F_HIDDEN_TEXT))
        return;
    static const char *const names[] = {"command", "stdout", "stderr"};
    const struct sbx_text err = sbx_cmd_err(&e->u.cmd);
    const struct sbx_text *fields[] = {&e->u.cmd.command, &e->u.cmd.out, &err};
    struct sbx_buf tmp = SBX_BUF_INIT, tags = SBX_BUF_INIT;
    for (int i = 0; i < 3; i++) {
        const struct sbx_text *t = fields[i];
        if (!sbx_text_len(t) || !sbx_field_hides(l->tl, e, t, &tmp))
            continue;
        sbx_doc_field(d, "");
        sbx_doc_addf(d, SBX_STYLE_HIDDEN, "hidden text in %s", names[i]);
        sbx_doc_adds(d, SBX_STYLE_DETAIL, " (shown as <U+...>)");
        sbx_doc_end_line(d);
        size_t n;
        const char *s = sbx_text_get(l->tl, e, t, &tmp, &n);
        sbx_buf_clear(&tags);
        if (sbx_tag_text(s, n, &tags)) {
            sbx_doc_field(d, "");
            sbx_doc_addf(d, SBX_STYLE_HIDDEN, "tag characters in %s spell: ", names[i]);
            untrusted(d, l, SBX_STYLE_NORMAL, tags.p, tags.len, true);
            sbx_doc_end_line(d);
        }
    }
    sbx_buf_free(&tmp);
    sbx_buf_free(&tags);
}

static void hash_field(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    sbx_doc_field(d, "Stdout hash");
    switch (sbx_hash_verdict(l->tl, e)) { /* checked once, by the content analysis */
    case SBX_HASH_NONE: sbx_doc_adds(d, SBX_STYLE_NOTE, "not recorded"); break;
    case SBX_HASH_CLIPPED:
        sbx_doc_adds(d, SBX_STYLE_NOTE, "cannot be checked: the recorder clipped stdout");
        break;
    case SBX_HASH_VERIFIED:
        sbx_doc_addf(d, SBX_STYLE_GOOD, "verified (sha256 starts %016llx, as recorded)",
                     (unsigned long long)e->u.cmd.stdout_hash);
        break;
    case SBX_HASH_MISMATCH:
        sbx_doc_addf(d, SBX_STYLE_SECRET,
                     "MISMATCH: the record says sha256 %016llx..., stdout as kept does not hash to it",
                     (unsigned long long)e->u.cmd.stdout_hash);
        break;
    case SBX_HASH_ERROR: sbx_doc_adds(d, SBX_STYLE_WARNING, "could not be computed"); break;
    case SBX_HASH_PENDING: sbx_doc_adds(d, SBX_STYLE_NOTE, "not checked yet"); break;
    }
    sbx_doc_end_line(d);
}

/* The metrics reading nearest the event in its sandbox (within a minute),
 * or NULL: what the sandbox was doing while the command ran. */
static const struct sbx_event *nearest_metric(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    static const int64_t MINUTE = 60LL * 1000000000LL;
    if (e->start == SBX_TIME_UNKNOWN)
        return NULL;
    size_t lo = sbx_timeline_position(tl, e);
    const struct sbx_event *best = NULL;
    int64_t best_d = MINUTE + 1;
    for (int dir = -1; dir <= 1; dir += 2) {
        for (size_t k = 0; k < 4096; k++) {
            size_t i = dir < 0 ? lo - 1 - k : lo + k;
            if ((dir < 0 && k >= lo) || (dir > 0 && i >= tl->n))
                break;
            const struct sbx_event *m = sbx_tl_at(tl, i);
            if (m->start == SBX_TIME_UNKNOWN)
                continue;
            int64_t d = m->start > e->start ? m->start - e->start : e->start - m->start;
            if (d > MINUTE)
                break;
            if (m->kind == SBX_EV_METRIC && m->sandbox == e->sandbox && d < best_d) {
                best = m;
                best_d = d;
            }
        }
    }
    return best;
}

static void load_field(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_event *m = nearest_metric(l->tl, e);
    if (!m)
        return;
    const struct sbx_metric *v = &m->u.metric;
    char clock[16], num[SBX_NUM_BUFSZ];
    sbx_doc_field(d, "Load");
    if (v->cpu_percent >= 0)
        sbx_doc_addf(d, SBX_STYLE_NORMAL, "CPU %s", sbx_percent_text(v->cpu_percent, num));
    if (v->memory_bytes >= 0)
        sbx_doc_addf(d, SBX_STYLE_NORMAL, "%smemory %s", v->cpu_percent >= 0 ? ", " : "",
                     sbx_size_text(v->memory_bytes, num));
    sbx_doc_addf(d, SBX_STYLE_NOTE, " (the reading at %s)", sbx_clock(m->start, l->local, clock));
    if (l->sum && (l->sum->cpu_peak || l->sum->memory_peak)) {
        sbx_doc_adds(d, SBX_STYLE_NOTE, "; the run's peak: ");
        if (l->sum->cpu_peak) {
            const struct sbx_metric *p = &l->sum->cpu_peak->u.metric;
            sbx_doc_addf(d, SBX_STYLE_NOTE, "CPU %s",
                         sbx_percent_text(p->cpu_peak_percent >= 0 ? p->cpu_peak_percent : p->cpu_percent, num));
        }
        if (l->sum->memory_peak) {
            const struct sbx_metric *p = &l->sum->memory_peak->u.metric;
            sbx_doc_addf(d, SBX_STYLE_NOTE, "%smemory %s", l->sum->cpu_peak ? ", " : "",
                         sbx_size_text(p->memory_peak_bytes >= 0 ? p->memory_peak_bytes : p->memory_bytes, num));
        }
    }
    sbx_doc_end_line(d);
}

static void command_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_command *c = &e->u.cmd;
    sbx_doc_field(d, "Exit");
    if (c->flags & SBX_CMD_TIMED_OUT)
        sbx_doc_adds(d, SBX_STYLE_TIMEDOUT, "timed out");
    else if (c->flags & SBX_CMD_EXIT_KNOWN)
        sbx_doc_addf(d, sbx_cmd_exit(c) ? SBX_STYLE_FAILED : SBX_STYLE_GOOD, "%d", (int)sbx_cmd_exit(c));
    else
        sbx_doc_adds(d, SBX_STYLE_WARNING, "unknown");
    if (c->flags & SBX_CMD_MS_KNOWN) {
        char dur[SBX_NUM_BUFSZ];
        sbx_doc_addf(d, SBX_STYLE_NORMAL, " after %s",
                     sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(c)), SBX_DUR_WORDS, dur));
    }
    sbx_doc_end_line(d);
    const char *cwd = sbx_str(l->tl, c->cwd), *prog = sbx_str(l->tl, c->program);
    if (cwd[0]) {
        sbx_doc_field(d, "Directory");
        untrusted(d, l, SBX_STYLE_NORMAL, cwd, strlen(cwd), true);
        sbx_doc_end_line(d);
    }
    sbx_doc_field(d, "Program");
    untrusted(d, l, SBX_STYLE_NORMAL, prog[0] ? prog : "?", prog[0] ? strlen(prog) : 1, true);
    sbx_doc_end_line(d);
    if (!from_sandboxio(l, e)) /* sandboxio keeps no output to hash */
        hash_field(d, l, e);
    load_field(d, l, e);
    if (l->sum && l->sum->cross.records) {
        const struct sbx_event *r = sbx_crosscheck_record_of(&l->sum->cross, e);
        sbx_doc_field(d, "Record");
        if (r) {
            sbx_doc_addf(d, SBX_STYLE_GOOD, "matched: %s", sbx_str(l->tl, r->u.cmd.program));
            if (r->u.cmd.flags & SBX_CMD_EXIT_KNOWN)
                sbx_doc_addf(d, SBX_STYLE_NORMAL, ", exit %d", (int)sbx_cmd_exit(&r->u.cmd));
            char dur[SBX_NUM_BUFSZ];
            sbx_doc_addf(d, SBX_STYLE_NORMAL, ", %s, started %+lld ms from the wrapper's start%s",
                         sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(&r->u.cmd)), SBX_DUR_WORDS, dur),
                         (long long)sbx_ns_to_ms(r->start - e->start),
                         l->tl->sources[r->source].clock != SBX_CLOCK_OWN ? " once the skew is off" : "");
            if (r->label) {
                sbx_doc_adds(d, SBX_STYLE_NORMAL, ", by ");
                untrusted(d, l, SBX_STYLE_NORMAL, sbx_str(l->tl, r->label), strlen(sbx_str(l->tl, r->label)), true);
            }
            sbx_doc_addf(d, SBX_STYLE_NOTE, " (%s:%u)", sbx_display_path(l->tl->sources[r->source].path),
                         sbx_ev_line_no(r));
        } else if (e->findings & SBX_F_EXIT_MISMATCH) {
            sbx_doc_adds(d, SBX_STYLE_OUTSIDE, "Runtime's record saw another exit code");
        } else if (e->findings & SBX_F_MISSING_FROM_RECORD) {
            sbx_doc_adds(d, SBX_STYLE_OUTSIDE, "MISSING: no record of it, within the record's span");
        } else if (listed(l->sum->cross.unmatched_commands, l->sum->cross.nunmatched_commands, e)) {
            sbx_doc_adds(d, SBX_STYLE_WARNING, "not matched; not concluded missing: the skew is uncertain");
        } else {
            sbx_doc_adds(d, SBX_STYLE_NOTE, "not checked (before the record's span, or no record for this sandbox)");
        }
        sbx_doc_end_line(d);
    }
}

static void record_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_command *c = &e->u.cmd;
    sbx_doc_field(d, "Program");
    untrusted(d, l, SBX_STYLE_NORMAL, sbx_str(l->tl, c->program), strlen(sbx_str(l->tl, c->program)), true);
    sbx_doc_end_line(d);
    sbx_doc_field(d, "State");
    if (c->flags & SBX_CMD_RUNNING)
        sbx_doc_adds(d, SBX_STYLE_WARNING, "running");
    else if (c->flags & SBX_CMD_UNREAD)
        sbx_doc_adds(d, SBX_STYLE_WARNING, "unread (started in the background, exit never read)");
    else if (c->flags & SBX_CMD_EXIT_KNOWN)
        sbx_doc_addf(d, sbx_cmd_exit(c) ? SBX_STYLE_FAILED : SBX_STYLE_GOOD, "exited %d after %lld ms",
                     (int)sbx_cmd_exit(c), (long long)sbx_cmd_ms(c));
    sbx_doc_end_line(d);
    if (e->label) {
        sbx_doc_field(d, "Actor");
        untrusted(d, l, SBX_STYLE_NORMAL, sbx_str(l->tl, e->label), strlen(sbx_str(l->tl, e->label)), true);
        sbx_doc_end_line(d);
    }
    sbx_doc_field(d, "Wrapper");
    const struct sbx_gap *gap = NULL;
    for (size_t i = 0; l->sum && i < l->sum->ngaps && !gap; i++)
        if (l->sum->gaps[i].record == e)
            gap = &l->sum->gaps[i];
    if (gap) {
        const char *src = sbx_display_path(l->tl->sources[gap->before->source].path);
        sbx_doc_addf(d, SBX_STYLE_OUTSIDE, "POSSIBLY REMOVED FROM THE LOG: no wrapper command is this one, and it fits "
                     "the gap between line %u and %u of ", sbx_ev_line_no(gap->before), sbx_ev_line_no(gap->after));
        untrusted(d, l, SBX_STYLE_OUTSIDE, src, strlen(src), true);
        sbx_doc_adds(d, SBX_STYLE_OUTSIDE, " (the commands there ended before it and started after it)");
    } else if (e->findings & SBX_F_OUTSIDE_WRAPPER) {
        sbx_doc_adds(d, SBX_STYLE_OUTSIDE, "RAN OUTSIDE THE WRAPPER: no command in the wrapper's log is this one");
    } else {
        const struct sbx_event *w = NULL;
        for (size_t i = 0; l->sum && i < l->sum->cross.npairs && !w; i++)
            if (l->sum->cross.pairs[i].record == e)
                w = l->sum->cross.pairs[i].wrapper;
        if (w)
            sbx_doc_addf(d, SBX_STYLE_GOOD, "matched (%s:%u)", sbx_display_path(l->tl->sources[w->source].path), sbx_ev_line_no(w));
        else if (l->sum && listed(l->sum->cross.unmatched_records, l->sum->cross.nunmatched_records, e))
            sbx_doc_adds(d, SBX_STYLE_WARNING, "not matched; not concluded outside the wrapper: the skew is uncertain");
        else
            sbx_doc_adds(d, SBX_STYLE_NOTE, "not cross-checked");
    }
    sbx_doc_end_line(d);
}

static void audit_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_audit *a = e->u.audit;
    static const char *const names[] = {"Actor", "Actor kind", "Target", "Via"};
    const uint32_t ids[] = {a->actor, a->actor_kind, a->target, a->via};
    for (int i = 0; i < 4; i++) {
        if (!ids[i])
            continue;
        sbx_doc_field(d, names[i]);
        untrusted(d, l, SBX_STYLE_NORMAL, sbx_str(l->tl, ids[i]), strlen(sbx_str(l->tl, ids[i])), true);
        sbx_doc_end_line(d);
    }
    sbx_doc_field(d, "From");
    if (a->inside) {
        sbx_doc_adds(d, SBX_STYLE_OUTSIDE, "INSIDE sandbox ");
        untrusted(d, l, SBX_STYLE_OUTSIDE, sbx_str(l->tl, a->inside), strlen(sbx_str(l->tl, a->inside)), true);
    } else {
        sbx_doc_adds(d, SBX_STYLE_NORMAL, "outside any sandbox");
    }
    sbx_doc_end_line(d);
    static const char *const more[] = {"Key", "Person", "IP", "Request"};
    const uint32_t more_ids[] = {a->actor_id, a->person, a->ip, a->request};
    for (int i = 0; i < 4; i++) {
        if (!more_ids[i])
            continue;
        sbx_doc_field(d, more[i]);
        untrusted(d, l, SBX_STYLE_NORMAL, sbx_str(l->tl, more_ids[i]), strlen(sbx_str(l->tl, more_ids[i])), true);
        sbx_doc_end_line(d);
    }
    struct sbx_buf w = SBX_BUF_INIT;
    sbx_audit_change_words(l->tl, e, &w);
    sbx_doc_field(d, "Change");
    untrusted(d, l, e->findings & SBX_F_ACCOUNT_CHANGE ? SBX_STYLE_ACCOUNT : SBX_STYLE_NORMAL, w.p, w.len,
              false);
    sbx_doc_end_line(d);
    sbx_buf_free(&w);
}

/* A command as the During fields name it: "$ LINE (started T, source:line)". */
static void command_ref(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *c)
{
    size_t len;
    sbx_doc_adds(d, SBX_STYLE_KIND, "$ ");
    struct sbx_buf tmp = SBX_BUF_INIT;
    const char *s = c->u.cmd.flags & SBX_CMD_RECORD ? sbx_str(l->tl, c->u.cmd.program)
                                                    : sbx_text_get(l->tl, c, &c->u.cmd.command, &tmp, &len);
    if (c->u.cmd.flags & SBX_CMD_RECORD)
        len = strlen(s);
    untrusted(d, l, SBX_STYLE_NORMAL, s, len, true);
    sbx_buf_free(&tmp);
    char clock[16];
    const char *src = sbx_display_path(l->tl->sources[c->source].path);
    sbx_doc_addf(d, SBX_STYLE_NOTE, " (started %s, ", sbx_clock(c->start, l->local, clock));
    untrusted(d, l, SBX_STYLE_NOTE, src, strlen(src), true);
    sbx_doc_addf(d, SBX_STYLE_NOTE, ":%u)", sbx_ev_line_no(c));
}

/* The wrapper commands running in e's sandbox when e (an event that did
 * not come from the wrapper) happened, outermost first, and the one that
 * ended just before (render/during.h). */
static void during_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_during *w,
                          const struct sbx_event *e)
{
    for (size_t i = 0; i < w->nrunning; i++) {
        sbx_doc_field(d, i ? "Within it" : "During");
        command_ref(d, l, w->running[i]);
        sbx_doc_end_line(d);
    }
    if (w->total > w->nrunning) {
        sbx_doc_field(d, "");
        sbx_doc_addf(d, SBX_STYLE_NOTE, "and %zu more running then", w->total - w->nrunning);
        sbx_doc_end_line(d);
    }
    if (!w->total) {
        sbx_doc_field(d, "During");
        sbx_doc_adds(d, SBX_STYLE_NOTE, sbx_str(l->tl, e->sandbox)[0] || sbx_only_sandbox(l->tl)
                                            ? "no command of its sandbox was running"
                                            : "unknown: the line names no sandbox and the run has several");
        sbx_doc_end_line(d);
    }
    if (w->ended) {
        sbx_doc_field(d, "Ended before");
        command_ref(d, l, w->ended);
        sbx_doc_end_line(d);
    }
}

/* The story's links of e (analyses/chain.h), numbered; the selected one
 * (the app's link cursor) marked, for L to follow. */
static void link_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_story_item *it = l->sum ? sbx_story_item_of(&l->sum->story, e) : NULL;
    if (!it || !it->nlinks)
        return;
    sbx_doc_heading(d, "Links ({ } select, L follows, Backspace comes back)");
    for (size_t k = 0; k < it->nlinks; k++) {
        const struct sbx_story_link *ln = &it->links[k];
        sbx_doc_adds(d, SBX_STYLE_KIND, k == l->link ? "> " : "  ");
        sbx_doc_set_indent(d, 4);
        sbx_doc_adds(d, SBX_STYLE_LABEL, sbx_link_words(ln->kind));
        sbx_doc_adds(d, SBX_STYLE_NORMAL, ": ");
        untrusted(d, l, SBX_STYLE_NORMAL, ln->evidence, strlen(ln->evidence), false);
        sbx_doc_set_indent(d, 0);
        sbx_doc_end_line(d);
    }
    if (it->more) {
        sbx_doc_addf(d, SBX_STYLE_NOTE, "  and %zu more", it->more);
        sbx_doc_end_line(d);
    }
}

/* A proxy request: what was asked, what came of it, and the command that
 * was running in its sandbox at that moment. */
static void network_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_network *n = &e->u.net;
    const char *host = sbx_str(l->tl, n->host);
    sbx_doc_field(d, "Host");
    untrusted(d, l, n->flags & SBX_NET_DENIED ? SBX_STYLE_REFUSED : SBX_STYLE_NORMAL, host[0] ? host : "?",
              host[0] ? strlen(host) : 1, true);
    sbx_doc_end_line(d);
    sbx_doc_field(d, "Request");
    const char *method = sbx_str(l->tl, n->method);
    untrusted(d, l, SBX_STYLE_NORMAL, method, strlen(method), true);
    struct sbx_buf url = SBX_BUF_INIT;
    size_t len;
    const char *u = sbx_text_get(l->tl, e, &n->url, &url, &len);
    sbx_doc_adds(d, SBX_STYLE_NORMAL, " ");
    untrusted(d, l, SBX_STYLE_NORMAL, u, len, true);
    sbx_buf_free(&url);
    sbx_doc_end_line(d);
    sbx_doc_field(d, "Outcome");
    if (n->flags & SBX_NET_DENIED)
        sbx_doc_adds(d, SBX_STYLE_REFUSED, "DENIED by the proxy's rules");
    else if (n->flags & SBX_NET_UNREACHED)
        sbx_doc_adds(d, SBX_STYLE_WARNING, "the proxy could not reach the host");
    else
        sbx_doc_adds(d, SBX_STYLE_GOOD, "allowed");
    const char *result = sbx_str(l->tl, n->result);
    if (result[0] || n->status >= 0) {
        sbx_doc_adds(d, SBX_STYLE_NOTE, " (");
        untrusted(d, l, SBX_STYLE_NOTE, result, strlen(result), true);
        if (n->status >= 0)
            sbx_doc_addf(d, SBX_STYLE_NOTE, "%s%d", result[0] ? "/" : "", (int)n->status);
        sbx_doc_adds(d, SBX_STYLE_NOTE, ")");
    }
    sbx_doc_end_line(d);
    if (n->bytes_in >= 0 || n->bytes_out >= 0) {
        sbx_doc_field(d, "Bytes");
        if (n->bytes_in >= 0)
            sbx_doc_addf(d, SBX_STYLE_NORMAL, "%lld to the client", (long long)n->bytes_in);
        if (n->bytes_out >= 0)
            sbx_doc_addf(d, SBX_STYLE_NORMAL, "%s%lld from it", n->bytes_in >= 0 ? ", " : "",
                         (long long)n->bytes_out);
        sbx_doc_end_line(d);
    }
    const char *client = sbx_str(l->tl, n->client);
    if (client[0]) {
        sbx_doc_field(d, "Client");
        untrusted(d, l, SBX_STYLE_NORMAL, client, strlen(client), true);
        sbx_doc_end_line(d);
    }
}

static void source_field(struct sbx_doc *d, struct sbx_rows_look *l, const char *name, uint32_t source)
{
    if (source >= l->tl->nsources)
        return;
    const char *p = sbx_display_path(l->tl->sources[source].path);
    sbx_doc_field(d, name);
    untrusted(d, l, SBX_STYLE_NORMAL, p, strlen(p), true);
    sbx_doc_end_line(d);
}

enum { DIFF_LINES_PER_FILE = 400, DIFF_LINES_MAX = 4000 };

/* A file's hunks from the loaded diff, added and removed lines coloured.
 * Returns the lines shown. */
static size_t diff_block(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_diff_file *f,
                         size_t budget)
{
    const char *src = sbx_display_path(l->tl->sources[f->source].path);
    struct sbx_buf what = SBX_BUF_INIT;
    sbx_buf_adds(&what, "Diff of ");
    sbx_buf_adds(&what, f->path);
    if (f->binary)
        sbx_buf_adds(&what, " (binary)");
    else
        sbx_buf_addf(&what, " (+%u -%u)", f->added_lines, f->removed_lines);
    sbx_doc_set_indent(d, 0);
    sbx_doc_end_line(d);
    untrusted(d, l, SBX_STYLE_HEADING, what.p, what.len, true);
    sbx_doc_adds(d, SBX_STYLE_NOTE, " from ");
    untrusted(d, l, SBX_STYLE_NOTE, src, strlen(src), true);
    sbx_doc_addf(d, SBX_STYLE_NOTE, ":%u", f->line_no);
    sbx_doc_end_line(d);
    sbx_buf_free(&what);
    if (f->renamed || f->old_path) {
        sbx_doc_adds(d, SBX_STYLE_NOTE, f->renamed ? "renamed from " : "copied from ");
        untrusted(d, l, SBX_STYLE_NOTE, f->old_path, strlen(f->old_path), true);
        sbx_doc_end_line(d);
    }
    struct sbx_diff_iter it;
    struct sbx_diff_line dl;
    size_t shown = 0, more = 0;
    sbx_diff_iter_init(&it, l->tl, f);
    while (sbx_diff_next(&it, &dl)) {
        enum sbx_style st;
        switch (dl.kind) {
        case SBX_DIFF_HEADER: continue; /* the heading names the file */
        case SBX_DIFF_HUNK: st = SBX_STYLE_DIFF_HUNK; break;
        case SBX_DIFF_ADD: st = SBX_STYLE_DIFF_ADD; break;
        case SBX_DIFF_DEL: st = SBX_STYLE_DIFF_DEL; break;
        case SBX_DIFF_CONTEXT: st = SBX_STYLE_NORMAL; break;
        case SBX_DIFF_OTHER: st = SBX_STYLE_WARNING; break;
        default: st = SBX_STYLE_NOTE; break;
        }
        if (shown >= budget || shown >= DIFF_LINES_PER_FILE) {
            more++;
            continue;
        }
        untrusted(d, l, st, dl.text, dl.len, true);
        sbx_doc_end_line(d);
        shown++;
    }
    if (more) {
        sbx_doc_addf(d, SBX_STYLE_NOTE, "... %zu more lines (", more);
        untrusted(d, l, SBX_STYLE_NOTE, src, strlen(src), true);
        sbx_doc_addf(d, SBX_STYLE_NOTE, ":%u)", f->line_no);
        sbx_doc_end_line(d);
    }
    return shown;
}

static void files_fields(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    static const char *const verbs[SBX_CHANGE_COUNT] = {"Added", "Changed", "Removed"};
    const struct sbx_files *f = e->u.files;
    if (f && (f->flags & SBX_FILES_OPERATION)) {
        sbx_doc_field(d, "Paths");
        sbx_doc_adds(d, SBX_STYLE_NOTE, "none named (the log says which operation, not on which file)");
        sbx_doc_end_line(d);
        return;
    }
    const char *root = f && f->root ? sbx_str(l->tl, f->root) : "";
    sbx_doc_field(d, "Root");
    untrusted(d, l, SBX_STYLE_NORMAL, root[0] ? root : "the workspace", root[0] ? strlen(root) : 13, true);
    sbx_doc_end_line(d);
    if (f && (f->flags & SBX_FILES_MANIFESTS)) {
        source_field(d, l, "Before", sbx_files_more(f)->before);
        source_field(d, l, "After", sbx_files_more(f)->after);
    } else if (f && (f->flags & SBX_FILES_DIFF)) {
        source_field(d, l, "From diff", sbx_files_more(f)->after);
    }
    for (int c = 0; f && c < SBX_CHANGE_COUNT; c++) {
        char what[64];
        snprintf(what, sizeof what, "%s: %u", verbs[c], f->n[c]);
        sbx_doc_heading(d, what);
        for (uint32_t i = 0; i < f->n[c]; i++) {
            const char *path = sbx_files_path(l->tl, f, (enum sbx_change)c, i);
            untrusted(d, l, e->findings & SBX_F_SYSTEM_FILES ? SBX_STYLE_SYSTEM : SBX_STYLE_NORMAL,
                      path, strlen(path), true);
            sbx_doc_end_line(d);
        }
    }
    size_t shown = 0;
    for (int c = 0; f && l->tl->ndiffs && c < SBX_CHANGE_COUNT; c++)
        for (uint32_t i = 0; i < f->n[c]; i++) {
            const struct sbx_diff_file *df = sbx_diff_find(l->tl, sbx_files_path(l->tl, f, (enum sbx_change)c, i));
            if (df)
                shown += diff_block(d, l, df, shown < DIFF_LINES_MAX ? DIFF_LINES_MAX - shown : 0);
        }
}

void sbx_detail_doc(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e,
                    bool raw)
{
    const struct sbx_source *src = &l->tl->sources[e->source];
    const char *line = sbx_event_line(l->tl, e);
    sbx_doc_field(d, "Source");
    untrusted(d, l, SBX_STYLE_NORMAL, sbx_display_path(src->path), strlen(sbx_display_path(src->path)), true);
    sbx_doc_addf(d, SBX_STYLE_NORMAL, ":%u (%s, %u bytes)", sbx_ev_line_no(e), src->format, sbx_ev_line_len(e));
    sbx_doc_end_line(d);
    char id[SBX_EVID_LEN];
    sbx_event_id(l->tl, e, id);
    sbx_doc_field(d, "Id");
    sbx_doc_adds(d, SBX_STYLE_NORMAL, id);
    sbx_doc_end_line(d);
    if (raw) {
        sbx_doc_heading(d, "The line as recorded (sanitised; o: back to the fields)");
        untrusted(d, l, SBX_STYLE_NORMAL, line, sbx_ev_line_len(e), false);
        sbx_doc_end_line(d);
        return;
    }
    sbx_detail_review(d, l, e); /* what reviewers wrote of it, first */
    sbx_doc_field(d, "Kind");
    sbx_doc_adds(d, SBX_STYLE_KIND, sbx_kind_name((enum sbx_kind)e->kind));
    const char *label = sbx_str(l->tl, e->label);
    bool operation = e->kind == SBX_EV_FILES && e->u.files && (e->u.files->flags & SBX_FILES_OPERATION);
    if (label[0] && (e->kind != SBX_EV_FILES || operation)) {
        sbx_doc_adds(d, SBX_STYLE_NORMAL, " ");
        untrusted(d, l, SBX_STYLE_NORMAL, label, strlen(label), true);
    }
    sbx_doc_end_line(d);
    time_field(d, l, "Started", e->start, e);
    time_field(d, l, "Ended", e->end, e);
    clock_field(d, l, e);
    const char *sb = sbx_str(l->tl, e->sandbox);
    sbx_doc_field(d, "Sandbox");
    if (!sb[0] && e->kind == SBX_EV_NETWORK) /* a proxy's line names its client, not a sandbox */
        sbx_doc_adds(d, SBX_STYLE_NOTE, "not named (a proxy's log does not say)");
    else
        untrusted(d, l, SBX_STYLE_NORMAL, sb[0] ? sb : "?", sb[0] ? strlen(sb) : 1, true);
    sbx_doc_end_line(d);
    if (from_sandboxio(l, e))
        sandboxio_fields(d, l, e);
    if (e->kind == SBX_EV_COMMAND && (e->u.cmd.flags & SBX_CMD_RECORD))
        record_fields(d, l, e);
    else if (e->kind == SBX_EV_COMMAND)
        command_fields(d, l, e);
    else if (e->kind == SBX_EV_AUDIT)
        audit_fields(d, l, e);
    else if (e->kind == SBX_EV_NETWORK)
        network_fields(d, l, e);
    if (e->tflags & SBX_EVT_WEBHOOK) {
        sbx_doc_field(d, "Webhook");
        delivery_words(d, e);
        sbx_doc_end_line(d);
    }
    struct sbx_during during;
    if (sbx_during_of(l->tl, l->sum, e, &during))
        during_fields(d, l, &during, e);
    findings_fields(d, l, e);
    link_fields(d, l, e);
    witness_fields(d, l, e);
    hidden_fields(d, l, e);
    if (e->findings & SBX_F_BAD_FIELD) {
        sbx_doc_field(d, "");
        sbx_doc_adds(d, SBX_STYLE_WARNING, "a field had the wrong type or range and shows as ? (o: the line)");
        sbx_doc_end_line(d);
    }
    sbx_span_detail(d, l, e);
    if (e->kind == SBX_EV_COMMAND && !(e->u.cmd.flags & SBX_CMD_RECORD)) {
        const struct sbx_command *c = &e->u.cmd;
        if (from_sandboxio(l, e)) {
            sandboxio_command(d, l, e);
            return; /* sandboxio keeps no output */
        }
        sbx_doc_heading(d, "Command, as written");
        size_t n;
        struct sbx_buf tmp = SBX_BUF_INIT;
        const char *s = sbx_text_get(l->tl, e, &c->command, &tmp, &n);
        sbx_doc_adds(d, SBX_STYLE_KIND, "$ ");
        sbx_doc_set_indent(d, 2);
        untrusted(d, l, SBX_STYLE_NORMAL, s, n, false);
        sbx_doc_set_indent(d, 0);
        sbx_doc_end_line(d);
        sbx_buf_free(&tmp);
        output_block(d, l, e, &c->out, "stdout", SBX_STYLE_NORMAL);
        const struct sbx_text err = sbx_cmd_err(c);
        output_block(d, l, e, &err, "stderr", SBX_STYLE_STDERR);
    } else if (e->kind == SBX_EV_FILES) {
        files_fields(d, l, e);
    } else {
        /* a proxy's line is text, not JSON: call it what it is */
        sbx_doc_heading(d, sbx_ev_line_len(e) && line[0] != '{' && line[0] != '['
                               ? "The line as logged (o: the line alone)"
                               : "The record (o: as raw JSON)");
        untrusted(d, l, SBX_STYLE_NORMAL, line, sbx_ev_line_len(e), false);
        sbx_doc_end_line(d);
    }
}
