/* The temporary folder of a fetch and the move of its files into place. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "importers/fetch/fetch_internal.h"

static char *path_join(const char *dir, const char *name)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "%s/%s", dir, name);
    return b.p;
}

static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* rename that never replaces: renameat2's flag where the file system has it,
 * else link + unlink for a file (link refuses an existing name). */
static int move_noreplace(const char *from, const char *to, bool is_dir)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    if (is_dir) {
        struct stat st;
        if (lstat(to, &st) == 0) {
            errno = EEXIST;
            return -1;
        }
        return rename(from, to);
    }
    if (link(from, to) != 0)
        return -1;
    return unlink(from);
}

bool sbx_fetch_out_open(struct sbx_fetch_out *o, const char *dir, char *const *names, size_t n,
                        bool force, char *err, size_t errsz)
{
    memset(o, 0, sizeof *o);
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    o->dir = sbx_xstrndup(dir, dl);
    struct stat st;
    struct sbx_buf tmp = SBX_BUF_INIT;
    if (stat(o->dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            snprintf(err, errsz, "%s: not a folder", o->dir);
            goto fail;
        }
        for (size_t i = 0; i < n && !force; i++) {
            char *p = path_join(o->dir, names[i]);
            bool there = lstat(p, &st) == 0;
            free(p);
            if (there) {
                snprintf(err, errsz,
                         "%s/%s exists (from an earlier fetch?): --force replaces it", o->dir,
                         names[i]);
                goto fail;
            }
        }
        sbx_buf_addf(&tmp, "%s/.sbxview-fetch-XXXXXX", o->dir);
    } else if (errno == ENOENT) {
        o->new_dir = true;
        const char *slash = memrchr(o->dir, '/', dl);
        if (slash && slash == o->dir)
            sbx_buf_addf(&tmp, "/.%s.sbxview-fetch-XXXXXX", slash + 1);
        else if (slash)
            sbx_buf_addf(&tmp, "%.*s/.%s.sbxview-fetch-XXXXXX", (int)(slash - o->dir), o->dir,
                         slash + 1);
        else
            sbx_buf_addf(&tmp, ".%s.sbxview-fetch-XXXXXX", o->dir);
    } else {
        snprintf(err, errsz, "%s: %s", o->dir, strerror(errno));
        goto fail;
    }
    if (!mkdtemp(tmp.p)) {
        snprintf(err, errsz, "%s: cannot make a temporary folder: %s",
                 o->new_dir ? "the output folder's parent" : o->dir, strerror(errno));
        sbx_buf_free(&tmp);
        goto fail;
    }
    o->tmp = tmp.p;
    return true;
fail:
    free(o->dir);
    memset(o, 0, sizeof *o);
    return false;
}

FILE *sbx_fetch_out_create(struct sbx_fetch_out *o, const char *name, char *err, size_t errsz)
{
    char *p = path_join(o->tmp, name);
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(err, errsz, "%s: %s", p, strerror(errno));
        if (fd >= 0)
            close(fd);
        free(p);
        return NULL;
    }
    free(p);
    SBX_GROW(o->names, o->n, o->cap);
    o->names[o->n++] = sbx_xstrndup(name, strlen(name));
    return f;
}

bool sbx_fetch_out_close(FILE *f, const char *name, char *err, size_t errsz)
{
    bool ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok)
        snprintf(err, errsz, "writing %s: %s", name, strerror(saved));
    return ok;
}

static void out_free(struct sbx_fetch_out *o)
{
    for (size_t i = 0; i < o->n; i++)
        free(o->names[i]);
    free(o->names);
    free(o->dir);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

void sbx_fetch_out_abort(struct sbx_fetch_out *o)
{
    if (o->tmp) {
        for (size_t i = 0; i < o->n; i++) {
            char *p = path_join(o->tmp, o->names[i]);
            unlink(p);
            free(p);
        }
        rmdir(o->tmp);
    }
    out_free(o);
}

#define OLD_PREFIX ".old-"

bool sbx_fetch_out_commit(struct sbx_fetch_out *o, bool force, char *err, size_t errsz)
{
    if (o->new_dir) {
        chmod(o->tmp, 0755);
        if (move_noreplace(o->tmp, o->dir, true) != 0) {
            snprintf(err, errsz, "%s: %s", o->dir,
                     errno == EEXIST || errno == ENOTEMPTY ? "appeared while fetching"
                                                          : strerror(errno));
            sbx_fetch_out_abort(o);
            return false;
        }
        sync_dir(o->dir);
        free(o->tmp);
        o->tmp = NULL;
        out_free(o);
        return true;
    }
    /* Into an existing folder: files that are replaced are first moved
     * aside into the temporary folder, so a failure can put everything back. */
    bool *moved = sbx_xcalloc(o->n ? o->n : 1, sizeof *moved);
    bool *backed = sbx_xcalloc(o->n ? o->n : 1, sizeof *backed);
    bool ok = true;
    for (size_t i = 0; i < o->n && ok; i++) {
        char *target = path_join(o->dir, o->names[i]);
        char *from = path_join(o->tmp, o->names[i]);
        struct sbx_buf old = SBX_BUF_INIT;
        sbx_buf_addf(&old, "%s/" OLD_PREFIX "%s", o->tmp, o->names[i]);
        struct stat st;
        if (force && lstat(target, &st) == 0) {
            if (rename(target, old.p) != 0) {
                snprintf(err, errsz, "%s: %s", target, strerror(errno));
                ok = false;
            } else {
                backed[i] = true;
            }
        }
        if (ok && move_noreplace(from, target, false) != 0) {
            snprintf(err, errsz, "%s: %s", target,
                     errno == EEXIST ? "appeared while fetching" : strerror(errno));
            ok = false;
        } else if (ok) {
            moved[i] = true;
        }
        free(target);
        free(from);
        sbx_buf_free(&old);
    }
    for (size_t i = 0; i < o->n; i++) {
        char *target = path_join(o->dir, o->names[i]);
        char *from = path_join(o->tmp, o->names[i]);
        struct sbx_buf old = SBX_BUF_INIT;
        sbx_buf_addf(&old, "%s/" OLD_PREFIX "%s", o->tmp, o->names[i]);
        if (!ok && moved[i])
            rename(target, from);
        if (backed[i]) {
            if (ok)
                unlink(old.p);
            else
                rename(old.p, target);
        }
        free(target);
        free(from);
        sbx_buf_free(&old);
    }
    free(moved);
    free(backed);
    if (ok) {
        sync_dir(o->dir);
        rmdir(o->tmp);
        out_free(o);
    } else {
        sbx_fetch_out_abort(o);
    }
    return ok;
}
