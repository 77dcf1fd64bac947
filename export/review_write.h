/* Writing a review (docs/review-file.md): one operation as one JSON line,
 * and appending it to the review file.
 *
 * An append is one write(2) of the whole line to a file opened with
 * O_APPEND, so lines of two processes writing at once never interleave;
 * the file and its folder are made when the first line is written, never
 * before.
 *
 * Ownership: lines are appended to the caller's sbx_buf; nothing is kept. */
#ifndef SBX_REVIEW_WRITE_H
#define SBX_REVIEW_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "model/review.h"

/* op as one line (its newline included), pure ASCII. */
void sbx_review_op_line(const struct sbx_review_op *op, struct sbx_buf *out);

/* Appends op's line to path, making the folders above it when make_dirs.
 * False with the reason (naming the path, quoting nothing else) in err. */
bool sbx_review_append(const char *path, const struct sbx_review_op *op, bool make_dirs,
                       char *err, size_t errsz);

/* A post an export made (model/review.h) as one "posted" line, and
 * appended as sbx_review_append appends an operation. */
void sbx_review_post_line(const struct sbx_review_post *p, struct sbx_buf *out);
bool sbx_review_append_post(const char *path, const struct sbx_review_post *p, bool make_dirs,
                            char *err, size_t errsz);

#endif
