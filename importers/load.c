#include "importers/load.h"
#include "model/review.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "importers/describe.h"
#include "importers/format.h"
#include "importers/mdiff.h"
#include "importers/readfile.h"
#include "importers/runs_manifest.h"
#include "importers/skipwords.h"

/* Below this a file is imported by one thread: starting threads costs more. */
enum { SPLIT_MIN_BYTES = 4 << 20, PROGRESS_STEP = 8 << 20, MAX_THREADS = 8 };

struct chunk {
    struct sbx_timeline *tl;
    const struct sbx_format *fmt;
    uint32_t source;
    const char *begin, *end; /* whole lines, except perhaps the file's last */
    bool is_last;            /* holds the end of the file */
    bool stopped;            /* cancelled before its end */
    uint32_t lines;          /* lines seen, for numbering the next chunk */
    struct sbx_evbuf out;
    atomic_uint_fast64_t *done; /* bytes of this import done, for the callback */
    uint64_t total;
    struct sbx_load_progress *shared;
    const struct sbx_load_opts *progress; /* set on the chunk the calling thread imports */
    const struct sbx_import_opts *import;
};

static bool cancel_asked(struct sbx_load_progress *shared)
{
    return shared && atomic_load_explicit(&shared->cancel, memory_order_relaxed);
}

/* Counts the bytes from *counted to upto, and the events pushed since
 * *events_counted, as done; returns this import's bytes done. */
static uint64_t count_done(struct chunk *c, const char **counted, const char *upto,
                           size_t *events_counted)
{
    uint64_t bytes = (uint64_t)(upto - *counted);
    *counted = upto;
    if (c->shared) {
        atomic_fetch_add_explicit(&c->shared->bytes_done, bytes, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->shared->events, c->out.n - *events_counted,
                                  memory_order_relaxed);
    }
    *events_counted = c->out.n;
    return atomic_fetch_add(c->done, bytes) + bytes;
}

static void *import_chunk(void *arg)
{
    struct chunk *c = arg;
    void *state = c->fmt->state_new(c->tl, c->source, c->import);
    const char *base = c->tl->sources[c->source].data;
    const char *p = c->begin, *counted = c->begin;
    size_t events_counted = 0;
    uint32_t line_no = 0;
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
                sbx_evbuf_skip(&c->out, c->tl, c->source, line_no, "%s",
                               "incomplete last line (the log may still be being written)");
            } else {
                sbx_evbuf_skip(&c->out, c->tl, c->source, line_no, "%s", reason);
            }
        }
        p += len + terminated;
        if (p - counted >= PROGRESS_STEP) {
            uint64_t done = count_done(c, &counted, p, &events_counted);
            if (c->progress && c->progress->progress)
                c->progress->progress(c->progress->progress_ctx, c->tl->sources[c->source].path,
                                      done, c->total);
            if (p < c->end && cancel_asked(c->shared)) {
                c->stopped = true;
                break;
            }
        }
    }
    count_done(c, &counted, p, &events_counted);
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
    if (first_line == 0)
        return; /* the first part of a file: numbered right already */
    sbx_evbuf_add_lines(out, first_line);
    for (size_t i = 0; i < out->nskips; i++)
        out->skips[i].line += first_line;
}

