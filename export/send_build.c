/* The requests: what every service's has in common (the POST's JSON, the
 * marker and credential checks, the listing's pages) around the service's
 * own part (export/service.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "export/send_internal.h"
#include "export/service.h"
#include "model/review.h"

const char *sbx_send_secret_vars(enum sbx_target_kind kind)
{
    const char *v = sbx_service_of(kind)->secret_vars;
    return v ? v : "the token";
}

enum sbx_send_memory sbx_send_memory_of(enum sbx_target_kind kind)
{
    const struct sbx_service *svc = sbx_service_of(kind);
    return svc->edit_kept ? SBX_SEND_EDITS_ID : svc->replaces ? SBX_SEND_REPLACES : SBX_SEND_FINDS;
}

bool sbx_send_server(const struct sbx_target *t, const struct sbx_send_env *env,
                     char out[SBX_SEND_SERVER_MAX])
{
    out[0] = '\0';
    const struct sbx_service *svc = sbx_service_of(t->kind);
    const char *url = svc->ids_server ? svc->ids_server(env) : NULL;
    if (!url || strncasecmp(url, "https://", 8) != 0)
        return false;
    const char *p = url + 8;
    size_t n = strcspn(p, "/?#");
    for (const char *at; (at = memchr(p, '@', n)) != NULL;) { /* user info: never kept */
        n -= (size_t)(at + 1 - p);
        p = at + 1;
    }
    if (!n || n > SBX_REVIEW_SERVER_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)p[i]);
    out[n] = '\0';
    if (strspn(out, SBX_REVIEW_SERVER_CHARS) != n) {
        out[0] = '\0';
        return false;
    }
    return true;
}

static const char *set_or_null(const char *v) { return v && *v ? v : NULL; }

void sbx_send_settings_fill(struct sbx_send_env *env,
                            const char *(*get)(void *ctx, const char *var), void *ctx)
{
    memset(env, 0, sizeof *env);
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++) {
        const struct sbx_service *svc = sbx_service_of((enum sbx_target_kind)k);
        for (size_t i = 0; i < SBX_SERVICE_SETTINGS_MAX && svc->settings[i].var; i++)
            *sbx_service_setting_slot(env, &svc->settings[i]) =
                set_or_null(get(ctx, svc->settings[i].var));
    }
    env->ca_file = set_or_null(get(ctx, "SBXVIEW_CA_FILE"));
    env->jira_api = 3;
}

size_t sbx_send_placeholders(const struct sbx_target *t, struct sbx_send_env *env,
                             const char **unset, size_t max)
{
    static const char stand_in[] = "not-set";
    const struct sbx_service *svc = sbx_service_of(t->kind);
    size_t n = 0;
    for (size_t i = 0; i < SBX_SERVICE_SETTINGS_MAX && svc->settings[i].var; i++) {
        const struct sbx_service_setting *s = &svc->settings[i];
        const char **slot = sbx_service_setting_slot(env, s);
        if (*slot || !(s->stand_in || s->placeholder))
            continue;
        *slot = s->stand_in ? stand_in : s->placeholder;
        if (n < max)
            unset[n++] = s->var;
    }
    return n;
}

bool sbx_send_body_is_text(enum sbx_body_kind k)
{
    return k == SBX_BODY_MARKDOWN || k == SBX_BODY_JIRA_TEXT;
}

/* The URL up to the comments, headers and secrets: the service's part. */
static bool base_request(const struct sbx_service *svc, const struct sbx_target *t,
                         const struct sbx_send_env *env, struct sbx_send_request *r,
                         struct sbx_buf *u, char *err, size_t errsz)
{
    memset(r, 0, sizeof *r);
    if (!svc->request) {
        sbx_send_errf(err, errsz, "a %s: target is written, not sent", svc->name);
        return false;
    }
    if (!svc->request(t, env, r, u, err, errsz)) {
        sbx_buf_free(u);
        sbx_send_request_free(r);
        return false;
    }
    if (!r->headers_shown)
        r->headers_shown = sbx_xcalloc(1, sizeof *r->headers_shown);
    return true;
}

static void finish(struct sbx_send_request *r, struct sbx_buf *u, const char *method)
{
    r->method = sbx_xstrndup(method, strlen(method));
    r->url = sbx_send_take(u);
    if (!r->url_shown)
        r->url_shown = sbx_xstrndup(r->url, strlen(r->url));
}

