/* A markdown file, file:PATH or a bare PATH (file:- is standard output):
 * written, not sent. */
#include <string.h>

#include "export/service.h"
#include "export/services/target_rules.h"

static bool parse(const char *rest, struct sbx_target *t, char *err, size_t errsz)
{
    if (!*rest)
        return sbx_rule_fail(err, errsz,
                             "file: needs a path (file:summary.md, or file:- for standard output)");
    t->path = sbx_xstrndup(rest, strlen(rest));
    return true;
}

static void format(const struct sbx_target *t, struct sbx_buf *out)
{
    sbx_buf_adds(out, t->path ? t->path : "");
}

static enum sbx_body_kind body_kind(int api)
{
    (void)api;
    return SBX_BODY_MARKDOWN;
}

const struct sbx_service sbx_service_file = {
    .name = "file",
    .form = "file:PATH.md",
    .parse = parse,
    .format = format,
    .body_kind = body_kind,
};
