/* GitLab: a note on an issue, gitlab:GROUP/SUB/PROJECT#N.
 * docs.gitlab.com/api/notes/ */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "export/send_internal.h"
#include "export/service.h"
#include "export/services/target_rules.h"

#define URL_DEFAULT "https://gitlab.com"

static bool parse(const char *s, struct sbx_target *t, char *err, size_t errsz)
{
    size_t hash;
    uint32_t n;
    static const char rule[] = "a GitLab target is gitlab:GROUP/PROJECT#N or with subgroups "
                               "gitlab:GROUP/SUB/PROJECT#N (each part of letters, digits, '.', "
                               "'_' and '-', not starting with '.' or '-'; N the issue number)";
    if (!sbx_rule_split_number(s, &hash, &n) || hash > 2048)
        return sbx_rule_fail(err, errsz, rule);
    size_t segments = 0, start = 0;
    for (size_t i = 0; i <= hash; i++) {
        if (i < hash && s[i] != '/')
            continue;
        size_t len = i - start;
        if (!sbx_rule_name_segment(s + start, len, 255) ||
            (len >= 4 && memcmp(s + i - 4, ".git", 4) == 0) ||
            (len >= 5 && memcmp(s + i - 5, ".atom", 5) == 0))
            return sbx_rule_fail(err, errsz, rule);
        segments++;
        start = i + 1;
    }
    if (segments < 2 || segments > 21)
        return sbx_rule_fail(err, errsz, rule);
    t->project = sbx_xstrndup(s, hash);
    t->number = n;
    return true;
}

static void format(const struct sbx_target *t, struct sbx_buf *out)
{
    sbx_buf_addf(out, "%s#%u", t->project, t->number);
}

static enum sbx_body_kind body_kind(int api)
{
    (void)api;
    return SBX_BODY_MARKDOWN;
}

static bool request(const struct sbx_target *t, const struct sbx_send_env *env,
                    struct sbx_send_request *r, struct sbx_buf *u, char *err, size_t errsz)
{
    if (!env->gitlab_token) {
        sbx_send_errf(err, errsz, "GITLAB_TOKEN is not set: a GitLab token is needed to comment");
        return false;
    }
    char *base = sbx_send_base_url(env->gitlab_url, URL_DEFAULT, "GITLAB_URL", err, errsz);
    if (!base)
        return false;
    /* #create-new-issue-note: the project's path as its id, URL-encoded
     * ("group%2Fproject") */
    sbx_buf_addf(u, "%s/api/v4/projects/", base);
    free(base);
    if (!t->project || !strchr(t->project, '/') || !sbx_send_add_path(u, t->project, true)) {
        sbx_send_errf(err, errsz, "a GitLab target is GROUP/PROJECT#N");
        return false;
    }
    sbx_buf_addf(u, "/issues/%lu/notes", (unsigned long)t->number);
    if (sbx_send_has_control(env->gitlab_token)) {
        sbx_send_errf(err, errsz, "GITLAB_TOKEN holds a control character");
        return false;
    }
    sbx_send_add_secret_header(r, "PRIVATE-TOKEN: ", env->gitlab_token);
    sbx_send_add_secret(r, env->gitlab_token);
    sbx_send_add_header(r, "Accept: application/json", NULL);
    return true;
}

/* A note's page: the project's web path, then the note's anchor. */
static bool comment_url(const struct sbx_target *t, const struct sbx_send_env *env,
                        const json_t *c, struct sbx_buf *url)
{
    char err[128];
    const json_t *id = json_object_get(c, "id");
    char *base;
    if (!json_is_integer(id) ||
        !(base = sbx_send_base_url(env->gitlab_url, URL_DEFAULT, "GITLAB_URL", err, sizeof err)))
        return false;
    sbx_buf_addf(url, "%s/", base);
    free(base);
    sbx_send_printable(url, t->project, strlen(t->project), SBX_SEND_URL_MAX, NULL, 0);
    sbx_buf_addf(url, "/-/issues/%lu#note_%lld", (unsigned long)t->number,
                 (long long)json_integer_value(id));
    return true;
}

/* #list-project-issue-notes: newest first */
static void list_page(struct sbx_buf *u, unsigned long page)
{
    sbx_buf_addf(u, "?sort=desc&order_by=created_at&per_page=100&page=%lu", page + 1);
}

static json_t *comments(json_t *root, unsigned long *count)
{
    (void)count;
    return root;
}

/* #modify-existing-issue-note: PUT .../issues/N/notes/ID */
static bool edit(const json_t *c, struct sbx_buf *u, const char **method)
{
    const json_t *id = json_object_get(c, "id");
    if (!json_is_integer(id) || json_integer_value(id) <= 0)
        return false;
    sbx_buf_addf(u, "/%lld", (long long)json_integer_value(id));
    *method = "PUT";
    return true;
}

const struct sbx_service sbx_service_gitlab = {
    .name = "gitlab",
    .form = "gitlab:GROUP/PROJECT#N",
    .limit = SBX_LIMIT_GITLAB,
    .parse = parse,
    .format = format,
    .body_kind = body_kind,
    .request = request,
    .secret_vars = "GITLAB_TOKEN",
    .settings = {
        {.var = "GITLAB_URL", .field = offsetof(struct sbx_send_env, gitlab_url)},
        {.var = "GITLAB_TOKEN", .field = offsetof(struct sbx_send_env, gitlab_token),
         .secret = true, .stand_in = true},
    },
    .comment_url = comment_url,
    .list_page = list_page,
    .comments = comments,
    .edit = edit,
};
