/* Arbitrary bytes as a Squid access.log: detection of every format, then the
 * squid import on one thread and on two (they must agree). No crash, no
 * leak, and every event's line and URL lie inside the file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"

static size_t run(const uint8_t *data, size_t size, int threads)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    uint32_t src = sbx_timeline_add_source(&tl, "access.log", copy, size, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = threads, .split_min = 1};
    sbx_load_source(&tl, src, &sbx_format_squid, &lo);
    sbx_timeline_finish(&tl);
    for (size_t i = 0; i < tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&tl, i);
        if (e->kind != SBX_EV_NETWORK || e->line_off + sbx_ev_line_len(e) > size)
            abort();
        const struct sbx_text *u = &e->u.net.url;
        if (u->flags & SBX_TEXT_PRESENT) {
            if (sbx_text_off(e, u) < e->line_off ||
                sbx_text_off(e, u) + sbx_text_len(u) > e->line_off + sbx_ev_line_len(e) || (u->flags & SBX_TEXT_LONG))
                abort();
        } else if (sbx_text_len(u)) {
            abort();
        }
        if (e->start != SBX_TIME_UNKNOWN && e->start > e->end)
            abort();
    }
    size_t n = tl.n;
    sbx_timeline_free(&tl);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sbx_detect_format((const char *)data, size);
    sbx_format_squid.detect((const char *)data, size);
    if (run(data, size, 1) != run(data, size, 2))
        abort();
    return 0;
}
