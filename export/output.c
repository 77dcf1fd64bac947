#include "export/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* A device or FIFO is written as it is: it cannot be replaced, and must not be. */
static bool write_in_place(const char *path, const char *data, size_t len, char *err, size_t errsz)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return false;
    }
    bool ok = write_all(fd, data, len);
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok)
        snprintf(err, errsz, "%s: %s", path, strerror(saved));
    return ok;
}

/* A new file beside the target, renamed over it once whole. */
static bool write_whole(const char *path, mode_t mode, const char *data, size_t len, char *err,
                        size_t errsz)
{
    struct sbx_buf tmp = SBX_BUF_INIT;
    sbx_buf_addf(&tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp.p);
    if (fd < 0) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        sbx_buf_free(&tmp);
        return false;
    }
    fchmod(fd, mode);
    bool ok = write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp.p, path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        unlink(tmp.p);
        snprintf(err, errsz, "%s: %s", path, strerror(saved));
    }
    sbx_buf_free(&tmp);
    return ok;
}

bool sbx_write_output(const char *path, const char *data, size_t len, char *err, size_t errsz)
{
    if (!path || strcmp(path, "-") == 0) {
        if (!write_all(1, data, len)) {
            snprintf(err, errsz, "standard output: %s", strerror(errno));
            return false;
        }
        return true;
    }
    struct stat st;
    /* a device or FIFO, however it is reached (the kernel follows
       /dev/stdout's /proc link to a pipe, which readlink cannot) */
    if (stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
        return write_in_place(path, data, len, err, errsz);
    struct sbx_buf target = SBX_BUF_INIT;
    bool ok = false;
    if (!resolve_links(path, &target)) {
        snprintf(err, errsz, "%s: %s", path,
                 errno == ELOOP ? "a loop of symbolic links" : strerror(errno));
    } else if (stat(target.p, &st) != 0) {
        ok = write_whole(target.p, 0644, data, len, err, errsz); /* a new file */
    } else if (S_ISREG(st.st_mode)) {
        ok = write_whole(target.p, st.st_mode & 07777, data, len, err, errsz);
    } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        ok = write_in_place(target.p, data, len, err, errsz);
    } else {
        snprintf(err, errsz, "%s: %s", path,
                 S_ISDIR(st.st_mode) ? "is a folder"
                 : S_ISBLK(st.st_mode) ? "a block device (sbxview does not write over a disk)"
                                       : "not a file, a character device or a FIFO");
    }
    sbx_buf_free(&target);
    return ok;
}
