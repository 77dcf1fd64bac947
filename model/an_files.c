/* Files: the changes every files event names, split into the workspace and
 * the system roots (/etc, /usr/local, …); a changed system file is a finding. */
#include <string.h>

#include "model/analyses.h"

void sbx_analyze_files(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = tl->order[i];
        /* an operation that names no path (sandboxio's file_read) says
           nothing of what changed */
        if (e->kind != SBX_EV_FILES || !e->u.files || (e->u.files->flags & SBX_FILES_OPERATION))
            continue;
        const struct sbx_files *f = e->u.files;
        struct sbx_strlist *lists = f->root ? sum->system : sum->files;
        if (f->root) {
            const char *root = sbx_str(tl, f->root);
            sbx_strlist_add(&sum->system_roots, root, strlen(root));
        } else {
            sum->workspace_manifests++;
        }
        for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
            for (uint32_t k = 0; k < f->n[c]; k++)
                sbx_strlist_add(&lists[c], f->paths[c][k], strlen(f->paths[c][k]));
            if (f->root && f->n[c])
                e->findings |= SBX_F_SYSTEM_FILES;
        }
    }
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        sbx_strlist_finish(&sum->files[c]);
        sbx_strlist_finish(&sum->system[c]);
    }
    sbx_strlist_finish(&sum->system_roots);
}
