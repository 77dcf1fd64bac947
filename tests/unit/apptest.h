/* Helpers the tests of app/app share: type a key script, draw with every
 * cell checked (cellcheck.h), read a row of the grid or the text of a doc.
 * Header-only (each test is one program); include after <cmocka.h>. The
 * strings apptest_row and apptest_doc_text return are the caller's to
 * free. */
#ifndef SBX_TEST_APPTEST_H
#define SBX_TEST_APPTEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "render/doc.h"
#include "render/grid.h"
#include "tests/unit/cellcheck.h"
#include "app/app.h"
#include "app/keys.h"

/* Types a key script (app/keys.h syntax); returns the flags of the last key. */
static inline unsigned apptest_keys(struct sbx_app *a, const char *script)
{
    unsigned flags = 0;
    size_t n = strlen(script);
    for (size_t i = 0; i < n;) {
        int key, cols, rows;
        size_t used = sbx_key_parse(script + i, n - i, &key, &cols, &rows);
        if (used == SIZE_MAX || used == 0)
            fail_msg("bad key script at %zu: %s", i, script);
        i += used;
        if (key == SBX_KEY_RESIZE)
            sbx_app_resize(a, cols, rows);
        else
            flags = sbx_app_key(a, key, 1, 0);
    }
    return flags;
}

/* Draws the app; fails the test when a cell breaks the terminal rules. */
static inline void apptest_draw(struct sbx_app *a, struct sbx_grid *g)
{
    sbx_app_draw(a, g);
    int row, col;
    const char *why = cc_grid(g, &row, &col);
    if (why)
        fail_msg("%dx%d grid, row %d col %d: %s", g->cols, g->rows, row, col, why);
}

/* The text of grid row r. */
static inline char *apptest_row(const struct sbx_grid *g, int r)
{
    if (r < 0 || r >= g->rows)
        fail_msg("no row %d", r);
    struct sbx_buf b = SBX_BUF_INIT;
    for (int c = 0; c < g->cols; c++)
        sbx_buf_add(&b, sbx_grid_cat(g, r, c)->text, sbx_grid_cat(g, r, c)->len);
    char *s = sbx_xstrndup(b.p ? b.p : "", b.len);
    sbx_buf_free(&b);
    return s;
}

/* The doc's text, row by row, joined with newlines. */
static inline char *apptest_doc_text(const struct sbx_doc *d)
{
    struct sbx_buf b = SBX_BUF_INIT;
    for (size_t r = 0; r < d->nrows; r++) {
        const struct sbx_doc_row *dr = &d->rows[r];
        for (uint32_t k = 0; k < dr->nspans; k++)
            sbx_buf_add(&b, d->text.p + d->spans[dr->span0 + k].off, d->spans[dr->span0 + k].len);
        sbx_buf_addc(&b, '\n');
    }
    char *s = sbx_xstrndup(b.p ? b.p : "", b.len);
    sbx_buf_free(&b);
    return s;
}

/* Whether the app's doc (summary, help, detail) holds text. */
static inline bool apptest_doc_has(const struct sbx_app *a, const char *text)
{
    char *s = apptest_doc_text(&a->doc);
    bool yes = strstr(s, text) != NULL;
    free(s);
    return yes;
}

#endif
