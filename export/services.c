#include "export/services.h"

#include <string.h>

#include "export/service.h"

static const struct sbx_service *const table[SBX_TARGET_KINDS] = {
#define SBX_SERVICE_ROW(kind, name) [SBX_TARGET_##kind] = &sbx_service_##name,
    SBX_SERVICES(SBX_SERVICE_ROW)
#undef SBX_SERVICE_ROW
};

const struct sbx_service *sbx_service_of(enum sbx_target_kind k)
{
    return table[k];
}

const struct sbx_service *sbx_service_named(const char *name, size_t n, enum sbx_target_kind *k)
{
    for (size_t i = 0; i < SBX_TARGET_KINDS; i++)
        if (strlen(table[i]->name) == n && memcmp(table[i]->name, name, n) == 0) {
            *k = (enum sbx_target_kind)i;
            return table[i];
        }
    return NULL;
}
