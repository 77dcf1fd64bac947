#include "render/skips.h"

#include <string.h>

#include "analyses/secrets/secrets.h"
#include "render/sanitize.h"

struct sbx_skips_counts sbx_skips_count(const struct sbx_timeline *tl,
                                        const struct sbx_summary *sum)
{
    struct sbx_skips_counts c = {.listed = tl->nskips, .files = sum->nunread};
    for (size_t i = 0; i < tl->nsources; i++)
        c.lines += tl->sources[i].skipped;
    if (c.lines < c.listed)
        c.lines = c.listed;
    return c;
}

/* Redacts text with the summary's patterns (kept as it is if they are not
 * there: there is nothing to find them with). */
struct redactor {
    const struct sbx_secrets *secrets;
    struct sbx_secrets_scratch *scratch;
    struct sbx_buf out;
};

static void redactor_init(struct redactor *r, const struct sbx_summary *sum)
{
    *r = (struct redactor){.secrets = sum->patterns, .out = SBX_BUF_INIT};
    if (r->secrets)
        r->scratch = sbx_secrets_scratch_new(r->secrets);
}

static const char *redacted(struct redactor *r, const char *s, size_t *len)
{
    sbx_buf_clear(&r->out);
    if (r->scratch)
        sbx_secrets_redact(r->secrets, r->scratch, s, strlen(s), &r->out);
    else
        sbx_buf_adds(&r->out, s);
    *len = r->out.len;
    return r->out.p ? r->out.p : "";
}

static void redactor_free(struct redactor *r)
{
    sbx_secrets_scratch_free(r->scratch);
    sbx_buf_free(&r->out);
}

static void text_line(struct sbx_buf *out, const char *lead, struct sbx_buf *raw,
                      struct redactor *r, bool ascii)
{
    size_t n;
    const char *s = redacted(r, raw->p ? raw->p : "", &n);
    sbx_buf_adds(out, lead);
    sbx_sanitize(out, s, n, SBX_SAN_ONE_LINE | (ascii ? SBX_SAN_ASCII : 0), 0);
    sbx_buf_addc(out, '\n');
    sbx_buf_clear(raw);
}

void sbx_skips_text(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                    const char *line_lead, const char *file_lead, bool ascii,
                    struct sbx_buf *out)
{
    struct sbx_skips_counts c = sbx_skips_count(tl, sum);
    if (!c.lines && !c.files)
        return;
    struct redactor r;
    redactor_init(&r, sum);
    struct sbx_buf raw = SBX_BUF_INIT;
    for (size_t i = 0; i < tl->nskips; i++) {
        const struct sbx_skip *k = &tl->skips[i];
        sbx_buf_addf(&raw, "%s:%u: %s", tl->sources[k->source].path, k->line,
                     k->reason);
        text_line(out, line_lead, &raw, &r, ascii);
    }
    if (c.lines > c.listed)
        sbx_buf_addf(out, "%s%zu more skipped lines are counted, not listed\n", line_lead,
                     c.lines - c.listed);
    for (size_t i = 0; i < sum->nunread; i++) {
        sbx_buf_addf(&raw, "%s: %s", sum->unread[i].path, sum->unread[i].reason);
        text_line(out, file_lead, &raw, &r, ascii);
    }
    sbx_buf_free(&raw);
    redactor_free(&r);
}

static void json_text(struct sbx_jsonw *w, const char *key, struct redactor *r, const char *s)
{
    size_t n;
    const char *red = redacted(r, s, &n);
    sbx_jw_key(w, key);
    sbx_jw_string(w, red, n);
}

void sbx_skips_json(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                    struct sbx_jsonw *w)
{
    struct redactor r;
    redactor_init(&r, sum);
    sbx_jw_key(w, "skipped_lines");
    sbx_jw_array(w);
    for (size_t i = 0; i < tl->nskips; i++) {
        const struct sbx_skip *k = &tl->skips[i];
        sbx_jw_object(w);
        json_text(w, "source", &r, tl->sources[k->source].path);
        sbx_jw_key(w, "line");
        sbx_jw_int(w, k->line);
        json_text(w, "reason", &r, k->reason);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_jw_key(w, "skipped_lines_total");
    sbx_jw_int(w, (int64_t)sbx_skips_count(tl, sum).lines);
    sbx_jw_key(w, "unread_files");
    sbx_jw_array(w);
    for (size_t i = 0; i < sum->nunread; i++) {
        sbx_jw_object(w);
        json_text(w, "path", &r, sum->unread[i].path);
        json_text(w, "reason", &r, sum->unread[i].reason);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    redactor_free(&r);
}
