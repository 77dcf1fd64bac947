/* The ticket services, one row each: the only list of them in sbxview.
 *
 * A row X(KIND, name) makes the constant SBX_TARGET_KIND and names the
 * service defined in export/services/name.c (sbx_service_name, filled as
 * export/service.h describes). The rows are in the order messages list the
 * services; file comes last, as it also takes a bare path. Adding a
 * service is its file and its row here.
 *
 * Ownership: the services are static and constant; the lookups return
 * them. No global state. */
#ifndef SBX_EXPORT_SERVICES_H
#define SBX_EXPORT_SERVICES_H

#include <stddef.h>

#define SBX_SERVICES(X)                                                                        \
    X(GITHUB, github)                                                                          \
    X(GITLAB, gitlab)                                                                          \
    X(JIRA, jira)                                                                              \
    X(SLACK, slack)                                                                            \
    X(FILE, file)

enum sbx_target_kind {
#define SBX_SERVICE_KIND(kind, name) SBX_TARGET_##kind,
    SBX_SERVICES(SBX_SERVICE_KIND)
#undef SBX_SERVICE_KIND
    SBX_TARGET_KINDS /* how many there are */
};

struct sbx_service;

/* The service of kind k, which must be one of the kinds above. */
const struct sbx_service *sbx_service_of(enum sbx_target_kind k);
/* The service whose name is name[0..n), its kind in *k; NULL when none is. */
const struct sbx_service *sbx_service_named(const char *name, size_t n, enum sbx_target_kind *k);

#endif
