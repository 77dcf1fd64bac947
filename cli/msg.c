#include "cli/msg.h"

#include <langinfo.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>

#include "base/asciifold.h"
#include "render/sanitize.h"
#include "render/untrusted.h"
#include "cli/subcommands.h"

static char prog[64] = "sbxview";

void sbx_msg_set_command(const char *name)
{
    snprintf(prog, sizeof prog, name ? "sbxview %s" : "sbxview", name);
}

const char *sbx_msg_prog(void)
{
    return prog;
}

bool sbx_msg_ascii(void)
{
    return strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
}

void sbx_msg_text(struct sbx_buf *out, const char *msg)
{
    bool ascii = sbx_msg_ascii();
    struct sbx_buf folded = SBX_BUF_INIT;
    if (ascii)
        sbx_ascii_fold(&folded, msg, strlen(msg));
    /* paths and reasons quote logs: redacted and sanitised like any log text */
    sbx_untrusted_cstr(out, ascii ? (folded.p ? folded.p : "") : msg,
                       SBX_SAN_ONE_LINE | (ascii ? SBX_SAN_ASCII : 0), 0);
    sbx_buf_free(&folded);
}

/* the lines held while the interface has the terminal */
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static bool holding;
static struct sbx_buf held = SBX_BUF_INIT;

void sbx_warn(const char *msg)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_msg_text(&b, msg);
    pthread_mutex_lock(&held_lock);
    if (holding)
        sbx_buf_addf(&held, "%s: %s\n", prog, b.p ? b.p : "");
    else
        fprintf(stderr, "%s: %s\n", prog, b.p ? b.p : "");
    pthread_mutex_unlock(&held_lock);
    sbx_buf_free(&b);
}

void sbx_msg_hold(bool hold)
{
    pthread_mutex_lock(&held_lock);
    holding = hold;
    if (!hold && held.len) {
        fputs(held.p, stderr);
        sbx_buf_free(&held);
    }
    pthread_mutex_unlock(&held_lock);
}

static void vwarn(const char *fmt, va_list ap)
{
    struct sbx_buf m = SBX_BUF_INIT;
    sbx_buf_vaddf(&m, fmt, ap);
    sbx_warn(m.p ? m.p : "");
    sbx_buf_free(&m);
}

void sbx_errf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

static int try_help(void)
{
    fputs("Try 'sbxview --help' for more information.\n", stderr);
    return 2;
}

int sbx_usage_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
    return try_help();
}

int sbx_bad_value(const char *what, const char *value, const char *expected)
{
    sbx_errf("invalid %s '%s' (expected %s)", what, value, expected);
    return try_help();
}

/* How many long options start with the name in arg ("--na" of "--name=v"),
 * and the one that matches it exactly or alone (NULL: none). */
static const struct option *find_long(const char *arg, const struct option *longopts, size_t *nmatch)
{
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    const struct option *one = NULL;
    *nmatch = 0;
    for (const struct option *o = longopts; o && o->name; o++) {
        if (strncmp(o->name, name, len) != 0)
            continue;
        if (strlen(o->name) == len) {
            *nmatch = 1;
            return o;
        }
        if (!one || one->flag != o->flag || one->val != o->val) /* two spellings of one option count once */
            (*nmatch)++;
        one = one ? one : o;
    }
    return *nmatch == 1 ? one : NULL;
}

int sbx_bad_option(int c, char **argv, const struct option *longopts)
{
    /* after a long option getopt has moved past it; a short one may sit
     * inside a cluster (-qx), so optopt tells which it was */
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    size_t n = 0, namelen = strcspn(arg, "=");
    const struct option *o = NULL;
    if (strncmp(arg, "--", 2) == 0 && arg[2])
        o = find_long(arg, longopts, &n);
    bool is_long = strncmp(arg, "--", 2) == 0 && arg[2] &&
                   (c == ':' || optopt == 0 || (o && o->val == optopt));
    if (!is_long && c == ':')
        sbx_errf("option requires an argument -- '%c'", optopt);
    else if (!is_long)
        sbx_errf("invalid option -- '%c'", optopt);
    else if (c == ':' && o)
        sbx_errf("option '--%s' requires an argument", o->name);
    else if (c == ':')
        sbx_errf("option '%.*s' requires an argument", (int)namelen, arg);
    else if (n > 1)
        sbx_errf("option '%.*s' is ambiguous", (int)namelen, arg);
    else if (o && o->has_arg == no_argument && arg[namelen] == '=')
        sbx_errf("option '--%s' doesn't allow an argument", o->name);
    else
        sbx_errf("unrecognized option '%s'", arg);
    return try_help();
}

void sbx_short_usage(FILE *to)
{
    fputs("Usage: sbxview [OPTIONS] FILE|FOLDER|RUNS_FOLDER|- ...\n"
          "       sbxview ",
          to);
    for (size_t i = 0; i < sbx_nsubcommands; i++)
        fprintf(to, "%s%s", i ? "|" : "", sbx_subcommands[i].name);
    fputs(" [OPTIONS] ...\n"
          "Try 'sbxview --help' for more information.\n",
          to);
}
