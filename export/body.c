/* The markdown body and the loop that makes a body fit its limit. */
#include "export/body.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "export/body_internal.h"
#include "base/timefmt.h"
#include "model/evid.h"
#include "render/findings.h"
#include "render/md.h"
#include "render/review.h"
#include "render/summary/summary.h"

struct ctx {
    const struct sbx_timeline *tl;
    const struct sbx_summary *sum;
    const struct sbx_export_digests *d;
    const struct sbx_body_opts *o;
    const struct sbx_findings *found;
    struct sbx_secrets_scratch *scratch;
    struct sbx_buf tmp;
    char marker[SBX_DIGEST_HEX]; /* of the last body made */
    char review_marker[SBX_DIGEST_HEX]; /* of the last body */
};

static void code(struct ctx *c, struct sbx_buf *out, const char *s, size_t n)
{
    sbx_md_code(out, s, n, false, c->sum->patterns, c->scratch);
}

static void code_cstr(struct ctx *c, struct sbx_buf *out, const char *s)
{
    code(c, out, s, strlen(s));
}

static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

static void findings(struct ctx *c, struct sbx_buf *out, size_t max)
{
    const struct sbx_findings *f = c->found;
    char t[SBX_TIME_BUFSZ];
    sbx_buf_addf(out, "\n### Findings\n\n**Findings:** %zu", f->n);
    const char *sep = " (";
    for (size_t k = 0; k < sbx_nfindings; k++) {
        size_t count = 0;
        for (size_t i = 0; i < f->n; i++)
            count += f->f[i].kind == sbx_findings[k].bit;
        if (count) {
            sbx_buf_addf(out, "%s%s %zu", sep, sbx_findings[k].name, count);
            sep = ", ";
        }
    }
    sbx_buf_adds(out, *sep == ',' ? ")\n\n" : "\n\n");
    for (size_t i = 0; i < f->n && i < max; i++) {
        const struct sbx_finding_item *it = &f->f[i];
        const struct sbx_event *e = it->event;
        sbx_buf_addf(out, "- **%s** at %s", sbx_finding_of(it->kind)->name, sbx_time_format(e->start, t));
        if (e->sandbox) {
            sbx_buf_adds(out, " in ");
            code_cstr(c, out, sbx_str(c->tl, e->sandbox));
        }
        sbx_buf_adds(out, ": ");
        struct sbx_buf words = SBX_BUF_INIT;
        sbx_finding_words(it, &words);
        code_cstr(c, out, words.p);
        sbx_buf_free(&words);
        sbx_buf_adds(out, " (");
        code_cstr(c, out, c->tl->sources[e->source].path);
        char fid[SBX_FINDID_LEN];
        sbx_finding_id(c->tl, e, it->kind, fid);
        sbx_buf_addf(out, " line %u) `%s`\n", sbx_ev_line_no(e), fid);
    }
    if (f->n > max)
        sbx_buf_addf(out, "- and %zu more\n", f->n - max);
}

/* The last `lines` lines of s[0..n) (a final newline does not count). */
static const char *tail(const char *s, size_t n, unsigned lines, size_t *len)
{
    size_t end = n && s[n - 1] == '\n' ? n - 1 : n, i = end;
    unsigned seen = 0;
    while (i > 0) {
        if (s[i - 1] == '\n' && ++seen == lines)
            break;
        i--;
    }
    *len = n - i;
    return s + i;
}

static bool failed(const struct sbx_event *e)
{
    return e->kind == SBX_EV_COMMAND && (e->findings & (SBX_F_FAILED | SBX_F_TIMED_OUT)) &&
           !(e->u.cmd.flags & SBX_CMD_RECORD);
}

