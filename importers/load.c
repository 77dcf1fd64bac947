#include "importers/load.h"

#include <dirent.h>
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "importers/format.h"
#include "importers/readfile.h"

/* Below this a file is imported by one thread: starting threads costs more. */
enum { SPLIT_MIN_BYTES = 4 << 20, PROGRESS_STEP = 8 << 20, MAX_THREADS = 8 };

struct chunk {
    struct sbx_timeline *tl;
    const struct sbx_format *fmt;
    uint32_t source;
    const char *begin, *end; /* whole lines, except perhaps the file's last */
    bool is_last;            /* holds the end of the file */
    uint32_t lines;          /* lines seen, for numbering the next chunk */
    struct sbx_evbuf out;
    atomic_uint_fast64_t *done;
    uint64_t total;
    const struct sbx_load_opts *progress; /* set on the chunk the calling thread imports */
};

static void record_skip(struct chunk *c, uint32_t line_no, const char *reason)
{
    sbx_evbuf_skip(&c->out, c->tl, c->source, line_no, "%s", reason);
}

static void *import_chunk(void *arg)
{
    struct chunk *c = arg;
    void *state = c->fmt->state_new(c->tl, c->source);
    const char *base = c->tl->sources[c->source].data;
    const char *p = c->begin;
    uint32_t line_no = 0;
    uint64_t since_progress = 0;
    char reason[160];
    while (p < c->end) {
        size_t len;
        line_no++;
        reason[0] = '\0';
        enum sbx_line_status s;
        if (c->fmt->scan) {
            s = c->fmt->scan(state, &c->out, p, c->end, &len, (uint64_t)(p - base), line_no,
                             reason, sizeof reason);
        } else {
            const char *nl = memchr(p, '\n', (size_t)(c->end - p));
            len = nl ? (size_t)(nl - p) : (size_t)(c->end - p);
            s = c->fmt->line(state, &c->out, p, len, (uint64_t)(p - base), line_no, reason,
                             sizeof reason);
        }
        bool terminated = p + len < c->end; /* a newline follows */
        if (s == SBX_LINE_BAD) {
            if (!terminated && c->is_last) {
                c->tl->sources[c->source].incomplete = len;
                record_skip(c, line_no, "incomplete last line (the log may still be being written)");
            } else {
                record_skip(c, line_no, reason);
            }
        }
        since_progress += len + 1;
        if (since_progress >= PROGRESS_STEP) {
            uint64_t done = atomic_fetch_add(c->done, since_progress) + since_progress;
            since_progress = 0;
            if (c->progress)
                c->progress->progress(c->progress->progress_ctx, c->tl->sources[c->source].path,
                                      done, c->total);
        }
        p += len + 1;
    }
    atomic_fetch_add(c->done, since_progress);
    c->lines = line_no;
    c->fmt->state_free(state);
    return NULL;
}

static int thread_count(const struct sbx_load_opts *opts)
{
    int n = opts && opts->threads > 0 ? opts->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > MAX_THREADS ? MAX_THREADS : n;
}

static void renumber(struct sbx_evbuf *out, uint32_t first_line)
{
    for (size_t i = 0; i < out->n; i++)
        sbx_evbuf_at(out, i)->line_no += first_line;
    for (size_t i = 0; i < out->nskips; i++)
        out->skips[i].line += first_line;
}

void sbx_load_source(struct sbx_timeline *tl, uint32_t source, const struct sbx_format *fmt,
                     const struct sbx_load_opts *opts)
{
    struct sbx_source *src = &tl->sources[source];
    src->format = fmt->name;
    const char *data = src->data, *end = data + src->size;
    if (src->size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        data += 3; /* a BOM is not part of the first line */

    int nthreads = thread_count(opts);
    size_t total = (size_t)(end - data);
    if (total < (opts && opts->split_min ? opts->split_min : SPLIT_MIN_BYTES))
        nthreads = 1;
    struct chunk chunks[MAX_THREADS];
    atomic_uint_fast64_t done = 0;
    int n = 0;
    const char *p = data;
    for (int i = 0; i < nthreads && p < end; i++) {
        const char *stop = i == nthreads - 1 ? end : data + total / (size_t)nthreads * (size_t)(i + 1);
        if (stop < p)
            stop = p;
        if (stop < end) {
            const char *nl = memchr(stop, '\n', (size_t)(end - stop));
            stop = nl ? nl + 1 : end;
        }
        memset(&chunks[n], 0, sizeof chunks[n]);
        chunks[n] = (struct chunk){.tl = tl, .fmt = fmt, .source = source, .begin = p,
                                   .end = stop, .is_last = stop == end, .done = &done,
                                   .total = total};
        n++;
        p = stop;
    }

    if (n == 0)
        return; /* an empty file: nothing to import */
    pthread_t tids[MAX_THREADS];
    int started = 0;
    if (n > 1) {
        json_object_seed(0); /* jansson seeds its hash on first use: not from two threads at once */
        for (int i = 1; i < n; i++)
            if (pthread_create(&tids[i], NULL, import_chunk, &chunks[i]) == 0)
                started = i;
            else
                break;
    }
    /* this thread takes the first chunk, then any a thread could not be started for */
    if (opts && opts->progress)
        chunks[0].progress = opts;
    import_chunk(&chunks[0]);
    for (int i = started + 1; i < n; i++)
        import_chunk(&chunks[i]);
    for (int i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);

    uint32_t first_line = 0;
    for (int i = 0; i < n; i++) {
        renumber(&chunks[i].out, first_line);
        first_line += chunks[i].lines;
        sbx_timeline_adopt(tl, &chunks[i].out);
    }
}

static void add_message(char ***list, size_t *n, const char *path, const char *reason)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, reason ? "%s: %s" : "%s", path, reason);
    *list = sbx_xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = b.p;
}

