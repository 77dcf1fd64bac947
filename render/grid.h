/* The cell grid every view draws into: one cell per screen column, each
 * holding one character (a base and its combining marks, already safe to
 * show) and a style. tui/ copies a grid to the terminal; --dump prints it.
 *
 * Text put into a grid is either safe (made by sbxview, or already through
 * the sanitizer) or untrusted (from a log: sbx_grid_untrusted sanitises it).
 * A wide character never straddles an edge: where it does not fit, the
 * columns left are blanks.
 *
 * Ownership: the grid owns its cells; sbx_grid_free releases them. Nothing
 * returned needs freeing. Not thread-safe (one grid per drawing thread). */
#ifndef SBX_GRID_H
#define SBX_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "render/style.h"

struct sbx_cell {
    char text[13];  /* UTF-8 of the character and its marks; "" on the right half of a wide one */
    uint8_t len;
    uint8_t width;  /* 1 or 2; 0 on the right half of a wide character */
    uint8_t style;  /* enum sbx_style */
};

struct sbx_grid {
    int cols, rows;
    bool ascii;              /* the terminal is not UTF-8: only ASCII is put */
    struct sbx_cell *cells;  /* rows * cols */
};

void sbx_grid_init(struct sbx_grid *g, bool ascii);
void sbx_grid_free(struct sbx_grid *g);
/* Sets the size and blanks every cell. */
void sbx_grid_resize(struct sbx_grid *g, int cols, int rows);
/* Blanks every cell in style. */
void sbx_grid_clear(struct sbx_grid *g, enum sbx_style style);
/* The cell at (row, col), or NULL outside the grid. */
struct sbx_cell *sbx_grid_at(struct sbx_grid *g, int row, int col);
const struct sbx_cell *sbx_grid_cat(const struct sbx_grid *g, int row, int col);

/* Puts safe text from col up to (not including) end; stops at a newline.
 * Returns the column after the last character put. */
int sbx_grid_text(struct sbx_grid *g, int row, int col, int end, enum sbx_style style,
                  const char *s, size_t n);
int sbx_grid_textf(struct sbx_grid *g, int row, int col, int end, enum sbx_style style,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Puts untrusted text on one line (newlines shown as ↵), escapes in the
 * escape style; text that does not fit ends in "…" (ASCII: ">"). Returns
 * the column after it. */
int sbx_grid_untrusted(struct sbx_grid *g, int row, int col, int end, enum sbx_style style,
                       const char *s, size_t n);
/* The same, but text that does not fit keeps its end, after "…" (ASCII:
 * "<"): a path's last folders name what it is. */
int sbx_grid_untrusted_tail(struct sbx_grid *g, int row, int col, int end, enum sbx_style style,
                            const char *s, size_t n);
/* Blanks [col, end) of row in style. */
void sbx_grid_fill(struct sbx_grid *g, int row, int col, int end, enum sbx_style style);
/* Gives [col, end) of row a new style, keeping the text. */
void sbx_grid_restyle(struct sbx_grid *g, int row, int col, int end, enum sbx_style style);

/* Finds the matches of a pattern in what [col, end) of row shows and gives
 * their cells the style. find(ctx, s, n, from, &b, &e) reports the next
 * match at or after byte `from` of s as [b, e), or returns false. */
typedef bool (*sbx_grid_find_fn)(const void *ctx, const char *s, size_t n, size_t from,
                                 size_t *b, size_t *e);
void sbx_grid_highlight(struct sbx_grid *g, int row, int col, int end, sbx_grid_find_fn find,
                        const void *ctx, enum sbx_style style);

/* The grid as text, one line per row, trailing blanks dropped. With styles,
 * each row is followed by a line naming the style of each cell run:
 * "  ^ 0-11 timeline.time, 12-13 normal, …". */
void sbx_grid_dump(const struct sbx_grid *g, bool styles, struct sbx_buf *out);

/* The length in bytes of the character at s[0..n) (n > 0) together with the
 * zero-width marks after it, and its width in columns (0 for a newline). */
size_t sbx_cluster(const char *s, size_t n, bool ascii, int *width);

#endif
