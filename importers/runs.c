#include "importers/runs.h"

#include "model/review.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "importers/format.h"
#include "importers/load.h"
#include "importers/readfile.h"
#include "importers/runs_manifest.h"
#include "base/buf.h"
#include "analyses/runs_more.h"
#include "analyses/summary.h"
#include "model/review.h"

enum { SNIFF_BYTES = 64 << 10, MAX_WORKERS = 8 };

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, not hidden, sorted; NULL when it cannot be read. */
static char **list_names(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        SBX_GROW(names, *n, cap);
        names[(*n)++] = sbx_xstrndup(de->d_name, strlen(de->d_name));
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, name_cmp);
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static char *join(const char *dir, const char *name)
{
    struct sbx_buf p = SBX_BUF_INIT;
    size_t dlen = strlen(dir);
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;
    sbx_buf_add(&p, dir, dlen);
    sbx_buf_addc(&p, '/');
    sbx_buf_adds(&p, name);
    return p.p;
}

/* A format recognises the file's first bytes. */
static bool is_log(const char *path)
{
    const char *data;
    size_t size, file_size;
    bool cut;
    char err[256];
    if (!sbx_read_prefix(path, SNIFF_BYTES, &data, &size, &file_size, &cut, err, sizeof err))
        return false;
    const char *body = data;
    size_t n = size;
    if (n >= 3 && memcmp(body, "\xEF\xBB\xBF", 3) == 0) {
        body += 3;
        n -= 3;
    }
    bool yes = !sbx_sniff_not_text(data, size) && sbx_detect_format(body, n) != NULL;
    sbx_release_input(data, size, SBX_DATA_HEAP);
    return yes;
}

/* A run's manifest (importers/runs_manifest.h) stands for its logs: a
 * folder of runs whose runs all have one is still a folder of runs. */
static bool is_manifest(const char *name, const char *path)
{
    if (strcmp(name, SBX_RUN_MANIFEST_NAME) != 0)
        return false;
    const char *data;
    size_t size, file_size;
    bool cut;
    char err[256];
    if (!sbx_read_prefix(path, SNIFF_BYTES, &data, &size, &file_size, &cut, err, sizeof err))
        return false;
    bool yes = sbx_run_manifest_sniff(data, size);
    sbx_release_input(data, size, SBX_DATA_HEAP);
    return yes;
}

enum { HAS_FILE = 1, HAS_LOG = 2 };

/* What dir holds directly: regular files (HAS_FILE), logs (HAS_LOG, looked
 * for only when look_for_logs); its subfolders' names into *subs when asked. */
static int survey(const char *dir, bool look_for_logs, char ***subs, size_t *nsubs)
{
    size_t n;
    char **names = list_names(dir, &n);
    int has = 0;
    if (subs) {
        *subs = NULL;
        *nsubs = 0;
    }
    for (size_t i = 0; i < n; i++) {
        char *path = join(dir, names[i]);
        struct stat st;
        if (lstat(path, &st) == 0) {
            if (S_ISREG(st.st_mode)) {
                has |= HAS_FILE;
                if (look_for_logs && !(has & HAS_LOG) &&
                    (is_log(path) || is_manifest(names[i], path)))
                    has |= HAS_LOG;
            } else if (S_ISDIR(st.st_mode) && subs) {
                *subs = sbx_xrealloc(*subs, (*nsubs + 1) * sizeof **subs);
                (*subs)[(*nsubs)++] = sbx_xstrndup(names[i], strlen(names[i]));
            }
        }
        free(path);
        if (!subs && !look_for_logs && (has & HAS_FILE))
            break;
    }
    free_names(names, n);
    return has;
}

