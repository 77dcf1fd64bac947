/* The run's file changes as a tree, for the files view: every files event
 * (a recorder's files line, Runtime's sandbox.files.changed, a manifest
 * pair) merged per path.
 *
 * The top level holds one node per root: the system roots (/etc,
 * /usr/local …: a files event with a root, as analyses/files.c counts them)
 * first, by name, then the workspace; a root whose files events changed
 * nothing shows too, alone (it was checked). Beneath each, the changed paths split
 * at '/' (empty and "." parts dropped, ".." kept as a name: nothing is
 * resolved), siblings in byte order. A node can be both a changed path and
 * a directory of others. Nodes are in pre-order: a node's subtree is
 * nodes[i + 1 .. end).
 *
 * For each changed path: the latest state (the change of the last event in
 * timeline order that named it; within one event the later list, in the
 * order added, changed, removed) and every event that changed it.
 *
 * Ownership: the tree owns its nodes, names and lists (sbx_filetree_free);
 * events in it belong to the timeline, which must outlive the tree. */
#ifndef SBX_FILETREE_H
#define SBX_FILETREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

struct sbx_ftchange {
    const struct sbx_event *event;
    uint8_t change;               /* enum sbx_change */
};

struct sbx_ftnode {
    const char *name;             /* a root: its path ("/etc"), or "" for the workspace */
    const char *path;             /* a changed path: as the event gave it; else the
                                     directory's parts joined ("src/lib") */
    uint32_t depth;               /* 0 for a root */
    uint32_t end;                 /* index past the node's subtree */
    uint32_t root;                /* strtab id of the root (0: the workspace) */
    bool system;                  /* under a system root */
    bool changed;                 /* a path some event changed */
    uint8_t state;                /* changed: enum sbx_change, the latest */
    uint32_t nchanges;            /* changed: the records (events) that name it */
    uint32_t change0;             /* changed: its changes are changes[change0 ..], time order */
    uint32_t below[SBX_CHANGE_COUNT]; /* changed paths beneath it, by latest state */
};

struct sbx_filetree {
    struct sbx_ftnode *nodes;
    size_t n;
    struct sbx_ftchange *changes;
    size_t nchanges;
    size_t paths, system_paths;   /* changed paths, and those under a system root */
    char *names;                  /* storage */
};

void sbx_filetree_build(struct sbx_filetree *t, const struct sbx_timeline *tl);
void sbx_filetree_free(struct sbx_filetree *t);

/* True when node i has nodes beneath it. */
static inline bool sbx_ftnode_is_dir(const struct sbx_filetree *t, size_t i)
{
    return t->nodes[i].end > i + 1;
}

#endif
