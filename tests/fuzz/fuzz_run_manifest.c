/* Arbitrary bytes as a run's manifest (importers/runs_manifest.h). The
 * oracle: a manifest that is read gives a row whose known columns and
 * findings are names sbxview has, and reading it again gives the same row;
 * one that is refused leaves the row as it was and says why; a read row
 * written back as a runs_row reads as the same row. No crash, no leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/runs.h"
#include "base/buf.h"
#include "base/timefmt.h"
#include "importers/runs_manifest.h"
#include "model/findings.h"

static bool same(const struct sbx_run_row *a, const struct sbx_run_row *b)
{
    return a->start == b->start && a->end == b->end && a->known == b->known &&
           a->events == b->events && a->findings == b->findings &&
           memcmp(a->count, b->count, sizeof a->count) == 0;
}

static void write_row(const struct sbx_run_row *r, struct sbx_buf *b)
{
    sbx_buf_adds(b, "{\"schema\": 1, \"verdict\": {}, \"runs_row\": {\"start_ns\": ");
    if (r->start == SBX_TIME_UNKNOWN)
        sbx_buf_adds(b, "null");
    else
        sbx_buf_addf(b, "%lld", (long long)r->start);
    sbx_buf_adds(b, ", \"end_ns\": ");
    if (r->end == SBX_TIME_UNKNOWN)
        sbx_buf_adds(b, "null");
    else
        sbx_buf_addf(b, "%lld", (long long)r->end);
    sbx_buf_addf(b, ", \"events\": %zu, \"counts\": {", r->events);
    for (int c = SBX_RUN_SANDBOXES; c < SBX_RUN_NCOLS; c++)
        sbx_buf_addf(b, "%s\"%s\": %zu", c == SBX_RUN_SANDBOXES ? "" : ", ",
                     sbx_run_col_name((enum sbx_run_col)c), r->count[c]);
    sbx_buf_adds(b, "}, \"known\": [");
    bool first = true;
    for (int c = SBX_RUN_SANDBOXES; c < SBX_RUN_NCOLS; c++)
        if (r->known & (1u << c)) {
            sbx_buf_addf(b, "%s\"%s\"", first ? "" : ", ", sbx_run_col_name((enum sbx_run_col)c));
            first = false;
        }
    sbx_buf_adds(b, "], \"findings\": [");
    first = true;
    for (size_t k = 0; k < sbx_nfindings; k++)
        if (r->findings & sbx_findings[k].bit) {
            sbx_buf_addf(b, "%s\"%s\"", first ? "" : ", ", sbx_findings[k].name);
            first = false;
        }
    sbx_buf_adds(b, "]}}");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct sbx_run_row row = {.start = 7, .end = 9}, again = row, before = row;
    char err[256] = "";
    bool ok = sbx_run_manifest_parse(text, size, &row, err, sizeof err);
    if (!ok) {
        if (!same(&row, &before) || !err[0])
            abort();
        return 0;
    }
    if (!sbx_run_manifest_sniff(text, size))
        abort();
    if (row.known & ~((1u << SBX_RUN_NCOLS) - 1) || row.known & ((1u << SBX_RUN_SANDBOXES) - 1))
        abort();
    uint32_t all = 0;
    for (size_t k = 0; k < sbx_nfindings; k++)
        all |= sbx_findings[k].bit;
    if (row.findings & ~all)
        abort();
    if (!sbx_run_manifest_parse(text, size, &again, err, sizeof err) || !same(&row, &again))
        abort();
    struct sbx_buf b = SBX_BUF_INIT;
    write_row(&row, &b);
    struct sbx_run_row back = before;
    if (!sbx_run_manifest_parse(b.p, b.len, &back, err, sizeof err) || !same(&row, &back))
        abort();
    sbx_buf_free(&b);
    return 0;
}
