/* Runtime's importers on arbitrary bytes taken as a whole file: detection,
 * then each Runtime format forced on the bytes, on one thread and on two
 * (split even for tiny inputs), and the one-delivery signature check. No
 * crash, no leak; both thread counts give the same events; every event's
 * raw text lies inside the file, is one JSON object, and starts on a line
 * the file has. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"
#include "importers/formats/runtime/runtime.h"
#include "importers/formats/runtime/runtime_span.h"

#define CHECK(c)                                                                                 \
    do {                                                                                         \
        if (!(c))                                                                                \
            abort();                                                                             \
    } while (0)

static void load(struct sbx_timeline *tl, const uint8_t *data, size_t size,
                 const struct sbx_format *fmt, int threads)
{
    sbx_timeline_init(tl);
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    uint32_t src = sbx_timeline_add_source(tl, "fuzz.json", copy, size, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = threads, .split_min = 1,
                               .import.webhook_secrets = "fuzz-secret, other"}; /* checked */
    sbx_load_source(tl, src, fmt, &lo);
    sbx_timeline_finish(tl);
    const struct sbx_source *s = &tl->sources[src];
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        CHECK(e->line_off <= size && sbx_ev_line_len(e) <= size - e->line_off && sbx_ev_line_len(e) >= 2);
        CHECK(s->data[e->line_off] == '{' && s->data[e->line_off + sbx_ev_line_len(e) - 1] == '}');
        CHECK(sbx_ev_line_no(e) >= 1 && sbx_ev_line_no(e) <= s->lines);
        if (e->kind == SBX_EV_FILES)
            for (int c = 0; c < SBX_CHANGE_COUNT; c++)
                for (uint32_t k = 0; k < e->u.files->n[c]; k++)
                    CHECK(sbx_files_ids(e->u.files, (enum sbx_change)c)[k] < tl->strings.n);
    }
    for (size_t i = 0; i < tl->nskips; i++)
        CHECK(tl->skips[i].line >= 1 && tl->skips[i].line <= s->lines);
}

static void compare(const struct sbx_timeline *a, const struct sbx_timeline *b)
{
    CHECK(a->n == b->n && a->nskips == b->nskips);
    for (size_t i = 0; i < a->n; i++) {
        CHECK(sbx_ev_line_no(sbx_tl_at(a, i)) == sbx_ev_line_no(sbx_tl_at(b, i)));
        CHECK(sbx_tl_at(a, i)->line_off == sbx_tl_at(b, i)->line_off);
        CHECK(sbx_tl_at(a, i)->kind == sbx_tl_at(b, i)->kind);
        CHECK(sbx_tl_at(a, i)->findings == sbx_tl_at(b, i)->findings);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const struct sbx_format *found = sbx_detect_format(text, size);
    static const struct sbx_format *const runtime[] = {
        &sbx_format_runtime_commands, &sbx_format_runtime_events, &sbx_format_runtime_audit,
        &sbx_format_runtime_metrics, &sbx_format_runtime_webhooks,
    };
    for (size_t f = 0; f < sizeof runtime / sizeof *runtime; f++) {
        /* the detected format on every input, the others on a share of them */
        if (runtime[f] != found && size && data[0] % 5 != f)
            continue;
        struct sbx_timeline one, two;
        load(&one, data, size, runtime[f], 1);
        load(&two, data, size, runtime[f], 2);
        compare(&one, &two);
        sbx_timeline_free(&one);
        sbx_timeline_free(&two);
    }

    struct sbx_webhook_secrets s;
    sbx_webhook_secrets_parse(&s, "fuzz-secret");
    enum sbx_sig r = sbx_runtime_delivery_check(text, size, &s);
    CHECK(r != SBX_SIG_UNCHECKED);
    sbx_webhook_secrets_free(&s);

    const char *at;
    if (size && sbx_rt_value_end(text, text + size, &at) == SBX_RT_SPAN_OK)
        CHECK(at > text && at <= text + size);
    return 0;
}
