/* sbxview check: the findings of a run, one per line with their evidence,
 * for CI and scripts. Exit 0 clean, 1 findings, 2 could not check. */
#include <getopt.h>
#include <stdarg.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/load.h"
#include "model/secrets.h"
#include "model/summary.h"
#include "model/timefmt.h"
#include "render/jsonw.h"
#include "render/sanitize.h"
#include "tui/cli.h"
#include "tui/cli_util.h"

/* The kinds, heaviest first; --allow names them. */
#define CHECK_KINDS(X)                                                                   \
    X(ACCOUNT, "account-change", "an account change made from inside a sandbox")         \
    X(OUTSIDE, "outside-wrapper", "a command in Runtime's record the wrapper never ran") \
    X(MISSING, "missing-from-record", "a wrapper command Runtime's record lacks")         \
    X(EXIT, "exit-mismatch", "the record and the wrapper saw other exit codes")          \
    X(REFUSED, "refused-host", "a host the sandbox was refused")                         \
    X(UNLISTED, "unlisted-host", "a host reached or tried that --allow-list lacks")      \
    X(SECRET, "secret", "a credential-shaped string in a command or its output")         \
    X(SIGNATURE, "bad-signature", "a webhook delivery whose signature failed")           \
    X(HASH, "hash-mismatch", "stdout that does not hash to what the recorder took")      \
    X(SYSTEM, "system-file-change", "a change under a system folder such as /etc")       \
    X(HIDDEN, "hidden-text", "invisible or bidi characters in a command or its output")

enum kind {
#define KIND_ENUM(e, name, help) K_##e,
    CHECK_KINDS(KIND_ENUM)
#undef KIND_ENUM
    K_COUNT
};

static const char *const kind_names[K_COUNT] = {
#define KIND_NAME(e, name, help) name,
    CHECK_KINDS(KIND_NAME)
#undef KIND_NAME
};

struct finding {
    enum kind kind;
    const struct sbx_event *event;
    char *evidence; /* owned, unsanitised (sanitised or escaped when printed) */
};

struct report {
    const struct sbx_timeline *tl;
    const struct sbx_summary *sum;
    struct sbx_secrets_scratch *scratch;
    struct finding *f;
    size_t n, cap;
    bool allowed[K_COUNT];
};

