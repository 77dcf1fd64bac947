/* sbxview summary: load, analyse, render, write. */
#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/s3_fetch.h"
#include "export/output.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "render/sanitize.h"
#include "render/summary/summary.h"
#include "render/theme.h"
#include "cli/cli.h"
#include "cli/subcommands.h"
#include "cli/cli_util.h"
#include "cli/review_cli.h"


struct progress {
    bool shown;
};

static void show_progress(void *ctx, const char *path, uint64_t done, uint64_t total)
{
    struct progress *p = ctx;
    struct sbx_buf name = SBX_BUF_INIT;
    sbx_sanitize(&name, path, strlen(path), SBX_SAN_ONE_LINE | SBX_SAN_ASCII, 50);
    fprintf(stderr, "\r%s: loading %s %3d%%", sbx_msg_prog(), name.p ? name.p : "",
            total ? (int)(done * 100 / total) : 100);
    sbx_buf_free(&name);
    p->shown = true;
}

static bool wants_colour(const char *mode, const char *output)
{
    struct sbx_colour_env env = {.no_color = getenv("NO_COLOR"),
                                 .clicolor_force = getenv("CLICOLOR_FORCE"),
                                 .term = getenv("TERM"), .tty = isatty(1)};
    return sbx_colour_wanted(mode, output && strcmp(output, "-") != 0, &env);
}

struct sgr_table {
    struct sbx_buf seq[SBX_STYLE_COUNT];
    const char *p[SBX_STYLE_COUNT];
};

static const char *const *sgr_table_build(struct sgr_table *t, const struct sbx_theme *theme)
{
    for (int i = 0; i < SBX_STYLE_COUNT; i++) {
        t->seq[i] = (struct sbx_buf)SBX_BUF_INIT;
        sbx_look_sgr(&theme->look[i], &t->seq[i]);
        t->p[i] = t->seq[i].p; /* NULL for a plain look */
    }
    return t->p;
}

static void sgr_table_free(struct sgr_table *t)
{
    for (int i = 0; i < SBX_STYLE_COUNT; i++)
        sbx_buf_free(&t->seq[i]);
}

/* The text's width: --width, else the terminal's when it is written to one,
 * else SBX_SUMMARY_COLS. */
/* The look's spill: a piece of the JSON summary to its output. */
static void spill_to(void *ctx, const char *text, size_t len)
{
    sbx_output_write(ctx, text, len);
}

static int summary_width(int asked, const char *output)
{
    struct winsize ws;
    if (asked)
        return asked;
    if ((!output || strcmp(output, "-") == 0) && isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 &&
        ws.ws_col > 0)
        return ws.ws_col;
    return SBX_SUMMARY_COLS;
}

static int run_summary(int argc, char **argv, struct sbx_cli_runs *r);

int sbx_cmd_summary(int argc, char **argv)
{
    struct sbx_cli_runs r = {0};
    int status = run_summary(argc, argv, &r);
    sbx_cli_runs_free(&r);
    return status;
}

