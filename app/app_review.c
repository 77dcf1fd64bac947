/* The run's review in the interface: see app/app_review.h. */
#include "app/app_review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export/review_write.h"
#include "importers/review.h"
#include "render/sanitize.h"
#include "render/untrusted.h"
#include "app/app_internal.h"
#include "app/keys.h"
#include "app/view.h"

static const char *const triage_states[] = {SBX_TRIAGE_STATES};
static const char *const verdict_states[] = {SBX_VERDICT_STATES};
enum {
    NTRIAGE = sizeof triage_states / sizeof *triage_states,
    NVERDICT = sizeof verdict_states / sizeof *verdict_states,
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static char *dup_or_null(const char *s)
{
    return s ? sbx_xstrndup(s, strlen(s)) : NULL;
}

void sbx_app_set_review(struct sbx_app *a, struct sbx_review *r, const char *write, bool make_dirs,
                        const char *author)
{
    sbx_app_review_free(a);
    struct sbx_app_review *rv = sbx_xmalloc(sizeof *rv);
    memset(rv, 0, sizeof *rv);
    rv->r = *r;
    sbx_review_init(r);
    rv->write = dup_or_null(write);
    rv->make_dirs = make_dirs;
    rv->author = sbx_xstrndup(author ? author : "", author ? strlen(author) : 0);
    sbx_review_state_make(&rv->r, &rv->st);
    a->rv = rv;
    sbx_app_review_look(a);
    sbx_app_rebuild_doc(a);
}

void sbx_app_review_free(struct sbx_app *a)
{
    struct sbx_app_review *rv = a->rv;
    if (!rv)
        return;
    sbx_review_state_free(&rv->st);
    sbx_review_free(&rv->r);
    sbx_outbox_free(rv->outbox);
    sbx_buf_free(&rv->text);
    free(rv->write);
    free(rv->author);
    free(rv->flags);
    free(rv->before);
    sbx_lineedit_free(&rv->ed);
    free(rv);
    a->rv = NULL;
    a->look.review_cells = NULL;
    a->look.review = NULL;
}

/* ---- the store ---- */

void sbx_app_set_review_sender(struct sbx_app *a, const struct sbx_review_sender *sender,
                               const char *pending, size_t npending)
{
    struct sbx_app_review *rv = a->rv;
    if (!rv || !rv->write) { /* nothing to send to (--dump without --review) */
        if (sender->free)
            sender->free(sender->ctx);
        return;
    }
    sbx_outbox_free(rv->outbox);
    rv->outbox = sbx_outbox_new(sender, a->opts.background, true);
    sbx_buf_clear(&rv->text);
    if (npending) {
        sbx_outbox_add(rv->outbox, pending, npending);
        sbx_buf_add(&rv->text, pending, npending);
    }
    if (!a->opts.background) /* read (and sent) already */
        sbx_app_review_poll(a);
}

bool sbx_app_review_sending(const struct sbx_app *a)
{
    /* a send that ended after the last poll counts: the program would
     * otherwise wait for a key before showing how it ended */
    return a->rv && a->rv->outbox &&
           (sbx_outbox_sending(a->rv->outbox) || sbx_outbox_has_news(a->rv->outbox));
}

/* The review as the store holds it now (other writers' lines too), and
 * the lines still on their way, in place of the one shown. */
static void reload(struct sbx_app *a, const struct sbx_buf *review, const struct sbx_buf *queued)
{
    struct sbx_app_review *rv = a->rv;
    size_t problems = rv->r.nproblems;
    struct sbx_review r;
    sbx_review_init(&r);
    uint32_t file = sbx_review_add_file(&r, rv->write);
    sbx_review_read_bytes(&r, file, review->p ? review->p : "", review->len);
    if (queued->len)
        sbx_review_read_bytes(&r, file, queued->p, queued->len);
    rv->store_read = true;
    sbx_buf_clear(&rv->text);
    sbx_buf_add(&rv->text, review->p ? review->p : "", review->len);
    sbx_buf_add(&rv->text, queued->p ? queued->p : "", queued->len);
    sbx_review_state_free(&rv->st); /* it points into the ops */
    sbx_review_free(&rv->r);
    rv->r = r;
    sbx_review_state_make(&rv->r, &rv->st);
    rv->flags_tl = NULL; /* the column is made again */
    sbx_app_review_look(a);
    sbx_app_rebuild_doc(a);
    if (rv->r.nproblems > problems)
        sbx_app_message(a, true, "%zu line%s of the review could not be read (R lists them)",
                        rv->r.nproblems, rv->r.nproblems == 1 ? "" : "s");
}

bool sbx_app_review_poll(struct sbx_app *a)
{
    struct sbx_app_review *rv = a->rv;
    struct sbx_outbox_news news;
    if (!rv || !rv->outbox || !sbx_outbox_poll(rv->outbox, &news))
        return false;
    struct sbx_buf review = SBX_BUF_INIT, queued = SBX_BUF_INIT;
    if (sbx_outbox_take_review(rv->outbox, &review, &queued))
        reload(a, &review, &queued);
    sbx_buf_free(&review);
    sbx_buf_free(&queued);
    /* the store's words: the status line redacts and sanitises them */
    if (news.failed && !news.queued) {
        sbx_app_message(a, true, "the review could not be read from the store: %s (what you write is kept and sent when it can be)",
                        news.err);
        rv->send_failed = true;
    } else if (news.failed) {
        sbx_app_message(a, true, "review not written: %s (%zu line%s kept: sent with the next change, or when you quit)",
                        news.err, news.queued, news.queued == 1 ? "" : "s");
        rv->send_failed = true;
    } else if (rv->send_failed && news.sent) {
        sbx_app_message(a, false, "review: %zu line%s kept earlier written to %s", news.sent,
                        news.sent == 1 ? "" : "s", rv->write);
        rv->send_failed = false;
    }
    return true;
}

const char *sbx_app_review_finish(struct sbx_app *a, size_t *n, void **sender_ctx, char *err,
                                  size_t errsz)
{
    *n = 0;
    *sender_ctx = a->rv && a->rv->outbox ? sbx_outbox_ctx(a->rv->outbox) : NULL;
    if (errsz)
        err[0] = '\0';
    if (!a->rv || !a->rv->outbox)
        return NULL;
    return sbx_outbox_finish(a->rv->outbox, n, err, errsz);
}

bool sbx_app_review_in_store(const struct sbx_app *a)
{
    return a->rv && a->rv->outbox;
}

bool sbx_app_review_reading(const struct sbx_app *a)
{
    return sbx_app_review_in_store(a) && !a->rv->store_read;
}

void sbx_app_review_copy(const struct sbx_app *a, struct sbx_review *r)
{
    const struct sbx_app_review *rv = a->rv;
    uint32_t file = sbx_review_add_file(r, rv->write);
    sbx_review_read_bytes(r, file, rv->text.p ? rv->text.p : "", rv->text.len);
}

void sbx_app_review_queue(struct sbx_app *a, const char *line, size_t n)
{
    struct sbx_app_review *rv = a->rv;
    sbx_outbox_add(rv->outbox, line, n);
    sbx_buf_add(&rv->text, line, n);
}

/* ---- the column ---- */

static const struct sbx_event *item_event(const struct sbx_timeline *tl, const char *item)
{
    if (!item)
        return NULL;
    const char *slash = strchr(item, '/');
    return sbx_event_by_id(tl, item, slash ? (size_t)(slash - item) : strlen(item));
}

static void flag(struct sbx_app_review *rv, const struct sbx_timeline *tl, const char *item, uint8_t bit)
{
    const struct sbx_event *e = item_event(tl, item);
    if (!e)
        return;
    size_t pos = sbx_timeline_position(tl, e);
    if (pos < tl->n && sbx_tl_at(tl, pos) == e) {
        rv->flags[pos] |= bit;
        rv->any = true;
    }
}

static void make_flags(struct sbx_app *a)
{
    struct sbx_app_review *rv = a->rv;
    const struct sbx_timeline *tl = a->tl;
    free(rv->flags);
    rv->flags = sbx_xmalloc(tl->n ? tl->n : 1);
    memset(rv->flags, 0, tl->n ? tl->n : 1);
    rv->flags_tl = tl;
    rv->flags_n = tl->n;
    rv->any = false;
    for (size_t i = 0; i < rv->st.nmarks; i++)
        flag(rv, tl, rv->st.marks[i], SBX_RV_MARK);
    for (size_t i = 0; i < rv->st.nnotes; i++)
        flag(rv, tl, rv->st.notes[i].item, SBX_RV_WRITTEN);
    for (size_t i = 0; i < rv->st.ntags; i++)
        flag(rv, tl, rv->st.tags[i].item, SBX_RV_WRITTEN);
    for (size_t i = 0; i < rv->st.ntriage; i++)
        flag(rv, tl, rv->st.triage[i].item, SBX_RV_WRITTEN);
}

static uint8_t flags_of(const struct sbx_app *a, const struct sbx_event *e)
{
    const struct sbx_app_review *rv = a->rv;
    if (!rv || !rv->flags || rv->flags_tl != a->tl || rv->flags_n != a->tl->n)
        return 0;
    size_t pos = sbx_timeline_position(a->tl, e);
    return pos < a->tl->n && sbx_tl_at(a->tl, pos) == e ? rv->flags[pos] : 0;
}

static int letter_of(const struct sbx_app *a, const struct sbx_event *e)
{
    for (int i = 0; i < 52; i++)
        if (a->marks[i] == e)
            return i < 26 ? 'a' + i : 'A' + i - 26;
    return 0;
}

/* The column's two cells: the mark (the session's letter, else * for the
 * review's mark), then + when a note, tag or triage is written about it. */
static void cells(const void *ctx, const struct sbx_event *e, char out[2])
{
    const struct sbx_app *a = ctx;
    uint8_t f = flags_of(a, e);
    int letter = letter_of(a, e);
    out[0] = letter ? (char)letter : (f & SBX_RV_MARK) ? '*' : ' ';
    out[1] = (f & SBX_RV_WRITTEN) ? '+' : ' ';
}

void sbx_app_review_look(struct sbx_app *a)
{
    struct sbx_app_review *rv = a->rv;
    if (rv && a->tl && (rv->flags_tl != a->tl || rv->flags_n != a->tl->n || !rv->flags))
        make_flags(a);
    bool letters = false;
    for (int i = 0; i < 52 && !letters; i++)
        letters = a->marks[i] != NULL;
    bool column = letters || (rv && rv->any);
    a->look.review_cells = column ? cells : NULL;
    a->look.review_ctx = a;
    a->look.review = rv ? &rv->st : NULL;
}

/* ---- writing ---- */

bool sbx_app_review_can_write(struct sbx_app *a)
{
    if (!a->rv) {
        sbx_app_message(a, true, a->preview || !a->tl ? "the review opens once the run has loaded"
                                                     : "no review file here: open the run itself (sbxview RUN)");
        return false;
    }
    return true;
}

static uint32_t write_file_index(struct sbx_app_review *rv)
{
    const char *name = rv->write ? rv->write : "(this session)";
    for (size_t i = 0; i < rv->r.nfiles; i++)
        if (strcmp(rv->r.files[i], name) == 0)
            return (uint32_t)i;
    return sbx_review_add_file(&rv->r, name);
}

/* Appends one operation (item to to: a range, or to NULL) to the file,
 * then to the review in memory. */
static bool append_op(struct sbx_app *a, enum sbx_review_op_kind kind, const char *item,
                      const char *to, const char *text, const char *tag, const char *state)
{
    struct sbx_app_review *rv = a->rv;
    struct sbx_review_op op = {
        .kind = kind, .item = (char *)item, .to = (char *)to, .text = (char *)text,
        .tag = (char *)tag, .state = (char *)state, .author = rv->author, .at = now_ns(),
    };
    char err[512];
    if (rv->outbox) {
        struct sbx_buf line = SBX_BUF_INIT;
        sbx_review_op_line(&op, &line);
        sbx_outbox_add(rv->outbox, line.p, line.len);
        sbx_buf_add(&rv->text, line.p, line.len);
        sbx_buf_free(&line);
    } else if (rv->write && !sbx_review_append(rv->write, &op, rv->make_dirs, err, sizeof err)) {
        sbx_app_message(a, true, "%s", err);
        return false;
    }
    uint32_t file = write_file_index(rv);
    uint32_t line = 1;
    for (size_t i = 0; i < rv->r.nops; i++)
        if (rv->r.ops[i].file == file && rv->r.ops[i].line >= line)
            line = rv->r.ops[i].line + 1;
    sbx_review_state_free(&rv->st); /* it points into the ops, which may move */
    struct sbx_review_op *o = sbx_review_push(&rv->r);
    *o = op;
    o->item = dup_or_null(item);
    o->to = dup_or_null(to);
    o->text = dup_or_null(text);
    o->tag = dup_or_null(tag);
    o->state = dup_or_null(state);
    o->author = sbx_xstrndup(rv->author, strlen(rv->author));
    o->file = file;
    o->line = line;
    sbx_review_state_make(&rv->r, &rv->st);
    rv->flags_tl = NULL; /* the column is made again */
    sbx_app_review_look(a);
    sbx_app_rebuild_doc(a);
    if (rv->outbox && !a->opts.background) { /* sent already: a failure is said now */
        sbx_app_review_poll(a);
        return !rv->send_failed;
    }
    return true;
}

static bool append(struct sbx_app *a, enum sbx_review_op_kind kind, const char *item, const char *text,
                   const char *tag, const char *state)
{
    return append_op(a, kind, item, NULL, text, tag, state);
}

bool sbx_app_review_range(struct sbx_app *a, bool note, const char *from, const char *to,
                          const char *text)
{
    if (!sbx_app_review_can_write(a))
        return false;
    return append_op(a, note ? SBX_REVIEW_NOTE : SBX_REVIEW_TAG, from, to, note ? text : NULL,
                     note ? NULL : text, NULL);
}

/* The selected event and its id, or NULL (said). */
static const struct sbx_event *selected(struct sbx_app *a, char id[SBX_EVID_LEN])
{
    const struct sbx_event *e = sbx_app_event(a, a->cur);
    if (!e) {
        sbx_app_message(a, true, "no event selected");
        return NULL;
    }
    sbx_event_id(a->tl, e, id);
    return e;
}

void sbx_app_review_mark(struct sbx_app *a, const struct sbx_event *e, bool on)
{
    if (!a->rv) {
        sbx_app_review_look(a);
        return;
    }
    char id[SBX_EVID_LEN];
    sbx_event_id(a->tl, e, id);
    bool marked = flags_of(a, e) & SBX_RV_MARK;
    if (on != marked)
        append(a, on ? SBX_REVIEW_MARK : SBX_REVIEW_UNMARK, id, NULL, NULL, NULL);
    sbx_app_review_look(a);
}

/* This author's note on the event with id, or NULL. */
static const char *own_note(const struct sbx_app *a, const char *id)
{
    const struct sbx_app_review *rv = a->rv;
    for (size_t i = 0; i < rv->st.nnotes; i++) {
        const struct sbx_review_note *n = &rv->st.notes[i];
        if (!n->to && strcmp(n->author, rv->author) == 0 && item_event(a->tl, n->item) == item_event(a->tl, id))
            return n->text;
    }
    return NULL;
}

static void ask(struct sbx_app *a, enum sbx_review_step step, const char *initial)
{
    struct sbx_app_review *rv = a->rv;
    rv->step = step;
    rv->hint = NULL;
    sbx_lineedit_start(&rv->ed, initial ? initial : "", initial ? strlen(initial) : 0);
}

void sbx_app_review_note(struct sbx_app *a)
{
    char id[SBX_EVID_LEN];
    if (!sbx_app_review_can_write(a) || !selected(a, id))
        return;
    const char *had = own_note(a, id);
    if (had && strchr(had, '\n')) {
        sbx_app_message(a, false, "the note has several lines: A edits it in $EDITOR");
        return;
    }
    struct sbx_app_review *rv = a->rv;
    snprintf(rv->item, sizeof rv->item, "%s", id);
    free(rv->before);
    rv->before = sbx_xstrndup(had ? had : "", had ? strlen(had) : 0);
    ask(a, SBX_ASK_NOTE, had);
}

unsigned sbx_app_review_editor(struct sbx_app *a)
{
    char id[SBX_EVID_LEN];
    if (!sbx_app_review_can_write(a) || !selected(a, id))
        return 0;
    struct sbx_app_review *rv = a->rv;
    const char *had = own_note(a, id);
    snprintf(rv->item, sizeof rv->item, "%s", id);
    free(rv->before);
    rv->before = sbx_xstrndup(had ? had : "", had ? strlen(had) : 0);
    rv->step = SBX_ASK_EDITOR;
    return SBX_APP_EDIT;
}

const char *sbx_app_edit_text(const struct sbx_app *a)
{
    return a->rv && a->rv->step == SBX_ASK_EDITOR && a->rv->before ? a->rv->before : "";
}

/* text without the blanks and newlines at its end. */
static size_t trimmed(const char *text, size_t n)
{
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    return n;
}

/* A note's text, written unless it is what the note already says (or empty
 * with no note to take back). */
static void write_note(struct sbx_app *a, const char *text, size_t n, bool may_clear)
{
    struct sbx_app_review *rv = a->rv;
    n = trimmed(text, n);
    size_t bn = trimmed(rv->before, strlen(rv->before));
    if (n == bn && memcmp(text, rv->before, n) == 0) {
        sbx_app_message(a, false, "the note is unchanged: nothing written");
        return;
    }
    if (!n && !may_clear) {
        sbx_app_message(a, false, "the note is empty: nothing written");
        return;
    }
    char *t = sbx_xstrndup(text, n);
    if (append(a, SBX_REVIEW_NOTE, rv->item, t, NULL, NULL))
        sbx_app_message(a, false, n ? "note written to the review" : "note taken back");
    free(t);
}

void sbx_app_edit_done(struct sbx_app *a, const char *text, size_t n, const char *err)
{
    if (!a->rv || a->rv->step != SBX_ASK_EDITOR)
        return;
    a->rv->step = SBX_ASK_NONE;
    if (!text) {
        sbx_app_message(a, true, "%s", err ? err : "the editor did not run");
        return;
    }
    write_note(a, text, n, false); /* an emptied file writes nothing */
}

void sbx_app_review_tag(struct sbx_app *a)
{
    char id[SBX_EVID_LEN];
    if (!sbx_app_review_can_write(a) || !selected(a, id))
        return;
    snprintf(a->rv->item, sizeof a->rv->item, "%s", id);
    ask(a, SBX_ASK_TAG, NULL);
}

static bool tagged(const struct sbx_app *a, const char *id, const char *tag)
{
    const struct sbx_app_review *rv = a->rv;
    for (size_t i = 0; i < rv->st.ntags; i++)
        if (strcmp(rv->st.tags[i].tag, tag) == 0 && !rv->st.tags[i].to &&
            item_event(a->tl, rv->st.tags[i].item) == item_event(a->tl, id))
            return true;
    return false;
}

/* The words typed: each a tag to add, or -TAG to take off. False (with the
 * hint) when one is not a tag; nothing is written then. */
static bool write_tags(struct sbx_app *a, const char *text)
{
    struct sbx_app_review *rv = a->rv;
    char *copy = sbx_xstrndup(text, strlen(text)), *save = NULL;
    bool ok = true;
    size_t words = 0;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        words++;
        if (!sbx_review_tag_valid(w[0] == '-' ? w + 1 : w))
            ok = false;
    }
    if (!ok || !words) {
        rv->hint = words ? "a tag is 1 to 64 of A-Z a-z 0-9 . _ : -" : "a tag, or -tag to take it off";
        free(copy);
        return false;
    }
    free(copy);
    copy = sbx_xstrndup(text, strlen(text));
    size_t added = 0, removed = 0;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        bool off = w[0] == '-';
        const char *tag = off ? w + 1 : w;
        if (off == tagged(a, rv->item, tag) &&
            append(a, off ? SBX_REVIEW_UNTAG : SBX_REVIEW_TAG, rv->item, NULL, tag, NULL))
            *(off ? &removed : &added) += 1;
    }
    free(copy);
    if (added || removed)
        sbx_app_message(a, false, "%zu tag%s added, %zu taken off", added, added == 1 ? "" : "s", removed);
    else if (!a->msg_error)
        sbx_app_message(a, false, "the tags were already so: nothing written");
    return true;
}

