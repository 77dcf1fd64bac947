/* sbx_s3_append_object: adding lines to the end of one object of the store (a
 * review file), which S3 cannot do in place: the object is read, the lines
 * added, and the whole written back only if it still has the ETag it was
 * read with (If-Match; If-None-Match: * while there is no object), so two
 * writers at once never lose each other's lines. On 412 (another writer
 * came first) it is read and written again, up to SBX_S3_APPEND_TRIES times.
 * The read is checked against the ETag's MD5 (sbx_s3_read_checked), so an
 * old body under a new ETag is never written back. A line already in the
 * object, byte for byte, is not added again: an earlier try whose answer
 * was lost (the store wrote it, the reply never came) or an earlier send
 * that was thought to have failed wrote it, so an append retried is
 * idempotent.
 *
 * Ownership: nothing is kept; data is borrowed for the call; the reason of
 * a failure goes into the caller's err (hostile text from the store:
 * sanitise and redact before display). */
#ifndef SBX_S3_APPEND_H
#define SBX_S3_APPEND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/s3.h"

#define SBX_S3_APPEND_TRIES 16
/* How often a body that is not its ETag's MD5 is read (then an error). */
#define SBX_S3_MD5_READS 4

/* Whether body[0..n) is what etag says: an ETag of a single-part object
 * ("…" around 32 hex digits, no "-N" of a multipart upload) is the MD5 of
 * its bytes, and must be it; any other ETag says nothing checkable (true),
 * and so does a libcrypto without MD5. */
bool sbx_s3_etag_matches(const char *etag, const void *body, size_t n);

/* One read of an object: what sbx_s3_get gives (the body into *body, the
 * ETag into *etag, fresh or NULL). */
typedef enum sbx_s3_result (*sbx_s3_reader)(void *ctx, struct sbx_buf *body, char **etag,
                                             char *err, size_t errsz);

/* A read a read-modify-write can trust: read by reader, and read again (up
 * to SBX_S3_MD5_READS reads in all, waiting wait_ms, doubled each time, in
 * between) while the body is not its ETag's MD5 — a store that serves an
 * old copy under the new ETag would otherwise have the write pass If-Match
 * and drop what the old copy lacks. Then SBX_S3_FAILED naming the object
 * (name). */
enum sbx_s3_result sbx_s3_read_checked(sbx_s3_reader reader, void *ctx, const char *name,
                                       long wait_ms, struct sbx_buf *body, char **etag,
                                       char *err, size_t errsz);

/* sbx_s3_get (no If-None-Match) checked so. */
enum sbx_s3_result sbx_s3_get_checked(struct sbx_s3 *s, const char *bucket, const char *key,
                                      size_t max_body, struct sbx_buf *body, char **etag,
                                      char *err, size_t errsz);

/* The lines of data[0..n) (each with its newline; a last one without) that
 * are not, byte for byte, a line of body[0..blen), in order, into *out
 * (cleared first). */
void sbx_s3_lines_not_in(const char *body, size_t blen, const char *data, size_t n,
                         struct sbx_buf *out);

/* data[0..n) appended to s3://bucket/key (made when missing; the object
 * may hold at most max_body bytes). SBX_S3_OK when written; anything else
 * with a one-line reason in err (SBX_S3_PRECONDITION: changed by other
 * writers every time). */
enum sbx_s3_result sbx_s3_append_object(struct sbx_s3 *s, const char *bucket, const char *key,
                                        const void *data, size_t n, const char *content_type,
                                        size_t max_body, char *err, size_t errsz);

/* The same, with the object as written (n 0: only read, none yet is empty)
 * into *now (freed first; left alone on failure): the review as every
 * writer has made it. */
enum sbx_s3_result sbx_s3_append_now(struct sbx_s3 *s, const char *bucket, const char *key,
                                     const void *data, size_t n, const char *content_type,
                                     size_t max_body, struct sbx_buf *now, char *err,
                                     size_t errsz);

#endif
