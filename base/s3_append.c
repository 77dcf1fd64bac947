/* A read-modify-write append to one object: see base/s3_append.h. */
#include "base/s3_append.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/buf.h"

/* 10 to 49 ms, different for each try and each process: two writers that
 * collided do not collide again in step. */
static void jitter(int attempt)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long ms = 10 + (long)(((unsigned long)now.tv_nsec / 1000 + (unsigned long)attempt * 7919) % 40);
    nanosleep(&(struct timespec){0, ms * 1000000L}, NULL);
}

enum sbx_s3_result sbx_s3_append_object(struct sbx_s3 *s, const char *bucket, const char *key,
                                        const void *data, size_t n, const char *content_type,
                                        size_t max_body, char *err, size_t errsz)
{
    struct sbx_buf body = SBX_BUF_INIT;
    enum sbx_s3_result r = SBX_S3_PRECONDITION;
    for (int attempt = 0; r == SBX_S3_PRECONDITION && attempt < SBX_S3_APPEND_TRIES; attempt++) {
        if (attempt)
            jitter(attempt);
        char *etag = NULL;
        r = sbx_s3_get(s, bucket, key, NULL, max_body, &body, &etag, err, errsz);
        if (r == SBX_S3_NOT_FOUND) {
            sbx_buf_clear(&body);
        } else if (r == SBX_S3_OK && !etag) {
            snprintf(err, errsz, "s3://%s/%s: the store sent no ETag: an append cannot be safe",
                     bucket, key);
            r = SBX_S3_FAILED;
        }
        if (r != SBX_S3_OK && r != SBX_S3_NOT_FOUND) {
            free(etag);
            break;
        }
        sbx_buf_add(&body, data, n);
        /* written only if nobody wrote it since it was read; else read again */
        r = sbx_s3_put_if(s, bucket, key, body.p, body.len, content_type, etag ? etag : "*", err,
                          errsz);
        free(etag);
    }
    if (r == SBX_S3_PRECONDITION)
        snprintf(err, errsz, "s3://%s/%s: changed by other writers %d times while it was appended to: not written",
                 bucket, key, SBX_S3_APPEND_TRIES);
    sbx_buf_free(&body);
    return r;
}
