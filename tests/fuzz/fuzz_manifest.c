/* Arbitrary bytes as two manifests (split at the first 0xff byte, or in the
 * middle): each line read alone, then both loaded and paired. The pair's
 * lists are sorted, unique, and name only paths one of the two holds; the
 * one- and two-thread imports agree on the skipped lines. No crash, no leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"
#include "importers/mdiff.h"
#include "model/files.h"

static size_t load_pair(const char *a, size_t na, const char *b, size_t nb, int threads,
                        struct sbx_timeline *tl)
{
    sbx_timeline_init(tl);
    const char *parts[2] = {a, b};
    size_t sizes[2] = {na, nb};
    struct sbx_load_opts lo = {.threads = threads, .split_min = 1};
    for (int i = 0; i < 2; i++) {
        char *copy = malloc(sizes[i] ? sizes[i] : 1);
        memcpy(copy, parts[i], sizes[i]);
        uint32_t src = sbx_timeline_add_source(tl, i ? "after.sha256" : "before.sha256", copy,
                                               sizes[i], SBX_DATA_HEAP);
        sbx_load_source(tl, src, &sbx_format_manifest, &lo);
    }
    sbx_mdiff_link(tl);
    sbx_timeline_finish(tl);
    return tl->sources[0].skipped + tl->sources[1].skipped;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *d = (const char *)data;
    sbx_format_manifest.detect(d, size);
    struct sbx_buf path = SBX_BUF_INIT;
    unsigned char hash[32];
    const char *why;
    for (const char *p = d, *end = d + size; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (sbx_manifest_line(p, len, hash, &path, &why) && !path.len)
            abort();
        p += len + 1;
    }
    sbx_buf_free(&path);

    const char *cut = memchr(d, 0xff, size);
    size_t na = cut ? (size_t)(cut - d) : size / 2, nb = size - na - (cut != NULL);
    const char *b = d + na + (cut != NULL);
    struct sbx_timeline one, two;
    if (load_pair(d, na, b, nb, 1, &one) != load_pair(d, na, b, nb, 2, &two))
        abort();
    if (one.n != 1 || sbx_tl_at(&one, 0)->kind != SBX_EV_FILES)
        abort();
    const struct sbx_files *f = sbx_tl_at(&one, 0)->u.files;
    for (int c = 0; c < SBX_CHANGE_COUNT; c++)
        for (uint32_t k = 1; k < f->n[c]; k++)
            if (strcmp(sbx_files_path(&one, f, (enum sbx_change)c, k - 1), sbx_files_path(&one, f, (enum sbx_change)c, k)) >= 0)
                abort();
    sbx_timeline_free(&one);
    sbx_timeline_free(&two);
    return 0;
}
