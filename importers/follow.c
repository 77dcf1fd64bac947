#include "importers/follow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "importers/format.h"
#include "importers/load.h"

/* The first and last bytes loaded are kept to tell a file that was emptied
 * and written again past its old size from one that only grew. */
enum { KEPT = 64 };

struct followed {
    uint32_t source;
    dev_t dev;
    ino_t ino;
    const struct sbx_format *fmt;
    size_t loaded;      /* bytes of the file in the timeline */
    size_t resume;      /* where the first line not yet complete starts */
    uint32_t next_line; /* the number of that line */
    bool open;          /* that line was read without its newline: its event or
                           skip is replaced when the line is read again */
    bool active;
    char head[KEPT], tail[KEPT];
    size_t nkept;
};

struct sbx_follow {
    struct followed *files;
    size_t n;
    struct sbx_load_opts load; /* its import options, for the lines that come */
};

static const struct sbx_format *format_named(const char *name)
{
    for (size_t i = 0; sbx_formats[i]; i++)
        if (strcmp(sbx_formats[i]->name, name) == 0)
            return sbx_formats[i];
    return NULL;
}

/* Where reading goes on after what the source holds now. */
static void note_position(struct followed *fw, const struct sbx_source *src)
{
    const char *d = src->data;
    size_t size = src->size;
    fw->loaded = size;
    fw->nkept = size < KEPT ? size : KEPT;
    memcpy(fw->head, d, fw->nkept);
    memcpy(fw->tail, d + size - fw->nkept, fw->nkept);
    size_t bom = size >= 3 && memcmp(d, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (fw->resume < bom)
        fw->resume = bom;
    if (size == fw->resume || d[size - 1] == '\n') {
        fw->resume = size;
        fw->next_line = src->lines + 1;
        fw->open = false;
    } else {
        const char *nl = memrchr(d + fw->resume, '\n', size - fw->resume);
        if (nl)
            fw->resume = (size_t)(nl + 1 - d);
        fw->next_line = src->lines;
        fw->open = true;
    }
}

/* A followed source's bytes are the program's own: a mapping's pages go
 * when the file is truncated (they fault, or read as zeros once it is written
 * again), and the events point into them. A mapped source is copied into
 * the heap when following starts. */
static void own_bytes(struct sbx_timeline *tl, uint32_t source)
{
    struct sbx_source *src = &tl->sources[source];
    if (src->how != SBX_DATA_MAPPED)
        return;
    char *copy = sbx_xmalloc(src->size + 1);
    memcpy(copy, src->data, src->size);
    copy[src->size] = '\0';
    sbx_timeline_set_data(tl, source, copy, src->size, SBX_DATA_HEAP);
}

struct sbx_follow *sbx_follow_start(struct sbx_timeline *tl,
                                    const struct sbx_import_opts *import)
{
    struct sbx_follow *f = sbx_xcalloc(1, sizeof *f);
    if (import)
        f->load.import = *import;
    f->files = sbx_xcalloc(tl->nsources ? tl->nsources : 1, sizeof *f->files);
    for (size_t i = 0; i < tl->nsources; i++) {
        const struct sbx_source *src = &tl->sources[i];
        const struct sbx_format *fmt = format_named(src->format);
        struct stat st;
        if (!fmt || fmt->derived || src->preview || strcmp(src->path, "-") == 0 || stat(src->path, &st) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        own_bytes(tl, (uint32_t)i);
        struct followed *fw = &f->files[f->n++];
        *fw = (struct followed){.source = (uint32_t)i, .dev = st.st_dev, .ino = st.st_ino,
                                .fmt = fmt, .active = true};
        note_position(fw, &tl->sources[i]);
    }
    return f;
}

size_t sbx_follow_count(const struct sbx_follow *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        n += f->files[i].active;
    return n;
}

static const char *error_text(int err)
{
    const char *s = strerrordesc_np(err); /* English whatever the locale: messages are ASCII */
    return s ? s : "unknown error";
}

/* Reads up to n bytes at off; returns how many (fewer at the end of the
 * file), or -1 with errno. */
static ssize_t read_at(int fd, char *buf, size_t n, size_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + got));
        if (r == 0)
            break;
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        got += (size_t)r;
    }
    return (ssize_t)got;
}

static void set_message(struct sbx_follow_file *out, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_message(struct sbx_follow_file *out, const char *path, const char *fmt, ...)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "%s: ", path);
    va_list ap;
    va_start(ap, fmt);
    sbx_buf_vaddf(&b, fmt, ap);
    va_end(ap);
    out->message = b.p;
}

/* The file's bytes from what the source holds up to size, read onto the end
 * of the source's own copy (own_bytes). Fewer when the file shrank since it
 * was looked at. Returns false with errno. */
static bool take_new_bytes(struct sbx_timeline *tl, uint32_t source, int fd, size_t size)
{
    struct sbx_source *src = &tl->sources[source];
    size_t old = src->size;
    char *p = sbx_xrealloc((void *)src->data, size + 1);
    ssize_t got = read_at(fd, p + old, size - old, old);
    if (got < 0) {
        int saved = errno;
        sbx_timeline_set_data(tl, source, p, old, SBX_DATA_HEAP); /* the bytes as they were */
        errno = saved;
        return false;
    }
    p[old + (size_t)got] = '\0';
    src->data = p; /* the same bytes, moved: nothing to release */
    src->size = old + (size_t)got;
    src->how = SBX_DATA_HEAP;
    return true;
}

