/* The comparison renderers' entry point and what they share. */
#include "base/numfmt.h"
#include "render/compare/compare.h"

#include <stdio.h>
#include <string.h>

#include "render/compare/compare_common.h"

char sbx_cmp_marker(enum sbx_cmp_kind k)
{
    static const char marks[SBX_CMP_KIND_COUNT] = {'=', '!', '~', '-', '+', '>'};
    return (unsigned)k < SBX_CMP_KIND_COUNT ? marks[k] : '?';
}

const struct sbx_event *sbx_cmp_event(const struct sbx_cmpctx *x, int side, size_t i)
{
    return side ? x->c->cmd_b[i].ev : x->c->cmd_a[i].ev;
}

const char *sbx_cmp_cmdline(struct sbx_cmpctx *x, int side, size_t i, size_t *len)
{
    const struct sbx_event *e = sbx_cmp_event(x, side, i);
    size_t n;
    const char *s = sbx_text_get(x->run[side]->tl, e, &e->u.cmd.command, &x->tmp, &n);
    sbx_buf_clear(&x->red);
    sbx_secrets_redact(x->secrets, x->scratch, s, n, &x->red);
    *len = x->red.len;
    return x->red.p ? x->red.p : "";
}

const char *sbx_cmp_exit_words(const struct sbx_event *e, char buf[32])
{
    const struct sbx_command *c = &e->u.cmd;
    if (c->flags & SBX_CMD_TIMED_OUT)
        return "timed out";
    if (!(c->flags & SBX_CMD_EXIT_KNOWN))
        return "exit ?";
    snprintf(buf, 32, "exit %d", (int)sbx_cmd_exit(c));
    return buf;
}

const char *sbx_cmp_change_name(int change)
{
    static const char *const names[SBX_CHANGE_COUNT] = {"added", "changed", "removed"};
    return change >= 0 && change < SBX_CHANGE_COUNT ? names[change] : "";
}

const char *sbx_cmp_host_words(unsigned flags)
{
    switch (flags & (SBX_CMP_H_REACHED | SBX_CMP_H_REFUSED)) {
    case SBX_CMP_H_REACHED: return "reached";
    case SBX_CMP_H_REFUSED: return "refused";
    case SBX_CMP_H_REACHED | SBX_CMP_H_REFUSED: return "reached, refused";
    default: return "";
    }
}

void sbx_cmp_diff_words(const struct sbx_compare *c, const struct sbx_cmp_row *r, bool ascii,
                        struct sbx_buf *out)
{
    if (!r->diff)
        return;
    size_t ia = r->a, ib = r->b;
    if (r->kind == SBX_CMP_MOVED) { /* the pair is the two halves */
        const struct sbx_cmp_row *p = &c->rows[r->partner];
        ia = ia != SBX_CMP_NONE ? ia : p->a;
        ib = ib != SBX_CMP_NONE ? ib : p->b;
    }
    const struct sbx_event *a = c->cmd_a[ia].ev, *b = c->cmd_b[ib].ev;
    const char *arrow = ascii ? " -> " : " \xE2\x86\x92 ";
    size_t start = out->len;
    char x[32], y[32];
    if (r->diff & SBX_CMP_D_EXIT)
        sbx_buf_addf(out, "%s%s%s", sbx_cmp_exit_words(a, x), arrow, sbx_cmp_exit_words(b, y));
    if (r->diff & SBX_CMP_D_DURATION) {
        double f = r->ratio >= 1 ? r->ratio : (r->ratio > 0 ? 1 / r->ratio : 0);
        if (out->len > start)
            sbx_buf_adds(out, ", ");
        int64_t tenths = sbx_round_nearest(f * 10);
        if (f > 0)
            sbx_buf_addf(out, "%lld.%lld%s %s", (long long)(tenths / 10), (long long)(tenths % 10),
                         ascii ? "x" : "\xC3\x97", r->ratio >= 1 ? "slower" : "faster");
        else
            sbx_buf_addf(out, "%s%s%s", sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(&a->u.cmd)), SBX_DUR_WORDS, x),
                         arrow, sbx_duration_text(sbx_ms_to_ns(sbx_cmd_ms(&b->u.cmd)), SBX_DUR_WORDS, y));
    }
    if (r->diff & SBX_CMP_D_STDOUT_HASH)
        sbx_buf_adds(out, out->len > start ? ", stdout hash" : "stdout hash");
    if (r->diff & SBX_CMP_D_OUTPUT)
        sbx_buf_adds(out, out->len > start ? ", output" : "output");
}

bool sbx_render_compare(const struct sbx_cmp_run *a, const struct sbx_cmp_run *b,
                        const struct sbx_compare *c, enum sbx_summary_format fmt, bool ascii,
                        struct sbx_buf *out, char *err, size_t errsz)
{
    struct sbx_cmpctx x = {.run = {a, b}, .c = c, .secrets = a->sum->patterns, .ascii = ascii,
                           .tmp = SBX_BUF_INIT, .red = SBX_BUF_INIT};
    if (!x.secrets || !(x.scratch = sbx_secrets_scratch_new(x.secrets))) {
        snprintf(err, errsz, "the secret patterns are not available");
        return false;
    }
    switch (fmt) {
    case SBX_SUMMARY_TEXT: sbx_render_compare_text(&x, out); break;
    case SBX_SUMMARY_MARKDOWN: sbx_render_compare_md(&x, out); break;
    case SBX_SUMMARY_JSON: sbx_render_compare_json(&x, out); break;
    }
    sbx_secrets_scratch_free(x.scratch);
    sbx_buf_free(&x.tmp);
    sbx_buf_free(&x.red);
    return true;
}