bool sbx_runs_discover(const char *path, struct sbx_runs *out)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return false;
    char **subs;
    size_t nsubs;
    if (survey(path, true, &subs, &nsubs) & HAS_LOG) {
        free_names(subs, nsubs);
        return false;
    }
    bool any_log = false;
    struct sbx_runs r;
    sbx_runs_init(&r, path);
    for (size_t i = 0; i < nsubs; i++) {
        char *sub = join(path, subs[i]);
        /* logs are looked for until one run shows it is a folder of runs */
        int has = survey(sub, !any_log, NULL, NULL);
        if (has & HAS_LOG)
            any_log = true;
        if (has & HAS_FILE)
            sbx_runs_add(&r, subs[i], sub);
        free(sub);
    }
    free_names(subs, nsubs);
    if (!any_log) {
        sbx_runs_free(&r);
        return false;
    }
    *out = r;
    return true;
}

/* ---- the pool ---- */

struct sbx_runs_fill {
    struct sbx_runs *r;
    const struct sbx_allowlist *allow;
    struct sbx_import_opts import;
    const struct sbx_skew_given *skews;
    size_t nskews;
    bool manifests; /* rows may come from the runs' manifests */
    _Atomic size_t next;
    _Atomic bool stop;
    _Atomic size_t running;
    size_t nworkers;
    pthread_t tids[MAX_WORKERS];
    bool started[MAX_WORKERS];
    struct sbx_load_progress progress[MAX_WORKERS]; /* each worker's, for its cancel flag */
};

struct worker_arg {
    struct sbx_runs_fill *f;
    size_t slot;
};

/* Row i's review columns, from the review file of the run at path (tl: the
 * run loaded, for a review kept under the state folder; NULL: only the one
 * in the folder), before the row is published. */
static void review_row(struct sbx_runs_fill *f, size_t i, const char *path,
                       const struct sbx_timeline *tl)
{
    if (!f->r->review_of)
        return;
    struct sbx_review rv;
    struct sbx_review_state st;
    sbx_review_init(&rv);
    f->r->review_of(f->r->review_ctx, path, tl, &rv);
    sbx_review_state_make(&rv, &st);
    sbx_runs_hold(f->r);
    sbx_run_row_review(f->r, i, &st);
    sbx_runs_release(f->r);
    sbx_review_state_free(&st);
    sbx_review_free(&rv);
}

static void row_fail(struct sbx_runs_fill *f, size_t i, const char *why)
{
    sbx_runs_hold(f->r);
    sbx_run_row_fail(f->r, i, why);
    sbx_runs_release(f->r);
}

static void fill_one(struct sbx_runs_fill *f, size_t i, struct sbx_load_progress *progress)
{
    /* the row's strings never move, its slot may (rows taken in meanwhile) */
    sbx_runs_hold(f->r);
    const char *path = f->r->rows[i].path, *source = f->r->rows[i].source;
    const char *named = sbx_run_row_source(&f->r->rows[i]);
    sbx_runs_release(f->r);
    char why[160];
    if (f->r->await_run && !f->r->await_run(f->r->await_ctx, i, &f->stop, why, sizeof why)) {
        if (!atomic_load(&f->stop)) /* stopped: the row stays PENDING */
            row_fail(f, i, why);
        return;
    }
    struct sbx_run_row from_manifest = {.start = SBX_TIME_UNKNOWN, .end = SBX_TIME_UNKNOWN};
    if (f->manifests && sbx_run_manifest_read(path, &from_manifest)) {
        review_row(f, i, path, NULL);
        sbx_runs_hold(f->r);
        sbx_run_row_set(f->r, i, &from_manifest);
        sbx_runs_release(f->r);
        return;
    }
    const char *paths[1] = {path}, *names[1] = {source};
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = 1, .shared = progress, .import = f->import,
                                 .names = names};
    size_t loaded = sbx_load_paths(&tl, paths, 1, &opts, &rep);
    if (rep.cancelled) {
        /* stopped: the row stays PENDING */
    } else if (!loaded) {
        const char *why = rep.nerrors ? rep.errors[0]
                          : rep.nunread ? rep.unread[0].reason
                                        : "no file in it is a log sbxview reads";
        size_t plen = strlen(named); /* the row names the run: "path: " is said already */
        if (strncmp(why, named, plen) == 0 && strncmp(why + plen, ": ", 2) == 0)
            why += plen + 2;
        row_fail(f, i, why);
    } else {
        struct sbx_summary sum;
        char err[256];
        struct sbx_summary_opts sopts = {.threads = 1, .allow = f->allow, .unread = rep.unread,
                                         .nunread = rep.nunread, .skews = f->skews,
                                         .nskews = f->nskews};
        if (sbx_summarize(&tl, &sopts, &sum, err, sizeof err)) {
            review_row(f, i, path, &tl);
            sbx_runs_hold(f->r);
            sbx_run_row_fill(f->r, i, &tl, &sum);
            sbx_runs_release(f->r);
            sbx_summary_free(&sum);
        } else {
            row_fail(f, i, err);
        }
    }
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
}

