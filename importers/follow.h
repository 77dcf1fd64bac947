/* Following logs that are still being written (tail -f).
 *
 * sbx_follow_start notes every source of a loaded timeline that is a regular
 * file (not standard input, a FIFO, a preview, or a format whose events are
 * derived from the whole run: manifests and diffs): its path, device, inode and
 * the bytes loaded. Each sbx_follow_poll looks at those files again, takes
 * what was appended, imports its complete lines with the source's format
 * (numbered on from where the load stopped) and merges the new events into
 * the timeline's order. A partial last line waits: when it is complete, its
 * "incomplete last line" skip goes and its event comes, once. A file that got
 * shorter, was replaced by another (rotated, renamed over) or deleted is
 * reported and no longer followed; its loaded events stay, readable: a
 * followed source's bytes are the program's own (a mapped one is copied into
 * the heap when following starts, and new bytes are read onto the copy), so
 * truncating the file cannot take them away.
 *
 * Start it on a timeline that was loaded in full (not a cancelled load).
 * A poll changes the timeline: run it where nothing reads the timeline at
 * the same time, and hold no pointer into a source's bytes across it (they
 * may move; events keep offsets). Findings bits of new
 * events are not set: run the analyses again.
 *
 * Ownership: sbx_follow_start's result belongs to the caller (free with
 * sbx_follow_free) and may be used only with the timeline it was started on;
 * the import options' strings are borrowed for its life;
 * a report's array and messages are freed by sbx_follow_report_free. */
#ifndef SBX_FOLLOW_H
#define SBX_FOLLOW_H

#include <stddef.h>
#include <stdint.h>

#include "importers/format.h"
#include "model/timeline.h"

enum sbx_follow_status {
    SBX_FOLLOW_UNCHANGED,
    SBX_FOLLOW_GREW,      /* new bytes were read (perhaps only part of a line) */
    SBX_FOLLOW_TRUNCATED, /* shorter than loaded, or its loaded bytes were rewritten */
    SBX_FOLLOW_REPLACED,  /* another file is at the path now (a rename, a rotation) */
    SBX_FOLLOW_GONE,      /* deleted */
    SBX_FOLLOW_ERROR,     /* could not be read */
};

struct sbx_follow_file {
    uint32_t source;               /* index into the timeline's sources */
    enum sbx_follow_status status; /* all but UNCHANGED and GREW end the following */
    size_t events;                 /* events this poll made from the file's lines (a
                                      line read again because it grew counts again) */
    char *message;                 /* ASCII, names the file, quotes none of its bytes;
                                      NULL when unchanged */
};

struct sbx_follow_report {
    size_t events;                 /* the files' events, summed */
    struct sbx_follow_file *files; /* one per file followed when the poll began */
    size_t nfiles;
};

struct sbx_follow;

/* import: what the load was given (importers/format.h), for the lines
 * that come; NULL: nothing. */
struct sbx_follow *sbx_follow_start(struct sbx_timeline *tl,
                                    const struct sbx_import_opts *import);

/* How many files are still followed. */
size_t sbx_follow_count(const struct sbx_follow *f);

/* Reads what the followed files gained since the last look; fills rep (owned
 * by the caller) and returns rep->events. */
size_t sbx_follow_poll(struct sbx_follow *f, struct sbx_timeline *tl,
                       struct sbx_follow_report *rep);

void sbx_follow_report_free(struct sbx_follow_report *rep);
void sbx_follow_free(struct sbx_follow *f);

#endif
