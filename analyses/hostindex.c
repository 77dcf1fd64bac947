#include "analyses/hostindex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/fnv.h"

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = sbx_fnv1a(SBX_FNV_BASIS, s, n);
    return h ^ (h >> 29);
}

static struct sbx_hostslot *slot_of(const struct sbx_hostindex *ix, const char *name, size_t len)
{
    size_t mask = ix->nslots - 1;
    for (size_t k = hash(name, len) & mask;; k = (k + 1) & mask) {
        struct sbx_hostslot *s = &ix->slots[k];
        if (!s->name || (s->len == len && memcmp(s->name, name, len) == 0))
            return s;
    }
}

size_t sbx_hostindex_find(const struct sbx_hostindex *ix, const char *name, size_t len)
{
    if (!ix->n)
        return SIZE_MAX;
    const struct sbx_hostslot *s = slot_of(ix, name, len);
    return s->name ? s->at : SIZE_MAX;
}

static void grow(struct sbx_hostindex *ix)
{
    struct sbx_hostindex bigger = {NULL, ix->nslots ? ix->nslots * 2 : 16, 0};
    bigger.slots = sbx_xcalloc(bigger.nslots, sizeof *bigger.slots);
    for (size_t i = 0; i < ix->nslots; i++)
        if (ix->slots[i].name) {
            *slot_of(&bigger, ix->slots[i].name, ix->slots[i].len) = ix->slots[i];
            bigger.n++;
        }
    free(ix->slots);
    *ix = bigger;
}

void sbx_hostindex_put(struct sbx_hostindex *ix, const char *name, size_t len, size_t at)
{
    if (2 * (ix->n + 1) > ix->nslots)
        grow(ix);
    struct sbx_hostslot *s = slot_of(ix, name, len);
    if (!s->name)
        ix->n++;
    *s = (struct sbx_hostslot){name, len, at};
}

void sbx_hostindex_free(struct sbx_hostindex *ix)
{
    free(ix->slots);
    *ix = (struct sbx_hostindex)SBX_HOSTINDEX_INIT;
}