/* The lines of data[0..size): its newlines, and one more for a last line without one. */
static uint32_t count_lines(const char *data, size_t size)
{
    uint32_t n = 0;
    for (const char *p = data, *end = data + size; p < end; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return n;
}

/* A format's whole-file import (items that span lines), on this thread. */
static void import_whole(struct sbx_timeline *tl, uint32_t source, const struct sbx_format *fmt,
                         const char *data, size_t size, uint32_t first_line,
                         const struct sbx_import_opts *import, struct sbx_load_progress *shared,
                         struct sbx_imported *out)
{
    struct sbx_evbuf buf = {0};
    void *state = fmt->state_new(tl, source, import);
    fmt->file(state, &buf, data, size, (uint64_t)(data - tl->sources[source].data));
    fmt->state_free(state);
    renumber(&buf, first_line);
    if (shared) {
        atomic_fetch_add_explicit(&shared->bytes_done, size, memory_order_relaxed);
        atomic_fetch_add_explicit(&shared->events, buf.n, memory_order_relaxed);
    }
    out->bufs = sbx_xcalloc(1, sizeof *out->bufs);
    out->bufs[0] = buf;
    out->nbufs = 1;
    out->lines = count_lines(data, size);
}

void sbx_import_range(struct sbx_timeline *tl, uint32_t source, const struct sbx_format *fmt,
                      size_t from, uint32_t first_line, const struct sbx_load_opts *opts,
                      struct sbx_imported *out)
{
    memset(out, 0, sizeof *out);
    struct sbx_source *src = &tl->sources[source];
    src->incomplete = 0;
    if (from >= src->size)
        return; /* nothing (new) to import */
    struct sbx_load_progress *shared = opts ? opts->shared : NULL;
    static const struct sbx_import_opts no_import;
    const struct sbx_import_opts *import = opts ? &opts->import : &no_import;
    if (cancel_asked(shared)) {
        out->stopped = true;
        return;
    }
    const char *data = src->data + from, *end = src->data + src->size;
    int nthreads = thread_count(opts);
    size_t total = (size_t)(end - data);
    if (fmt->file && fmt->spans_lines(data, total)) {
        import_whole(tl, source, fmt, data, total, first_line, import, shared, out);
        return;
    }
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
                                   .total = total, .shared = shared, .import = import};
        n++;
        p = stop;
    }

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

    /* after a stop, the chunks that follow cannot be numbered: drop them */
    out->bufs = sbx_xcalloc((size_t)n, sizeof *out->bufs);
    uint32_t line = first_line;
    for (int i = 0; i < n; i++) {
        if (out->stopped) {
            sbx_evbuf_free(&chunks[i].out);
            continue;
        }
        renumber(&chunks[i].out, line);
        line += chunks[i].lines;
        out->bufs[out->nbufs++] = chunks[i].out;
        out->stopped = chunks[i].stopped;
    }
    if (out->stopped)
        src->incomplete = 0; /* the last line was not reached */
    out->lines = line - first_line;
}

bool sbx_load_source(struct sbx_timeline *tl, uint32_t source, const struct sbx_format *fmt,
                     const struct sbx_load_opts *opts)
{
    struct sbx_source *src = &tl->sources[source];
    src->format = fmt->name;
    /* a BOM is not part of the first line */
    size_t from = src->size >= 3 && memcmp(src->data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    struct sbx_imported im;
    sbx_import_range(tl, source, fmt, from, 0, opts, &im);
    for (size_t i = 0; i < im.nbufs; i++)
        sbx_timeline_adopt(tl, &im.bufs[i]);
    free(im.bufs);
    tl->sources[source].lines = im.lines;
    return !im.stopped;
}

static void add_message(char ***list, size_t *n, const char *path, const char *reason)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, reason ? "%s: %s" : "%s", path, reason);
    *list = sbx_xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = b.p;
}

/* The inputs, listed (and stat'ed) before any is read, so the total is known
 * up front. A folder becomes its files, then an item that checks one of them
 * loaded; the items keep the order in which messages are reported. */
enum item_kind { IT_FILE, IT_STREAM, IT_REFUSED, IT_FOLDER_FAILED, IT_FOLDER_END };

struct item {
    char *path;       /* where it is read */
    char *name;       /* what the outputs call it: path, or the name the caller gave */
    enum item_kind kind;
    bool in_folder;   /* an unrecognised file is listed as not read, not an error */
    uint64_t planned; /* bytes expected */
    const struct sbx_format *fmt; /* given on the command line, or NULL: detect */
    const char *why;  /* IT_REFUSED: why it is not read (static) */
};

struct plan {
    struct item *items;
    size_t n, cap;
};

/* Takes path and name (NULL: the path's copy). */
static void plan_add(struct plan *pl, char *path, char *name, enum item_kind kind, bool in_folder,
                     uint64_t planned, const struct sbx_format *fmt)
{
    SBX_GROW(pl->items, pl->n, pl->cap);
    pl->items[pl->n++] = (struct item){path, name ? name : sbx_xstrndup(path, strlen(path)), kind,
                                       in_folder, planned, fmt, NULL};
}

static char *dup_or_null(const char *s)
{
    return s ? sbx_xstrndup(s, strlen(s)) : NULL;
}

static uint64_t planned_bytes(const struct stat *st, size_t prefix)
{
    uint64_t size = (uint64_t)st->st_size;
    return prefix && size > prefix ? prefix : size;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Why a folder's entry that is neither a regular file nor a FIFO (after
 * following links) is not read; errno_ is lstat's or stat's error. */
