#include "export/posted.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

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

void sbx_export_posted_free(struct sbx_review_post *p)
{
    free(p->target);
    free(p->exported);
    free(p->body);
    free(p->comment);
    free(p->server);
    free(p->author);
    memset(p, 0, sizeof *p);
}
