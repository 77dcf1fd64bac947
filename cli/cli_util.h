/* Helpers the sub-commands share (internal to cli/). */
#ifndef SBX_CLI_UTIL_H
#define SBX_CLI_UTIL_H

#include <stdbool.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/allowlist.h"
#include "analyses/summary.h"
#include "render/theme.h"
#include "cli/msg.h"

/* The theme called name, looked for in $XDG_CONFIG_HOME/sbxview/themes (or
 * ~/.config/sbxview/themes), the installed folder, then themes/ beside the
 * binary (a build that is not installed); or the built-in default with a
 * warning when the default theme file is bad (quietly when it is missing).
 * False when a named theme cannot load. */
bool sbx_pick_theme(const char *name, struct sbx_theme *t);
/* Whether the text summary is coloured. --color always or never decides;
 * auto (the default) colours nothing written to a file (-o), and then the
 * first that holds of: NO_COLOR set and non-empty (no colour); CLICOLOR_FORCE
 * set, non-empty and not "0" (colour, even into a pipe); standard output a
 * terminal whose TERM is set and not "dumb". The strings are the
 * environment's (NULL: unset). */
struct sbx_colour_env {
    const char *no_color, *clicolor_force, *term;
    bool tty; /* standard output is a terminal */
};
bool sbx_colour_wanted(const char *mode, bool to_file, const struct sbx_colour_env *env);

/* The load's errors and the files a folder held that nothing reads (a line
 * each, with the reason), on stderr. */
void sbx_warn_load_report(const struct sbx_load_report *rep);

/* The inputs of a command line in order, each with the format it is read as
 * (NULL: detected): --as FORMAT sets it for the inputs after it (--as auto
 * goes back to detecting), FORMAT:path for one input. The arrays point into
 * argv; free them with sbx_inputs_free. */
struct sbx_inputs {
    const char **paths;
    const struct sbx_format **formats;
    size_t n, cap;
    const struct sbx_format *as;
    const char *last_as; /* the last --as value, until an input follows it */
    const char **given; /* each input as given (an s3:// URL stays one), for an export's
                           "review again" line: the same on every machine */
    /* the name each input is known by in every output (importers/load.h's
     * names): NULL for a local one, the object's or the prefix's canonical
     * s3:// URL for one fetched into the cache (owned, in owned), so that
     * what names a run's files is the same on every machine */
    const char **names;
    char **owned; /* the cache paths s3:// inputs became, and their names (sbx_inputs_done) */
    size_t nowned;
    /* the review beside the first input when it is an s3:// run (owned;
     * NULL otherwise): where summary, check and export read it by default */
    char *s3_review;
};
/* --as's value; false with a message on stderr (the known names). */
bool sbx_inputs_as(struct sbx_inputs *in, const char *name);
/* One input argument; false with a message on stderr. */
bool sbx_inputs_add(struct sbx_inputs *in, const char *arg);
/* After the last argument: false with a message on stderr when an --as
 * has no input after it (it would apply to nothing), when an s3:// input
 * cannot be brought into the cache (cli/s3_fetch.h; the input becomes the
 * cache's path), or when an input does not exist (sbx_inputs_exist). */
bool sbx_inputs_done(struct sbx_inputs *in);
/* Input i, an s3:// URL, was fetched into local (taken): the input becomes
 * that path, as sbx_inputs_done makes it, named by its URL (names[i]). */
void sbx_inputs_fetched(struct sbx_inputs *in, size_t i, char *local);
/* Every input other than "-" and an s3:// URL (not fetched yet) exists
 * (stat follows links): false with a line
 * on stderr naming each one that does not and why, so that a mistyped path
 * stops the command before it reads anything or starts the interface. */
bool sbx_inputs_exist(const struct sbx_inputs *in);
void sbx_inputs_free(struct sbx_inputs *in);

/* Starts the full-screen terminal with the theme called theme (as
 * sbx_pick_theme), colour unless NO_COLOR is set, and the mouse if asked;
 * its size into *cols and *rows. False with the reason on stderr; on true
 * the caller ends it with sbx_term_end. */
bool sbx_screen_begin(const char *theme, bool mouse, int *cols, int *rows);

