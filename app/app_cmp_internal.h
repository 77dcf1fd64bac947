/* Shared by the compare view's files (internal to app/). The view owns
 * everything in it (app/app_cmp.h); the text these helpers return points
 * into a side's buffers, valid until the next call for that side. */
#ifndef SBX_APP_CMP_INTERNAL_H
#define SBX_APP_CMP_INTERNAL_H

#include "analyses/compare/compare.h"
#include "analyses/summary.h"
#include "render/doc.h"
#include "app/app_cmp.h"

struct sbx_secrets_scratch;

/* One run of the two. */
struct sbx_cmp_side {
    char *name;
    struct sbx_timeline tl;
    struct sbx_summary sum;
    bool summarized;
    struct sbx_secrets_scratch *scratch; /* for redacting its text; NULL without patterns */
    struct sbx_buf text, red;
};

struct sbx_cmpview {
    struct sbx_app_opts opts;
    int cols, rows;
    struct sbx_cmp_side side[2];
    struct sbx_compare cmp;
    size_t cur, top;         /* the selected row of cmp.rows, the first in sight */
    bool diff;               /* the output diff is showing */
    struct sbx_doc doc;
    size_t doc_top;
    char msg[256];
};

enum { SBX_CMP_WIDE = 100 };

static inline bool sbx_cmpview_wide(const struct sbx_cmpview *v) { return v->cols >= SBX_CMP_WIDE; }
/* Rows of pairs in sight. */
size_t sbx_cmpview_body(const struct sbx_cmpview *v);
void sbx_cmpview_select(struct sbx_cmpview *v, size_t i);
void sbx_cmpview_diff_doc(struct sbx_cmpview *v);
/* The event of side s (0 A, 1 B) on row r, or NULL (a moved half's other
 * side is found through its partner). */
const struct sbx_event *sbx_cmpview_event(const struct sbx_cmpview *v, size_t r, int s);
/* A command's line, redacted, for a cell (points into the side's buffers). */
const char *sbx_cmpview_command(struct sbx_cmpview *v, int s, const struct sbx_event *e, size_t *n);

#endif
