#include "export/posted.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

const struct sbx_review_post *sbx_export_earlier(const struct sbx_review *r,
                                                 const struct sbx_target *t,
                                                 const char *review_marker)
{
    char target[512];
    if (sbx_send_memory_of(t->kind) == SBX_SEND_FINDS || !review_marker || !review_marker[0] ||
        !sbx_target_format(t, target, sizeof target))
        return NULL;
    return sbx_review_last_post(r, target, review_marker);
}

static char *dup(const char *s)
{
    return s ? sbx_xstrndup(s, strlen(s)) : NULL;
}

bool sbx_export_posted(const struct sbx_target *t, const struct sbx_body_info *info,
                       const struct sbx_send_result *res, const char *author, int64_t at,
                       struct sbx_review_post *p)
{
    char target[512];
    enum sbx_send_memory m = sbx_send_memory_of(t->kind);
    if (m == SBX_SEND_FINDS || !info->review_marker[0] ||
        !(res->status == SBX_SEND_POSTED || res->status == SBX_SEND_EDITED) ||
        (m == SBX_SEND_EDITS_ID && !res->comment_id[0]) ||
        !sbx_target_format(t, target, sizeof target))
        return false;
    memset(p, 0, sizeof *p);
    p->target = dup(target);
    p->exported = dup(info->review_marker);
    p->body = dup(info->marker);
    p->comment = m == SBX_SEND_EDITS_ID ? dup(res->comment_id) : NULL;
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
    free(p->author);
    memset(p, 0, sizeof *p);
}
