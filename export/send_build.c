/* The requests of each service: URL, headers and body bytes. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "export/send_internal.h"
#include "base/http.h"
#include "base/utf8.h"

#define GITHUB_DEFAULT "https://api.github.com"
#define GITLAB_DEFAULT "https://gitlab.com"

static const char *env_or_null(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

void sbx_send_env_load(struct sbx_send_env *env)
{
    env->github_api_url = env_or_null("GITHUB_API_URL");
    env->github_token = env_or_null("GITHUB_TOKEN");
    env->gitlab_url = env_or_null("GITLAB_URL");
    env->gitlab_token = env_or_null("GITLAB_TOKEN");
    env->jira_url = env_or_null("JIRA_URL");
    env->jira_user = env_or_null("JIRA_USER");
    env->jira_token = env_or_null("JIRA_TOKEN");
    env->slack_webhook_url = env_or_null("SLACK_WEBHOOK_URL");
    env->ca_file = env_or_null("SBXVIEW_CA_FILE");
    env->jira_api = 3;
}

const char *sbx_send_secret_vars(enum sbx_target_kind kind)
{
    switch (kind) {
    case SBX_TARGET_GITHUB: return "GITHUB_TOKEN";
    case SBX_TARGET_GITLAB: return "GITLAB_TOKEN";
    case SBX_TARGET_JIRA: return "JIRA_USER and JIRA_TOKEN";
    case SBX_TARGET_SLACK: return "SLACK_WEBHOOK_URL";
    case SBX_TARGET_FILE: break;
    }
    return "the token";
}

static void errf(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
}

static bool bidi_or_c1(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

void sbx_send_printable(struct sbx_buf *out, const char *s, size_t n, size_t max,
                        char *const *secrets, size_t nsecrets)
{
    size_t start = out->len;
    for (size_t i = 0; i < n;) {
        if (out->len - start >= max) {
            sbx_buf_adds(out, "…");
            return;
        }
        bool hit = false;
        for (size_t k = 0; k < nsecrets; k++) {
            size_t sl = secrets[k] ? strlen(secrets[k]) : 0;
            if (sl && i + sl <= n && memcmp(s + i, secrets[k], sl) == 0) {
                sbx_buf_adds(out, SBX_SEND_MASK);
                i += sl;
                hit = true;
                break;
            }
        }
        if (hit)
            continue;
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            sbx_buf_addc(out, c < 0x20 || c == 0x7f ? (c == '\n' || c == '\t' ? ' ' : '?')
                                                    : (char)c);
            i++;
            continue;
        }
        uint32_t cp;
        size_t l = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (!l || bidi_or_c1(cp)) {
            sbx_buf_addc(out, '?');
            i += l ? l : 1;
            continue;
        }
        sbx_buf_add(out, s + i, l);
        i += l;
    }
}

void sbx_send_url_host(struct sbx_buf *out, const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    size_t n = strcspn(p, "/?#");
    const char *at = memchr(p, '@', n);
    if (at) {
        n -= (size_t)(at + 1 - p);
        p = at + 1;
    }
    size_t h = n;
    if (n && p[0] == '[') { /* [v6]:port */
        const char *close = memchr(p, ']', n);
        h = close ? (size_t)(close - p) + 1 : n;
    } else {
        const char *colon = memchr(p, ':', n);
        if (colon)
            h = (size_t)(colon - p);
    }
    sbx_send_printable(out, p, h, 255, NULL, 0);
}

char *sbx_send_base_url(const char *value, const char *fallback, const char *var, char *err,
                        size_t errsz)
{
    const char *v = value && *value ? value : fallback;
    if (!v) {
        errf(err, errsz, "%s is not set", var);
        return NULL;
    }
    if (strncasecmp(v, "https://", 8) != 0 || !v[8]) {
        errf(err, errsz, "%s must be an https:// URL", var);
        return NULL;
    }
    if (strpbrk(v, "?#")) {
        errf(err, errsz, "%s must not hold a query or a fragment", var);
        return NULL;
    }
    size_t n = strlen(v);
    while (n > 8 && v[n - 1] == '/')
        n--;
    return sbx_xstrndup(v, n);
}

static char *xstr(const char *s) { return sbx_xstrndup(s, strlen(s)); }

static char *take(struct sbx_buf *b)
{
    char *p = b->p ? b->p : xstr("");
    *b = (struct sbx_buf)SBX_BUF_INIT;
    return p;
}

/* OWNER/REPO with each segment escaped, or the whole path as one segment. */
static bool add_path(struct sbx_buf *u, const char *path, bool one_segment)
{
    if (!path || !*path || path[0] == '/' || path[strlen(path) - 1] == '/' || strstr(path, "//"))
        return false;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
            return false;
        sbx_http_escape(u, p, n);
        p += n;
        if (*p == '/') {
            sbx_buf_adds(u, one_segment ? "%2F" : "/");
            p++;
        }
    }
    return true;
}