/* --allow-list FILE: the list, replacing *list (freed); false with the
 * file, line and reason on stderr. */
bool sbx_load_allow_list(const char *path, struct sbx_allowlist **list);
/* Parses -j's number (1-64); false with a message on stderr. */
bool sbx_parse_threads(const char *s, int *threads);

/* --skew SOURCE=DURATION: SOURCE non-empty, DURATION an optional sign, a
 * number (a fraction allowed) and a unit, ms, s, m, min or h (at most a
 * day); false with a message on stderr. g->source is a copy the caller
 * frees (sbx_cli_runs_free does for r->skews). */
bool sbx_parse_skew(const char *arg, struct sbx_skew_given *g);

/* What every command that reads runs takes from its command line: the
 * inputs (with --as), --allow-list, --skew, -j, --max-input and -q. Start it
 * zeroed; it owns in's arrays and allow: free them with sbx_cli_runs_free. */
struct sbx_cli_runs {
    struct sbx_inputs in;
    struct sbx_allowlist *allow;
    int threads; /* 0: the default */
    uint64_t max_input; /* --max-input: bytes a stream may hold; 0: the default */
    bool quiet;
    struct sbx_skew_given *skews; /* --skew, in order; each source owned */
    size_t nskews;
};
/* --max-input's getopt code (a long option only). */
enum { SBX_CLI_OPT_MAX_INPUT = 0x100, SBX_CLI_OPT_ENDPOINT = 0x101 };
/* The long options sbx_cli_runs_option takes, for a command's option
 * table (with "j:" in its optstring); --quiet ('q') is apart, as the
 * review has none. */
#define SBX_CLI_RUNS_LONGOPTS                                                                      \
    {"as", required_argument, NULL, 'A'}, {"allow-list", required_argument, NULL, 'W'},           \
        {"threads", required_argument, NULL, 'j'}, {"skew", required_argument, NULL, 'K'},          \
        {"max-input", required_argument, NULL, SBX_CLI_OPT_MAX_INPUT},                            \
        {"endpoint", required_argument, NULL, SBX_CLI_OPT_ENDPOINT}
#define SBX_CLI_QUIET_LONGOPT {"quiet", no_argument, NULL, 'q'}
/* One option from getopt_long (an optstring that starts with "-", so an
 * input comes back as 1 in order): 1 an input, 'A' --as, 'W' --allow-list,
 * 'K' --skew, 'j', SBX_CLI_OPT_MAX_INPUT, SBX_CLI_OPT_ENDPOINT (--endpoint, the
 * S3-compatible store of s3:// inputs and outputs) and 'q'. Returns 1 when it took c, 0 when c is another option, -1
 * when its value is bad (the message on stderr). */
int sbx_cli_runs_option(struct sbx_cli_runs *r, int c, const char *arg);
/* The inputs after "--" (argv[optind] on); false with a message on stderr. */
bool sbx_cli_runs_rest(struct sbx_cli_runs *r, int argc, char **argv);
void sbx_cli_runs_free(struct sbx_cli_runs *r);

/* What the importers take from the environment and r (importers/format.h):
 * RUNTIME_WEBHOOK_SECRET, Runtime's webhook secrets, comma-separated
 * (borrowed from the environment), and --max-input. */
struct sbx_import_opts sbx_cli_import_opts(const struct sbx_cli_runs *r);

/* A size in bytes: digits, then optionally K, M, G or T (powers of 1024,
 * "KiB", "MB" and the like read the same). False on anything else or 0. */
bool sbx_parse_bytes(const char *s, uint64_t *out);
/* The load options for r's inputs: -j, the formats --as chose, the names
 * of fetched inputs, and the import options above. */
struct sbx_load_opts sbx_cli_load_opts(const struct sbx_cli_runs *r);

/* Summarises tl with r's allow-list and threads, listing the files rep says
 * the load could not read; false with the reason on stderr. On true, *sum
 * is the caller's to free (sbx_summary_free). */
bool sbx_cli_summarize(struct sbx_timeline *tl, const struct sbx_cli_runs *r,
                       const struct sbx_load_report *rep, struct sbx_summary *sum);

#endif
