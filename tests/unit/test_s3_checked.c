/* Tests for the checked read of a read-modify-write (base/s3_append.h): an
 * ETag of a single-part object must be the MD5 of the body read, else the
 * object is read again (a store serving an old copy under the new ETag),
 * a bounded number of times, then an error naming the object. A fake store
 * answers each read from a table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/s3_append.h"

#define HELLO_MD5 "b1946ac92492d2347c6235b4d2611184" /* MD5 of "hello\n" */
#define EMPTY_MD5 "d41d8cd98f00b204e9800998ecf8427e"

static void which_etags_are_checked(void **state)
{
    (void)state;
    static const struct {
        const char *etag, *body;
        bool matches;
    } cases[] = {
        {"\"" HELLO_MD5 "\"", "hello\n", true},
        {"\"B1946AC92492D2347C6235B4D2611184\"", "hello\n", true}, /* hex in any case */
        {"\"" HELLO_MD5 "\"", "hello", false},                   /* one byte short */
        {"\"" HELLO_MD5 "\"", "", false},
        {"\"" EMPTY_MD5 "\"", "", true},
        {"\"" EMPTY_MD5 "\"", "hello\n", false},
        {"\"b1946ac92492d2347c6235b4d2611185\"", "hello\n", false}, /* the last digit */
        {"\"c1946ac92492d2347c6235b4d2611184\"", "hello\n", false}, /* the first digit */
        {"\"" HELLO_MD5 "-2\"", "anything", true},  /* multipart: not an MD5 of the body */
        {"\"" HELLO_MD5 "-12\"", "", true},
        {HELLO_MD5, "other", true},                  /* not quoted: a store's own form */
        {"\"changed-" HELLO_MD5 "\"", "other", true},
        {"\"g1946ac92492d2347c6235b4d2611184\"", "other", true}, /* not hex */
        {"\"b1946ac92492d2347c6235b4d261118\"", "other", true},  /* 31 digits */
        {"", "other", true},
        {NULL, "other", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (sbx_s3_etag_matches(cases[i].etag, cases[i].body, strlen(cases[i].body)) !=
            cases[i].matches)
            fail_msg("case %zu: %s over \"%s\" should %s", i, cases[i].etag ? cases[i].etag : "NULL",
                     cases[i].body, cases[i].matches ? "match" : "not match");
}

/* The fake store: read k gives reads[k] (the last one again past the end). */
struct answer {
    const char *body, *etag;
    enum sbx_s3_result r;
};
struct fake {
    const struct answer *reads;
    size_t n, done;
};

static enum sbx_s3_result fake_read(void *ctx, struct sbx_buf *body, char **etag, char *err,
                                    size_t errsz)
{
    struct fake *f = ctx;
    const struct answer *a = &f->reads[f->done < f->n ? f->done : f->n - 1];
    f->done++;
    sbx_buf_clear(body);
    if (a->r != SBX_S3_OK) {
        snprintf(err, errsz, "the store failed");
        return a->r;
    }
    sbx_buf_adds(body, a->body);
    *etag = a->etag ? strdup(a->etag) : NULL;
    return SBX_S3_OK;
}

#define NEW "\"" HELLO_MD5 "\""
static void read_again_while_stale(void **state)
{
    (void)state;
    static const struct {
        struct answer reads[5];
        size_t n;
        enum sbx_s3_result want;
        size_t reads_done;
        const char *body; /* the body given, when OK */
    } cases[] = {
        {{{"hello\n", NEW, SBX_S3_OK}}, 1, SBX_S3_OK, 1, "hello\n"},
        {{{"hell", NEW, SBX_S3_OK}, {"hello\n", NEW, SBX_S3_OK}}, 2, SBX_S3_OK, 2, "hello\n"},
        {{{"he", NEW, SBX_S3_OK}, {"hel", NEW, SBX_S3_OK}, {"hell", NEW, SBX_S3_OK},
          {"hello\n", NEW, SBX_S3_OK}}, 4, SBX_S3_OK, 4, "hello\n"},
        /* stale every time: bounded, then an error */
        {{{"hell", NEW, SBX_S3_OK}}, 1, SBX_S3_FAILED, SBX_S3_MD5_READS, NULL},
        /* a multipart ETag cannot be checked: the first body is taken */
        {{{"anything", "\"" HELLO_MD5 "-3\"", SBX_S3_OK}}, 1, SBX_S3_OK, 1, "anything"},
        /* no object, or a failure: given back as it is, not read again */
        {{{NULL, NULL, SBX_S3_NOT_FOUND}}, 1, SBX_S3_NOT_FOUND, 1, NULL},
        {{{"hell", NEW, SBX_S3_OK}, {NULL, NULL, SBX_S3_FAILED}}, 2, SBX_S3_FAILED, 2, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fake f = {cases[i].reads, cases[i].n, 0};
        struct sbx_buf body = SBX_BUF_INIT;
        char *etag = NULL, err[512] = "";
        enum sbx_s3_result r = sbx_s3_read_checked(fake_read, &f, "s3://runs/r/sbxview-review.jsonl",
                                                   0, &body, &etag, err, sizeof err);
        if (r != cases[i].want || f.done != cases[i].reads_done)
            fail_msg("case %zu: result %d after %zu reads, wanted %d after %zu", i, (int)r, f.done,
                     (int)cases[i].want, cases[i].reads_done);
        if (cases[i].body) {
            assert_int_equal(body.len, strlen(cases[i].body));
            assert_memory_equal(body.p, cases[i].body, body.len);
            assert_non_null(etag);
        }
        if (r == SBX_S3_FAILED && cases[i].reads_done == SBX_S3_MD5_READS) {
            assert_non_null(strstr(err, "s3://runs/r/sbxview-review.jsonl"));
            assert_non_null(strstr(err, "ETag"));
            assert_null(etag);
        }
        free(etag);
        sbx_buf_free(&body);
    }
}

/* An append retried after a lost answer: the lines of the batch already in
 * the object (written by the try whose answer was lost) are not added again;
 * the others are, in order. */
static void lines_already_there_are_not_appended(void **state)
{
    (void)state;
    static const struct {
        const char *body, *data, *want;
    } cases[] = {
        {"", "a\n", "a\n"},
        {NULL, "a\nb\n", "a\nb\n"},
        {"a\n", "a\n", ""},                         /* the lost try wrote it */
        {"x\na\ny\n", "a\n", ""},                 /* others wrote after it */
        {"x\na\n", "a\nb\n", "b\n"},             /* half of a batch */
        {"a\nc\n", "a\nb\nc\nd\n", "b\nd\n"},
        {"ab\n", "a\n", "a\n"},                    /* a line is whole, not a part */
        {"xa\n", "a\n", "a\n"},
        {"a", "a\n", "a\n"},                        /* without its newline: another line */
        {"a\n", "a", "a"},
        {"A\n", "a\n", "a\n"},                     /* byte for byte */
        {"a\n\n", "\n", ""},
        {"a\nb", "b\n", "b\n"},
    };
    struct sbx_buf out = SBX_BUF_INIT;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *b = cases[i].body;
        sbx_s3_lines_not_in(b, b ? strlen(b) : 0, cases[i].data, strlen(cases[i].data), &out);
        if (out.len != strlen(cases[i].want) || memcmp(out.p ? out.p : "", cases[i].want, out.len))
            fail_msg("case %zu: got \"%.*s\", wanted \"%s\"", i, (int)out.len,
                     out.p ? out.p : "", cases[i].want);
    }
    sbx_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(which_etags_are_checked),
        cmocka_unit_test(read_again_while_stale),
        cmocka_unit_test(lines_already_there_are_not_appended),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
