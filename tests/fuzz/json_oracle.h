/* The oracle the line-by-line JSON importers' fuzz targets share: a line is
 * skipped as "not JSON" only when jansson, read as every importer reads it
 * (importers/json/jsonload.h: \u0000 in values, the last of a key given
 * twice, integers beyond int64 as text), reads no object from it. A line
 * jansson reads is never lost as "not JSON". Header-only; aborts on a
 * disagreement. Nothing to free. */
#ifndef SBX_FUZZ_JSON_ORACLE_H
#define SBX_FUZZ_JSON_ORACLE_H

#include <stdlib.h>
#include <string.h>

#include "importers/json/jsonload.h"
#include "model/timeline.h"

static void json_oracle_check(const struct sbx_timeline *tl, const char *data, size_t size)
{
    const char *p = data, *end = data + size;
    for (uint32_t line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        for (size_t i = 0; i < tl->nskips; i++) {
            const struct sbx_skip *s = &tl->skips[i];
            if (s->line != line || strncmp(s->reason, "not JSON", 8) != 0)
                continue;
            json_t *j = sbx_json_load(p, len, 0, NULL, NULL);
            bool object = json_is_object(j);
            json_decref(j);
            if (object)
                abort(); /* jansson reads an object that was skipped as not JSON */
        }
        if (!nl)
            break;
        p = nl + 1;
    }
}

#endif
