/* Reading the services' answers: a listing searched for the marker, the new
 * comment's web URL, an error's own words. All server text is untrusted. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "export/send_internal.h"
#include "base/http.h"

#define URL_MAX 512

bool sbx_send_has_marker(const char *s, size_t n, const char *digest)
{
    size_t dl = strlen(digest);
    if (!dl)
        return false;
    for (const char *p = s, *end = s + n;
         (p = memmem(p, (size_t)(end - p), "sbxview:", 8)) != NULL; p += 8) {
        const char *d = p + 8;
        if ((size_t)(end - d) >= dl && memcmp(d, digest, dl) == 0 &&
            ((size_t)(end - d) == dl || !isxdigit((unsigned char)d[dl])))
            return true;
    }
    return false;
}

static bool body_has(json_t *body, const char *digest)
{
    if (json_is_string(body))
        return sbx_send_has_marker(json_string_value(body), json_string_length(body), digest);
    if (!json_is_object(body) && !json_is_array(body))
        return false;
    /* an ADF document: the marker is in one of its text nodes */
    char *s = json_dumps(body, JSON_COMPACT);
    bool hit = s && sbx_send_has_marker(s, strlen(s), digest);
    free(s);
    return hit;
}

static char *printable_url(const char *s, size_t n)
{
    if (n < 8 || strncasecmp(s, "https://", 8) != 0)
        return NULL;
    if (n > URL_MAX)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (s[i] <= ' ' || s[i] > '~') /* a URL is printable ASCII without spaces */
            return NULL;
    return sbx_xstrndup(s, n);
}

/* A server could put a credential it was sent into a URL it answers with:
 * such a URL is not passed on (it would be printed, and CI logs keep it). */
static bool holds_credential(const struct sbx_send_env *env, const char *s)
{
    const char *const whole[] = {env->github_token, env->gitlab_token, env->jira_token,
                                 env->slack_webhook_url};
    for (size_t i = 0; i < sizeof whole / sizeof *whole; i++)
        if (whole[i] && strlen(whole[i]) >= 4 && strstr(s, whole[i]))
            return true;
    const char *hook = env->slack_webhook_url;
    const char *last = hook ? strrchr(hook, '/') : NULL;
    return last && strlen(last + 1) >= 8 && strstr(s, last + 1);
}

static char *checked(const struct sbx_send_env *env, char *url)
{
    if (url && holds_credential(env, url)) {
        free(url);
        return NULL;
    }
    return url;
}

/* The web URL of comment c (a listing's item or the POST's answer). */
static char *url_of(const struct sbx_target *t, const struct sbx_send_env *env, json_t *c)
{
    char err[128];
    json_t *id = json_object_get(c, "id");
    struct sbx_buf b = SBX_BUF_INIT;
    char *base = NULL, *url = NULL;
    switch (t->kind) {
    case SBX_TARGET_GITHUB: {
        json_t *h = json_object_get(c, "html_url");
        if (json_is_string(h))
            url = printable_url(json_string_value(h), json_string_length(h));
        return checked(env, url);
    }
    case SBX_TARGET_GITLAB:
        if (!json_is_integer(id) ||
            !(base = sbx_send_base_url(env->gitlab_url, "https://gitlab.com", "GITLAB_URL", err,
                                       sizeof err)))
            return NULL;
        sbx_buf_addf(&b, "%s/", base);
        sbx_send_printable(&b, t->project, strlen(t->project), URL_MAX, NULL, 0);
        sbx_buf_addf(&b, "/-/issues/%lu#note_%lld", (unsigned long)t->number, (long long)json_integer_value(id));
        break;
    case SBX_TARGET_JIRA: {
        /* Jira's ids are strings of digits */
        const char *s = json_is_string(id) ? json_string_value(id) : NULL;
        if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 20 ||
            !(base = sbx_send_base_url(env->jira_url, NULL, "JIRA_URL", err, sizeof err)))
            return NULL;
        sbx_buf_addf(&b, "%s/browse/%s?focusedCommentId=%s", base, t->key, s);
        break;
    }
    case SBX_TARGET_SLACK:
    case SBX_TARGET_FILE: return NULL;
    }
    free(base);
    url = printable_url(b.p, b.len);
    sbx_buf_free(&b);
    return checked(env, url);
}