static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
    {"color", required_argument, NULL, 'C'},  {"colour", required_argument, NULL, 'C'},
    {"theme", required_argument, NULL, 'T'},  {"help", no_argument, NULL, 'h'},
    {"width", required_argument, NULL, 'w'},  {"review", required_argument, NULL, 'V'},
    {"story", no_argument, NULL, 'S'},
    SBX_CLI_RUNS_LONGOPTS,                    SBX_CLI_QUIET_LONGOPT,
    {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_summary_opts = {"-:f:o:j:qh", longopts};

static int run_summary(int argc, char **argv, struct sbx_cli_runs *r)
{
    enum sbx_summary_format fmt = SBX_SUMMARY_TEXT;
    const char *output = NULL, *review_file = NULL;
    const char *color = "auto", *theme_name = "default";
    bool theme_given = false;
    int c, width = 0;
    bool story = false;
    optind = 1;
    opterr = 0;
    /* "-": inputs come back in place, so --as applies to those after it */
    while ((c = getopt_long(argc, argv, sbx_summary_opts.shorts, longopts, NULL)) != -1) {
        int took = sbx_cli_runs_option(r, c, optarg);
        if (took < 0)
            return SBX_EXIT_USAGE;
        if (took)
            continue;
        switch (c) {
        case 'f':
            if (!sbx_summary_format_parse(optarg, &fmt)) {
                return sbx_bad_value("format", optarg, "text, markdown or json");
            }
            break;
        case 'o': output = optarg; break;
        case 'V': review_file = optarg; break;
        case 'C':
            if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
                return sbx_bad_value("--color", optarg, "auto, always or never");
            }
            color = optarg;
            break;
        case 'T': theme_name = optarg; theme_given = true; break;
        case 'S': story = true; break;
        case 'w': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 20 || n > 1000) {
                return sbx_bad_value("--width", optarg, "columns, from 20 to 1000");
            }
            width = (int)n;
            break;
        }
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    if (!sbx_cli_runs_rest(r, argc, argv)) /* after "--" */
        return SBX_EXIT_USAGE;
    struct sbx_inputs *in = &r->in;
    if (!in->n) {
        return sbx_usage_errorf("no input given (a file, a run folder, or - for stdin)");
    }
    if (!sbx_inputs_done(in))
        return SBX_EXIT_USAGE;
    /* a theme asked for must load, coloured or not: a typo is not silent */
    struct sbx_theme theme;
    if (theme_given && !sbx_pick_theme(theme_name, &theme))
        return SBX_EXIT_USAGE;

    struct progress prog = {false};
    struct sbx_load_opts lopts = sbx_cli_load_opts(r);
    if (!r->quiet && isatty(2)) {
        lopts.progress = show_progress;
        lopts.progress_ctx = &prog;
    }
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    size_t loaded = sbx_load_paths(&tl, in->paths, in->n, &lopts, &rep);
    if (prog.shown)
        fputs("\r\033[K", stderr);
    if (!r->quiet)
        sbx_warn_load_report(&rep);
    int status = SBX_EXIT_OK;
    if (!loaded) {
        status = SBX_EXIT_USAGE;
        goto done;
    }
    /* the analyses of a big log take a moment too: say so while they run */
    bool analysing = lopts.progress && tl.n >= 100000;
    if (analysing)
        fprintf(stderr, "%s: analysing %zu events", sbx_msg_prog(), tl.n);

    char err[256];
    struct sbx_summary sum;
    struct sbx_summary_opts sopts = {.threads = r->threads, .allow = r->allow, .unread = rep.unread,
                                     .nunread = rep.nunread, .skews = r->skews, .nskews = r->nskews};
    bool summarized = sbx_summarize(&tl, &sopts, &sum, err, sizeof err);
    if (analysing)
        fputs("\r\033[K", stderr); /* before the error: the line it clears is the one above */
    if (!summarized) {
        sbx_errf("%s", err);
        status = SBX_EXIT_USAGE;
        goto done;
    }
    struct sbx_summary_look look = {.ascii = fmt == SBX_SUMMARY_TEXT &&
                                             strcmp(nl_langinfo(CODESET), "UTF-8") != 0,
                                    .cols = summary_width(width, output), .story_whole = story};
    struct sgr_table colours;
    if (fmt == SBX_SUMMARY_TEXT && wants_colour(color, output)) {
        if (!theme_given && !sbx_pick_theme(theme_name, &theme)) {
            status = SBX_EXIT_USAGE;
            sbx_summary_free(&sum);
            goto done;
        }
        look.sgr = sgr_table_build(&colours, &theme);
    }
    /* the run's review, for its part of the summary (docs/review-file.md) */
    struct sbx_review_place place;
    struct sbx_review review;
    struct sbx_review_state rst;
    sbx_review_init(&review);
    sbx_review_place_find(&place, review_file ? review_file : in->s3_review, (const char *const *)in->paths, in->n, &tl);
    sbx_review_load(&place, &review, r->quiet);
    sbx_review_state_make(&review, &rst);
    look.review = &review;
    look.review_state = &rst;
    struct sbx_buf out = SBX_BUF_INIT;
    /* a file or standard output is written as the summary is made (the
       JSON's pieces as they come); the store takes the body whole */
    struct sbx_output *to = sbx_is_s3_url(output) ? NULL : sbx_output_open(output, err, sizeof err);
    if (to && fmt == SBX_SUMMARY_JSON) {
        look.spill = spill_to;
        look.spill_ctx = to;
    }
    bool made = (to || sbx_is_s3_url(output)) && sbx_render_summary(&tl, &sum, fmt, &look, &out, err, sizeof err);
    if (to) {
        if (made)
            sbx_output_write(to, out.p ? out.p : "", out.len);
        made = sbx_output_close(to, made, err, sizeof err);
    }
    if (!made) {
        sbx_warn(err);
        status = SBX_EXIT_USAGE;
    } else if (sbx_is_s3_url(output) &&
               !sbx_s3_write(output, out.p ? out.p : "", out.len,
                             fmt == SBX_SUMMARY_JSON ? "application/json"
                             : fmt == SBX_SUMMARY_TEXT ? "text/plain; charset=utf-8"
                                                       : "text/markdown; charset=utf-8")) {
        status = SBX_EXIT_USAGE;
    }
    sbx_buf_free(&out);
    sbx_review_state_free(&rst);
    sbx_review_free(&review);
    sbx_review_place_free(&place);
    if (look.sgr)
        sgr_table_free(&colours);
    sbx_summary_free(&sum);
done:
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    return status;
}