static void add_header(struct sbx_send_request *r, size_t *nh, size_t *ns, const char *line,
                       const char *shown)
{
    if (line) {
        r->headers = sbx_xrealloc(r->headers, (*nh + 2) * sizeof *r->headers);
        r->headers[(*nh)++] = xstr(line);
        r->headers[*nh] = NULL;
    }
    r->headers_shown = sbx_xrealloc(r->headers_shown, (*ns + 2) * sizeof *r->headers_shown);
    r->headers_shown[(*ns)++] = xstr(shown ? shown : line);
    r->headers_shown[*ns] = NULL;
}

static void add_secret(struct sbx_send_request *r, const char *s)
{
    for (size_t i = 0; i < 3; i++)
        if (!r->secrets[i]) {
            r->secrets[i] = xstr(s);
            return;
        }
}

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

static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

/* The URL up to the comments (no query), headers and secrets for t. */
static bool base_request(const struct sbx_target *t, const struct sbx_send_env *env,
                         struct sbx_send_request *r, struct sbx_buf *u, char *err, size_t errsz)
{
    size_t nh = 0, ns = 0;
    char *base = NULL;
    switch (t->kind) {
    case SBX_TARGET_GITHUB:
        if (!env->github_token) {
            errf(err, errsz, "GITHUB_TOKEN is not set: a GitHub token is needed to comment");
            return false;
        }
        if (!(base = sbx_send_base_url(env->github_api_url, GITHUB_DEFAULT, "GITHUB_API_URL",
                                       err, errsz)))
            return false;
        /* docs.github.com/rest/issues/comments#create-an-issue-comment */
        sbx_buf_addf(u, "%s/repos/", base);
        if (!t->owner || !t->repo || strchr(t->owner, '/') || strchr(t->repo, '/') ||
            !add_path(u, t->owner, false) || (sbx_buf_addc(u, '/'), !add_path(u, t->repo, false))) {
            free(base);
            errf(err, errsz, "a GitHub target is OWNER/REPO#N");
            return false;
        }
        sbx_buf_addf(u, "/issues/%lu/comments", (unsigned long)t->number);
        r->bearer = xstr(env->github_token);
        add_secret(r, env->github_token);
        add_header(r, &nh, &ns, NULL, "Authorization: Bearer " SBX_SEND_MASK);
        add_header(r, &nh, &ns, "Accept: application/vnd.github+json", NULL);
        add_header(r, &nh, &ns, "X-GitHub-Api-Version: 2022-11-28", NULL);
        break;
    case SBX_TARGET_GITLAB: {
        if (!env->gitlab_token) {
            errf(err, errsz, "GITLAB_TOKEN is not set: a GitLab token is needed to comment");
            return false;
        }
        if (!(base = sbx_send_base_url(env->gitlab_url, GITLAB_DEFAULT, "GITLAB_URL", err,
                                       errsz)))
            return false;
        /* docs.gitlab.com/api/notes/#create-new-issue-note: the project's
         * path as its id, URL-encoded ("group%2Fproject"). */
        sbx_buf_addf(u, "%s/api/v4/projects/", base);
        if (!t->project || !strchr(t->project, '/') || !add_path(u, t->project, true)) {
            free(base);
            errf(err, errsz, "a GitLab target is GROUP/PROJECT#N");
            return false;
        }
        sbx_buf_addf(u, "/issues/%lu/notes", (unsigned long)t->number);
        if (has_control(env->gitlab_token)) {
            free(base);
            errf(err, errsz, "GITLAB_TOKEN holds a control character");
            return false;
        }
        struct sbx_buf h = SBX_BUF_INIT;
        sbx_buf_addf(&h, "PRIVATE-TOKEN: %s", env->gitlab_token);
        add_header(r, &nh, &ns, h.p, "PRIVATE-TOKEN: " SBX_SEND_MASK);
        explicit_bzero(h.p, h.cap);
        sbx_buf_free(&h);
        add_secret(r, env->gitlab_token);
        add_header(r, &nh, &ns, "Accept: application/json", NULL);
        break;
    }
    case SBX_TARGET_JIRA: {
        if (!env->jira_user || !env->jira_token) {
            errf(err, errsz, "%s is not set: Jira needs JIRA_URL, JIRA_USER and JIRA_TOKEN",
                 !env->jira_user ? "JIRA_USER" : "JIRA_TOKEN");
            return false;
        }
        if (!(base = sbx_send_base_url(env->jira_url, NULL, "JIRA_URL", err, errsz)))
            return false;
        if (!t->key || !*t->key || strspn(t->key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                  "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
                                       strlen(t->key)) {
            free(base);
            errf(err, errsz, "a Jira target is KEY-123");
            return false;
        }
        /* developer.atlassian.com/cloud/jira/platform/rest/v3/api-group-issue-comments/
         * #api-rest-api-3-issue-issueidorkey-comment-post (v2: the same path) */
        sbx_buf_addf(u, "%s/rest/api/%d/issue/%s/comment", base, env->jira_api == 2 ? 2 : 3,
                     t->key);
        if (has_control(env->jira_user) || has_control(env->jira_token)) {
            free(base);
            errf(err, errsz, "JIRA_USER or JIRA_TOKEN holds a control character");
            return false;
        }
        char *b64 = basic_credentials(env->jira_user, env->jira_token);
        struct sbx_buf h = SBX_BUF_INIT;
        sbx_buf_addf(&h, "Authorization: Basic %s", b64);
        add_header(r, &nh, &ns, h.p, "Authorization: Basic " SBX_SEND_MASK);
        explicit_bzero(h.p, h.cap);
        sbx_buf_free(&h);
        add_secret(r, env->jira_token);
        add_secret(r, b64);
        explicit_bzero(b64, strlen(b64));
        free(b64);
        add_header(r, &nh, &ns, "Accept: application/json", NULL);
        break;
    }
    case SBX_TARGET_FILE:
        errf(err, errsz, "a file: target is written, not sent");
        return false;
    case SBX_TARGET_SLACK: {
        const char *w = env->slack_webhook_url;
        if (!w) {
            errf(err, errsz, "SLACK_WEBHOOK_URL is not set: Slack needs an incoming webhook");
            return false;
        }
        if (strncasecmp(w, "https://", 8) != 0 || has_control(w)) {
            errf(err, errsz, "SLACK_WEBHOOK_URL must be an https:// URL");
            return false;
        }
        sbx_buf_adds(u, w);
        add_secret(r, w);
        /* the path is the secret, and its last part alone (a server may
         * echo either) */
        const char *path = w + 8 + strcspn(w + 8, "/?#");
        if (*path && strlen(path) > 1)
            add_secret(r, path);
        const char *last = strrchr(path, '/');
        if (last && strlen(last + 1) >= 8)
            add_secret(r, last + 1);
        struct sbx_buf shown = SBX_BUF_INIT;
        sbx_buf_adds(&shown, "https://");
        sbx_send_url_host(&shown, w);
        sbx_buf_adds(&shown, "/" SBX_SEND_MASK);
        r->url_shown = take(&shown);
        break;
    }
    }
    free(base);
    if (!r->headers_shown)
        r->headers_shown = sbx_xcalloc(1, sizeof *r->headers_shown);
    return true;
}

static void reset(struct sbx_send_request *r)
{
    memset(r, 0, sizeof *r);
}

static bool finish(struct sbx_send_request *r, struct sbx_buf *u, const char *method)
{
    r->method = xstr(method);
    r->url = take(u);
    if (!r->url_shown)
        r->url_shown = xstr(r->url);
    return true;
}

static bool holds_secret(const struct sbx_send_request *r, const char *s, size_t n)
{
    for (size_t i = 0; i < 3 && r->secrets[i]; i++)
        if (*r->secrets[i] && memmem(s, n, r->secrets[i], strlen(r->secrets[i])))
            return true;
    return false;
}

static char *dump(json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT);
    json_decref(v);
    return s;
}

