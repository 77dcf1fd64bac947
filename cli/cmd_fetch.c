/* sbxview fetch runtime SANDBOX_ID... -o DIR: options and environment in,
 * progress and the list of saved files out. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/numfmt.h"
#include "importers/fetch/fetch_runtime.h"
#include "render/sanitize.h"
#include "cli/cli.h"
#include "cli/s3_fetch.h"
#include "cli/subcommands.h"
#include "cli/cli_util.h"

/* Set by SIGINT, SIGTERM or SIGHUP: the fetch stops and removes what it wrote.
 * A signal handler can reach nothing else. */
static _Atomic bool interrupted;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, true);
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

struct shown {
    bool line; /* a progress line is on the terminal */
};

static void show_progress(void *ctx, const struct sbx_fetch_progress *p)
{
    struct shown *s = ctx;
    /* ids are checked to be letters, digits, _ and -: nothing to sanitise */
    if (strcmp(p->record, "metrics") == 0)
        fprintf(stderr, "\r%s: fetching metrics of %s", sbx_msg_prog(), p->sandbox);
    else if (p->sandbox)
        fprintf(stderr, "\r%s: fetching %s of %s: page %u (%zu items)", sbx_msg_prog(), p->record,
                p->sandbox, p->page, p->items);
    else
        fprintf(stderr, "\r%s: fetching the audit log: page %u (%zu kept)", sbx_msg_prog(), p->page,
                p->items);
    if (p->wait_ms > 0) {
        char wait[SBX_NUM_BUFSZ];
        sbx_duration_text(sbx_ms_to_ns(p->wait_ms), SBX_DUR_WORDS, wait);
        if (p->status)
            fprintf(stderr, ", HTTP %ld: waiting %s", p->status, wait);
        else
            fprintf(stderr, ", connection cut: waiting %s", wait);
    }
    fputs("\033[K", stderr);
    s->line = true;
}

static void show_trace(void *ctx, const char *line, size_t len)
{
    (void)ctx;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_sanitize(&b, line, len, SBX_SAN_ONE_LINE | (sbx_msg_ascii() ? SBX_SAN_ASCII : 0), 0);
    fprintf(stderr, "%s\n", b.p ? b.p : "");
    sbx_buf_free(&b);
}

/* Seconds, fractions allowed, more than 0 and at most a day, as ms. */
static bool parse_seconds(const char *opt, const char *s, long *ms)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v <= 0 || v > 86400) {
        sbx_bad_value(opt, s, "seconds, more than 0 and at most 86400");
        return false;
    }
    *ms = (long)(v * 1000 + 0.5);
    if (*ms < 1)
        *ms = 1;
    return true;
}

static void print_saved(const char *dir, const struct sbx_fetch_report *rep)
{
    for (size_t i = 0; i < rep->nsaved; i++) {
        const struct sbx_fetch_saved *s = &rep->saved[i];
        struct sbx_buf path = SBX_BUF_INIT, safe = SBX_BUF_INIT;
        size_t dlen = strlen(dir);
        while (dlen > 1 && dir[dlen - 1] == '/')
            dlen--;
        sbx_buf_addf(&path, "%.*s/%s", (int)dlen, dir, s->name);
        sbx_sanitize(&safe, path.p, path.len, SBX_SAN_ONE_LINE, 0);
        printf("%s: %zu %s", safe.p, s->items, s->what);
        if (s->range[0])
            printf(" (range %s)", s->range);
        putchar('\n');
        sbx_buf_free(&path);
        sbx_buf_free(&safe);
    }
}

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, 'F'},
    {"deadline", required_argument, NULL, 'D'},
    {"timeout", required_argument, NULL, 'T'},
    {"connect-timeout", required_argument, NULL, 'C'},
    {"metrics-range", required_argument, NULL, 'R'},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_fetch_opts = {":o:vqh", longopts};

