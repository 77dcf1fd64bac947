/* sbxview check: the findings of a run, one per line with their evidence,
 * for CI and scripts. It checks what the sources allow and names what they
 * cannot tell (the cross-check without Runtime's record, …). Exit 0 clean,
 * 1 findings, 2 could not check (nothing loaded, or a source --require
 * names is missing). */
#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/output.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "base/timefmt.h"
#include "model/evid.h"
#include "render/during.h"
#include "render/findings.h"
#include "render/skips.h"
#include "base/jsonw.h"
#include "render/sanitize.h"
#include "render/untrusted.h"
#include "cli/cli.h"
#include "cli/subcommands.h"
#include "cli/cli_util.h"
#include "cli/review_cli.h"

struct report {
    const struct sbx_timeline *tl;
    const struct sbx_summary *sum;
    struct sbx_findings found;
    /* what reached a host after the allow list was widened: no finding of
     * its own (the widening is), named on its line */
    struct sbx_findings reached;
    uint32_t allowed;     /* enum sbx_finding bits */
    uint32_t not_checked; /* kinds check reports that the sources cannot tell */
    bool allow_skips;     /* --allow skipped-lines: lines and files not read do not fail */
    /* the review's triage (cli/review_cli.h): found[i] cleared by triaged[i] (NULL: not) */
    const struct sbx_review_triage **triaged;
    size_t ntriaged;        /* findings the review clears */
};

/* The sources --require can insist on. */
enum { REQUIRE_RECORD = 1u << 0, REQUIRE_WRAPPER = 1u << 1 };

/* What --allow takes beside the finding kinds: the lines and files not read. */
static const char SKIPS_NAME[] = "skipped-lines";

static const char *str(const struct report *r, uint32_t id)
{
    return sbx_str(r->tl, id);
}

/* "triaged STATE by AUTHOR: REASON", for a finding the review clears */
static void triaged_words(const struct sbx_review_triage *t, struct sbx_buf *out)
{
    sbx_buf_addf(out, "triaged %s by %s: %s", t->state, t->author, t->reason ? t->reason : "");
}

static void print_text(const struct report *r, bool ascii, struct sbx_buf *out)
{
    for (size_t i = 0; i < r->found.n; i++) {
        const struct sbx_finding_item *f = &r->found.f[i];
        if (r->triaged && r->triaged[i])
            continue;
        const struct sbx_event *e = f->event;
        char t[SBX_TIME_BUFSZ];
        struct sbx_buf line = SBX_BUF_INIT, safe = SBX_BUF_INIT;
        char id[SBX_EVID_LEN];
        sbx_event_id(r->tl, e, id);
        sbx_buf_addf(&line, "%-19s %s %s ", sbx_finding_of(f->kind)->name, sbx_time_format(e->start, t),
                     e->sandbox ? str(r, e->sandbox) : "-");
        sbx_finding_words(f, &line);
        sbx_buf_addf(&line, " (%s:%u) id:%s", r->tl->sources[e->source].path, sbx_ev_line_no(e), id);
        sbx_untrusted_text(&safe, line.p, line.len, SBX_SAN_ONE_LINE | (ascii ? SBX_SAN_ASCII : 0), 0);
        sbx_buf_add(out, safe.p ? safe.p : "", safe.len);
        sbx_buf_addc(out, '\n');
        sbx_buf_free(&line);
        sbx_buf_free(&safe);
    }
    for (size_t i = 0; i < r->reached.n; i++) {
        const struct sbx_finding_item *f = &r->reached.f[i];
        const struct sbx_event *e = f->event;
        char t[SBX_TIME_BUFSZ], id[SBX_EVID_LEN];
        struct sbx_buf line = SBX_BUF_INIT, safe = SBX_BUF_INIT;
        sbx_event_id(r->tl, e, id);
        sbx_buf_addf(&line, "%-19s %s %s ", "reached-after", sbx_time_format(e->start, t),
                     e->sandbox ? str(r, e->sandbox) : "-");
        sbx_finding_words(f, &line);
        sbx_buf_addf(&line, " (%s:%u) id:%s", r->tl->sources[e->source].path, sbx_ev_line_no(e), id);
        sbx_untrusted_text(&safe, line.p, line.len, SBX_SAN_ONE_LINE | (ascii ? SBX_SAN_ASCII : 0), 0);
        sbx_buf_add(out, safe.p ? safe.p : "", safe.len);
        sbx_buf_addc(out, '\n');
        sbx_buf_free(&line);
        sbx_buf_free(&safe);
    }
    for (size_t i = 0; r->triaged && i < r->found.n; i++) {
        const struct sbx_review_triage *t = r->triaged[i];
        if (!t)
            continue;
        struct sbx_buf line = SBX_BUF_INIT, safe = SBX_BUF_INIT;
        sbx_buf_addf(&line, "%-19s %s ", "triaged", t->item);
        triaged_words(t, &line);
        sbx_untrusted_text(&safe, line.p, line.len, SBX_SAN_ONE_LINE | (ascii ? SBX_SAN_ASCII : 0), 0);
        sbx_buf_add(out, safe.p ? safe.p : "", safe.len);
        sbx_buf_addc(out, '\n');
        sbx_buf_free(&line);
        sbx_buf_free(&safe);
    }
    sbx_skips_text(r->tl, r->sum, "skipped-line        ", "unread-file         ", ascii, out);
}

