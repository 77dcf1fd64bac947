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
#include "analyses/hostindex.h"
#include "model/diffs.h"
#include "model/files.h"

/* One path's namings, in timeline order: its first and last change and
 * every kind it was named with. Found by a hash of the path (each naming
 * once, in constant time), not by sorting every naming. */
struct naming {
    const char *path;
    unsigned char first, last, kinds;
};

struct namings {
    struct naming *v;
    size_t n, cap;
    struct sbx_hostindex ix; /* path -> index into v */
};

static void name(struct namings *ns, const char *path, int change)
{
    size_t len = strlen(path), at = sbx_hostindex_find(&ns->ix, path, len);
    if (at == SIZE_MAX) {
        SBX_GROW(ns->v, ns->n, ns->cap);
        ns->v[ns->n] = (struct naming){path, (unsigned char)change, (unsigned char)change,
                                       (unsigned char)(1u << change)};
        sbx_hostindex_put(&ns->ix, path, len, ns->n++);
        return;
    }
    ns->v[at].last = (unsigned char)change;
    ns->v[at].kinds |= (unsigned char)(1u << change);
}

static void settle(struct namings *ns, struct sbx_strlist *lists)
{
    for (size_t i = 0; i < ns->n; i++) {
        const struct naming *g = &ns->v[i];
        int c = g->first;
        if (g->kinds & (g->kinds - 1)) { /* named in more than one list */
            bool before = g->first != SBX_ADDED, after = g->last != SBX_REMOVED;
            c = before && after ? SBX_CHANGED : after ? SBX_ADDED : SBX_REMOVED;
        }
        sbx_strlist_keep(&lists[c], g->path); /* the timeline's string */
    }
    sbx_hostindex_free(&ns->ix);
    free(ns->v);
}

void sbx_analyze_files(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    struct namings workspace = {.ix = SBX_HOSTINDEX_INIT}, system = {.ix = SBX_HOSTINDEX_INIT};
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
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
            for (uint32_t k = 0; k < f->n[c]; k++)
                name(ns, sbx_files_path(tl, f, (enum sbx_change)c, k), c);
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
