/* Which command wrote each file: for every path a files event adds,
 * changes or removes (a recorder's files line, a manifest pair, a diff,
 * Runtime's sandbox.files.changed; sandboxio's file operations name no
 * path), the wrapper commands that name it as a write target
 * (analyses/writers.h), by evidence:
 *
 *   - the command is in the record's sandbox (a record without one, in a
 *     run of several sandboxes: any sandbox) and started at or before the
 *     record's time (a manifest's or diff's time is a guess: any command);
 *   - a removed path takes targets that remove (rm, mv's source, a patch
 *     deleting it); an added or changed one targets that write;
 *   - the target is the path itself, or a folder above it that the command
 *     writes as a tree (rm -r, cp -r, mv, git checkout --, patch ran in
 *     cwd);
 *   - a target's path is the one the files event gives: absolute paths as
 *     they are, a relative one (the workspace) relative to the command's
 *     recorded cwd;
 *   - a file watch (Runtime's sandbox.files.changed) saw the change when
 *     it happened: of the commands its record would take, only the last to
 *     start at or before its time.
 * A second witness of a command (model: analyses/witness.h) is not counted
 * again. Targets are indexed by path (a hash), so the work is linear in the
 * commands and the files events' paths, never per pair. The namings are
 * grouped by their paths' string ids (a counting sort, 16 bytes a naming
 * while it runs); only the distinct paths are sorted by name.
 *
 * For paths under a system root (/etc …) the lines added and removed: the
 * diff's, when a diff names the path; else what the writers' own text
 * wrote (echo, printf, a heredoc, tee), as added lines.
 *
 * Ownership: the summary owns the list (sbx_written_free); the paths and
 * commands in it belong to the timeline (its strings, its events). */
#ifndef SBX_WRITTEN_H
#define SBX_WRITTEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

struct sbx_witnesses;

struct sbx_writer {
    const struct sbx_event *command; /* a command of the wrapper's log */
    uint8_t rule;                    /* enum sbx_write_rule */
};

struct sbx_written {
    const char *path;          /* as the files events name it: the timeline's string */
    struct sbx_writer *by;     /* in timeline order; owned. None: no command names it */
    char **lines;              /* system paths: "+ text" or "- text", at most
                                  SBX_WRITTEN_LINES_MAX; owned */
    size_t more_lines;         /* left out past the limit */
    uint32_t nby, nlines;      /* writers; lines shown */
    bool system;               /* named by a files event under a system root */
    bool lines_from_diff;      /* the lines are a diff's, else the commands' text */
};

/* one a distinct path the files events name: kept small */
_Static_assert(sizeof(struct sbx_written) == 48, "a written path is 48 bytes");

#define SBX_WRITTEN_LINES_MAX 20

struct sbx_written_list {
    struct sbx_written *v; /* sorted by path (strcmp) */
    size_t n;
};

/* Fills out for the finished timeline (after the witnesses). */
void sbx_written_run(const struct sbx_timeline *tl, const struct sbx_witnesses *w,
                     struct sbx_written_list *out);
void sbx_written_free(struct sbx_written_list *l);
/* The work this thread's last sbx_written_run did: the events, targets,
 * index probes, path bytes and records it walked (not the sorts). It
 * grows linearly with the run; the tests check that instead of timing. */
size_t sbx_written_work(void);
/* The entry of a path as the files events name it, or NULL. */
const struct sbx_written *sbx_written_find(const struct sbx_written_list *l, const char *path);

#endif
