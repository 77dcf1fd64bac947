/* sbxview review VERB RUN ...: the review of a run from scripts — show it,
 * or append one operation (note, tag, triage, verdict) to its file
 * (docs/review-file.md). Ids are checked against the run: a note on an
 * event the run does not hold is refused. Exit 0 done, 2 usage or could
 * not write. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "analyses/summary.h"
#include "base/timefmt.h"
#include "export/output.h"
#include "export/review_write.h"
#include "importers/load.h"
#include "importers/review.h"
#include "model/evid.h"
#include "render/review.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "cli/msg.h"
#include "cli/subcommands.h"
#include "cli/review_cli.h"
#include "cli/s3_fetch.h"

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}


/* Whether the item (an event or finding id) names something in the run. */
static bool item_in_run(const struct sbx_timeline *tl, const char *item)
{
    const char *slash = strchr(item, '/');
    size_t idn = slash ? (size_t)(slash - item) : strlen(item);
    const struct sbx_event *e = sbx_event_by_id(tl, item, idn);
    if (!e || !slash)
        return e != NULL;
    return (e->findings & sbx_finding_by_name(slash + 1)) != 0;
}

static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'}, {"reason", required_argument, NULL, 'R'},
    {"review", required_argument, NULL, 'V'}, {"author", required_argument, NULL, 'U'},
    {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_review_opts = {"-:f:qh", longopts};

int sbx_cmd_review(int argc, char **argv)
{
    const char *format = "text", *reason = NULL, *given = NULL, *author_opt = NULL;
    bool quiet = false;
    const char *pos[8];
    size_t npos = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, sbx_review_opts.shorts, longopts, NULL)) != -1) {
        switch (c) {
        case 1:
            if (npos == sizeof pos / sizeof *pos)
                return sbx_usage_errorf("too many arguments (from %s on)", optarg);
            pos[npos++] = optarg;
            break;
        case 'f': format = optarg; break;
        case 'R': reason = optarg; break;
        case 'V': given = optarg; break;
        case 'U': author_opt = optarg; break;
        case 'q': quiet = true; break;
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    while (optind < argc && npos < sizeof pos / sizeof *pos)
        pos[npos++] = argv[optind++];
    if (npos < 2)
        return sbx_usage_errorf("%s", "wants a verb and a run: review show|note|tag|triage|verdict RUN ...");
    const char *verb = pos[0], *run = pos[1];
    static const struct {
        const char *verb;
        size_t args; /* after RUN */
        const char *form;
    } verbs[] = {
        {"show", 0, "review show RUN [-f text|markdown|json]"},
        {"note", 2, "review note RUN ID TEXT"},
        {"tag", 2, "review tag RUN ID TAG"},
        {"triage", 2, "review triage RUN FINDING-ID STATE --reason TEXT"},
        {"verdict", 1, "review verdict RUN STATE --reason TEXT"},
    };
    size_t v = 0;
    while (v < sizeof verbs / sizeof *verbs && strcmp(verbs[v].verb, verb) != 0)
        v++;
    if (v == sizeof verbs / sizeof *verbs)
        return sbx_usage_errorf("no verb called %s (show, note, tag, triage, verdict)", verb);
    if (npos - 2 != verbs[v].args) {
        sbx_errf("usage: sbxview %s", verbs[v].form);
        return SBX_EXIT_USAGE;
    }
    if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json"))
        return sbx_usage_errorf("--format is text, markdown or json, not %s", format);
    bool triage = strcmp(verb, "triage") == 0, verdict = strcmp(verb, "verdict") == 0;
    if ((triage || verdict) && (!reason || !reason[0]))
        return sbx_usage_errorf("%s needs --reason TEXT", verb);
    if (!(triage || verdict) && reason)
        return sbx_usage_errorf("--reason is for triage and verdict, not %s", verb);
    const char *item = npos > 2 && !verdict ? pos[2] : NULL;
    const char *state = triage ? pos[3] : verdict ? pos[2] : NULL;
    if (item && !sbx_review_item_valid(item, strlen(item), triage))
        return sbx_usage_errorf(triage ? "not a finding id (ID/kind, as check prints it): %s"
                                  : "not an event id: %s", item);
    if (triage && !sbx_triage_state_valid(state)) {
        sbx_errf("no triage state called %s (%s)", state, sbx_triage_states_text());
        return SBX_EXIT_USAGE;
    }
    if (verdict && !sbx_verdict_state_valid(state)) {
        sbx_errf("no verdict called %s (%s)", state, sbx_verdict_states_text());
        return SBX_EXIT_USAGE;
    }
    if (strcmp(verb, "tag") == 0 && !sbx_review_tag_valid(pos[3]))
        return sbx_usage_errorf("a tag is 1 to 64 of A-Z a-z 0-9 . _ : -, not %s", pos[3]);

    /* a run in the store: read from the cache, its review beside it there */
    char *local = NULL, *beside = NULL, *name = NULL;
    if (sbx_is_s3_url(run)) {
        if (!(local = sbx_s3_fetch(run, quiet, NULL)))
            return SBX_EXIT_USAGE;
        struct stat st;
        bool folder = stat(local, &st) == 0 && S_ISDIR(st.st_mode);
        beside = sbx_review_s3_beside(run, folder);
        name = sbx_s3_source_name(run, folder); /* its files named by URL, not by the cache */
        if (!given)
            given = beside;
    }
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {local ? local : run}, *names[] = {name};
    struct sbx_load_opts lo = {.names = names};
    size_t loaded = sbx_load_paths(&tl, paths, 1, &lo, &rep);
    if (!quiet)
        sbx_warn_load_report(&rep);
    int status = SBX_EXIT_USAGE;
    struct sbx_summary sum;
    bool summarized = false;
    struct sbx_review_place place;
    struct sbx_review review;
    sbx_review_init(&review);
    memset(&place, 0, sizeof place);
    if (!loaded) {
        sbx_errf("nothing could be read from %s", run);
        goto done;
    }
    char why[256];
    summarized = sbx_summarize(&tl, NULL, &sum, why, sizeof why);
    if (!summarized) {
        sbx_errf("the run could not be summarised: %s", why);
        goto done;
    }
    sbx_review_place_find(&place, given, paths, 1, &tl);
    if (!sbx_review_load(&place, &review, quiet))
        goto done;
    if (strcmp(verb, "show") == 0) {
        struct sbx_review_state st;
        sbx_review_state_make(&review, &st);
        struct sbx_buf out = SBX_BUF_INIT;
        bool ascii = sbx_msg_ascii();
        if (strcmp(format, "json") == 0)
            sbx_review_json(&tl, &sum, &review, &st, &out);
        else if (strcmp(format, "markdown") == 0)
            sbx_review_markdown(&tl, &sum, &review, &st, &out);
        else
            sbx_review_text(&tl, &sum, &review, &st, ascii, &out);
        char err[256];
        status = sbx_write_output(NULL, out.p ? out.p : "", out.len, err, sizeof err) ? SBX_EXIT_OK
                                                                                  : SBX_EXIT_USAGE;
        if (status != SBX_EXIT_OK)
            sbx_warn(err);
        sbx_buf_free(&out);
        sbx_review_state_free(&st);
        goto done;
    }
    if (item && !item_in_run(&tl, item)) {
        sbx_usage_errorf(triage ? "the run has no finding %s" : "the run has no event %s", item);
        goto done;
    }
    char *author = sbx_review_author(author_opt);
    struct sbx_review_op op = {
        .author = author,
        .at = now_ns(),
        .item = (char *)item,
        .state = (char *)state,
    };
    if (strcmp(verb, "note") == 0) {
        op.kind = SBX_REVIEW_NOTE;
        op.text = (char *)pos[3];
    } else if (strcmp(verb, "tag") == 0) {
        op.kind = SBX_REVIEW_TAG;
        op.tag = (char *)pos[3];
    } else {
        op.kind = triage ? SBX_REVIEW_TRIAGE : SBX_REVIEW_VERDICT;
        op.text = (char *)reason;
    }
    if (sbx_review_place_append(&place, &op)) {
        status = SBX_EXIT_OK;
        if (!quiet)
            sbx_errf("%s written to %s", verb, place.write);
    }
    free(author);
done:
    free(local);
    free(beside);
    free(name);
    sbx_review_free(&review);
    sbx_review_place_free(&place);
    if (summarized)
        sbx_summary_free(&sum);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    return status;
}
