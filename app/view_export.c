/* The request an export would send, to confirm (the export itself is
 * app/app_export.c's). */
#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/keymap.h"
#include "app/view.h"

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    sbx_headline_part(h, cols, dot, "export to %s (y or Enter: send, q: cancel)",
                      sbx_app_export_name(a));
}

const struct sbx_view_ops sbx_view_export = {
    .name = "export",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_SEND,
    .document = true,
    .rebuild = sbx_app_export_build_doc,
    .header = header,
    .move = sbx_app_doc_move,
    .back = sbx_app_export_back, /* cancelled: back where e was pressed */
};
