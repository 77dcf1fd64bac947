/* Unified diffs (git diff, diff -u, diff -ruN): a diff file cut into one
 * section per file, the sections of the loaded diffs kept in the timeline,
 * found by path, and walked line by line so a view can colour them.
 *
 * A section runs from its file's first header line ("diff --git", "diff
 * -ruN …", "--- …", "Binary files … differ", "Only in …") to the next one;
 * the counts of each hunk header decide where a hunk ends, so a removed line
 * that reads "-- x" is never taken for a header. Paths are display paths:
 * git's "a/" and "b/" (or any first folders that differ only there, such as
 * diff -r's before/ and after/) and a leading "./" are dropped, quoted git
 * paths are decoded.
 *
 * Ownership: sbx_diff_parse's result belongs to the caller (free with
 * sbx_diff_parsed_free). The timeline's sections (tl->diffs) and their
 * strings belong to the timeline: sbx_diff_find's result is valid until
 * sbx_timeline_free. An iterator only points into the source's bytes. */
#ifndef SBX_DIFFS_H
#define SBX_DIFFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/event.h"

struct sbx_timeline;

/* One file of a diff: its section in the source's bytes. */
struct sbx_diff_file {
    const char *path;     /* the file after (before, when removed); display path */
    const char *old_path; /* renamed or copied from; NULL otherwise */
    enum sbx_change change;
    bool binary;          /* "Binary files … differ" or "GIT binary patch": no hunks */
    bool renamed;         /* a rename (old_path is gone); a copy keeps old_path */
    uint32_t source;      /* the diff's source in the timeline (0 from sbx_diff_parse) */
    uint64_t off;         /* the section: header to the next file's header */
    uint32_t len;
    uint32_t line_no;     /* of the section's first line, 1-based */
    uint32_t hunks, added_lines, removed_lines;
};

/* A line of the input that is not part of a diff, and why. */
struct sbx_diff_problem {
    uint32_t line_no;
    const char *reason; /* static ASCII */
};

struct sbx_diff_parsed {
    struct sbx_diff_file *files; /* in input order; paths heap-owned */
    size_t nfiles;
    struct sbx_diff_problem *problems;
    size_t nproblems;
};

/* Cuts data[0..size) into sections (offsets relative to data). Text before
 * the first file (a commit message, an e-mail's headers) and after a
 * format-patch signature ("-- ") is not a problem. */
void sbx_diff_parse(const char *data, size_t size, struct sbx_diff_parsed *out);
void sbx_diff_parsed_free(struct sbx_diff_parsed *p);

/* Whether data starts like a diff: among its first lines a "diff --git"
 * line, or "---", "+++" and "@@" lines in a row. */
bool sbx_diff_looks_like(const char *data, size_t size);

/* The section of path in the loaded diffs, or NULL. path may start with
 * "./"; "a/" or "b/" before it is dropped when the path itself is not found.
 * Several diffs naming one path: the first loaded. */
const struct sbx_diff_file *sbx_diff_find(const struct sbx_timeline *tl, const char *path);

/* Adds the sections parsed from source `source`'s bytes starting at byte
 * `base` (past a BOM, say) to the timeline; their strings are copied. Call
 * while loading (it re-sorts tl->diffs: earlier results of sbx_diff_find
 * move). */
void sbx_diff_add(struct sbx_timeline *tl, uint32_t source, uint64_t base,
                  const struct sbx_diff_parsed *p);

/* Walking a section line by line. */
enum sbx_diff_kind {
    SBX_DIFF_HEADER,     /* diff --git, index, mode, rename, similarity, ---, +++ */
    SBX_DIFF_BINARY,     /* Binary files … differ, GIT binary patch and its data */
    SBX_DIFF_HUNK,       /* @@ -1,7 +1,7 @@ … */
    SBX_DIFF_CONTEXT,    /* " " (or an empty line inside a hunk) */
    SBX_DIFF_ADD,        /* "+" */
    SBX_DIFF_DEL,        /* "-" */
    SBX_DIFF_NO_NEWLINE, /* "\ No newline at end of file" */
    SBX_DIFF_OTHER,      /* anything else (outside a hunk's counted lines) */
};

struct sbx_diff_line {
    enum sbx_diff_kind kind;
    const char *text; /* the whole line, without its newline (nor a CR before it) */
    size_t len;
    uint32_t old_no, new_no; /* line numbers in the old and new file: the line's own
                                for context, del (old) and add (new); 0 otherwise */
};

struct sbx_diff_iter {
    const char *p, *end;
    long old_left, new_left; /* the current hunk's lines still to come */
    uint32_t old_no, new_no;
    bool seen_hunk, binary_data;
};

void sbx_diff_iter_init(struct sbx_diff_iter *it, const struct sbx_timeline *tl,
                        const struct sbx_diff_file *f);
/* The same over any bytes (a section sbx_diff_parse found). */
void sbx_diff_iter_bytes(struct sbx_diff_iter *it, const char *data, size_t len);
/* The next line; false at the section's end. */
bool sbx_diff_next(struct sbx_diff_iter *it, struct sbx_diff_line *out);

/* Parses "@@ -a[,b] +c[,d] @@": counts default to 1 when omitted. */
bool sbx_diff_hunk_header(const char *s, size_t n, long *old_start, long *old_count,
                          long *new_start, long *new_count);

#endif
