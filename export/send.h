/* sbx_send: posting a built export body to a ticket service, safely.
 *
 * The requests are those of each service's REST API (each service's own
 * part is its file in export/services/, export/service.h):
 *   github  POST {GITHUB_API_URL|https://api.github.com}/repos/OWNER/REPO/issues/N/comments
 *           Authorization: Bearer GITHUB_TOKEN, Accept: application/vnd.github+json,
 *           X-GitHub-Api-Version: 2022-11-28; {"body": MARKDOWN}
 *   gitlab  POST {GITLAB_URL|https://gitlab.com}/api/v4/projects/ESCAPED-PATH/issues/N/notes
 *           PRIVATE-TOKEN: GITLAB_TOKEN; {"body": MARKDOWN}
 *   jira    POST {JIRA_URL}/rest/api/3/issue/KEY/comment, basic auth JIRA_USER:JIRA_TOKEN;
 *           {"body": ADF-DOCUMENT} (v2: /rest/api/2/…, {"body": TEXT})
 *   slack   POST SLACK_WEBHOOK_URL; the body as given (Slack's JSON payload)
 * Targets are export/target.h's (not file:, which is written, not sent).
 * GITHUB_TOKEN and the other names are the settings' (struct sbx_send_env).
 * The body given is the one export/body.h built for the kind: markdown
 * (github, gitlab), an ADF document as JSON (jira v3), plain text (jira v2),
 * the whole JSON payload (slack). It must hold the marker
 * "sbxview:DIGEST" (the <!-- sbxview:DIGEST --> comment, or Jira's footer).
 *
 * Secrets (the tokens, Jira's basic credentials, the Slack webhook URL) go
 * only into the request's headers or, for Slack, its URL. They are never in
 * a message, the --dry-run print, or the result; a body that holds one is
 * refused. Redirects are never followed. Every text that comes from a
 * server (messages, URLs) is cut and made printable before it is returned.
 *
 * Safe to retry: before the first post (unless opts.repost), and after an
 * answer that leaves it unknown whether the comment was stored (a timeout,
 * a broken connection, a 5xx), the recent comments are listed and searched
 * for the marker: a comment found is reported, not posted again, so neither
 * a retry nor a second run posts twice. Each POST goes on a new connection
 * (libcurl would re-send by itself on a kept one that closed unanswered).
 * Slack's webhooks cannot be listed: after an unsure answer nothing is sent
 * again and the result says so. A 429 (and GitHub's rate limits, primary and
 * secondary: a 403 with X-RateLimit-Remaining 0, a Retry-After or "rate
 * limit" in its message) is waited out up to opts.wait_max_ms in all.
 *
 * Thread-safe: no global state; one call uses its own HTTP client.
 * Ownership: sbx_send_build's request is the caller's (sbx_send_request_free
 * wipes and frees it); the env's strings are borrowed for the calls; a
 * result's url is the caller's (sbx_send_result_free). */
#ifndef SBX_SEND_H
#define SBX_SEND_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "export/body.h"
#include "export/target.h"

/* The settings, which the caller fills (borrowed; NULL when unset or "").
 * Each comes from the environment variable its service names for it in
 * export/service.h's settings (sbx_send_settings_fill asks for them):
 * GITHUB_API_URL, GITHUB_TOKEN, GITLAB_URL, GITLAB_TOKEN, JIRA_URL,
 * JIRA_USER, JIRA_TOKEN, SLACK_WEBHOOK_URL; and SBXVIEW_CA_FILE; jira_api
 * comes from --jira-api. Nothing in export/ reads the environment. */
struct sbx_send_env {
    const char *github_api_url, *github_token;
    const char *gitlab_url, *gitlab_token;
    const char *jira_url, *jira_user, *jira_token;
    const char *slack_webhook_url;
    const char *ca_file; /* a CA bundle to trust instead of the system's */
    int jira_api;        /* 2 or 3 (0 means 3) */
};

/* Fills env: each setting from get(ctx, VARIABLE), NULL or "" meaning
 * unset (cli/ passes the environment's); jira_api 3. The strings stay
 * get's. */
void sbx_send_settings_fill(struct sbx_send_env *env,
                            const char *(*get)(void *ctx, const char *var), void *ctx);

