/* The files view: the run's file changes as a tree of folders (the lists'
 * state and moves are app/app_lists.c's). */
#include <string.h>

#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/keymap.h"
#include "app/view.h"

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    char b[64];
    const struct sbx_filetree *t = &a->tree;
    sbx_headline_part(h, cols, dot, "files");
    sbx_headline_part(h, cols, dot, "%s changed path%s", sbx_thousands(t->paths, b),
                      t->paths == 1 ? "" : "s");
    if (t->system_paths)
        sbx_headline_part(h, cols, dot, "%s under a system folder", sbx_thousands(t->system_paths, b));
    sbx_headline_part(h, cols, dot, "Enter: open");
}

static void draw(struct sbx_app *a, struct sbx_grid *g)
{
    int h = sbx_app_body(a);
    for (int r = 0; r < h; r++) {
        size_t i = a->ftop + (size_t)r;
        if (i >= a->nfrows)
            break;
        size_t node = a->frows[i];
        sbx_draw_file_row(g, 1 + r, &a->tree, node, a->folded[node], i == a->fcur);
    }
    if (!a->nfrows)
        sbx_app_list_empty(g, 2, "No file changes recorded.",
                           "Load a recorder log with files lines, manifests (before and after) or a diff.");
}

static void place(const struct sbx_app *a, size_t *cur, size_t *n)
{
    *cur = a->fcur;
    *n = a->nfrows;
}


const struct sbx_view_ops sbx_view_files = {
    .name = "files",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_OPEN | SBX_KEYS_FOLD |
            SBX_KEYS_EXPORT,
    .rebuild = sbx_app_list_fix,
    .header = header,
    .draw = draw,
    .place = place,
    .move = sbx_app_list_move,
    .wheel = sbx_app_list_wheel,
    .click = sbx_app_list_click,
    .enter = sbx_app_list_open,
    .fold = sbx_app_list_fold,
    .back = sbx_view_back_to_timeline,
};
