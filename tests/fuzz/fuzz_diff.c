/* Arbitrary bytes as a unified diff: the sections lie inside the input, in
 * order, without overlap; walking each one stays inside it; loaded as a
 * run's diff (importer, then the cross-file step) every file is found by its
 * path and the files event names only files the diff holds. No crash, no
 * leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"
#include "importers/mdiff.h"
#include "model/diffs.h"
#include "model/files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *d = (const char *)data;
    sbx_diff_looks_like(d, size);
    struct sbx_diff_parsed p;
    sbx_diff_parse(d, size, &p);
    uint64_t prev_end = 0;
    for (size_t i = 0; i < p.nfiles; i++) {
        const struct sbx_diff_file *f = &p.files[i];
        if (f->off < prev_end || f->off + f->len > size || !f->path[0])
            abort();
        prev_end = f->off + f->len;
        struct sbx_diff_iter it;
        struct sbx_diff_line l;
        sbx_diff_iter_bytes(&it, d + f->off, f->len);
        while (sbx_diff_next(&it, &l))
            if (l.text < d + f->off || l.text + l.len > d + f->off + f->len)
                abort();
    }
    sbx_diff_parsed_free(&p);

    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    uint32_t src = sbx_timeline_add_source(&tl, "changes.patch", copy, size, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(&tl, src, &sbx_format_diff, &lo);
    sbx_mdiff_link(&tl);
    sbx_timeline_finish(&tl);
    for (size_t i = 0; i < tl.ndiffs; i++)
        if (!sbx_diff_find(&tl, tl.diffs[i].path))
            abort();
    for (size_t i = 0; i < tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&tl, i);
        if (e->kind != SBX_EV_FILES)
            abort();
        for (int c = 0; c < SBX_CHANGE_COUNT; c++)
            for (uint32_t k = 0; k < e->u.files->n[c]; k++) {
                const char *path = sbx_files_path(&tl, e->u.files, (enum sbx_change)c, k);
                bool named = sbx_diff_find(&tl, path) != NULL;
                for (size_t j = 0; j < tl.ndiffs && !named; j++)
                    named = tl.diffs[j].old_path && strcmp(tl.diffs[j].old_path, path) == 0;
                if (!named && e->u.files->root == 0)
                    abort();
            }
    }
    sbx_timeline_free(&tl);
    return 0;
}
