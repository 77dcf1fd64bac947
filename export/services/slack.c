/* Slack: a message through the incoming webhook in SLACK_WEBHOOK_URL,
 * slack: (nothing after the colon: the webhook's URL is a secret, kept out
 * of shell history and arguments). A webhook cannot be listed. */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "export/send_internal.h"
#include "export/service.h"
#include "export/services/target_rules.h"

static bool parse(const char *rest, struct sbx_target *t, char *err, size_t errsz)
{
    (void)t;
    if (*rest)
        return sbx_rule_fail(err, errsz, "slack: takes nothing after the colon: the webhook's "
                                         "URL is a secret, read from SLACK_WEBHOOK_URL");
    return true;
}

static void format(const struct sbx_target *t, struct sbx_buf *out)
{
    (void)t, (void)out;
}

static enum sbx_body_kind body_kind(int api)
{
    (void)api;
    return SBX_BODY_SLACK;
}

static bool request(const struct sbx_target *t, const struct sbx_send_env *env,
                    struct sbx_send_request *r, struct sbx_buf *u, char *err, size_t errsz)
{
    (void)t;
    const char *w = env->slack_webhook_url;
    if (!w) {
        sbx_send_errf(err, errsz, "SLACK_WEBHOOK_URL is not set: Slack needs an incoming webhook");
        return false;
    }
    if (strncasecmp(w, "https://", 8) != 0 || sbx_send_has_control(w)) {
        sbx_send_errf(err, errsz, "SLACK_WEBHOOK_URL must be an https:// URL");
        return false;
    }
    sbx_buf_adds(u, w);
    sbx_send_add_secret(r, w);
    /* the path is the secret, and its last part alone (a server may echo
     * either) */
    const char *path = w + 8 + strcspn(w + 8, "/?#");
    if (*path && strlen(path) > 1)
        sbx_send_add_secret(r, path);
    const char *last = strrchr(path, '/');
    if (last && strlen(last + 1) >= 8)
        sbx_send_add_secret(r, last + 1);
    struct sbx_buf shown = SBX_BUF_INIT;
    sbx_buf_adds(&shown, "https://");
    sbx_send_url_host(&shown, w);
    sbx_buf_adds(&shown, "/" SBX_SEND_MASK);
    r->url_shown = sbx_send_take(&shown);
    return true;
}

const struct sbx_service sbx_service_slack = {
    .name = "slack",
    .form = "slack:",
    .limit = SBX_LIMIT_SLACK,
    .parse = parse,
    .format = format,
    .body_kind = body_kind,
    .request = request,
    .secret_vars = "SLACK_WEBHOOK_URL",
    .settings = {
        {.var = "SLACK_WEBHOOK_URL", .field = offsetof(struct sbx_send_env, slack_webhook_url),
         .secret = true, .placeholder = "https://<SLACK_WEBHOOK_URL unset>"},
    },
    .replaces = true,
    .unlisted = "a Slack webhook's messages cannot be listed, so it is not sent again (look in "
                "the channel)",
};
