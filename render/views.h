/* The views as pure drawing: the timeline's rows and the documents behind
 * the detail, summary and help views. They read the model and the
 * summary's results; they never compute a finding.
 *
 * Log text is redacted (credential-shaped strings masked with the
 * summary's patterns) and sanitised before it reaches a cell.
 *
 * Ownership: everything is drawn into the caller's grid or doc; nothing is
 * returned that needs freeing, except where a function says so. */
#ifndef SBX_VIEWS_H
#define SBX_VIEWS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/summary.h"
#include "model/timeline.h"
#include "render/doc.h"
#include "render/grid.h"

/* How timeline rows are drawn; the caller keeps one per screen. */
struct sbx_rows_look {
    const struct sbx_timeline *tl;
    const struct sbx_summary *sum; /* may be NULL (no redaction, one sandbox style) */
    bool local;                    /* times in the local zone, not UTC */
    sbx_grid_find_fn find;         /* search highlighting, or NULL */
    const void *find_ctx;
    struct sbx_secrets_scratch *scratch; /* for redaction; made by sbx_rows_look_init */
    struct sbx_buf text, red;
};

void sbx_rows_look_init(struct sbx_rows_look *l, const struct sbx_timeline *tl,
                        const struct sbx_summary *sum, bool local);
void sbx_rows_look_free(struct sbx_rows_look *l);

/* The heaviest finding among the bits: its row style and one-letter mark
 * (' ' and the normal style for none). The weights, heaviest first: refused
 * host, outside the wrapper, account change, system file change, secret,
 * hash mismatch, timed out, failed, bad field. */
enum sbx_style sbx_finding_look(uint32_t findings, char *mark);
/* The i-th finding by weight, heaviest first (0 past the last). */
uint32_t sbx_finding_by_weight(size_t i);
/* The findings as words, heaviest first ("refused host, failed"). */
void sbx_findings_words(uint32_t findings, struct sbx_buf *out);

/* The kind column's mark: $ command, F files, N network … */
char sbx_kind_mark(enum sbx_kind k);

/* One event as one row: mark, time, duration, sandbox (when there are
 * several), kind, exit code, and the command or what happened. */
void sbx_draw_event_row(struct sbx_grid *g, int row, struct sbx_rows_look *l,
                        const struct sbx_event *e, bool selected);
/* The column where a row's text (the command) starts at this width. */
int sbx_row_text_col(const struct sbx_rows_look *l, int cols);

/* 1234567 -> "1,234,567" into buf (at least 32 bytes); returns buf. */
char *sbx_thousands(unsigned long long v, char *buf);

/* "HH:MM:SS.mmm" (UTC or local) into buf (at least 16 bytes); "--:--:--" when unknown. */
char *sbx_clock(int64_t ns, bool local, char *buf);
/* "2026-11-29 09:29:51 UTC" into buf (at least 40 bytes). */
char *sbx_stamp(int64_t ns, bool local, char *buf);

/* The detail of one event: every field, the command as written, stdout and
 * stderr, the hash check, the findings and their evidence, where it came
 * from. With raw, the line of the source instead (sanitised). */
void sbx_detail_doc(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e,
                    bool raw);

#endif
