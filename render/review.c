#include "render/review.h"

#include <string.h>

#include "base/timefmt.h"
#include "model/evid.h"
#include "model/findings.h"
#include "render/md.h"
#include "render/sanitize.h"
#include "render/untrusted.h"

bool sbx_review_item_found(const struct sbx_timeline *tl, const char *item)
{
    const char *slash = strchr(item, '/');
    size_t idn = slash ? (size_t)(slash - item) : strlen(item);
    const struct sbx_event *e = sbx_event_by_id(tl, item, idn);
    return e && (!slash || (e->findings & sbx_finding_by_name(slash + 1)));
}

/* Text: one untrusted string on the line being built. */
static void put(struct sbx_buf *out, const char *s, bool ascii)
{
    sbx_untrusted_cstr(out, s ? s : "", SBX_SAN_ONE_LINE | (ascii ? SBX_SAN_ASCII : 0), 0);
}

static void when(struct sbx_buf *out, int64_t at)
{
    char t[SBX_TIME_BUFSZ];
    sbx_buf_adds(out, sbx_time_format(at, t));
}

/* Whether an item, and the last event of its range when it is one, are in
 * the run. */
static bool found(const struct sbx_timeline *tl, const char *item, const char *to)
{
    return sbx_review_item_found(tl, item) && (!to || sbx_review_item_found(tl, to));
}

static const char *orphan_range(const struct sbx_timeline *tl, const char *item, const char *to)
{
    return found(tl, item, to) ? "" : " (orphaned: no such event in the run)";
}

static const char *orphan(const struct sbx_timeline *tl, const char *item)
{
    return orphan_range(tl, item, NULL);
}

void sbx_review_text(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                     const struct sbx_review *r, const struct sbx_review_state *st, bool ascii,
                     struct sbx_buf *out)
{
    (void)sum;
    sbx_buf_addf(out, "Review: %s\n", st->verdict ? "done" : st->nhistory ? "in progress" : "not reviewed");
    if (st->verdict) {
        sbx_buf_addf(out, "Verdict: %s by ", st->verdict->state);
        put(out, st->verdict->author, ascii);
        sbx_buf_adds(out, " at ");
        when(out, st->verdict->at);
        sbx_buf_adds(out, ": ");
        put(out, st->verdict->text, ascii);
        sbx_buf_addc(out, '\n');
    }
    for (size_t i = 0; i < st->ntriage; i++) {
        const struct sbx_review_triage *t = &st->triage[i];
        sbx_buf_addf(out, "Triaged %s %s by ", t->item, t->state);
        put(out, t->author, ascii);
        sbx_buf_adds(out, ": ");
        put(out, t->reason, ascii);
        sbx_buf_addf(out, "%s\n", orphan(tl, t->item));
    }
    for (size_t i = 0; i < st->nnotes; i++) {
        const struct sbx_review_note *n = &st->notes[i];
        sbx_buf_addf(out, "Note on %s%s%s by ", n->item, n->to ? ".." : "", n->to ? n->to : "");
        put(out, n->author, ascii);
        sbx_buf_adds(out, ": ");
        put(out, n->text, ascii);
        sbx_buf_addf(out, "%s\n", orphan_range(tl, n->item, n->to));
    }
    for (size_t i = 0; i < st->ntags; i++) {
        const struct sbx_review_tag *g = &st->tags[i];
        sbx_buf_addf(out, "Tag %s on %s%s%s by ", g->tag, g->item, g->to ? ".." : "", g->to ? g->to : "");
        put(out, g->author, ascii);
        sbx_buf_addf(out, "%s\n", orphan_range(tl, g->item, g->to));
    }
    for (size_t i = 0; i < st->nmarks; i++)
        sbx_buf_addf(out, "Marked %s%s\n", st->marks[i], orphan(tl, st->marks[i]));
    for (size_t i = 0; i < r->nproblems; i++) {
        sbx_buf_adds(out, "Unreadable line ");
        put(out, r->files[r->problems[i].file], ascii);
        sbx_buf_addf(out, ":%u: %s\n", r->problems[i].line, r->problems[i].reason);
    }
    sbx_buf_addf(out, "History: %zu operation%s\n", st->nhistory, st->nhistory == 1 ? "" : "s");
    for (size_t i = 0; i < st->nhistory; i++) {
        const struct sbx_review_op *o = st->history[i];
        sbx_buf_adds(out, "  ");
        when(out, o->at);
        sbx_buf_addf(out, " %s %s%s%s", sbx_review_op_name(o->kind), o->item ? o->item : "run",
                     o->to ? ".." : "", o->to ? o->to : "");
        if (o->state)
            sbx_buf_addf(out, " %s", o->state);
        if (o->tag)
            sbx_buf_addf(out, " %s", o->tag);
        sbx_buf_adds(out, " by ");
        put(out, o->author, ascii);
        if (o->text) {
            sbx_buf_adds(out, ": ");
            put(out, o->text, ascii);
        }
        sbx_buf_addc(out, '\n');
    }
}

static void code(struct sbx_buf *out, const char *s)
{
    sbx_md_code(out, s ? s : "", s ? strlen(s) : 0, false, NULL, NULL);
}