static void outputs(struct ctx *c, struct sbx_buf *out, size_t max, unsigned lines)
{
    size_t total = 0, shown = 0;
    char t[SBX_TIME_BUFSZ];
    for (size_t i = 0; i < c->tl->n; i++)
        total += failed(sbx_tl_at(c->tl, i));
    sbx_buf_addf(out, "\n### Output of the failed commands\n\n**Failed commands:** %zu", total);
    if (total)
        sbx_buf_addf(out, "; the last %u line%s of each output", lines, plural(lines));
    sbx_buf_adds(out, "\n");
    for (size_t i = 0; i < c->tl->n && shown < max; i++) {
        const struct sbx_event *e = sbx_tl_at(c->tl, i);
        if (!failed(e))
            continue;
        shown++;
        size_t n;
        const char *cmd = sbx_text_get(c->tl, e, &e->u.cmd.command, &c->tmp, &n);
        sbx_buf_adds(out, "\n");
        if (e->u.cmd.flags & SBX_CMD_TIMED_OUT)
            sbx_buf_adds(out, "**Timed out**");
        else if (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN)
            sbx_buf_addf(out, "**Exit %d**", (int)sbx_cmd_exit(&e->u.cmd));
        else
            sbx_buf_adds(out, "**Failed**");
        sbx_buf_addf(out, " at %s: ", sbx_time_format(e->start, t));
        code(c, out, cmd, n);
        sbx_buf_adds(out, "\n");
        const struct sbx_text err = sbx_cmd_err(&e->u.cmd);
        const struct sbx_text *fields[2] = {&e->u.cmd.out, &err};
        static const char *const names[2] = {"stdout", "stderr"};
        for (int k = 0; k < 2; k++) {
            const char *s = sbx_text_get(c->tl, e, fields[k], &c->tmp, &n);
            if (!n)
                continue;
            size_t tl;
            const char *tx = tail(s, n, lines, &tl);
            sbx_buf_addf(out, "\n%s:\n\n", names[k]);
            sbx_md_block(out, tx, tl, c->sum->patterns, c->scratch);
        }
    }
    if (total > shown)
        sbx_buf_addf(out, "\nAnd %zu more failed command%s.\n", total - shown, plural(total - shown));
}

