#include "model/files.h"

#include <assert.h>

enum { MORE_WORDS = sizeof(struct sbx_files_more) / sizeof(uint32_t) };

struct sbx_files *sbx_files_new(struct sbx_evbuf *buf, const uint32_t room[SBX_CHANGE_COUNT], bool more)
{
    size_t words = (more ? MORE_WORDS : 0) + (size_t)room[0] + room[1] + room[2];
    struct sbx_files *f = sbx_evbuf_alloc_words(buf, sizeof *f + words * sizeof(uint32_t));
    if (more)
        f->flags = SBX_FILES_MORE;
    return f;
}

void sbx_files_add(struct sbx_files *f, enum sbx_change c, uint32_t id)
{
    for (int d = (int)c + 1; d < SBX_CHANGE_COUNT; d++)
        assert(f->n[d] == 0);
    uint32_t *ids = (uint32_t *)sbx_files_ids(f, c);
    ids[f->n[c]++] = id;
}

struct sbx_files_more *sbx_files_more_mut(struct sbx_files *f)
{
    return f->flags & SBX_FILES_MORE ? (struct sbx_files_more *)(void *)f->w : NULL;
}