bool sbx_send_build(const struct sbx_target *t, const struct sbx_send_env *env,
                    const char *body, size_t len, const char *digest,
                    struct sbx_send_request *out, char *err, size_t errsz)
{
    reset(out);
    struct sbx_buf u = SBX_BUF_INIT;
    if (!base_request(t, env, out, &u, err, errsz)) {
        sbx_buf_free(&u);
        sbx_send_request_free(out);
        return false;
    }
    finish(out, &u, "POST");
    /* the content type of every body sent: JSON */
    size_t nh = 0, ns = 0;
    while (out->headers && out->headers[nh])
        nh++;
    while (out->headers_shown[ns])
        ns++;
    add_header(out, &nh, &ns, "Content-Type: application/json", NULL);

    if (!digest || !sbx_send_has_marker(body, len, digest)) {
        errf(err, errsz, "the body lacks its marker sbxview:DIGEST: it could not be posted "
                         "safely again");
        sbx_send_request_free(out);
        return false;
    }
    if (holds_secret(out, body, len)) {
        errf(err, errsz, "the body holds the credential it would be sent with: not sent");
        sbx_send_request_free(out);
        return false;
    }
    char *json = NULL;
    json_error_t je;
    if (t->kind == SBX_TARGET_SLACK) {
        json_t *v = json_loadb(body, len, 0, &je);
        if (!json_is_object(v)) {
            json_decref(v);
            errf(err, errsz, "the Slack payload is not a JSON object");
            sbx_send_request_free(out);
            return false;
        }
        json_decref(v);
        sbx_buf_add(&out->body, body, len);
        return true;
    }
    if (t->kind == SBX_TARGET_JIRA && env->jira_api != 2) {
        json_t *doc = json_loadb(body, len, 0, &je);
        if (!json_is_object(doc)) {
            json_decref(doc);
            errf(err, errsz, "the Jira body is not an Atlassian Document Format object");
            sbx_send_request_free(out);
            return false;
        }
        json = dump(json_pack("{s:o}", "body", doc));
    } else {
        json_t *s = json_stringn(body, len);
        if (!s) {
            errf(err, errsz, "the body is not valid UTF-8");
            sbx_send_request_free(out);
            return false;
        }
        json = dump(json_pack("{s:o}", "body", s));
    }
    if (!json) {
        errf(err, errsz, "the body could not be written as JSON");
        sbx_send_request_free(out);
        return false;
    }
    sbx_buf_adds(&out->body, json);
    free(json);
    return true;
}

