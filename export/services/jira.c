/* Jira: a comment on an issue, jira:KEY-123, by REST v3 (an Atlassian
 * Document Format body) or v2 (plain text).
 * developer.atlassian.com/cloud/jira/platform/rest/v3/api-group-issue-comments/ */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "export/send_internal.h"
#include "export/service.h"
#include "export/services/target_rules.h"

static bool parse(const char *s, struct sbx_target *t, char *err, size_t errsz)
{
    static const char rule[] = "a Jira target is jira:KEY-123 (the project key in capitals: a "
                               "letter, then letters, digits or '_'; then '-' and the number)";
    const char *dash = strrchr(s, '-');
    uint32_t n;
    if (!dash || dash == s || dash - s > 255 || !sbx_rule_number(dash + 1, strlen(dash + 1), &n) ||
        !(s[0] >= 'A' && s[0] <= 'Z'))
        return sbx_rule_fail(err, errsz, rule);
    for (const char *p = s; p < dash; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return sbx_rule_fail(err, errsz, rule);
    t->key = sbx_xstrndup(s, strlen(s));
    t->number = n;
    return true;
}

static void format(const struct sbx_target *t, struct sbx_buf *out)
{
    sbx_buf_adds(out, t->key);
}

static enum sbx_body_kind body_kind(int api)
{
    return api == 2 ? SBX_BODY_JIRA_TEXT : SBX_BODY_JIRA_ADF;
}

/* USER:TOKEN in base64, malloc'd; the plain form wiped. */
static char *basic_credentials(const char *user, const char *token)
{
    struct sbx_buf plain = SBX_BUF_INIT;
    sbx_buf_addf(&plain, "%s:%s", user, token);
    size_t cap = 4 * ((plain.len + 2) / 3) + 1;
    char *b64 = sbx_xmalloc(cap);
    EVP_EncodeBlock((unsigned char *)b64, (const unsigned char *)plain.p, (int)plain.len);
    explicit_bzero(plain.p, plain.cap);
    sbx_buf_free(&plain);
    return b64;
}

static bool request(const struct sbx_target *t, const struct sbx_send_env *env,
                    struct sbx_send_request *r, struct sbx_buf *u, char *err, size_t errsz)
{
    if (!env->jira_user || !env->jira_token) {
        sbx_send_errf(err, errsz, "%s is not set: Jira needs JIRA_URL, JIRA_USER and JIRA_TOKEN",
                      !env->jira_user ? "JIRA_USER" : "JIRA_TOKEN");
        return false;
    }
    char *base = sbx_send_base_url(env->jira_url, NULL, "JIRA_URL", err, errsz);
    if (!base)
        return false;
    if (!t->key || !*t->key ||
        strspn(t->key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") !=
            strlen(t->key)) {
        free(base);
        sbx_send_errf(err, errsz, "a Jira target is KEY-123");
        return false;
    }
    /* #api-rest-api-3-issue-issueidorkey-comment-post (v2: the same path) */
    sbx_buf_addf(u, "%s/rest/api/%d/issue/%s/comment", base, env->jira_api == 2 ? 2 : 3, t->key);
    free(base);
    if (sbx_send_has_control(env->jira_user) || sbx_send_has_control(env->jira_token)) {
        sbx_send_errf(err, errsz, "JIRA_USER or JIRA_TOKEN holds a control character");
        return false;
    }
    char *b64 = basic_credentials(env->jira_user, env->jira_token);
    sbx_send_add_secret_header(r, "Authorization: Basic ", b64);
    sbx_send_add_secret(r, env->jira_token);
    sbx_send_add_secret(r, b64);
    explicit_bzero(b64, strlen(b64));
    free(b64);
    sbx_send_add_header(r, "Accept: application/json", NULL);
    return true;
}

/* The page focused on the comment; Jira's ids are strings of digits. */
static bool comment_url(const struct sbx_target *t, const struct sbx_send_env *env,
                        const json_t *c, struct sbx_buf *url)
{
    char err[128];
    const json_t *id = json_object_get(c, "id");
    const char *s = json_is_string(id) ? json_string_value(id) : NULL;
    char *base;
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 20 ||
        !(base = sbx_send_base_url(env->jira_url, NULL, "JIRA_URL", err, sizeof err)))
        return false;
    sbx_buf_addf(url, "%s/browse/%s?focusedCommentId=%s", base, t->key, s);
    free(base);
    return true;
}

/* v3 and v2 #api-rest-api-3-issue-issueidorkey-comment-get: newest first */
static void list_page(struct sbx_buf *u, unsigned long page)
{
    sbx_buf_addf(u, "?orderBy=-created&maxResults=100&startAt=%lu", page * 100);
}

static json_t *comments(json_t *root, unsigned long *count)
{
    (void)count;
    return json_object_get(root, "comments");
}

/* #api-rest-api-3-issue-issueidorkey-comment-id-put (v2: the same path):
 * PUT .../issue/KEY/comment/ID; Jira's ids are strings of digits. */
static bool edit_kept(const char *id, struct sbx_buf *u, const char **method)
{
    size_t n = strlen(id);
    if (!n || n > 20 || strspn(id, "0123456789") != n)
        return false;
    sbx_buf_addf(u, "/%s", id);
    *method = "PUT";
    return true;
}

static const char *ids_server(const struct sbx_send_env *env) { return env->jira_url; }

const struct sbx_service sbx_service_jira = {
    .name = "jira",
    .form = "jira:KEY-123",
    .limit = SBX_LIMIT_JIRA,
    .parse = parse,
    .format = format,
    .body_kind = body_kind,
    .request = request,
    .secret_vars = "JIRA_USER and JIRA_TOKEN",
    .settings = {
        {.var = "JIRA_URL", .field = offsetof(struct sbx_send_env, jira_url),
         .placeholder = "https://<JIRA_URL unset>"},
        {.var = "JIRA_USER", .field = offsetof(struct sbx_send_env, jira_user), .stand_in = true},
        {.var = "JIRA_TOKEN", .field = offsetof(struct sbx_send_env, jira_token),
         .secret = true, .stand_in = true},
    },
    .comment_url = comment_url,
    .list_page = list_page,
    .comments = comments,
    .edit_kept = edit_kept,
    .ids_server = ids_server,
};
