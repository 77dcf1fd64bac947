/* sbxview runs --from FILE: the runs list of the runs a file names, one a
 * line (a run folder, a log, or an s3:// URL; blank lines and lines that
 * start with '#' skipped) — a list a fleet query made (docs/fleet.md). */
#include <getopt.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/keys.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "cli/export_send.h"
#include "cli/msg.h"
#include "cli/s3_fetch.h"
#include "cli/subcommands.h"
#include "cli/view_runs.h"

#define LINE_MAX_LEN 4096

/* The runs of file into *runs; false with the reason(s) on stderr. */
static bool runs_from_file(const char *file, struct sbx_runs *runs)
{
    FILE *fp = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
    if (!fp) {
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_addf(&b, "%s: cannot be read", file);
        sbx_warn(b.p);
        sbx_buf_free(&b);
        return false;
    }
    sbx_runs_init(runs, file);
    char line[LINE_MAX_LEN];
    bool ok = true;
    unsigned no = 0;
    while (fgets(line, sizeof line, fp)) {
        no++;
        size_t n = strlen(line);
        bool whole = n && line[n - 1] == '\n';
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' ||
                     line[n - 1] == '\t'))
            line[--n] = '\0';
        char *l = line + strspn(line, " \t");
        if (!whole && !feof(fp)) {
            sbx_errf("%s:%u: a line over %d bytes", file, no, LINE_MAX_LEN);
            ok = false;
            break;
        }
        if (!*l || *l == '#')
            continue;
        char *local = sbx_is_s3_url(l) ? sbx_s3_fetch(l, false, NULL) : strdup(l);
        struct stat st;
        if (!local || stat(local, &st) != 0) {
            if (local) {
                struct sbx_buf b = SBX_BUF_INIT;
                sbx_buf_addf(&b, "%s:%u: %s: no such run", file, no, l);
                sbx_warn(b.p);
                sbx_buf_free(&b);
            }
            free(local);
            ok = false;
            continue;
        }
        sbx_runs_add(runs, l, local);
        if (sbx_is_s3_url(l)) { /* its files named by URL, not by the cache */
            char *name = sbx_s3_source_name(l, S_ISDIR(st.st_mode));
            sbx_runs_set_source(runs, runs->n - 1, name);
            free(name);
        }
        free(local);
    }
    if (fp != stdin)
        fclose(fp);
    if (ok && !runs->n) {
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_addf(&b, "%s: names no run", file);
        sbx_warn(b.p);
        sbx_buf_free(&b);
        ok = false;
    }
    if (!ok)
        sbx_runs_free(runs);
    return ok;
}

static const struct option longopts[] = {
    {"from", required_argument, NULL, 'f'},  {"theme", required_argument, NULL, 'T'},
    {"no-mouse", no_argument, NULL, 'M'},    {"dump", no_argument, NULL, 'D'},
    {"size", required_argument, NULL, 'z'},  {"keys", required_argument, NULL, 'k'},
    {"help", no_argument, NULL, 'h'},        SBX_CLI_RUNS_LONGOPTS,
    {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_runs_opts = {"-:j:h", longopts};

static int run_runs(int argc, char **argv, struct sbx_cli_runs *r)
{
    struct sbx_screen_opts so = {.theme = "default", .mouse = true, .cols = 80, .rows = 24};
    so.app.ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
    const char *from = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, sbx_runs_opts.shorts, longopts, NULL)) != -1) {
        if (c == 1)
            return sbx_usage_errorf("the runs come from --from FILE, not the command line");
        int took = sbx_cli_runs_option(r, c, optarg);
        if (took < 0)
            return SBX_EXIT_USAGE;
        if (took)
            continue;
        switch (c) {
        case 'f': from = optarg; break;
        case 'T': so.theme = optarg; break;
        case 'M': so.mouse = false; break;
        case 'D': so.dump = true; break;
        case 'z':
            if (!sbx_parse_size(optarg, &so.cols, &so.rows))
                return sbx_bad_value("--size", optarg, "COLSxROWS, like 80x24");
            break;
        case 'k': so.keys = optarg; break;
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    if (!from)
        return sbx_usage_errorf("--from FILE is needed: the file that names the runs");
    /* --dump draws no colour, but a theme that cannot load is an error there too */
    struct sbx_theme theme;
    if (!sbx_pick_theme(so.theme, &theme))
        return SBX_EXIT_USAGE;
    struct sbx_runs runs;
    if (!runs_from_file(from, &runs))
        return SBX_EXIT_USAGE;
    so.app.threads = r->threads;
    struct sbx_import_opts import = sbx_cli_import_opts(r);
    so.app.import = import;
    so.app.exports = true;
    struct sbx_send_env services;
    sbx_export_settings(&services);
    so.app.services = &services;
    int status = sbx_view_runs(&so, &runs, r->allow);
    sbx_runs_free(&runs);
    return status;
}

int sbx_cmd_runs(int argc, char **argv)
{
    struct sbx_cli_runs r = {0};
    int status = run_runs(argc, argv, &r);
    sbx_cli_runs_free(&r);
    return status;
}
