#include "base/selfpath.h"

#include <string.h>
#include <unistd.h>

bool sbx_self_exe(char *out, size_t n)
{
    if (n < 2)
        return false;
    ssize_t len = readlink("/proc/self/exe", out, n - 1);
    if (len <= 0 || (size_t)len >= n - 1)
        return false; /* unreadable, or maybe cut at n - 1 bytes */
    out[len] = '\0';
    return out[0] == '/';
}

bool sbx_path_beside(const char *exe, const char *rel, char *out, size_t n)
{
    const char *slash = strrchr(exe, '/');
    if (!slash || n == 0)
        return false;
    size_t len = (size_t)(slash - exe); /* the folder, without its last slash */
    if (len >= n)
        return false;
    memcpy(out, exe, len);
    out[len] = '\0';
    for (const char *p = rel; *p;) {
        const char *end = strchr(p, '/');
        size_t seg = end ? (size_t)(end - p) : strlen(p);
        if (seg == 2 && p[0] == '.' && p[1] == '.') {
            char *up = strrchr(out, '/');
            if (!up)
                return false; /* above the root, or above a relative start */
            len = (size_t)(up - out);
            out[len] = '\0';
        } else if (seg > 0 && !(seg == 1 && p[0] == '.')) {
            if (len + 1 + seg >= n)
                return false;
            out[len++] = '/';
            memcpy(out + len, p, seg);
            len += seg;
            out[len] = '\0';
        }
        p += seg + (end ? 1 : 0);
    }
    if (len == 0) { /* climbed to the root itself */
        if (n < 2)
            return false;
        out[0] = '/';
        out[1] = '\0';
    }
    return true;
}
