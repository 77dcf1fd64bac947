#include "app/keymap.h"

const struct sbx_keymap_entry sbx_keymap[] = {
#define SBX_KEYMAP_ROW(a, group, help, run, runs, k1, k2, k3, k4) \
    {SBX_ACT_##a, group, help, {k1, k2, k3, k4}},
    SBX_KEYMAP(SBX_KEYMAP_ROW)
#undef SBX_KEYMAP_ROW
};

const size_t sbx_keymap_len = sizeof sbx_keymap / sizeof sbx_keymap[0];

enum sbx_action sbx_keymap_find(int key, unsigned groups)
{
    enum sbx_action found = SBX_ACT_NONE;
    for (size_t i = 0; i < sbx_keymap_len; i++) {
        if (!(sbx_keymap[i].group & groups))
            continue;
        for (int k = 0; k < 4; k++)
            if (sbx_keymap[i].keys[k] && sbx_keymap[i].keys[k] == key)
                found = sbx_keymap[i].action; /* a later row's wins */
    }
    return found;
}

unsigned sbx_keymap_where(const struct sbx_keymap_entry *e, const unsigned *groups, int n)
{
    unsigned where = 0;
    for (int i = 0; i < n; i++)
        if (groups[i] & e->group)
            where |= 1u << i;
    return where;
}