/* The members a finding and a reached-after line share: at, sandbox,
 * evidence, source, line and the event's id. */
static void item_json(const struct report *r, const struct sbx_finding_item *f, struct sbx_jsonw *w)
{
    char t[SBX_TIME_BUFSZ], id[SBX_EVID_LEN];
    sbx_jw_key(w, "at");
    if (f->event->start == SBX_TIME_UNKNOWN)
        sbx_jw_null(w);
    else
        sbx_untrusted_json_cstr(w, sbx_time_format(f->event->start, t));
    sbx_jw_key(w, "sandbox");
    sbx_untrusted_json_cstr(w, f->event->sandbox ? str(r, f->event->sandbox) : NULL);
    sbx_jw_key(w, "evidence");
    struct sbx_buf words = SBX_BUF_INIT;
    sbx_finding_words(f, &words);
    sbx_untrusted_json(w, words.p, words.len);
    sbx_buf_free(&words);
    sbx_jw_key(w, "source");
    sbx_untrusted_json_cstr(w, r->tl->sources[f->event->source].path);
    sbx_jw_key(w, "line");
    sbx_jw_int(w, sbx_ev_line_no(f->event));
    sbx_event_id(r->tl, f->event, id);
    sbx_jw_key(w, "event");
    sbx_jw_cstr(w, id);
}

