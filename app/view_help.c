/* The help: the key map (app/keymap.h) with where each key works, the mark
 * and kind columns, how log text is shown. */
#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/app_keyhelp.h"
#include "app/keymap.h"
#include "app/view.h"

static void rebuild(struct sbx_app *a)
{
    struct sbx_doc *d = &a->doc;
    sbx_doc_adds(d, SBX_STYLE_HEADING, "Keys");
    sbx_doc_end_line(d);
    const char *names[SBX_VIEW_COUNT];
    unsigned groups[SBX_VIEW_COUNT], any = 0, all = 0;
    for (int v = 0; v < SBX_VIEW_COUNT; v++) {
        names[v] = sbx_views[v]->name;
        groups[v] = sbx_views[v]->keys;
        any |= groups[v];
        all |= 1u << v;
    }
    for (size_t i = 0; i < sbx_keymap_len; i++) {
        const struct sbx_keymap_entry *k = &sbx_keymap[i];
        if (!(k->group & any))
            continue; /* the runs list's */
        char where[128];
        sbx_keyhelp_where(sbx_keymap_where(k, groups, SBX_VIEW_COUNT), all, names, SBX_VIEW_COUNT,
                          where, sizeof where);
        sbx_keyhelp_line(d, a->cols, k->keys, k->help, where);
    }
    sbx_doc_set_indent(d, 0);
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "The mark column, heaviest finding first");
    sbx_doc_end_line(d);
    for (size_t w = 0; w < sbx_nfindings; w++) {
        uint32_t bit = sbx_findings[w].bit;
        char mark;
        enum sbx_style st = sbx_finding_look(bit, &mark);
        if (mark == ' ')
            continue;
        struct sbx_buf words = SBX_BUF_INIT;
        sbx_findings_words(bit, &words);
        sbx_doc_addf(d, st, "  %c", mark);
        sbx_doc_add(d, SBX_STYLE_NORMAL, "  ", 2);
        sbx_doc_add(d, SBX_STYLE_NORMAL, words.p, words.len);
        sbx_doc_end_line(d);
        sbx_buf_free(&words);
    }
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "The review column, once the run has marks, notes, tags or triage");
    sbx_doc_end_line(d);
    static const char *const review_cells[][2] = {
        {"a", "a mark of the session by its letter (' then the letter goes back to it)"},
        {"*", "marked in the review file"},
        {"+", "a note, tag or triage names the event (the detail and R show it)"},
    };
    for (size_t i = 0; i < sizeof review_cells / sizeof review_cells[0]; i++) {
        sbx_doc_addf(d, SBX_STYLE_KIND, "  %s", review_cells[i][0]);
        sbx_doc_addf(d, SBX_STYLE_NORMAL, "  %s", review_cells[i][1]);
        sbx_doc_end_line(d);
    }
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "The kind column");
    sbx_doc_end_line(d);
    for (int k = 0; k < SBX_EV_KIND_COUNT; k++) {
        sbx_doc_addf(d, SBX_STYLE_KIND, "  %c", sbx_kind_mark((enum sbx_kind)k));
        sbx_doc_addf(d, SBX_STYLE_NORMAL, "  %s", sbx_kind_name((enum sbx_kind)k));
        sbx_doc_end_line(d);
    }
    sbx_doc_end_line(d);
    sbx_doc_addf(d, SBX_STYLE_NORMAL,
                 "Text from the log is shown inert: escape sequences as %sESC]...%s, controls as ^X, "
                 "invisible characters as <U+XXXX>, bad UTF-8 as \\xNN, in the escape style. "
                 "Secrets are masked.",
                 a->opts.ascii ? "<" : "\xe2\x9f\xa8", a->opts.ascii ? ">" : "\xe2\x9f\xa9");
    sbx_doc_end_line(d);
}

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    (void)a;
    sbx_headline_part(h, cols, dot, "help (q: back)");
}

/* Back where ? was pressed. */
static enum sbx_view back(const struct sbx_app *a)
{
    return a->back_to != SBX_VIEW_HELP ? a->back_to : SBX_VIEW_TIMELINE;
}

void sbx_app_open_help(struct sbx_app *a)
{
    sbx_app_open_doc(a, SBX_VIEW_HELP);
}

const struct sbx_view_ops sbx_view_help = {
    .name = "help",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO,
    .document = true,
    .rebuild = rebuild,
    .header = header,
    .move = sbx_app_doc_move,
    .back = back,
};
