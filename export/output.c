#include "export/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"

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

bool sbx_write_output(const char *path, const char *data, size_t len, char *err, size_t errsz)
{
    if (!path || strcmp(path, "-") == 0) {
        if (!write_all(1, data, len)) {
            snprintf(err, errsz, "standard output: %s", strerror(errno));
            return false;
        }
        return true;
    }
    struct sbx_buf tmp = SBX_BUF_INIT;
    sbx_buf_addf(&tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp.p);
    if (fd < 0) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        sbx_buf_free(&tmp);
        return false;
    }
    fchmod(fd, 0644);
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
