/* Shared by export/send*.c (internal to export/). Owns nothing. */
#ifndef SBX_SEND_INTERNAL_H
#define SBX_SEND_INTERNAL_H

#include "export/send.h"

#define SBX_SEND_MASK "****"

/* s[0..n) appended to out made printable: valid UTF-8 without control,
 * C1 or bidirectional-override characters (each other byte or character
 * becomes '?'), cut at a character boundary near max bytes with "…"; each
 * of the NULL-terminated secrets (NULL or "" skipped) replaced by "****". */
void sbx_send_printable(struct sbx_buf *out, const char *s, size_t n, size_t max,
                        char *const *secrets, size_t nsecrets);
/* The host of an https:// URL (no user info, no port), appended to out. */
void sbx_send_url_host(struct sbx_buf *out, const char *url);
/* A base URL from the environment: https:// and without a trailing '/',
 * malloc'd; NULL with a reason in err. */
char *sbx_send_base_url(const char *value, const char *fallback, const char *var, char *err,
                        size_t errsz);

/* s[0..n) holds "sbxview:" + digest, not followed by another hex digit
 * (as export/body.h's sbx_export_marker_found). */
bool sbx_send_has_marker(const char *s, size_t n, const char *digest);

#endif