static void *worker(void *arg)
{
    struct worker_arg *wa = arg;
    struct sbx_runs_fill *f = wa->f;
    struct sbx_load_progress *progress = &f->progress[wa->slot];
    free(wa);
    for (;;) {
        if (atomic_load(&f->stop))
            break;
        size_t i = atomic_fetch_add(&f->next, 1);
        if (!sbx_runs_wait_row(f->r, i, &f->stop)) /* a list that grows: its next run */
            break;
        atomic_store(&progress->bytes_done, 0);
        atomic_store(&progress->bytes_total, 0);
        fill_one(f, i, progress);
    }
    atomic_fetch_sub(&f->running, 1);
    return NULL;
}

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

struct sbx_runs_fill *sbx_runs_fill_start(struct sbx_runs *r, const struct sbx_allowlist *allow,
                                          const struct sbx_import_opts *import, int threads,
                                          bool background)
{
    return sbx_runs_fill_start_skewed(r, allow, import, NULL, 0, threads, background);
}

struct sbx_runs_fill *sbx_runs_fill_start_skewed(struct sbx_runs *r, const struct sbx_allowlist *allow,
                                                 const struct sbx_import_opts *import,
                                                 const struct sbx_skew_given *skews, size_t nskews,
                                                 int threads, bool background)
{
    struct sbx_runs_fill *f = sbx_xcalloc(1, sizeof *f);
    f->r = r;
    f->allow = allow;
    f->skews = skews;
    f->nskews = nskews;
    if (import)
        f->import = *import;
    /* a manifest was written without the options that change a row */
    f->manifests = !allow && !nskews && !(f->import.webhook_secrets && *f->import.webhook_secrets);
    int want = threads > 0 ? (threads > MAX_WORKERS ? MAX_WORKERS : threads) : online_cpus();
    f->nworkers = (size_t)want < r->n || r->more ? (size_t)want : r->n;
    atomic_init(&f->running, f->nworkers);
    for (size_t w = 0; w < f->nworkers; w++) {
        struct worker_arg *wa = sbx_xmalloc(sizeof *wa);
        *wa = (struct worker_arg){f, w};
        if (pthread_create(&f->tids[w], NULL, worker, wa) == 0) {
            f->started[w] = true;
        } else {
            free(wa);
            atomic_fetch_sub(&f->running, 1);
        }
    }
    /* no thread could start: the rows are filled here */
    if (f->nworkers && atomic_load(&f->running) == 0) {
        atomic_fetch_add(&f->running, 1);
        struct worker_arg *wa = sbx_xmalloc(sizeof *wa);
        *wa = (struct worker_arg){f, 0};
        worker(wa);
    }
    if (!background)
        sbx_runs_fill_wait(f);
    return f;
}

bool sbx_runs_fill_done(struct sbx_runs_fill *f)
{
    return atomic_load(&f->running) == 0;
}

void sbx_runs_fill_wait(struct sbx_runs_fill *f)
{
    for (size_t w = 0; w < f->nworkers; w++) {
        if (f->started[w]) {
            pthread_join(f->tids[w], NULL);
            f->started[w] = false;
        }
    }
}

void sbx_runs_fill_free(struct sbx_runs_fill *f)
{
    if (!f)
        return;
    atomic_store(&f->stop, true);
    for (size_t w = 0; w < f->nworkers; w++)
        atomic_store(&f->progress[w].cancel, true);
    sbx_runs_fill_wait(f);
    free(f);
}