int sbx_cmd_fetch(int argc, char **argv)
{
    struct sbx_fetch_opts o = {0};
    const char *dir = NULL;
    bool verbose = false, quiet = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, sbx_fetch_opts.shorts, longopts, NULL)) != -1) {
        switch (c) {
        case 'o': dir = optarg; break;
        case 'F': o.force = true; break;
        case 'D':
            if (!parse_seconds("--deadline", optarg, &o.deadline_ms))
                return SBX_EXIT_USAGE;
            break;
        case 'T':
            if (!parse_seconds("--timeout", optarg, &o.timeout_ms))
                return SBX_EXIT_USAGE;
            break;
        case 'C':
            if (!parse_seconds("--connect-timeout", optarg, &o.connect_timeout_ms))
                return SBX_EXIT_USAGE;
            break;
        case 'R': o.metrics_range = optarg; break;
        case 'v': verbose = true; break;
        case 'q': quiet = true; break;
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    if (optind >= argc || strcmp(argv[optind], "runtime") != 0) {
        return sbx_usage_errorf("fetch what? (sbxview fetch runtime SANDBOX_ID... -o DIR)");
    }
    optind++;
    if (optind >= argc) {
        return sbx_usage_errorf("no sandbox id given");
    }
    if (!dir || !*dir) {
        return sbx_usage_errorf("-o DIR is needed: the run folder to save into");
    }
    for (int i = optind; i < argc; i++) {
        if (!sbx_fetch_valid_id(argv[i])) {
            sbx_errf("a sandbox id is 1 to 64 letters, digits, _ or -: "
                            "argument %d is not", i - optind + 1);
            return SBX_EXIT_USAGE;
        }
    }
    o.api_key = getenv("RUNTIME_API_KEY");
    if (!o.api_key || !*o.api_key) {
        sbx_errf("RUNTIME_API_KEY is not set: the fetch needs a Runtime API "
                        "key (it is sent only in the Authorization header)");
        return SBX_EXIT_USAGE;
    }
    const char *url = getenv("RUNTIME_API_URL");
    o.base_url = url && *url ? url : SBX_RUNTIME_API_DEFAULT;
    const char *ca = getenv("SBXVIEW_CA_FILE");
    if (ca && *ca) {
        if (access(ca, R_OK) != 0) {
            struct sbx_buf m = SBX_BUF_INIT;
            sbx_buf_addf(&m, "SBXVIEW_CA_FILE: cannot read %s", ca);
            sbx_warn(m.p);
            sbx_buf_free(&m);
            return SBX_EXIT_USAGE;
        }
        o.ca_file = ca;
    }
    struct shown shown = {false};
    if (verbose) {
        o.trace = show_trace;
    } else if (!quiet && isatty(2)) {
        o.progress = show_progress;
        o.progress_ctx = &shown;
    }

    o.cancel = &interrupted;
    catch_signals();
    /* -o s3://…: fetched whole into a temporary folder first, then written
     * to the store, so nothing is written there unless every record came */
    bool s3 = sbx_is_s3_url(dir);
    struct sbx_buf tmp = SBX_BUF_INIT, into = SBX_BUF_INIT;
    if (s3) {
        const char *tdir = getenv("TMPDIR");
        sbx_buf_addf(&tmp, "%s/sbxview-fetch-XXXXXX", tdir && *tdir == '/' ? tdir : "/tmp");
        if (!mkdtemp(tmp.p)) {
            sbx_errf("no temporary folder for the fetch");
            sbx_buf_free(&tmp);
            return SBX_EXIT_USAGE;
        }
        sbx_buf_addf(&into, "%s/run", tmp.p);
    } else {
        sbx_buf_adds(&into, dir);
    }
    struct sbx_fetch_report rep;
    char err[2048];
    bool ok = sbx_fetch_runtime((const char *const *)argv + optind, (size_t)(argc - optind), into.p,
                                &o, &rep, err, sizeof err), fetched = ok;
    if (shown.line)
        fputs("\r\033[K", stderr);
    if (!ok) {
        sbx_warn(err);
    } else if (s3) {
        const char **names = sbx_xcalloc(rep.nsaved ? rep.nsaved : 1, sizeof *names);
        for (size_t i = 0; i < rep.nsaved; i++)
            names[i] = rep.saved[i].name;
        ok = sbx_s3_upload(dir, into.p, names, rep.nsaved, o.force);
        free(names);
    }
    if (s3) { /* the temporary copy goes, written or not */
        for (size_t i = 0; fetched && i < rep.nsaved; i++) {
            struct sbx_buf f = SBX_BUF_INIT;
            sbx_buf_addf(&f, "%s/%s", into.p, rep.saved[i].name);
            unlink(f.p);
            sbx_buf_free(&f);
        }
        rmdir(into.p);
        rmdir(tmp.p);
    }
    if (!ok) {
        if (fetched)
            sbx_fetch_report_free(&rep);
        sbx_errf("nothing was saved");
        sbx_buf_free(&tmp);
        sbx_buf_free(&into);
        return SBX_EXIT_USAGE;
    }
    if (!quiet)
        print_saved(dir, &rep);
    sbx_fetch_report_free(&rep);
    sbx_buf_free(&tmp);
    sbx_buf_free(&into);
    return SBX_EXIT_OK;
}
