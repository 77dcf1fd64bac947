#include "render/style.h"

#include <string.h>

static const struct {
    const char *name;
    int fg, bg;
    unsigned attrs;
} styles[SBX_STYLE_COUNT] = {
#define SBX_STYLE_ROW(e, name, fg, bg, attrs) [SBX_STYLE_##e] = {name, fg, bg, attrs},
    SBX_STYLES(SBX_STYLE_ROW)
#undef SBX_STYLE_ROW
};

const char *sbx_style_name(enum sbx_style s)
{
    return (unsigned)s < SBX_STYLE_COUNT ? styles[s].name : NULL;
}

int sbx_style_by_name(const char *name)
{
    for (int i = 0; i < SBX_STYLE_COUNT; i++)
        if (strcmp(styles[i].name, name) == 0)
            return i;
    return -1;
}

void sbx_style_builtin(enum sbx_style s, int *fg, int *bg, unsigned *attrs)
{
    *fg = styles[s].fg;
    *bg = styles[s].bg;
    *attrs = styles[s].attrs;
}
