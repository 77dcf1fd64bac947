/* One file of the files view's tree: its changes, the commands before
 * them, its diff. */
#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/keymap.h"
#include "app/view.h"

static void rebuild(struct sbx_app *a)
{
    if (!a->have_tree || a->fnode >= a->tree.n) {
        sbx_doc_adds(&a->doc, SBX_STYLE_NOTE, "No file selected.");
        sbx_doc_end_line(&a->doc);
        return;
    }
    sbx_file_doc(&a->doc, &a->look, &a->tree, a->fnode);
}

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    (void)a;
    sbx_headline_part(h, cols, dot, "files: one path (q: back to the tree)");
}

static enum sbx_view back(const struct sbx_app *a)
{
    (void)a;
    return SBX_VIEW_FILES;
}

const struct sbx_view_ops sbx_view_file = {
    .name = "file",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_EXPORT,
    .document = true,
    .rebuild = rebuild,
    .header = header,
    .move = sbx_app_doc_move,
    .back = back,
};
