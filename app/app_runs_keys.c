/* The runs list's screens in the key map, and their help. */
#include "app/app_runs_keys.h"

#include "app/app_keyhelp.h"
#include "app/keymap.h"

static const struct {
    const char *name;
    unsigned keys;
} screens[SBX_RK_COUNT] = {
    [SBX_RK_LIST] = {"runs", SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_RUNS_BACK |
                                 SBX_KEYS_RUNS_OPEN | SBX_KEYS_RUNS},
    [SBX_RK_COMPARE] = {"compare", SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_RUNS_BACK |
                                       SBX_KEYS_RUNS_OPEN | SBX_KEYS_DIFFS},
    [SBX_RK_DIFF] = {"output diff", SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_RUNS_BACK},
    [SBX_RK_HELP] = {"help", SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_RUNS_BACK},
};

unsigned sbx_runs_screen_keys(enum sbx_runs_keyscreen s)
{
    return screens[s].keys;
}

void sbx_runs_help_doc(struct sbx_doc *d, int cols)
{
    sbx_doc_reset(d, cols);
    sbx_doc_adds(d, SBX_STYLE_HEADING, "Keys of the runs list and the compare view");
    sbx_doc_end_line(d);
    const char *names[SBX_RK_COUNT];
    unsigned groups[SBX_RK_COUNT], any = 0, all = 0;
    for (int s = 0; s < SBX_RK_COUNT; s++) {
        names[s] = screens[s].name;
        groups[s] = screens[s].keys;
        any |= screens[s].keys;
        all |= 1u << s;
    }
    for (size_t i = 0; i < sbx_keymap_len; i++) {
        const struct sbx_keymap_entry *k = &sbx_keymap[i];
        if (!(k->group & any))
            continue; /* one run's views' */
        char where[64];
        sbx_keyhelp_where(sbx_keymap_where(k, groups, SBX_RK_COUNT), all, names, SBX_RK_COUNT,
                          where, sizeof where);
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
