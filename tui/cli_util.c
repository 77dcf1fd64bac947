#include "tui/cli_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/sanitize.h"

#ifndef SBX_THEMEDIR
#define SBX_THEMEDIR "/usr/local/share/sbxview/themes"
#endif

void sbx_warn(const char *msg)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_sanitize(&b, msg, strlen(msg), SBX_SAN_ONE_LINE, 0);
    fprintf(stderr, "sbxview: %s\n", b.p ? b.p : "");
    sbx_buf_free(&b);
}

/* themes/ beside the running binary: a build that is not installed (the
 * binary at the top of a clone) finds the project's own themes. */
static bool beside_binary(char *dir, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", dir, n - 8);
    if (len <= 0)
        return false;
    dir[len] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash)
        return false;
    strcpy(slash, "/themes");
    return true;
}

bool sbx_pick_theme(const char *name, struct sbx_theme *t)
{
    char err[256], here[4096];
    if (sbx_theme_load(t, name, SBX_THEMEDIR, err, sizeof err))
        return true;
    if (strstr(err, "no theme") && beside_binary(here, sizeof here) &&
        sbx_theme_load(t, name, here, err, sizeof err))
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
    if (rep->nignored) {
        /* files in a run folder that no importer reads: say which, so nothing is lost quietly */
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_addf(&b, "not read (no format of this version matches): ");
        for (size_t i = 0; i < rep->nignored; i++)
            sbx_buf_addf(&b, "%s%s", i ? ", " : "", rep->ignored[i]);
        sbx_warn(b.p);
        sbx_buf_free(&b);
    }
}

bool sbx_parse_threads(const char *s, int *threads)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || end == s || n < 1 || n > 64) {
        fprintf(stderr, "sbxview: --threads wants a number from 1 to 64\n");
        return false;
    }
    *threads = (int)n;
    return true;
}