static const char *refusal(bool link, const struct stat *st, int errno_)
{
    if (errno_ == ELOOP)
        return "a loop of symbolic links";
    if (errno_ == ENOENT)
        return link ? "a symbolic link to nothing" : "gone before it could be read";
    if (errno_)
        return link ? "a symbolic link that cannot be followed" : "cannot be looked at";
    if (S_ISDIR(st->st_mode))
        return link ? "a symbolic link to a folder (a run folder is read one level deep)"
                    : "a folder (a run folder is read one level deep)";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return "a device, not a log";
    if (S_ISSOCK(st->st_mode))
        return "a socket, not a log";
    return "not a regular file or a FIFO";
}

/* One entry of a run folder: a regular file or a FIFO, itself or where its
 * symbolic links lead (anywhere), is read; anything else is named with the
 * reason, never left out silently. */
static void plan_entry(struct plan *pl, char *path, char *name, size_t prefix,
                       const struct sbx_format *fmt)
{
    struct stat lst, st;
    bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    int err = 0;
    if (link ? stat(path, &st) != 0 : lstat(path, &st) != 0)
        err = errno;
    if (!err && S_ISREG(st.st_mode)) {
        plan_add(pl, path, name, IT_FILE, true, planned_bytes(&st, prefix), fmt);
    } else if (!err && S_ISFIFO(st.st_mode)) {
        plan_add(pl, path, name, IT_STREAM, true, 0, fmt);
    } else {
        plan_add(pl, path, name, IT_REFUSED, true, 0, fmt);
        pl->items[pl->n - 1].why = refusal(link, &st, err);
    }
}

/* The name of a folder's entry: the folder's name (dir's, or the one the
 * caller gave), a slash unless it ends in one, the entry's. */
static char *entry_name(const char *dir_name, const char *entry)
{
    struct sbx_buf b = SBX_BUF_INIT;
    size_t n = strlen(dir_name);
    sbx_buf_add(&b, dir_name, n);
    if (!n || dir_name[n - 1] != '/')
        sbx_buf_addc(&b, '/');
    sbx_buf_adds(&b, entry);
    return b.p;
}

static void plan_folder(struct plan *pl, const char *dir, const char *name, size_t prefix,
                        const struct sbx_format *fmt)
{
    DIR *d = opendir(dir);
    if (!d) {
        plan_add(pl, sbx_xstrndup(dir, strlen(dir)), dup_or_null(name), IT_FOLDER_FAILED, false, 0,
                 NULL);
        return;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue; /* a hidden file is read or named like any other */
        if (strcmp(de->d_name, SBX_REVIEW_FILE_NAME) == 0)
            continue; /* the review of the run (model/review.h), not a log of it */
        names = sbx_xrealloc(names, (n + 1) * sizeof *names);
        names[n++] = sbx_xstrndup(de->d_name, strlen(de->d_name));
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, name_cmp); /* a fixed source order, whatever the file system's */
    size_t dlen = strlen(dir);
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;
    for (size_t i = 0; i < n; i++) {
        struct sbx_buf path = SBX_BUF_INIT;
        sbx_buf_add(&path, dir, dlen);
        sbx_buf_addc(&path, '/');
        sbx_buf_adds(&path, names[i]);
        plan_entry(pl, path.p, name ? entry_name(name, names[i]) : NULL, prefix, fmt);
        free(names[i]);
    }
    free(names);
    plan_add(pl, sbx_xstrndup(dir, strlen(dir)), dup_or_null(name), IT_FOLDER_END, false, 0, NULL);
}

static void plan_path(struct plan *pl, const char *path, const char *name, size_t prefix,
                      const struct sbx_format *fmt)
{
    if (strcmp(path, "-") == 0) {
        plan_add(pl, sbx_xstrndup(path, 1), dup_or_null(name), IT_STREAM, false, 0, fmt);
        return;
    }
    struct stat st;
    bool known = stat(path, &st) == 0;
    if (known && S_ISDIR(st.st_mode))
        plan_folder(pl, path, name, prefix, fmt);
    else if (known && S_ISFIFO(st.st_mode))
        plan_add(pl, sbx_xstrndup(path, strlen(path)), dup_or_null(name), IT_STREAM, false, 0, fmt);
    else /* a missing or odd file: reading it says what is wrong */
        plan_add(pl, sbx_xstrndup(path, strlen(path)), dup_or_null(name), IT_FILE, false,
                 known && S_ISREG(st.st_mode) ? planned_bytes(&st, prefix) : 0, fmt);
}

