/* What each key does: the key map's handlers, the prompt, marks, mouse. */
#include <stdlib.h>
#include <string.h>

#include "query/query.h"
#include "app/app_internal.h"
#include "app/app_review.h"
#include "app/keymap.h"
#include "app/view.h"

/* ---- the prompt ---- */

static void utf8_backspace(struct sbx_buf *b)
{
    while (b->len && ((unsigned char)b->p[b->len - 1] & 0xc0) == 0x80)
        b->len--;
    if (b->len)
        b->len--;
}

static void add_codepoint(struct sbx_buf *b, uint32_t cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (char)(0xf0 | cp >> 18);
        u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    sbx_buf_add(b, u, n);
}

static void accept_prompt(struct sbx_app *a)
{
    int kind = a->prompt;
    a->prompt = 0;
    char *text = sbx_xstrndup(a->input.p ? a->input.p : "", a->input.len);
    if (kind == '&') {
        sbx_app_set_filter(a, text);
    } else if (kind == 'e') {
        sbx_app_export_prepare(a, text);
    } else if (kind == '=' || kind == '+') {
        sbx_app_range_accept(a, kind, text);
    } else if (kind == 'w') {
        sbx_app_copy_write(a, text);
    } else if (!*text) {
        /* an empty search repeats the last one, as in less */
        if (a->search)
            sbx_app_next_match(a, kind == '\\');
    } else {
        sbx_app_set_search(a, text, kind == '\\', kind == '\\' ? -1 : 1);
    }
    free(text);
}

static void prompt_key(struct sbx_app *a, int key)
{
    if (key == SBX_KEY_ENTER || key == '\r') {
        accept_prompt(a);
    } else if (key == SBX_KEY_ESC || key == sbx_ctrl('c') || key == sbx_ctrl('g')) {
        a->prompt = 0;
    } else if (key == SBX_KEY_BACKSPACE || key == 127 || key == sbx_ctrl('h')) {
        if (!a->input.len)
            a->prompt = 0; /* backspace on an empty prompt leaves it, as in less */
        else
            utf8_backspace(&a->input);
    } else if (key == sbx_ctrl('u')) {
        sbx_buf_clear(&a->input);
    } else if (key == sbx_ctrl('w')) {
        while (a->input.len && a->input.p[a->input.len - 1] == ' ')
            a->input.len--;
        while (a->input.len && a->input.p[a->input.len - 1] != ' ')
            utf8_backspace(&a->input);
    } else if (key >= 32 && key < SBX_KEY_NAMED && key != 127 && a->input.len < 4096) {
        add_codepoint(&a->input, (uint32_t)key);
    }
}

static void start_prompt(struct sbx_app *a, int kind)
{
    a->prompt = kind;
    sbx_buf_clear(&a->input);
}

/* ---- the handlers of the key map's actions ---- */

static void next_finding(struct sbx_app *a, bool back)
{
    size_t n = sbx_app_count(a);
    for (size_t k = 1; k < n; k++) {
        size_t i = back ? (a->cur + n - k) % n : (a->cur + k) % n;
        if (sbx_app_event(a, i)->findings & ~(uint32_t)SBX_F_BAD_FIELD) {
            bool wrapped = back ? i > a->cur : i < a->cur;
            sbx_app_select(a, i);
            if (wrapped)
                sbx_app_message(a, false, back ? "from the end" : "from the top");
            return;
        }
    }
    sbx_app_message(a, false, "no %s finding", n ? "other" : "");
}

static void mark_key(struct sbx_app *a, int kind, int key)
{
    int slot = key >= 'a' && key <= 'z' ? key - 'a' : key >= 'A' && key <= 'Z' ? 26 + key - 'A' : -1;
    const struct sbx_event *e = sbx_app_event(a, a->cur);
    if (kind == 'm' && key == '-' && e) { /* unmark: its letters go, and the review's mark */
        for (size_t i = 0; i < sizeof a->marks / sizeof a->marks[0]; i++)
            if (a->marks[i] == e)
                a->marks[i] = NULL;
        sbx_app_message(a, false, "unmarked");
        sbx_app_review_mark(a, e, false);
        return;
    }
    if (slot < 0) {
        sbx_app_message(a, true, "a mark is a letter (m then - unmarks)");
        return;
    }
    if (kind == 'm') {
        if (!e)
            return;
        a->marks[slot] = e;
        sbx_app_message(a, false, "marked %c", key);
        sbx_app_review_mark(a, e, true);
    } else if (!a->marks[slot]) {
        sbx_app_message(a, true, "no mark %c", key);
    } else {
        sbx_app_goto_event(a, a->marks[slot]);
    }
}