/* A dry run or a preview needs no credentials: each one t's service can be
 * shown without (a token, a user) that env lacks gets a stand-in, which
 * the request masks as it masks any credential, and a service URL with no
 * default gets its placeholder ("https://<JIRA_URL unset>"). The first max of the
 * variables stood in for go to unset (static strings); how many went
 * there is returned (0: none was missing). */
size_t sbx_send_placeholders(const struct sbx_target *t, struct sbx_send_env *env,
                             const char **unset, size_t max);

/* One request, ready to send: every string owned. */
struct sbx_send_request {
    char *method;           /* "POST" or "GET" */
    char *url;              /* the real URL (Slack's holds the secret) */
    char *url_shown;        /* the URL to show: Slack's is https://HOST then a masked path */
    char *bearer;           /* NULL, or the token for "Authorization: Bearer" */
    char **headers;         /* other "Name: value" lines, NULL-terminated (may hold a secret) */
    char **headers_shown;   /* every header as printed, secrets as "****" */
    struct sbx_buf body;    /* the bytes to send (empty for GET) */
    char *secrets[3];       /* what must never be shown, NULL-padded */
};

/* The POST for body on target; false with a one-line reason in err (a
 * variable not set, a base URL that is not https://, a body holding a
 * secret or not holding the marker "sbxview:" + digest). */
bool sbx_send_build(const struct sbx_target *t, const struct sbx_send_env *env,
                    const char *body, size_t len, const char *digest,
                    struct sbx_send_request *out, char *err, size_t errsz);
/* The GETs that list the recent comments of target: page (0 first) of the
 * listing; false when the service cannot be listed (Slack). For GitHub,
 * page 0 is the issue itself (its comment count), pages 1.. the comments'
 * pages of 100 (oldest first, as GitHub lists them). */
bool sbx_send_build_list(const struct sbx_target *t, const struct sbx_send_env *env,
                         unsigned long page, struct sbx_send_request *out, char *err,
                         size_t errsz);
void sbx_send_request_free(struct sbx_send_request *r);
/* The request carries a body of kind k as a JSON string, {"body": TEXT}
 * (markdown, Jira's v2 text); else as JSON (Slack's payload as it is,
 * Jira's ADF document as the "body" value). */
bool sbx_send_body_is_text(enum sbx_body_kind k);

/* --dry-run: "METHOD URL", the headers (secrets "****"), a blank line, the
 * body bytes as they would be sent, and a final newline. */
void sbx_send_print(FILE *f, const struct sbx_send_request *r);
/* The same into a buffer (the terminal's preview). */
void sbx_send_format(struct sbx_buf *out, const struct sbx_send_request *r);

/* The marker search in one answer of a listing (json, len): true when a
 * comment's body holds "sbxview:" + digest, with that comment's web URL in
 * *url (malloc'd; NULL when the answer names none). For GitHub's page 0
 * (the issue), *count gets its comment count and false is returned; for a
 * service that cannot be listed, false. */
bool sbx_send_find_marker(const struct sbx_target *t, const struct sbx_send_env *env,
                          const char *json, size_t len, const char *digest, char **url,
                          unsigned long *count);
/* The web URL of the comment a 2xx answer to the POST describes, printable;
 * NULL when it names none (Slack answers "ok"). Malloc'd. */
char *sbx_send_comment_url(const struct sbx_target *t, const struct sbx_send_env *env,
                           const char *json, size_t len);
/* The service's own words in an error answer (GitHub's and GitLab's
 * "message", "error", Jira's "errorMessages" and "errors", Slack's text),
 * made printable, secrets cut out, at most about 300 bytes; appended to out. */
void sbx_send_service_message(struct sbx_buf *out, const char *body, size_t len,
                              const struct sbx_send_request *r);