static void add_unread(struct sbx_load_report *rep, const struct item *it, const char *reason)
{
    rep->unread = sbx_xrealloc(rep->unread, (rep->nunread + 1) * sizeof *rep->unread);
    rep->unread[rep->nunread++] = (struct sbx_unread){
        sbx_xstrndup(it->name, strlen(it->name)), sbx_xstrndup(reason, strlen(reason)),
        it->in_folder};
}

enum outcome { LOADED, DEFERRED, NOT_LOADED, STOPPED };

/* A file read with a format the command line forced, of which not one line
 * was that format, is not read, like a file no format matches: it is named
 * with every line it skipped and why. Its source stays, so the summary
 * lists those lines too. */
static bool forced_read_nothing(const struct sbx_timeline *tl, uint32_t idx, const struct item *it,
                                struct sbx_load_report *rep)
{
    const struct sbx_source *src = &tl->sources[idx];
    if (src->events || !src->skipped)
        return false;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "read as %s, as asked, but none of its %zu line%s is one: ", it->fmt->name,
                 src->skipped, src->skipped == 1 ? "" : "s");
    sbx_skip_words(tl, idx, &b);
    if (!it->in_folder)
        add_message(&rep->errors, &rep->nerrors, it->name, b.p);
    add_unread(rep, it, b.p);
    sbx_buf_free(&b);
    return true;
}

/* Makes the byte count exact at the end of a file, whatever was counted as it loaded. */
static void file_done(struct sbx_load_progress *shared, uint64_t base, uint64_t planned)
{
    if (!shared)
        return;
    atomic_store(&shared->bytes_done, base + planned);
    atomic_fetch_add(&shared->files_done, 1);
}

static enum outcome load_file(struct sbx_timeline *tl, const struct item *it,
                              const struct sbx_load_opts *opts, struct sbx_load_report *rep)
{
    struct sbx_load_progress *shared = opts ? opts->shared : NULL;
    size_t prefix = opts ? opts->prefix : 0;
    uint64_t base = shared ? atomic_load(&shared->bytes_done) : 0, planned = it->planned;
    const char *data;
    size_t size, file_size = 0;
    bool cut = false;
    enum sbx_data_how how = SBX_DATA_HEAP;
    char err[256];
    bool ok;
    if (tl->nsources >= UINT16_MAX) { /* an event names its source in 16 bits */
        snprintf(err, sizeof err, "too many inputs (at most 65535 files)");
        ok = false;
    } else if (prefix && it->kind == IT_FILE) {
        ok = sbx_read_prefix(it->path, prefix, &data, &size, &file_size, &cut, err, sizeof err);
    } else {
        ok = (opts && opts->private_copy ? sbx_read_input_copy : sbx_read_input)(
            it->path, opts ? opts->import.max_input : 0, &data, &size, &how, err, sizeof err);
    }
    if (ok && !sbx_source_fits(size)) { /* an event keeps its line's offset in 37 bits */
        sbx_release_input(data, size, how);
        snprintf(err, sizeof err, "too large (at most 128 GiB a file)");
        ok = false;
    }
    if (!ok) {
        if (!it->in_folder)
            add_message(&rep->errors, &rep->nerrors, it->name, err);
        add_unread(rep, it, err);
        file_done(shared, base, planned);
        return NOT_LOADED;
    }
    if (shared && size > planned) /* a stream, or a file that grew since it was stat'ed */
        atomic_fetch_add(&shared->bytes_total, size - planned);
    if (size > planned)
        planned = size;

    /* a NUL tail after text is left out of the source and reported */
    size_t text_size = sbx_nul_tail(data, size), nul_bytes = 0;
    if (text_size && text_size < size) {
        nul_bytes = size - text_size;
        sbx_trim_input(data, &size, text_size, how);
    }
    const char *why = sbx_sniff_not_text(data, size);
    const char *body = data;
    size_t body_size = size;
    if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        body += 3;
        body_size -= 3;
    }
    if (!why && !it->fmt && sbx_review_sniff(body, body_size)) {
        /* a review file under another name: the run's review, not a log, not unread */
        sbx_release_input(data, size, how);
        file_done(shared, base, planned);
        return NOT_LOADED;
    }
    if (!why && !it->fmt && it->in_folder && sbx_run_manifest_sniff(body, body_size)) {
        /* the run's manifest (its JSON summary), not a log, not unread */
        sbx_release_input(data, size, how);
        file_done(shared, base, planned);
        return NOT_LOADED;
    }
    const struct sbx_format *fmt =
        why ? NULL : it->fmt ? it->fmt : sbx_detect_format(body, body_size);
    if (!fmt && size == 0 && !it->in_folder && !cut)
        fmt = &sbx_format_recorder; /* an empty log is a log with nothing in it yet */
    if (!fmt) {
        bool deferred = cut && !why; /* perhaps the lines that show the format come later */
        char reason[SBX_DESCRIBE_BUFSZ] = "";
        if (!deferred)
            sbx_describe_unread(data, size, reason, sizeof reason);
        sbx_release_input(data, size, how);
        enum outcome o = NOT_LOADED;
        if (deferred) {
            add_message(&rep->deferred, &rep->ndeferred, it->name, NULL);
            o = DEFERRED;
        } else {
            if (!it->in_folder)
                add_message(&rep->errors, &rep->nerrors, it->name, reason);
            add_unread(rep, it, reason);
        }
        file_done(shared, base, planned);
        return o;
    }
    uint32_t idx = sbx_timeline_add_source(tl, it->name, data, size, how);
    tl->sources[idx].preview = cut;
    if (cut)
        tl->sources[idx].full_size = file_size;
    bool complete = sbx_load_source(tl, idx, fmt, opts);
    if (nul_bytes)
        sbx_skip_nul_tail(tl, idx, nul_bytes);
    file_done(shared, base, planned);
    if (complete && it->fmt && forced_read_nothing(tl, idx, it, rep))
        return NOT_LOADED;
    return complete ? LOADED : STOPPED;
}