static void print_json(const struct report *r, const char *const *missing, size_t nmissing,
                       struct sbx_buf *out)
{
    struct sbx_jsonw w;
    sbx_jw_init(&w, out, true);
    sbx_jw_object(&w);
    sbx_jw_key(&w, "schema");
    sbx_jw_int(&w, 1);
    sbx_jw_key(&w, "missing_sources");
    sbx_jw_array(&w);
    for (size_t i = 0; i < nmissing; i++)
        sbx_untrusted_json_cstr(&w, missing[i]);
    sbx_jw_end_array(&w);
    /* an uncertain skew: what the cross-check did not conclude (null: nothing) */
    struct sbx_buf note = SBX_BUF_INIT;
    sbx_jw_key(&w, "not_concluded");
    if (sbx_findings_skew_note(r->sum, &note))
        sbx_jw_cstr(&w, note.p);
    else
        sbx_jw_null(&w);
    sbx_buf_free(&note);
    sbx_jw_key(&w, "not_checked");
    sbx_jw_array(&w);
    for (size_t i = 0; i < sbx_nfindings; i++) {
        if (!(r->not_checked & sbx_findings[i].bit))
            continue;
        sbx_jw_object(&w);
        sbx_jw_key(&w, "kind");
        sbx_jw_cstr(&w, sbx_findings[i].name);
        sbx_jw_key(&w, "needs");
        sbx_jw_cstr(&w, sbx_finding_needs(sbx_findings[i].bit));
        sbx_jw_end_object(&w);
    }
    sbx_jw_end_array(&w);
    sbx_jw_key(&w, "findings");
    sbx_jw_array(&w);
    for (size_t i = 0; i < r->found.n; i++) {
        const struct sbx_finding_item *f = &r->found.f[i];
        if (r->triaged && r->triaged[i])
            continue;
        sbx_jw_object(&w);
        sbx_jw_key(&w, "kind");
        sbx_untrusted_json_cstr(&w, sbx_finding_of(f->kind)->name);
        item_json(r, f, &w);
        char fid[SBX_FINDID_LEN];
        sbx_finding_id(r->tl, f->event, f->kind, fid);
        sbx_jw_key(&w, "id");
        sbx_jw_cstr(&w, fid);
        /* added within schema 1: what ran then, for an event not from the wrapper */
        struct sbx_during d;
        if (sbx_during_of(r->tl, r->sum, f->event, &d))
            sbx_during_json(r->tl, &d, &w);
        sbx_jw_end_object(&w);
    }
    sbx_jw_end_array(&w);
    /* added within schema 1: what reached a host after the allow list was widened */
    sbx_jw_key(&w, "reached_after");
    sbx_jw_array(&w);
    for (size_t i = 0; i < r->reached.n; i++) {
        const struct sbx_finding_item *f = &r->reached.f[i];
        sbx_jw_object(&w);
        item_json(r, f, &w);
        /* the allow-list changes it reached the host after: the links' evidence and events */
        sbx_jw_key(&w, "widened_by");
        sbx_jw_array(&w);
        const struct sbx_story_item *it = sbx_story_item_of(&r->sum->story, f->event);
        for (size_t k = 0; it && k < it->nlinks; k++) {
            if (it->links[k].kind != SBX_LINK_WIDENED_BEFORE)
                continue;
            char cid[SBX_EVID_LEN];
            sbx_event_id(r->tl, it->links[k].event, cid);
            sbx_jw_object(&w);
            sbx_jw_key(&w, "evidence");
            sbx_untrusted_json_cstr(&w, it->links[k].evidence);
            sbx_jw_key(&w, "event");
            sbx_jw_cstr(&w, cid);
            sbx_jw_end_object(&w);
        }
        sbx_jw_end_array(&w);
        struct sbx_during d;
        if (sbx_during_of(r->tl, r->sum, f->event, &d))
            sbx_during_json(r->tl, &d, &w);
        sbx_jw_end_object(&w);
    }
    sbx_jw_end_array(&w);
    /* added within schema 1: findings the review triaged benign or expected, with a reason */
    sbx_jw_key(&w, "triaged");
    sbx_jw_array(&w);
    for (size_t i = 0; r->triaged && i < r->found.n; i++) {
        const struct sbx_review_triage *t = r->triaged[i];
        if (!t)
            continue;
        sbx_jw_object(&w);
        sbx_jw_key(&w, "id");
        sbx_jw_cstr(&w, t->item);
        sbx_jw_key(&w, "kind");
        sbx_jw_cstr(&w, sbx_finding_of(r->found.f[i].kind)->name);
        sbx_jw_key(&w, "state");
        sbx_jw_cstr(&w, t->state);
        sbx_jw_key(&w, "author");
        sbx_untrusted_json_cstr(&w, t->author);
        sbx_jw_key(&w, "reason");
        sbx_untrusted_json_cstr(&w, t->reason);
        sbx_jw_end_object(&w);
    }
    sbx_jw_end_array(&w);
    sbx_skips_json(r->tl, r->sum, &w);
    sbx_jw_end_object(&w);
    sbx_buf_addc(out, '\n');
}

static bool allow(struct report *r, char *list)
{
    for (char *save = NULL, *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        if (strcmp(k, SKIPS_NAME) == 0) {
            r->allow_skips = true;
            continue;
        }
        /* every kind's name (model/findings.h), as compare and the JSON say
         * them; one check does not report is allowed, and changes nothing */
        uint32_t bit = sbx_finding_by_name(k);
        if (!bit) {
            sbx_bad_value("--allow kind", k, "a finding kind or skipped-lines: see --help");
            return false;
        }
        r->allowed |= bit;
    }
    return true;
}

static bool require(unsigned *req, char *list)
{
    for (char *save = NULL, *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        if (strcmp(k, "record") == 0) {
            *req |= REQUIRE_RECORD;
        } else if (strcmp(k, "wrapper") == 0) {
            *req |= REQUIRE_WRAPPER;
        } else {
            sbx_bad_value("--require source", k, "record or wrapper");
            return false;
        }
    }
    return true;
}

