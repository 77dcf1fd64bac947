/* s3:// inputs and outputs of the command line (internal to cli/).
 *
 * An input s3://bucket/prefix is brought into the cache, under
 * $XDG_CACHE_HOME/sbxview/s3/BUCKET/objects/ (~/.cache when XDG_CACHE_HOME
 * is unset), and read from there by the same importers as a local file or
 * folder: a prefix that is one object's key is that file, any other the
 * folder of every object under PREFIX/. An object whose ETag in the listing
 * is the one the cache holds (BUCKET/etags/KEY) is not fetched again; the
 * others are fetched by a pool of SBX_S3_POOL clients (keep-alive, HTTP/2
 * where offered). An object whose ETag differs from the listing's when it is
 * read changed while it was read: an error. A key that is not a safe
 * relative path (an empty, "." or ".." segment, a control character) is
 * skipped with a warning. Cached files no longer listed are removed.
 *
 * Over a folder of runs (every object in a subfolder of the prefix), a run
 * whose manifest (importers/runs_manifest.h) is not older than its other
 * objects by the listing's LastModified is fetched as that one object; the
 * others of a run with a missing or stale manifest are all fetched. A cached
 * file's mtime is its object's LastModified, so the local rule over the
 * cache decides the same.
 *
 * Ownership: sbx_s3_fetch returns a path the caller frees. */
#ifndef SBX_CLI_S3_FETCH_H
#define SBX_CLI_S3_FETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

#define SBX_S3_POOL 8

struct sbx_s3_fetch_stats {
    size_t objects, fetched, unchanged;
    size_t manifested; /* not fetched: their run's manifest stands for them */
    unsigned long long bytes; /* fetched */
};

/* url's objects into the cache; the local path to read (a fresh string), or
 * NULL with the reason(s) on stderr. Progress (objects and bytes) on stderr
 * when it is a terminal and quiet is false. stats may be NULL. */
char *sbx_s3_fetch(const char *url, bool quiet, struct sbx_s3_fetch_stats *stats);

/* url fetched into the cache behind the caller: listed and the cache pruned
 * as sbx_s3_fetch does, then the pool started, and returned at once (NULL
 * when the listing or the plan failed, the reason on stderr), except that
 * over a folder of runs (every object in a run's folder, PREFIX/RUN/NAME)
 * it waits for the first run: when that run's files make it a folder of
 * runs by importers/runs.h's rule, *as_list is set and *runs (made here)
 * holds its runs by name in the cache, each row's fill waiting
 * (runs->await_run) until its run's objects are in, the pool fetching the
 * rows' runs in the rows' order; a failed object fails the rows not yet in,
 * with its reason. Otherwise the whole is fetched behind: poll it with
 * sbx_s3_behind_done and _progress, then take its path with _wait.
 * Warnings go to sbx_warn from the pool's threads (cli/msg.h holds them
 * while the interface has the terminal). The return is the caller's:
 * sbx_s3_behind_free, after any fill of the runs is freed, stops the pool
 * (after the requests under way) and waits for it; the runs stay the
 * caller's (sbx_runs_free).
 *
 * With first_rows 0 the whole listing is read before anything else. With
 * first_rows N the listing is read only until N runs are listed whole (a
 * run's keys may go on in the next page: it waits for that page) or it
 * ends; over a folder of runs the rest is then read behind the list, page
 * after page (analyses/runs_more.h: each page's runs listed whole offered
 * to *runs as their fetch starts, one batch's pool at a time, a key not in
 * a run's folder left out with a warning), and a listing error after that
 * ends the list's growth with the store's reason (and a warning). When the
 * first pages are not of a plain folder of runs, the whole listing is read
 * and decided over as with 0. runs must stay where it is until
 * sbx_s3_behind_free, which stops the listing after the page under way. */
struct sbx_runs;
struct sbx_s3_behind;
struct sbx_s3_behind *sbx_s3_fetch_runs(const char *url, struct sbx_runs *runs, bool *as_list,
                                        size_t first_rows);
/* url listed and the cache pruned as sbx_s3_fetch_runs does (NULL when the
 * listing or the plan failed, the reason on stderr), but the pool not
 * started: sbx_s3_behind_start starts it. Several inputs of the interface
 * are each planned so, before it opens (their totals known), and fetched
 * one after another behind it, one pool at a time. */
struct sbx_s3_behind *sbx_s3_fetch_planned(const char *url);
void sbx_s3_behind_start(struct sbx_s3_behind *b);
/* Started, and every object in or one failed. */
bool sbx_s3_behind_done(struct sbx_s3_behind *b);
/* Objects in of those to fetch (the unchanged ones not counted), bytes in;
 * before the start, none in of the plan's. */
void sbx_s3_behind_progress(struct sbx_s3_behind *b, size_t *in, size_t *total,
                            unsigned long long *bytes);
/* Waits for every object (progress on stderr when it is a terminal and
 * quiet is false): the path to read (a fresh string), or NULL when an
 * object failed (the reason on stderr). Once. */
char *sbx_s3_behind_wait(struct sbx_s3_behind *b, bool quiet);
void sbx_s3_behind_free(struct sbx_s3_behind *b);

/* data as the object url names (s3://bucket/key); false with the reason on
 * stderr. */
bool sbx_s3_write(const char *url, const void *data, size_t n, const char *content_type);

/* The object url names into *out (cleared first; at most max bytes); true
 * with *missing set when there is no such object. False with the reason on
 * stderr. */
bool sbx_s3_read(const char *url, size_t max, struct sbx_buf *out, bool *missing);

/* Appends data to the object url names (made when missing): read, appended
 * to, and written back only if the object still has the ETag it was read
 * with (If-Match; If-None-Match: * for a new one), so two writers at once
 * never lose each other's lines; on 412 it is read and written again (up to
 * 16 times). False with the reason on stderr. */
bool sbx_s3_append(const char *url, const void *data, size_t n, const char *content_type);

/* The files names[0..n) of dir written as objects PREFIX/NAME of
 * prefix_url (s3://BUCKET/PREFIX/). Without force, a name already under the
 * prefix is an error before anything is written, and each write is made
 * only while no such object exists (If-None-Match: *). False with the
 * reason(s) on stderr. */
bool sbx_s3_upload(const char *prefix_url, const char *dir, const char *const *names, size_t n,
                   bool force);

/* The name a fetched input is known by in every output (a fresh string):
 * s3://BUCKET/KEY for an object, s3://BUCKET/PREFIX/ (one slash at the
 * end; s3://BUCKET/ for the whole bucket) for a folder, whatever the URL's
 * spelling and wherever the cache is. url as given (checked already). */
char *sbx_s3_source_name(const char *url, bool folder);

/* True when s is an s3:// URL. */
bool sbx_is_s3_url(const char *s);

#endif
