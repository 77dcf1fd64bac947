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
#include "importers/runs.h"
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

/* The listing, what to fetch of it (jobs), and the cache pruned of what it
 * no longer lists; false with the reason on stderr. */
static bool fetch_plan(struct fetch *f, const char *url)
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
    if (!f->single && sbx_s3_list(f->s, f->bucket, f->prefix.p ? f->prefix.p : "", NULL, page,
                                  err, sizeof err) != SBX_S3_OK) {
        warnf("%s", err);
        return false;
    }
    size_t n = f->single ? 1 : page->n;
    if (n == 0) {
        warnf("%s: no object under it", url);
        return false;
    }
    f->jobs = sbx_xcalloc(n, sizeof *f->jobs);
    f->keys = sbx_xcalloc(n, sizeof *f->keys);
    f->skip = sbx_xcalloc(n, sizeof *f->skip);
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
    if (!f->nkeys) {
        warnf("%s: no object with a key the cache can hold", url);
        return false;
    }
    /* cached files the listing no longer has go before anything is read, so
     * a run folder never mixes in stale files */
    struct sbx_buf path = SBX_BUF_INIT;
    sbx_buf_addf(&path, "%s/%s/objects/", f->root, f->bucket);
    if (!f->single) {
        const char **sorted = sbx_xmalloc(f->nkeys * sizeof *sorted);
        memcpy(sorted, f->keys, f->nkeys * sizeof *sorted);
        qsort(sorted, f->nkeys, sizeof *sorted, cmp_str);
        listed_keys = sorted, nlisted = f->nkeys, objects_prefix_len = path.len;
        sbx_buf_adds(&path, f->prefix.p ? f->prefix.p : "");
        while (path.len && path.p[path.len - 1] == '/')
            path.p[--path.len] = '\0';
        mkdirs(path.p);
        nftw(path.p, prune_one, 16, FTW_PHYS);
        free(sorted);
    } else {
        sbx_buf_adds(&path, key);
    }
    f->local = path.p;
    return true;
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

struct sbx_s3_behind {
    struct fetch f;
    _Atomic bool stop;
    bool started; /* the pool (its lock, its threads) */
};

/* The run a key lies in, directly (PREFIX/RUN/NAME): its name's length,
 * else 0 (a key directly under the prefix, or deeper in a run). */
static size_t run_of(const char *key, size_t plen)
{
    size_t seg = run_segment(key, plen);
    return seg && !strchr(key + plen + seg, '/') ? seg - 1 : 0;
}

static int cmp_row_name(const void *a, const void *b)
{
    return strcmp(((const struct sbx_run_row *)a)->name, ((const struct sbx_run_row *)b)->name);
}

static bool await_run(void *ctx, size_t i, const _Atomic bool *stop, char *why, size_t whysz)
{
    struct sbx_s3_behind *b = ctx;
    struct pool *p = &b->f.pool;
    pthread_mutex_lock(&p->lock);
    while (p->row_left[i] && !atomic_load(&p->failed) && !atomic_load(stop) &&
           !atomic_load(&b->stop)) {
        struct timespec until; /* the stop flags are not signalled: looked at often */
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
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
    char *root_name = sbx_s3_source_name(f->url, true); /* the rows' files named by URL */
    sbx_runs_sources_under(runs, root_name);
    free(root_name);
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
    return true;
}

struct sbx_s3_behind *sbx_s3_fetch_runs(const char *url, struct sbx_runs *runs, bool *as_list)
{
    *as_list = false;
    struct sbx_s3_behind *b = sbx_xcalloc(1, sizeof *b);
    if (!fetch_plan(&b->f, url)) {
        fetch_free(&b->f);
        free(b);
        return NULL;
    }
    struct sbx_runs rows = {0};
    bool as_runs = !b->f.single && plan_rows(b, &rows);
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
        return b;
    }
    sbx_runs_free(&rows);
    return b; /* a run, an object: fetched whole behind */
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
