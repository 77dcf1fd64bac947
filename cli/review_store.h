/* The interface's review when it is an object in the store (an s3:// run's
 * review beside it, or --review s3://…; docs/review-file.md, "A review in
 * the store, from the interface"). Internal to cli/.
 *
 * The review is read, once the run has loaded, by the app's outbox
 * (app/review_outbox.h: a worker thread), and each operation the
 * reviewer's keys make goes to the store through it as `sbxview review`
 * appends: read, appended to, written back If-Match its ETag
 * (base/s3_append.h); each write brings back the review as the store
 * holds it (other writers' lines too).
 * Lines not sent when the interface ends are kept in a local file,
 * $XDG_STATE_HOME/sbxview/reviews/unsent/HASH.jsonl (HASH: the first 16
 * hex digits of the SHA-256 of the review's URL; ~/.local/state without
 * XDG_STATE_HOME); the next interface on that review reads them with it
 * and sends them first, and the file goes once they are written.
 *
 * Ownership: sbx_review_unsent_path's result is the caller's (free()). */
#ifndef SBX_CLI_REVIEW_STORE_H
#define SBX_CLI_REVIEW_STORE_H

#include <stdbool.h>

#include "app/app.h"

/* The file the lines not sent to url are kept in, for these $XDG_STATE_HOME
 * and $HOME (NULL when unset). */
char *sbx_review_unsent_path(const char *url, const char *state_home, const char *home);

/* The lines kept in url's unsent file that store[0..n) (the review as read
 * from the store) does not hold yet: how many, and the file's path into
 * *path (the caller's; NULL when there are none). `sbxview review show`,
 * summary, check and export say so (sbx_review_unsent_note). */
size_t sbx_review_unsent_count(const char *url, const char *store, size_t n, char **path);
/* The same, said on standard error when there are any: how many, where,
 * and that the interface sends them. */
void sbx_review_unsent_note(const char *url, const char *store, size_t n);

/* The review at url (s3://BUCKET/KEY) handed to app: read by its outbox
 * (here, at once, with to_memory: --dump without --review, which writes
 * nowhere), with the lines an earlier interface could not send; its
 * operations sent there. Problems go to the status line. */
void sbx_review_store_open(struct sbx_app *app, const char *url, const char *author,
                           bool to_memory);

/* The interface ends: the lines not sent go once more, and what is still not
 * written is kept in the unsent file, said on standard error (where, and
 * why). Nothing when the review is not in the store. */
void sbx_review_store_quit(struct sbx_app *app);

#endif
