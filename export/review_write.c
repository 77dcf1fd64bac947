#include "export/review_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jsonw.h"
#include "base/timefmt.h"

static void member(struct sbx_jsonw *w, const char *key, const char *v)
{
    if (!v)
        return;
    sbx_jw_key(w, key);
    sbx_jw_cstr(w, v);
}

void sbx_review_op_line(const struct sbx_review_op *op, struct sbx_buf *out)
{
    struct sbx_jsonw w;
    sbx_jw_init(&w, out, false);
    sbx_jw_object(&w);
    sbx_jw_key(&w, SBX_REVIEW_MAGIC);
    sbx_jw_int(&w, SBX_REVIEW_VERSION);
    member(&w, "op", sbx_review_op_name(op->kind));
    char t[SBX_TIME_BUFSZ];
    member(&w, "at", sbx_time_format(op->at, t));
    member(&w, "author", op->author ? op->author : "");
    member(&w, "item", op->item);
    member(&w, "to", op->to);
    member(&w, "tag", op->tag);
    member(&w, "state", op->state);
    member(&w, strchr(sbx_review_op_needs(op->kind), 'S') ? "reason" : "text", op->text);
    sbx_jw_end_object(&w);
    sbx_buf_addc(out, '\n');
}

/* mkdir -p of the folder above path. */
static bool make_parents(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return true;
}

/* Appends line[0..n) to path with one write(2). */
static bool append_line(const char *path, const struct sbx_buf *line, bool make_dirs, char *err,
                        size_t errsz)
{
    if (make_dirs && !make_parents(path)) {
        snprintf(err, errsz, "%s: cannot make its folder: %s", path, strerror(errno));
        return false;
    }
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return false;
    }
    ssize_t wrote = write(fd, line->p, line->len); /* one write: a whole line or none */
    int saved = errno;
    bool ok = wrote == (ssize_t)line->len;
    if (close(fd) != 0 && ok) {
        saved = errno;
        ok = false;
    }
    if (!ok)
        snprintf(err, errsz, "%s: the line was not written whole: %s", path,
                 wrote < 0 || saved ? strerror(saved) : "short write");
    return ok;
}

bool sbx_review_append(const char *path, const struct sbx_review_op *op, bool make_dirs,
                       char *err, size_t errsz)
{
    struct sbx_buf line = SBX_BUF_INIT;
    sbx_review_op_line(op, &line);
    bool ok = append_line(path, &line, make_dirs, err, errsz);
    sbx_buf_free(&line);
    return ok;
}

void sbx_review_post_line(const struct sbx_review_post *p, struct sbx_buf *out)
{
    struct sbx_jsonw w;
    sbx_jw_init(&w, out, false);
    sbx_jw_object(&w);
    sbx_jw_key(&w, SBX_REVIEW_MAGIC);
    sbx_jw_int(&w, SBX_REVIEW_VERSION);
    member(&w, "op", SBX_REVIEW_POSTED);
    char t[SBX_TIME_BUFSZ];
    member(&w, "at", sbx_time_format(p->at, t));
    member(&w, "author", p->author ? p->author : "");
    member(&w, "target", p->target);
    member(&w, "export", p->exported);
    member(&w, "body", p->body);
    member(&w, "comment", p->comment);
    member(&w, "server", p->server);
    sbx_jw_end_object(&w);
    sbx_buf_addc(out, '\n');
}

bool sbx_review_append_post(const char *path, const struct sbx_review_post *p, bool make_dirs,
                            char *err, size_t errsz)
{
    struct sbx_buf line = SBX_BUF_INIT;
    sbx_review_post_line(p, &line);
    bool ok = append_line(path, &line, make_dirs, err, errsz);
    sbx_buf_free(&line);
    return ok;
}
