#include "app/keymap.h"

const struct sbx_keymap_entry sbx_keymap[] = {
#define SBX_KEYMAP_ROW(a, views, help, k1, k2, k3, k4) {SBX_ACT_##a, views, help, {k1, k2, k3, k4}},
    SBX_KEYMAP(SBX_KEYMAP_ROW)
#undef SBX_KEYMAP_ROW
};

const size_t sbx_keymap_len = sizeof sbx_keymap / sizeof sbx_keymap[0];

enum sbx_action sbx_keymap_find(int key, unsigned view)
{
    for (size_t i = 0; i < sbx_keymap_len; i++) {
        if (!(sbx_keymap[i].views & view))
            continue;
        for (int k = 0; k < 4; k++)
            if (sbx_keymap[i].keys[k] && sbx_keymap[i].keys[k] == key)
                return sbx_keymap[i].action;
    }
    return SBX_ACT_NONE;
}
