/* Shared by export/send*.c and the services (internal to export/). Owns
 * nothing; what is added to a request is the request's. */
#ifndef SBX_SEND_INTERNAL_H
#define SBX_SEND_INTERNAL_H

#include <jansson.h>
#include "export/send.h"

#define SBX_SEND_MASK "****"
/* the longest URL of a comment passed on */
#define SBX_SEND_URL_MAX 512

/* s[0..n) appended to out made printable: valid UTF-8 without control,
 * C1 or bidirectional-override characters (each other byte or character
 * becomes '?'), cut at a character boundary near max bytes with "…"; each
 * of the NULL-terminated secrets (NULL or "" skipped) replaced by "****". */
void sbx_send_printable(struct sbx_buf *out, const char *s, size_t n, size_t max,
                        char *const *secrets, size_t nsecrets);
/* The host of an https:// URL (no user info, no port), appended to out. */
void sbx_send_url_host(struct sbx_buf *out, const char *url);
/* A base URL from the settings: https:// and without a trailing '/',
 * malloc'd; NULL with a reason in err. */
char *sbx_send_base_url(const char *value, const char *fallback, const char *var, char *err,
                        size_t errsz);

/* s[0..n) holds "sbxview:" + digest, not followed by another hex digit
 * (as export/body.h's sbx_export_marker_found). */
bool sbx_send_has_marker(const char *s, size_t n, const char *digest);
/* As sbx_send_has_marker for "TAG" + digest (tag: "sbxview:" or "sbxview-review:"). */
bool sbx_send_has_tagged(const char *s, size_t n, const char *tag, const char *digest);
/* The comment of a listing whose body holds tag + digest: a copy (caller
 * json_decref's it) in *found, its web URL in *url; false when none. */
bool sbx_send_find_tagged(const struct sbx_target *t, const struct sbx_send_env *env,
                          const char *json, size_t len, const char *tag, const char *digest,
                          json_t **found, char **url, unsigned long *count);

/* The comment an answer (json, len) is holds tag + digest in its body. */
bool sbx_send_comment_holds(const char *json, size_t len, const char *tag, const char *digest);

/* Building a request (export/send_request.c). */
void sbx_send_errf(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A path appended to a URL, each '/'-separated segment escaped, the
 * slashes kept or (one_segment) escaped too; false for an empty path, an
 * empty, "." or ".." segment, or a leading or trailing '/'. */
bool sbx_send_add_path(struct sbx_buf *url, const char *path, bool one_segment);
/* A header: line (NULL: only shown, as the bearer is) is sent, shown
 * (NULL: line) printed. */
void sbx_send_add_header(struct sbx_send_request *r, const char *line, const char *shown);
/* A header holding a credential: prefix then value sent, prefix then the
 * mask shown (the caller adds the value to r's secrets). */
void sbx_send_add_secret_header(struct sbx_send_request *r, const char *prefix,
                                const char *value);
/* s becomes one of what r never shows (three at most). */
void sbx_send_add_secret(struct sbx_send_request *r, const char *s);
bool sbx_send_has_control(const char *s);
/* b's string, malloc'd ("" when empty); b is left empty. */
char *sbx_send_take(struct sbx_buf *b);

#endif
