#include "base/numfmt.h"
#include "render/summary/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/summary/summary_common.h"

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

static int proxy_cmp(const void *x, const void *y, void *ctx)
{
    const struct sbx_summary *s = ((const void *const *)ctx)[0];
    const struct sbx_timeline *tl = ((const void *const *)ctx)[1];
    const struct sbx_host_stat *a = &s->proxy_hosts[*(const size_t *)x],
                               *b = &s->proxy_hosts[*(const size_t *)y];
    if ((a->denied > 0) != (b->denied > 0))
        return a->denied > 0 ? -1 : 1;
    if (a->requests != b->requests)
        return a->requests > b->requests ? -1 : 1;
    return strcmp(sbx_str(tl, a->host), sbx_str(tl, b->host));
}

size_t *sbx_sum_proxy_order(const struct sbx_timeline *tl, const struct sbx_summary *s)
{
    if (!s->nproxy_hosts)
        return NULL;
    size_t *idx = sbx_xmalloc(s->nproxy_hosts * sizeof *idx);
    for (size_t i = 0; i < s->nproxy_hosts; i++)
        idx[i] = i;
    const void *ctx[2] = {s, tl};
    qsort_r(idx, s->nproxy_hosts, sizeof *idx, proxy_cmp, (void *)ctx);
    return idx;
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

/* The record's clock: its offset and how it was found, or why there is none
 * (docs/formats/runtime.md, "Cross-check"). */
static void skew_words(const struct sbx_crosscheck *x, struct sbx_buf *out)
{
    const struct sbx_skew *k = &x->skew;
    long long ms = (long long)sbx_ns_to_ms(k->ns);
    char spread[SBX_NUM_BUFSZ];
    sbx_duration_text(k->spread_ns, SBX_DUR_WORDS, spread);
    switch (k->how) {
    case SBX_SKEW_NONE:
        sbx_buf_adds(out, "; skew not measured (no wrapper command to align to: Runtime's own clock)");
        break;
    case SBX_SKEW_MEASURED:
        sbx_buf_addf(out, "; skew %+lld ms (%zu of %zu pairs agree, spread %s)", ms, k->pairs,
                     k->comparable, spread);
        break;
    case SBX_SKEW_GIVEN:
        sbx_buf_addf(out, "; skew %+lld ms as given (%zu of %zu pairs agree, spread %s)", ms,
                     k->pairs, k->comparable, spread);
        break;
    case SBX_SKEW_UNCERTAIN:
        if (k->pairs)
            sbx_buf_addf(out, "; skew uncertain (%+lld ms from only %zu of %zu pairs, not applied)", ms,
                         k->pairs, k->comparable);
        else
            sbx_buf_addf(out, "; skew uncertain (no pairs of %zu agree)", k->comparable);
        sbx_buf_addf(out, "; not concluded: %zu record%s and %zu command%s unmatched", x->nunmatched_records,
                     x->nunmatched_records == 1 ? "" : "s", x->nunmatched_commands,
                     x->nunmatched_commands == 1 ? "" : "s");
        break;
    }
}

void sbx_sum_record_words(const struct sbx_summary *s, struct sbx_buf *out)
{
    const struct sbx_crosscheck *x = &s->cross;
    if (!x->records) {
        sbx_buf_adds(out, "not checked (no command record loaded)");
        return;
    }
    sbx_buf_addf(out, "%zu record%s: %zu of %zu commands matched", x->records, x->records == 1 ? "" : "s",
                 x->npairs, x->checked_commands);
    if (s->ngaps)
        sbx_buf_addf(out, "; %zu POSSIBLY REMOVED from the log", s->ngaps);
    if (x->noutside)
        sbx_buf_addf(out, "; %zu OUTSIDE the wrapper", x->noutside);
    if (x->nmissing)
        sbx_buf_addf(out, "; %zu missing from the record", x->nmissing);
    if (x->nexit_mismatch)
        sbx_buf_addf(out, "; %zu exit code%s differ", x->nexit_mismatch, x->nexit_mismatch == 1 ? "" : "s");
    skew_words(x, out);
    if (x->older_than_record)
        sbx_buf_addf(out, "; %zu older than the record", x->older_than_record);
    if (x->running)
        sbx_buf_addf(out, "; %zu running", x->running);
    if (x->unread)
        sbx_buf_addf(out, "; %zu unread", x->unread);
}

bool sbx_sum_witness_words(const struct sbx_timeline *tl, const struct sbx_summary *s,
                           struct sbx_buf *out)
{
    const struct sbx_witnesses *w = &s->witness;
    for (size_t i = 0; i < w->nclocks; i++) {
        uint32_t src = w->clocks[i].source;
        const struct sbx_skew *k = &w->clocks[i].skew;
        size_t seen = 0, unwrapped = 0, unconcluded = 0;
        for (size_t j = 0; j < w->n; j++)
            seen += w->by_second[j].second->source == src && w->by_second[j].second->kind == SBX_EV_COMMAND;
        for (size_t j = 0; j < w->nunwrapped; j++)
            unwrapped += w->unwrapped[j]->source == src;
        for (size_t j = 0; j < w->nunconcluded; j++)
            unconcluded += w->unconcluded[j]->source == src;
        sbx_buf_addf(out, "%s%s's log: %zu command%s the wrapper's", i ? "; " : "", tl->sources[src].format,
                     seen, seen == 1 ? "" : "s");
        if (unwrapped)
            sbx_buf_addf(out, ", %zu UNWRAPPED", unwrapped);
        long long ms = (long long)sbx_ns_to_ms(k->ns);
        char spread[SBX_NUM_BUFSZ];
        sbx_duration_text(k->spread_ns, SBX_DUR_WORDS, spread);
        if (k->how == SBX_SKEW_UNCERTAIN) {
            if (k->pairs)
                sbx_buf_addf(out, ", skew uncertain (%+lld ms from only %zu of %zu pairs, not applied: its own clock)",
                             ms, k->pairs, k->comparable);
            else
                sbx_buf_addf(out, ", skew uncertain (no pairs of %zu agree: its own clock)", k->comparable);
            sbx_buf_addf(out, ", not concluded: %zu command%s unmatched", unconcluded, unconcluded == 1 ? "" : "s");
        } else {
            sbx_buf_addf(out, ", skew %+lld ms%s (%zu pair%s agree, spread %s)", ms,
                         k->how == SBX_SKEW_GIVEN ? " as given" : "", k->pairs, k->pairs == 1 ? "" : "s", spread);
        }
    }
    return w->nclocks > 0;
}

void sbx_sum_proxy_clock_words(const struct sbx_proxy_clock *pc, struct sbx_buf *out)
{
    const struct sbx_skew *k = &pc->skew;
    long long ms = (long long)sbx_ns_to_ms(k->ns);
    char spread[SBX_NUM_BUFSZ];
    sbx_duration_text(k->spread_ns, SBX_DUR_WORDS, spread);
    switch (k->how) {
    case SBX_SKEW_NONE:
        sbx_buf_addf(out, "%s's own clock (no request's host is named by a wrapper command: nothing to align)",
                     pc->format);
        break;
    case SBX_SKEW_MEASURED:
        sbx_buf_addf(out, "skew %+lld ms (%zu of %zu requests agree, in %zu of %zu commands; spread %s)", ms,
                     k->pairs, k->comparable, pc->commands_agreeing, pc->commands, spread);
        break;
    case SBX_SKEW_GIVEN:
        sbx_buf_addf(out, "skew %+lld ms as given (%zu of %zu requests agree, in %zu of %zu commands)", ms,
                     k->pairs, k->comparable, pc->commands_agreeing, pc->commands);
        break;
    case SBX_SKEW_UNCERTAIN:
        sbx_buf_addf(out,
                     "skew uncertain (%+lld ms from only %zu of %zu requests, in %zu of %zu commands, "
                     "spread %s; not applied: %s's own clock)",
                     ms, k->pairs, k->comparable, pc->commands_agreeing, pc->commands, spread, pc->format);
        break;
    }
}

void sbx_sum_account_words(const struct sbx_timeline *tl, const struct sbx_summary *s,
                           struct sbx_buf *out)
{
    (void)tl;
    if (!s->audit_entries) {
        sbx_buf_adds(out, "no changes seen (no audit log loaded)");
        return;
    }
    if (!s->naccount) {
        sbx_buf_addf(out, "no changes (%zu audit entr%s about the run)", s->audit_about_run,
                     s->audit_about_run == 1 ? "y" : "ies");
        return;
    }
    sbx_buf_addf(out, "%zu change%s", s->naccount, s->naccount == 1 ? "" : "s");
    if (s->account_inside)
        sbx_buf_addf(out, ", %zu made FROM INSIDE a sandbox", s->account_inside);
    sbx_buf_addf(out, "; %zu audit entr%s, %zu about the run", s->audit_entries,
                 s->audit_entries == 1 ? "y" : "ies", s->audit_about_run);
}

bool sbx_sum_sandbox_words(const struct sbx_summary *s, struct sbx_buf *out)
{
    if (!s->lifecycle && !s->metrics && !s->webhooks)
        return false;
    const char *sep = "";
    if (s->lifecycle) {
        sbx_buf_addf(out, "%zu event%s", s->lifecycle, s->lifecycle == 1 ? "" : "s");
        if (s->pauses)
            sbx_buf_addf(out, ", %zu paused", s->pauses);
        if (s->wakes)
            sbx_buf_addf(out, ", %zu woken", s->wakes);
        if (s->stops)
            sbx_buf_addf(out, ", %zu stopped", s->stops);
        if (s->failed_starts)
            sbx_buf_addf(out, ", %zu failed to start", s->failed_starts);
        sep = "; ";
    }
    if (s->metrics) {
        sbx_buf_addf(out, "%s%zu metrics reading%s", sep, s->metrics, s->metrics == 1 ? "" : "s");
        sep = ": ";
    }
    if (s->cpu_peak) {
        const struct sbx_metric *m = &s->cpu_peak->u.metric;
        char pct[SBX_NUM_BUFSZ];
        sbx_buf_addf(out, "%sCPU peak %s", sep,
                     sbx_percent_text(m->cpu_peak_percent >= 0 ? m->cpu_peak_percent : m->cpu_percent, pct));
        sep = ", ";
    }
    if (s->memory_peak) {
        const struct sbx_metric *m = &s->memory_peak->u.metric;
        int64_t b = m->memory_peak_bytes >= 0 ? m->memory_peak_bytes : m->memory_bytes;
        char size[SBX_NUM_BUFSZ];
        sbx_buf_addf(out, "%smemory peak %s", sep, sbx_size_text(b, size));
        sep = "; ";
    }
    if (s->webhooks)
        sbx_buf_addf(out, "%s%zu webhook%s: %zu signed right, %zu FAILED", *sep ? "; " : "", s->webhooks,
                     s->webhooks == 1 ? "" : "s", s->signatures_verified, s->signatures_failed);
    return true;
}

size_t sbx_change_count(const struct sbx_strlist *lists)
{
    return lists[SBX_ADDED].n + lists[SBX_CHANGED].n + lists[SBX_REMOVED].n;
}

bool sbx_sum_path_at(const struct sbx_summary *s, size_t i, struct sbx_sum_path *out)
{
    for (int sys = 0; sys < 2; sys++) {
        const struct sbx_strlist *lists = sys ? s->system : s->files;
        for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
            if (i < lists[c].n) {
                const char *p = lists[c].s[i];
                *out = (struct sbx_sum_path){p, c, sys == 1, sbx_written_find(&s->written, p)};
                return true;
            }
            i -= lists[c].n;
        }
    }
    return false;
}

