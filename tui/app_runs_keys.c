/* The runs list's and the compare view's key table, and their help. */
#include "tui/app_runs_keys.h"

#include <stdio.h>
#include <string.h>

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

/* " [runs, compare]": where a key works, unless everywhere. */
static void screen_names(unsigned screens, char *b, size_t n)
{
    static const char *const names[] = {"runs", "compare", "output diff", "help"};
    size_t used = 0;
    b[0] = '\0';
    if (screens == R_ALL)
        return;
    for (int i = 0; i < 4; i++)
        if (screens & (1u << i))
            used += (size_t)snprintf(b + used, used < n ? n - used : 0, "%s%s", used ? ", " : " [",
                                     names[i]);
    snprintf(b + (used < n ? used : n - 1), used < n ? n - used : 1, "]");
}

void sbx_runs_help_doc(struct sbx_doc *d, int cols)
{
    sbx_doc_reset(d, cols);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "Keys of the runs list and the compare view");
    sbx_doc_end_line(d);
    enum { KEYS_W = 24 };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const struct runs_key *k = &table[i];
        char keys[96] = "", name[16];
        for (int j = 0; j < 4 && k->keys[j]; j++) {
            if (j)
                strcat(keys, ", ");
            strcat(keys, sbx_key_name(k->keys[j], name));
        }
        if (cols >= 2 * KEYS_W) {
            sbx_doc_set_indent(d, KEYS_W);
            sbx_doc_addf(d, SBX_STYLE_KEY, "  %-*s", KEYS_W - 2, keys);
        } else { /* narrow: the keys on a line of their own */
            sbx_doc_addf(d, SBX_STYLE_KEY, "  %s", keys);
            sbx_doc_end_line(d);
            sbx_doc_set_indent(d, 6);
            sbx_doc_adds(d, SBX_STYLE_NORMAL, "      ");
        }
        sbx_doc_adds(d, SBX_STYLE_NORMAL, k->help);
        char where[64];
        screen_names(k->screens, where, sizeof where);
        sbx_doc_adds(d, SBX_STYLE_NOTE, where);
        sbx_doc_end_line(d);
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