/* Loads one file; in_folder says whether an unrecognised file is an error
 * (named on the command line) or just ignored (found in a folder). */
static bool load_file(struct sbx_timeline *tl, const char *path, bool in_folder,
                      const struct sbx_load_opts *opts, struct sbx_load_report *rep)
{
    const char *data;
    size_t size;
    enum sbx_data_how how;
    char err[256];
    if (tl->nsources >= UINT16_MAX) { /* an event names its source in 16 bits */
        add_message(&rep->errors, &rep->nerrors, path, "too many inputs (at most 65535 files)");
        return false;
    }
    if (!sbx_read_input(path, &data, &size, &how, err, sizeof err)) {
        add_message(&rep->errors, &rep->nerrors, path, err);
        return false;
    }
    const char *why = sbx_sniff_not_text(data, size);
    const char *body = data;
    size_t body_size = size;
    if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        body += 3;
        body_size -= 3;
    }
    const struct sbx_format *fmt = why ? NULL : sbx_detect_format(body, body_size);
    if (!fmt && size == 0 && !in_folder)
        fmt = &sbx_format_recorder; /* an empty log is a log with nothing in it yet */
    if (!fmt) {
        sbx_release_input(data, size, how);
        if (in_folder)
            add_message(&rep->ignored, &rep->nignored, path, NULL);
        else
            add_message(&rep->errors, &rep->nerrors, path,
                        why ? why : "not a log sbxview reads (no line of a known format found)");
        return false;
    }
    uint32_t idx = sbx_timeline_add_source(tl, path, data, size, how);
    sbx_load_source(tl, idx, fmt, opts);
    return true;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t load_folder(struct sbx_timeline *tl, const char *dir, const struct sbx_load_opts *opts,
                          struct sbx_load_report *rep)
{
    DIR *d = opendir(dir);
    if (!d) {
        add_message(&rep->errors, &rep->nerrors, dir, "cannot open folder");
        return 0;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        names = sbx_xrealloc(names, (n + 1) * sizeof *names);
        names[n++] = sbx_xstrndup(de->d_name, strlen(de->d_name));
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, name_cmp); /* a fixed source order, whatever the file system's */
    size_t loaded = 0;
    size_t dlen = strlen(dir);
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;
    for (size_t i = 0; i < n; i++) {
        struct sbx_buf path = SBX_BUF_INIT;
        sbx_buf_add(&path, dir, dlen);
        sbx_buf_addc(&path, '/');
        sbx_buf_adds(&path, names[i]);
        struct stat st;
        /* files only: a run folder is flat, and following links out of it is not wanted */
        if (lstat(path.p, &st) == 0 && S_ISREG(st.st_mode))
            loaded += load_file(tl, path.p, true, opts, rep);
        sbx_buf_free(&path);
        free(names[i]);
    }
    free(names);
    if (!loaded)
        add_message(&rep->errors, &rep->nerrors, dir, "no file in this folder is a log sbxview reads");
    return loaded;
}

size_t sbx_load_paths(struct sbx_timeline *tl, const char *const *paths, size_t npaths,
                      const struct sbx_load_opts *opts, struct sbx_load_report *report)
{
    size_t loaded = 0;
    for (size_t i = 0; i < npaths; i++) {
        struct stat st;
        if (strcmp(paths[i], "-") != 0 && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
            loaded += load_folder(tl, paths[i], opts, report);
        else
            loaded += load_file(tl, paths[i], false, opts, report);
    }
    sbx_timeline_finish(tl);
    return loaded;
}

void sbx_load_report_free(struct sbx_load_report *r)
{
    for (size_t i = 0; i < r->nerrors; i++)
        free(r->errors[i]);
    for (size_t i = 0; i < r->nignored; i++)
        free(r->ignored[i]);
    free(r->errors);
    free(r->ignored);
    memset(r, 0, sizeof *r);
}