/* One line per need, naming the kinds it leaves unchecked. */
static void warn_not_checked(uint32_t bits)
{
    uint32_t done = 0;
    for (size_t i = 0; i < sbx_nfindings; i++) {
        const char *needs = sbx_finding_needs(sbx_findings[i].bit);
        if (!(bits & sbx_findings[i].bit) || (done & sbx_findings[i].bit))
            continue;
        struct sbx_buf line = SBX_BUF_INIT;
        sbx_buf_adds(&line, "not checked:");
        const char *sep = " ";
        for (size_t j = i; j < sbx_nfindings; j++)
            if ((bits & sbx_findings[j].bit) && sbx_findings[j].needs && needs &&
                strcmp(sbx_findings[j].needs, needs) == 0) {
                sbx_buf_addf(&line, "%s%s", sep, sbx_findings[j].name);
                done |= sbx_findings[j].bit;
                sep = ", ";
            }
        sbx_buf_addf(&line, ": it needs %s", needs);
        sbx_warn(line.p);
        sbx_buf_free(&line);
    }
}

void sbx_check_kinds(FILE *to)
{
    for (size_t i = 0; i < sbx_nfindings; i++)
        if (sbx_findings[i].check)
            fprintf(to, "  %-20s %s\n", sbx_findings[i].name, sbx_findings[i].check);
    fprintf(to, "  %-20s %s\n", SKIPS_NAME, "lines that were skipped and files that were not read");
    /* the names compare and the JSON also give: --allow takes them, to no effect */
    const char *sep = "  --allow also takes, to no effect:";
    for (size_t i = 0; i < sbx_nfindings; i++)
        if (!sbx_findings[i].check) {
            fprintf(to, "%s %s", sep, sbx_findings[i].name);
            sep = ",";
        }
    if (*sep == ',')
        fputc('\n', to);
}

static int run_check(int argc, char **argv, struct sbx_cli_runs *runs);

int sbx_cmd_check(int argc, char **argv)
{
    struct sbx_cli_runs runs = {0};
    int status = run_check(argc, argv, &runs);
    sbx_cli_runs_free(&runs);
    return status;
}

