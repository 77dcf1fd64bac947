/* What makes one ticket service differ from another, as one struct of
 * operations. Everything the services share (the --to syntax, the marker,
 * the payload's JSON, the retries that never post twice, the masking) is
 * written once in export/target.c, export/send*.c and export/services.c,
 * which call these for the rest; nothing above export/ asks which service
 * a target is.
 *
 * A service is one file, export/services/NAME.c, that defines
 *     const struct sbx_service sbx_service_NAME = {.name = "NAME", ...};
 * by field name, and one row in export/services.h. Its settings are named
 * in the struct (the variable each comes from and its field of struct
 * sbx_send_env, which gains a field for a setting no service had before):
 * cli/ reads them from there, so it needs no change.
 *
 * Every operation is given the target that parse filled and, when it
 * sends, the settings; none keeps anything. Strings a service appends come
 * from checked target parts, the settings, or a server's answer (untrusted:
 * the callers make the result printable and drop a URL that holds a
 * credential).
 *
 * Ownership: services are static and constant; the operations append to
 * the caller's buffers and request, and return borrowed JSON. */
#ifndef SBX_EXPORT_SERVICE_H
#define SBX_EXPORT_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/buf.h"
#include "export/body.h"
#include "export/send.h"
#include "export/services.h"
#include "export/target.h"

/* One setting a service needs, read from the environment by cli/. */
struct sbx_service_setting {
    const char *var; /* the environment variable */
    size_t field;    /* offsetof(struct sbx_send_env, ITS_FIELD), a const char * */
    bool secret;     /* a credential: a URL a server answers with that holds it is dropped */
    bool stand_in;   /* a dry run without it goes on, a masked stand-in in its place */
    /* a URL with no default: what a dry run shows in its place when it is
     * unset ("https://<JIRA_URL unset>"), or NULL */
    const char *placeholder;
};

#define SBX_SERVICE_SETTINGS_MAX 4

struct sbx_service {
    const char *name; /* the word before ':' in --to */
    const char *form; /* the whole --to form, for messages: "github:OWNER/REPO#N" */
    size_t limit;     /* the body's limit in UTF-16 code units; 0: none */

    /* Every service has these three. */
    /* rest: what follows "NAME:". Fills t's parts (not its kind); false
     * with the rule that failed in err, never quoting rest. */
    bool (*parse)(const char *rest, struct sbx_target *t, char *err, size_t errsz);
    /* The part after "NAME:" in canonical form, appended to out. */
    void (*format)(const struct sbx_target *t, struct sbx_buf *out);
    /* api: the API version asked for (--jira-api, 2 or 3; one-API services ignore it). */
    enum sbx_body_kind (*body_kind)(int api);

    /* A service that sends has a request; NULL: the target is a file, written. */
    /* The POST's URL up to the comments (no query) appended to url; its
     * headers (headers_shown with the secrets masked), bearer, url_shown
     * when the URL itself is secret, and secrets set in r. False with a
     * one-line reason in err (a setting missing or not https://); r may
     * then hold parts, which the caller frees. */
    bool (*request)(const struct sbx_target *t, const struct sbx_send_env *env,
                    struct sbx_send_request *r, struct sbx_buf *url, char *err, size_t errsz);
    const char *secret_vars; /* the variables a refused credential points at */
    struct sbx_service_setting settings[SBX_SERVICE_SETTINGS_MAX]; /* the first var NULL ends */
    /* The web URL of comment c (an item of a listing, or the POST's 2xx
     * answer) appended to url; false when it names none. NULL: answers
     * never name one (Slack answers "ok"). */
    bool (*comment_url)(const struct sbx_target *t, const struct sbx_send_env *env,
                        const json_t *c, struct sbx_buf *url);

    /* A service whose comments can be listed, to find an earlier post by
     * its marker, has these two; NULL list_page: it cannot be, so after an
     * unsure answer nothing is sent again, and unlisted says so. */
    const char *unlisted; /* "... cannot be listed, so it is not sent again (look ...)" */
    /* url holds the POST's URL: page (0 first) of the listing from it. */
    void (*list_page)(struct sbx_buf *url, unsigned long page);
    /* The comments in a listing's parsed answer (borrowed from root), or
     * NULL when it is not a list of them; an answer that only counts them
     * puts the count in *count (count may be NULL). */
    json_t *(*comments)(json_t *root, unsigned long *count);
    /* Optional: when page 0 counted count comments, the pages to read
     * next into pages (at most 2), their number returned. NULL: page 0
     * is the newest comments and nothing more is read. */
    size_t (*more_pages)(unsigned long count, unsigned long pages[2]);

    /* Optional: editing a comment c of a listing. url holds the POST's URL:
     * it becomes the comment's own (from its id, never a URL the server
     * gave), and *method the verb that replaces its body. False when c
     * names no id. NULL: comments are never edited. */
    bool (*edit)(const json_t *c, struct sbx_buf *url, const char **method);
    /* Optional: editing the comment whose id an earlier export kept (the
     * review file's "posted" line: hostile). url holds the POST's URL: it
     * becomes that comment's, *method the verb. False when id is not one
     * of the service's ids. NULL: posts are not kept by id. */
    bool (*edit_kept)(const char *id, struct sbx_buf *url, const char **method);
    /* With edit_kept: the base URL from env whose server the ids are of (a
     * service run on many servers: Jira's JIRA_URL). A post keeps its host,
     * so an id is never used on another server. */
    const char *(*ids_server)(const struct sbx_send_env *env);
    /* A post can never be edited, so the next export of the run says which
     * one it replaces (Slack); its time and body digest are kept. */
    bool replaces;
};

#define SBX_SERVICE_DECLARE(kind, name) extern const struct sbx_service sbx_service_##name;
SBX_SERVICES(SBX_SERVICE_DECLARE)
#undef SBX_SERVICE_DECLARE

/* The setting s's field in env. */
static inline const char **sbx_service_setting_slot(struct sbx_send_env *env,
                                                    const struct sbx_service_setting *s)
{
    return (const char **)((char *)env + s->field);
}

static inline const char *sbx_service_setting_value(const struct sbx_send_env *env,
                                                    const struct sbx_service_setting *s)
{
    return *(const char *const *)((const char *)env + s->field);
}

#endif