bool sbx_send_build_list(const struct sbx_target *t, const struct sbx_send_env *env,
                         unsigned long page, struct sbx_send_request *out, char *err,
                         size_t errsz)
{
    reset(out);
    if (t->kind == SBX_TARGET_SLACK || t->kind == SBX_TARGET_FILE) {
        errf(err, errsz, "a Slack webhook's messages cannot be listed");
        return false;
    }
    struct sbx_buf u = SBX_BUF_INIT;
    if (!base_request(t, env, out, &u, err, errsz)) {
        sbx_buf_free(&u);
        sbx_send_request_free(out);
        return false;
    }
    switch (t->kind) {
    case SBX_TARGET_GITHUB:
        /* GitHub lists an issue's comments oldest first, 100 a page at most
         * (docs.github.com/rest/issues/comments#list-issue-comments); the
         * issue's "comments" count says which page is the last. */
        if (page == 0)
            u.len -= strlen("/comments"), u.p[u.len] = '\0';
        else
            sbx_buf_addf(&u, "?per_page=100&page=%lu", page);
        break;
    case SBX_TARGET_GITLAB:
        /* docs.gitlab.com/api/notes/#list-project-issue-notes */
        sbx_buf_addf(&u, "?sort=desc&order_by=created_at&per_page=100&page=%lu", page + 1);
        break;
    case SBX_TARGET_JIRA:
        /* v3 and v2 #api-rest-api-3-issue-issueidorkey-comment-get: newest first */
        sbx_buf_addf(&u, "?orderBy=-created&maxResults=100&startAt=%lu", page * 100);
        break;
    case SBX_TARGET_SLACK:
    case SBX_TARGET_FILE: break;
    }
    return finish(out, &u, "GET");
}

static void free_list(char **l, bool wipe)
{
    for (size_t i = 0; l && l[i]; i++) {
        if (wipe)
            explicit_bzero(l[i], strlen(l[i]));
        free(l[i]);
    }
    free(l);
}

void sbx_send_request_free(struct sbx_send_request *r)
{
    free(r->method);
    if (r->url)
        explicit_bzero(r->url, strlen(r->url));
    free(r->url);
    free(r->url_shown);
    if (r->bearer)
        explicit_bzero(r->bearer, strlen(r->bearer));
    free(r->bearer);
    free_list(r->headers, true);
    free_list(r->headers_shown, false);
    sbx_buf_free(&r->body);
    for (size_t i = 0; i < 3; i++) {
        if (r->secrets[i])
            explicit_bzero(r->secrets[i], strlen(r->secrets[i]));
        free(r->secrets[i]);
    }
    reset(r);
}

void sbx_send_format(struct sbx_buf *out, const struct sbx_send_request *r)
{
    sbx_buf_addf(out, "%s %s\n", r->method, r->url_shown);
    for (size_t i = 0; r->headers_shown && r->headers_shown[i]; i++)
        sbx_buf_addf(out, "%s\n", r->headers_shown[i]);
    sbx_buf_addc(out, '\n');
    if (r->body.len) {
        sbx_buf_add(out, r->body.p, r->body.len);
        if (r->body.p[r->body.len - 1] != '\n')
            sbx_buf_addc(out, '\n');
    }
}

void sbx_send_print(FILE *f, const struct sbx_send_request *r)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_send_format(&b, r);
    fwrite(b.p, 1, b.len, f);
    sbx_buf_free(&b);
}
