/* A folder of runs: telling one from a run folder, finding its runs, and
 * filling their rows (analyses/runs.h) on a pool of threads, each run loaded
 * and summarised, its row ready as soon as its summary is, then the run
 * freed (only the row's numbers are kept).
 *
 * The rule: a folder is a folder of runs when no file directly in it is a
 * log a format recognises (by its first 64 KiB) and at least one of its
 * subfolders holds such a file. Each subfolder (not hidden, not a symbolic
 * link) that holds a regular file is a run, whether or not its files turn
 * out to be logs (a row that cannot be read says why); subfolders deeper
 * down are not looked at, as a run folder is flat.
 *
 * Ownership: sbx_runs_discover fills the caller's list; a fill borrows the
 * list, the allow list, the import options' strings and the given skews
 * until sbx_runs_fill_free, which stops and frees the fill. */
#ifndef SBX_IMPORTERS_RUNS_H
#define SBX_IMPORTERS_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "analyses/runs.h"

struct sbx_allowlist;
struct sbx_import_opts;

/* True when path is a folder of runs (the rule above); the list (made here:
 * free it with sbx_runs_free) then holds its runs, by name, PENDING. False
 * leaves the list untouched. */
bool sbx_runs_discover(const char *path, struct sbx_runs *out);

struct sbx_runs_fill;

/* Starts filling every row: threads workers (0: one per online CPU, at most
 * 8) each take the next run, load it (with import: importers/format.h, NULL
 * for none) and summarise it on one thread. With background false, returns
 * when every row is filled. */
struct sbx_runs_fill *sbx_runs_fill_start(struct sbx_runs *r, const struct sbx_allowlist *allow,
                                          const struct sbx_import_opts *import, int threads,
                                          bool background);
/* The same, each run summarised with the skews given (--skew,
 * analyses/crosscheck.h; nskews of them, NULL for none), as summary and
 * check take them. */
struct sbx_skew_given;
struct sbx_runs_fill *sbx_runs_fill_start_skewed(struct sbx_runs *r, const struct sbx_allowlist *allow,
                                                 const struct sbx_import_opts *import,
                                                 const struct sbx_skew_given *skews, size_t nskews,
                                                 int threads, bool background);
/* Every row filled (or the fill stopped). */
bool sbx_runs_fill_done(struct sbx_runs_fill *f);
/* Waits for every row. */
void sbx_runs_fill_wait(struct sbx_runs_fill *f);
/* Stops the workers (a run being loaded stops within a few MiB; rows not
 * reached stay PENDING), waits for them and frees the fill. NULL is fine. */
void sbx_runs_fill_free(struct sbx_runs_fill *f);

#endif