static bool holds_secret(const struct sbx_send_request *r, const char *s, size_t n)
{
    for (size_t i = 0; i < 3 && r->secrets[i]; i++)
        if (*r->secrets[i] && memmem(s, n, r->secrets[i], strlen(r->secrets[i])))
            return true;
    return false;
}

/* The bytes sent for a body of kind k: Slack's payload as it is, else
 * {"body": VALUE}, the ADF document or the text as a string. */
static bool payload(enum sbx_body_kind k, const char *body, size_t len, struct sbx_buf *out,
                    char *err, size_t errsz)
{
    json_error_t je;
    json_t *value = NULL;
    switch (k) {
    case SBX_BODY_SLACK:
        value = json_loadb(body, len, 0, &je);
        if (!json_is_object(value)) {
            json_decref(value);
            sbx_send_errf(err, errsz, "the Slack payload is not a JSON object");
            return false;
        }
        json_decref(value);
        sbx_buf_add(out, body, len);
        return true;
    case SBX_BODY_JIRA_ADF:
        value = json_loadb(body, len, 0, &je);
        if (!json_is_object(value)) {
            json_decref(value);
            sbx_send_errf(err, errsz, "the Jira body is not an Atlassian Document Format object");
            return false;
        }
        break;
    case SBX_BODY_MARKDOWN:
    case SBX_BODY_JIRA_TEXT:
        if (!(value = json_stringn(body, len))) {
            sbx_send_errf(err, errsz, "the body is not valid UTF-8");
            return false;
        }
        break;
    }
    json_t *wrapped = json_pack("{s:o}", "body", value);
    char *json = json_dumps(wrapped, JSON_COMPACT);
    json_decref(wrapped);
    if (!json) {
        sbx_send_errf(err, errsz, "the body could not be written as JSON");
        return false;
    }
    sbx_buf_adds(out, json);
    free(json);
    return true;
}

bool sbx_send_build(const struct sbx_target *t, const struct sbx_send_env *env,
                    const char *body, size_t len, const char *digest,
                    struct sbx_send_request *out, char *err, size_t errsz)
{
    const struct sbx_service *svc = sbx_service_of(t->kind);
    struct sbx_buf u = SBX_BUF_INIT;
    if (!base_request(svc, t, env, out, &u, err, errsz))
        return false;
    finish(out, &u, "POST");
    /* the content type of every body sent: JSON */
    sbx_send_add_header(out, "Content-Type: application/json", NULL);
    if (!digest || !sbx_send_has_marker(body, len, digest)) {
        sbx_send_errf(err, errsz, "the body lacks its marker sbxview:DIGEST: it could not be "
                                  "posted safely again");
        sbx_send_request_free(out);
        return false;
    }
    if (holds_secret(out, body, len)) {
        sbx_send_errf(err, errsz, "the body holds the credential it would be sent with: not sent");
        sbx_send_request_free(out);
        return false;
    }
    if (!payload(svc->body_kind(env->jira_api), body, len, &out->body, err, errsz)) {
        sbx_send_request_free(out);
        return false;
    }
    return true;
}

bool sbx_send_build_kept(const struct sbx_target *t, const struct sbx_send_env *env,
                         const char *id, struct sbx_send_request *out, char *err,
                         size_t errsz)
{
    const struct sbx_service *svc = sbx_service_of(t->kind);
    memset(out, 0, sizeof *out);
    if (!svc->edit_kept) {
        sbx_send_errf(err, errsz, "a %s: target keeps no comment ids", svc->name);
        return false;
    }
    struct sbx_buf u = SBX_BUF_INIT;
    if (!base_request(svc, t, env, out, &u, err, errsz))
        return false;
    const char *method;
    if (!svc->edit_kept(id, &u, &method)) {
        sbx_buf_free(&u);
        sbx_send_request_free(out);
        sbx_send_errf(err, errsz, "the kept id is not one of %s's comment ids", svc->name);
        return false;
    }
    finish(out, &u, "GET");
    return true;
}

bool sbx_send_build_list(const struct sbx_target *t, const struct sbx_send_env *env,
                         unsigned long page, struct sbx_send_request *out, char *err,
                         size_t errsz)
{
    const struct sbx_service *svc = sbx_service_of(t->kind);
    if (!svc->list_page) {
        memset(out, 0, sizeof *out);
        sbx_send_errf(err, errsz, "the messages of a %s: target cannot be listed", svc->name);
        return false;
    }
    struct sbx_buf u = SBX_BUF_INIT;
    if (!base_request(svc, t, env, out, &u, err, errsz))
        return false;
    svc->list_page(&u, page);
    finish(out, &u, "GET");
    return true;
}
