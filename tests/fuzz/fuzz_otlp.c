/* Arbitrary bytes as OTLP/JSON traces: detection, the import on one thread
 * and on two (they must agree), the summary with its span trees, and the
 * detail of each span (which re-reads its JSON); the JSON walker on the raw
 * bytes too (it must stay inside them whatever they are). No crash, no leak;
 * every event's range lies inside the file and is one object, its texts
 * inside it; every span is reachable from a root exactly once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"
#include "model/spans.h"
#include "analyses/summary.h"
#include "render/doc.h"
#include "render/views/views.h"

#define CHECK(c)                                                                                 \
    do {                                                                                         \
        if (!(c))                                                                                \
            abort();                                                                             \
    } while (0)

static void load(struct sbx_timeline *tl, const uint8_t *data, size_t size, int threads)
{
    sbx_timeline_init(tl);
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    uint32_t src = sbx_timeline_add_source(tl, "traces.jsonl", copy, size, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = threads, .split_min = 1};
    sbx_load_source(tl, src, &sbx_format_otlp, &lo);
    sbx_timeline_finish(tl);
    const char *d = tl->sources[src].data;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        CHECK(e->line_off <= size && sbx_ev_line_len(e) <= size - e->line_off && sbx_ev_line_len(e) >= 2);
        CHECK(d[e->line_off] == '{' && d[e->line_off + sbx_ev_line_len(e) - 1] == '}');
        /* a tool call that names no tool (no attribute, no span name) has
           no command text at all */
        if (e->kind == SBX_EV_COMMAND && (e->u.cmd.command.flags & SBX_TEXT_PRESENT)) {
            const struct sbx_text *t = &e->u.cmd.command;
            uint64_t off = sbx_text_off(e, t);
            CHECK(off >= e->line_off && off + sbx_text_len(t) <= e->line_off + sbx_ev_line_len(e));
            CHECK(!(t->flags & SBX_TEXT_LONG)); /* inside its line: the usual form */
        }
    }
}

static void walk_raw(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data;
    struct sbx_span_ids ids;
    sbx_span_ids_parse(p, size, &ids);
    struct sbx_jwk it;
    struct sbx_span_attr a;
    sbx_span_attrs_begin(&it, p, size);
    while (sbx_span_attrs_next(&it, &a))
        CHECK(a.key >= p && a.key + a.key_len <= p + size &&
              (!a.val || (a.val >= p && a.val_end <= p + size)));
    const char *r, *rend;
    for (size_t off = 0; off < size; off += 97)
        if (sbx_span_resource(p, size, off, &r, &rend))
            CHECK(r >= p && rend <= p + size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sbx_detect_format((const char *)data, size);
    walk_raw(data, size);
    struct sbx_timeline one, two;
    load(&one, data, size, 1);
    load(&two, data, size, 2);
    CHECK(one.n == two.n && one.nskips == two.nskips);
    sbx_timeline_free(&two);

    struct sbx_summary sum;
    char err[200];
    struct sbx_summary_opts so = {.threads = 1};
    CHECK(sbx_summarize(&one, &so, &sum, err, sizeof err));
    size_t reached = 0;
    for (size_t r = 0; r < sum.spans.nroots; r++) {
        uint32_t top = sum.spans.roots[r];
        reached++;
        for (uint32_t c = sbx_spans_next_in(&sum.spans, top, top); c != SBX_SPAN_NONE;
             c = sbx_spans_next_in(&sum.spans, top, c))
            reached++;
    }
    CHECK(reached == sum.spans.n && sum.spans.n == one.n);
    struct sbx_rows_look look;
    sbx_rows_look_init(&look, &one, &sum, false);
    struct sbx_doc doc;
    sbx_doc_init(&doc, 80, false);
    for (size_t i = 0; i < one.n && i < 16; i++) {
        sbx_doc_reset(&doc, 80);
        sbx_detail_doc(&doc, &look, sbx_tl_at(&one, i), false);
    }
    sbx_doc_free(&doc);
    sbx_rows_look_free(&look);
    sbx_summary_free(&sum);
    sbx_timeline_free(&one);
    return 0;
}