void sbx_app_review_triage(struct sbx_app *a)
{
    char id[SBX_EVID_LEN];
    const struct sbx_event *e;
    if (!sbx_app_review_can_write(a) || !(e = selected(a, id)))
        return;
    struct sbx_app_review *rv = a->rv;
    rv->nchoices = 0;
    for (size_t w = 0; w < sbx_nfindings && rv->nchoices < 9; w++)
        if (e->findings & sbx_findings[w].bit)
            rv->choices[rv->nchoices++] = sbx_findings[w].bit;
    if (!rv->nchoices) {
        sbx_app_message(a, false, "this event has no finding to triage");
        return;
    }
    if (rv->nchoices == 1) {
        sbx_finding_id(a->tl, e, rv->choices[0], rv->item);
        rv->step = SBX_ASK_TRIAGE_STATE;
    } else {
        rv->step = SBX_ASK_FINDING;
    }
    rv->hint = NULL;
}

void sbx_app_review_verdict(struct sbx_app *a)
{
    if (!sbx_app_review_can_write(a))
        return;
    if (!a->tl || !a->tl->n) {
        sbx_app_message(a, true, "nothing loaded to give a verdict on");
        return;
    }
    a->rv->step = SBX_ASK_VERDICT_STATE;
    a->rv->hint = NULL;
}

