/* sbxview compare: two runs side by side, as text, markdown or json.
 * Exit 0 the same, 1 different, 2 could not compare. */
#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/output.h"
#include "importers/load.h"
#include "analyses/compare/compare.h"
#include "analyses/summary.h"
#include "render/compare/compare.h"
#include "cli/cli.h"
#include "cli/subcommands.h"
#include "cli/cli_util.h"
#include "cli/view_runs.h"

struct side {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    bool summarized;
};

/* Loads and summarises one run; false with the reason on stderr. */
static bool load_run(struct side *s, const struct sbx_cli_runs *r, size_t i)
{
    const struct sbx_format *fmts[1] = {r->in.formats[i]};
    struct sbx_load_opts lopts = sbx_cli_load_opts(r);
    const char *names[1] = {r->in.names[i]};
    lopts.formats = fmts; /* this one run's */
    lopts.names = names;
    struct sbx_load_report rep = {0};
    size_t loaded = sbx_load_paths(&s->tl, &r->in.paths[i], 1, &lopts, &rep);
    if (!r->quiet || !loaded)
        sbx_warn_load_report(&rep);
    s->summarized = loaded && sbx_cli_summarize(&s->tl, r, &rep, &s->sum);
    sbx_load_report_free(&rep);
    return s->summarized;
}

static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},         SBX_CLI_RUNS_LONGOPTS,
    SBX_CLI_QUIET_LONGOPT,                    {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_compare_opts = {"-:f:o:j:qh", longopts};

static int run_compare(int argc, char **argv, struct sbx_cli_runs *r)
{
    enum sbx_summary_format fmt = SBX_SUMMARY_TEXT;
    bool fmt_given = false;
    const char *output = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, sbx_compare_opts.shorts, longopts, NULL)) != -1) {
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
            fmt_given = true;
            break;
        case 'o': output = optarg; break;
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    if (!sbx_cli_runs_rest(r, argc, argv)) /* after "--" */
        return SBX_EXIT_USAGE;
    struct sbx_inputs *in = &r->in;
    if (in->n != 2) {
        return sbx_usage_errorf("compare wants two runs (each a file or a run folder), not %zu",
                                in->n);
    }
    if (!sbx_inputs_done(in))
        return SBX_EXIT_USAGE;
    /* on a terminal, without a format or a file to write: the compare view */
    if (!fmt_given && !output && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
        struct sbx_screen_opts so = {.app = {.threads = r->threads,
                                             .ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0,
                                             .import = sbx_cli_import_opts(r),
                                             .skews = r->skews, .nskews = r->nskews},
                                     .theme = "default", .mouse = true, .cols = 80, .rows = 24};
        return sbx_view_compare(&so, in->paths[0], in->names[0], in->formats[0], in->paths[1],
                                in->names[1], in->formats[1], r->allow);
    }

    struct side side[2];
    for (int i = 0; i < 2; i++) {
        sbx_timeline_init(&side[i].tl);
        side[i].summarized = false;
    }
    int status = SBX_EXIT_USAGE;
    if (load_run(&side[0], r, 0) && load_run(&side[1], r, 1)) {
        struct sbx_compare cmp;
        sbx_compare(&side[0].tl, &side[0].sum, &side[1].tl, &side[1].sum, &cmp);
        /* a run fetched from the store is named by its URL */
        struct sbx_cmp_run a = {&side[0].tl, &side[0].sum, in->names[0] ? in->names[0] : in->paths[0]},
                           b = {&side[1].tl, &side[1].sum, in->names[1] ? in->names[1] : in->paths[1]};
        bool ascii = fmt == SBX_SUMMARY_TEXT && strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
        struct sbx_buf out = SBX_BUF_INIT;
        char err[256];
        if (!sbx_render_compare(&a, &b, &cmp, fmt, ascii, &out, err, sizeof err) ||
            !sbx_write_output(output, out.p ? out.p : "", out.len, err, sizeof err))
            sbx_warn(err);
        else
            status = sbx_compare_same(&cmp) ? SBX_EXIT_OK : SBX_EXIT_FINDINGS;
        sbx_buf_free(&out);
        sbx_compare_free(&cmp);
    }
    for (int i = 0; i < 2; i++) {
        if (side[i].summarized)
            sbx_summary_free(&side[i].sum);
        sbx_timeline_free(&side[i].tl);
    }
    return status;
}

int sbx_cmd_compare(int argc, char **argv)
{
    struct sbx_cli_runs r = {0};
    int status = run_compare(argc, argv, &r);
    sbx_cli_runs_free(&r);
    return status;
}
