/* Log text quoted for markdown, so that nothing in it can act: no mention,
 * link, image, HTML or line-start command (a GitLab quick action) can come
 * out of text inside a code span or a fenced code block.
 *
 * The text is redacted (analyses/secrets/secrets.h; with the shared patterns
 * when secrets is NULL),
 * sanitised (render/sanitize.h: no escape, control, invisible character or
 * invalid UTF-8 is left), redacted again (an escape can hide a token's
 * first bytes from the sanitised text, and sanitising can join pieces into
 * one), then fenced with more
 * backticks than the longest run it holds (a block's fence at least 3, on
 * lines of their own).
 *
 * Ownership: appends to the caller's buffer; keeps nothing. Thread-safe
 * when each thread has its own scratch. */
#ifndef SBX_RENDER_MD_H
#define SBX_RENDER_MD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "analyses/secrets/secrets.h"

/* One line: a newline becomes a visible ↵ (^J in ascii). */
void sbx_md_code(struct sbx_buf *out, const char *s, size_t n, bool ascii,
                 const struct sbx_secrets *secrets, struct sbx_secrets_scratch *scratch);

/* A fenced block: "```\n" text "\n```\n" (longer fences as needed). */
void sbx_md_block(struct sbx_buf *out, const char *s, size_t n, const struct sbx_secrets *secrets,
                  struct sbx_secrets_scratch *scratch);

/* The longest run of backticks in s[0..n). */
size_t sbx_md_backtick_run(const char *s, size_t n);

#endif
