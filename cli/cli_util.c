#include "cli/cli_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/selfpath.h"
#include "cli/review_cli.h"
#include "cli/s3_fetch.h"
#include "cli/s3_settings.h"
#include "importers/formatarg.h"
#include "render/sanitize.h"
#include "render/untrusted.h"
#include "tui/term.h"

#ifndef SBX_THEMEDIR
#define SBX_THEMEDIR "/usr/local/share/sbxview/themes"
#endif

bool sbx_pick_theme(const char *name, struct sbx_theme *t)
{
    char err[256], exe[4096], installed[4096], tree[4096];
    struct sbx_buf user = SBX_BUF_INIT;
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        sbx_buf_addf(&user, "%s/sbxview/themes", xdg);
    else if (home && *home)
        sbx_buf_addf(&user, "%s/.config/sbxview/themes", home);
    /* The prefix the binary sits in (make install PREFIX=... moved it
     * there), then the prefix it was built for, then themes/ beside a
     * binary that was not installed (the top of a clone). */
    bool self = sbx_self_exe(exe, sizeof exe);
    const char *dirs[] = {
        user.p,
        self && sbx_path_beside(exe, "../share/sbxview/themes", installed, sizeof installed) ? installed : NULL,
        SBX_THEMEDIR,
        self && sbx_path_beside(exe, "themes", tree, sizeof tree) ? tree : NULL,
    };
    bool ok = sbx_theme_load(t, name, dirs, sizeof dirs / sizeof *dirs, err, sizeof err);
    sbx_buf_free(&user);
    if (ok)
        return true;
    bool is_default = strcmp(name, "default") == 0;
    if (!is_default || !strstr(err, "no theme"))
        sbx_warn(err);
    sbx_theme_default(t);
    return is_default;
}

void sbx_warn_load_report(const struct sbx_load_report *rep)
{
    for (size_t i = 0; i < rep->nerrors; i++)
        sbx_warn(rep->errors[i]);
    /* files in a run folder that nothing reads: say which and why, so nothing is lost quietly */
    for (size_t i = 0; i < rep->nunread; i++) {
        if (!rep->unread[i].in_folder)
            continue; /* named inputs are among the errors */
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_addf(&b, "%s: not read: %s", rep->unread[i].path, rep->unread[i].reason);
        sbx_warn(b.p);
        sbx_buf_free(&b);
    }
}

bool sbx_colour_wanted(const char *mode, bool to_file, const struct sbx_colour_env *env)
{
    if (strcmp(mode, "always") == 0)
        return true;
    if (strcmp(mode, "never") == 0 || to_file)
        return false;
    if (env->no_color && *env->no_color) /* https://no-color.org: it wins over auto */
        return false;
    const char *force = env->clicolor_force;
    if (force && *force && strcmp(force, "0") != 0)
        return true;
    return env->tty && env->term && *env->term && strcmp(env->term, "dumb") != 0;
}

bool sbx_screen_begin(const char *theme, bool mouse, int *cols, int *rows)
{
    struct sbx_theme t;
    if (!sbx_pick_theme(theme, &t))
        return false;
    const char *no_color = getenv("NO_COLOR");
    struct sbx_term_opts topts = {.theme = &t, .colour = !(no_color && *no_color), .mouse = mouse};
    char err[256];
    if (!sbx_term_begin(&topts, err, sizeof err)) {
        sbx_errf("%s", err);
        return false;
    }
    sbx_term_size(cols, rows);
    return true;
}

bool sbx_inputs_as(struct sbx_inputs *in, const char *name)
{
    char err[512];
    if (sbx_format_arg(name, &in->as, err, sizeof err)) {
        in->last_as = name;
        return true;
    }
    sbx_errf("--as: %s", err);
    return false;
}

bool sbx_inputs_add(struct sbx_inputs *in, const char *arg)
{
    char err[1024];
    bool named = false;
    const struct sbx_format *fmt = NULL;
    const char *path = arg;
    if (!sbx_is_s3_url(arg) && !sbx_input_arg(arg, &named, &fmt, &path, err, sizeof err)) {
        sbx_errf("%s", err);
        return false;
    }
    if (in->n == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 8;
        in->paths = sbx_xrealloc(in->paths, in->cap * sizeof *in->paths);
        in->formats = sbx_xrealloc(in->formats, in->cap * sizeof *in->formats);
        in->given = sbx_xrealloc(in->given, in->cap * sizeof *in->given);
        in->names = sbx_xrealloc(in->names, in->cap * sizeof *in->names);
    }
    in->names[in->n] = NULL;
    in->given[in->n] = path;
    in->paths[in->n] = path;
    in->formats[in->n++] = named ? fmt : in->as;
    in->last_as = NULL;
    return true;
}

