#include "export/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"

/* Symbolic links followed from a path before giving up, as the kernel does. */
enum { MAX_LINKS = 40 };

static bool write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t w = write(fd, data, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += w;
        len -= (size_t)w;
    }
    return true;
}

/* The path a chain of symbolic links from path ends at (which need not
 * exist yet), into *out; false with errno (ELOOP for a loop or too long a
 * chain). */
static bool resolve_links(const char *path, struct sbx_buf *out)
{
    sbx_buf_adds(out, path);
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(out->p, &st) != 0) {
            if (errno == ENOENT)
                return true; /* a new file at the end of the chain */
            return false;
        }
        if (!S_ISLNK(st.st_mode))
            return true;
        if (hops == MAX_LINKS) {
            errno = ELOOP;
            return false;
        }
        char target[PATH_MAX];
        ssize_t n = readlink(out->p, target, sizeof target - 1);
        if (n < 0)
            return false;
        target[n] = '\0';
        struct sbx_buf next = SBX_BUF_INIT;
        const char *slash = strrchr(out->p, '/');
        if (target[0] != '/' && slash) /* relative to the link's folder */
            sbx_buf_add(&next, out->p, (size_t)(slash - out->p) + 1);
        sbx_buf_adds(&next, target);
        sbx_buf_free(out);
        *out = next;
    }
}

/* An output being written (the rule is in output.h): its descriptor, the
 * temporary file's name when it replaces a file, and the first error. */
struct sbx_output {
    int fd;
    bool in_place;        /* standard output, a device or a FIFO: written as it is */
    char *name;           /* what a message names: the path, or "standard output" */
    struct sbx_buf tmp;   /* the temporary beside the target (a file only) */
    struct sbx_buf target;
    int error;            /* the first write's errno; 0: none */
};

static struct sbx_output *output_new(const char *name)
{
    struct sbx_output *o = sbx_xcalloc(1, sizeof *o);
    o->fd = -1;
    o->name = sbx_xstrndup(name, strlen(name));
    return o;
}

static void output_free(struct sbx_output *o)
{
    free(o->name);
    sbx_buf_free(&o->tmp);
    sbx_buf_free(&o->target);
    free(o);
}

static struct sbx_output *open_failed(struct sbx_output *o, const char *why, char *err, size_t errsz)
{
    snprintf(err, errsz, "%s: %s", o->name, why);
    output_free(o);
    return NULL;
}

/* A device or FIFO is written as it is: it cannot be replaced, and must not be. */
static struct sbx_output *open_in_place(struct sbx_output *o, const char *path, char *err, size_t errsz)
{
    o->in_place = true;
    o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (o->fd < 0) {
        free(o->name);
        o->name = sbx_xstrndup(path, strlen(path));
        return open_failed(o, strerror(errno), err, errsz);
    }
    return o;
}

/* A new file beside the target, renamed over it once whole. */
static struct sbx_output *open_whole(struct sbx_output *o, mode_t mode, char *err, size_t errsz)
{
    sbx_buf_addf(&o->tmp, "%s.tmp.XXXXXX", o->target.p);
    o->fd = mkstemp(o->tmp.p);
    if (o->fd < 0) {
        free(o->name);
        o->name = sbx_xstrndup(o->target.p, o->target.len);
        return open_failed(o, strerror(errno), err, errsz);
    }
    fchmod(o->fd, mode);
    return o;
}

struct sbx_output *sbx_output_open(const char *path, char *err, size_t errsz)
{
    if (!path || strcmp(path, "-") == 0) {
        struct sbx_output *o = output_new("standard output");
        o->fd = 1;
        o->in_place = true;
        return o;
    }
    struct sbx_output *o = output_new(path);
    struct stat st;
    /* a device or FIFO, however it is reached (the kernel follows
       /dev/stdout's /proc link to a pipe, which readlink cannot) */
    if (stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
        return open_in_place(o, path, err, errsz);
    if (!resolve_links(path, &o->target))
        return open_failed(o, errno == ELOOP ? "a loop of symbolic links" : strerror(errno), err, errsz);
    if (stat(o->target.p, &st) != 0)
        return open_whole(o, 0644, err, errsz); /* a new file */
    if (S_ISREG(st.st_mode))
        return open_whole(o, st.st_mode & 07777, err, errsz);
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
        return open_in_place(o, o->target.p, err, errsz);
    return open_failed(o, S_ISDIR(st.st_mode) ? "is a folder"
                          : S_ISBLK(st.st_mode) ? "a block device (sbxview does not write over a disk)"
                                                : "not a file, a character device or a FIFO",
                       err, errsz);
}

void sbx_output_write(struct sbx_output *o, const char *data, size_t len)
{
    if (!o->error && !write_all(o->fd, data, len))
        o->error = errno;
}

bool sbx_output_close(struct sbx_output *o, bool keep, char *err, size_t errsz)
{
    bool ok = keep && !o->error;
    int saved = o->error;
    if (ok && !o->in_place && fsync(o->fd) != 0) {
        ok = false;
        saved = errno;
    }
    if (o->fd != 1 && close(o->fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && !o->in_place && rename(o->tmp.p, o->target.p) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok && !o->in_place)
        unlink(o->tmp.p);
    if (!ok && keep) /* not kept on purpose: the caller's message stands */
        snprintf(err, errsz, "%s: %s", o->in_place || !o->tmp.len ? o->name : o->target.p, strerror(saved));
    output_free(o);
    return ok;
}

bool sbx_write_output(const char *path, const char *data, size_t len, char *err, size_t errsz)
{
    struct sbx_output *o = sbx_output_open(path, err, errsz);
    if (!o)
        return false;
    sbx_output_write(o, data, len);
    return sbx_output_close(o, true, err, errsz);
}
