#include "cli/s3_fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/deadline.h"
#include "base/numfmt.h"
#include "base/s3.h"
#include "base/s3_append.h"
#include "base/timefmt.h"
#include "cli/cli_util.h"
#include "cli/s3_settings.h"
#include "analyses/runs_more.h"
#include "importers/runs.h"
#include "importers/runs_keys.h"
#include "importers/runs_manifest.h"
#include "model/review.h"
#include "render/sanitize.h"
#include "render/untrusted.h"

#define OBJECT_MAX ((size_t)4 << 30)

bool sbx_is_s3_url(const char *s)
{
    return s && strncmp(s, "s3://", 5) == 0;
}

char *sbx_s3_source_name(const char *url, bool folder)
{
    char *bucket, *key;
    if (!sbx_s3_parse_url(url, &bucket, &key))
        return sbx_xstrndup(url, strlen(url));
    struct sbx_buf b = SBX_BUF_INIT;
    size_t n = strlen(key);
    while (folder && n && key[n - 1] == '/')
        n--;
    sbx_buf_addf(&b, "s3://%s/%.*s", bucket, (int)n, key);
    if (folder && n)
        sbx_buf_addc(&b, '/');
    free(bucket);
    free(key);
    return b.p;
}

static void warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warnf(const char *fmt, ...)
{
    struct sbx_buf b = SBX_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sbx_buf_vaddf(&b, fmt, ap);
    va_end(ap);
    sbx_warn(b.p);
    sbx_buf_free(&b);
}

/* $XDG_CACHE_HOME/sbxview/s3, else ~/.cache/sbxview/s3; NULL without either. */
static char *cache_root(void)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    struct sbx_buf b = SBX_BUF_INIT;
    if (x && *x == '/')
        sbx_buf_addf(&b, "%s/sbxview/s3", x);
    else if (home && *home)
        sbx_buf_addf(&b, "%s/.cache/sbxview/s3", home);
    return b.p;
}

/* The folder and those above it that are missing, the deepest tried first:
 * a fetch's folders are there but for the first file of each, and a mkdir
 * of every ancestor (EEXIST, each under its parent's lock) was 9 calls a
 * file, two files an object. */
static bool mkdirs(char *path)
{
    if (mkdir(path, 0700) == 0 || errno == EEXIST)
        return true;
    char *slash = strrchr(path, '/');
    if (errno != ENOENT || !slash || slash == path)
        return false;
    *slash = '\0';
    bool ok = mkdirs(path);
    *slash = '/';
    return ok && (mkdir(path, 0700) == 0 || errno == EEXIST);
}

static bool mkparents(const char *file)
{
    char *d = strdup(file);
    if (!d)
        abort();
    char *slash = strrchr(d, '/');
    bool ok = true;
    if (slash && slash != d) {
        *slash = '\0';
        ok = mkdirs(d);
    }
    free(d);
    return ok;
}

/* A key the cache can hold as a relative path: segments neither empty nor
 * "." or "..", no control character. (A prefix's trailing '/' is allowed.) */
static bool safe_key(const char *k)
{
    if (!*k || *k == '/' || strlen(k) > 1024)
        return false;
    for (const char *seg = k; *seg;) {
        const char *e = strchr(seg, '/');
        size_t n = e ? (size_t)(e - seg) : strlen(seg);
        if (n == 0 || (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
            return false;
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)seg[i] < 0x20 || seg[i] == 0x7f)
                return false;
        seg += n;
        if (e && !e[1])
            return false; /* an object key ending in '/': a folder marker */
        if (e)
            seg++;
    }
    return true;
}

