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
#include "model/compare.h"
#include "model/summary.h"
#include "render/compare.h"
#include "tui/cli.h"
#include "tui/cli_util.h"
#include "tui/view_runs.h"

struct side {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    bool summarized;
};

/* Loads and summarises one run; false with the reason on stderr. */
static bool load_run(struct side *s, const char *path, const struct sbx_format *fmt, int threads,
                     const struct sbx_allowlist *allow, bool quiet)
{
    const struct sbx_format *fmts[1] = {fmt};
    struct sbx_load_opts lopts = {.threads = threads, .formats = fmts};
    struct sbx_load_report rep = {0};
    size_t loaded = sbx_load_paths(&s->tl, &path, 1, &lopts, &rep);
    if (!quiet || !loaded)
        sbx_warn_load_report(&rep);
    bool ok = loaded > 0;
    if (ok) {
        char err[256];
        struct sbx_summary_opts sopts = {.threads = threads, .allow = allow, .unread = rep.unread,
                                         .nunread = rep.nunread};
        s->summarized = sbx_summarize(&s->tl, &sopts, &s->sum, err, sizeof err);
        if (!s->summarized) {
            fprintf(stderr, "sbxview: %s\n", err);
            ok = false;
        }
    }
    sbx_load_report_free(&rep);
    return ok;
}

static int run_compare(int argc, char **argv, struct sbx_inputs *in, struct sbx_allowlist **allow)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
        {"threads", required_argument, NULL, 'j'}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},          {"as", required_argument, NULL, 'A'},
        {"allow-list", required_argument, NULL, 'W'}, {NULL, 0, NULL, 0},
    };
    enum sbx_summary_format fmt = SBX_SUMMARY_TEXT;
    bool fmt_given = false;
    const char *output = NULL;
    int threads = 0;
    bool quiet = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "-f:o:j:qh", longopts, NULL)) != -1) {
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
            if (!sbx_load_allow_list(optarg, allow))
                return SBX_EXIT_USAGE;
            break;
        case 'f':
            if (!sbx_summary_format_parse(optarg, &fmt)) {
                fprintf(stderr, "sbxview: unknown format (use text, markdown or json)\n");
                return SBX_EXIT_USAGE;
            }
            fmt_given = true;
            break;
        case 'o': output = optarg; break;
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
    if (in->n != 2) {
        fprintf(stderr, "sbxview: compare wants two runs (each a file or a run folder), not %zu\n",
                in->n);
        return SBX_EXIT_USAGE;
    }
    if (!sbx_inputs_done(in))
        return SBX_EXIT_USAGE;
    /* on a terminal, without a format or a file to write: the compare view */
    if (!fmt_given && !output && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
        struct sbx_screen_opts so = {.app = {.threads = threads,
                                             .ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0},
                                     .theme = "default", .mouse = true, .cols = 80, .rows = 24};
        return sbx_view_compare(&so, in->paths[0], in->formats[0], in->paths[1], in->formats[1],
                                *allow);
    }

    struct side side[2];
    for (int i = 0; i < 2; i++) {
        sbx_timeline_init(&side[i].tl);
        side[i].summarized = false;
    }
    int status = SBX_EXIT_USAGE;
    if (load_run(&side[0], in->paths[0], in->formats[0], threads, *allow, quiet) &&
        load_run(&side[1], in->paths[1], in->formats[1], threads, *allow, quiet)) {
        struct sbx_compare cmp;
        sbx_compare(&side[0].tl, &side[0].sum, &side[1].tl, &side[1].sum, &cmp);
        struct sbx_cmp_run a = {&side[0].tl, &side[0].sum, in->paths[0]},
                           b = {&side[1].tl, &side[1].sum, in->paths[1]};
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
    struct sbx_inputs in = {0};
    struct sbx_allowlist *allow = NULL;
    int status = run_compare(argc, argv, &in, &allow);
    sbx_inputs_free(&in);
    sbx_allowlist_free(allow);
    return status;
}
