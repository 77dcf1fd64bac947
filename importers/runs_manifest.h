/* A run's manifest: its JSON summary (`sbxview summary -f json`), written as
 * SBX_RUN_MANIFEST_NAME in the run's folder (or object under its prefix), so
 * the runs list reads the run's row from that one small file instead of its
 * logs (docs/object-storage.md, "Manifests").
 *
 * The rule: a manifest is used when it is present, starts as sbxview's JSON
 * summary does, holds a well-formed "runs_row", and is not older than any
 * other regular file of the folder (mtime; the review file aside, as it is
 * not a log). A missing, stale or unreadable manifest falls back to the
 * logs. The manifest is hostile like any file of a run: every value is
 * checked (types, ranges, names) and a bad one refuses the whole manifest.
 *
 * Ownership: nothing allocated for the caller. */
#ifndef SBX_IMPORTERS_RUNS_MANIFEST_H
#define SBX_IMPORTERS_RUNS_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include "analyses/runs.h"

#define SBX_RUN_MANIFEST_NAME "summary.json"
/* The most a manifest may hold: a summary of a very large run fits. */
#define SBX_RUN_MANIFEST_MAX ((size_t)64 << 20)

/* Whether bytes start as sbxview's JSON summary ({"schema": 1, "verdict": …),
 * whitespace allowed between the tokens. */
bool sbx_run_manifest_sniff(const char *data, size_t n);

/* Whether dir holds a manifest that is not older than its other files. */
bool sbx_run_manifest_fresh(const char *dir);

/* The row's numbers (start, end, counts, known, events, findings) from a
 * manifest's text into *row (name, path and state untouched); false with
 * the reason in err, *row then unchanged. */
bool sbx_run_manifest_parse(const char *data, size_t n, struct sbx_run_row *row, char *err,
                            size_t errsz);

/* Whether dir's manifest would be read (the rule above): what sbxview
 * index leaves as it is. */
bool sbx_run_manifest_current(const char *dir);

/* The row dir's manifest gives, into *row (the caller's; start and end set
 * to SBX_TIME_UNKNOWN first), when the rule above allows it; false
 * otherwise. The caller publishes it (sbx_run_row_set). */
bool sbx_run_manifest_read(const char *dir, struct sbx_run_row *row);

#endif