static bool write_file(const char *path, const void *data, size_t n)
{
    struct sbx_buf tmp = SBX_BUF_INIT;
    sbx_buf_addf(&tmp, "%s.part.%ld", path, (long)getpid());
    int fd = open(tmp.p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    bool ok = fd >= 0;
    for (size_t off = 0; ok && off < n;) {
        ssize_t w = write(fd, (const char *)data + off, n - off);
        if (w <= 0)
            ok = false;
        else
            off += (size_t)w;
    }
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    if (ok)
        ok = rename(tmp.p, path) == 0;
    else
        unlink(tmp.p);
    sbx_buf_free(&tmp);
    return ok;
}

static char *read_small(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NULL;
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return strdup(buf);
}

struct job {
    const struct sbx_s3_entry *e;
    char *local, *etag_file;
    /* a large object, fetched in parts at once into tmp (by pwrite on fd);
     * the last part to arrive renames it into place */
    char *tmp;
    int fd;
    _Atomic size_t parts_left;
    size_t row; /* its run's row in a runs list read behind, else SIZE_MAX */
};

/* One GET of the pool: a whole object (len 0) or a part of a large one. */
struct task {
    struct job *j;
    uint64_t off, len;
};

/* Objects over 2 parts are fetched in parts of this size, several at once:
 * one connection's throughput is not the limit then. */
#define PART_BYTES ((uint64_t)8 << 20)

/* The object's LastModified in ns, or SBX_TIME_UNKNOWN. */
static int64_t last_modified(const struct sbx_s3_entry *e)
{
    int64_t ns;
    unsigned flags;
    if (!e->last_modified ||
        !sbx_time_parse(e->last_modified, strlen(e->last_modified), &ns, &flags))
        return SBX_TIME_UNKNOWN;
    return ns;
}

/* The cached file gets the object's LastModified as its mtime, so the
 * manifest rule over the cached folder (importers/runs_manifest.h) decides
 * as the listing does. */
static void stamp(const char *path, const struct sbx_s3_entry *e)
{
    int64_t ns = last_modified(e);
    if (ns == SBX_TIME_UNKNOWN)
        return;
    struct timespec ts[2] = {{.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000},
                             {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000}};
    utimensat(AT_FDCWD, path, ts, 0);
}

static bool is_manifest_key(const char *key, size_t plen, size_t seg)
{
    return strcmp(key + plen + seg, SBX_RUN_MANIFEST_NAME) == 0;
}

/* Over a folder of runs (no object directly under the prefix), a run whose
 * manifest is not older than its other objects (by the listing's
 * LastModified; the review file aside) needs only the manifest: skip[i] is
 * set on its other objects. Returns how many are skipped. The entries are
 * in key order, a run's objects together. */
static size_t manifest_skips(const struct sbx_s3_page *page, size_t plen, bool *skip)
{
    for (size_t i = 0; i < page->n; i++)
        if (!sbx_runs_key_folder(page->entries[i].key, plen))
            return 0; /* a run itself, or a mixed folder: everything is read */
    size_t skipped = 0;
    for (size_t a = 0, b; a < page->n; a = b) {
        const char *ka = page->entries[a].key;
        size_t seg = sbx_runs_key_folder(ka, plen);
        int64_t newest = SBX_TIME_UNKNOWN, manifest = SBX_TIME_UNKNOWN;
        bool known = true;
        for (b = a; b < page->n && strncmp(page->entries[b].key, ka, plen + seg) == 0; b++) {
            const char *k = page->entries[b].key;
            int64_t lm = last_modified(&page->entries[b]);
            if (is_manifest_key(k, plen, seg))
                manifest = lm;
            else if (strcmp(k + plen + seg, SBX_REVIEW_FILE_NAME) == 0)
                continue;
            else if (lm == SBX_TIME_UNKNOWN)
                known = false;
            else if (newest == SBX_TIME_UNKNOWN || lm > newest)
                newest = lm;
        }
        if (!known || manifest == SBX_TIME_UNKNOWN || (newest != SBX_TIME_UNKNOWN && newest > manifest))
            continue;
        for (size_t i = a; i < b; i++)
            if (!is_manifest_key(page->entries[i].key, plen, seg)) {
                skip[i] = true;
                skipped++;
            }
    }
    return skipped;
}

struct pool {
    const char *bucket;
    struct sbx_s3_config cfg;
    struct task *tasks;
    size_t ntasks;
    _Atomic size_t next, done;
    _Atomic size_t objects_in; /* whole objects in the cache */
    _Atomic unsigned long long bytes;
    _Atomic bool failed;
    pthread_mutex_t lock; /* warnings, and what the waiters below wait on */
    pthread_cond_t changed;
    /* over a folder of runs read behind its list: each row's objects not
     * yet in (by the row of struct job), and the first failure's reason */
    size_t *row_left;
    char why[256];
};

/* An object is in (or the pool failed): the waiters for its row look again. */
static void object_in(struct pool *p, const struct job *j)
{
    if (!p->row_left)
        return;
    pthread_mutex_lock(&p->lock);
    if (j->row != SIZE_MAX)
        p->row_left[j->row]--;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

static void pool_fail(struct pool *p, const char *msg)
{
    pthread_mutex_lock(&p->lock);
    warnf("%s", msg);
    if (!atomic_load(&p->failed)) {
        struct sbx_buf b = SBX_BUF_INIT; /* a row shows it: redacted, one line */
        sbx_untrusted_cstr(&b, msg, SBX_SAN_ONE_LINE, sizeof p->why - 1);
        snprintf(p->why, sizeof p->why, "not fetched: %s", b.p ? b.p : "");
        sbx_buf_free(&b);
    }
    atomic_store(&p->failed, true);
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

/* A part's bytes go into the cache file at their offsets as they arrive
 * (no part-sized buffer between: each of those was fresh memory to fault
 * in, 8 MiB a thread). */
struct part_file {
    int fd;
    uint64_t off;
    bool failed;
};

static bool part_write(void *ctx, const char *data, size_t n, uint64_t off)
{
    struct part_file *w = ctx;
    while (n) {
        ssize_t k = pwrite(w->fd, data, n, (off_t)(w->off + off));
        if (k <= 0) {
            w->failed = true;
            return false;
        }
        data += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return true;
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    char err[1024];
    struct sbx_s3 *s = sbx_s3_new(&p->cfg, err, sizeof err);
    if (!s)
        pool_fail(p, err);
    struct sbx_buf body = SBX_BUF_INIT;
    /* the first failure stops the pool: the run cannot be whole */
    for (size_t i; s && !atomic_load(&p->failed) && (i = atomic_fetch_add(&p->next, 1)) < p->ntasks;) {
        struct task *t = &p->tasks[i];
        struct job *j = t->j;
        char *etag = NULL;
        struct part_file pf = {.fd = j->fd, .off = t->off};
        enum sbx_s3_result r =
            t->len ? sbx_s3_get_range_to(s, p->bucket, j->e->key, t->off, t->len, part_write, &pf,
                                         &etag, err, sizeof err)
                   : sbx_s3_get(s, p->bucket, j->e->key, NULL, OBJECT_MAX, &body, &etag, err,
                                sizeof err);
        const char *why = NULL;
        bool whole = !t->len;
        if (pf.failed)
            why = "cannot be written into the cache";
        else if (r != SBX_S3_OK)
            why = err;
        else if (j->e->etag && etag && strcmp(j->e->etag, etag) != 0)
            why = "the object changed while it was read (its ETag is not the listing's): "
                  "read it again";
        else if (t->len && atomic_fetch_sub(&j->parts_left, 1) == 1) {
            whole = true; /* the last part: the file is whole */
            if (close(j->fd) != 0 || rename(j->tmp, j->local) != 0)
                why = "cannot be written into the cache";
            j->fd = -1;
        } else if (!t->len && (!mkparents(j->local) ||
                               !write_file(j->local, body.p ? body.p : "", body.len)))
            why = "cannot be written into the cache";
        if (!why && whole &&
            (!mkparents(j->etag_file) ||
             !write_file(j->etag_file, j->e->etag ? j->e->etag : "", j->e->etag ? strlen(j->e->etag) : 0)))
            why = "cannot be written into the cache";
        if (why) {
            struct sbx_buf m = SBX_BUF_INIT;
            if (why == err)
                sbx_buf_adds(&m, err);
            else
                sbx_buf_addf(&m, "s3://%s/%s: %s", p->bucket, j->e->key, why);
            pool_fail(p, m.p);
            sbx_buf_free(&m);
        } else {
            if (whole)
                stamp(j->local, j->e);
            atomic_fetch_add(&p->bytes, (unsigned long long)(t->len ? t->len : body.len));
            if (whole) {
                atomic_fetch_add(&p->objects_in, 1);
                object_in(p, j);
            }
        }
        free(etag);
        atomic_fetch_add(&p->done, 1);
    }
    sbx_buf_free(&body);
    sbx_s3_free(s);
    return NULL;
}

static void show_progress(const char *url, size_t done, size_t total, unsigned long long bytes,
                          bool last)
{
    char sz[SBX_NUM_BUFSZ];
    sbx_size_text((int64_t)bytes, sz);
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_untrusted_cstr(&b, url, SBX_SAN_ONE_LINE, 60);
    fprintf(stderr, "\r\033[Ksbxview: %s: %zu/%zu objects, %s%s", b.p ? b.p : "", done, total,
            sz + strspn(sz, " "), last ? "\n" : "");
    sbx_buf_free(&b);
}

/* --- removing cached files the listing no longer has ----------------------- */

static const char *const *listed_keys;
static size_t nlisted, objects_prefix_len;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int prune_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)f;
    if (flag != FTW_F || strlen(path) <= objects_prefix_len)
        return 0;
    const char *key = path + objects_prefix_len;
    if (!bsearch(&key, listed_keys, nlisted, sizeof *listed_keys, cmp_str) &&
        !strstr(key, ".part."))
        unlink(path);
    return 0;
}

/* --- one fetch: the listing, the plan, the pool ----------------------------- */

struct fetch {
    const char *url;
    char *bucket, *key, *root;
    struct sbx_s3_settings set;
    struct sbx_s3_config cfg;
    struct sbx_s3 *s;
    struct sbx_s3_page page;
    struct sbx_buf prefix;
    bool single;
    struct job *jobs;
    size_t njobs, unchanged, skipped;
    const char **keys;
    size_t nkeys;
    bool *skip;
    struct task *tasks;
    struct pool pool;
    pthread_t tid[SBX_S3_POOL];
    size_t nthreads;
    char *local; /* what to read: the object's file or the prefix's folder */
};

static void fetch_free(struct fetch *f)
{
    for (size_t i = 0; i < f->njobs; i++) {
        if (f->jobs[i].fd >= 0) { /* a large object not whole: its partial file goes */
            close(f->jobs[i].fd);
            unlink(f->jobs[i].tmp);
        }
        free(f->jobs[i].local);
        free(f->jobs[i].etag_file);
        free(f->jobs[i].tmp);
    }
    free(f->jobs);
    free(f->tasks);
    free(f->keys);
    free(f->skip);
    free(f->pool.row_left);
    free(f->local);
    sbx_buf_free(&f->prefix);
    sbx_s3xml_page_free(&f->page);
    sbx_s3_free(f->s);
    sbx_s3_settings_free(&f->set);
    free(f->root);
    free(f->bucket);
    free(f->key);
}

/* What a listing read only as far as the first screen needs leaves for
 * later: the next page's token (NULL: the listing is whole) and the keys of
 * the run that may go on in it. */
struct listing_rest {
    char *token;
    struct sbx_s3_entry *carry;
    size_t ncarry, cap;
};

/* The entries of page appended to *to (of *cap), moved: page is freed. */
static void take_entries(struct sbx_s3_entry **to, size_t *n, size_t *cap, struct sbx_s3_page *page)
{
    if (*n + page->n > *cap) {
        *cap = (*n + page->n) * 2;
        *to = sbx_xrealloc(*to, *cap * sizeof **to);
    }
    if (page->n)
        memcpy(*to + *n, page->entries, page->n * sizeof *page->entries);
    *n += page->n;
    page->n = 0;
    sbx_s3xml_page_free(page);
}

/* The listing's page after *token (NULL: the first) appended to *to (of *n,
 * *cap); *token becomes the next page's (NULL once the listing is whole). */
static enum sbx_s3_result next_page(const struct fetch *f, char **token, struct sbx_s3_entry **to,
                                    size_t *n, size_t *cap, char *err, size_t errsz)
{
    struct sbx_s3_page pg;
    enum sbx_s3_result r = sbx_s3_list_page(f->s, f->bucket, f->prefix.p ? f->prefix.p : "", NULL,
                                            *token, &pg, err, errsz);
    free(*token);
    *token = NULL;
    if (r != SBX_S3_OK)
        return r;
    if (pg.truncated) {
        *token = pg.next_token;
        pg.next_token = NULL;
    }
    take_entries(to, n, cap, &pg);
    return SBX_S3_OK;
}

/* How many of the entries belong to runs listed whole (importers/runs_keys.h). */
static size_t whole_runs(const struct sbx_s3_entry *e, size_t n, size_t plen, bool last,
                         size_t *runs)
{
    const char **keys = sbx_xmalloc((n ? n : 1) * sizeof *keys);
    for (size_t i = 0; i < n; i++)
        keys[i] = e[i].key;
    size_t k = sbx_runs_keys_whole(keys, n, plen, last);
    if (runs)
        *runs = sbx_runs_keys_count(keys, k, plen);
    free(keys);
    return k;
}

/* The listing's pages into f->page until they hold first_rows runs listed
 * whole or the listing ends; the rest (the next token, the keys of a run
 * not listed whole yet) into *rest. */
static bool list_first(struct fetch *f, size_t first_rows, struct listing_rest *rest, char *err,
                       size_t errsz)
{
    struct sbx_s3_page *page = &f->page;
    size_t cap = 0;
    memset(page, 0, sizeof *page);
    for (;;) {
        if (next_page(f, &rest->token, &page->entries, &page->n, &cap, err, errsz) != SBX_S3_OK)
            return false;
        size_t runs, k = whole_runs(page->entries, page->n, f->prefix.len, !rest->token, &runs);
        if (!rest->token || runs >= first_rows) {
            rest->ncarry = rest->cap = page->n - k;
            rest->carry = sbx_xmalloc((rest->cap ? rest->cap : 1) * sizeof *rest->carry);
            memcpy(rest->carry, page->entries + k, rest->ncarry * sizeof *rest->carry);
            page->n = k;
            return true;
        }
    }
}

/* What to fetch of f->page (jobs) and the keys it lists (keys): the review
 * and the logs a manifest stands for are not fetched, an unsafe key is
 * skipped with a warning, an object the cache has at the listed ETag is not
 * fetched again. */
static void plan_jobs(struct fetch *f)
{
    struct sbx_s3_page *page = &f->page;
    size_t n = f->single ? 1 : page->n;
    f->jobs = sbx_xcalloc(n ? n : 1, sizeof *f->jobs);
    f->keys = sbx_xcalloc(n ? n : 1, sizeof *f->keys);
    f->skip = sbx_xcalloc(n ? n : 1, sizeof *f->skip);
    f->skipped = f->single ? 0 : manifest_skips(page, f->prefix.len, f->skip);
    for (size_t i = 0; i < n; i++) {
        const struct sbx_s3_entry *e = &page->entries[i];
        /* the run's review is read from the store itself when it is read
         * (cli/review_cli.h), and may change under a reviewer at any time */
        const char *base = strrchr(e->key, '/');
        if (!f->single && strcmp(base ? base + 1 : e->key, SBX_REVIEW_FILE_NAME) == 0)
            f->skip[i] = true;
        if (f->skip[i] && safe_key(e->key)) {
            f->keys[f->nkeys++] = e->key; /* still listed: a cached copy stays */
            continue;
        }
        if (!safe_key(e->key)) {
            warnf("s3://%s/%s: skipped: the key is not a safe relative path", f->bucket, e->key);
            continue;
        }
        f->keys[f->nkeys++] = e->key;
        struct sbx_buf local = SBX_BUF_INIT, tag = SBX_BUF_INIT;
        sbx_buf_addf(&local, "%s/%s/objects/%s", f->root, f->bucket, e->key);
        sbx_buf_addf(&tag, "%s/%s/etags/%s", f->root, f->bucket, e->key);
        struct stat st;
        char *have = e->etag ? read_small(tag.p) : NULL;
        if (have && strcmp(have, e->etag) == 0 && stat(local.p, &st) == 0 &&
            (uint64_t)st.st_size == e->size) {
            f->unchanged++;
            stamp(local.p, e);
            sbx_buf_free(&local);
            sbx_buf_free(&tag);
        } else {
            f->jobs[f->njobs++] = (struct job){.e = e, .local = local.p, .etag_file = tag.p,
                                               .fd = -1, .row = SIZE_MAX};
        }
        free(have);
    }
}

/* Cached files under dir (a folder of the cache's objects/, whose path is
 * objects_len bytes) that keys[0..n) do not list are removed. */
static void prune(const char *dir, size_t objects_len, const char *const *keys, size_t n)
{
    const char **sorted = sbx_xmalloc((n ? n : 1) * sizeof *sorted);
    memcpy(sorted, keys, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_str);
    listed_keys = sorted, nlisted = n, objects_prefix_len = objects_len;
    nftw(dir, prune_one, 16, FTW_PHYS);
    free(sorted);
}

/* The run folders of f's keys pruned, each of what the listing does not
 * list in it (a listing read as far as the first screen: the runs after
 * are pruned as their keys come). */
static void prune_runs(const struct fetch *f, const char *objects, size_t objects_len)
{
    size_t plen = f->prefix.len;
    for (size_t a = 0, b; a < f->nkeys; a = b) {
        const char *k = f->keys[a];
        size_t seg = sbx_runs_key_folder(k, plen);
        for (b = a + 1; seg && b < f->nkeys && strncmp(f->keys[b], k, plen + seg) == 0; b++)
            ;
        if (!seg)
            continue;
        struct sbx_buf dir = SBX_BUF_INIT;
        sbx_buf_addf(&dir, "%s%.*s", objects, (int)(plen + seg - 1), k);
        prune(dir.p, objects_len, f->keys + a, b - a);
        sbx_buf_free(&dir);
    }
}

/* The listing (with rest, only as far as first_rows runs listed whole: the
 * rest of it is left in *rest), what to fetch of it (jobs), and the cache
 * pruned of what it no longer lists; false with the reason on stderr. */
static bool fetch_plan_first(struct fetch *f, const char *url, size_t first_rows,
                             struct listing_rest *rest)
{
    memset(f, 0, sizeof *f);
    f->url = url;
    if (!sbx_s3_parse_url(url, &f->bucket, &f->key)) {
        warnf("%s: not an s3://BUCKET/PREFIX URL (a bucket name is 3-63 of a-z 0-9 . -)", url);
        return false;
    }
    f->root = cache_root();
    sbx_s3_settings_read(&f->set, sbx_s3_endpoint_arg);
    f->cfg = sbx_s3_settings_config(&f->set);
    char err[1024];
    if (!f->root) {
        warnf("%s: no cache folder (set XDG_CACHE_HOME or HOME)", url);
        return false;
    }
    if (!(f->s = sbx_s3_new(&f->cfg, err, sizeof err))) {
        warnf("%s: %s", url, err);
        return false;
    }
    /* a prefix that is one object's key is that object; else a folder */
    const char *key = f->key;
    struct sbx_s3_page *page = &f->page;
    sbx_buf_adds(&f->prefix, key);
    if (*key && key[strlen(key) - 1] != '/') {
        if (sbx_s3_list(f->s, f->bucket, key, "/", page, err, sizeof err) != SBX_S3_OK) {
            warnf("%s", err);
            return false;
        }
        for (size_t i = 0; i < page->n && !f->single; i++)
            f->single = strcmp(page->entries[i].key, key) == 0;
        if (f->single) {
            for (size_t i = 0; i < page->n; i++)
                if (strcmp(page->entries[i].key, key) == 0 && i) {
                    struct sbx_s3_entry t = page->entries[0];
                    page->entries[0] = page->entries[i];
                    page->entries[i] = t;
                }
        } else {
            sbx_s3xml_page_free(page);
            sbx_buf_addc(&f->prefix, '/');
        }
    }
    if (!f->single &&
        !(rest ? list_first(f, first_rows, rest, err, sizeof err)
               : sbx_s3_list(f->s, f->bucket, f->prefix.p ? f->prefix.p : "", NULL, page, err,
                             sizeof err) == SBX_S3_OK)) {
        warnf("%s", err);
        return false;
    }
    bool partial = rest && rest->token;
    if ((f->single ? 1 : page->n) == 0 && !partial) {
        warnf("%s: no object under it", url);
        return false;
    }
    plan_jobs(f);
    if (!f->nkeys && !partial) {
        warnf("%s: no object with a key the cache can hold", url);
        return false;
    }
    /* cached files the listing no longer has go before anything is read, so
     * a run folder never mixes in stale files */
    struct sbx_buf path = SBX_BUF_INIT;
    sbx_buf_addf(&path, "%s/%s/objects/", f->root, f->bucket);
    if (!f->single) {
        size_t objects_len = path.len;
        char *objects = sbx_xstrndup(path.p, path.len);
        sbx_buf_adds(&path, f->prefix.p ? f->prefix.p : "");
        while (path.len && path.p[path.len - 1] == '/')
            path.p[--path.len] = '\0';
        mkdirs(path.p);
        if (partial)
            prune_runs(f, objects, objects_len);
        else
            prune(path.p, objects_len, f->keys, f->nkeys);
        free(objects);
    } else {
        sbx_buf_adds(&path, key);
    }
    f->local = path.p;
    return true;
}

static bool fetch_plan(struct fetch *f, const char *url)
{
    return fetch_plan_first(f, url, 0, NULL);
}

static int job_row_cmp(const void *a, const void *b)
{
    const struct job *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return x->e < y->e ? -1 : x->e > y->e; /* then in the listing's order */
}

/* The tasks (each object whole, a large one in parts into a file of its
 * size), in the jobs' order, and the pool started on them. */
static void fetch_start(struct fetch *f)
{
    size_t ntasks = 0;
    for (size_t i = 0; i < f->njobs; i++)
        ntasks += f->jobs[i].e->size > 2 * PART_BYTES
                      ? (f->jobs[i].e->size + PART_BYTES - 1) / PART_BYTES : 1;
    f->tasks = sbx_xcalloc(ntasks ? ntasks : 1, sizeof *f->tasks);
    size_t nt = 0;
    bool prepared = true;
    for (size_t i = 0; i < f->njobs; i++) {
        struct job *j = &f->jobs[i];
        uint64_t size = j->e->size;
        if (size <= 2 * PART_BYTES) {
            f->tasks[nt++] = (struct task){.j = j};
            continue;
        }
        struct sbx_buf tmp = SBX_BUF_INIT;
        sbx_buf_addf(&tmp, "%s.part.%ld", j->local, (long)getpid());
        j->tmp = tmp.p;
        j->fd = mkparents(j->local) ? open(j->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
        if (j->fd < 0 || ftruncate(j->fd, (off_t)size) != 0) {
            warnf("s3://%s/%s: cannot be written into the cache", f->bucket, j->e->key);
            prepared = false;
        }
        size_t parts = (size_t)((size + PART_BYTES - 1) / PART_BYTES);
        atomic_init(&j->parts_left, parts);
        for (size_t k = 0; k < parts; k++) {
            uint64_t off = k * PART_BYTES;
            f->tasks[nt++] = (struct task){.j = j, .off = off,
                                           .len = size - off < PART_BYTES ? size - off : PART_BYTES};
        }
    }
    struct pool *p = &f->pool;
    p->bucket = f->bucket;
    p->cfg = f->cfg;
    p->tasks = f->tasks;
    p->ntasks = prepared ? nt : 0;
    if (!prepared) {
        atomic_init(&p->failed, true);
        snprintf(p->why, sizeof p->why, "not fetched: the cache cannot be written");
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->changed, NULL);
    f->nthreads = p->ntasks < SBX_S3_POOL ? p->ntasks : SBX_S3_POOL;
    for (size_t t = 0; t < f->nthreads; t++)
        if (pthread_create(&f->tid[t], NULL, worker, p) != 0) {
            f->nthreads = t;
            break;
        }
    if (p->ntasks && !f->nthreads) /* no thread could start: the fetch happens here */
        worker(p);
}

/* Waits for the pool (progress on stderr when it is a terminal and quiet is
 * false); true when every object is in. */
static bool fetch_wait(struct fetch *f, bool quiet)
{
    struct pool *p = &f->pool;
    bool show = !quiet && isatty(STDERR_FILENO) && p->ntasks;
    while (show && atomic_load(&p->done) < p->ntasks && !atomic_load(&p->failed)) {
        show_progress(f->url, atomic_load(&p->done), p->ntasks, atomic_load(&p->bytes), false);
        nanosleep(&(struct timespec){0, 100000000L}, NULL);
    }
    for (size_t t = 0; t < f->nthreads; t++)
        pthread_join(f->tid[t], NULL);
    f->nthreads = 0;
    if (show)
        show_progress(f->url, p->ntasks, p->ntasks, atomic_load(&p->bytes), true);
    return !atomic_load(&p->failed);
}

char *sbx_s3_fetch(const char *url, bool quiet, struct sbx_s3_fetch_stats *stats)
{
    struct fetch f;
    char *result = NULL;
    if (fetch_plan(&f, url)) {
        fetch_start(&f);
        bool whole = fetch_wait(&f, quiet);
        if (stats)
            *stats = (struct sbx_s3_fetch_stats){.objects = f.nkeys, .fetched = f.njobs,
                                                 .unchanged = f.unchanged,
                                                 .manifested = f.skipped,
                                                 .bytes = atomic_load(&f.pool.bytes)};
        pthread_mutex_destroy(&f.pool.lock);
        pthread_cond_destroy(&f.pool.changed);
        if (whole) {
            result = f.local;
            f.local = NULL;
        }
    }
    fetch_free(&f);
    return result;
}

/* --- a folder of runs, read behind its list -------------------------------- */

/* The objects of rows [first_row, first_row + nrows), fetched by f's pool. */
struct batch {
    struct fetch *f;
    size_t first_row, nrows;
};

struct sbx_s3_behind {
    struct fetch f;
    _Atomic bool stop;
    bool started; /* the pool (its lock, its threads) */
    /* a listing read behind the list, page after page: the list it grows,
     * what the first pages left, the batches of rows fetched so far (the
     * first is f's), the name the rows' files go by */
    struct sbx_runs *runs;
    struct listing_rest rest;
    pthread_t lister;
    bool listing;
    pthread_mutex_t lock; /* the batches */
    struct batch *batches;
    size_t nbatches, bcap;
    char *root_name, *last_name;
    const char **all_keys; /* every key listed, for the last prune */
    size_t nall, allcap;
};

/* The run a key lies in, directly (PREFIX/RUN/NAME): its name's length,
 * else 0 (a key directly under the prefix, or deeper in a run). */
static size_t run_of(const char *key, size_t plen)
{
    size_t seg = sbx_runs_key_folder(key, plen);
    return seg && !strchr(key + plen + seg, '/') ? seg - 1 : 0;
}

static int cmp_row_name(const void *a, const void *b)
{
    return strcmp(((const struct sbx_run_row *)a)->name, ((const struct sbx_run_row *)b)->name);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The fetch of row i's objects (the first batch's before the lister runs). */
static struct fetch *batch_of(struct sbx_s3_behind *b, size_t i)
{
    if (!b->listing)
        return &b->f;
    struct fetch *f = &b->f;
    pthread_mutex_lock(&b->lock);
    for (size_t k = 0; k < b->nbatches; k++)
        if (i >= b->batches[k].first_row && i < b->batches[k].first_row + b->batches[k].nrows)
            f = b->batches[k].f;
    pthread_mutex_unlock(&b->lock);
    return f;
}

static bool await_run(void *ctx, size_t i, const _Atomic bool *stop, char *why, size_t whysz)
{
    struct sbx_s3_behind *b = ctx;
    struct pool *p = &batch_of(b, i)->pool;
    pthread_mutex_lock(&p->lock);
    while (p->row_left[i] && !atomic_load(&p->failed) && !atomic_load(stop) &&
           !atomic_load(&b->stop)) {
        /* the stop flags are not signalled: looked at often */
        struct timespec until = sbx_realtime_in(50000000L);
        pthread_cond_timedwait(&p->changed, &p->lock, &until);
    }
    bool in = !p->row_left[i];
    if (!in)
        snprintf(why, whysz, "%s", atomic_load(&p->failed) ? p->why : "not fetched: stopped");
    pthread_mutex_unlock(&p->lock);
    return in;
}

/* The listing's runs as rows (by name, as importers/runs.h orders them),
 * each job given its row; false when some object lies directly under the
 * prefix or deeper than a run's folder would (the local rule decides then,
 * over the whole folder). */
static bool plan_rows(struct sbx_s3_behind *b, struct sbx_runs *runs)
{
    struct fetch *f = &b->f;
    size_t plen = f->prefix.len;
    sbx_runs_init(runs, f->local);
    for (size_t i = 0; i < f->page.n; i++) {
        const char *k = f->page.entries[i].key;
        size_t seg = run_of(k, plen);
        if (!seg)
            return false;
        /* a run folder is a subfolder, not hidden, holding a file (not the
         * review, which is never fetched); a run's keys are together */
        const char *base = k + plen + seg + 1;
        if (k[plen] == '.' || !safe_key(k) || strcmp(base, SBX_REVIEW_FILE_NAME) == 0)
            continue;
        if (runs->n && strncmp(runs->rows[runs->n - 1].name, k + plen, seg) == 0 &&
            !runs->rows[runs->n - 1].name[seg])
            continue;
        struct sbx_buf name = SBX_BUF_INIT, path = SBX_BUF_INIT;
        sbx_buf_add(&name, k + plen, seg);
        sbx_buf_addf(&path, "%s/%s", f->local, name.p);
        sbx_runs_add(runs, name.p, path.p);
        sbx_buf_free(&name);
        sbx_buf_free(&path);
    }
    if (!runs->n)
        return false;
    qsort(runs->rows, runs->n, sizeof *runs->rows, cmp_row_name);
    b->root_name = sbx_s3_source_name(f->url, true); /* the rows' files named by URL */
    sbx_runs_sources_under(runs, b->root_name);
    f->pool.row_left = sbx_xcalloc(runs->n, sizeof *f->pool.row_left);
    for (size_t i = 0; i < f->njobs; i++) {
        struct job *j = &f->jobs[i];
        size_t seg = run_of(j->e->key, plen);
        char name[1025];
        snprintf(name, sizeof name, "%.*s", (int)seg, j->e->key + plen);
        struct sbx_run_row want = {.name = name};
        struct sbx_run_row *row = bsearch(&want, runs->rows, runs->n, sizeof *runs->rows,
                                          cmp_row_name);
        if (row) {
            j->row = (size_t)(row - runs->rows);
            f->pool.row_left[j->row]++;
        }
    }
    /* the first rows' objects first: the list's first screen fills first */
    qsort(f->jobs, f->njobs, sizeof *f->jobs, job_row_cmp);
    b->last_name = runs->n ? sbx_xstrndup(runs->rows[runs->n - 1].name,
                                          strlen(runs->rows[runs->n - 1].name)) : NULL;
    return true;
}

static void keep_keys(struct sbx_s3_behind *b, const struct fetch *f)
{
    for (size_t i = 0; i < f->nkeys; i++) {
        SBX_GROW(b->all_keys, b->nall, b->allcap);
        b->all_keys[b->nall++] = f->keys[i];
    }
}

/* A later page's runs listed whole (n entries, moved from the carry) as a
 * batch: its fetch planned (not started), its runs' folders pruned, its
 * rows named in *names (the runs after the list's last, in order; a key
 * not in a run's folder is left out with a warning), its jobs given their
 * rows from first_row on. */
static struct fetch *plan_batch(struct sbx_s3_behind *b, size_t n, size_t first_row,
                                char ***names, size_t *nrows)
{
    const struct fetch *f0 = &b->f;
    struct fetch *f = sbx_xcalloc(1, sizeof *f);
    f->url = f0->url;
    f->bucket = sbx_xstrndup(f0->bucket, strlen(f0->bucket));
    f->root = sbx_xstrndup(f0->root, strlen(f0->root));
    f->cfg = f0->cfg; /* its strings are f0's settings', which outlive it */
    sbx_buf_adds(&f->prefix, f0->prefix.p ? f0->prefix.p : "");
    f->page.entries = sbx_xmalloc((n ? n : 1) * sizeof *f->page.entries);
    memcpy(f->page.entries, b->rest.carry, n * sizeof *f->page.entries);
    f->page.n = n;
    b->rest.ncarry -= n;
    memmove(b->rest.carry, b->rest.carry + n, b->rest.ncarry * sizeof *b->rest.carry);
    plan_jobs(f);
    struct sbx_buf objects = SBX_BUF_INIT;
    sbx_buf_addf(&objects, "%s/%s/objects/", f->root, f->bucket);
    prune_runs(f, objects.p, objects.len);
    sbx_buf_free(&objects);
    keep_keys(b, f);
    size_t plen = f->prefix.len, cap = 0;
    *names = NULL;
    *nrows = 0;
    for (size_t i = 0; i < n; i++) {
        const char *k = f->page.entries[i].key;
        size_t seg = run_of(k, plen);
        if (!seg) {
            struct sbx_buf m = SBX_BUF_INIT;
            sbx_untrusted_cstr(&m, k, SBX_SAN_ONE_LINE, 300);
            warnf("s3://%s/%s: left out of the runs list: not in a run's folder", f->bucket,
                  m.p ? m.p : "");
            sbx_buf_free(&m);
            continue;
        }
        const char *base = k + plen + seg + 1;
        if (k[plen] == '.' || !safe_key(k) || strcmp(base, SBX_REVIEW_FILE_NAME) == 0)
            continue;
        char name[1025];
        snprintf(name, sizeof name, "%.*s", (int)seg, k + plen);
        /* in the store's order each run comes after the last: one that
         * does not (a store listing out of order) is not a second row */
        if (b->last_name && strcmp(name, b->last_name) <= 0)
            continue;
        free(b->last_name);
        b->last_name = sbx_xstrndup(name, strlen(name));
        SBX_GROW(*names, *nrows, cap);
        (*names)[(*nrows)++] = sbx_xstrndup(name, strlen(name));
    }
    f->pool.row_left = sbx_xcalloc(first_row + *nrows + 1, sizeof *f->pool.row_left);
    size_t kept = 0;
    for (size_t i = 0; i < f->njobs; i++) {
        struct job *j = &f->jobs[i];
        size_t seg = run_of(j->e->key, plen);
        char name[1025];
        snprintf(name, sizeof name, "%.*s", (int)seg, j->e->key + plen);
        const char *want = name;
        /* the names ascend (each after the last, above): found by halves */
        char **row = seg ? bsearch(&want, *names, *nrows, sizeof **names, cmp_name) : NULL;
        if (!row) { /* no row's: not fetched */
            free(j->local);
            free(j->etag_file);
            continue;
        }
        j->row = first_row + (size_t)(row - *names);
        f->pool.row_left[j->row]++;
        f->jobs[kept++] = *j;
    }
    f->njobs = kept;
    return f;
}

/* The listing's later pages, behind the list: each page's runs listed
 * whole are fetched once the batch before is in, and offered to the list
 * as their fetch starts; the cache pruned of what the whole listing does
 * not hold at its end. */
static void *lister(void *arg)
{
    struct sbx_s3_behind *b = arg;
    struct fetch *f0 = &b->f, *prev = f0;
    size_t plen = f0->prefix.len, next_row = b->runs->n;
    char err[1024];
    const char *failed = NULL;
    bool warned = false;
    while (b->rest.token && !atomic_load(&b->stop)) {
        if (next_page(f0, &b->rest.token, &b->rest.carry, &b->rest.ncarry, &b->rest.cap, err,
                      sizeof err) != SBX_S3_OK) {
            failed = err;
            break;
        }
        size_t k = whole_runs(b->rest.carry, b->rest.ncarry, plen, !b->rest.token, NULL);
        if (!k)
            continue;
        char **names;
        size_t nrows;
        struct fetch *f = plan_batch(b, k, next_row, &names, &nrows);
        size_t named = nrows;
        bool in = fetch_wait(prev, true); /* one pool at a time: its threads joined */
        if (!in && !atomic_load(&b->stop)) { /* an object failed: said by the pool already */
            snprintf(err, sizeof err, "%s", prev->pool.why);
            failed = err;
            warned = true;
        }
        pthread_mutex_lock(&b->lock);
        SBX_GROW(b->batches, b->nbatches, b->bcap);
        b->batches[b->nbatches++] = (struct batch){f, next_row, nrows};
        pthread_mutex_unlock(&b->lock);
        if (in)
            fetch_start(f);
        else
            nrows = 0; /* a failed object stops the fetch: the rows after are not shown */
        for (size_t i = 0; i < nrows; i++) {
            struct sbx_buf path = SBX_BUF_INIT, source = SBX_BUF_INIT;
            size_t rn = strlen(b->root_name);
            sbx_buf_addf(&path, "%s/%s", f0->local, names[i]);
            sbx_buf_addf(&source, "%s%s%s/", b->root_name, rn && b->root_name[rn - 1] == '/' ? "" : "/",
                         names[i]);
            sbx_runs_offer(b->runs, names[i], path.p, source.p);
            sbx_buf_free(&path);
            sbx_buf_free(&source);
        }
        for (size_t i = 0; i < named; i++)
            free(names[i]);
        free(names);
        next_row += nrows;
        prev = f;
        if (!in)
            break;
    }
    if (!failed && !atomic_load(&b->stop)) { /* the whole listing: what it lacks goes */
        struct sbx_buf dir = SBX_BUF_INIT;
        sbx_buf_addf(&dir, "%s/%s/objects/", f0->root, f0->bucket);
        size_t objects_len = dir.len;
        keep_keys(b, f0);
        prune(f0->local, objects_len, b->all_keys, b->nall);
        sbx_buf_free(&dir);
    }
    if (failed && !atomic_load(&b->stop)) {
        if (!warned)
            warnf("%s", failed);
        struct sbx_buf m = SBX_BUF_INIT; /* the status line shows it: redacted, one line */
        sbx_untrusted_cstr(&m, failed, SBX_SAN_ONE_LINE, 200);
        sbx_runs_offer_end(b->runs, m.p ? m.p : "");
        sbx_buf_free(&m);
    } else {
        sbx_runs_offer_end(b->runs, atomic_load(&b->stop) ? "stopped" : NULL);
    }
    return NULL;
}

static struct sbx_s3_behind *fetch_runs(const char *url, struct sbx_runs *runs, bool *as_list,
                                        size_t first_rows)
{
    *as_list = false;
    struct sbx_s3_behind *b = sbx_xcalloc(1, sizeof *b);
    if (!fetch_plan_first(&b->f, url, first_rows, first_rows ? &b->rest : NULL)) {
        fetch_free(&b->f);
        free(b->rest.token);
        free(b->rest.carry); /* its entries' strings are the first page's: freed with it */
        free(b);
        return NULL;
    }
    struct sbx_runs rows = {0};
    bool as_runs = !b->f.single && plan_rows(b, &rows);
    if (b->rest.token && !as_runs) {
        /* not a plain folder of runs as far as listed: read the whole
         * listing and decide over it, as without a first screen */
        sbx_runs_free(&rows);
        sbx_s3_behind_free(b);
        return fetch_runs(url, runs, as_list, 0);
    }
    sbx_s3_behind_start(b);
    char why[160];
    /* the first run in: its files tell whether this is a folder of runs;
     * when they hold no log, the later runs' may (the rule is over them
     * all): the whole is fetched first then, and the rule asked again */
    struct sbx_runs found;
    if (as_runs && await_run(b, 0, &b->stop, why, sizeof why) &&
        (sbx_runs_discover(b->f.local, &found) ||
         (fetch_wait(&b->f, false) && sbx_runs_discover(b->f.local, &found)))) {
        sbx_runs_free(&found);
        *runs = rows;
        runs->await_run = await_run;
        runs->await_ctx = b;
        *as_list = true;
        if (b->rest.token) { /* the rest of the listing, behind the list */
            b->runs = runs;
            sbx_runs_expect_more(runs);
            pthread_mutex_init(&b->lock, NULL);
            b->listing = pthread_create(&b->lister, NULL, lister, b) == 0;
            if (!b->listing) {
                pthread_mutex_destroy(&b->lock);
                sbx_runs_offer_end(runs, "the listing could not go on (no thread)");
            }
        }
        return b;
    }
    sbx_runs_free(&rows);
    if (b->rest.token) { /* not a folder of runs after all: its whole listing decides */
        sbx_s3_behind_free(b);
        return fetch_runs(url, runs, as_list, 0);
    }
    return b; /* a run, an object: fetched whole behind */
}

struct sbx_s3_behind *sbx_s3_fetch_runs(const char *url, struct sbx_runs *runs, bool *as_list,
                                        size_t first_rows)
{
    return fetch_runs(url, runs, as_list, first_rows);
}

struct sbx_s3_behind *sbx_s3_fetch_planned(const char *url)
{
    struct sbx_s3_behind *b = sbx_xcalloc(1, sizeof *b);
    if (!fetch_plan(&b->f, url)) {
        fetch_free(&b->f);
        free(b);
        return NULL;
    }
    return b;
}

void sbx_s3_behind_start(struct sbx_s3_behind *b)
{
    if (b->started)
        return;
    fetch_start(&b->f);
    b->started = true;
}

bool sbx_s3_behind_done(struct sbx_s3_behind *b)
{
    struct pool *p = &b->f.pool;
    return b->started && (atomic_load(&p->done) >= p->ntasks || atomic_load(&p->failed));
}

void sbx_s3_behind_progress(struct sbx_s3_behind *b, size_t *in, size_t *total,
                            unsigned long long *bytes)
{
    *in = atomic_load(&b->f.pool.objects_in);
    *total = b->f.njobs;
    *bytes = atomic_load(&b->f.pool.bytes);
}

char *sbx_s3_behind_wait(struct sbx_s3_behind *b, bool quiet)
{
    sbx_s3_behind_start(b);
    if (!fetch_wait(&b->f, quiet))
        return NULL;
    char *local = b->f.local;
    b->f.local = NULL;
    return local;
}

void sbx_s3_behind_free(struct sbx_s3_behind *b)
{
    if (!b)
        return;
    atomic_store(&b->stop, true);
    if (b->listing) { /* the listing stops after the page under way */
        atomic_store(&b->f.pool.failed, true); /* a lister waiting on a pool waits no more */
        pthread_mutex_lock(&b->lock);
        for (size_t k = 0; k < b->nbatches; k++)
            atomic_store(&b->batches[k].f->pool.failed, true);
        pthread_mutex_unlock(&b->lock);
        pthread_join(b->lister, NULL);
        for (size_t k = 0; k < b->nbatches; k++) {
            struct fetch *f = b->batches[k].f;
            bool started = f->pool.tasks != NULL;
            atomic_store(&f->pool.failed, true);
            for (size_t t = 0; t < f->nthreads; t++)
                pthread_join(f->tid[t], NULL);
            if (started) {
                pthread_mutex_destroy(&f->pool.lock);
                pthread_cond_destroy(&f->pool.changed);
            }
            fetch_free(f);
            free(f);
        }
        pthread_mutex_destroy(&b->lock);
    }
    free(b->batches);
    free(b->all_keys);
    free(b->root_name);
    free(b->last_name);
    free(b->rest.token);
    for (size_t i = 0; i < b->rest.ncarry; i++) {
        free(b->rest.carry[i].key);
        free(b->rest.carry[i].etag);
        free(b->rest.carry[i].last_modified);
    }
    free(b->rest.carry);
    atomic_store(&b->f.pool.failed, true); /* the workers end after their current GET */
    for (size_t t = 0; t < b->f.nthreads; t++)
        pthread_join(b->f.tid[t], NULL);
    if (b->started) {
        pthread_mutex_destroy(&b->f.pool.lock);
        pthread_cond_destroy(&b->f.pool.changed);
    }
    fetch_free(&b->f);
    free(b);
}

bool sbx_s3_write(const char *url, const void *data, size_t n, const char *content_type)
{
    char *bucket, *key;
    if (!sbx_s3_parse_url(url, &bucket, &key) || !*key || key[strlen(key) - 1] == '/') {
        warnf("%s: not an s3://BUCKET/KEY URL of an object", url);
        if (bucket) {
            free(bucket);
            free(key);
        }
        return false;
    }
    struct sbx_s3_settings set;
    sbx_s3_settings_read(&set, sbx_s3_endpoint_arg);
    struct sbx_s3_config cfg = sbx_s3_settings_config(&set);
    char err[1024];
    struct sbx_s3 *s = sbx_s3_new(&cfg, err, sizeof err);
    bool ok = s && sbx_s3_put(s, bucket, key, data, n, content_type, err, sizeof err) == SBX_S3_OK;
    if (!ok)
        warnf("%s", err);
    sbx_s3_free(s);
    sbx_s3_settings_free(&set);
    free(bucket);
    free(key);
    return ok;
}

/* A client for the object url names (s3://bucket/key, not a prefix): false
 * with the reason on stderr. *set, *bucket and *key are the caller's to
 * free (close_object) whatever the answer. */
static bool open_object(const char *url, struct sbx_s3_settings *set, struct sbx_s3 **s,
                        char **bucket, char **key)
{
    *s = NULL;
    *bucket = *key = NULL;
    sbx_s3_settings_read(set, sbx_s3_endpoint_arg);
    if (!sbx_s3_parse_url(url, bucket, key) || !**key || (*key)[strlen(*key) - 1] == '/') {
        warnf("%s: not an s3://BUCKET/KEY URL of an object", url);
        return false;
    }
    struct sbx_s3_config cfg = sbx_s3_settings_config(set);
    char err[1024];
    *s = sbx_s3_new(&cfg, err, sizeof err);
    if (!*s)
        warnf("%s: %s", url, err);
    return *s != NULL;
}

static void close_object(struct sbx_s3_settings *set, struct sbx_s3 *s, char *bucket, char *key)
{
    sbx_s3_free(s);
    sbx_s3_settings_free(set);
    free(bucket);
    free(key);
}

bool sbx_s3_read(const char *url, size_t max, struct sbx_buf *out, bool *missing)
{
    struct sbx_s3_settings set;
    struct sbx_s3 *s;
    char *bucket, *key, *etag = NULL, err[1024];
    *missing = false;
    bool ok = open_object(url, &set, &s, &bucket, &key);
    if (ok) {
        enum sbx_s3_result r = sbx_s3_get(s, bucket, key, NULL, max, out, &etag, err, sizeof err);
        *missing = r == SBX_S3_NOT_FOUND;
        ok = r == SBX_S3_OK || *missing;
        if (!ok)
            warnf("%s", err);
    }
    free(etag);
    close_object(&set, s, bucket, key);
    return ok;
}

bool sbx_s3_append(const char *url, const void *data, size_t n, const char *content_type)
{
    struct sbx_s3_settings set;
    struct sbx_s3 *s;
    char *bucket, *key, err[1024];
    bool ok = open_object(url, &set, &s, &bucket, &key);
    if (ok && sbx_s3_append_object(s, bucket, key, data, n, content_type, OBJECT_MAX, err,
                                   sizeof err) != SBX_S3_OK) {
        warnf("%s", err);
        ok = false;
    }
    close_object(&set, s, bucket, key);
    return ok;
}

bool sbx_s3_upload(const char *prefix_url, const char *dir, const char *const *names, size_t n,
                   bool force)
{
    char *bucket, *key;
    if (!sbx_s3_parse_url(prefix_url, &bucket, &key)) {
        warnf("%s: not an s3://BUCKET/PREFIX URL", prefix_url);
        return false;
    }
    struct sbx_buf prefix = SBX_BUF_INIT;
    sbx_buf_adds(&prefix, key);
    if (prefix.len && prefix.p[prefix.len - 1] != '/')
        sbx_buf_addc(&prefix, '/');
    struct sbx_s3_settings set;
    sbx_s3_settings_read(&set, sbx_s3_endpoint_arg);
    struct sbx_s3_config cfg = sbx_s3_settings_config(&set);
    char err[1024];
    struct sbx_s3 *s = sbx_s3_new(&cfg, err, sizeof err);
    struct sbx_s3_page page = {0};
    bool ok = s != NULL;
    if (!ok)
        warnf("%s: %s", prefix_url, err);
    /* without force, an object of the same name is an error before anything is written */
    if (ok && !force) {
        ok = sbx_s3_list(s, bucket, prefix.p ? prefix.p : "", "/", &page, err, sizeof err) ==
             SBX_S3_OK;
        if (!ok)
            warnf("%s", err);
        for (size_t i = 0; ok && i < page.n; i++)
            for (size_t k = 0; k < n; k++)
                if (strcmp(page.entries[i].key + prefix.len, names[k]) == 0) {
                    warnf("s3://%s/%s: already in the store (--force replaces it)", bucket,
                          page.entries[i].key);
                    ok = false;
                }
    }
    for (size_t k = 0; ok && k < n; k++) {
        struct sbx_buf path = SBX_BUF_INIT, obj = SBX_BUF_INIT;
        sbx_buf_addf(&path, "%s/%s", dir, names[k]);
        sbx_buf_addf(&obj, "%s%s", prefix.p ? prefix.p : "", names[k]);
        struct sbx_buf data = SBX_BUF_INIT;
        FILE *fp = fopen(path.p, "rb");
        char chunk[65536];
        size_t got;
        while (fp && (got = fread(chunk, 1, sizeof chunk, fp)) > 0)
            sbx_buf_add(&data, chunk, got);
        if (!fp || ferror(fp)) {
            warnf("%s: cannot be read", path.p);
            ok = false;
        } else {
            enum sbx_s3_result r = sbx_s3_put_if(s, bucket, obj.p, data.p ? data.p : "", data.len,
                                                 "application/json", force ? NULL : "*", err,
                                                 sizeof err);
            if (r == SBX_S3_PRECONDITION)
                warnf("s3://%s/%s: appeared in the store meanwhile (--force replaces it)", bucket,
                      obj.p);
            else if (r != SBX_S3_OK)
                warnf("%s", err);
            ok = r == SBX_S3_OK;
        }
        if (fp)
            fclose(fp);
        sbx_buf_free(&data);
        sbx_buf_free(&path);
        sbx_buf_free(&obj);
    }
    sbx_s3xml_page_free(&page);
    sbx_s3_free(s);
    sbx_s3_settings_free(&set);
    sbx_buf_free(&prefix);
    free(bucket);
    free(key);
    return ok;
}
