#include "render/style.h"

#include <string.h>

static const char *const names[SBX_STYLE_COUNT] = {
    [SBX_STYLE_NORMAL] = "normal",          [SBX_STYLE_LABEL] = "summary.label",
    [SBX_STYLE_FINDING] = "summary.finding", [SBX_STYLE_WARNING] = "summary.warning",
    [SBX_STYLE_DETAIL] = "summary.detail",   [SBX_STYLE_ESCAPE] = "text.escape",
};

const char *sbx_style_name(enum sbx_style s)
{
    return (unsigned)s < SBX_STYLE_COUNT ? names[s] : NULL;
}

int sbx_style_by_name(const char *name)
{
    for (int i = 0; i < SBX_STYLE_COUNT; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}
