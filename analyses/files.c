/* Files: the changes every files event names, split into the workspace and
 * the system roots (/etc, /usr/local, …); a changed system file is a finding.
 *
 * A path counts once. Named in one list only (by one event or several), it
 * stays there; named in several (a recorder's files line, a manifest pair
 * and a diff can disagree, or a file is added, then changed), the run's net
 * change decides: it was there before unless its first event (in time order)
 * added it, and is there after unless its last one removed it; there after
 * only: added, both: changed, else removed. */
#include <stdlib.h>
#include <string.h>

#include "analyses/analyses.h"
#include "model/diffs.h"

struct naming {
    const char *path;
    size_t order; /* the event's position in the timeline */
    int change;
};

struct namings {
    struct naming *v;
    size_t n, cap;
};

static int naming_cmp(const void *x, const void *y)
{
    const struct naming *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : a->order < b->order ? -1 : a->order > b->order;
}

static void settle(struct namings *ns, struct sbx_strlist *lists)
{
    if (ns->n)
        qsort(ns->v, ns->n, sizeof *ns->v, naming_cmp);
    for (size_t i = 0; i < ns->n;) {
        size_t j = i;
        bool in[SBX_CHANGE_COUNT] = {false};
        while (j < ns->n && strcmp(ns->v[j].path, ns->v[i].path) == 0)
            in[ns->v[j++].change] = true;
        int c = ns->v[i].change;
        if (in[0] + in[1] + in[2] > 1) {
            bool before = ns->v[i].change != SBX_ADDED, after = ns->v[j - 1].change != SBX_REMOVED;
            c = before && after ? SBX_CHANGED : after ? SBX_ADDED : SBX_REMOVED;
        }
        sbx_strlist_add(&lists[c], ns->v[i].path, strlen(ns->v[i].path));
        i = j;
    }
    free(ns->v);
}

void sbx_analyze_files(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    struct namings workspace = {0}, system = {0};
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = tl->order[i];
        /* an operation that names no path (sandboxio's file_read) says
           nothing of what changed */
        if (e->kind != SBX_EV_FILES || !e->u.files || (e->u.files->flags & SBX_FILES_OPERATION))
            continue;
        const struct sbx_files *f = e->u.files;
        struct namings *ns = f->root ? &system : &workspace;
        if (f->root) {
            const char *root = sbx_str(tl, f->root);
            sbx_strlist_add(&sum->system_roots, root, strlen(root));
        } else {
            sum->workspace_manifests++;
            sum->files_from_manifests |= (f->flags & SBX_FILES_MANIFESTS) != 0;
        }
        for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
            for (uint32_t k = 0; k < f->n[c]; k++) {
                SBX_GROW(ns->v, ns->n, ns->cap);
                ns->v[ns->n++] = (struct naming){f->paths[c][k], i, c};
            }
            if (f->root && f->n[c])
                e->findings |= SBX_F_SYSTEM_FILES;
        }
    }
    settle(&workspace, sum->files);
    settle(&system, sum->system);
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        sbx_strlist_finish(&sum->files[c]);
        sbx_strlist_finish(&sum->system[c]);
    }
    sbx_strlist_finish(&sum->system_roots);
    for (size_t i = 0; i < tl->ndiffs; i++) {
        sum->diff_files++;
        sum->diff_added_lines += tl->diffs[i].added_lines;
        sum->diff_removed_lines += tl->diffs[i].removed_lines;
    }
}