/* The state whose first letter is key, among n states, or NULL. */
static const char *state_by_key(const char *const *states, size_t n, int key)
{
    for (size_t i = 0; i < n; i++)
        if (key == states[i][0])
            return states[i];
    return NULL;
}

/* ---- the questions ---- */

bool sbx_app_review_asking(const struct sbx_app *a)
{
    return a->rv && a->rv->step != SBX_ASK_NONE && a->rv->step != SBX_ASK_EDITOR;
}

void sbx_app_review_cancel(struct sbx_app *a)
{
    if (a->rv && a->rv->step != SBX_ASK_EDITOR)
        a->rv->step = SBX_ASK_NONE;
}

static void accept(struct sbx_app *a)
{
    struct sbx_app_review *rv = a->rv;
    const char *text = sbx_lineedit_text(&rv->ed);
    switch (rv->step) {
    case SBX_ASK_NOTE:
        rv->step = SBX_ASK_NONE;
        write_note(a, text, strlen(text), true);
        return;
    case SBX_ASK_TAG:
        if (write_tags(a, text))
            rv->step = SBX_ASK_NONE;
        return;
    case SBX_ASK_TRIAGE_REASON:
    case SBX_ASK_VERDICT_REASON: {
        size_t n = trimmed(text, strlen(text));
        if (!n) {
            rv->hint = "a reason is needed (Esc cancels)";
            return;
        }
        bool triage = rv->step == SBX_ASK_TRIAGE_REASON;
        rv->step = SBX_ASK_NONE;
        char *t = sbx_xstrndup(text, n);
        if (append(a, triage ? SBX_REVIEW_TRIAGE : SBX_REVIEW_VERDICT, triage ? rv->item : NULL, t, NULL,
                   rv->state))
            sbx_app_message(a, false, triage ? "%s triaged %s" : "verdict %s%s written", triage ? rv->item : rv->state,
                            triage ? rv->state : "");
        free(t);
        return;
    }
    default:
        rv->step = SBX_ASK_NONE;
        return;
    }
}

