#include "cli/export_send.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/send.h"
#include "cli/cli.h"
#include "cli/cli_util.h"

static _Atomic bool interrupted;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, true);
}

static void progress(void *ctx, const char *line)
{
    (void)ctx;
    sbx_warn(line);
}

static const char *from_environment(void *ctx, const char *var)
{
    (void)ctx;
    return getenv(var);
}

void sbx_export_settings(struct sbx_send_env *env)
{
    sbx_send_settings_fill(env, from_environment, NULL);
}

int sbx_export_send(const struct sbx_export_send_args *a)
{
    struct sbx_send_env env = *a->settings;
    char name[160], err[600];
    if (!sbx_target_format(a->target, name, sizeof name))
        snprintf(name, sizeof name, "%s:", sbx_target_kind_name(a->target->kind));
    if (a->dry_run) {
        /* a dry run needs no credentials: a missing one prints as masked */
        const char *unset[4];
        size_t n = sbx_send_placeholders(a->target, &env, unset, 4);
        for (size_t i = 0; i < n; i++)
            sbx_errf("%s is not set: a real export would stop here", unset[i]);
        struct sbx_send_request r;
        if (!sbx_send_build(a->target, &env, a->body, a->len, a->digest, &r, err, sizeof err)) {
            sbx_warn(err);
            return SBX_EXIT_USAGE;
        }
        sbx_send_print(stdout, &r);
        sbx_send_request_free(&r);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            snprintf(err, sizeof err, "standard output: %s", strerror(errno ? errno : EIO));
            sbx_warn(err);
            return SBX_EXIT_USAGE;
        }
        return SBX_EXIT_OK;
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    struct sbx_send_opts o = {
        .timeout_ms = a->timeout_ms,
        .wait_max_ms = a->wait_ms,
        .repost = a->repost,
        .cancel = &interrupted,
        .progress = a->quiet ? NULL : progress,
        .review_marker = a->review_marker,
        .kept_comment = a->kept_comment,
        .kept_body = a->kept_body,
    };
    struct sbx_send_result res;
    bool ok = sbx_send_post(a->target, &env, a->body, a->len, a->digest, &o, &res);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (res.url)
        printf("%s\n", res.url);
    if (!ok) {
        struct sbx_buf m = SBX_BUF_INIT;
        sbx_buf_addf(&m, "export to %s: %s", name, res.message);
        sbx_warn(m.p);
        sbx_buf_free(&m);
    } else if (!a->quiet) {
        struct sbx_buf m = SBX_BUF_INIT;
        if (res.status == SBX_SEND_EXISTED)
            sbx_buf_addf(&m, "%s: %s: not posted again", name, res.message);
        else if (res.status == SBX_SEND_EDITED)
            sbx_buf_addf(&m, "%s: %s", name, res.message);
        else
            sbx_buf_addf(&m, "posted to %s", name);
        sbx_warn(m.p);
        sbx_buf_free(&m);
    }
    if (a->result)
        *a->result = res; /* the caller's to free */
    else
        sbx_send_result_free(&res);
    return ok ? SBX_EXIT_OK : SBX_EXIT_USAGE;
}
