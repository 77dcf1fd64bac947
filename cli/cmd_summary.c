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
#include "cli/cli_util.h"


struct progress {
    bool shown;
};

static void show_progress(void *ctx, const char *path, uint64_t done, uint64_t total)
{
    struct progress *p = ctx;
    struct sbx_buf name = SBX_BUF_INIT;
    sbx_sanitize(&name, path, strlen(path), SBX_SAN_ONE_LINE | SBX_SAN_ASCII, 50);
    fprintf(stderr, "\rsbxview: loading %s %3d%%", name.p ? name.p : "",
            total ? (int)(done * 100 / total) : 100);
    sbx_buf_free(&name);
    p->shown = true;
}

/* Colour only on a terminal that can take it, unless asked; NO_COLOR wins
 * over auto (https://no-color.org). */
static bool wants_colour(const char *mode, const char *output)
{
    if (strcmp(mode, "always") == 0)
        return true;
    if (strcmp(mode, "never") == 0 || (output && strcmp(output, "-") != 0))
        return false;
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
    return isatty(1) && !(no_color && *no_color) && term && *term && strcmp(term, "dumb") != 0;
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

static int run_summary(int argc, char **argv, struct sbx_cli_runs *r)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
        {"color", required_argument, NULL, 'C'},  {"colour", required_argument, NULL, 'C'},
        {"theme", required_argument, NULL, 'T'},  {"help", no_argument, NULL, 'h'},
        {"width", required_argument, NULL, 'w'},
        SBX_CLI_RUNS_LONGOPTS,                    SBX_CLI_QUIET_LONGOPT,
        {NULL, 0, NULL, 0},
    };
    enum sbx_summary_format fmt = SBX_SUMMARY_TEXT;
    const char *output = NULL;
    const char *color = "auto", *theme_name = "default";
    int c, width = 0;
    optind = 1;
    /* "-": inputs come back in place, so --as applies to those after it */
    while ((c = getopt_long(argc, argv, "-f:o:j:qh", longopts, NULL)) != -1) {
        int took = sbx_cli_runs_option(r, c, optarg);
        if (took < 0)
            return SBX_EXIT_USAGE;
        if (took)
            continue;
        switch (c) {
        case 'f':
            if (!sbx_summary_format_parse(optarg, &fmt)) {
                fprintf(stderr, "sbxview: unknown format (use text, markdown or json)\n");
                return SBX_EXIT_USAGE;
            }
            break;
        case 'o': output = optarg; break;
        case 'C':
            if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
                fprintf(stderr, "sbxview: --color wants auto, always or never\n");
                return SBX_EXIT_USAGE;
            }
            color = optarg;
            break;
        case 'T': theme_name = optarg; break;
        case 'w': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 20 || n > 1000) {
                fprintf(stderr, "sbxview: --width wants columns, from 20 to 1000\n");
                return SBX_EXIT_USAGE;
            }
            width = (int)n;
            break;
        }
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: sbx_usage(stderr); return SBX_EXIT_USAGE;
        }
    }
    if (!sbx_cli_runs_rest(r, argc, argv)) /* after "--" */
        return SBX_EXIT_USAGE;
    struct sbx_inputs *in = &r->in;
    if (!in->n) {
        fprintf(stderr, "sbxview: no input given (a file, a run folder, or - for stdin)\n");
        sbx_usage(stderr);
        return SBX_EXIT_USAGE;
    }
    if (!sbx_inputs_done(in))
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
        fprintf(stderr, "sbxview: analysing %zu events", tl.n);

    char err[256];
    struct sbx_summary sum;
    struct sbx_summary_opts sopts = {.threads = r->threads, .allow = r->allow, .unread = rep.unread,
                                     .nunread = rep.nunread, .skews = r->skews, .nskews = r->nskews};
    bool summarized = sbx_summarize(&tl, &sopts, &sum, err, sizeof err);
    if (analysing)
        fputs("\r\033[K", stderr); /* before the error: the line it clears is the one above */
    if (!summarized) {
        fprintf(stderr, "sbxview: %s\n", err);
        status = SBX_EXIT_USAGE;
        goto done;
    }
    struct sbx_summary_look look = {.ascii = fmt == SBX_SUMMARY_TEXT &&
                                             strcmp(nl_langinfo(CODESET), "UTF-8") != 0,
                                    .cols = summary_width(width, output)};
    struct sgr_table colours;
    if (fmt == SBX_SUMMARY_TEXT && wants_colour(color, output)) {
        struct sbx_theme theme;
        if (!sbx_pick_theme(theme_name, &theme)) {
            status = SBX_EXIT_USAGE;
            sbx_summary_free(&sum);
            goto done;
        }
        look.sgr = sgr_table_build(&colours, &theme);
    }
    struct sbx_buf out = SBX_BUF_INIT;
    if (!sbx_render_summary(&tl, &sum, fmt, &look, &out, err, sizeof err) ||
        (!sbx_is_s3_url(output) &&
         !sbx_write_output(output, out.p ? out.p : "", out.len, err, sizeof err))) {
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
    if (look.sgr)
        sgr_table_free(&colours);
    sbx_summary_free(&sum);
done:
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    return status;
}
