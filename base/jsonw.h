/* A small JSON writer for outputs (the summary's json format). Output is pure
 * ASCII: every non-ASCII character is written as \uXXXX (surrogate pairs
 * above U+FFFF), controls as \u00XX, and invalid UTF-8 bytes as U+FFFD, so
 * the result is valid JSON whatever the log held and safe to print on any
 * terminal. Commas and indentation are handled by the writer.
 *
 * Ownership: writes into the caller's sbx_buf; owns nothing. */
#ifndef SBX_JSONW_H
#define SBX_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define SBX_JSONW_MAX_DEPTH 32

struct sbx_jsonw {
    struct sbx_buf *out;
    int depth;
    bool first[SBX_JSONW_MAX_DEPTH]; /* no member written yet at this depth */
    bool pretty;
    bool after_key;
    /* sbx_jw_spill's: where out's text goes once it holds spill_at bytes */
    void (*spill)(void *ctx, const char *text, size_t len);
    void *spill_ctx;
    size_t spill_at;
};

void sbx_jw_init(struct sbx_jsonw *w, struct sbx_buf *out, bool pretty);
/* From now on, whenever out holds at least at bytes before a key or a value
 * is written, its whole text goes to spill and out is emptied: a long
 * document is passed on in pieces instead of held whole. The pieces joined
 * are the text out would have held. Code that writes into out beside the
 * writer must not keep offsets into it across the writer's calls. */
void sbx_jw_spill(struct sbx_jsonw *w, size_t at, void (*spill)(void *ctx, const char *text, size_t len),
                  void *ctx);
void sbx_jw_object(struct sbx_jsonw *w); /* { */
void sbx_jw_array(struct sbx_jsonw *w);  /* [ */
void sbx_jw_end_object(struct sbx_jsonw *w);
void sbx_jw_end_array(struct sbx_jsonw *w);
void sbx_jw_key(struct sbx_jsonw *w, const char *key);
void sbx_jw_string(struct sbx_jsonw *w, const char *s, size_t n);
void sbx_jw_cstr(struct sbx_jsonw *w, const char *s); /* NULL writes null */
void sbx_jw_int(struct sbx_jsonw *w, int64_t v);
void sbx_jw_null(struct sbx_jsonw *w);
void sbx_jw_bool(struct sbx_jsonw *w, bool v);

/* Appends s as JSON string contents (no quotes) to out. */
void sbx_json_escape(struct sbx_buf *out, const char *s, size_t n);

#endif