static void add(struct report *r, enum kind k, const struct sbx_event *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(struct report *r, enum kind k, const struct sbx_event *e, const char *fmt, ...)
{
    if (r->allowed[k])
        return;
    struct sbx_buf b = SBX_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    char small[1024];
    vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    /* whatever the evidence quotes is redacted: a check's output lands in CI logs */
    sbx_secrets_redact(r->sum->patterns, r->scratch, small, strlen(small), &b);
    SBX_GROW(r->f, r->n, r->cap);
    r->f[r->n++] = (struct finding){k, e, b.p ? b.p : sbx_xstrndup("", 0)};
}

static const char *str(const struct report *r, uint32_t id)
{
    return sbx_str(r->tl, id);
}

static void command_line(const struct report *r, const struct sbx_event *e, char *out, size_t n)
{
    struct sbx_buf tmp = SBX_BUF_INIT;
    size_t len;
    const char *s = sbx_text_get(r->tl, e, &e->u.cmd.command, &tmp, &len);
    snprintf(out, n, "%.*s", (int)(len > 300 ? 300 : len), s);
    sbx_buf_free(&tmp);
}

static void collect(struct report *r)
{
    const struct sbx_summary *s = r->sum;
    const struct sbx_crosscheck *x = &s->cross;
    char cmd[320];
    for (size_t i = 0; i < s->naccount; i++) {
        const struct sbx_event *e = s->account[i];
        if (e->u.audit.inside)
            add(r, K_ACCOUNT, e, "%s by %s on %s, made from inside sandbox %s",
                str(r, e->label), str(r, e->u.audit.actor), str(r, e->u.audit.target),
                str(r, e->u.audit.inside));
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
            snprintf(how, sizeof how, "exit %d", (int)c->exit);
        if (c->flags & SBX_CMD_MS_KNOWN)
            snprintf(how + strlen(how), sizeof how - strlen(how), ", %lld ms", (long long)c->ms);
        add(r, K_OUTSIDE, e, "%s (%s) is in Runtime's record but not in the wrapper's log",
            str(r, c->program), how);
    }
    for (size_t i = 0; i < x->nmissing; i++) {
        command_line(r, x->missing[i], cmd, sizeof cmd);
        add(r, K_MISSING, x->missing[i], "$ %s: not in Runtime's record, within its span", cmd);
    }
    for (size_t i = 0; i < x->nexit_mismatch; i++) {
        const struct sbx_pair *p = &x->exit_mismatch[i];
        command_line(r, p->wrapper, cmd, sizeof cmd);
        add(r, K_EXIT, p->wrapper, "$ %s: the wrapper saw exit %d, Runtime's record %d", cmd,
            (int)p->wrapper->u.cmd.exit, (int)p->record->u.cmd.exit);
    }
    for (size_t i = 0; i < s->nrefused; i++) {
        const struct sbx_refusal *f = &s->refused[i];
        if (f->event->kind != SBX_EV_COMMAND) { /* the proxy's denial: the request is the evidence */
            add(r, K_REFUSED, f->event, "%s (%zu time%s): %s", f->host, f->count,
                f->count == 1 ? "" : "s", f->evidence);
            continue;
        }
        command_line(r, f->event, cmd, sizeof cmd);
        add(r, K_REFUSED, f->event, "%s (%zu time%s): %s; $ %s", f->host, f->count,
            f->count == 1 ? "" : "s", f->evidence, cmd);
    }
    for (size_t i = 0; i < s->nunlisted; i++) {
        const struct sbx_unlisted *u = &s->unlisted[i];
        add(r, K_UNLISTED, u->first, "%s (%zu event%s) is not on the allow list", u->host, u->events,
            u->events == 1 ? "" : "s");
    }
    for (size_t i = 0; i < s->nsecrets; i++) {
        const struct sbx_secret_found *f = &s->secrets[i];
        add(r, K_SECRET, f->event, "%s %s in %s", sbx_secret_kind_name(f->kind), f->sample, f->where);
    }
    for (size_t i = 0; i < r->tl->n; i++) {
        const struct sbx_event *e = r->tl->order[i];
        if (e->findings & SBX_F_BAD_SIGNATURE)
            add(r, K_SIGNATURE, e, "%s: the Runtime-Signature does not verify with any secret given",
                str(r, e->label));
        if (e->findings & SBX_F_HASH_MISMATCH) {
            command_line(r, e, cmd, sizeof cmd);
            add(r, K_HASH, e, "$ %s: stdout does not hash to the recorded %016llx", cmd,
                (unsigned long long)e->u.cmd.stdout_hash);
        }
        if ((e->findings & SBX_F_SYSTEM_FILES) && e->kind == SBX_EV_FILES) {
            const struct sbx_files *f = e->u.files;
            for (int c = 0; c < SBX_CHANGE_COUNT; c++)
                for (uint32_t k = 0; f && k < f->n[c]; k++)
                    add(r, K_SYSTEM, e, "%s %s",
                        c == SBX_ADDED ? "added" : c == SBX_CHANGED ? "changed" : "removed",
                        f->paths[c][k]);
        }
        if (e->findings & SBX_F_HIDDEN_TEXT) {
            command_line(r, e, cmd, sizeof cmd);
            add(r, K_HIDDEN, e, "$ %s", cmd);
        }
    }
}

static int by_kind_then_time(const void *a, const void *b)
{
    const struct finding *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return sbx_event_cmp(x->event, y->event);
}

static void print_text(const struct report *r, bool ascii)
{
    for (size_t i = 0; i < r->n; i++) {
        const struct finding *f = &r->f[i];
        const struct sbx_event *e = f->event;
        char t[SBX_TIME_BUFSZ];
        struct sbx_buf line = SBX_BUF_INIT, safe = SBX_BUF_INIT;
        sbx_buf_addf(&line, "%-19s %s %s %s (%s:%u)", kind_names[f->kind],
                     sbx_time_format(e->start, t), e->sandbox ? str(r, e->sandbox) : "-",
                     f->evidence, r->tl->sources[e->source].path, e->line_no);
        sbx_sanitize(&safe, line.p, line.len, SBX_SAN_ONE_LINE | (ascii ? SBX_SAN_ASCII : 0), 0);
        printf("%s\n", safe.p ? safe.p : "");
        sbx_buf_free(&line);
        sbx_buf_free(&safe);
    }
}

static void print_json(const struct report *r, const char *const *missing, size_t nmissing)
{
    struct sbx_buf out = SBX_BUF_INIT;
    struct sbx_jsonw w;
    sbx_jw_init(&w, &out, true);
    sbx_jw_object(&w);
    sbx_jw_key(&w, "schema");
    sbx_jw_int(&w, 1);
    sbx_jw_key(&w, "missing_sources");
    sbx_jw_array(&w);
    for (size_t i = 0; i < nmissing; i++)
        sbx_jw_cstr(&w, missing[i]);
    sbx_jw_end_array(&w);
    sbx_jw_key(&w, "findings");
    sbx_jw_array(&w);
    for (size_t i = 0; i < r->n; i++) {
        const struct finding *f = &r->f[i];
        char t[SBX_TIME_BUFSZ];
        sbx_jw_object(&w);
        sbx_jw_key(&w, "kind");
        sbx_jw_cstr(&w, kind_names[f->kind]);
        sbx_jw_key(&w, "at");
        if (f->event->start == SBX_TIME_UNKNOWN)
            sbx_jw_null(&w);
        else
            sbx_jw_cstr(&w, sbx_time_format(f->event->start, t));
        sbx_jw_key(&w, "sandbox");
        sbx_jw_cstr(&w, f->event->sandbox ? str(r, f->event->sandbox) : NULL);
        sbx_jw_key(&w, "evidence");
        sbx_jw_cstr(&w, f->evidence);
        sbx_jw_key(&w, "source");
        sbx_jw_cstr(&w, r->tl->sources[f->event->source].path);
        sbx_jw_key(&w, "line");
        sbx_jw_int(&w, f->event->line_no);
        sbx_jw_end_object(&w);
    }
    sbx_jw_end_array(&w);
    sbx_jw_end_object(&w);
    sbx_buf_addc(&out, '\n');
    fwrite(out.p, 1, out.len, stdout);
    sbx_buf_free(&out);
}

static bool allow(struct report *r, char *list)
{
    for (char *save = NULL, *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        bool known = false;
        for (int i = 0; i < K_COUNT; i++)
            if (strcmp(k, kind_names[i]) == 0)
                r->allowed[i] = known = true;
        if (!known) {
            struct sbx_buf b = SBX_BUF_INIT;
            sbx_buf_addf(&b, "--allow: no finding kind called %s", k);
            sbx_warn(b.p);
            sbx_buf_free(&b);
            return false;
        }
    }
    return true;
}

static bool has_format(const struct sbx_timeline *tl, const char *name)
{
    for (size_t i = 0; i < tl->nsources; i++)
        if (strcmp(tl->sources[i].format, name) == 0)
            return true;
    return false;
}

static bool has_record(const struct sbx_timeline *tl)
{
    for (size_t i = 0; i < tl->n; i++)
        if (tl->order[i]->kind == SBX_EV_COMMAND && (tl->order[i]->u.cmd.flags & SBX_CMD_RECORD))
            return true;
    return false;
}

void sbx_check_kinds(FILE *to)
{
    for (int i = 0; i < K_COUNT; i++)
        fprintf(to, "  %-20s %s\n", kind_names[i],
                (const char *const[]){
#define KIND_HELP(e, name, help) help,
                    CHECK_KINDS(KIND_HELP)
#undef KIND_HELP
                }[i]);
}

static int run_check(int argc, char **argv, struct sbx_inputs *in, struct sbx_allowlist **allow_list);

int sbx_cmd_check(int argc, char **argv)
{
    struct sbx_inputs in = {0};
    struct sbx_allowlist *allow = NULL;
    int status = run_check(argc, argv, &in, &allow);
    sbx_inputs_free(&in);
    sbx_allowlist_free(allow);
    return status;
}

static int run_check(int argc, char **argv, struct sbx_inputs *in, struct sbx_allowlist **allow_list)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'}, {"allow", required_argument, NULL, 'a'},
        {"threads", required_argument, NULL, 'j'}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {"as", required_argument, NULL, 'A'},
        {"allow-list", required_argument, NULL, 'W'}, {NULL, 0, NULL, 0},
    };
    struct report r = {0};
    bool json = false, quiet = false;
    int threads = 0, c;
    optind = 1;
    /* "-": inputs come back in place, so --as applies to those after it */
    while ((c = getopt_long(argc, argv, "-f:a:j:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 1:
            if (!sbx_inputs_add(in, optarg))
                return SBX_EXIT_USAGE;
            break;
        case 'A':
            if (!sbx_inputs_as(in, optarg))
                return SBX_EXIT_USAGE;
            break;
        case 'W':
            if (!sbx_load_allow_list(optarg, allow_list))
                return SBX_EXIT_USAGE;
            break;
        case 'f':
            if (strcmp(optarg, "json") && strcmp(optarg, "text")) {
                fprintf(stderr, "sbxview: check --format is text or json\n");
                return SBX_EXIT_USAGE;
            }
            json = strcmp(optarg, "json") == 0;
            break;
        case 'a':
            if (!allow(&r, optarg))
                return SBX_EXIT_USAGE;
            break;
        case 'j':
            if (!sbx_parse_threads(optarg, &threads))
                return SBX_EXIT_USAGE;
            break;
        case 'q': quiet = true; break;
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: sbx_usage(stderr); return SBX_EXIT_USAGE;
        }
    }
    for (; optind < argc; optind++) /* after "--" */
        if (!sbx_inputs_add(in, argv[optind]))
            return SBX_EXIT_USAGE;
    if (!in->n) {
        fprintf(stderr, "sbxview: check: no input given (a run folder, or the logs of a run)\n");
        return SBX_EXIT_USAGE;
    }
    if (!sbx_inputs_done(in))
        return SBX_EXIT_USAGE;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts lo = {.threads = threads, .formats = in->formats};
    size_t loaded = sbx_load_paths(&tl, in->paths, in->n, &lo, &rep);
    if (!quiet)
        sbx_warn_load_report(&rep);
    int status = SBX_EXIT_USAGE;
    struct sbx_summary sum;
    char err[256];
    const char *missing[2];
    size_t nmissing = 0;
    struct sbx_summary_opts so = {.threads = threads, .allow = *allow_list};
    if (!loaded || !sbx_summarize(&tl, &so, &sum, err, sizeof err)) {
        if (loaded)
            sbx_warn(err);
        goto done;
    }
    /* the integrity check needs both sides: say which one is not there */
    if (!has_format(&tl, "recorder"))
        missing[nmissing++] = "the wrapper's log (agent-run.jsonl)";
    if (!has_record(&tl))
        missing[nmissing++] = "Runtime's command record (sbxview fetch runtime saves it)";
    r.tl = &tl;
    r.sum = &sum;
    r.scratch = sbx_secrets_scratch_new(sum.patterns);
    collect(&r);
    if (r.n)
        qsort(r.f, r.n, sizeof *r.f, by_kind_then_time);
    if (json)
        print_json(&r, missing, nmissing);
    else
        print_text(&r, strcmp(nl_langinfo(CODESET), "UTF-8") != 0);
    for (size_t i = 0; i < nmissing; i++)
        fprintf(stderr, "sbxview: could not check: %s is not among the inputs\n", missing[i]);
    status = nmissing ? SBX_EXIT_USAGE : r.n ? SBX_EXIT_FINDINGS : SBX_EXIT_OK;
    for (size_t i = 0; i < r.n; i++)
        free(r.f[i].evidence);
    free(r.f);
    sbx_secrets_scratch_free(r.scratch);
    sbx_summary_free(&sum);
done:
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    return status;
}