static void move(struct sbx_app *a, long delta, bool to_end)
{
    const struct sbx_view_ops *v = sbx_app_view(a);
    (v->move ? v->move : sbx_app_doc_move)(a, delta, to_end);
}

static long page(const struct sbx_app *a)
{
    int p = sbx_app_view(a)->page;
    return p ? p : sbx_app_body(a);
}

static long half(const struct sbx_app *a)
{
    long h = sbx_app_body(a) / 2;
    return h ? h : 1;
}

static void mouse(struct sbx_app *a, int key, int row)
{
    const struct sbx_view_ops *v = sbx_app_view(a);
    if (key == SBX_KEY_WHEEL_UP || key == SBX_KEY_WHEEL_DOWN) {
        long d = key == SBX_KEY_WHEEL_UP ? -3 : 3;
        if (v->wheel)
            v->wheel(a, d);
        else
            move(a, d, false);
        return;
    }
    if (row >= 1 && row <= sbx_app_body(a) && v->click)
        v->click(a, row, key == SBX_KEY_DOUBLE_CLICK);
}

static unsigned key_down(struct sbx_app *a, int key) { (void)key; move(a, 1, false); return 0; }
static unsigned key_up(struct sbx_app *a, int key) { (void)key; move(a, -1, false); return 0; }
static unsigned key_page_down(struct sbx_app *a, int key) { (void)key; move(a, page(a), false); return 0; }
static unsigned key_page_up(struct sbx_app *a, int key) { (void)key; move(a, -page(a), false); return 0; }
static unsigned key_half_down(struct sbx_app *a, int key) { (void)key; move(a, half(a), false); return 0; }
static unsigned key_half_up(struct sbx_app *a, int key) { (void)key; move(a, -half(a), false); return 0; }
static unsigned key_top(struct sbx_app *a, int key) { (void)key; move(a, -1, true); return 0; }
static unsigned key_bottom(struct sbx_app *a, int key) { (void)key; move(a, 1, true); return 0; }

static unsigned key_open(struct sbx_app *a, int key)
{
    (void)key;
    sbx_app_view(a)->enter(a);
    return 0;
}

static unsigned key_fold(struct sbx_app *a, int key)
{
    (void)key;
    sbx_app_view(a)->fold(a, true);
    return 0;
}

static unsigned key_unfold(struct sbx_app *a, int key)
{
    (void)key;
    sbx_app_view(a)->fold(a, false);
    return 0;
}

static unsigned key_raw(struct sbx_app *a, int key)
{
    (void)key;
    a->raw = !a->raw;
    a->doc_top = 0;
    sbx_app_rebuild_doc(a);
    return 0;
}

static unsigned key_summary(struct sbx_app *a, int key) { (void)key; sbx_app_open_summary(a); return 0; }
static unsigned key_story(struct sbx_app *a, int key) { (void)key; sbx_app_open_story(a); return 0; }
static unsigned key_files(struct sbx_app *a, int key) { (void)key; sbx_app_open_files(a); return 0; }

/* The story's links of the detail's event (analyses/chain.h), or NULL. */
static const struct sbx_story_item *detail_links(const struct sbx_app *a)
{
    const struct sbx_event *e = sbx_app_event(a, a->cur);
    const struct sbx_story_item *it = e && a->sum ? sbx_story_item_of(&a->sum->story, e) : NULL;
    return it && it->nlinks ? it : NULL;
}

static void select_link(struct sbx_app *a, long delta)
{
    const struct sbx_story_item *it = detail_links(a);
    if (!it) {
        sbx_app_message(a, false, "this event has no links");
        return;
    }
    a->look.link = (size_t)(((long)a->look.link + delta + (long)it->nlinks) % (long)it->nlinks);
    sbx_app_rebuild_doc(a);
}

static unsigned key_link_next(struct sbx_app *a, int key) { (void)key; select_link(a, 1); return 0; }
static unsigned key_link_prev(struct sbx_app *a, int key) { (void)key; select_link(a, -1); return 0; }

