#include "render/summary.h"

#include <stdio.h>
#include <string.h>

#include "render/summary_common.h"

bool sbx_summary_format_parse(const char *s, enum sbx_summary_format *f)
{
    if (strcmp(s, "text") == 0)
        *f = SBX_SUMMARY_TEXT;
    else if (strcmp(s, "markdown") == 0 || strcmp(s, "md") == 0)
        *f = SBX_SUMMARY_MARKDOWN;
    else if (strcmp(s, "json") == 0)
        *f = SBX_SUMMARY_JSON;
    else
        return false;
    return true;
}

const char *sbx_display_path(const char *path)
{
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    return path;
}

const char *sbx_sum_redact(struct sbx_sumctx *c, const char *s, size_t n, size_t *len)
{
    sbx_buf_clear(&c->red);
    sbx_secrets_redact(c->secrets, c->scratch, s, n, &c->red);
    *len = c->red.len;
    return c->red.p ? c->red.p : "";
}

const char *sbx_sum_command(struct sbx_sumctx *c, const struct sbx_event *e, size_t *len)
{
    size_t n;
    const char *s = sbx_text_get(c->tl, e, &e->u.cmd.command, &c->tmp, &n);
    return sbx_sum_redact(c, s, n, len);
}

size_t sbx_change_count(const struct sbx_strlist *lists)
{
    return lists[SBX_ADDED].n + lists[SBX_CHANGED].n + lists[SBX_REMOVED].n;
}

bool sbx_render_summary(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                        enum sbx_summary_format fmt, const struct sbx_summary_look *look,
                        struct sbx_buf *out, char *err, size_t errsz)
{
    struct sbx_sumctx c = {.tl = tl, .sum = sum, .ascii = look && look->ascii,
                           .sgr = look ? look->sgr : NULL};
    c.secrets = sum->patterns;
    if (!c.secrets) {
        snprintf(err, errsz, "the summary was not made by sbx_summarize");
        return false;
    }
    c.scratch = sbx_secrets_scratch_new(c.secrets);
    switch (fmt) {
    case SBX_SUMMARY_TEXT: sbx_render_text(&c, out); break;
    case SBX_SUMMARY_MARKDOWN: sbx_render_markdown(&c, out); break;
    case SBX_SUMMARY_JSON: sbx_render_json(&c, out); break;
    }
    sbx_secrets_scratch_free(c.scratch);
    sbx_buf_free(&c.tmp);
    sbx_buf_free(&c.red);
    return true;
}

bool sbx_render_summary_lines(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                              bool ascii, int cols, struct sbx_buf *out, struct sbx_summary_line **lines,
                              size_t *nlines, char *err, size_t errsz)
{
    struct sbx_sumctx c = {.tl = tl, .sum = sum, .ascii = ascii, .secrets = sum->patterns,
                           .cols = cols > 80 ? cols : 80};
    if (!c.secrets) {
        snprintf(err, errsz, "the summary was not made by sbx_summarize");
        return false;
    }
    c.scratch = sbx_secrets_scratch_new(c.secrets);
    c.lines = sbx_xmalloc(16 * sizeof *c.lines);
    c.caplines = 16;
    sbx_render_text(&c, out);
    sbx_secrets_scratch_free(c.scratch);
    sbx_buf_free(&c.tmp);
    sbx_buf_free(&c.red);
    *lines = c.lines;
    *nlines = c.nlines;
    return true;
}