void sbx_app_review_key(struct sbx_app *a, int key)
{
    struct sbx_app_review *rv = a->rv;
    if (rv->step == SBX_ASK_FINDING || rv->step == SBX_ASK_TRIAGE_STATE || rv->step == SBX_ASK_VERDICT_STATE) {
        if (key == SBX_KEY_ESC || key == sbx_ctrl('c') || key == sbx_ctrl('g') || key == 'q') {
            rv->step = SBX_ASK_NONE;
            return;
        }
        if (rv->step == SBX_ASK_FINDING) {
            if (key >= '1' && key < '1' + (int)rv->nchoices) {
                sbx_finding_id(a->tl, sbx_app_event(a, a->cur), rv->choices[key - '1'], rv->item);
                rv->step = SBX_ASK_TRIAGE_STATE;
                rv->hint = NULL;
            } else {
                rv->hint = "a digit names the finding";
            }
            return;
        }
        bool triage = rv->step == SBX_ASK_TRIAGE_STATE;
        const char *state = triage ? state_by_key(triage_states, NTRIAGE, key)
                                   : state_by_key(verdict_states, NVERDICT, key);
        if (!state) {
            rv->hint = "a state's first letter";
            return;
        }
        rv->state = state;
        const char *had = NULL;
        if (triage) {
            const struct sbx_review_triage *t = sbx_review_triage_of(&rv->st, rv->item);
            had = t ? t->reason : NULL;
        } else if (rv->st.verdict) {
            had = rv->st.verdict->text;
        }
        ask(a, triage ? SBX_ASK_TRIAGE_REASON : SBX_ASK_VERDICT_REASON, had && !strchr(had, '\n') ? had : NULL);
        return;
    }
    enum sbx_lineedit_result res = sbx_lineedit_key(&rv->ed, key);
    if (res == SBX_EDIT_CANCEL)
        rv->step = SBX_ASK_NONE;
    else if (res == SBX_EDIT_ACCEPT)
        accept(a);
}

