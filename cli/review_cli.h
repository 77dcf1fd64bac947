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
 * $XDG_STATE_HOME/sbxview/reviews/DIGEST.jsonl (default ~/.local/state). */
void sbx_review_place_find(struct sbx_review_place *p, const char *given,
                           const char *const *inputs, size_t n, const struct sbx_timeline *tl);
void sbx_review_place_free(struct sbx_review_place *p);

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

#endif
