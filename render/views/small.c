/* The notice a screen below the views' minimum shows instead of them. */
#include <stdio.h>
#include <string.h>

#include "render/views/views.h"

void sbx_draw_too_small(struct sbx_grid *g, const char *hint)
{
    char size[64];
    snprintf(size, sizeof size, "(%dx%d): needs %dx%d.", g->cols, g->rows, SBX_MIN_COLS,
             SBX_MIN_ROWS);
    /* as much as fits, on as many rows as there are */
    const char *words[] = {"Terminal too small", size, hint};
    int row = g->rows / 2 - (g->rows > 2 ? 1 : 0);
    for (int i = 0; i < 3 && row + i < g->rows; i++)
        sbx_grid_text(g, row + i, 0, g->cols, i ? SBX_STYLE_NORMAL : SBX_STYLE_ERROR, words[i],
                      strlen(words[i]));
}
