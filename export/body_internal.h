/* The body builder's converters (internal to export/): the markdown body,
 * which only sbxview writes (log text sits in code spans and fences), turned
 * into the other kinds. Each appends to out; owns nothing. */
#ifndef SBX_BODY_INTERNAL_H
#define SBX_BODY_INTERNAL_H

#include <stddef.h>

#include "base/buf.h"

/* The line that ends every markdown body: "<!-- sbxview:" DIGEST " -->". */
#define SBX_MARKER_OPEN "<!-- sbxview:"
#define SBX_MARKER_CLOSE " -->"
/* A markdown body's second marker: the digest of the body without its
 * Review part, which stays when only the review changed (export/send.h). */
#define SBX_REVIEW_MARKER_OPEN "<!-- sbxview-review:"

/* md: the markdown body. digest: the run digest (64 hex digits). */
void sbx_body_adf(const char *md, size_t n, const char *digest, struct sbx_buf *out);
void sbx_body_jira_text(const char *md, size_t n, const char *digest, struct sbx_buf *out);
/* The Slack payload; *text_chars gets the UTF-16 length of its text. */
void sbx_body_slack(const char *md, size_t n, const char *digest, struct sbx_buf *out,
                    size_t *text_chars);

#endif
