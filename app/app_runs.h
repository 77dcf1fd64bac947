/* The runs list in the terminal, without a terminal: keys in, a grid out,
 * as app/app.h is for one run. One row per run of a folder of runs
 * (analyses/runs.h), filled in as the pool reads them; sorted by a column
 * (< and > pick it, r reverses), filtered (&); Enter opens the run's
 * timeline (an sbx_app; q comes back to the list), m marks runs and two
 * marked runs open the compare view (app/app_cmp.h): c, or Enter on one
 * of them. A list that grows (analyses/runs_more.h: a store's listing read
 * behind it) takes its new runs in at each poll, in the sort shown, the
 * selection staying on its run; the status line says the listing goes on
 * and how it ended.
 *
 * Memory: a run opened from the list is loaded again each time it is
 * opened and freed when the list is back; the list keeps only the rows'
 * numbers, so a thousand runs cost a thousand rows, not a thousand
 * timelines.
 *
 * Ownership: the app borrows the list (and the allow list) given to
 * sbx_runs_app_init until sbx_runs_app_free; it owns the rest, the run
 * opened and the compare view included. */
#ifndef SBX_APP_RUNS_H
#define SBX_APP_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "analyses/runs.h"
#include "analyses/runs_more.h"
#include "render/doc.h"
#include "render/grid.h"
#include "app/app.h"
#include "app/loader.h"

struct sbx_allowlist;
struct sbx_cmpview;
struct sbx_format;

enum sbx_runs_screen { SBX_RUNS_LIST, SBX_RUNS_RUN, SBX_RUNS_COMPARE, SBX_RUNS_HELP };

struct sbx_runs_app {
    struct sbx_app_opts opts;
    const struct sbx_allowlist *allow;   /* borrowed; may be NULL */
    struct sbx_runs *runs;               /* borrowed */
    int cols, rows;
    enum sbx_runs_screen screen, help_back;

    uint32_t *order;                     /* rows in sight: indices into runs->rows */
    size_t norder, cur, top;
    size_t seen_done;                    /* runs->done when the order was made */
    enum sbx_runs_listing listing;       /* when last looked at */
    enum sbx_run_col sort;
    bool reverse;
    char *filter;                        /* NULL: none */
    long marks[2];                       /* marked rows, A then B; -1 none */

    int prompt;                          /* 0 or '&' */
    struct sbx_buf input;
    char msg[256];
    bool msg_error;
    struct sbx_doc help;
    size_t help_top;

    /* the run opened (SBX_RUNS_RUN) */
    struct sbx_loader *loader;
    const char *paths[1];
    const char *names[1]; /* the run's source name (analyses/runs.h), or NULL */
    struct sbx_loader_inputs in;
    struct sbx_app app;
    bool app_open, app_fed;

    struct sbx_cmpview *cmp;             /* the compare view, or NULL */
};

void sbx_runs_app_init(struct sbx_runs_app *a, const struct sbx_app_opts *opts,
                       const struct sbx_allowlist *allow, struct sbx_runs *runs, int cols,
                       int rows);
void sbx_runs_app_free(struct sbx_runs_app *a);
void sbx_runs_app_resize(struct sbx_runs_app *a, int cols, int rows);
/* Opens the compare view of two runs (app/app_cmp.h's sides) at once, as
 * sbxview compare A B does in a terminal: with an empty list (no runs), q
 * in the compare view quits. False with a reason in err when either run
 * cannot be read. */
struct sbx_cmp_input;
bool sbx_runs_app_compare(struct sbx_runs_app *a, const struct sbx_cmp_input *run_a,
                          const struct sbx_cmp_input *run_b, char *err, size_t errsz);
/* One key; returns SBX_APP_QUIT (app/app.h) when the program should end,
 * SBX_APP_OUTPUT when the run opened has text to copy out (a->app). */
unsigned sbx_runs_app_key(struct sbx_runs_app *a, int key, int mrow, int mcol);
/* Takes in rows filled since the last call, a run that finished loading,
 * and a search or filter that landed in the run opened; true when the
 * screen changed. */
bool sbx_runs_app_poll(struct sbx_runs_app *a);
/* Something still runs behind (the fill, a load, a search). */
bool sbx_runs_app_busy(const struct sbx_runs_app *a);
void sbx_runs_app_draw(struct sbx_runs_app *a, struct sbx_grid *g);

#endif