struct sbx_send_opts {
    long connect_timeout_ms; /* 0: 10 s */
    long timeout_ms;         /* one request, 0: 30 s */
    int64_t wait_max_ms;     /* rate limits waited out up to this in all; 0: 120 s, <0: none */
    int attempts;            /* posts at most this many times after uncertain answers; 0: 3 */
    bool repost;             /* post without first looking for an earlier copy */
    const _Atomic bool *cancel; /* optional: set to stop within about a second */
    /* optional: told before each wait or retry ("rate limited: waiting 30 s") */
    void (*progress)(void *ctx, const char *line);
    void *progress_ctx;
    /* optional: the body's review marker (export/body.h). When no comment
     * holds the body's marker but one holds this (the same export of the
     * run, another state of its review), that comment is edited instead of
     * posting a new one, on services that can edit (GitHub, GitLab). */
    const char *review_marker;
    /* optional: the id of the comment this export of the run posted before,
     * kept in the review file (docs/review-file.md), on a service that
     * edits by a kept id (Jira): when no comment holds the body's marker,
     * that comment is edited; when it is gone (404), a new one is posted. */
    const char *kept_comment;
    /* with kept_comment: the marker digest of the body that comment was
     * posted with. It is read first and edited only while it still holds
     * "sbxview:" + this; a comment rewritten, or another one, is left
     * alone and a new one posted. */
    const char *kept_body;
};

/* A comment's id as kept: 1 to 64 of A-Z a-z 0-9 _ - and a NUL. */
#define SBX_SEND_ID_MAX 65
/* The "id" of the comment an answer (json, len) describes, into out: a
 * positive integer or a string of those characters; false (out "") when
 * it names none. */
bool sbx_send_comment_id(const char *json, size_t len, char out[SBX_SEND_ID_MAX]);

enum sbx_send_status {
    SBX_SEND_POSTED,  /* a new comment: url is it (NULL for Slack) */
    SBX_SEND_EXISTED, /* an earlier try had stored it: url is that comment */
    SBX_SEND_FAILED,  /* message says why; nothing posted, or (uncertain) says so */
    SBX_SEND_EDITED,  /* an earlier comment of this export, found by its review marker,
                         now holds the body: url is it */
};

struct sbx_send_result {
    enum sbx_send_status status;
    char *url;         /* printable, or NULL */
    char message[600]; /* printable, one line: what happened */
    long http_status;  /* the last status seen, 0 for none */
    int posts;         /* how many POSTs were sent */
    char comment_id[SBX_SEND_ID_MAX]; /* the id of the comment posted or edited (the answer's "id", or
                            the kept one), "" when none is known */
};

/* Sends body to target (see the contract); false unless posted or found. */
bool sbx_send_post(const struct sbx_target *t, const struct sbx_send_env *env,
                   const char *body, size_t len, const char *digest,
                   const struct sbx_send_opts *opts, struct sbx_send_result *res);
void sbx_send_result_free(struct sbx_send_result *res);

/* What an export must remember of its post to find it again, when its
 * service has no comment it can find by the review marker: */
enum sbx_send_memory {
    SBX_SEND_FINDS,    /* nothing: the post is found by its marker (GitHub, GitLab) or written */
    SBX_SEND_EDITS_ID, /* the comment's id, to edit it next time (Jira) */
    SBX_SEND_REPLACES, /* when and what it posted, for the next message to say it
                          replaces that one (Slack: a webhook's post is never edited) */
};
enum sbx_send_memory sbx_send_memory_of(enum sbx_target_kind kind);

/* The server t's kept comment ids belong to (SBX_SEND_EDITS_ID): the host
 * of the service's base URL in lower case, ":PORT" when the URL gives one;
 * never its user info or path. False (out "") when the service keeps no
 * ids or its URL is unset or has no such host. */
#define SBX_SEND_SERVER_MAX 256
bool sbx_send_server(const struct sbx_target *t, const struct sbx_send_env *env,
                     char out[SBX_SEND_SERVER_MAX]);

/* The GET of the comment whose id was kept (the one the service's
 * edit_kept would edit); false with a reason in err, also when id is not
 * one of the service's ids. */
bool sbx_send_build_kept(const struct sbx_target *t, const struct sbx_send_env *env,
                         const char *id, struct sbx_send_request *out, char *err,
                         size_t errsz);

/* The environment variable(s) a 401 points at, e.g. "GITHUB_TOKEN". */
const char *sbx_send_secret_vars(enum sbx_target_kind kind);

#endif
