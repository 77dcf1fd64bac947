/* Where a run's review lives and who writes it, as the command line and
 * the environment say (docs/review-file.md, "Where it lives"). Internal to
 * cli/.
 *
 * Ownership: a struct sbx_review_place owns its paths
 * (sbx_review_place_free); sbx_review_author's result is the caller's
 * (free()). */
#ifndef SBX_REVIEW_CLI_H
#define SBX_REVIEW_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "model/review.h"
#include "model/timeline.h"

struct sbx_review_place {
    char *read[2];   /* the files read, in order (the run folder's, then the state folder's) */
    size_t nread;
    char *write;     /* where a new operation is appended */
    bool make_dirs;  /* write is under the state folder: make it first */
};

/* The review of the run made of inputs (loaded into tl, for its digest):
 * given (--review FILE) when not NULL; else sbxview-review.jsonl in the run
 * folder (beside a single file), or, when that folder is not writable,
 * $XDG_STATE_HOME/sbxview/reviews/DIGEST.jsonl (default ~/.local/state).
 * With tl NULL (no run loaded: a row the runs list took from a manifest)
 * only the folder's file is looked at, and write may stay NULL. */
void sbx_review_place_find(struct sbx_review_place *p, const char *given,
                           const char *const *inputs, size_t n, const struct sbx_timeline *tl);
void sbx_review_place_free(struct sbx_review_place *p);

/* The most a review file in the store may hold. */
#define SBX_REVIEW_S3_MAX ((size_t)64 << 20)

/* The review beside a run read from the store (an s3:// URL):
 * PREFIX/sbxview-review.jsonl for a folder's s3://BUCKET/PREFIX[/], the one in
 * the key's folder for a single object. A fresh string. */
char *sbx_review_s3_beside(const char *run_url, bool folder);

/* Appends op to the place's review file: the local file (O_APPEND), or the
 * object in the store (sbx_s3_append: If-Match on its ETag). False with the
 * reason on stderr. */
bool sbx_review_place_append(const struct sbx_review_place *p, const struct sbx_review_op *op);

/* The rule itself, given what sbx_review_place_find asks the environment
 * and the file system (borrowed for the call): $XDG_STATE_HOME and $HOME
 * (NULL when unset), and whether a folder can be written. digest is the
 * run digest (export/body.h's sbx_export_digests). */
struct sbx_review_where {
    const char *state_home, *home;
    bool (*writable)(const char *dir, void *ctx);
    void *ctx;
};
void sbx_review_place_rule(struct sbx_review_place *p, const char *given,
                           const char *const *inputs, size_t n, const char *digest,
                           const struct sbx_review_where *w);

/* Reads the place's files into r (initialised by the caller); every line
 * that could not be read is named on stderr (file:line: reason) unless
 * quiet. False when a file exists but cannot be read. */
bool sbx_review_load(const struct sbx_review_place *p, struct sbx_review *r, bool quiet);

/* The author of new operations: given (--author), else $SBXVIEW_AUTHOR,
 * else git's user.name <user.email>, else the login name, else "unknown". */
char *sbx_review_author(const char *given);

/* The runs list's reader (analyses/runs.h, review_of): the review of the
 * run folder path, found as sbx_review_place_find finds it (ctx unused);
 * its unreadable lines are not named (the list shows a state, not them). */
void sbx_review_of_run(void *ctx, const char *path, const struct sbx_timeline *tl,
                       struct sbx_review *out);

#endif
