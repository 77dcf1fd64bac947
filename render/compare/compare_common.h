/* Shared by the three comparison renderers (internal to render/). */
#ifndef SBX_COMPARE_COMMON_H
#define SBX_COMPARE_COMMON_H

#include "analyses/secrets/secrets.h"
#include "render/compare/compare.h"

struct sbx_cmpctx {
    const struct sbx_cmp_run *run[2]; /* A, B */
    const struct sbx_compare *c;
    const struct sbx_secrets *secrets;
    struct sbx_secrets_scratch *scratch;
    bool ascii;
    struct sbx_buf tmp, red;
};

/* The event of side (0 A, 1 B) command i. */
const struct sbx_event *sbx_cmp_event(const struct sbx_cmpctx *x, int side, size_t i);
/* The decoded command line of side's command i, secrets redacted,
 * unsanitised (valid until the next call). */
const char *sbx_cmp_cmdline(struct sbx_cmpctx *x, int side, size_t i, size_t *len);
/* "exit 1", "timed out", "exit ?" */
const char *sbx_cmp_exit_words(const struct sbx_event *e, char buf[32]);
/* The change's verb ("added", "changed", "removed"), "" for -1. */
const char *sbx_cmp_change_name(int change);
/* "reached", "refused", "reached, refused", "" for 0. */
const char *sbx_cmp_host_words(unsigned flags);

void sbx_render_compare_text(struct sbx_cmpctx *x, struct sbx_buf *out);
void sbx_render_compare_md(struct sbx_cmpctx *x, struct sbx_buf *out);
void sbx_render_compare_json(struct sbx_cmpctx *x, struct sbx_buf *out);

#endif
