#include "model/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/fnv.h"

enum { BLOCK_SIZE = 64 * 1024 };

static uint64_t hash_bytes(const char *s, size_t n)
{
    return sbx_fnv1a(SBX_FNV_BASIS, s, n);
}

void sbx_strtab_init(struct sbx_strtab *t)
{
    memset(t, 0, sizeof *t);
    pthread_mutex_init(&t->lock, NULL);
    t->cap = 64;
    t->str = sbx_xcalloc(t->cap, sizeof *t->str);
    t->len = sbx_xcalloc(t->cap, sizeof *t->len);
    t->str[0] = "";
    t->n = 1;
    t->nslots = 128;
    t->slots = sbx_xcalloc(t->nslots, sizeof *t->slots);
}

void sbx_strtab_free(struct sbx_strtab *t)
{
    for (size_t i = 0; i < t->nblocks; i++)
        free(t->blocks[i]);
    free(t->blocks);
    free(t->str);
    free(t->len);
    free(t->slots);
    pthread_mutex_destroy(&t->lock);
    memset(t, 0, sizeof *t);
}

static char *store_locked(struct sbx_strtab *t, const char *s, size_t n)
{
    if (n + 1 > t->block_cap - t->block_used) {
        size_t cap = n + 1 > BLOCK_SIZE ? n + 1 : BLOCK_SIZE;
        t->blocks = sbx_xrealloc(t->blocks, (t->nblocks + 1) * sizeof *t->blocks);
        t->block = t->blocks[t->nblocks++] = sbx_xmalloc(cap);
        t->block_cap = cap;
        t->block_used = 0;
    }
    char *p = t->block + t->block_used;
    memcpy(p, s, n);
    p[n] = '\0';
    t->block_used += n + 1;
    return p;
}

const char *sbx_strtab_store(struct sbx_strtab *t, const char *s, size_t n)
{
    pthread_mutex_lock(&t->lock);
    const char *p = store_locked(t, s, n);
    pthread_mutex_unlock(&t->lock);
    return p;
}

static void rehash_locked(struct sbx_strtab *t)
{
    uint32_t nslots = t->nslots * 2;
    uint32_t *slots = sbx_xcalloc(nslots, sizeof *slots);
    for (uint32_t id = 1; id < t->n; id++) {
        uint64_t h = hash_bytes(t->str[id], t->len[id]);
        uint32_t i = (uint32_t)h & (nslots - 1);
        while (slots[i])
            i = (i + 1) & (nslots - 1);
        slots[i] = id;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
}

/* The id of s[0..n) (n > 0), interned if new; the table's lock is held. */
static uint32_t intern_locked(struct sbx_strtab *t, const char *s, size_t n, uint64_t h)
{
    uint32_t i = (uint32_t)h & (t->nslots - 1);
    for (;;) {
        uint32_t id = t->slots[i];
        if (!id)
            break;
        if (t->len[id] == n && memcmp(t->str[id], s, n) == 0)
            return id;
        i = (i + 1) & (t->nslots - 1);
    }
    if (t->n == t->cap) {
        t->cap *= 2;
        t->str = sbx_xrealloc(t->str, t->cap * sizeof *t->str);
        t->len = sbx_xrealloc(t->len, t->cap * sizeof *t->len);
    }
    uint32_t id = t->n++;
    t->str[id] = store_locked(t, s, n);
    t->len[id] = (uint32_t)n;
    t->slots[i] = id;
    if ((uint64_t)t->n * 2 > t->nslots)
        rehash_locked(t);
    return id;
}

uint32_t sbx_strtab_intern(struct sbx_strtab *t, const char *s, size_t n)
{
    if (n == 0)
        return 0;
    if (n > UINT32_MAX)
        n = UINT32_MAX;
    uint64_t h = hash_bytes(s, n);
    pthread_mutex_lock(&t->lock);
    uint32_t id = intern_locked(t, s, n, h);
    pthread_mutex_unlock(&t->lock);
    return id;
}

const char *sbx_strtab_intern_str(struct sbx_strtab *t, const char *s, size_t n)
{
    if (n == 0)
        return "";
    if (n > UINT32_MAX)
        return sbx_strtab_store(t, s, n); /* lengths are 32-bit: kept, not interned */
    uint64_t h = hash_bytes(s, n);
    pthread_mutex_lock(&t->lock);
    uint32_t id = intern_locked(t, s, n, h); /* before t->str is read: it may move */
    const char *p = t->str[id];
    pthread_mutex_unlock(&t->lock);
    return p;
}

const char *sbx_strtab_get(const struct sbx_strtab *t, uint32_t id)
{
    return id < t->n ? t->str[id] : "";
}

uint32_t sbx_strtab_len(const struct sbx_strtab *t, uint32_t id)
{
    return id < t->n ? t->len[id] : 0;
}