/* The chooser's words: "1 secret, 2 refused host". */
static void choices_words(const struct sbx_app_review *rv, struct sbx_buf *b)
{
    for (size_t i = 0; i < rv->nchoices; i++) {
        sbx_buf_addf(b, "%s%zu ", i ? ", " : "", i + 1);
        sbx_findings_words(rv->choices[i], b);
    }
}

static void states_words(const char *const *states, size_t n, struct sbx_buf *b)
{
    for (size_t i = 0; i < n; i++)
        sbx_buf_addf(b, "%s%c %s", i ? ", " : "", states[i][0], states[i]);
}

void sbx_app_review_status(struct sbx_app *a, struct sbx_grid *g, int row)
{
    struct sbx_app_review *rv = a->rv;
    struct sbx_buf q = SBX_BUF_INIT;
    if (rv->hint)
        sbx_buf_addf(&q, "%s: ", rv->hint);
    switch (rv->step) {
    case SBX_ASK_NOTE: sbx_buf_adds(&q, "note (Enter saves, Esc cancels): "); break;
    case SBX_ASK_TAG: sbx_buf_adds(&q, "tags (-tag takes one off): "); break;
    case SBX_ASK_FINDING:
        sbx_buf_adds(&q, "triage which finding? ");
        choices_words(rv, &q);
        break;
    case SBX_ASK_TRIAGE_STATE:
        sbx_buf_addf(&q, "triage %s as: ", strchr(rv->item, '/') + 1);
        states_words(triage_states, NTRIAGE, &q);
        break;
    case SBX_ASK_VERDICT_STATE:
        sbx_buf_adds(&q, "the run's verdict: ");
        states_words(verdict_states, NVERDICT, &q);
        break;
    case SBX_ASK_TRIAGE_REASON: sbx_buf_addf(&q, "%s, because: ", rv->state); break;
    case SBX_ASK_VERDICT_REASON: sbx_buf_addf(&q, "verdict %s, because: ", rv->state); break;
    default: break;
    }
    sbx_grid_fill(g, row, 0, g->cols, SBX_STYLE_PROMPT);
    int col = sbx_grid_text(g, row, 0, g->cols, SBX_STYLE_PROMPT, q.p ? q.p : "", q.len);
    sbx_buf_free(&q);
    if (rv->step != SBX_ASK_NOTE && rv->step != SBX_ASK_TAG && rv->step != SBX_ASK_TRIAGE_REASON &&
        rv->step != SBX_ASK_VERDICT_REASON)
        return;
    /* what is typed is shown inert, the cursor's place in sight */
    const char *in = sbx_lineedit_text(&rv->ed);
    size_t len = rv->ed.text.len, skip = 0;
    int room = g->cols - col - 2;
    struct sbx_buf red = SBX_BUF_INIT;
    size_t rn;
    const char *masked = sbx_untrusted_redact(&red, in, len, &rn);
    if (rn != len || memcmp(masked, in, len) != 0) {
        /* it holds a secret: the masked whole, its end in sight (a part
         * scrolled to could leave a secret's tail unmasked) */
        while (skip < rn && sbx_text_width(masked + skip, rn - skip) > room)
            skip++;
        while (skip < rn && ((unsigned char)masked[skip] & 0xc0) == 0x80)
            skip++;
        int at = sbx_grid_untrusted(g, row, col, g->cols - 1, SBX_STYLE_PROMPT, masked + skip, rn - skip);
        sbx_grid_text(g, row, at, g->cols, SBX_STYLE_CURSOR, " ", 1);
        sbx_buf_free(&red);
        return;
    }
    sbx_buf_free(&red);
    while (skip < rv->ed.cursor && sbx_text_width(in + skip, rv->ed.cursor - skip) > room)
        skip++;
    while (skip < len && ((unsigned char)in[skip] & 0xc0) == 0x80)
        skip++;
    int at = sbx_grid_untrusted(g, row, col, g->cols - 1, SBX_STYLE_PROMPT, in + skip, rv->ed.cursor - skip);
    /* the character under the cursor, in the cursor's style */
    size_t next = rv->ed.cursor;
    if (next < len) {
        next++;
        while (next < len && ((unsigned char)in[next] & 0xc0) == 0x80)
            next++;
    }
    int after = next > rv->ed.cursor
                    ? sbx_grid_untrusted(g, row, at, g->cols, SBX_STYLE_CURSOR, in + rv->ed.cursor, next - rv->ed.cursor)
                    : sbx_grid_text(g, row, at, g->cols, SBX_STYLE_CURSOR, " ", 1);
    if (next < len)
        sbx_grid_untrusted(g, row, after, g->cols - 1, SBX_STYLE_PROMPT, in + next, len - next);
}
