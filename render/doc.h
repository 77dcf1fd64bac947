/* A document: styled rows of safe text, wrapped to a width, for the views
 * that scroll through more than a screen (detail, summary, help).
 *
 * Text is added to the current line in pieces (safe text made by sbxview,
 * or untrusted text that is sanitised on the way in, escapes in the escape
 * style, newlines starting new lines); sbx_doc_end_line finishes a line.
 * Lines longer than the width wrap onto more rows, never inside a character.
 * Each line may carry a target (what Enter on it leads to: an index the
 * caller defines; -1 for none), and every row of it carries the same.
 *
 * Ownership: the doc owns its rows and text; sbx_doc_free releases them. */
#ifndef SBX_DOC_H
#define SBX_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "render/grid.h"
#include "render/style.h"

struct sbx_doc_span {
    size_t off;     /* into the doc's text */
    uint32_t len;
    uint8_t style;
};

struct sbx_doc_row {
    size_t span0;   /* first span */
    uint32_t nspans;
    int32_t target;
};

struct sbx_doc {
    int width;                 /* columns to wrap at (at least 1) */
    bool ascii;
    struct sbx_buf text;
    struct sbx_doc_span *spans;
    size_t nspans, capspans;
    struct sbx_doc_row *rows;
    size_t nrows, caprows;
    /* the row being filled */
    int col;
    bool open;                 /* a row has been started and not finished */
    bool wrapped;              /* … by wrapping, and nothing is in it yet */
    bool wrapping;             /* a wrapped row is being started */
    int32_t target;            /* for the rows of the current line */
    size_t line_row0;          /* the first row of the current line */
    int indent;                /* columns of blank at the start of wrapped rows */
};

void sbx_doc_init(struct sbx_doc *d, int width, bool ascii);
void sbx_doc_free(struct sbx_doc *d);
/* Empties the doc, keeping its memory, for a new width. */
void sbx_doc_reset(struct sbx_doc *d, int width);

/* Safe text in style (a newline in it ends the line). */
void sbx_doc_add(struct sbx_doc *d, enum sbx_style style, const char *s, size_t n);
void sbx_doc_adds(struct sbx_doc *d, enum sbx_style style, const char *s);
void sbx_doc_addf(struct sbx_doc *d, enum sbx_style style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Untrusted text, sanitised: escapes in the escape style. Newlines start
 * new lines unless one_line (then they show as ↵). */
void sbx_doc_untrusted(struct sbx_doc *d, enum sbx_style style, const char *s, size_t n,
                       bool one_line);
/* Ends the current line (an empty line when nothing was added). */
void sbx_doc_end_line(struct sbx_doc *d);
/* The target of the line being added (and of the lines after it until set again). */
void sbx_doc_set_target(struct sbx_doc *d, int32_t target);
/* Wrapped rows of the current line start this many columns in. */
void sbx_doc_set_indent(struct sbx_doc *d, int indent);

/* Draws rows [first, first + rows) of the doc into g from grid row `row`.
 * Rows past the end are blank. */
void sbx_doc_draw(const struct sbx_doc *d, size_t first, struct sbx_grid *g, int row, int rows);

#endif
