/* The verdict and the story (analyses/chain.h) in words, for the three
 * summary formats. */
#include <stdlib.h>
#include <string.h>

#include "analyses/audit_change.h"
#include "base/timefmt.h"
#include "render/during.h"
#include "render/summary/summary_common.h"

size_t sbx_sum_story_findings(const struct sbx_summary *s, const struct sbx_story_item **heaviest)
{
    size_t n = 0, best = sbx_nfindings;
    *heaviest = NULL;
    for (size_t i = 0; i < s->story.n; i++) {
        const struct sbx_story_item *it = &s->story.items[i];
        if (!it->finding)
            continue;
        n++;
        size_t r = sbx_finding_rank(it->finding);
        if (r < best) {
            best = r;
            *heaviest = it;
        }
    }
    return n;
}

static int by_event(const void *x, const void *y)
{
    const struct sbx_finding_item *a = *(const struct sbx_finding_item *const *)x,
                                  *b = *(const struct sbx_finding_item *const *)y;
    int d = sbx_event_cmp(a->event, b->event);
    if (d)
        return d;
    if (a->event != b->event)
        return a->event < b->event ? -1 : 1;
    return a->kind < b->kind ? -1 : a->kind > b->kind;
}

/* check's evidence of kind for e, or NULL. */
static const char *evidence(struct sbx_sumctx *c, const struct sbx_event *e, uint32_t kind)
{
    if (!c->findings_ready) {
        sbx_findings_collect(c->tl, c->sum, 0, &c->findings);
        c->by_event = sbx_xmalloc((c->findings.n + 1) * sizeof *c->by_event);
        for (size_t i = 0; i < c->findings.n; i++)
            c->by_event[i] = &c->findings.f[i];
        qsort(c->by_event, c->findings.n, sizeof *c->by_event, by_event);
        c->findings_ready = true;
    }
    size_t lo = 0, hi = c->findings.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sbx_event_cmp(c->by_event[mid]->event, e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < c->findings.n && sbx_event_cmp(c->by_event[lo]->event, e) == 0; lo++)
        if (c->by_event[lo]->event == e && c->by_event[lo]->kind == kind)
            return c->by_event[lo]->evidence;
    return NULL;
}

static void command_line(struct sbx_sumctx *c, const struct sbx_event *e, struct sbx_buf *out)
{
    size_t len;
    const char *s = sbx_text_get(c->tl, e, &e->u.cmd.command, &c->tmp, &len);
    sbx_buf_adds(out, "$ ");
    sbx_buf_add(out, s, len);
}

/* What an event says, when check has no evidence for it. */
static void what(struct sbx_sumctx *c, const struct sbx_event *e, struct sbx_buf *out)
{
    if (e->kind == SBX_EV_AUDIT) {
        sbx_audit_words(c->tl, e, out);
    } else if (e->kind == SBX_EV_COMMAND && (e->u.cmd.flags & SBX_CMD_RECORD)) {
        sbx_buf_adds(out, sbx_str(c->tl, e->u.cmd.program));
    } else if (e->kind == SBX_EV_COMMAND && (e->u.cmd.command.flags & SBX_TEXT_PRESENT)) {
        command_line(c, e, out);
        if (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN)
            sbx_buf_addf(out, " exited %d", (int)sbx_cmd_exit(&e->u.cmd));
    } else if (e->kind == SBX_EV_NETWORK) {
        size_t len;
        const char *url = sbx_text_get(c->tl, e, &e->u.net.url, &c->tmp, &len);
        sbx_buf_adds(out, sbx_str(c->tl, e->u.net.method));
        sbx_buf_adds(out, e->u.net.method ? " " : "");
        sbx_buf_add(out, url, len);
        if (e->u.net.status >= 0)
            sbx_buf_addf(out, ": %d", (int)e->u.net.status);
    } else {
        sbx_buf_adds(out, sbx_kind_name(e->kind));
        if (e->label) {
            sbx_buf_addc(out, ' ');
            sbx_buf_adds(out, sbx_str(c->tl, e->label));
        }
    }
}

const char *sbx_sum_item_kind_words(const struct sbx_story_item *it)
{
    const struct sbx_finding_info *f = sbx_finding_of(it->finding);
    return f ? f->words : sbx_link_words(SBX_LINK_REACHED_AFTER);
}

void sbx_sum_item_words(struct sbx_sumctx *c, const struct sbx_story_item *it, struct sbx_buf *out)
{
    sbx_buf_adds(out, sbx_sum_item_kind_words(it));
    sbx_buf_adds(out, ": ");
    sbx_sum_item_detail(c, it, out);
    sbx_sum_item_during(c, it, out);
}

void sbx_sum_item_during(struct sbx_sumctx *c, const struct sbx_story_item *it, struct sbx_buf *out)
{
    struct sbx_during d;
    if (!sbx_during_of(c->tl, c->sum, it->event, &d))
        return;
    sbx_buf_adds(out, "; ");
    sbx_during_text(c->tl, &d, out);
}

void sbx_sum_item_detail(struct sbx_sumctx *c, const struct sbx_story_item *it, struct sbx_buf *out)
{
    const char *ev = it->event->kind == SBX_EV_AUDIT || !it->finding ? NULL
                                                                     : evidence(c, it->event, it->finding);
    if (ev)
        sbx_buf_adds(out, ev);
    else
        what(c, it->event, out);
}

void sbx_sum_verdict_words(struct sbx_sumctx *c, struct sbx_buf *out)
{
    const struct sbx_story_item *h;
    size_t n = sbx_sum_story_findings(c->sum, &h);
    if (!n) {
        sbx_buf_adds(out, "no findings");
        return;
    }
    sbx_buf_addf(out, "%zu finding%s, the heaviest: %s: ", n, n == 1 ? "" : "s", sbx_sum_item_kind_words(h));
    sbx_sum_item_detail(c, h, out);
}

void sbx_sum_ctx_free(struct sbx_sumctx *c)
{
    sbx_secrets_scratch_free(c->scratch);
    sbx_buf_free(&c->tmp);
    sbx_buf_free(&c->red);
    sbx_findings_free(&c->findings);
    free(c->by_event);
}
