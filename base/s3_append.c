/* A read-modify-write append to one object: see base/s3_append.h. */
#include "base/s3_append.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/hex.h"
#include "base/md5.h"

/* 10 to 49 ms, different for each try and each process: two writers that
 * collided do not collide again in step. */
static void jitter(int attempt)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long ms = 10 + (long)(((unsigned long)now.tv_nsec / 1000 + (unsigned long)attempt * 7919) % 40);
    nanosleep(&(struct timespec){0, ms * 1000000L}, NULL);
}

bool sbx_s3_etag_matches(const char *etag, const void *body, size_t n)
{
    size_t len = etag ? strlen(etag) : 0;
    if (len != 34 || etag[0] != '"' || etag[33] != '"')
        return true; /* multipart ("…-N"), or a store's own form: nothing to check */
    for (size_t i = 1; i < 33; i++)
        if (sbx_hex_digit((unsigned char)etag[i]) < 0)
            return true;
    unsigned char md[SBX_MD5_LEN];
    if (!sbx_md5(body, n, md))
        return true;
    for (int i = 0; i < SBX_MD5_LEN; i++)
        if (sbx_hex_digit((unsigned char)etag[1 + 2 * i]) * 16 +
                sbx_hex_digit((unsigned char)etag[2 + 2 * i]) != md[i])
            return false;
    return true;
}

enum sbx_s3_result sbx_s3_read_checked(sbx_s3_reader reader, void *ctx, const char *name,
                                       long wait_ms, struct sbx_buf *body, char **etag,
                                       char *err, size_t errsz)
{
    for (int read = 0; read < SBX_S3_MD5_READS; read++) {
        if (read && wait_ms > 0) {
            long ms = wait_ms << (read - 1);
            nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
        }
        *etag = NULL;
        enum sbx_s3_result r = reader(ctx, body, etag, err, errsz);
        if (r != SBX_S3_OK || sbx_s3_etag_matches(*etag, body->p ? body->p : "", body->len))
            return r;
        free(*etag);
        *etag = NULL;
    }
    snprintf(err, errsz, "%s: the body read is not the one its ETag names (its MD5), %d reads in a row: "
             "the store serves an old copy; not written", name, SBX_S3_MD5_READS);
    return SBX_S3_FAILED;
}

struct get_ctx {
    struct sbx_s3 *s;
    const char *bucket, *key;
    size_t max_body;
};

static enum sbx_s3_result get_once(void *ctx, struct sbx_buf *body, char **etag, char *err,
                                   size_t errsz)
{
    struct get_ctx *g = ctx;
    return sbx_s3_get(g->s, g->bucket, g->key, NULL, g->max_body, body, etag, err, errsz);
}

enum sbx_s3_result sbx_s3_get_checked(struct sbx_s3 *s, const char *bucket, const char *key,
                                      size_t max_body, struct sbx_buf *body, char **etag,
                                      char *err, size_t errsz)
{
    struct get_ctx g = {s, bucket, key, max_body};
    char name[512];
    snprintf(name, sizeof name, "s3://%s/%s", bucket, key);
    return sbx_s3_read_checked(get_once, &g, name, 100, body, etag, err, errsz);
}

/* Whether line[0..n) (its newline included) is one of body's lines. */
static bool has_line(const char *body, size_t blen, const char *line, size_t n)
{
    for (size_t at = 0; at + n <= blen;) {
        const char *nl = memchr(body + at, '\n', blen - at);
        size_t end = nl ? (size_t)(nl - body) + 1 : blen;
        if (end - at == n && memcmp(body + at, line, n) == 0)
            return true;
        at = end;
    }
    return false;
}

void sbx_s3_lines_not_in(const char *body, size_t blen, const char *data, size_t n,
                         struct sbx_buf *out)
{
    sbx_buf_clear(out);
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(data + at, '\n', n - at);
        size_t end = nl ? (size_t)(nl - data) + 1 : n;
        if (!has_line(body ? body : "", body ? blen : 0, data + at, end - at))
            sbx_buf_add(out, data + at, end - at);
        at = end;
    }
}

enum sbx_s3_result sbx_s3_append_object(struct sbx_s3 *s, const char *bucket, const char *key,
                                        const void *data, size_t n, const char *content_type,
                                        size_t max_body, char *err, size_t errsz)
{
    return sbx_s3_append_now(s, bucket, key, data, n, content_type, max_body, NULL, err, errsz);
}

enum sbx_s3_result sbx_s3_append_now(struct sbx_s3 *s, const char *bucket, const char *key,
                                     const void *data, size_t n, const char *content_type,
                                     size_t max_body, struct sbx_buf *now, char *err,
                                     size_t errsz)
{
    struct sbx_buf body = SBX_BUF_INIT, missing = SBX_BUF_INIT;
    enum sbx_s3_result r = SBX_S3_PRECONDITION;
    for (int attempt = 0; r == SBX_S3_PRECONDITION && attempt < SBX_S3_APPEND_TRIES; attempt++) {
        if (attempt)
            jitter(attempt);
        char *etag = NULL;
        r = sbx_s3_get_checked(s, bucket, key, max_body, &body, &etag, err, errsz);
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
        if (!n) { /* only read */
            free(etag);
            r = SBX_S3_OK;
            break;
        }
        /* a line already there is this one written by an earlier try whose
         * answer was lost (a cut connection, a timeout, a 5xx after the
         * write): its bytes, down to the millisecond of "at", are its own */
        sbx_s3_lines_not_in(body.p, body.len, data, n, &missing);
        if (!missing.len) {
            free(etag);
            r = SBX_S3_OK;
            break;
        }
        sbx_buf_add(&body, missing.p, missing.len);
        /* written only if nobody wrote it since it was read; else read again */
        r = sbx_s3_put_if(s, bucket, key, body.p, body.len, content_type, etag ? etag : "*", err,
                          errsz);
        free(etag);
    }
    if (r == SBX_S3_PRECONDITION)
        snprintf(err, errsz, "s3://%s/%s: changed by other writers %d times while it was appended to: not written",
                 bucket, key, SBX_S3_APPEND_TRIES);
    sbx_buf_free(&missing);
    if (now && r == SBX_S3_OK) {
        sbx_buf_free(now);
        *now = body;
    } else {
        sbx_buf_free(&body);
    }
    return r;
}
