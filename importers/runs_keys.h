/* A folder of runs listed by a store page after page (ListObjectsV2, keys in
 * the store's order, a run's keys together): which of the keys listed so far
 * belong to runs whose keys are all listed. The last run of a page may go on
 * in the next one, so its keys wait for that page (or the listing's end):
 * a run is never shown twice, nor with half its objects as if whole.
 *
 * Keys are PREFIX/RUN/NAME below a prefix of plen bytes; a key with no
 * folder below the prefix is one of its own. Nothing here is owned. */
#ifndef SBX_IMPORTERS_RUNS_KEYS_H
#define SBX_IMPORTERS_RUNS_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* The length of key's run folder below the prefix, its '/' included
 * ("run-7/" of "runs/run-7/agent-run.jsonl"); 0 for a key directly under
 * it. */
size_t sbx_runs_key_folder(const char *key, size_t plen);

/* How many of keys[0..n) (the listing so far) are of runs listed whole:
 * all of them after the last page, else all but the keys of the run the
 * last key is in. */
size_t sbx_runs_keys_whole(const char *const *keys, size_t n, size_t plen, bool last_page);

/* The distinct run folders among keys[0..n) (keys of one run together). */
size_t sbx_runs_keys_count(const char *const *keys, size_t n, size_t plen);

#endif
