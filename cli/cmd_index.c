/* sbxview index FOLDER|s3://BUCKET/PREFIX/: writes the missing or stale
 * summary.json manifest of each run of a folder of runs (local or in the
 * store), each the run's `summary -f json`, so the runs list reads one small
 * file a run (importers/runs_manifest.h). A run whose manifest is current is
 * left as it is: a second index writes nothing. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "cli/msg.h"
#include "cli/s3_fetch.h"
#include "cli/s3_settings.h"
#include "cli/subcommands.h"
#include "importers/runs.h"
#include "importers/runs_manifest.h"
#include "render/sanitize.h"
#include "render/untrusted.h"

static const struct option longopts[] = {
    {"quiet", no_argument, NULL, 'q'},
    {"endpoint", required_argument, NULL, 'E'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_index_opts = {"qh", longopts};

/* One run's manifest written by `summary -f json -o DEST INPUT`, the
 * command a user would run (its review part and all; its warnings, -q
 * aside, say what it could not read). */
static bool write_manifest(const char *input, const char *dest, bool quiet)
{
    char *argv[] = {"summary", "-f", "json", "-o", (char *)dest, (char *)input, "-q", NULL};
    return sbx_cmd_summary(quiet ? 7 : 6, argv) == SBX_EXIT_OK;
}

static void say(bool quiet, size_t k, size_t n, const char *name, const char *what)
{
    if (quiet)
        return;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_untrusted_cstr(&b, name, SBX_SAN_ONE_LINE, 60);
    fprintf(stderr, "%s: [%zu/%zu] %s: %s\n", sbx_msg_prog(), k, n, b.p ? b.p : "", what);
    sbx_buf_free(&b);
}

int sbx_cmd_index(int argc, char **argv)
{
    bool quiet = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, sbx_index_opts.shorts, longopts, NULL)) != -1) {
        switch (c) {
        case 'q': quiet = true; break;
        case 'E': sbx_s3_endpoint_arg = optarg; break;
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    if (optind + 1 != argc)
        return sbx_usage_errorf("index takes one folder of runs (a folder or an s3:// prefix)");
    const char *where = argv[optind];
    bool s3 = sbx_is_s3_url(where);
    struct sbx_buf base = SBX_BUF_INIT; /* where each run's input and manifest are named */
    sbx_buf_adds(&base, where);
    if (s3 && base.len && base.p[base.len - 1] != '/')
        sbx_buf_addc(&base, '/');
    char *local = s3 ? sbx_s3_fetch(base.p, quiet, NULL) : strdup(where);
    struct sbx_runs runs;
    if (!local) {
        sbx_buf_free(&base);
        return SBX_EXIT_USAGE;
    }
    if (!sbx_runs_discover(local, &runs)) {
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_addf(&b, "%s: not a folder of runs (no subfolder holds a log)", where);
        sbx_warn(b.p);
        sbx_buf_free(&b);
        free(local);
        sbx_buf_free(&base);
        return SBX_EXIT_USAGE;
    }
    size_t written = 0, current = 0, failed = 0;
    for (size_t i = 0; i < runs.n; i++) {
        const struct sbx_run_row *row = &runs.rows[i];
        if (sbx_run_manifest_current(row->path)) {
            current++;
            say(quiet, i + 1, runs.n, row->name, "current");
            continue;
        }
        struct sbx_buf input = SBX_BUF_INIT, dest = SBX_BUF_INIT;
        if (s3)
            sbx_buf_addf(&input, "%s%s/", base.p, row->name);
        else
            sbx_buf_adds(&input, row->path);
        sbx_buf_addf(&dest, "%s%s%s", s3 ? base.p : row->path, s3 ? row->name : "",
                     s3 ? "/" SBX_RUN_MANIFEST_NAME : "/" SBX_RUN_MANIFEST_NAME);
        if (write_manifest(input.p, dest.p, quiet)) {
            written++;
            say(quiet, i + 1, runs.n, row->name, "written");
        } else {
            failed++;
            say(quiet, i + 1, runs.n, row->name, "failed");
        }
        sbx_buf_free(&input);
        sbx_buf_free(&dest);
    }
    fprintf(stderr, "%s: %zu run%s: %zu written, %zu current, %zu failed\n", sbx_msg_prog(),
            runs.n, runs.n == 1 ? "" : "s", written, current, failed);
    sbx_runs_free(&runs);
    free(local);
    sbx_buf_free(&base);
    return failed ? SBX_EXIT_FINDINGS : SBX_EXIT_OK;
}
