/* Copying out (app/copyout.h): Y, w or | then c, o or d. Y and | hand the
 * text to the program around the app (SBX_APP_OUTPUT: the clipboard or the
 * pager); w asks for a path and writes the file itself, 0600, never over a
 * file that is there without a y to confirm. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app_internal.h"
#include "app/copyout.h"

unsigned sbx_app_key_copy(struct sbx_app *a, int key)
{
    a->pending = key;
    sbx_app_message(a, false, "%s what? c the command line, o the output, d the detail",
                    key == 'Y' ? "copy" : key == 'w' ? "write" : "page");
    return 0;
}

unsigned sbx_app_copy_letter(struct sbx_app *a, int kind, int letter)
{
    char why[256];
    struct sbx_buf *to = kind == 'w' ? &a->write_text : &a->out;
    sbx_buf_clear(to);
    if (!sbx_copy_name(letter)) {
        sbx_app_message(a, true, "c the command line, o the output, d the detail");
        return 0;
    }
    if (!sbx_copy_text(a->tl, &a->look, sbx_app_event(a, a->cur), letter, a->opts.ascii, to, why,
                       sizeof why)) {
        sbx_app_message(a, true, "%s", why);
        return 0;
    }
    a->out_what = sbx_copy_name(letter);
    if (kind == 'w') {
        if (!a->opts.exports) {
            sbx_app_message(a, true, "writing files is off here");
            return 0;
        }
        a->prompt = 'w';
        sbx_buf_clear(&a->input);
        return 0;
    }
    a->out_to = kind;
    return SBX_APP_OUTPUT;
}

/* Writes the text to path: a new file (O_EXCL), or over the one there
 * when overwrite; 0600 either way; never through a symbolic link. */
static bool write_text(struct sbx_app *a, const char *path, bool overwrite)
{
    int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
    int fd = open(path, flags, 0600);
    if (fd < 0) {
        sbx_app_message(a, true, "cannot write %s: %s", path,
                        errno == ELOOP ? "it is a symbolic link" : strerror(errno));
        return false;
    }
    bool ok = fchmod(fd, 0600) == 0;
    for (size_t done = 0; ok && done < a->write_text.len;) {
        ssize_t w = write(fd, a->write_text.p + done, a->write_text.len - done);
        if (w < 0 && errno == EINTR)
            continue;
        ok = w > 0;
        done += ok ? (size_t)w : 0;
    }
    int err = errno;
    ok = close(fd) == 0 && ok;
    if (!ok)
        sbx_app_message(a, true, "cannot write %s: %s", path, strerror(err));
    else
        sbx_app_message(a, false, "%s written to %s (%zu bytes)", a->out_what, path, a->write_text.len);
    return ok;
}

void sbx_app_copy_write(struct sbx_app *a, const char *path)
{
    if (!*path) {
        sbx_app_message(a, false, "nothing written");
        return;
    }
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            sbx_app_message(a, true, "%s is not a regular file: nothing written", path);
            return;
        }
        free(a->write_path);
        a->write_path = sbx_xstrndup(path, strlen(path));
        a->pending = 'O';
        sbx_app_message(a, false, "%s exists: y overwrites it, any other key keeps it", path);
        return;
    }
    write_text(a, path, false);
}

void sbx_app_copy_confirm(struct sbx_app *a, int key)
{
    if (a->write_path && (key == 'y' || key == 'Y'))
        write_text(a, a->write_path, true);
    else
        sbx_app_message(a, false, "kept %s: nothing written", a->write_path ? a->write_path : "it");
    free(a->write_path);
    a->write_path = NULL;
}

const char *sbx_app_output(const struct sbx_app *a, int *to, size_t *n)
{
    *to = a->out_to;
    *n = a->out.len;
    return a->out.p ? a->out.p : "";
}

void sbx_app_output_done(struct sbx_app *a)
{
    a->out_to = 0;
    sbx_buf_clear(&a->out);
}