/* The detail of e, from the top, with its first link selected. */
static void show_detail_of(struct sbx_app *a, const struct sbx_event *e, size_t top, size_t link)
{
    enum sbx_view back_to = a->back_to;
    sbx_app_goto_event(a, e); /* clears a filter that hides it */
    a->view = SBX_VIEW_DETAIL;
    a->back_to = back_to;
    a->raw = false;
    a->look.link = link;
    a->doc_top = top;
    sbx_app_rebuild_doc(a);
}

static unsigned key_link_follow(struct sbx_app *a, int key)
{
    (void)key;
    const struct sbx_story_item *it = detail_links(a);
    if (!it) {
        sbx_app_message(a, false, "this event has no links");
        return 0;
    }
    const struct sbx_story_link *ln = &it->links[a->look.link < it->nlinks ? a->look.link : 0];
    size_t max = sizeof a->trail / sizeof a->trail[0];
    if (a->ntrail == max) { /* the oldest step goes */
        memmove(a->trail, a->trail + 1, (max - 1) * sizeof a->trail[0]);
        a->ntrail--;
    }
    a->trail[a->ntrail].event = it->event;
    a->trail[a->ntrail].top = a->doc_top;
    a->trail[a->ntrail].link = a->look.link;
    a->ntrail++;
    show_detail_of(a, ln->event, 0, 0);
    sbx_app_message(a, false, "%s (Backspace comes back)", sbx_link_words(ln->kind));
    return 0;
}

static unsigned key_link_back(struct sbx_app *a, int key)
{
    (void)key;
    if (!a->ntrail) {
        sbx_app_message(a, false, "no link was followed");
        return 0;
    }
    a->ntrail--;
    show_detail_of(a, a->trail[a->ntrail].event, a->trail[a->ntrail].top, a->trail[a->ntrail].link);
    return 0;
}
static unsigned key_network(struct sbx_app *a, int key) { (void)key; sbx_app_open_network(a); return 0; }

/* Tab: timeline, files, network, and round again; from any other view, the files. */
static unsigned key_next_view(struct sbx_app *a, int key)
{
    (void)key;
    if (a->view == SBX_VIEW_FILES)
        sbx_app_open_network(a);
    else if (a->view == SBX_VIEW_NETWORK)
        a->view = SBX_VIEW_TIMELINE;
    else
        sbx_app_open_files(a);
    return 0;
}

static unsigned key_help(struct sbx_app *a, int key) { (void)key; sbx_app_open_help(a); return 0; }
static unsigned key_search(struct sbx_app *a, int key) { (void)key; start_prompt(a, '/'); return 0; }
static unsigned key_search_back(struct sbx_app *a, int key) { (void)key; start_prompt(a, '\\'); return 0; }

static unsigned next_match(struct sbx_app *a, bool prev)
{
    if (a->job && a->job->kind == SBX_JOB_SEARCH) {
        char busy[64];
        sbx_app_job_progress(a, busy, sizeof busy);
        sbx_app_message(a, false, "still %s", busy);
        return 0;
    }
    bool back = prev != a->search_back;
    if (sbx_app_view(a)->document)
        sbx_app_search_doc(a, back, true, false);
    else
        sbx_app_next_match(a, back);
    return 0;
}

static unsigned key_next_match(struct sbx_app *a, int key) { (void)key; return next_match(a, false); }
static unsigned key_prev_match(struct sbx_app *a, int key) { (void)key; return next_match(a, true); }
static unsigned key_filter(struct sbx_app *a, int key) { (void)key; start_prompt(a, '&'); return 0; }

static unsigned key_findings(struct sbx_app *a, int key)
{
    (void)key;
    static const char *const modes[] = {"all events", "events with findings",
                                        "serious findings only"};
    a->findings_mode = (a->findings_mode + 1) % 3;
    sbx_app_apply_filter(a);
    sbx_app_message(a, false, "showing %s", modes[a->findings_mode]);
    return 0;
}

static unsigned key_next_finding(struct sbx_app *a, int key) { (void)key; next_finding(a, false); return 0; }
static unsigned key_prev_finding(struct sbx_app *a, int key) { (void)key; next_finding(a, true); return 0; }
static unsigned key_mark(struct sbx_app *a, int key) { (void)key; a->pending = 'm'; return 0; }
static unsigned key_goto_mark(struct sbx_app *a, int key) { (void)key; a->pending = '\''; return 0; }

static unsigned key_follow(struct sbx_app *a, int key)
{
    (void)key;
    a->following = !a->following;
    if (a->following) /* as less's F: to the end, and stay there as lines come */
        move(a, 1, true);
    return SBX_APP_FOLLOW;
}