bool sbx_render_summary(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                        enum sbx_summary_format fmt, const struct sbx_summary_look *look,
                        struct sbx_buf *out, char *err, size_t errsz)
{
    struct sbx_sumctx c = {.tl = tl, .sum = sum, .ascii = look && look->ascii,
                           .sgr = look ? look->sgr : NULL, .list_max = SBX_SUM_LIST_WHOLE,
                           .cols = look && look->cols > 0 ? look->cols : SBX_SUMMARY_COLS,
                           .review = look ? look->review : NULL,
                           .review_state = look ? look->review_state : NULL,
                           .story_whole = look && look->story_whole,
                           .spill = look ? look->spill : NULL,
                           .spill_ctx = look ? look->spill_ctx : NULL,
                           .spill_at = look && look->spill_at ? look->spill_at : SBX_SUMMARY_SPILL};
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
    sbx_sum_ctx_free(&c);
    return true;
}

bool sbx_render_summary_lines(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                              bool ascii, struct sbx_buf *out, struct sbx_summary_line **lines,
                              size_t *nlines, char *err, size_t errsz)
{
    struct sbx_sumctx c = {.tl = tl, .sum = sum, .ascii = ascii, .secrets = sum->patterns,
                           .story_whole = true};
    if (!c.secrets) {
        snprintf(err, errsz, "the summary was not made by sbx_summarize");
        return false;
    }
    c.scratch = sbx_secrets_scratch_new(c.secrets);
    c.lines = sbx_xmalloc(16 * sizeof *c.lines);
    c.caplines = 16;
    sbx_render_text(&c, out);
    sbx_sum_ctx_free(&c);
    *lines = c.lines;
    *nlines = c.nlines;
    return true;
}

bool sbx_render_summary_markdown(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                                 int list_max, struct sbx_buf *out, char *err, size_t errsz)
{
    struct sbx_sumctx c = {.tl = tl, .sum = sum, .secrets = sum->patterns,
                           .list_max = list_max < 0 ? SBX_SUMMARY_LIST_MAX : list_max};
    if (!c.secrets) {
        snprintf(err, errsz, "the summary was not made by sbx_summarize");
        return false;
    }
    c.scratch = sbx_secrets_scratch_new(c.secrets);
    sbx_render_markdown(&c, out);
    sbx_sum_ctx_free(&c);
    return true;
}
