/* sbx_s3: an S3 client over base/http — ListObjectsV2 with continuation,
 * GET (resumed with a Range after a cut, the ETag compared), PUT — signed by
 * libcurl's own AWS SigV4 (CURLOPT_AWS_SIGV4, "aws:amz:REGION:s3").
 *
 * Addressing: with no endpoint, AWS's virtual-host style
 * (https://BUCKET.s3.REGION.amazonaws.com/KEY); with an endpoint (an
 * S3-compatible store: MinIO, R2, Ceph, GCS's interface), path style
 * (ENDPOINT/BUCKET/KEY). https only, as every request of base/http.
 *
 * What a store answers is handled as S3 does it: 500, 503 and SlowDown (and
 * a cut or a timeout) are retried with a doubling backoff or the store's
 * Retry-After, whichever is longer; a wrong region (301 PermanentRedirect,
 * 400 AuthorizationHeaderMalformed naming the region, or
 * x-amz-bucket-region) is retried once at the region the store names;
 * RequestTimeTooSkewed is reported as this machine's clock being off.
 * Errors carry the store's Code and Message (hostile text: sanitise and
 * redact before display); the secret key and the session token never
 * appear in a URL, an error or the trace.
 *
 * Ownership: the config's strings are copied by sbx_s3_new; results (pages,
 * bodies, ETags) belong to the caller; one client is used by one thread at
 * a time (make one a thread for a pool). */
#ifndef SBX_S3_H
#define SBX_S3_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/s3xml.h"

struct sbx_s3_config {
    const char *access_key, *secret_key; /* both needed */
    const char *session_token;           /* NULL or a temporary credential's token */
    const char *region;                  /* NULL: us-east-1 */
    const char *endpoint;                /* NULL: AWS; else https://host[:port][/base] */
    const char *ca_file;                 /* NULL: the system's CAs */
    int retries;                         /* 0: 4; -1: none */
    long backoff_ms;                     /* the first wait, doubled each time; 0: 250 */
    const _Atomic bool *cancel;          /* optional, as base/http's */
};

struct sbx_s3;

struct sbx_s3 *sbx_s3_new(const struct sbx_s3_config *cfg, char *err, size_t errsz);
void sbx_s3_free(struct sbx_s3 *s);

/* The region the client now signs for (a redirect may have changed it). */
const char *sbx_s3_region(const struct sbx_s3 *s);

enum sbx_s3_result {
    SBX_S3_OK,
    SBX_S3_NOT_MODIFIED, /* GET with if_none_match: the object has that ETag */
    SBX_S3_NOT_FOUND,    /* 404 NoSuchKey / NoSuchBucket */
    SBX_S3_PRECONDITION, /* 412 PreconditionFailed: a conditional PUT's object changed */
    SBX_S3_FAILED,       /* anything else, with a one-line reason in err */
};

/* Splits "s3://bucket/key..." into fresh copies (key may be ""); false when
 * url is not one or the bucket name is not a valid one. */
bool sbx_s3_parse_url(const char *url, char **bucket, char **key);

/* Every object under prefix (and, with delimiter "/", the common prefixes),
 * all pages of ListObjectsV2 appended into *out (zeroed first). */
enum sbx_s3_result sbx_s3_list(struct sbx_s3 *s, const char *bucket, const char *prefix,
                               const char *delimiter, struct sbx_s3_page *out, char *err,
                               size_t errsz);

/* One page of that listing into *out (zeroed first): the first with token
 * NULL, else the one after the page whose next_token it is. out->truncated
 * says more follow. A store that gives back the token it was asked with is
 * an error (not a loop). */
enum sbx_s3_result sbx_s3_list_page(struct sbx_s3 *s, const char *bucket, const char *prefix,
                                    const char *delimiter, const char *token,
                                    struct sbx_s3_page *out, char *err, size_t errsz);

/* The object into *body (cleared first), its ETag into *etag (fresh, may be
 * NULL when the store sent none). With if_none_match, an unchanged object is
 * SBX_S3_NOT_MODIFIED and nothing is read. Bodies over max_body fail. A
 * body cut short after some bytes is asked again from there (Range:
 * bytes=N-, up to the client's retries), each part's ETag the first's (else
 * the object changed while it was read: an error); a store that answers the
 * Range with the whole object (200) is read whole again. */
enum sbx_s3_result sbx_s3_get(struct sbx_s3 *s, const char *bucket, const char *key,
                              const char *if_none_match, size_t max_body, struct sbx_buf *body,
                              char **etag, char *err, size_t errsz);

/* Where sbx_s3_get_range_to puts a part's bytes: data[0..n) are the part's
 * bytes from off on (a byte may come again, the same, after a store ignored
 * a Range); false stops the read (SBX_S3_FAILED). */
typedef bool (*sbx_s3_sink)(void *ctx, const char *data, size_t n, uint64_t off);

/* Bytes [from, from + len) of the object (len > 0), as sbx_s3_get reads (a
 * cut resumed; the ETag into *etag), by Range: one part of a large object
 * fetched in parts at once. The bytes go to sink as they arrive, not
 * gathered: SBX_S3_OK only when all len of them came. The sink sees them
 * before the read's ETags are compared: after a failure, what it was given
 * is not the object's. */
enum sbx_s3_result sbx_s3_get_range_to(struct sbx_s3 *s, const char *bucket, const char *key,
                                       uint64_t from, uint64_t len, sbx_s3_sink sink, void *ctx,
                                       char **etag, char *err, size_t errsz);

/* How many reads this client resumed with a Range after a cut body. */
unsigned long sbx_s3_resumed(const struct sbx_s3 *s);

/* Writes data as the object key. */
enum sbx_s3_result sbx_s3_put(struct sbx_s3 *s, const char *bucket, const char *key,
                              const void *data, size_t n, const char *content_type, char *err,
                              size_t errsz);

/* The same, only when the object still has the ETag if_match (If-Match), or,
 * with if_match "*", only when there is no object yet (If-None-Match: *);
 * else SBX_S3_PRECONDITION and nothing is written. */
enum sbx_s3_result sbx_s3_put_if(struct sbx_s3 *s, const char *bucket, const char *key,
                                 const void *data, size_t n, const char *content_type,
                                 const char *if_match, char *err, size_t errsz);

#endif
