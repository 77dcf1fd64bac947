/* The review as the interface shows it: the detail's Review part and the
 * review view's document (render/views/views.h). Everything a reviewer
 * wrote is untrusted text: it reaches the document only through
 * sbx_doc_untrusted, which redacts and sanitises. */
#include <stdlib.h>
#include <string.h>

#include "model/evid.h"
#include "model/findings.h"
#include "render/views/views.h"

/* The event an item (an event id, or a finding id "ID/kind") names, or NULL. */
static const struct sbx_event *item_event(const struct sbx_timeline *tl, const char *item)
{
    if (!item)
        return NULL;
    const char *slash = strchr(item, '/');
    return sbx_event_by_id(tl, item, slash ? (size_t)(slash - item) : strlen(item));
}

static void who_when(struct sbx_doc *d, struct sbx_rows_look *l, const char *author, int64_t at)
{
    char t[40];
    sbx_doc_adds(d, SBX_STYLE_NOTE, "by ");
    sbx_doc_untrusted(d, SBX_STYLE_NOTE, author, strlen(author), true);
    sbx_doc_addf(d, SBX_STYLE_NOTE, ", %s", sbx_stamp(at, l->local, t));
}

/* The last mark operation on e, for who marked it and when. */
static const struct sbx_review_op *last_mark(struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_review_state *st = l->review;
    for (size_t i = st->nhistory; i-- > 0;)
        if (st->history[i]->kind == SBX_REVIEW_MARK && item_event(l->tl, st->history[i]->item) == e)
            return st->history[i];
    return NULL;
}

void sbx_detail_review(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e)
{
    const struct sbx_review_state *st = l->review;
    if (!st)
        return;
    for (size_t i = 0; i < st->nmarks; i++) {
        if (item_event(l->tl, st->marks[i]) != e)
            continue;
        const struct sbx_review_op *op = last_mark(l, e);
        sbx_doc_field(d, "Marked");
        if (op)
            who_when(d, l, op->author, op->at);
        sbx_doc_end_line(d);
        break;
    }
    for (uint32_t bit = 1; bit; bit <<= 1) {
        if (!(e->findings & bit))
            continue;
        char fid[SBX_FINDID_LEN];
        sbx_finding_id(l->tl, e, bit, fid);
        const struct sbx_review_triage *t = sbx_review_triage_of(st, fid);
        if (!t)
            continue;
        sbx_doc_field(d, "Triage");
        sbx_doc_addf(d, SBX_STYLE_LABEL, "%s %s ", strchr(fid, '/') + 1, t->state);
        who_when(d, l, t->author, t->at);
        sbx_doc_end_line(d);
        sbx_doc_field(d, "");
        sbx_doc_untrusted(d, SBX_STYLE_NORMAL, t->reason ? t->reason : "", t->reason ? strlen(t->reason) : 0,
                          false);
        sbx_doc_end_line(d);
    }
    for (size_t i = 0; i < st->nnotes; i++) {
        const struct sbx_review_note *n = &st->notes[i];
        if (item_event(l->tl, n->item) != e)
            continue;
        sbx_doc_field(d, "Note");
        who_when(d, l, n->author, n->at);
        if (n->to)
            sbx_doc_addf(d, SBX_STYLE_NOTE, " (on the range to %s)", n->to);
        sbx_doc_end_line(d);
        sbx_doc_field(d, "");
        sbx_doc_untrusted(d, SBX_STYLE_NORMAL, n->text, strlen(n->text), false);
        sbx_doc_end_line(d);
    }
    for (size_t i = 0; i < st->ntags; i++) {
        const struct sbx_review_tag *g = &st->tags[i];
        if (item_event(l->tl, g->item) != e)
            continue;
        sbx_doc_field(d, "Tag");
        sbx_doc_untrusted(d, SBX_STYLE_LABEL, g->tag, strlen(g->tag), true);
        sbx_doc_adds(d, SBX_STYLE_NORMAL, " ");
        who_when(d, l, g->author, g->at);
        sbx_doc_end_line(d);
    }
}

/* ---- the review view ---- */

struct lines {
    struct sbx_summary_line *v;
    size_t n, cap;
};

/* Starts a line that leads to item's event (none: not a target). */
static void begin(struct sbx_doc *d, struct sbx_rows_look *l, struct lines *ls, const char *item,
                  bool target)
{
    if (!target) {
        sbx_doc_set_target(d, -1);
        sbx_doc_set_indent(d, 4);
        return;
    }
    SBX_GROW(ls->v, ls->n, ls->cap);
    ls->v[ls->n] = (struct sbx_summary_line){SBX_STYLE_NORMAL, 0, item_event(l->tl, item), NULL};
    sbx_doc_set_target(d, (int32_t)ls->n);
    sbx_doc_set_indent(d, 4);
    ls->n++;
}

static void item_words(struct sbx_doc *d, struct sbx_rows_look *l, const char *item)
{
    sbx_doc_untrusted(d, SBX_STYLE_KIND, item, strlen(item), true);
    if (!item_event(l->tl, item))
        sbx_doc_adds(d, SBX_STYLE_WARNING, " (orphaned: no such event in the run)");
}

static void text_part(struct sbx_doc *d, const char *s)
{
    sbx_doc_adds(d, SBX_STYLE_NORMAL, ": ");
    sbx_doc_untrusted(d, SBX_STYLE_NORMAL, s ? s : "", s ? strlen(s) : 0, false);
}