static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'}, {"allow", required_argument, NULL, 'a'},
    {"require", required_argument, NULL, 'r'}, {"review", required_argument, NULL, 'V'},
    {"ignore-review", no_argument, NULL, 'I'},
    {"help", no_argument, NULL, 'h'},         SBX_CLI_RUNS_LONGOPTS,
    SBX_CLI_QUIET_LONGOPT,                    {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_check_opts = {"-:f:a:j:qh", longopts};

static int run_check(int argc, char **argv, struct sbx_cli_runs *runs)
{
    struct report r = {0};
    bool json = false, ignore_review = false;
    const char *review_file = NULL;
    unsigned required = 0;
    int c;
    optind = 1;
    opterr = 0;
    /* "-": inputs come back in place, so --as applies to those after it */
    while ((c = getopt_long(argc, argv, sbx_check_opts.shorts, longopts, NULL)) != -1) {
        int took = sbx_cli_runs_option(runs, c, optarg);
        if (took < 0)
            return SBX_EXIT_USAGE;
        if (took)
            continue;
        switch (c) {
        case 'f':
            if (strcmp(optarg, "json") && strcmp(optarg, "text")) {
                return sbx_bad_value("format", optarg, "text or json");
            }
            json = strcmp(optarg, "json") == 0;
            break;
        case 'a':
            if (!allow(&r, optarg))
                return SBX_EXIT_USAGE;
            break;
        case 'r':
            if (!require(&required, optarg))
                return SBX_EXIT_USAGE;
            break;
        case 'V': review_file = optarg; break;
        case 'I': ignore_review = true; break;
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    if (!sbx_cli_runs_rest(runs, argc, argv)) /* after "--" */
        return SBX_EXIT_USAGE;
    struct sbx_inputs *in = &runs->in;
    if (!in->n) {
        return sbx_usage_errorf("no input given (a run folder, or the logs of a run)");
    }
    if (!sbx_inputs_done(in))
        return SBX_EXIT_USAGE;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts lo = sbx_cli_load_opts(runs);
    size_t loaded = sbx_load_paths(&tl, in->paths, in->n, &lo, &rep);
    if (!runs->quiet)
        sbx_warn_load_report(&rep);
    int status = SBX_EXIT_USAGE;
    struct sbx_summary sum;
    const char *missing[2];
    size_t nmissing = 0;
    if (!loaded || !sbx_cli_summarize(&tl, runs, &rep, &sum))
        goto done;
    /* the cross-check needs both sides: say which one is not there */
    bool no_wrapper = !sbx_summary_has_wrapper(&tl), no_record = !sum.cross.records;
    if (no_wrapper)
        missing[nmissing++] = "the wrapper's log (agent-run.jsonl)";
    if (no_record)
        missing[nmissing++] = "Runtime's command record (sbxview fetch runtime saves it)";
    r.tl = &tl;
    r.sum = &sum;
    /* what the sources cannot tell is not checked, and is no finding */
    for (size_t i = 0; i < sbx_nfindings; i++)
        if (sbx_findings[i].check && !(sum.checkable & sbx_findings[i].bit) &&
            !(r.allowed & sbx_findings[i].bit))
            r.not_checked |= sbx_findings[i].bit;
    sbx_findings_collect(&tl, &sum, r.allowed | r.not_checked, &r.found);
    sbx_findings_reached(&tl, &sum, &r.reached);
    struct sbx_review review;
    struct sbx_review_state rst;
    struct sbx_review_place place;
    sbx_review_init(&review);
    memset(&rst, 0, sizeof rst);
    memset(&place, 0, sizeof place);
    if (!ignore_review) {
        sbx_review_place_find(&place, review_file ? review_file : in->s3_review, (const char *const *)in->paths, in->n, &tl);
        sbx_review_load(&place, &review, runs->quiet);
        sbx_review_state_make(&review, &rst);
        r.triaged = sbx_xcalloc(r.found.n ? r.found.n : 1, sizeof *r.triaged);
        /* a triage covers the one finding it names: its event and its kind */
        for (size_t i = 0; i < r.found.n; i++) {
            char fid[SBX_FINDID_LEN];
            sbx_finding_id(&tl, r.found.f[i].event, r.found.f[i].kind, fid);
            const struct sbx_review_triage *t = sbx_review_clearance(&rst, fid);
            if (t) {
                r.triaged[i] = t;
                r.ntriaged++;
            }
        }
    }
    struct sbx_buf out = SBX_BUF_INIT;
    if (json)
        print_json(&r, missing, nmissing, &out);
    else
        print_text(&r, strcmp(nl_langinfo(CODESET), "UTF-8") != 0, &out);
    char err[256];
    bool written = sbx_write_output(NULL, out.p ? out.p : "", out.len, err, sizeof err);
    sbx_buf_free(&out);
    if (!written)
        sbx_warn(err);
    struct sbx_buf note = SBX_BUF_INIT;
    if (sbx_findings_skew_note(&sum, &note)) /* numbers only: nothing from a log */
        sbx_errf("%s", note.p);
    sbx_buf_free(&note);
    for (size_t i = 0; i < nmissing; i++)
        sbx_errf("%s is not among the inputs", missing[i]);
    warn_not_checked(r.not_checked);
    bool required_missing = ((required & REQUIRE_RECORD) && no_record) ||
                            ((required & REQUIRE_WRAPPER) && no_wrapper);
    if (required_missing)
        sbx_errf("could not check: --require names a source that is not among the inputs");
    struct sbx_skips_counts skips = sbx_skips_count(&tl, &sum);
    bool unread = !r.allow_skips && (skips.lines || skips.files);
    status = required_missing || !written    ? SBX_EXIT_USAGE
             : r.found.n > r.ntriaged || unread ? SBX_EXIT_FINDINGS
                                              : SBX_EXIT_OK;
    free(r.triaged);
    sbx_review_state_free(&rst);
    sbx_review_free(&review);
    sbx_review_place_free(&place);
    sbx_findings_free(&r.found);
    sbx_findings_free(&r.reached);
    sbx_summary_free(&sum);
done:
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    return status;
}
