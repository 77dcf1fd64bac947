/* Reading the services' answers: a listing searched for the marker, the new
 * comment's web URL, an error's own words. All server text is untrusted. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "export/send_internal.h"
#include "export/service.h"
#include "base/http.h"

bool sbx_send_has_marker(const char *s, size_t n, const char *digest)
{
    return sbx_send_has_tagged(s, n, "sbxview:", digest);
}

bool sbx_send_has_tagged(const char *s, size_t n, const char *tag, const char *digest)
{
    size_t dl = strlen(digest), tl = strlen(tag);
    if (!dl)
        return false;
    for (const char *p = s, *end = s + n;
         (p = memmem(p, (size_t)(end - p), tag, tl)) != NULL; p += tl) {
        const char *d = p + tl;
        if ((size_t)(end - d) >= dl && memcmp(d, digest, dl) == 0 &&
            ((size_t)(end - d) == dl || !isxdigit((unsigned char)d[dl])))
            return true;
    }
    return false;
}

static bool body_has(json_t *body, const char *tag, const char *digest)
{
    if (json_is_string(body))
        return sbx_send_has_tagged(json_string_value(body), json_string_length(body), tag, digest);
    if (!json_is_object(body) && !json_is_array(body))
        return false;
    /* an ADF document: the marker is in one of its text nodes */
    char *s = json_dumps(body, JSON_COMPACT);
    bool hit = s && sbx_send_has_tagged(s, strlen(s), tag, digest);
    free(s);
    return hit;
}

bool sbx_send_comment_holds(const char *json, size_t len, const char *tag, const char *digest)
{
    json_t *root = json_loadb(json, len, 0, NULL);
    bool hit = json_is_object(root) && body_has(json_object_get(root, "body"), tag, digest);
    json_decref(root);
    return hit;
}

static char *printable_url(const char *s, size_t n)
{
    if (n < 8 || strncasecmp(s, "https://", 8) != 0)
        return NULL;
    if (n > SBX_SEND_URL_MAX)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (s[i] <= ' ' || s[i] > '~') /* a URL is printable ASCII without spaces */
            return NULL;
    return sbx_xstrndup(s, n);
}

/* A server could put a credential it was sent into a URL it answers with:
 * such a URL is not passed on (it would be printed, and CI logs keep it).
 * Every service's secret settings count, and a secret URL's last part
 * alone (Slack's webhook: a server may echo either). */
static bool holds_credential(const struct sbx_send_env *env, const char *s)
{
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++) {
        const struct sbx_service *svc = sbx_service_of((enum sbx_target_kind)k);
        for (size_t i = 0; i < SBX_SERVICE_SETTINGS_MAX && svc->settings[i].var; i++) {
            const char *v = sbx_service_setting_value(env, &svc->settings[i]);
            if (!svc->settings[i].secret || !v)
                continue;
            if (strlen(v) >= 4 && strstr(s, v))
                return true;
            const char *last = strncasecmp(v, "https://", 8) == 0 ? strrchr(v, '/') : NULL;
            if (last && strlen(last + 1) >= 8 && strstr(s, last + 1))
                return true;
        }
    }
    return false;
}

/* The web URL of comment c (a listing's item or the POST's answer). */
static char *url_of(const struct sbx_target *t, const struct sbx_send_env *env, json_t *c)
{
    const struct sbx_service *svc = sbx_service_of(t->kind);
    struct sbx_buf b = SBX_BUF_INIT;
    char *url = NULL;
    if (svc->comment_url && svc->comment_url(t, env, c, &b))
        url = printable_url(b.p, b.len);
    sbx_buf_free(&b);
    if (url && holds_credential(env, url)) {
        free(url);
        return NULL;
    }
    return url;
}

bool sbx_send_find_marker(const struct sbx_target *t, const struct sbx_send_env *env,
                          const char *json, size_t len, const char *digest, char **url,
                          unsigned long *count)
{
    return sbx_send_find_tagged(t, env, json, len, "sbxview:", digest, NULL, url, count);
}

bool sbx_send_find_tagged(const struct sbx_target *t, const struct sbx_send_env *env,
                          const char *json, size_t len, const char *tag, const char *digest,
                          json_t **comment, char **url, unsigned long *count)
{
    *url = NULL;
    if (comment)
        *comment = NULL;
    const struct sbx_service *svc = sbx_service_of(t->kind);
    if (!svc->comments)
        return false;
    json_t *root = json_loadb(json, len, 0, NULL);
    if (!root)
        return false;
    json_t *list = svc->comments(root, count);
    bool found = false;
    size_t i;
    json_t *c;
    json_array_foreach(list, i, c) {
        if (json_is_object(c) && body_has(json_object_get(c, "body"), tag, digest)) {
            *url = url_of(t, env, c);
            if (comment)
                *comment = json_deep_copy(c);
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

bool sbx_send_comment_id(const char *json, size_t len, char out[SBX_SEND_ID_MAX])
{
    out[0] = '\0';
    json_t *root = json_loadb(json, len, 0, NULL);
    json_t *id = json_is_object(root) ? json_object_get(root, "id") : NULL;
    if (json_is_integer(id) && json_integer_value(id) > 0) {
        snprintf(out, SBX_SEND_ID_MAX, "%lld", (long long)json_integer_value(id));
    } else if (json_is_string(id)) {
        const char *s = json_string_value(id);
        size_t n = json_string_length(id);
        static const char ok[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-";
        if (n && n < SBX_SEND_ID_MAX && strspn(s, ok) == n)
            memcpy(out, s, n + 1);
    }
    json_decref(root);
    return out[0] != '\0';
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
