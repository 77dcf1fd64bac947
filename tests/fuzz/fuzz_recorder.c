/* The whole path a hostile log takes: load it as a recorder log (one thread
 * and two must agree), run every analysis, render the three summary formats.
 * No crash, no leak, the json summary must parse, no line jansson reads
 * (tests/fuzz/json_oracle.h) is skipped as not JSON, and every files event
 * holds what jansson reads from its line (tests/fuzz/files_oracle.h). */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "render/summary/summary.h"
#include "tests/fuzz/files_oracle.h"
#include "tests/fuzz/json_oracle.h"

static void run(const uint8_t *data, size_t size, int threads, size_t *events)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    uint32_t src = sbx_timeline_add_source(&tl, "fuzz.jsonl", copy, size, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = threads, .split_min = 1}; /* split even tiny inputs */
    sbx_load_source(&tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&tl);
    json_oracle_check(&tl, (const char *)data, size);
    for (size_t i = 0; i < tl.n; i++)
        if (files_oracle_diff(&tl, sbx_tl_at(&tl, i)))
            abort(); /* the flat reading of a files line disagrees with jansson's */
    *events = tl.n;
    struct sbx_summary sum;
    char err[256];
    struct sbx_summary_opts so = {.threads = threads};
    if (!sbx_summarize(&tl, &so, &sum, err, sizeof err))
        abort();
    for (int f = SBX_SUMMARY_TEXT; f <= SBX_SUMMARY_JSON; f++) {
        struct sbx_buf out = SBX_BUF_INIT;
        if (!sbx_render_summary(&tl, &sum, (enum sbx_summary_format)f, NULL, &out, err, sizeof err))
            abort();
        if (f == SBX_SUMMARY_JSON) {
            json_error_t e;
            json_t *v = json_loadb(out.p, out.len, 0, &e);
            if (!v)
                abort();
            json_decref(v);
        }
        sbx_buf_free(&out);
    }
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t one, two;
    run(data, size, 1, &one);
    run(data, size, 2, &two);
    if (one != two)
        abort();
    return 0;
}
