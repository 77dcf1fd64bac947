/* sbx_s3_append_object: adding lines to the end of one object of the store (a
 * review file), which S3 cannot do in place: the object is read, the lines
 * added, and the whole written back only if it still has the ETag it was
 * read with (If-Match; If-None-Match: * while there is no object), so two
 * writers at once never lose each other's lines. On 412 (another writer
 * came first) it is read and written again, up to SBX_S3_APPEND_TRIES times.
 *
 * Ownership: nothing is kept; data is borrowed for the call; the reason of
 * a failure goes into the caller's err (hostile text from the store:
 * sanitise and redact before display). */
#ifndef SBX_S3_APPEND_H
#define SBX_S3_APPEND_H

#include <stddef.h>

#include "base/s3.h"

#define SBX_S3_APPEND_TRIES 16

/* data[0..n) appended to s3://bucket/key (made when missing; the object
 * may hold at most max_body bytes). SBX_S3_OK when written; anything else
 * with a one-line reason in err (SBX_S3_PRECONDITION: changed by other
 * writers every time). */
enum sbx_s3_result sbx_s3_append_object(struct sbx_s3 *s, const char *bucket, const char *key,
                                        const void *data, size_t n, const char *content_type,
                                        size_t max_body, char *err, size_t errsz);

#endif