void sbx_review_markdown(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                         const struct sbx_review *r, const struct sbx_review_state *st,
                         struct sbx_buf *out)
{
    (void)sum;
    (void)r;
    sbx_buf_addf(out, "**Review:** %s\n\n", st->verdict ? "done" : st->nhistory ? "in progress" : "not reviewed");
    if (st->verdict) {
        sbx_buf_addf(out, "**Verdict:** %s by ", st->verdict->state);
        code(out, st->verdict->author);
        sbx_buf_adds(out, ": ");
        code(out, st->verdict->text);
        sbx_buf_adds(out, "\n\n");
    }
    for (size_t i = 0; i < st->ntriage; i++) {
        const struct sbx_review_triage *t = &st->triage[i];
        sbx_buf_addf(out, "- triaged `%s` **%s** by ", t->item, t->state);
        code(out, t->author);
        sbx_buf_adds(out, ": ");
        code(out, t->reason);
        sbx_buf_addf(out, "%s\n", orphan(tl, t->item));
    }
    for (size_t i = 0; i < st->nnotes; i++) {
        const struct sbx_review_note *n = &st->notes[i];
        sbx_buf_addf(out, "- note on `%s%s%s` by ", n->item, n->to ? ".." : "", n->to ? n->to : "");
        code(out, n->author);
        sbx_buf_adds(out, ": ");
        code(out, n->text);
        sbx_buf_addf(out, "%s\n", orphan_range(tl, n->item, n->to));
    }
    for (size_t i = 0; i < st->ntags; i++) {
        const struct sbx_review_tag *g = &st->tags[i];
        sbx_buf_addf(out, "- tag `%s` on `%s%s%s`%s\n", g->tag, g->item, g->to ? ".." : "",
                     g->to ? g->to : "", orphan_range(tl, g->item, g->to));
    }
    if (st->ntriage || st->nnotes || st->ntags)
        sbx_buf_addc(out, '\n');
}

static void jstr(struct sbx_jsonw *w, const char *key, const char *v)
{
    sbx_jw_key(w, key);
    if (v)
        sbx_untrusted_json_cstr(w, v);
    else
        sbx_jw_null(w);
}

static void jtime(struct sbx_jsonw *w, int64_t at)
{
    char t[SBX_TIME_BUFSZ];
    sbx_jw_key(w, "at");
    sbx_jw_cstr(w, sbx_time_format(at, t));
}

void sbx_review_json_members(const struct sbx_timeline *tl, const struct sbx_review *r,
                             const struct sbx_review_state *st, struct sbx_jsonw *w)
{
    sbx_jw_key(w, "state");
    sbx_jw_cstr(w, st->verdict ? "done" : st->nhistory ? "in progress" : "not reviewed");
    sbx_jw_key(w, "verdict");
    if (!st->verdict) {
        sbx_jw_null(w);
    } else {
        sbx_jw_object(w);
        jstr(w, "state", st->verdict->state);
        jstr(w, "reason", st->verdict->text);
        jstr(w, "author", st->verdict->author);
        jtime(w, st->verdict->at);
        sbx_jw_end_object(w);
    }
    sbx_jw_key(w, "triaged");
    sbx_jw_array(w);
    for (size_t i = 0; i < st->ntriage; i++) {
        const struct sbx_review_triage *t = &st->triage[i];
        sbx_jw_object(w);
        jstr(w, "id", t->item);
        jstr(w, "state", t->state);
        jstr(w, "reason", t->reason);
        jstr(w, "author", t->author);
        jtime(w, t->at);
        sbx_jw_key(w, "orphaned");
        sbx_jw_bool(w, !sbx_review_item_found(tl, t->item));
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_jw_key(w, "notes");
    sbx_jw_array(w);
    for (size_t i = 0; i < st->nnotes; i++) {
        const struct sbx_review_note *n = &st->notes[i];
        sbx_jw_object(w);
        jstr(w, "id", n->item);
        jstr(w, "to", n->to);
        jstr(w, "text", n->text);
        jstr(w, "author", n->author);
        jtime(w, n->at);
        sbx_jw_key(w, "orphaned");
        sbx_jw_bool(w, !found(tl, n->item, n->to));
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_jw_key(w, "tags");
    sbx_jw_array(w);
    for (size_t i = 0; i < st->ntags; i++) {
        const struct sbx_review_tag *g = &st->tags[i];
        sbx_jw_object(w);
        jstr(w, "id", g->item);
        jstr(w, "to", g->to);
        jstr(w, "tag", g->tag);
        jstr(w, "author", g->author);
        sbx_jw_key(w, "orphaned");
        sbx_jw_bool(w, !found(tl, g->item, g->to));
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_jw_key(w, "marks");
    sbx_jw_array(w);
    for (size_t i = 0; i < st->nmarks; i++)
        sbx_jw_cstr(w, st->marks[i]);
    sbx_jw_end_array(w);
    sbx_jw_key(w, "unreadable_lines");
    sbx_jw_array(w);
    for (size_t i = 0; i < r->nproblems; i++) {
        sbx_jw_object(w);
        jstr(w, "file", r->files[r->problems[i].file]);
        sbx_jw_key(w, "line");
        sbx_jw_int(w, r->problems[i].line);
        jstr(w, "reason", r->problems[i].reason);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
    sbx_jw_key(w, "history");
    sbx_jw_int(w, (int64_t)st->nhistory);
}

void sbx_review_json(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                     const struct sbx_review *r, const struct sbx_review_state *st,
                     struct sbx_buf *out)
{
    (void)sum;
    struct sbx_jsonw w;
    sbx_jw_init(&w, out, true);
    sbx_jw_object(&w);
    sbx_jw_key(&w, "schema");
    sbx_jw_int(&w, 1);
    sbx_review_json_members(tl, r, st, &w);
    sbx_jw_end_object(&w);
    sbx_buf_addc(out, '\n');
}
