/* The --to syntax the services share; each service's own rules are in
 * its file (export/services/). */
#include "export/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "export/service.h"
#include "export/services/target_rules.h"

const char *sbx_target_kind_name(enum sbx_target_kind k)
{
    return (unsigned)k < SBX_TARGET_KINDS ? sbx_service_of(k)->name : "?";
}

bool sbx_target_posts(const struct sbx_target *t)
{
    return sbx_service_of(t->kind)->request != NULL;
}

enum sbx_body_kind sbx_target_body_kind(enum sbx_target_kind k, int jira_api)
{
    return sbx_service_of(k)->body_kind(jira_api);
}

size_t sbx_target_limit(enum sbx_target_kind k)
{
    return sbx_service_of(k)->limit;
}

/* Each service's word (with_form: its whole form), "a, b, c or d". */
static void list_services(char *err, size_t errsz, const char *before, bool with_form,
                          const char *after)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, before);
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++) {
        const struct sbx_service *s = sbx_service_of((enum sbx_target_kind)k);
        if (k)
            sbx_buf_adds(&b, k + 1 == SBX_TARGET_KINDS ? " or " : ", ");
        if (with_form)
            sbx_buf_adds(&b, s->form);
        else
            sbx_buf_addf(&b, "%s:", s->name);
    }
    sbx_buf_adds(&b, after);
    sbx_rule_fail(err, errsz, b.p);
    sbx_buf_free(&b);
}

bool sbx_target_parse(const char *s, struct sbx_target *t, char *err, size_t errsz)
{
    memset(t, 0, sizeof *t);
    if (!s || !*s) {
        list_services(err, errsz, "no export target given (--to ", true, ")");
        return false;
    }
    /* "WORD:" names a service; anything else is a file's path */
    size_t w = 0;
    while (sbx_rule_alnum(s[w]) || s[w] == '-')
        w++;
    if (w == 0 || s[w] != ':') {
        t->kind = SBX_TARGET_FILE;
        return sbx_service_of(t->kind)->parse(s, t, err, errsz);
    }
    const struct sbx_service *svc = sbx_service_named(s, w, &t->kind);
    if (!svc) {
        list_services(err, errsz, "unknown export target kind (use ", false,
                      "; a path that holds a colon: ./NAME)");
        return false;
    }
    return svc->parse(s + w + 1, t, err, errsz);
}

void sbx_target_free(struct sbx_target *t)
{
    free(t->path);
    free(t->owner);
    free(t->repo);
    free(t->project);
    free(t->key);
    memset(t, 0, sizeof *t);
}

bool sbx_target_format(const struct sbx_target *t, char *buf, size_t n)
{
    const struct sbx_service *svc = sbx_service_of(t->kind);
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "%s:", svc->name);
    svc->format(t, &b);
    int r = snprintf(buf, n, "%s", b.p);
    sbx_buf_free(&b);
    return r >= 0 && (size_t)r < n;
}