bool sbx_inputs_done(struct sbx_inputs *in)
{
    if (in->last_as) { /* names a known format: safe to print */
        sbx_errf("--as %s is for the inputs after it, and none follows",
                in->last_as);
        return false;
    }
    for (size_t i = 0; i < in->n; i++) {
        if (!sbx_is_s3_url(in->paths[i]))
            continue;
        char *local = sbx_s3_fetch(in->paths[i], false, NULL);
        if (!local)
            return false;
        sbx_inputs_fetched(in, i, local);
    }
    return sbx_inputs_exist(in);
}

void sbx_inputs_fetched(struct sbx_inputs *in, size_t i, char *local)
{
    struct stat st;
    bool folder = stat(local, &st) == 0 && S_ISDIR(st.st_mode);
    char *name = sbx_s3_source_name(in->paths[i], folder);
    in->owned = sbx_xrealloc(in->owned, (in->nowned + 2) * sizeof *in->owned);
    in->owned[in->nowned++] = local;
    in->owned[in->nowned++] = name;
    if (i == 0)
        in->s3_review = sbx_review_s3_beside(in->paths[i], folder);
    in->paths[i] = local;
    in->names[i] = name;
}

bool sbx_inputs_exist(const struct sbx_inputs *in)
{
    size_t missing = 0;
    for (size_t i = 0; i < in->n; i++) {
        struct stat st;
        if (strcmp(in->paths[i], "-") == 0 || sbx_is_s3_url(in->paths[i]) ||
            stat(in->paths[i], &st) == 0)
            continue; /* an s3:// input not fetched yet: its fetch says what is wrong */
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_addf(&b, "%s: %s", in->paths[i], strerror(errno));
        sbx_warn(b.p); /* sanitised: the path is the user's, perhaps pasted from a log */
        sbx_buf_free(&b);
        missing++;
    }
    if (missing)
        sbx_errf("nothing was read: check the path%s above", missing > 1 ? "s" : "");
    return !missing;
}

void sbx_inputs_free(struct sbx_inputs *in)
{
    for (size_t i = 0; i < in->nowned; i++)
        free(in->owned[i]);
    free(in->owned);
    free(in->s3_review);
    free(in->paths);
    free(in->given);
    free(in->names);
    free(in->formats);
    memset(in, 0, sizeof *in);
}

bool sbx_load_allow_list(const char *path, struct sbx_allowlist **list)
{
    char err[512];
    struct sbx_allowlist *a = sbx_allowlist_load(path, err, sizeof err);
    if (!a) {
        char msg[600];
        snprintf(msg, sizeof msg, "--allow-list: %s", err);
        sbx_warn(msg); /* sanitised: it quotes the path */
        return false;
    }
    sbx_allowlist_free(*list);
    *list = a;
    return true;
}

bool sbx_parse_threads(const char *s, int *threads)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || end == s || n < 1 || n > 64) {
        sbx_bad_value("--threads", s, "a number from 1 to 64");
        return false;
    }
    *threads = (int)n;
    return true;
}

bool sbx_parse_skew(const char *arg, struct sbx_skew_given *g)
{
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"ms", 1e6}, {"s", 1e9}, {"min", 60e9}, {"m", 60e9}, {"h", 3600e9}};
    const char *eq = strrchr(arg, '=');
    char *end = NULL;
    double v = eq && eq > arg ? strtod(eq + 1, &end) : 0;
    bool number = end && end != eq + 1 && (eq[1] == '+' || eq[1] == '-' || (eq[1] >= '0' && eq[1] <= '9'));
    for (size_t i = 0; number && i < sizeof units / sizeof *units; i++) {
        double ns = v * units[i].ns;
        if (strcmp(end, units[i].unit) == 0 && ns >= -86400e9 && ns <= 86400e9) {
            g->source = sbx_xstrndup(arg, (size_t)(eq - arg));
            g->ns = (int64_t)(ns < 0 ? ns - 0.5 : ns + 0.5);
            return true;
        }
    }
    sbx_bad_value("--skew", arg, "SOURCE=OFFSET, OFFSET like +45s, -90s, 2.5s, 800ms, -3m or 1h "
                                 "(at most a day), SOURCE a file name or a format name");
    return false;
}

