/* sbx_untrusted: the one way log text leaves render/ (and cli/) as text:
 * redacted (every credential-shaped string masked, analyses/secrets/
 * secrets.h, with the process's shared patterns), then sanitised
 * (render/sanitize.h) or JSON-escaped (base/jsonw.h), then cut. Redacting
 * first means a cut never leaves the readable start of a secret behind, and
 * a secret is masked in a sandbox id, a path, an actor's name or a URL as it
 * is in a command line. sbx_grid_untrusted and sbx_doc_untrusted redact the
 * same way, so every view does too.
 *
 * Safe from any thread. Ownership: appends to the caller's sbx_buf or JSON
 * writer; sbx_untrusted_redact's result lives in the caller's buffer. */
#ifndef SBX_RENDER_UNTRUSTED_H
#define SBX_RENDER_UNTRUSTED_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/jsonw.h"

/* s[0..n) redacted into tmp (cleared first); returns tmp's text, its
 * length in *len. Valid until tmp changes. */
const char *sbx_untrusted_redact(struct sbx_buf *tmp, const char *s, size_t n, size_t *len);

/* Redacted, sanitised with flags (SBX_SAN_*), each line cut to max_cols
 * columns when max_cols > 0 (as sbx_sanitize), appended to out. Returns true
 * if hidden text was found. */
bool sbx_untrusted_text(struct sbx_buf *out, const char *s, size_t n, unsigned flags, int max_cols);
bool sbx_untrusted_cstr(struct sbx_buf *out, const char *s, unsigned flags, int max_cols);

/* Redacted, then written as a JSON string; NULL writes null. */
void sbx_untrusted_json(struct sbx_jsonw *w, const char *s, size_t n);
void sbx_untrusted_json_cstr(struct sbx_jsonw *w, const char *s);

#endif
