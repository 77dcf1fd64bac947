#include "model/review.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

static const struct {
    const char *name, *needs;
} ops[SBX_REVIEW_OP_COUNT] = {
#define SBX_REVIEW_OP_ROW(OP, name, needs) {name, needs},
    SBX_REVIEW_OPS(SBX_REVIEW_OP_ROW)
#undef SBX_REVIEW_OP_ROW
};

static const char *const triage_states[] = {SBX_TRIAGE_STATES};
static const char *const verdict_states[] = {SBX_VERDICT_STATES};

const char *sbx_review_op_name(enum sbx_review_op_kind k)
{
    return (unsigned)k < SBX_REVIEW_OP_COUNT ? ops[k].name : "?";
}

const char *sbx_review_op_needs(enum sbx_review_op_kind k)
{
    return (unsigned)k < SBX_REVIEW_OP_COUNT ? ops[k].needs : "";
}

enum sbx_review_op_kind sbx_review_op_by_name(const char *name, size_t n)
{
    for (unsigned k = 0; k < SBX_REVIEW_OP_COUNT; k++)
        if (strlen(ops[k].name) == n && memcmp(ops[k].name, name, n) == 0)
            return (enum sbx_review_op_kind)k;
    return SBX_REVIEW_OP_COUNT;
}

static bool among(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

bool sbx_triage_state_valid(const char *s)
{
    return among(s, triage_states, sizeof triage_states / sizeof *triage_states);
}

bool sbx_verdict_state_valid(const char *s)
{
    return among(s, verdict_states, sizeof verdict_states / sizeof *verdict_states);
}

bool sbx_triage_clears(const char *state)
{
    return state && (strcmp(state, "benign") == 0 || strcmp(state, "expected") == 0);
}

static const char *joined(const char *const *list, size_t n, char *buf, size_t size)
{
    if (!buf[0]) {
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(list[i]);
            if (at + len + 3 >= size)
                break;
            if (i) {
                memcpy(buf + at, ", ", 2);
                at += 2;
            }
            memcpy(buf + at, list[i], len);
            at += len;
            buf[at] = '\0';
        }
    }
    return buf;
}

const char *sbx_triage_states_text(void)
{
    static char buf[128];
    return joined(triage_states, sizeof triage_states / sizeof *triage_states, buf, sizeof buf);
}

const char *sbx_verdict_states_text(void)
{
    static char buf[128];
    return joined(verdict_states, sizeof verdict_states / sizeof *verdict_states, buf, sizeof buf);
}

void sbx_review_init(struct sbx_review *r)
{
    memset(r, 0, sizeof *r);
}

void sbx_review_post_free(struct sbx_review_post *p)
{
    free(p->target);
    free(p->exported);
    free(p->body);
    free(p->comment);
    free(p->server);
    free(p->author);
    memset(p, 0, sizeof *p);
}

void sbx_review_free(struct sbx_review *r)
{
    for (size_t i = 0; i < r->nops; i++) {
        struct sbx_review_op *o = &r->ops[i];
        free(o->item);
        free(o->to);
        free(o->text);
        free(o->tag);
        free(o->state);
        free(o->author);
    }
    free(r->ops);
    for (size_t i = 0; i < r->nposts; i++)
        sbx_review_post_free(&r->posts[i]);
    free(r->posts);
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i]);
    free(r->files);
    for (size_t i = 0; i < r->nproblems; i++)
        free(r->problems[i].reason);
    free(r->problems);
    memset(r, 0, sizeof *r);
}

uint32_t sbx_review_add_file(struct sbx_review *r, const char *name)
{
    r->files = sbx_xrealloc(r->files, (r->nfiles + 1) * sizeof *r->files);
    r->files[r->nfiles] = sbx_xstrndup(name, strlen(name));
    return (uint32_t)r->nfiles++;
}

struct sbx_review_op *sbx_review_push(struct sbx_review *r)
{
    SBX_GROW(r->ops, r->nops, r->capops);
    struct sbx_review_op *o = &r->ops[r->nops++];
    memset(o, 0, sizeof *o);
    return o;
}

struct sbx_review_post *sbx_review_push_post(struct sbx_review *r)
{
    SBX_GROW(r->posts, r->nposts, r->capposts);
    struct sbx_review_post *p = &r->posts[r->nposts++];
    memset(p, 0, sizeof *p);
    return p;
}

