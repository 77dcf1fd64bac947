/* Differential fuzz target for following a growing log: the input (after two
 * bytes that pick the cuts) is written in three parts, loading the first and
 * polling after each of the others; the followed timeline must then equal a
 * fresh load of the whole file: the same events in the same order with the
 * same lines and offsets, the same skips and counts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/follow.h"
#include "importers/load.h"
#include "importers/readfile.h"

#define CHECK(cond, what)                                                          \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "follow differs from a fresh load: %s\n", what);       \
            abort();                                                               \
        }                                                                          \
    } while (0)

static const char *log_path(void)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/sbxview-fuzz-follow-%ld.jsonl", (long)getpid());
    return path;
}

static void put(const char *path, const char *mode, const uint8_t *data, size_t n)
{
    FILE *f = fopen(path, mode);
    if (!f)
        abort();
    if (n && fwrite(data, 1, n, f) != n)
        abort();
    fclose(f);
}

static size_t load(struct sbx_timeline *tl, const char *path)
{
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = 1};
    const char *paths[] = {path};
    size_t n = sbx_load_paths(tl, paths, 1, &opts, &rep);
    sbx_load_report_free(&rep);
    return n;
}

static void compare(const struct sbx_timeline *a, const struct sbx_timeline *b)
{
    CHECK(a->n == b->n, "event count");
    for (size_t i = 0; i < a->n; i++) {
        const struct sbx_event *x = sbx_tl_at(a, i), *y = sbx_tl_at(b, i);
        CHECK(sbx_ev_line_no(x) == sbx_ev_line_no(y), "line number");
        CHECK(x->start == y->start && x->end == y->end, "time");
        CHECK(x->line_off == y->line_off && sbx_ev_line_len(x) == sbx_ev_line_len(y), "line offset");
        CHECK(x->kind == y->kind && x->findings == y->findings, "kind");
    }
    const struct sbx_source *s = &a->sources[0], *t = &b->sources[0];
    CHECK(s->size == t->size && memcmp(s->data, t->data, s->size) == 0, "bytes");
    CHECK(s->events == t->events, "events counted");
    CHECK(s->skipped == t->skipped, "skips counted");
    CHECK(s->incomplete == t->incomplete, "incomplete");
    CHECK(s->lines == t->lines, "lines");
    if (b->nskips < SBX_SKIPS_KEPT) { /* past the cap, each import lists its own first ones */
        CHECK(a->nskips == b->nskips, "skips listed");
        for (size_t i = 0; i < a->nskips; i++)
            CHECK(a->skips[i].line == b->skips[i].line &&
                      strcmp(a->skips[i].reason, b->skips[i].reason) == 0,
                  "skip");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t n = size - 2;
    size_t cut1 = data[0] * n / 256, cut2 = cut1 + data[1] * (n - cut1) / 256;
    const uint8_t *body = data + 2;
    const char *path = log_path();

    put(path, "wb", body, cut1);
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    if (load(&tl, path) == 1) {
        struct sbx_follow *f = sbx_follow_start(&tl, NULL);
        if (sbx_follow_count(f) == 0) { /* a manifest or a diff: not followed */
            sbx_follow_free(f);
            sbx_timeline_free(&tl);
            unlink(path);
            return 0;
        }
        struct sbx_follow_report rep;
        put(path, "ab", body + cut1, cut2 - cut1);
        sbx_follow_poll(f, &tl, &rep);
        CHECK(rep.nfiles == 1 && rep.files[0].status <= SBX_FOLLOW_GREW, "status");
        sbx_follow_report_free(&rep);
        put(path, "ab", body + cut2, n - cut2);
        sbx_follow_poll(f, &tl, &rep);
        CHECK(rep.nfiles == 1 && rep.files[0].status <= SBX_FOLLOW_GREW, "status");
        sbx_follow_report_free(&rep);
        sbx_follow_free(f);
        for (size_t i = 1; i < tl.n; i++)
            CHECK(sbx_event_cmp(sbx_tl_at(&tl, i - 1), sbx_tl_at(&tl, i)) < 0, "order");

        struct sbx_timeline fresh;
        sbx_timeline_init(&fresh);
        /* the whole file may no longer look like a log (a later line spoilt
           the one that was recognised): then there is nothing to compare */
        /* nor when the whole file is read as another format than the one
           its first part was (an empty start is read as a recorder log) */
        /* nor when the file ends in a run of NUL bytes: a fresh load reads
           that as what a crash leaves (docs/hostile-inputs.md, the NUL tail)
           and reports it, while a file being followed may still be written
           over them, so following holds them as an unfinished last line */
        if (sbx_nul_tail((const char *)body, n) == n && load(&fresh, path) == 1 &&
            strcmp(fresh.sources[0].format, tl.sources[0].format) == 0)
            compare(&tl, &fresh);
        sbx_timeline_free(&fresh);
    }
    sbx_timeline_free(&tl);
    unlink(path);
    return 0;
}
