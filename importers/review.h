/* Reading review files (docs/review-file.md) into a struct sbx_review
 * (model/review.h): every line an operation, or a problem naming its file
 * and line and why; the lines after a broken one still load.
 *
 * Ownership: everything read belongs to the review (sbx_review_free);
 * nothing else is kept. Safe from any thread on distinct reviews. */
#ifndef SBX_IMPORTERS_REVIEW_H
#define SBX_IMPORTERS_REVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "model/review.h"

/* The lines of data[0..n) as the review's file `file`. */
void sbx_review_read_bytes(struct sbx_review *r, uint32_t file, const char *data, size_t n);

/* Reads path as the review's next file. A file that does not exist is an
 * empty review (true); one that cannot be read is false with the reason in
 * err. */
bool sbx_review_read_file(struct sbx_review *r, const char *path, char *err, size_t errsz);

/* Whether s[0..n) is an event id ("ab12cd34ef", "ab12cd34ef.2") or, with
 * finding, a finding id ("ab12cd34ef/secret"); with !finding it may be
 * either. */
bool sbx_review_item_valid(const char *s, size_t n, bool finding_only);

/* Whether a tag is well formed: 1 to 64 of A-Z a-z 0-9 . _ : - */
bool sbx_review_tag_valid(const char *s);

#endif