bool sbx_send_find_marker(const struct sbx_target *t, const struct sbx_send_env *env,
                          const char *json, size_t len, const char *digest, char **url,
                          unsigned long *count)
{
    *url = NULL;
    json_t *root = json_loadb(json, len, 0, NULL);
    if (!root)
        return false;
    if (t->kind == SBX_TARGET_GITHUB && json_is_object(root)) { /* the issue */
        json_t *n = json_object_get(root, "comments");
        if (count && json_is_integer(n) && json_integer_value(n) >= 0)
            *count = (unsigned long)json_integer_value(n);
        json_decref(root);
        return false;
    }
    json_t *list = t->kind == SBX_TARGET_JIRA ? json_object_get(root, "comments") : root;
    bool found = false;
    size_t i;
    json_t *c;
    json_array_foreach(list, i, c) {
        if (json_is_object(c) && body_has(json_object_get(c, "body"), digest)) {
            *url = url_of(t, env, c);
            found = true;
            break;
        }
    }
    json_decref(root);
    return found;
}

char *sbx_send_comment_url(const struct sbx_target *t, const struct sbx_send_env *env,
                           const char *json, size_t len)
{
    json_t *root = json_loadb(json, len, 0, NULL);
    char *url = json_is_object(root) ? url_of(t, env, root) : NULL;
    json_decref(root);
    return url;
}

#define MSG_MAX 300

static void add_words(struct sbx_buf *out, const char *s, size_t n,
                      const struct sbx_send_request *r)
{
    if (out->len)
        sbx_buf_adds(out, "; ");
    sbx_send_printable(out, s, n, MSG_MAX, (char *const *)r->secrets, 3);
}

static void add_json_words(struct sbx_buf *out, json_t *v, const struct sbx_send_request *r,
                           int depth)
{
    if (json_is_string(v)) {
        add_words(out, json_string_value(v), json_string_length(v), r);
    } else if (json_is_array(v) && depth < 3) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) {
            if (out->len > MSG_MAX)
                break;
            add_json_words(out, x, r, depth + 1);
        }
    } else if (json_is_object(v) && depth < 3) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) {
            if (out->len > MSG_MAX)
                break;
            /* GitHub's errors: [{"resource", "field", "code", "message"}] */
            if (!strcmp(k, "message") || !strcmp(k, "code") || !strcmp(k, "field") ||
                depth == 0)
                add_json_words(out, x, r, depth + 1);
        }
    }
}

void sbx_send_service_message(struct sbx_buf *out, const char *body, size_t len,
                              const struct sbx_send_request *r)
{
    struct sbx_buf words = SBX_BUF_INIT;
    json_t *root = json_loadb(body, len, 0, NULL);
    if (json_is_object(root)) {
        static const char *const keys[] = {"message", "error", "errorMessages", "errors",
                                           "error_description"};
        for (size_t i = 0; i < sizeof keys / sizeof *keys && words.len <= MSG_MAX; i++) {
            json_t *v = json_object_get(root, keys[i]);
            if (v && !(json_is_array(v) && !json_array_size(v)) &&
                !(json_is_object(v) && !json_object_size(v)))
                add_json_words(&words, v, r, json_is_object(v) ? 0 : 1);
        }
    } else if (!root && len && body[0] != '<') { /* an HTML error page says nothing */
        add_words(&words, body, len, r); /* Slack answers in plain text: "invalid_payload" */
    }
    json_decref(root);
    if (words.len > MSG_MAX + 8) {
        /* cut at a character boundary */
        size_t cut = MSG_MAX;
        while (cut && ((unsigned char)words.p[cut] & 0xc0) == 0x80)
            cut--;
        words.len = cut;
        words.p[cut] = '\0';
        sbx_buf_adds(&words, "…");
    }
    if (words.len)
        sbx_buf_add(out, words.p, words.len);
    sbx_buf_free(&words);
}
