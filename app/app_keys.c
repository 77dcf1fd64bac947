/* What each key does: the key map's actions, the prompt, marks, mouse. */
#include <stdlib.h>
#include <string.h>

#include "query/query.h"
#include "app/app_internal.h"
#include "app/keymap.h"

static unsigned view_bit(enum sbx_view v)
{
    switch (v) {
    case SBX_VIEW_TIMELINE: return V_TIMELINE;
    case SBX_VIEW_DETAIL: return V_DETAIL;
    case SBX_VIEW_SUMMARY: return V_SUMMARY;
    case SBX_VIEW_HELP: return V_HELP;
    case SBX_VIEW_EXPORT: return V_EXPORT;
    case SBX_VIEW_FILES: return V_FILES;
    case SBX_VIEW_NETWORK: return V_NETWORK;
    case SBX_VIEW_FILE: return V_FILE;
    }
    return V_TIMELINE;
}

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

/* ---- moving ---- */

static size_t doc_max_top(const struct sbx_app *a)
{
    size_t h = (size_t)sbx_app_body(a);
    return a->doc.nrows > h ? a->doc.nrows - h : 0;
}

/* The summary's selectable lines are doc rows with a target. */
static size_t summary_row_of_line(const struct sbx_app *a, size_t line)
{
    for (size_t r = 0; r < a->doc.nrows; r++)
        if (a->doc.rows[r].target == (int32_t)line)
            return r;
    return 0;
}

static void summary_select(struct sbx_app *a, long delta)
{
    if (!a->nslines)
        return;
    long sel = (long)a->doc_sel + delta;
    if (sel < 0)
        sel = 0;
    if (sel >= (long)a->nslines)
        sel = (long)a->nslines - 1;
    a->doc_sel = (size_t)sel;
    size_t r = summary_row_of_line(a, a->doc_sel), h = (size_t)sbx_app_body(a);
    if (r < a->doc_top)
        a->doc_top = r;
    if (r >= a->doc_top + h)
        a->doc_top = r - h + 1;
}

static void move(struct sbx_app *a, long delta, bool to_end)
{
    if (sbx_app_is_list(a)) {
        sbx_app_list_move(a, delta, to_end);
        return;
    }
    if (a->view == SBX_VIEW_SUMMARY) {
        summary_select(a, to_end ? (delta < 0 ? -(long)a->nslines : (long)a->nslines) : delta);
        return;
    }
    if (a->view != SBX_VIEW_TIMELINE) {
        long top = to_end ? (delta < 0 ? 0 : (long)doc_max_top(a)) : (long)a->doc_top + delta;
        if (top < 0)
            top = 0;
        if ((size_t)top > doc_max_top(a))
            top = (long)doc_max_top(a);
        a->doc_top = (size_t)top;
        return;
    }
    size_t n = sbx_app_count(a);
    if (!n)
        return;
    if (to_end) {
        sbx_app_select(a, delta < 0 ? 0 : n - 1);
        return;
    }
    long cur = (long)a->cur + delta;
    if (cur < 0)
        cur = 0;
    if (cur >= (long)n)
        cur = (long)n - 1;
    /* a page keeps the selection's place on the screen, as less does */
    long h = sbx_app_body(a);
    if (delta >= h / 2 || delta <= -(h / 2)) {
        long top = (long)a->top + delta;
        long max_top = (long)n > h ? (long)n - h : 0;
        a->top = (size_t)(top < 0 ? 0 : top > max_top ? max_top : top);
    }
    sbx_app_select(a, (size_t)cur);
}

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

/* In a document: the next row (or previous) whose text matches the search. */
bool sbx_app_search_doc(struct sbx_app *a, bool back, bool from_next, bool quiet)
{
    if (!a->search)
        return false;
    struct sbx_buf row = SBX_BUF_INIT;
    size_t n = a->doc.nrows;
    size_t start = a->doc_top;
    for (size_t k = from_next ? 1 : 0; k <= n && n; k++) {
        size_t r = back ? (start + n - k % n) % n : (start + k) % n;
        const struct sbx_doc_row *dr = &a->doc.rows[r];
        sbx_buf_clear(&row);
        for (uint32_t s = 0; s < dr->nspans; s++)
            sbx_buf_add(&row, a->doc.text.p + a->doc.spans[dr->span0 + s].off,
                        a->doc.spans[dr->span0 + s].len);
        size_t b, e;
        if (row.len && sbx_query_find(a->search, row.p, row.len, 0, &b, &e)) {
            a->doc_top = r < doc_max_top(a) ? r : doc_max_top(a);
            sbx_buf_free(&row);
            return true;
        }
    }
    sbx_buf_free(&row);
    if (!quiet)
        sbx_app_message(a, true, "pattern not found here: %s", a->search_text);
    return false;
}

