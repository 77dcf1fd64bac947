/* sbxview export: the summary, findings and digests of a run, as a
 * markdown file or a ticket comment (export/body.h builds the body). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export/body.h"
#include "export/output.h"
#include "export/posted.h"
#include "export/review_write.h"
#include "export/target.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "render/sanitize.h"
#include "cli/cli.h"
#include "cli/subcommands.h"
#include "cli/cli_util.h"
#include "cli/export_send.h"
#include "cli/review_cli.h"
#include "cli/s3_fetch.h"

struct export_args {
    struct sbx_cli_runs runs;
    const char **given; /* the input arguments as given (with --as and --allow-list) */
    size_t ngiven;
    const char *to;
    const char *review; /* --review FILE, or NULL: the run's own */
    bool include_output, dry_run, repost;
    int jira_api;
    long timeout_ms;
};

static void given(struct export_args *a, const char *s)
{
    a->given = sbx_xrealloc(a->given, (a->ngiven + 1) * sizeof *a->given);
    a->given[a->ngiven++] = s;
}

static const struct option longopts[] = {
    {"to", required_argument, NULL, 't'},      {"include-output", no_argument, NULL, 'O'},
    {"dry-run", no_argument, NULL, 'n'},       {"jira-api", required_argument, NULL, 'J'},
    {"timeout", required_argument, NULL, 'T'}, {"repost", no_argument, NULL, 'R'},
    {"review", required_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},          SBX_CLI_RUNS_LONGOPTS,
    SBX_CLI_QUIET_LONGOPT,                     {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_export_opts = {"-:t:j:qh", longopts};

static int parse(int argc, char **argv, struct export_args *a)
{
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, sbx_export_opts.shorts, longopts, NULL)) != -1) {
        int took = sbx_cli_runs_option(&a->runs, c, optarg);
        if (took < 0)
            return SBX_EXIT_USAGE;
        if (took) { /* the body names the inputs as they were given */
            if (c == 'A' || c == 'W' || c == 'K')
                given(a, c == 'A' ? "--as" : c == 'W' ? "--allow-list" : "--skew");
            if (c == 1 || c == 'A' || c == 'W' || c == 'K')
                given(a, optarg);
            continue;
        }
        switch (c) {
        case 't': a->to = optarg; break;
        case 'O': a->include_output = true; break;
        case 'n': a->dry_run = true; break;
        case 'J':
            if (strcmp(optarg, "2") && strcmp(optarg, "3")) {
                return sbx_bad_value("--jira-api", optarg, "2 (plain text) or 3 (Atlassian Document Format)");
            }
            a->jira_api = optarg[0] - '0';
            break;
        case 'R': a->repost = true; break;
        case 'V': a->review = optarg; break;
        case 'T': {
            char *end;
            double v = strtod(optarg, &end);
            if (end == optarg || *end || !(v > 0 && v <= 86400)) {
                return sbx_bad_value("--timeout", optarg, "seconds, more than 0 and at most 86400");
            }
            a->timeout_ms = (long)(v * 1000 + 0.5) > 0 ? (long)(v * 1000 + 0.5) : 1;
            break;
        }
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    for (; optind < argc; optind++) { /* after "--" */
        if (!sbx_inputs_add(&a->runs.in, argv[optind]))
            return SBX_EXIT_USAGE;
        given(a, argv[optind]);
    }
    if (!a->to) {
        return sbx_usage_errorf("--to TARGET is needed (file:PATH.md, github:OWNER/REPO#N, "
                                "gitlab:GROUP/PROJECT#N, jira:KEY-123 or slack:)");
    }
    if (!a->runs.in.n) {
        return sbx_usage_errorf("no input given (a run folder, or the logs of a run)");
    }
    if (!sbx_inputs_done(&a->runs.in))
        return SBX_EXIT_USAGE;
    return -1;
}

/* A file: written, or printed for --dry-run. */
static int write_file(const struct export_args *a, const struct sbx_target *t, const struct sbx_buf *body)
{
    char err[512];
    if (a->dry_run) {
        if (sbx_write_output(NULL, body->p ? body->p : "", body->len, err, sizeof err))
            return SBX_EXIT_OK;
        sbx_warn(err);
        return SBX_EXIT_USAGE;
    }
    if (!sbx_write_output(t->path, body->p, body->len, err, sizeof err)) {
        sbx_warn(err);
        return SBX_EXIT_USAGE;
    }
    if (!a->runs.quiet && strcmp(t->path, "-") != 0) {
        struct sbx_buf name = SBX_BUF_INIT;
        sbx_sanitize(&name, t->path, strlen(t->path), SBX_SAN_ONE_LINE | SBX_SAN_ASCII, 0);
        sbx_errf("wrote %s (%zu bytes)", name.p ? name.p : "", body->len);
        sbx_buf_free(&name);
    }
    return SBX_EXIT_OK;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A ticket: the request printed for --dry-run, else sent (cli/export_send.h);
 * what a service that cannot find its post again must remember of it is
 * appended to the review file (export/posted.h). */
static int send_ticket(const struct export_args *a, const struct sbx_target *t,
                       const struct sbx_buf *body, const struct sbx_body_info *info,
                       const struct sbx_review_post *earlier,
                       const struct sbx_review_place *place, const struct sbx_send_env *settings)
{
    struct sbx_send_result res = {0};
    struct sbx_send_opts kept = {0};
    sbx_export_kept_opts(earlier, &kept);
    struct sbx_export_send_args sa = {
        .target = t, .settings = settings, .body = body->p, .len = body->len,
        .digest = info->marker, .review_marker = info->review_marker[0] ? info->review_marker : NULL,
        .kept_comment = kept.kept_comment, .kept_body = kept.kept_body,
        .dry_run = a->dry_run, .quiet = a->runs.quiet, .repost = a->repost,
        .timeout_ms = a->timeout_ms, .result = &res,
    };
    int status = sbx_export_send(&sa);
    char *author = NULL;
    char err[600];
    struct sbx_review_post p;
    if (a->dry_run || !place->write || !(author = sbx_review_author(NULL))) {
        /* nothing to keep */
    } else if (sbx_is_s3_url(place->write)) { /* the review in the store: an If-Match append */
        if (sbx_export_posted(t, settings, info, &res, author, now_ns(), &p)) {
            struct sbx_buf line = SBX_BUF_INIT;
            sbx_review_post_line(&p, &line);
            if (!sbx_s3_append(place->write, line.p, line.len, "application/x-ndjson"))
                sbx_errf("the post is not kept in the review in the store, so the next export "
                         "cannot find it");
            sbx_buf_free(&line);
            sbx_review_post_free(&p);
        }
    } else if (!sbx_export_keep_post(place->write, place->make_dirs, t, settings, info, &res,
                                     author, now_ns(), err, sizeof err)) {
        sbx_errf("the post is not kept in the review file, so the next export cannot "
                 "find it: %s", err);
    }
    free(author);
    sbx_send_result_free(&res);
    return status;
}

static int run(struct export_args *a, const struct sbx_target *t)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts lo = sbx_cli_load_opts(&a->runs);
    size_t loaded = sbx_load_paths(&tl, a->runs.in.paths, a->runs.in.n, &lo, &rep);
    if (!a->runs.quiet)
        sbx_warn_load_report(&rep);
    int status = SBX_EXIT_USAGE;
    char err[512];
    struct sbx_summary sum;
    if (!loaded || !sbx_cli_summarize(&tl, &a->runs, &rep, &sum))
        goto done;
    struct sbx_export_digests d;
    sbx_export_digests(&tl, &d);
    /* the run's review: the body's Review part (docs/review-file.md) */
    struct sbx_review_place place;
    struct sbx_review review;
    struct sbx_review_state rst;
    sbx_review_init(&review);
    sbx_review_place_find(&place, a->review ? a->review : a->runs.in.s3_review, (const char *const *)a->runs.in.paths, a->runs.in.n, &tl);
    sbx_review_load(&place, &review, a->runs.quiet);
    sbx_review_state_make(&review, &rst);
    struct sbx_body_opts bo = {
        .kind = sbx_target_body_kind(t->kind, a->jira_api),
        .limit = sbx_target_limit(t->kind),
        .include_output = a->include_output,
        .paths = a->given,
        .npaths = a->ngiven,
        .review = &review,
        .review_state = &rst,
    };
    struct sbx_send_env settings;
    sbx_export_settings(&settings);
    settings.jira_api = a->jira_api;
    struct sbx_buf body = SBX_BUF_INIT;
    struct sbx_body_info info;
    /* with this export's earlier post, kept in the review file: Jira's
     * comment to edit; a Slack message the new one replaces */
    const struct sbx_review_post *earlier;
    bool built = sbx_export_body_kept(&tl, &sum, &d, &bo, &review, t, &settings, a->repost, &body,
                                      &info, &earlier, err, sizeof err);
    if (!built) {
        sbx_warn(err);
    } else {
        if (info.shortened && !a->runs.quiet)
            sbx_errf("lists shortened to %d items to fit %s's limit of %zu characters",
                    info.list_max, sbx_target_kind_name(t->kind), bo.limit);
        status = sbx_target_posts(t) ? send_ticket(a, t, &body, &info, earlier, &place, &settings)
                                     : write_file(a, t, &body);
    }
    sbx_buf_free(&body);
    sbx_review_state_free(&rst);
    sbx_review_free(&review);
    sbx_review_place_free(&place);
    sbx_export_digests_free(&d);
    sbx_summary_free(&sum);
done:
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    return status;
}

int sbx_cmd_export(int argc, char **argv)
{
    struct export_args a = {.jira_api = 3};
    int status = parse(argc, argv, &a);
    if (status < 0) {
        struct sbx_target t;
        char err[512];
        if (!sbx_target_parse(a.to, &t, err, sizeof err)) {
            sbx_errf("--to: %s", err);
            status = SBX_EXIT_USAGE;
        } else {
            status = run(&a, &t);
        }
        sbx_target_free(&t);
    }
    sbx_cli_runs_free(&a.runs);
    free(a.given);
    return status;
}
