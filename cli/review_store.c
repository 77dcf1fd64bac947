/* The interface's review in the store: see cli/review_store.h. */
#include "cli/review_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/s3.h"
#include "base/s3_append.h"
#include "base/sha256.h"
#include "importers/review.h"
#include "app/review_outbox.h"
#include "cli/msg.h"
#include "cli/review_cli.h"
#include "cli/s3_settings.h"

/* The sender's ctx: the review's object, a client for the worker thread,
 * and the unsent file as it was read (to take away once sent, and only
 * that one). */
struct store {
    char *url, *bucket, *key;
    struct sbx_s3 *s3;
    char *unsent;
    bool had_unsent;
    struct stat unsent_st;
};

static void store_free(void *ctx)
{
    struct store *st = ctx;
    if (!st)
        return;
    sbx_s3_free(st->s3);
    free(st->url);
    free(st->bucket);
    free(st->key);
    free(st->unsent);
    free(st);
}

static bool store_send(void *ctx, const char *lines, size_t n, struct sbx_buf *now, char *err,
                       size_t errsz)
{
    struct store *st = ctx;
    return sbx_s3_append_now(st->s3, st->bucket, st->key, lines, n, "application/x-ndjson",
                             SBX_REVIEW_S3_MAX, now, err, errsz) == SBX_S3_OK;
}

char *sbx_review_unsent_path(const char *url, const char *state_home, const char *home)
{
    unsigned char d[SBX_SHA256_LEN];
    sbx_sha256(url, strlen(url), d);
    struct sbx_buf b = SBX_BUF_INIT;
    if (state_home && state_home[0] == '/')
        sbx_buf_adds(&b, state_home);
    else
        sbx_buf_addf(&b, "%s/.local/state", home && home[0] ? home : "/tmp");
    sbx_buf_adds(&b, "/sbxview/reviews/unsent/");
    for (int i = 0; i < 8; i++)
        sbx_buf_addf(&b, "%02x", d[i]);
    sbx_buf_adds(&b, ".jsonl");
    return b.p;
}

static struct store *store_new(const char *url, char *err, size_t errsz)
{
    struct store *st = sbx_xmalloc(sizeof *st);
    memset(st, 0, sizeof *st);
    st->url = sbx_xstrndup(url, strlen(url));
    st->unsent = sbx_review_unsent_path(url, getenv("XDG_STATE_HOME"), getenv("HOME"));
    if (!sbx_s3_parse_url(url, &st->bucket, &st->key) || !st->key[0] ||
        st->key[strlen(st->key) - 1] == '/') {
        snprintf(err, errsz, "%s: not an s3://BUCKET/KEY URL of an object", url);
        store_free(st);
        return NULL;
    }
    struct sbx_s3_settings set;
    sbx_s3_settings_read(&set, sbx_s3_endpoint_arg);
    struct sbx_s3_config cfg = sbx_s3_settings_config(&set);
    st->s3 = sbx_s3_new(&cfg, err, errsz);
    sbx_s3_settings_free(&set);
    if (!st->s3) {
        store_free(st);
        return NULL;
    }
    return st;
}

/* The unsent file's lines into *out; false when there is none. */
static bool read_unsent(struct store *st, struct sbx_buf *out)
{
    int fd = open(st->unsent, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char chunk[65536];
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) > 0 && out->len < SBX_REVIEW_S3_MAX)
        sbx_buf_add(out, chunk, (size_t)got);
    st->had_unsent = fstat(fd, &st->unsent_st) == 0;
    close(fd);
    while (out->len && out->p[out->len - 1] != '\n') /* whole lines only */
        out->p[--out->len] = '\0';
    return out->len > 0;
}

size_t sbx_review_unsent_count(const char *url, const char *store, size_t n, char **path)
{
    struct store st = {.unsent = sbx_review_unsent_path(url, getenv("XDG_STATE_HOME"), getenv("HOME"))};
    struct sbx_buf lines = SBX_BUF_INIT, missing = SBX_BUF_INIT;
    size_t count = 0;
    if (read_unsent(&st, &lines)) { /* those written since (an idempotent append) do not count */
        sbx_s3_lines_not_in(store, n, lines.p, lines.len, &missing);
        for (size_t i = 0; i < missing.len; i++)
            count += missing.p[i] == '\n';
    }
    sbx_buf_free(&lines);
    sbx_buf_free(&missing);
    *path = count ? st.unsent : NULL;
    if (!count)
        free(st.unsent);
    return count;
}

