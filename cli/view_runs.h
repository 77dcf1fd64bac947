/* The runs list and the compare view on a terminal (or, with dump, the
 * screen they would show after a key script, as sbxview --dump does for
 * one run). Internal to cli/.
 *
 * Ownership: the runs list and allow list are borrowed for the call. */
#ifndef SBX_VIEW_RUNS_H
#define SBX_VIEW_RUNS_H

#include <stdbool.h>

#include "analyses/runs.h"
#include "app/app.h"

struct sbx_allowlist;
struct sbx_format;

struct sbx_screen_opts {
    struct sbx_app_opts app;
    const char *theme;
    bool mouse, dump, dump_styles;
    int cols, rows;
    const char *keys;   /* --keys, for dump */
};

/* The runs list of a folder of runs (importers/runs.h found them): its rows
 * are read on a pool of threads as the list shows. Returns the exit status. */
int sbx_view_runs(const struct sbx_screen_opts *o, struct sbx_runs *runs,
                  const struct sbx_allowlist *allow);
/* The compare view of run A and run B (a file or a run folder each, read
 * as fmt_a and fmt_b, NULL: detected; their files named source_a/_b in
 * outputs, NULL: their paths). Returns the exit status: 0 when closed, 2
 * when either run cannot be read or there is no terminal. */
int sbx_view_compare(const struct sbx_screen_opts *o, const char *path_a, const char *source_a,
                     const struct sbx_format *fmt_a, const char *path_b, const char *source_b,
                     const struct sbx_format *fmt_b, const struct sbx_allowlist *allow);

#endif