static void open_target(struct sbx_app *a)
{
    if (a->doc_sel >= a->nslines)
        return;
    const struct sbx_summary_line *l = &a->slines[a->doc_sel];
    if (l->event) {
        a->findings_mode = a->findings_mode && l->event->findings ? a->findings_mode : 0;
        sbx_app_goto_event(a, l->event);
    } else if (l->filter) {
        a->view = SBX_VIEW_TIMELINE;
        a->findings_mode = 0;
        if (sbx_app_set_filter(a, l->filter))
            sbx_app_select(a, 0);
    } else {
        sbx_app_message(a, false, "this line leads to no events");
    }
}

static void mark_key(struct sbx_app *a, int kind, int key)
{
    int slot = key >= 'a' && key <= 'z' ? key - 'a' : key >= 'A' && key <= 'Z' ? 26 + key - 'A' : -1;
    if (slot < 0) {
        sbx_app_message(a, true, "a mark is a letter");
        return;
    }
    if (kind == 'm') {
        a->marks[slot] = sbx_app_event(a, a->cur);
        sbx_app_message(a, false, "marked %c", key);
    } else if (!a->marks[slot]) {
        sbx_app_message(a, true, "no mark %c", key);
    } else {
        sbx_app_goto_event(a, a->marks[slot]);
    }
}

static void mouse(struct sbx_app *a, int key, int row)
{
    if (key == SBX_KEY_WHEEL_UP || key == SBX_KEY_WHEEL_DOWN) {
        long d = key == SBX_KEY_WHEEL_UP ? -3 : 3;
        if (a->view == SBX_VIEW_TIMELINE) {
            long top = (long)a->top + d, n = (long)sbx_app_count(a), h = sbx_app_body(a);
            long max_top = n > h ? n - h : 0;
            a->top = (size_t)(top < 0 ? 0 : top > max_top ? max_top : top);
            if (a->cur < a->top)
                a->cur = a->top;
            if (a->cur >= a->top + (size_t)h)
                a->cur = a->top + (size_t)h - 1;
        } else if (a->view == SBX_VIEW_SUMMARY) {
            summary_select(a, d > 0 ? 1 : -1);
        } else if (sbx_app_is_list(a)) {
            sbx_app_list_wheel(a, d);
        } else {
            move(a, d, false);
        }
        return;
    }
    if (row < 1 || row > sbx_app_body(a))
        return;
    if (a->view == SBX_VIEW_TIMELINE) {
        size_t i = a->top + (size_t)(row - 1);
        if (i < sbx_app_count(a)) {
            sbx_app_select(a, i);
            if (key == SBX_KEY_DOUBLE_CLICK)
                sbx_app_open_detail(a);
        }
    } else if (sbx_app_is_list(a)) {
        sbx_app_list_click(a, row, key == SBX_KEY_DOUBLE_CLICK);
    } else if (a->view == SBX_VIEW_SUMMARY) {
        size_t r = a->doc_top + (size_t)(row - 1);
        if (r < a->doc.nrows && a->doc.rows[r].target >= 0) {
            a->doc_sel = (size_t)a->doc.rows[r].target;
            if (key == SBX_KEY_DOUBLE_CLICK)
                open_target(a);
        }
    }
}

