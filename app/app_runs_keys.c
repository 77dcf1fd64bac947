/* The runs list's and the compare view's key table, and their help. */
#include "app/app_runs_keys.h"

#include "app/app_keyhelp.h"

struct runs_key {
    enum sbx_runs_action action;
    unsigned screens;
    const char *help;
    int keys[4];
};

static const struct runs_key table[] = {
#define SBX_RUNS_KEYMAP_ROW(a, screens, help, k1, k2, k3, k4) \
    {SBX_RACT_##a, screens, help, {k1, k2, k3, k4}},
    SBX_RUNS_KEYMAP(SBX_RUNS_KEYMAP_ROW)
#undef SBX_RUNS_KEYMAP_ROW
};

enum sbx_runs_action sbx_runs_keymap_find(int key, unsigned screen)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!(table[i].screens & screen))
            continue;
        for (int k = 0; k < 4; k++)
            if (table[i].keys[k] && table[i].keys[k] == key)
                return table[i].action;
    }
    return SBX_RACT_NONE;
}

/* Where a key works, as the help says it: a name for each screen's bit. */
static const char *const screen_names[] = {"runs", "compare", "output diff", "help"};

void sbx_runs_help_doc(struct sbx_doc *d, int cols)
{
    sbx_doc_reset(d, cols);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "Keys of the runs list and the compare view");
    sbx_doc_end_line(d);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const struct runs_key *k = &table[i];
        char where[64];
        sbx_keyhelp_where(k->screens, R_ALL, screen_names, 4, where, sizeof where);
        sbx_keyhelp_line(d, cols, k->keys, k->help, where);
    }
    sbx_doc_set_indent(d, 0);
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "The compare view's marks");
    sbx_doc_end_line(d);
    static const char *const marks[][2] = {
        {"=", "the same command, the same outcome"},
        {"!", "the same command, another exit code, output or duration"},
        {"-", "only in A"},
        {"+", "only in B"},
        {">", "the same command at another place (moved)"},
        {"~", "a command in A where B ran another (replaced)"},
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        sbx_doc_addf(d, SBX_STYLE_KEY, "  %s", marks[i][0]);
        sbx_doc_addf(d, SBX_STYLE_NORMAL, "  %s", marks[i][1]);
        sbx_doc_end_line(d);
    }
}
