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
#include "base/numfmt.h"
#include "base/s3.h"
#include "base/s3_append.h"
#include "base/timefmt.h"
#include "cli/cli_util.h"
#include "cli/s3_settings.h"
#include "importers/runs_manifest.h"
#include "model/review.h"
#include "render/sanitize.h"
#include "render/untrusted.h"

#define OBJECT_MAX ((size_t)4 << 30)

bool sbx_is_s3_url(const char *s)
{
    return s && strncmp(s, "s3://", 5) == 0;
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

static bool mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(path, 0700);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return false;
    }
    return mkdir(path, 0700) == 0 || errno == EEXIST;
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

/* The length of the run segment of key below a prefix of plen bytes
 * ("run-7/" of "runs/run-7/agent-run.jsonl"), 0 when the key lies directly
 * under the prefix. */
static size_t run_segment(const char *key, size_t plen)
{
    const char *slash = strchr(key + plen, '/');
    return slash ? (size_t)(slash - key) + 1 - plen : 0;
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
        if (!run_segment(page->entries[i].key, plen))
            return 0; /* a run itself, or a mixed folder: everything is read */
    size_t skipped = 0;
    for (size_t a = 0, b; a < page->n; a = b) {
        const char *ka = page->entries[a].key;
        size_t seg = run_segment(ka, plen);
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
    _Atomic unsigned long long bytes;
    _Atomic bool failed;
    pthread_mutex_t lock;
};

static void *worker(void *arg)
{
    struct pool *p = arg;
    char err[1024];
    struct sbx_s3 *s = sbx_s3_new(&p->cfg, err, sizeof err);
    if (!s) {
        pthread_mutex_lock(&p->lock);
        warnf("%s", err);
        pthread_mutex_unlock(&p->lock);
        atomic_store(&p->failed, true);
    }
    struct sbx_buf body = SBX_BUF_INIT;
    /* the first failure stops the pool: the run cannot be whole */
    for (size_t i; s && !atomic_load(&p->failed) && (i = atomic_fetch_add(&p->next, 1)) < p->ntasks;) {
        struct task *t = &p->tasks[i];
        struct job *j = t->j;
        char *etag = NULL;
        enum sbx_s3_result r =
            t->len ? sbx_s3_get_range(s, p->bucket, j->e->key, t->off, t->len, &body, &etag, err,
                                      sizeof err)
                   : sbx_s3_get(s, p->bucket, j->e->key, NULL, OBJECT_MAX, &body, &etag, err,
                                sizeof err);
        const char *why = NULL;
        bool whole = !t->len;
        if (r != SBX_S3_OK)
            why = err;
        else if (j->e->etag && etag && strcmp(j->e->etag, etag) != 0)
            why = "the object changed while it was read (its ETag is not the listing's): "
                  "read it again";
        else if (t->len && (body.len != t->len ||
                            pwrite(j->fd, body.p, body.len, (off_t)t->off) != (ssize_t)body.len))
            why = "cannot be written into the cache";
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
            pthread_mutex_lock(&p->lock);
            if (why == err)
                warnf("%s", err);
            else
                warnf("s3://%s/%s: %s", p->bucket, j->e->key, why);
            pthread_mutex_unlock(&p->lock);
            atomic_store(&p->failed, true);
        } else {
            if (whole)
                stamp(j->local, j->e);
            atomic_fetch_add(&p->bytes, (unsigned long long)body.len);
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

char *sbx_s3_fetch(const char *url, bool quiet, struct sbx_s3_fetch_stats *stats)
{
    char *bucket, *key;
    if (!sbx_s3_parse_url(url, &bucket, &key)) {
        warnf("%s: not an s3://BUCKET/PREFIX URL (a bucket name is 3-63 of a-z 0-9 . -)", url);
        return NULL;
    }
    char *root = cache_root(), *result = NULL;
    struct sbx_s3_settings set;
    sbx_s3_settings_read(&set, sbx_s3_endpoint_arg);
    struct sbx_s3_config cfg = sbx_s3_settings_config(&set);
    char err[1024];
    struct sbx_s3 *s = root ? sbx_s3_new(&cfg, err, sizeof err) : NULL;
    struct sbx_s3_page page = {0};
    struct job *jobs = NULL;
    struct task *tasks = NULL;
    const char **keys = NULL;
    bool *skip = NULL;
    size_t njobs = 0;
    if (!root) {
        warnf("%s: no cache folder (set XDG_CACHE_HOME or HOME)", url);
        goto out;
    }
    if (!s) {
        warnf("%s: %s", url, err);
        goto out;
    }
    /* a prefix that is one object's key is that object; else a folder */
    struct sbx_buf prefix = SBX_BUF_INIT;
    sbx_buf_adds(&prefix, key);
    bool single = false;
    if (*key && key[strlen(key) - 1] != '/') {
        if (sbx_s3_list(s, bucket, key, "/", &page, err, sizeof err) != SBX_S3_OK) {
            warnf("%s", err);
            sbx_buf_free(&prefix);
            goto out;
        }
        for (size_t i = 0; i < page.n && !single; i++)
            single = strcmp(page.entries[i].key, key) == 0;
        if (single) {
            for (size_t i = 0; i < page.n; i++)
                if (strcmp(page.entries[i].key, key) == 0 && i) {
                    struct sbx_s3_entry t = page.entries[0];
                    page.entries[0] = page.entries[i];
                    page.entries[i] = t;
                }
        } else {
            sbx_s3xml_page_free(&page);
            sbx_buf_addc(&prefix, '/');
        }
    }
    if (!single && sbx_s3_list(s, bucket, prefix.p ? prefix.p : "", NULL, &page, err,
                               sizeof err) != SBX_S3_OK) {
        warnf("%s", err);
        sbx_buf_free(&prefix);
        goto out;
    }
    size_t n = single ? 1 : page.n;
    if (n == 0) {
        warnf("%s: no object under it", url);
        sbx_buf_free(&prefix);
        goto out;
    }
    jobs = calloc(n, sizeof *jobs);
    keys = calloc(n, sizeof *keys);
    if (!jobs || !keys)
        abort();
    size_t unchanged = 0, nkeys = 0;
    skip = calloc(n, sizeof *skip);
    if (!skip)
        abort();
    size_t skipped = single ? 0 : manifest_skips(&page, prefix.len, skip);
    for (size_t i = 0; i < n; i++) {
        const struct sbx_s3_entry *e = &page.entries[i];
        /* the run's review is read from the store itself when it is read
         * (cli/review_cli.h), and may change under a reviewer at any time */
        const char *base = strrchr(e->key, '/');
        if (!single && strcmp(base ? base + 1 : e->key, SBX_REVIEW_FILE_NAME) == 0)
            skip[i] = true;
        if (skip[i] && safe_key(e->key)) {
            keys[nkeys++] = e->key; /* still listed: a cached copy stays */
            continue;
        }
        if (!safe_key(e->key)) {
            warnf("s3://%s/%s: skipped: the key is not a safe relative path", bucket, e->key);
            continue;
        }
        keys[nkeys++] = e->key;
        struct sbx_buf local = SBX_BUF_INIT, tag = SBX_BUF_INIT;
        sbx_buf_addf(&local, "%s/%s/objects/%s", root, bucket, e->key);
        sbx_buf_addf(&tag, "%s/%s/etags/%s", root, bucket, e->key);
        struct stat st;
        char *have = e->etag ? read_small(tag.p) : NULL;
        if (have && strcmp(have, e->etag) == 0 && stat(local.p, &st) == 0 &&
            (uint64_t)st.st_size == e->size) {
            unchanged++;
            stamp(local.p, e);
            sbx_buf_free(&local);
            sbx_buf_free(&tag);
        } else {
            jobs[njobs++] = (struct job){.e = e, .local = local.p, .etag_file = tag.p, .fd = -1};
        }
        free(have);
    }
    /* the tasks: each object whole, a large one in parts into a file of its size */
    size_t ntasks = 0;
    for (size_t i = 0; i < njobs; i++)
        ntasks += jobs[i].e->size > 2 * PART_BYTES ? (jobs[i].e->size + PART_BYTES - 1) / PART_BYTES : 1;
    tasks = calloc(ntasks ? ntasks : 1, sizeof *tasks);
    if (!tasks)
        abort();
    size_t nt = 0;
    bool prepared = true;
    for (size_t i = 0; i < njobs; i++) {
        struct job *j = &jobs[i];
        uint64_t size = j->e->size;
        if (size <= 2 * PART_BYTES) {
            tasks[nt++] = (struct task){.j = j};
            continue;
        }
        struct sbx_buf tmp = SBX_BUF_INIT;
        sbx_buf_addf(&tmp, "%s.part.%ld", j->local, (long)getpid());
        j->tmp = tmp.p;
        j->fd = mkparents(j->local) ? open(j->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
        if (j->fd < 0 || ftruncate(j->fd, (off_t)size) != 0) {
            warnf("s3://%s/%s: cannot be written into the cache", bucket, j->e->key);
            prepared = false;
        }
        size_t parts = (size_t)((size + PART_BYTES - 1) / PART_BYTES);
        atomic_init(&j->parts_left, parts);
        for (size_t k = 0; k < parts; k++) {
            uint64_t off = k * PART_BYTES;
            tasks[nt++] = (struct task){.j = j, .off = off,
                                        .len = size - off < PART_BYTES ? size - off : PART_BYTES};
        }
    }
    struct pool pool = {.bucket = bucket, .cfg = cfg, .tasks = tasks, .ntasks = prepared ? nt : 0};
    if (!prepared)
        atomic_init(&pool.failed, true);
    pthread_mutex_init(&pool.lock, NULL);
    size_t nthreads = pool.ntasks < SBX_S3_POOL ? pool.ntasks : SBX_S3_POOL;
    pthread_t tid[SBX_S3_POOL];
    for (size_t t = 0; t < nthreads; t++)
        pthread_create(&tid[t], NULL, worker, &pool);
    bool show = !quiet && isatty(STDERR_FILENO) && pool.ntasks;
    while (show && atomic_load(&pool.done) < pool.ntasks && !atomic_load(&pool.failed)) {
        show_progress(url, atomic_load(&pool.done), pool.ntasks, atomic_load(&pool.bytes), false);
        nanosleep(&(struct timespec){0, 100000000L}, NULL);
    }
    for (size_t t = 0; t < nthreads; t++)
        pthread_join(tid[t], NULL);
    if (show)
        show_progress(url, pool.ntasks, pool.ntasks, atomic_load(&pool.bytes), true);
    pthread_mutex_destroy(&pool.lock);
    if (stats)
        *stats = (struct sbx_s3_fetch_stats){.objects = nkeys, .fetched = njobs,
                                             .unchanged = unchanged, .manifested = skipped,
                                             .bytes = atomic_load(&pool.bytes)};
    if (atomic_load(&pool.failed) || !nkeys) {
        if (!nkeys)
            warnf("%s: no object with a key the cache can hold", url);
        sbx_buf_free(&prefix);
        goto out;
    }
    struct sbx_buf path = SBX_BUF_INIT;
    sbx_buf_addf(&path, "%s/%s/objects/", root, bucket);
    if (!single) {
        qsort(keys, nkeys, sizeof *keys, cmp_str);
        listed_keys = keys, nlisted = nkeys, objects_prefix_len = path.len;
        sbx_buf_adds(&path, prefix.p ? prefix.p : "");
        while (path.len && path.p[path.len - 1] == '/')
            path.p[--path.len] = '\0';
        mkdirs(path.p);
        nftw(path.p, prune_one, 16, FTW_PHYS);
    } else {
        sbx_buf_adds(&path, key);
    }
    result = path.p;
    sbx_buf_free(&prefix);
out:
    for (size_t i = 0; i < njobs; i++) {
        if (jobs[i].fd >= 0) { /* a large object not whole: its partial file goes */
            close(jobs[i].fd);
            unlink(jobs[i].tmp);
        }
        free(jobs[i].local);
        free(jobs[i].etag_file);
        free(jobs[i].tmp);
    }
    free(jobs);
    free(tasks);
    free(keys);
    free(skip);
    sbx_s3xml_page_free(&page);
    sbx_s3_free(s);
    sbx_s3_settings_free(&set);
    free(root);
    free(bucket);
    free(key);
    return result;
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