static bool add_skew(struct sbx_cli_runs *r, const char *arg)
{
    struct sbx_skew_given g;
    if (!sbx_parse_skew(arg, &g))
        return false;
    r->skews = sbx_xrealloc(r->skews, (r->nskews + 1) * sizeof *r->skews);
    r->skews[r->nskews++] = g;
    return true;
}

bool sbx_parse_bytes(const char *s, uint64_t *out)
{
    char *end;
    if (!(*s >= '0' && *s <= '9'))
        return false;
    errno = 0;
    unsigned long long n = strtoull(s, &end, 10);
    if (errno || n == 0)
        return false;
    static const char units[] = "KMGT";
    const char *u = *end ? strchr(units, *end & ~0x20) : NULL;
    int shift = 0;
    if (u && *u) {
        shift = 10 * (int)(u - units + 1);
        end++;
        if ((*end | 0x20) == 'i')
            end++;
        if ((*end | 0x20) == 'b')
            end++;
    } else if ((*end | 0x20) == 'b') {
        end++;
    }
    if (*end || (shift && n > (UINT64_MAX >> shift)))
        return false;
    *out = (uint64_t)n << shift;
    return true;
}

int sbx_cli_runs_option(struct sbx_cli_runs *r, int c, const char *arg)
{
    bool ok;
    switch (c) {
    case 'K': ok = add_skew(r, arg); break;
    case SBX_CLI_OPT_MAX_INPUT:
        ok = sbx_parse_bytes(arg, &r->max_input);
        if (!ok)
            sbx_bad_value("--max-input", arg, "a size: bytes, or a number with K, M, G or T");
        break;
    case 1: ok = sbx_inputs_add(&r->in, arg); break;
    case 'A': ok = sbx_inputs_as(&r->in, arg); break;
    case 'W': ok = sbx_load_allow_list(arg, &r->allow); break;
    case 'j': ok = sbx_parse_threads(arg, &r->threads); break;
    case 'q': r->quiet = ok = true; break;
    case SBX_CLI_OPT_ENDPOINT: sbx_s3_endpoint_arg = arg, ok = true; break;
    default: return 0;
    }
    return ok ? 1 : -1;
}

bool sbx_cli_runs_rest(struct sbx_cli_runs *r, int argc, char **argv)
{
    for (; optind < argc; optind++)
        if (!sbx_inputs_add(&r->in, argv[optind]))
            return false;
    return true;
}

void sbx_cli_runs_free(struct sbx_cli_runs *r)
{
    sbx_inputs_free(&r->in);
    sbx_allowlist_free(r->allow);
    r->allow = NULL;
    for (size_t i = 0; i < r->nskews; i++)
        free((char *)r->skews[i].source);
    free(r->skews);
    r->skews = NULL;
    r->nskews = 0;
}

struct sbx_import_opts sbx_cli_import_opts(const struct sbx_cli_runs *r)
{
    return (struct sbx_import_opts){.webhook_secrets = getenv("RUNTIME_WEBHOOK_SECRET"),
                                    .max_input = r->max_input};
}

struct sbx_load_opts sbx_cli_load_opts(const struct sbx_cli_runs *r)
{
    return (struct sbx_load_opts){.threads = r->threads, .formats = r->in.formats,
                                  .names = r->in.names, .import = sbx_cli_import_opts(r)};
}

bool sbx_cli_summarize(struct sbx_timeline *tl, const struct sbx_cli_runs *r,
                       const struct sbx_load_report *rep, struct sbx_summary *sum)
{
    char err[256];
    struct sbx_summary_opts so = {.threads = r->threads, .allow = r->allow,
                                  .unread = rep->unread, .nunread = rep->nunread,
                                  .skews = r->skews, .nskews = r->nskews};
    if (sbx_summarize(tl, &so, sum, err, sizeof err))
        return true;
    sbx_warn(err);
    return false;
}