static bool same_server(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

const struct sbx_review_post *sbx_review_last_post(const struct sbx_review *r,
                                                   const char *target, const char *server,
                                                   const char *exported)
{
    const struct sbx_review_post *best = NULL;
    for (size_t i = 0; i < r->nposts; i++) {
        const struct sbx_review_post *p = &r->posts[i];
        if (strcmp(p->target, target) != 0 || strcmp(p->exported, exported) != 0 ||
            !same_server(p->server, server))
            continue;
        /* the files and their lines are in order: a tie on time goes to the later */
        if (!best || p->at >= best->at)
            best = p;
    }
    return best;
}

void sbx_review_problem(struct sbx_review *r, uint32_t file, uint32_t line, const char *reason)
{
    SBX_GROW(r->problems, r->nproblems, r->capproblems);
    r->problems[r->nproblems++] =
        (struct sbx_review_problem){file, line, sbx_xstrndup(reason, strlen(reason))};
}

static int merge_cmp(const void *pa, const void *pb)
{
    const struct sbx_review_op *a = *(const struct sbx_review_op *const *)pa;
    const struct sbx_review_op *b = *(const struct sbx_review_op *const *)pb;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void remove_at(void *array, size_t *n, size_t size, size_t i)
{
    char *p = array;
    memmove(p + i * size, p + (i + 1) * size, (*n - i - 1) * size);
    (*n)--;
}

void sbx_review_state_make(const struct sbx_review *r, struct sbx_review_state *st)
{
    memset(st, 0, sizeof *st);
    size_t n = r->nops;
    st->history = sbx_xmalloc((n ? n : 1) * sizeof *st->history);
    for (size_t i = 0; i < n; i++)
        st->history[i] = &r->ops[i];
    st->nhistory = n;
    qsort(st->history, n, sizeof *st->history, merge_cmp);
    st->marks = sbx_xmalloc((n ? n : 1) * sizeof *st->marks);
    st->notes = sbx_xmalloc((n ? n : 1) * sizeof *st->notes);
    st->tags = sbx_xmalloc((n ? n : 1) * sizeof *st->tags);
    st->triage = sbx_xmalloc((n ? n : 1) * sizeof *st->triage);
    for (size_t h = 0; h < n; h++) {
        const struct sbx_review_op *o = st->history[h];
        switch (o->kind) {
        case SBX_REVIEW_MARK:
        case SBX_REVIEW_UNMARK:
            for (size_t i = 0; i < st->nmarks; i++)
                if (strcmp(st->marks[i], o->item) == 0) {
                    remove_at(st->marks, &st->nmarks, sizeof *st->marks, i);
                    break;
                }
            if (o->kind == SBX_REVIEW_MARK)
                st->marks[st->nmarks++] = o->item;
            break;
        case SBX_REVIEW_NOTE:
            for (size_t i = 0; i < st->nnotes; i++)
                if (strcmp(st->notes[i].item, o->item) == 0 && same(st->notes[i].to, o->to) &&
                    strcmp(st->notes[i].author, o->author) == 0) {
                    remove_at(st->notes, &st->nnotes, sizeof *st->notes, i);
                    break;
                }
            if (o->text && o->text[0]) /* an empty note takes the author's note back */
                st->notes[st->nnotes++] =
                    (struct sbx_review_note){o->item, o->to, o->text, o->author, o->at};
            break;
        case SBX_REVIEW_TAG:
        case SBX_REVIEW_UNTAG:
            for (size_t i = 0; i < st->ntags; i++)
                if (strcmp(st->tags[i].item, o->item) == 0 && same(st->tags[i].to, o->to) &&
                    strcmp(st->tags[i].tag, o->tag) == 0) {
                    remove_at(st->tags, &st->ntags, sizeof *st->tags, i);
                    break;
                }
            if (o->kind == SBX_REVIEW_TAG)
                st->tags[st->ntags++] =
                    (struct sbx_review_tag){o->item, o->to, o->tag, o->author, o->at};
            break;
        case SBX_REVIEW_TRIAGE:
            for (size_t i = 0; i < st->ntriage; i++)
                if (strcmp(st->triage[i].item, o->item) == 0) {
                    remove_at(st->triage, &st->ntriage, sizeof *st->triage, i);
                    break;
                }
            st->triage[st->ntriage++] =
                (struct sbx_review_triage){o->item, o->state, o->text, o->author, o->at};
            break;
        case SBX_REVIEW_VERDICT:
            st->verdict = o;
            break;
        default:
            break;
        }
    }
}

void sbx_review_state_free(struct sbx_review_state *st)
{
    free(st->marks);
    free(st->notes);
    free(st->tags);
    free(st->triage);
    free(st->history);
    memset(st, 0, sizeof *st);
}

const struct sbx_review_triage *sbx_review_triage_of(const struct sbx_review_state *st,
                                                     const char *finding_id)
{
    for (size_t i = 0; i < st->ntriage; i++)
        if (strcmp(st->triage[i].item, finding_id) == 0)
            return &st->triage[i];
    return NULL;
}

const struct sbx_review_triage *sbx_review_clearance(const struct sbx_review_state *st,
                                                     const char *finding_id)
{
    const struct sbx_review_triage *t = sbx_review_triage_of(st, finding_id);
    return t && sbx_triage_clears(t->state) && t->reason && t->reason[0] ? t : NULL;
}

bool sbx_review_state_empty(const struct sbx_review_state *st)
{
    return !st->nhistory;
}

enum sbx_review_progress sbx_review_progress_of(const struct sbx_review_state *st)
{
    return st->verdict ? SBX_REVIEW_DONE : st->nhistory ? SBX_REVIEW_IN_PROGRESS : SBX_REVIEW_NOT_REVIEWED;
}

const char *sbx_review_progress_name(enum sbx_review_progress p)
{
    return p == SBX_REVIEW_DONE ? "done" : p == SBX_REVIEW_IN_PROGRESS ? "in progress" : "not reviewed";
}

/* The verdicts, lightest first (their rank is their place + 1). */
static const char *const by_weight[] = {"clean", "benign", "inconclusive", "suspicious", "malicious"};

int sbx_verdict_rank(const char *state)
{
    for (size_t i = 0; state && i < sizeof by_weight / sizeof *by_weight; i++)
        if (strcmp(state, by_weight[i]) == 0)
            return (int)i + 1;
    return 0;
}

const char *sbx_verdict_of_rank(int rank)
{
    return rank >= 1 && rank <= (int)(sizeof by_weight / sizeof *by_weight) ? by_weight[rank - 1] : NULL;
}

bool sbx_review_sniff(const char *data, size_t n)
{
    static const char key[] = "\"" SBX_REVIEW_MAGIC "\"";
    size_t i = 0;
    if (n >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    if (i >= n || data[i] != '{')
        return false;
    i++;
    while (i < n && (data[i] == ' ' || data[i] == '\t'))
        i++;
    return n - i >= sizeof key - 1 && memcmp(data + i, key, sizeof key - 1) == 0;
}