/* A path as a shell word: as it is when it is plain, else in single quotes. */
static void shell_word(struct sbx_buf *out, const char *s)
{
    bool plain = *s != '\0';
    for (const char *p = s; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-", *p))
            plain = false;
    if (plain) {
        sbx_buf_adds(out, s);
        return;
    }
    sbx_buf_addc(out, '\'');
    for (const char *p = s; *p; p++)
        if (*p == '\'')
            sbx_buf_adds(out, "'\\''");
        else
            sbx_buf_addc(out, *p);
    sbx_buf_addc(out, '\'');
}

static void sources(struct ctx *c, struct sbx_buf *out)
{
    const struct sbx_timeline *tl = c->tl;
    sbx_buf_addf(out, "\n### Sources\n\n%zu file%s, each with its SHA-256:\n\n", tl->nsources,
                 plural(tl->nsources));
    for (size_t i = 0; i < tl->nsources; i++) {
        sbx_buf_adds(out, "- ");
        code_cstr(c, out, tl->sources[i].path);
        sbx_buf_addf(out, " (%s, %zu bytes) `%s`\n", tl->sources[i].format, tl->sources[i].size,
                     c->d->file[i]);
    }
    sbx_buf_addf(out, "\nRun digest: `%s`\n", c->d->run);
    if (c->o->npaths) {
        struct sbx_buf cmd = SBX_BUF_INIT;
        sbx_buf_adds(&cmd, "sbxview");
        for (size_t i = 0; i < c->o->npaths; i++) {
            sbx_buf_addc(&cmd, ' ');
            shell_word(&cmd, c->o->paths[i]);
        }
        sbx_buf_adds(out, "\nTo review the run again, from where it was exported:\n\n");
        sbx_md_block(out, cmd.p, cmd.len, c->sum->patterns, c->scratch);
        sbx_buf_free(&cmd);
    }
}

static bool markdown(struct ctx *c, int list_max, unsigned lines, struct sbx_buf *out, char *err,
                     size_t errsz)
{
    if (!sbx_render_summary_markdown(c->tl, c->sum, list_max, out, err, errsz))
        return false;
    findings(c, out, (size_t)list_max * 5);
    size_t review_at = out->len;
    if (c->o->review_state && !sbx_review_state_empty(c->o->review_state)) {
        sbx_buf_adds(out, "\n### Review\n\n");
        sbx_review_markdown(c->tl, c->sum, c->o->review, c->o->review_state, out);
    }
    size_t review_len = out->len - review_at;
    if (c->o->include_output && lines)
        outputs(c, out, (size_t)list_max, lines);
    sources(c, out);
    /* the body less its Review part: the same export of another state of
     * the review has it too, so it finds the comment to edit */
    struct sbx_buf rest = SBX_BUF_INIT;
    sbx_buf_adds(&rest, "review\n");
    sbx_buf_add(&rest, out->p, review_at);
    sbx_buf_add(&rest, out->p + review_at + review_len, out->len - review_at - review_len);
    sbx_export_marker_digest(c->d->run, rest.p, rest.len, c->review_marker);
    sbx_buf_free(&rest);
    /* the marker covers what the body says (the same in every kind), then
     * a markdown body's review marker goes before it */
    sbx_export_marker_digest(c->d->run, out->p, out->len, c->marker);
    if (c->o->replaces_body) {
        /* a post that is never edited (Slack's) names the one it replaces:
         * sbxview's words, a time and hex digits the review file gave; out
         * of the marker, so the same review posted twice has one marker */
        char t[SBX_TIME_BUFSZ];
        sbx_buf_addf(out, "\nThis message replaces the one posted at %s (its last line: "
                     "sbxview:%.12s…), which held an earlier state of the review.\n",
                     sbx_time_format(c->o->replaces_at, t), c->o->replaces_body);
    }
    if (c->o->kind == SBX_BODY_MARKDOWN)
        sbx_buf_addf(out, "\n" SBX_REVIEW_MARKER_OPEN "%s" SBX_MARKER_CLOSE "\n", c->review_marker);
    sbx_buf_addf(out, "\n" SBX_MARKER_OPEN "%s" SBX_MARKER_CLOSE "\n", c->marker);
    return true;
}

/* One attempt: the body of the kind into out; its measured length. */
static bool attempt(struct ctx *c, int list_max, unsigned lines, struct sbx_buf *out, size_t *chars,
                    char *err, size_t errsz)
{
    struct sbx_buf md = SBX_BUF_INIT;
    if (!markdown(c, list_max, lines, &md, err, errsz)) {
        sbx_buf_free(&md);
        return false;
    }
    size_t start = out->len;
    switch (c->o->kind) {
    case SBX_BODY_MARKDOWN: sbx_buf_add(out, md.p, md.len); break;
    case SBX_BODY_JIRA_ADF: sbx_body_adf(md.p, md.len, c->marker, out); break;
    case SBX_BODY_JIRA_TEXT: sbx_body_jira_text(md.p, md.len, c->marker, out); break;
    case SBX_BODY_SLACK: sbx_body_slack(md.p, md.len, c->marker, out, chars); break;
    }
    if (c->o->kind != SBX_BODY_SLACK)
        *chars = sbx_body_chars(out->p + start, out->len - start);
    sbx_buf_free(&md);
    return true;
}

bool sbx_export_body(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                     const struct sbx_export_digests *d, const struct sbx_body_opts *o,
                     struct sbx_buf *out, struct sbx_body_info *info, char *err, size_t errsz)
{
    static const int list_steps[] = {SBX_SUMMARY_LIST_MAX, 5, 3, 2, 1, 0};
    const int nsteps = (int)(sizeof list_steps / sizeof list_steps[0]);
    if (!sum->patterns || d->n != tl->nsources) {
        snprintf(err, errsz, "the summary or the digests are not of this timeline");
        return false;
    }
    /* the body is UTF-8 whatever the reviewer's locale: widths and
     * sanitising follow C.UTF-8 in this thread while it is built */
    locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    locale_t old = utf8 ? uselocale(utf8) : (locale_t)0;
    struct sbx_findings found = {0};
    sbx_findings_collect(tl, sum, 0, &found);
    struct ctx c = {tl, sum, d, o, &found, sbx_secrets_scratch_new(sum->patterns), SBX_BUF_INIT, "", ""};
    unsigned lines = o->include_output ? (o->output_lines ? o->output_lines : 20) : 0;
    bool ok = false;
    struct sbx_buf body = SBX_BUF_INIT;
    /* fewer list items and fewer output lines, a step at a time */
    for (int step = 0;; step++) {
        int list_max = list_steps[step < nsteps ? step : nsteps - 1];
        unsigned l = step < 32 ? lines >> step : 0;
        size_t chars = 0;
        sbx_buf_clear(&body);
        if (!attempt(&c, list_max, l, &body, &chars, err, errsz))
            break;
        if (!o->limit || chars <= o->limit) {
            sbx_buf_add(out, body.p, body.len);
            if (info) {
                *info = (struct sbx_body_info){chars, list_max, l, step > 0, "", ""};
                memcpy(info->marker, c.marker, sizeof info->marker);
                memcpy(info->review_marker, c.review_marker, sizeof info->review_marker);
            }
            ok = true;
            break;
        }
        if (list_max == 0 && l == 0) {
            snprintf(err, errsz, "the %s body needs %zu characters even with every list shortened; "
                     "the limit is %zu", sbx_body_kind_name(o->kind), chars, o->limit);
            break;
        }
    }
    sbx_buf_free(&body);
    sbx_buf_free(&c.tmp);
    sbx_secrets_scratch_free(c.scratch);
    sbx_findings_free(&found);
    if (utf8) {
        uselocale(old);
        freelocale(utf8);
    }
    return ok;
}