void sbx_review_unsent_note(const char *url, const char *store, size_t n)
{
    char *path;
    size_t count = sbx_review_unsent_count(url, store, n, &path);
    if (!count)
        return;
    sbx_errf("%zu review line%s written in the interface %s not in %s yet: kept in %s; the "
             "interface sends %s when it next opens this review (sbxview with the run or "
             "--review %s)",
             count, count == 1 ? "" : "s", count == 1 ? "is" : "are", url, path,
             count == 1 ? "it" : "them", url);
    free(path);
}

void sbx_review_store_open(struct sbx_app *app, const char *url, const char *author,
                           bool to_memory)
{
    struct sbx_review r;
    sbx_review_init(&r);
    char err[1024] = "";
    struct store *st = store_new(url, err, sizeof err);
    struct sbx_buf body = SBX_BUF_INIT, unsent = SBX_BUF_INIT;
    if (st && to_memory) { /* --dump: read here, written nowhere */
        char *etag = NULL;
        enum sbx_s3_result res = sbx_s3_get_checked(st->s3, st->bucket, st->key, SBX_REVIEW_S3_MAX,
                                                    &body, &etag, err, sizeof err);
        free(etag);
        if (res == SBX_S3_OK)
            sbx_review_read_bytes(&r, sbx_review_add_file(&r, url), body.p ? body.p : "", body.len);
        else if (res != SBX_S3_NOT_FOUND)
            sbx_app_message(app, true, "the review could not be read (%s)", err);
    } else if (st && read_unsent(st, &unsent)) {
        sbx_review_read_bytes(&r, sbx_review_add_file(&r, st->unsent), unsent.p, unsent.len);
    }
    sbx_app_set_review(app, &r, st && !to_memory ? url : NULL, false, author);
    if (st && !to_memory) {
        /* the review itself is read by the outbox's worker: the keys never wait on it */
        struct sbx_review_sender sender = {store_send, store_free, st};
        sbx_app_set_review_sender(app, &sender, unsent.p, unsent.len);
        st = NULL;
        if (unsent.len && !app->msg_error)
            sbx_app_message(app, false, "review: sending the lines an earlier session could not write");
    } else if (!st) {
        sbx_app_message(app, true, "the review in the store cannot be used (%s): nothing is written to it", err);
    }
    store_free(st);
    sbx_buf_free(&body);
    sbx_buf_free(&unsent);
}

static bool mkdirs_above(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok)
            return false;
    }
    return true;
}

/* lines[0..n) as the unsent file, replacing it (they hold what it held:
 * its lines were queued first). */
static bool keep_unsent(const struct store *st, const char *lines, size_t n, char *why, size_t whysz)
{
    char *path = sbx_xstrndup(st->unsent, strlen(st->unsent));
    bool ok = mkdirs_above(path);
    int fd = ok ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    ok = fd >= 0;
    for (size_t done = 0; ok && done < n;) {
        ssize_t w = write(fd, lines + done, n - done);
        ok = w > 0;
        done += ok ? (size_t)w : 0;
    }
    if (!ok)
        snprintf(why, whysz, "%s", strerror(errno));
    if (fd >= 0 && close(fd) != 0 && ok) {
        snprintf(why, whysz, "%s", strerror(errno));
        ok = false;
    }
    free(path);
    return ok;
}

void sbx_review_store_quit(struct sbx_app *app)
{
    size_t n;
    void *ctx;
    char err[512];
    const char *lines = sbx_app_review_finish(app, &n, &ctx, err, sizeof err);
    struct store *st = ctx;
    if (!st)
        return;
    if (!n) {
        struct stat now;
        /* everything sent: the file read at the start goes, unless another
         * session has written it since */
        if (st->had_unsent && stat(st->unsent, &now) == 0 && now.st_ino == st->unsent_st.st_ino &&
            now.st_size == st->unsent_st.st_size &&
            now.st_mtim.tv_sec == st->unsent_st.st_mtim.tv_sec &&
            now.st_mtim.tv_nsec == st->unsent_st.st_mtim.tv_nsec)
            unlink(st->unsent);
        return;
    }
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += lines[i] == '\n';
    char why[256];
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "%zu review line%s could not be written to %s (%s): ", count,
                 count == 1 ? "" : "s", st->url, err);
    bool kept = keep_unsent(st, lines, n, why, sizeof why);
    if (kept)
        sbx_buf_addf(&b, "kept in %s; the next sbxview on this review sends them", st->unsent);
    else
        sbx_buf_addf(&b, "and could not be kept in %s: %s", st->unsent, why);
    sbx_warn(b.p); /* sanitised and redacted: the reason is the store's */
    sbx_buf_free(&b);
}
