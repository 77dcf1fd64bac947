/* The story view's document: the verdict, then each item of the story
 * (analyses/chain.h) and its links, one selectable line each. */
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "render/summary/summary_common.h"
#include "render/views/views.h"

static void line_to(struct sbx_summary_line **lines, size_t *n, size_t *cap, const struct sbx_event *e,
                    enum sbx_style style)
{
    SBX_GROW(*lines, *n, *cap);
    (*lines)[*n] = (struct sbx_summary_line){style, 0, e, NULL};
    (*n)++;
}

size_t sbx_story_doc(struct sbx_doc *d, struct sbx_rows_look *l, bool ascii, struct sbx_summary_line **lines)
{
    *lines = NULL;
    size_t n = 0, cap = 0;
    const struct sbx_summary *s = l->sum;
    struct sbx_sumctx c = {.tl = l->tl, .sum = s, .ascii = ascii, .secrets = s->patterns, .story_whole = true};
    c.scratch = sbx_secrets_scratch_new(c.secrets);
    struct sbx_buf w = SBX_BUF_INIT;
    const struct sbx_story_item *h;
    sbx_sum_story_findings(s, &h);
    sbx_sum_verdict_words(&c, &w);
    sbx_doc_set_target(d, (int32_t)n);
    sbx_doc_set_indent(d, 4);
    sbx_doc_untrusted(d, h ? SBX_STYLE_FINDING : SBX_STYLE_GOOD, w.p ? w.p : "", w.len, false);
    sbx_doc_end_line(d);
    line_to(lines, &n, &cap, h ? h->event : NULL, SBX_STYLE_FINDING);
    const char *arrow = ascii ? "->" : "\xE2\x86\x92";
    for (size_t i = 0; i < s->story.n; i++) {
        const struct sbx_story_item *it = &s->story.items[i];
        char t[SBX_TIME_BUFSZ];
        sbx_buf_clear(&w);
        sbx_sum_item_words(&c, it, &w);
        sbx_doc_set_target(d, (int32_t)n);
        sbx_doc_set_indent(d, 4);
        sbx_doc_adds(d, SBX_STYLE_NOTE, sbx_time_format(it->event->start, t) + 11);
        sbx_doc_adds(d, SBX_STYLE_NORMAL, " ");
        sbx_doc_untrusted(d, it->finding ? SBX_STYLE_FINDING : SBX_STYLE_WARNING, w.p ? w.p : "", w.len, false);
        sbx_doc_end_line(d);
        line_to(lines, &n, &cap, it->event, SBX_STYLE_FINDING);
        for (size_t k = 0; k < it->nlinks; k++) {
            const struct sbx_story_link *ln = &it->links[k];
            sbx_doc_set_target(d, (int32_t)n);
            sbx_doc_set_indent(d, 6);
            sbx_doc_addf(d, SBX_STYLE_KIND, "  %s ", arrow);
            sbx_doc_adds(d, SBX_STYLE_LABEL, sbx_link_words(ln->kind));
            sbx_doc_adds(d, SBX_STYLE_NORMAL, ": ");
            sbx_doc_untrusted(d, SBX_STYLE_DETAIL, ln->evidence, strlen(ln->evidence), false);
            sbx_doc_end_line(d);
            line_to(lines, &n, &cap, ln->event, SBX_STYLE_DETAIL);
        }
    }
    sbx_doc_set_target(d, -1);
    sbx_doc_set_indent(d, 0);
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_NOTE, s->story.n ? "Enter on a line opens its event (L there follows its links); q goes back."
                                               : "Nothing to tell: no finding.");
    sbx_doc_end_line(d);
    sbx_buf_free(&w);
    sbx_sum_ctx_free(&c);
    return n;
}