static bool loaded_bytes_unchanged(int fd, const struct followed *fw)
{
    char head[KEPT], tail[KEPT];
    ssize_t n = (ssize_t)fw->nkept;
    return read_at(fd, head, fw->nkept, 0) == n && memcmp(head, fw->head, fw->nkept) == 0 &&
           read_at(fd, tail, fw->nkept, fw->loaded - fw->nkept) == n &&
           memcmp(tail, fw->tail, fw->nkept) == 0;
}

/* Imports what the source holds past the last complete line; returns the
 * number of events made. */
static size_t import_new(struct sbx_timeline *tl, struct followed *fw,
                         const struct sbx_load_opts *load)
{
    struct sbx_source *src = &tl->sources[fw->source];
    if (fw->resume == 0 && src->size >= 3 && memcmp(src->data, "\xEF\xBB\xBF", 3) == 0)
        fw->resume = 3; /* the file began with a BOM still arriving */
    if (fw->open)
        sbx_timeline_forget_line(tl, fw->source, fw->next_line, src->incomplete > 0);
    struct sbx_imported im;
    sbx_import_range(tl, fw->source, fw->fmt, fw->resume, fw->next_line - 1, load, &im);
    size_t added = 0;
    for (size_t i = 0; i < im.nbufs; i++)
        added += im.bufs[i].n;
    sbx_timeline_append(tl, im.bufs, im.nbufs);
    free(im.bufs);
    src->lines = fw->next_line - 1 + im.lines;
    src->full_size = src->size;
    note_position(fw, src);
    return added;
}

static void poll_one(struct followed *fw, struct sbx_timeline *tl, const struct sbx_load_opts *load,
                     struct sbx_follow_file *out)
{
    const char *path = tl->sources[fw->source].path;
    out->source = fw->source;
    struct stat st;
    if (stat(path, &st) != 0) {
        bool gone = errno == ENOENT || errno == ENOTDIR;
        out->status = gone ? SBX_FOLLOW_GONE : SBX_FOLLOW_ERROR;
        if (gone)
            set_message(out, path, "deleted; no longer followed");
        else
            set_message(out, path, "%s; no longer followed", error_text(errno));
        return;
    }
    if (st.st_dev != fw->dev || st.st_ino != fw->ino) {
        out->status = SBX_FOLLOW_REPLACED;
        set_message(out, path, "replaced by another file (renamed over or rotated); no longer followed");
        return;
    }
    if ((uint64_t)st.st_size == fw->loaded) {
        out->status = SBX_FOLLOW_UNCHANGED;
        return;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat fst;
    if (fd < 0 || fstat(fd, &fst) != 0) {
        out->status = errno == ENOENT ? SBX_FOLLOW_GONE : SBX_FOLLOW_ERROR;
        set_message(out, path, "%s; no longer followed", error_text(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    if (fst.st_dev != fw->dev || fst.st_ino != fw->ino) {
        out->status = SBX_FOLLOW_REPLACED;
        set_message(out, path, "replaced by another file (renamed over or rotated); no longer followed");
    } else if ((uint64_t)fst.st_size < fw->loaded) {
        out->status = SBX_FOLLOW_TRUNCATED;
        set_message(out, path,
                    "truncated to %llu bytes (%zu were loaded, and are kept); no longer followed",
                    (unsigned long long)fst.st_size, fw->loaded);
    } else if ((uint64_t)fst.st_size > fw->loaded && !loaded_bytes_unchanged(fd, fw)) {
        out->status = SBX_FOLLOW_TRUNCATED;
        set_message(out, path, "emptied and written again (the bytes loaded changed; the loaded "
                               "lines are kept); no longer followed");
    } else if (!sbx_source_fits((uint64_t)fst.st_size)) { /* as importers/load.c refuses */
        out->status = SBX_FOLLOW_ERROR;
        set_message(out, path, "grew past 128 GiB, the most a file may hold; no longer followed");
    } else if ((uint64_t)fst.st_size > fw->loaded) {
        size_t old = fw->loaded;
        if (take_new_bytes(tl, fw->source, fd, (size_t)fst.st_size)) {
            out->status = SBX_FOLLOW_GREW;
            out->events = import_new(tl, fw, load);
            set_message(out, path, "%zu new bytes, %zu new events", fw->loaded - old, out->events);
        } else {
            out->status = SBX_FOLLOW_ERROR;
            set_message(out, path, "cannot read the new bytes: %s; no longer followed",
                        error_text(errno));
        }
    } else {
        out->status = SBX_FOLLOW_UNCHANGED; /* shrank back between the two looks */
    }
    close(fd);
}

size_t sbx_follow_poll(struct sbx_follow *f, struct sbx_timeline *tl,
                       struct sbx_follow_report *rep)
{
    memset(rep, 0, sizeof *rep);
    size_t active = sbx_follow_count(f);
    rep->files = sbx_xcalloc(active ? active : 1, sizeof *rep->files);
    for (size_t i = 0; i < f->n; i++) {
        struct followed *fw = &f->files[i];
        if (!fw->active || fw->source >= tl->nsources)
            continue;
        struct sbx_follow_file *out = &rep->files[rep->nfiles++];
        poll_one(fw, tl, &f->load, out);
        rep->events += out->events;
        fw->active = out->status == SBX_FOLLOW_UNCHANGED || out->status == SBX_FOLLOW_GREW;
    }
    return rep->events;
}

void sbx_follow_report_free(struct sbx_follow_report *rep)
{
    for (size_t i = 0; i < rep->nfiles; i++)
        free(rep->files[i].message);
    free(rep->files);
    memset(rep, 0, sizeof *rep);
}

void sbx_follow_free(struct sbx_follow *f)
{
    if (!f)
        return;
    free(f->files);
    free(f);
}
