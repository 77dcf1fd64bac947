/* GitHub: a comment on an issue or pull request, github:OWNER/REPO#N.
 * docs.github.com/rest/issues/comments */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "export/send_internal.h"
#include "export/service.h"
#include "export/services/target_rules.h"

#define API_DEFAULT "https://api.github.com"

static bool owner(const char *s, size_t n)
{
    if (n == 0 || n > 39 || s[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!sbx_rule_alnum(s[i]) && s[i] != '-')
            return false;
    return true;
}

static bool parse(const char *s, struct sbx_target *t, char *err, size_t errsz)
{
    size_t hash;
    uint32_t n;
    static const char rule[] = "a GitHub target is github:OWNER/REPO#N (OWNER of letters, digits "
                               "and '-', REPO of letters, digits, '.', '_' and '-', N the issue "
                               "or pull request number)";
    if (!sbx_rule_split_number(s, &hash, &n))
        return sbx_rule_fail(err, errsz, rule);
    const char *slash = memchr(s, '/', hash);
    if (!slash || !owner(s, (size_t)(slash - s)) ||
        !sbx_rule_name_segment(slash + 1, hash - (size_t)(slash - s) - 1, 100))
        return sbx_rule_fail(err, errsz, rule);
    t->owner = sbx_xstrndup(s, (size_t)(slash - s));
    t->repo = sbx_xstrndup(slash + 1, hash - (size_t)(slash - s) - 1);
    t->number = n;
    return true;
}

static void format(const struct sbx_target *t, struct sbx_buf *out)
{
    sbx_buf_addf(out, "%s/%s#%u", t->owner, t->repo, t->number);
}

static enum sbx_body_kind body_kind(int api)
{
    (void)api;
    return SBX_BODY_MARKDOWN;
}

static bool request(const struct sbx_target *t, const struct sbx_send_env *env,
                    struct sbx_send_request *r, struct sbx_buf *u, char *err, size_t errsz)
{
    if (!env->github_token) {
        sbx_send_errf(err, errsz, "GITHUB_TOKEN is not set: a GitHub token is needed to comment");
        return false;
    }
    char *base = sbx_send_base_url(env->github_api_url, API_DEFAULT, "GITHUB_API_URL", err, errsz);
    if (!base)
        return false;
    /* #create-an-issue-comment */
    sbx_buf_addf(u, "%s/repos/", base);
    free(base);
    if (!t->owner || !t->repo || strchr(t->owner, '/') || strchr(t->repo, '/') ||
        !sbx_send_add_path(u, t->owner, false) ||
        (sbx_buf_addc(u, '/'), !sbx_send_add_path(u, t->repo, false))) {
        sbx_send_errf(err, errsz, "a GitHub target is OWNER/REPO#N");
        return false;
    }
    sbx_buf_addf(u, "/issues/%lu/comments", (unsigned long)t->number);
    r->bearer = sbx_xstrndup(env->github_token, strlen(env->github_token));
    sbx_send_add_secret(r, env->github_token);
    sbx_send_add_header(r, NULL, "Authorization: Bearer " SBX_SEND_MASK);
    sbx_send_add_header(r, "Accept: application/vnd.github+json", NULL);
    sbx_send_add_header(r, "X-GitHub-Api-Version: 2022-11-28", NULL);
    return true;
}

static bool comment_url(const struct sbx_target *t, const struct sbx_send_env *env,
                        const json_t *c, struct sbx_buf *url)
{
    (void)t, (void)env;
    const json_t *h = json_object_get(c, "html_url");
    if (!json_is_string(h))
        return false;
    sbx_buf_add(url, json_string_value(h), json_string_length(h));
    return true;
}

/* The comments oldest first, 100 a page at most (#list-issue-comments);
 * page 0 is the issue itself, whose "comments" count says which page is
 * the last. */
static void list_page(struct sbx_buf *u, unsigned long page)
{
    if (page == 0)
        u->len -= strlen("/comments"), u->p[u->len] = '\0';
    else
        sbx_buf_addf(u, "?per_page=100&page=%lu", page);
}

static json_t *comments(json_t *root, unsigned long *count)
{
    if (!json_is_object(root)) /* a page of comments */
        return root;
    json_t *n = json_object_get(root, "comments"); /* the issue */
    if (count && json_is_integer(n) && json_integer_value(n) >= 0)
        *count = (unsigned long)json_integer_value(n);
    return NULL;
}

/* The newest comments: the last page and the one before. */
static size_t more_pages(unsigned long count, unsigned long pages[2])
{
    unsigned long last = (count + 99) / 100;
    pages[0] = last;
    if (last <= 1)
        return 1;
    pages[1] = last - 1;
    return 2;
}

/* #update-an-issue-comment: PATCH /repos/O/R/issues/comments/ID */
static bool edit(const json_t *c, struct sbx_buf *u, const char **method)
{
    const json_t *id = json_object_get(c, "id");
    const char *tail = "/issues/";
    char *at = u->p ? strstr(u->p, tail) : NULL;
    if (!json_is_integer(id) || json_integer_value(id) <= 0 || !at)
        return false;
    u->len = (size_t)(at - u->p) + strlen(tail);
    u->p[u->len] = '\0';
    sbx_buf_addf(u, "comments/%lld", (long long)json_integer_value(id));
    *method = "PATCH";
    return true;
}

const struct sbx_service sbx_service_github = {
    .name = "github",
    .form = "github:OWNER/REPO#N",
    .limit = SBX_LIMIT_GITHUB,
    .parse = parse,
    .format = format,
    .body_kind = body_kind,
    .request = request,
    .secret_vars = "GITHUB_TOKEN",
    .settings = {
        {.var = "GITHUB_API_URL", .field = offsetof(struct sbx_send_env, github_api_url)},
        {.var = "GITHUB_TOKEN", .field = offsetof(struct sbx_send_env, github_token),
         .secret = true, .stand_in = true},
    },
    .comment_url = comment_url,
    .list_page = list_page,
    .comments = comments,
    .more_pages = more_pages,
    .edit = edit,
};