size_t sbx_load_paths(struct sbx_timeline *tl, const char *const *paths, size_t npaths,
                      const struct sbx_load_opts *opts, struct sbx_load_report *report)
{
    struct sbx_load_progress *shared = opts ? opts->shared : NULL;
    size_t prefix = opts ? opts->prefix : 0;
    struct plan pl = {0};
    for (size_t i = 0; i < npaths; i++)
        plan_path(&pl, paths[i], opts && opts->names ? opts->names[i] : NULL, prefix,
                  opts && opts->formats ? opts->formats[i] : NULL);
    if (shared) {
        uint64_t bytes = 0;
        uint32_t files = 0;
        for (size_t i = 0; i < pl.n; i++) {
            bytes += pl.items[i].planned;
            files += pl.items[i].kind == IT_FILE || (pl.items[i].kind == IT_STREAM && !prefix);
        }
        atomic_fetch_add(&shared->bytes_total, bytes);
        atomic_fetch_add(&shared->files_total, files);
    }

    size_t loaded = 0, in_folder = 0; /* in_folder: found logs of the current folder */
    for (size_t i = 0; i < pl.n; i++) {
        const struct item *it = &pl.items[i];
        if (cancel_asked(shared)) {
            report->cancelled = true;
            break;
        }
        enum outcome o = NOT_LOADED;
        switch (it->kind) {
        case IT_FOLDER_FAILED:
            add_message(&report->errors, &report->nerrors, it->name, "cannot open folder");
            break;
        case IT_FOLDER_END:
            if (!in_folder)
                add_message(&report->errors, &report->nerrors, it->name,
                            "no file in this folder is a log sbxview reads");
            in_folder = 0;
            break;
        case IT_REFUSED:
            add_unread(report, it, it->why);
            break;
        case IT_STREAM:
            if (prefix)
                add_message(&report->deferred, &report->ndeferred, it->name, NULL);
            else
                o = load_file(tl, it, opts, report);
            break;
        case IT_FILE:
            o = load_file(tl, it, opts, report);
            break;
        }
        loaded += o == LOADED || o == STOPPED;
        if (it->in_folder)
            in_folder += o != NOT_LOADED;
        if (o == STOPPED) {
            report->cancelled = true;
            break;
        }
    }
    for (size_t i = 0; i < pl.n; i++) {
        free(pl.items[i].path);
        free(pl.items[i].name);
    }
    free(pl.items);
    sbx_mdiff_link(tl); /* manifests paired, diffs' files: needs every source read */
    sbx_timeline_finish(tl);
    return loaded;
}

void sbx_load_report_free(struct sbx_load_report *r)
{
    for (size_t i = 0; i < r->nerrors; i++)
        free(r->errors[i]);
    for (size_t i = 0; i < r->nunread; i++) {
        free(r->unread[i].path);
        free(r->unread[i].reason);
    }
    for (size_t i = 0; i < r->ndeferred; i++)
        free(r->deferred[i]);
    free(r->errors);
    free(r->unread);
    free(r->deferred);
    memset(r, 0, sizeof *r);
}
