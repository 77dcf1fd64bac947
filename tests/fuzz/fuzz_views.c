/* Fuzz target for the files and network views' model and drawing
 * (analyses/filetree, analyses/netview, analyses/cmdlink, render/views/files,
 * render/views/network): a wrapper log, a proxy log and a diff from the
 * input are loaded and summarised; the tree and the hosts are made; every
 * row and every file's document is drawn at two widths. Every cell must be
 * safe to send to a terminal (tests/unit/cellcheck.h); the tree must be in
 * pre-order with each changed path once; the command-link index must agree
 * with the scan for every event.
 *
 * Input: the wrapper log, then a NUL byte, the proxy log, a NUL byte, the
 * diff (a part that is missing is empty). */
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"
#include "importers/mdiff.h"
#include "analyses/cmdlink.h"
#include "analyses/filetree.h"
#include "analyses/netview.h"
#include "render/views/views.h"
#include "tests/unit/cellcheck.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        abort();
    return 0;
}

static void check(const struct sbx_grid *g, const char *what)
{
    int r, c;
    const char *why = cc_grid(g, &r, &c);
    if (why) {
        fprintf(stderr, "fuzz_views: %s, %d columns, row %d col %d: %s\n", what, g->cols, r, c, why);
        abort();
    }
}

static void add(struct sbx_timeline *tl, const struct sbx_format *fmt, const char *name,
                const uint8_t *p, size_t n)
{
    char *copy = malloc(n + 1);
    if (n)
        memcpy(copy, p, n);
    uint32_t src = sbx_timeline_add_source(tl, name, copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(tl, src, fmt, &lo);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *part[3] = {data, NULL, NULL};
    size_t len[3] = {size, 0, 0};
    for (int k = 0; k < 2; k++) {
        const uint8_t *z = memchr(part[k], 0, len[k]);
        if (!z)
            break;
        part[k + 1] = z + 1;
        len[k + 1] = len[k] - (size_t)(z + 1 - part[k]);
        len[k] = (size_t)(z - part[k]);
    }
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    add(&tl, &sbx_format_recorder, "agent-run.jsonl", part[0], len[0]);
    if (part[1])
        add(&tl, &sbx_format_squid, "access.log", part[1], len[1]);
    if (part[2])
        add(&tl, &sbx_format_diff, "changes.patch", part[2], len[2]);
    sbx_mdiff_link(&tl);
    sbx_timeline_finish(&tl);
    struct sbx_summary sum;
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (!sbx_summarize(&tl, &so, &sum, err, sizeof err))
        abort();

    struct sbx_cmdindex *ix = sbx_cmdindex_new(&tl);
    for (size_t i = 0; i < tl.n; i++)
        if (sbx_command_during(&tl, sbx_tl_at(&tl, i)) != sbx_cmdindex_during(ix, sbx_tl_at(&tl, i))) {
            fprintf(stderr, "fuzz_views: the index and the scan disagree on event %zu\n", i);
            abort();
        }
    sbx_cmdindex_free(ix);

    struct sbx_filetree t;
    sbx_filetree_build(&t, &tl);
    size_t changed = 0;
    for (size_t i = 0; i < t.n; i++) {
        const struct sbx_ftnode *n = &t.nodes[i];
        if (n->end <= i || n->end > t.n || (i + 1 < t.n && t.nodes[i + 1].depth > n->depth + 1))
            abort();
        changed += n->changed;
    }
    if (changed != t.paths)
        abort();
    struct sbx_netview nv;
    sbx_netview_build(&nv, &tl, &sum);

    struct sbx_rows_look look;
    sbx_rows_look_init(&look, &tl, &sum, false);
    static const int widths[] = {40, 97};
    for (int w = 0; w < 2; w++) {
        struct sbx_grid g;
        sbx_grid_init(&g, false);
        int rows = (int)(t.n > nv.n ? t.n : nv.n) + 1;
        sbx_grid_resize(&g, widths[w], rows < 200 ? rows : 200);
        for (size_t i = 0; i < t.n && (int)i < g.rows; i++)
            sbx_draw_file_row(&g, (int)i, &t, i, i % 3 == 0, i == 1);
        check(&g, "file rows");
        sbx_grid_clear(&g, SBX_STYLE_NORMAL);
        sbx_draw_host_titles(&g, 0, nv.bytes_out_known);
        for (size_t i = 0; i < nv.n && (int)i + 1 < g.rows; i++)
            sbx_draw_host_row(&g, (int)i + 1, &look, &nv.hosts[i], nv.bytes_out_known, i == 0);
        check(&g, "host rows");
        struct sbx_doc d;
        sbx_doc_init(&d, widths[w], false);
        sbx_grid_resize(&g, widths[w], 30);
        for (size_t i = 0, docs = 0; i < t.n && docs < 20; i++) {
            if (!t.nodes[i].changed)
                continue;
            docs++;
            sbx_doc_reset(&d, widths[w]);
            sbx_file_doc(&d, &look, &t, i);
            for (size_t top = 0; top < d.nrows; top += 28) {
                sbx_doc_draw(&d, top, &g, 0, 30);
                check(&g, "a file's document");
            }
        }
        sbx_doc_free(&d);
        sbx_grid_free(&g);
    }
    sbx_rows_look_free(&look);
    sbx_netview_free(&nv);
    sbx_filetree_free(&t);
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
    return 0;
}
