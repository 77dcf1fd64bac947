#include "importers/skipwords.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Appends "N" or "N-M" for the run of lines starting at skips[*i] whose
 * reason is reason, and moves *i past it; the run ends at a line of
 * another reason or a gap. */
static void add_range(const struct sbx_skip *skips, const bool *done, size_t n, size_t *i,
                      const char *reason, struct sbx_buf *out)
{
    uint32_t first = skips[*i].line, last = first;
    size_t j = *i + 1;
    while (j < n && !done[j] && skips[j].line == last + 1 && strcmp(skips[j].reason, reason) == 0)
        last = skips[j++].line;
    if (last == first)
        sbx_buf_addf(out, "%u", first);
    else
        sbx_buf_addf(out, "%u-%u", first, last);
    *i = j - 1;
}

void sbx_skip_words(const struct sbx_timeline *tl, uint32_t source, struct sbx_buf *out)
{
    size_t n = 0;
    for (size_t i = 0; i < tl->nskips; i++)
        n += tl->skips[i].source == source;
    if (!n)
        return;
    /* the source's skips in line order (the timeline keeps them so once finished) */
    struct sbx_skip *skips = sbx_xmalloc(n * sizeof *skips);
    size_t k = 0;
    for (size_t i = 0; i < tl->nskips; i++)
        if (tl->skips[i].source == source)
            skips[k++] = tl->skips[i];
    bool *done = sbx_xcalloc(n, sizeof *done);
    size_t start = out->len, named = 0;
    for (size_t g = 0; g < n && out->len - start < SBX_SKIPWORDS_MAX; g++) {
        if (done[g])
            continue;
        const char *reason = skips[g].reason;
        size_t lines = 0;
        for (size_t i = g; i < n; i++)
            lines += !done[i] && strcmp(skips[i].reason, reason) == 0;
        sbx_buf_addf(out, "%s%s ", out->len > start ? "; " : "", lines == 1 ? "line" : "lines");
        bool first = true;
        for (size_t i = g; i < n; i++) {
            if (done[i] || strcmp(skips[i].reason, reason) != 0)
                continue;
            size_t from = i;
            if (!first)
                sbx_buf_adds(out, ", ");
            first = false;
            add_range(skips, done, n, &i, reason, out);
            for (size_t m = from; m <= i; m++)
                done[m] = true;
            named += i - from + 1;
        }
        sbx_buf_addf(out, ": %s", reason);
    }
    const struct sbx_source *src = &tl->sources[source];
    size_t rest = src->skipped > named ? src->skipped - named : 0;
    if (rest)
        sbx_buf_addf(out, "; +%zu more line%s", rest, rest == 1 ? "" : "s");
    free(done);
    free(skips);
}
