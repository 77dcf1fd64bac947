#include "export/posted.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "export/review_write.h"

/* The server t's posts are kept for: *server NULL for a service without
 * servers; false when it has them but env names none. */
static bool server_of(const struct sbx_target *t, const struct sbx_send_env *env,
                      char buf[SBX_SEND_SERVER_MAX], const char **server)
{
    *server = NULL;
    if (sbx_send_memory_of(t->kind) != SBX_SEND_EDITS_ID)
        return true;
    if (!sbx_send_server(t, env, buf))
        return false;
    *server = buf;
    return true;
}

const struct sbx_review_post *sbx_export_earlier(const struct sbx_review *r,
                                                 const struct sbx_target *t,
                                                 const struct sbx_send_env *env,
                                                 const char *review_marker)
{
    char target[512], buf[SBX_SEND_SERVER_MAX];
    const char *server;
    if (sbx_send_memory_of(t->kind) == SBX_SEND_FINDS || !review_marker || !review_marker[0] ||
        !sbx_target_format(t, target, sizeof target) || !server_of(t, env, buf, &server))
        return NULL;
    return sbx_review_last_post(r, target, server, review_marker);
}

static char *dup(const char *s)
{
    return s ? sbx_xstrndup(s, strlen(s)) : NULL;
}

bool sbx_export_posted(const struct sbx_target *t, const struct sbx_send_env *env,
                       const struct sbx_body_info *info, const struct sbx_send_result *res,
                       const char *author, int64_t at, struct sbx_review_post *p)
{
    char target[512], buf[SBX_SEND_SERVER_MAX];
    const char *server;
    enum sbx_send_memory m = sbx_send_memory_of(t->kind);
    if (m == SBX_SEND_FINDS || !info->review_marker[0] ||
        !(res->status == SBX_SEND_POSTED || res->status == SBX_SEND_EDITED) ||
        (m == SBX_SEND_EDITS_ID && !res->comment_id[0]) ||
        !sbx_target_format(t, target, sizeof target) || !server_of(t, env, buf, &server))
        return false;
    memset(p, 0, sizeof *p);
    p->target = dup(target);
    p->exported = dup(info->review_marker);
    p->body = dup(info->marker);
    p->comment = m == SBX_SEND_EDITS_ID ? dup(res->comment_id) : NULL;
    p->server = dup(server);
    p->author = dup(author ? author : "");
    p->at = at;
    return true;
}

bool sbx_export_body_kept(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                          const struct sbx_export_digests *d, struct sbx_body_opts *bo,
                          const struct sbx_review *r, const struct sbx_target *t,
                          const struct sbx_send_env *env, bool repost, struct sbx_buf *out,
                          struct sbx_body_info *info, const struct sbx_review_post **earlier,
                          char *err, size_t errsz)
{
    *earlier = NULL;
    size_t start = out->len;
    if (!sbx_export_body(tl, sum, d, bo, out, info, err, errsz))
        return false;
    if (repost || !r)
        return true;
    *earlier = sbx_export_earlier(r, t, env, info->review_marker);
    if (!*earlier || sbx_send_memory_of(t->kind) != SBX_SEND_REPLACES ||
        strcmp((*earlier)->body, info->marker) == 0)
        return true; /* the same review posted again replaces nothing */
    bo->replaces_body = (*earlier)->body;
    bo->replaces_at = (*earlier)->at;
    out->len = start;
    return sbx_export_body(tl, sum, d, bo, out, info, err, errsz);
}

void sbx_export_kept_opts(const struct sbx_review_post *earlier, struct sbx_send_opts *o)
{
    o->kept_comment = earlier ? earlier->comment : NULL;
    o->kept_body = earlier ? earlier->body : NULL;
}

bool sbx_export_keep_post(const char *path, bool make_dirs, const struct sbx_target *t,
                          const struct sbx_send_env *env, const struct sbx_body_info *info,
                          const struct sbx_send_result *res, const char *author, int64_t at,
                          char *err, size_t errsz)
{
    struct sbx_review_post p;
    if (!path || !sbx_export_posted(t, env, info, res, author, at, &p))
        return true;
    bool ok = sbx_review_append_post(path, &p, make_dirs, err, errsz);
    sbx_review_post_free(&p);
    return ok;
}
