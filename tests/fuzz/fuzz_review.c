/* Arbitrary bytes as a review file (importers/review.h). Oracle: every
 * operation read, written back as a line (export/review_write.h) and read
 * again, gives the same operation and the same line (an export's "posted"
 * line the same post, which the lookup finds); every line is either an
 * operation, a post or a problem (never both, never neither unless blank);
 * the merged state is made without fault from both readings; and the
 * review view's document (render/views/review_doc.c) drawn from it holds
 * only cells safe to send to a terminal (tests/unit/cellcheck.h), with
 * every line that leads to an event an orphan here (the run has no events). */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/review_write.h"
#include "importers/review.h"
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

/* The review view of st over a run with no events, at width cols. */
static void draw_view(const struct sbx_review *r, const struct sbx_review_state *st, int cols, bool ascii)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_rows_look l;
    sbx_rows_look_init(&l, &tl, NULL, false);
    l.review = st;
    struct sbx_doc d;
    sbx_doc_init(&d, cols, ascii);
    struct sbx_summary_line *lines = NULL;
    size_t n = sbx_review_doc(&d, &l, r, ascii, &lines);
    for (size_t i = 0; i < n; i++)
        if (lines[i].event)
            abort();
    struct sbx_grid g;
    sbx_grid_init(&g, ascii);
    sbx_grid_resize(&g, cols, 24);
    for (size_t top = 0; top < d.nrows; top += 24) {
        sbx_grid_clear(&g, SBX_STYLE_NORMAL);
        sbx_doc_draw(&d, top, &g, 0, 24);
        int row, col;
        if (cc_grid(&g, &row, &col))
            abort();
    }
    sbx_grid_free(&g);
    free(lines);
    sbx_doc_free(&d);
    sbx_rows_look_free(&l);
    sbx_timeline_free(&tl);
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sbx_review a;
    sbx_review_init(&a);
    sbx_review_read_bytes(&a, sbx_review_add_file(&a, "fuzz"), (const char *)data, size);
    struct sbx_buf lines = SBX_BUF_INIT;
    for (size_t i = 0; i < a.nops; i++)
        sbx_review_op_line(&a.ops[i], &lines);
    for (size_t i = 0; i < a.nposts; i++)
        sbx_review_post_line(&a.posts[i], &lines);
    for (size_t i = 0; i < a.nops; i++)
        for (size_t k = 0; k < a.nproblems; k++)
            if (a.problems[k].line == a.ops[i].line)
                abort();
    for (size_t i = 0; i < a.nposts; i++)
        for (size_t k = 0; k < a.nproblems; k++)
            if (a.problems[k].line == a.posts[i].line)
                abort();
    struct sbx_review b;
    sbx_review_init(&b);
    sbx_review_read_bytes(&b, sbx_review_add_file(&b, "again"), lines.p ? lines.p : "", lines.len);
    if (b.nops != a.nops || b.nposts != a.nposts || b.nproblems)
        abort();
    struct sbx_buf again = SBX_BUF_INIT;
    for (size_t i = 0; i < b.nops; i++) {
        const struct sbx_review_op *x = &a.ops[i], *y = &b.ops[i];
        if (x->kind != y->kind || !same(x->item, y->item) || !same(x->to, y->to) ||
            !same(x->text, y->text) || !same(x->tag, y->tag) || !same(x->state, y->state) ||
            !same(x->author, y->author) || x->at / 1000000 != y->at / 1000000)
            abort();
        sbx_review_op_line(y, &again);
    }
    for (size_t i = 0; i < b.nposts; i++) {
        const struct sbx_review_post *x = &a.posts[i], *y = &b.posts[i];
        if (!same(x->target, y->target) || !same(x->exported, y->exported) ||
            !same(x->body, y->body) || !same(x->comment, y->comment) ||
            !same(x->server, y->server) ||
            (y->server && (!y->server[0] || strlen(y->server) > SBX_REVIEW_SERVER_MAX ||
                           strspn(y->server, SBX_REVIEW_SERVER_CHARS) != strlen(y->server))) ||
            !same(x->author, y->author) || x->at / 1000000 != y->at / 1000000 ||
            sbx_review_last_post(&b, y->target, y->server, y->exported) == NULL)
            abort();
        sbx_review_post_line(y, &again);
    }
    if (again.len != lines.len || (lines.len && memcmp(again.p, lines.p, lines.len) != 0))
        abort();
    struct sbx_review_state sa, sb;
    sbx_review_state_make(&a, &sa);
    sbx_review_state_make(&b, &sb);
    if (sa.nnotes != sb.nnotes || sa.ntriage != sb.ntriage || sa.ntags != sb.ntags ||
        sa.nmarks != sb.nmarks || (!sa.verdict != !sb.verdict))
        abort();
    draw_view(&a, &sa, 60, false);
    draw_view(&a, &sa, 40, true);
    sbx_review_state_free(&sa);
    sbx_review_state_free(&sb);
    sbx_buf_free(&again);
    sbx_buf_free(&lines);
    sbx_review_free(&a);
    sbx_review_free(&b);
    return 0;
}