static void heading(struct sbx_doc *d, const char *what, size_t n)
{
    sbx_doc_set_target(d, -1);
    sbx_doc_set_indent(d, 0);
    sbx_doc_end_line(d);
    sbx_doc_addf(d, SBX_STYLE_HEADING, "%s (%zu)", what, n);
    sbx_doc_end_line(d);
}

size_t sbx_review_doc(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_review *r,
                      bool ascii, struct sbx_summary_line **lines)
{
    (void)ascii;
    struct lines ls = {0};
    const struct sbx_review_state *st = l->review;
    const char *state = st->verdict ? "done" : st->nhistory ? "in progress" : "not reviewed";
    sbx_doc_set_target(d, -1);
    sbx_doc_addf(d, SBX_STYLE_LABEL, "Review: %s", state);
    sbx_doc_end_line(d);
    sbx_doc_set_indent(d, 4);
    if (st->verdict) {
        sbx_doc_addf(d, SBX_STYLE_LABEL, "Verdict: %s ", st->verdict->state);
        who_when(d, l, st->verdict->author, st->verdict->at);
        text_part(d, st->verdict->text);
    } else {
        sbx_doc_adds(d, SBX_STYLE_NOTE, "No verdict yet (V gives one).");
    }
    sbx_doc_end_line(d);
    heading(d, "Triage", st->ntriage);
    for (size_t i = 0; i < st->ntriage; i++) {
        const struct sbx_review_triage *t = &st->triage[i];
        begin(d, l, &ls, t->item, true);
        item_words(d, l, t->item);
        sbx_doc_addf(d, SBX_STYLE_LABEL, " %s ", t->state);
        who_when(d, l, t->author, t->at);
        text_part(d, t->reason);
        sbx_doc_end_line(d);
    }
    heading(d, "Notes", st->nnotes);
    for (size_t i = 0; i < st->nnotes; i++) {
        const struct sbx_review_note *n = &st->notes[i];
        begin(d, l, &ls, n->item, true);
        item_words(d, l, n->item);
        if (n->to)
            sbx_doc_addf(d, SBX_STYLE_NOTE, " to %s", n->to);
        sbx_doc_adds(d, SBX_STYLE_NORMAL, " ");
        who_when(d, l, n->author, n->at);
        text_part(d, n->text);
        sbx_doc_end_line(d);
    }
    heading(d, "Tags", st->ntags);
    for (size_t i = 0; i < st->ntags; i++) {
        const struct sbx_review_tag *g = &st->tags[i];
        begin(d, l, &ls, g->item, true);
        sbx_doc_untrusted(d, SBX_STYLE_LABEL, g->tag, strlen(g->tag), true);
        sbx_doc_adds(d, SBX_STYLE_NORMAL, " on ");
        item_words(d, l, g->item);
        sbx_doc_adds(d, SBX_STYLE_NORMAL, " ");
        who_when(d, l, g->author, g->at);
        sbx_doc_end_line(d);
    }
    heading(d, "Marks", st->nmarks);
    for (size_t i = 0; i < st->nmarks; i++) {
        begin(d, l, &ls, st->marks[i], true);
        item_words(d, l, st->marks[i]);
        const struct sbx_event *e = item_event(l->tl, st->marks[i]);
        const struct sbx_review_op *op = e ? last_mark(l, e) : NULL;
        if (op) {
            sbx_doc_adds(d, SBX_STYLE_NORMAL, " ");
            who_when(d, l, op->author, op->at);
        }
        sbx_doc_end_line(d);
    }
    if (r->nproblems) {
        heading(d, "Lines that could not be read", r->nproblems);
        for (size_t i = 0; i < r->nproblems; i++) {
            begin(d, l, &ls, NULL, false);
            const char *f = r->files[r->problems[i].file];
            sbx_doc_untrusted(d, SBX_STYLE_WARNING, f, strlen(f), true);
            sbx_doc_addf(d, SBX_STYLE_WARNING, ":%u: %s", r->problems[i].line, r->problems[i].reason);
            sbx_doc_end_line(d);
        }
    }
    heading(d, "History", st->nhistory);
    for (size_t i = 0; i < st->nhistory; i++) {
        const struct sbx_review_op *op = st->history[i];
        begin(d, l, &ls, op->item, op->item != NULL);
        char t[40];
        sbx_doc_addf(d, SBX_STYLE_TIME, "%s ", sbx_stamp(op->at, l->local, t));
        sbx_doc_untrusted(d, SBX_STYLE_NOTE, op->author, strlen(op->author), true);
        sbx_doc_addf(d, SBX_STYLE_LABEL, " %s", sbx_review_op_name(op->kind));
        if (op->state)
            sbx_doc_addf(d, SBX_STYLE_LABEL, " %s", op->state);
        if (op->tag) {
            sbx_doc_adds(d, SBX_STYLE_LABEL, " ");
            sbx_doc_untrusted(d, SBX_STYLE_LABEL, op->tag, strlen(op->tag), true);
        }
        if (op->item) {
            sbx_doc_adds(d, SBX_STYLE_NORMAL, " ");
            item_words(d, l, op->item);
        }
        if (op->text)
            text_part(d, op->text);
        sbx_doc_end_line(d);
    }
    sbx_doc_set_target(d, -1);
    sbx_doc_set_indent(d, 0);
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_NOTE, "Enter on a line goes to its event; q goes back.");
    sbx_doc_end_line(d);
    *lines = ls.v;
    return ls.n;
}