static unsigned act(struct sbx_app *a, enum sbx_action action, int key)
{
    long h = sbx_app_body(a);
    bool doc = a->view != SBX_VIEW_TIMELINE;
    switch (action) {
    case SBX_ACT_NONE: break;
    case SBX_ACT_DOWN: move(a, 1, false); break;
    case SBX_ACT_UP: move(a, -1, false); break;
    case SBX_ACT_PAGE_DOWN: move(a, a->view == SBX_VIEW_SUMMARY ? 5 : h, false); break;
    case SBX_ACT_PAGE_UP: move(a, a->view == SBX_VIEW_SUMMARY ? -5 : -h, false); break;
    case SBX_ACT_HALF_DOWN: move(a, h / 2 ? h / 2 : 1, false); break;
    case SBX_ACT_HALF_UP: move(a, -(h / 2 ? h / 2 : 1), false); break;
    case SBX_ACT_TOP: move(a, -1, true); break;
    case SBX_ACT_BOTTOM: move(a, 1, true); break;
    case SBX_ACT_OPEN:
        if (sbx_app_is_list(a))
            sbx_app_list_open(a);
        else if (a->view == SBX_VIEW_SUMMARY)
            open_target(a);
        else if (sbx_app_count(a))
            sbx_app_open_detail(a);
        break;
    case SBX_ACT_RAW:
        a->raw = !a->raw;
        a->doc_top = 0;
        sbx_app_rebuild_doc(a);
        break;
    case SBX_ACT_SUMMARY: sbx_app_open_summary(a); break;
    case SBX_ACT_FOLD: sbx_app_list_fold(a, true); break;
    case SBX_ACT_UNFOLD: sbx_app_list_fold(a, false); break;
    case SBX_ACT_FILES: sbx_app_open_files(a); break;
    case SBX_ACT_NETWORK: sbx_app_open_network(a); break;
    case SBX_ACT_NEXT_VIEW:
        if (a->view == SBX_VIEW_FILES)
            sbx_app_open_network(a);
        else if (a->view == SBX_VIEW_NETWORK)
            a->view = SBX_VIEW_TIMELINE;
        else
            sbx_app_open_files(a);
        break;
    case SBX_ACT_HELP: sbx_app_open_help(a); break;
    case SBX_ACT_SEARCH: start_prompt(a, '/'); break;
    case SBX_ACT_SEARCH_BACK: start_prompt(a, '\\'); break;
    case SBX_ACT_NEXT_MATCH:
    case SBX_ACT_PREV_MATCH: {
        if (a->job && a->job->kind == SBX_JOB_SEARCH) {
            char busy[64];
            sbx_app_job_progress(a, busy, sizeof busy);
            sbx_app_message(a, false, "still %s", busy);
            break;
        }
        bool back = (action == SBX_ACT_PREV_MATCH) != a->search_back;
        if (doc)
            sbx_app_search_doc(a, back, true, false);
        else
            sbx_app_next_match(a, back);
        break;
    }
    case SBX_ACT_FILTER: start_prompt(a, '&'); break;
    case SBX_ACT_FINDINGS: {
        static const char *const modes[] = {"all events", "events with findings",
                                            "serious findings only"};
        a->findings_mode = (a->findings_mode + 1) % 3;
        sbx_app_apply_filter(a);
        sbx_app_message(a, false, "showing %s", modes[a->findings_mode]);
        break;
    }
    case SBX_ACT_NEXT_FINDING: next_finding(a, false); break;
    case SBX_ACT_PREV_FINDING: next_finding(a, true); break;
    case SBX_ACT_MARK: a->pending = 'm'; break;
    case SBX_ACT_GOTO_MARK: a->pending = '\''; break;
    case SBX_ACT_FOLLOW:
        a->following = !a->following;
        if (a->following) /* as less's F: to the end, and stay there as lines come */
            move(a, 1, true);
        return SBX_APP_FOLLOW;
    case SBX_ACT_EXPORT: sbx_app_export_prompt(a); break;
    case SBX_ACT_SEND: sbx_app_export_send(a); break;
    case SBX_ACT_REDRAW: break;
    case SBX_ACT_BACK:
        if (a->view == SBX_VIEW_TIMELINE) /* Esc here is a habit, not a wish to quit */
            return key == SBX_KEY_ESC ? 0 : SBX_APP_QUIT;
        if (a->view == SBX_VIEW_EXPORT) /* cancelled: back where e was pressed */
            a->view = sbx_app_export_back(a);
        else
            a->view = a->view == SBX_VIEW_HELP && a->back_to != SBX_VIEW_HELP ? a->back_to
                      : a->view == SBX_VIEW_FILE                              ? SBX_VIEW_FILES
                                                                              : SBX_VIEW_TIMELINE;
        if (a->view != SBX_VIEW_TIMELINE)
            sbx_app_rebuild_doc(a);
        break;
    case SBX_ACT_QUIT: return SBX_APP_QUIT;
    case SBX_ACT_COUNT: break;
    }
    return 0;
}

unsigned sbx_app_key(struct sbx_app *a, int key, int mrow, int mcol)
{
    (void)mcol;
    if (key == SBX_KEY_RESIZE)
        return 0; /* the caller resizes; nothing else changes */
    if (a->prompt) {
        prompt_key(a, key);
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
        if (key != SBX_KEY_ESC)
            mark_key(a, kind, key);
        return 0;
    }
    if (key >= SBX_KEY_WHEEL_UP && key <= SBX_KEY_DOUBLE_CLICK) {
        mouse(a, key, mrow);
        return 0;
    }
    enum sbx_action action = sbx_keymap_find(key, view_bit(a->view));
    if (action == SBX_ACT_NONE) {
        char name[16];
        if (sbx_keymap_find(key, V_ALL) != SBX_ACT_NONE)
            sbx_app_message(a, false, "%s does nothing here (? for help)", sbx_key_name(key, name));
        else if (key != SBX_KEY_ESC)
            sbx_app_message(a, false, "no key %s (? for help)", sbx_key_name(key, name));
        return 0;
    }
    return act(a, action, key);
}