static unsigned key_export(struct sbx_app *a, int key) { (void)key; sbx_app_export_prompt(a); return 0; }
static unsigned key_send(struct sbx_app *a, int key) { (void)key; sbx_app_export_send(a); return 0; }
static unsigned key_redraw(struct sbx_app *a, int key) { (void)a; (void)key; return 0; }

static unsigned key_back(struct sbx_app *a, int key)
{
    const struct sbx_view_ops *v = sbx_app_view(a);
    if (key == SBX_KEY_ESC && a->view == SBX_VIEW_TIMELINE && sbx_app_range_clear(a))
        return 0;
    if (!v->back) /* Esc here is a habit, not a wish to quit */
        return key == SBX_KEY_ESC ? 0 : SBX_APP_QUIT;
    a->view = v->back(a);
    sbx_app_rebuild_doc(a);
    return 0;
}

static unsigned key_quit(struct sbx_app *a, int key) { (void)a; (void)key; return SBX_APP_QUIT; }
static unsigned key_note(struct sbx_app *a, int key) { (void)key; sbx_app_review_note(a); return 0; }
static unsigned key_note_editor(struct sbx_app *a, int key) { (void)key; return sbx_app_review_editor(a); }
static unsigned key_tag(struct sbx_app *a, int key) { (void)key; sbx_app_review_tag(a); return 0; }
static unsigned key_triage(struct sbx_app *a, int key) { (void)key; sbx_app_review_triage(a); return 0; }
static unsigned key_verdict(struct sbx_app *a, int key) { (void)key; sbx_app_review_verdict(a); return 0; }
static unsigned key_review(struct sbx_app *a, int key) { (void)key; sbx_app_open_review(a); return 0; }

bool sbx_app_typing(const struct sbx_app *a)
{
    return a->prompt || sbx_app_review_asking(a);
}

void sbx_app_stop_typing(struct sbx_app *a)
{
    a->prompt = 0;
    sbx_app_review_cancel(a);
}

/* The key map's handler column. */
static unsigned (*const handlers[SBX_ACT_COUNT])(struct sbx_app *, int) = {
#define SBX_HANDLER_ROW(a, group, help, run, runs, k1, k2, k3, k4) [SBX_ACT_##a] = run,
    SBX_KEYMAP(SBX_HANDLER_ROW)
#undef SBX_HANDLER_ROW
};

unsigned sbx_app_key(struct sbx_app *a, int key, int mrow, int mcol)
{
    (void)mcol;
    if (key == SBX_KEY_RESIZE)
        return 0; /* the caller resizes; nothing else changes */
    if (a->prompt) {
        prompt_key(a, key);
        return 0;
    }
    if (sbx_app_review_asking(a)) {
        a->msg[0] = '\0';
        sbx_app_review_key(a, key);
        return 0;
    }
    a->msg[0] = '\0';
    if (sbx_app_export_busy(a) && !a->job && (key == SBX_KEY_ESC || key == sbx_ctrl('c'))) {
        sbx_app_export_cancel(a);
        sbx_app_message(a, false, "stopping the export...");
        return 0;
    }
    if (a->job && (key == SBX_KEY_ESC || key == sbx_ctrl('c'))) {
        /* a search or filter is running: Esc or Ctrl-C stops it; other keys work meanwhile */
        sbx_app_cancel(a, true);
        return 0;
    }
    if (a->pending) {
        int kind = a->pending;
        a->pending = 0;
        if (kind == 'O')
            sbx_app_copy_confirm(a, key);
        else if (key == SBX_KEY_ESC)
            return 0;
        else if (kind == 'm' || kind == '\'')
            mark_key(a, kind, key);
        else
            return sbx_app_copy_letter(a, kind, key);
        return 0;
    }
    if (key >= SBX_KEY_WHEEL_UP && key <= SBX_KEY_DOUBLE_CLICK) {
        mouse(a, key, mrow);
        return 0;
    }
    enum sbx_action action = sbx_keymap_find(key, sbx_app_view(a)->keys);
    if (action == SBX_ACT_NONE) {
        char name[16];
        if (sbx_keymap_find(key, ~0u) != SBX_ACT_NONE)
            sbx_app_message(a, false, "%s does nothing here (? for help)", sbx_key_name(key, name));
        else if (key != SBX_KEY_ESC)
            sbx_app_message(a, false, "no key %s (? for help)", sbx_key_name(key, name));
        return 0;
    }
    return handlers[action](a, key);
}
