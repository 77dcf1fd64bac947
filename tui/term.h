/* The terminal: ncursesw set up and torn down, a grid copied to the screen
 * (only the cells that changed), keys and mouse read into app/keys.h codes.
 * The only file that includes curses. Internal to tui/.
 *
 * The terminal is restored on every way out: sbx_term_end on a normal exit,
 * SIGINT/SIGTERM/SIGHUP turned into a quit the event loop sees, and crash
 * signals (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL) restoring it from the
 * signal handler before the default action. */
#ifndef SBX_TERM_H
#define SBX_TERM_H

#include <stdbool.h>

#include "render/grid.h"
#include "render/theme.h"

struct sbx_term_opts {
    const struct sbx_theme *theme;
    bool colour; /* false: attributes only (NO_COLOR) */
    bool mouse;
};

/* False with a reason (no terminal, TERM unset or dumb, …). */
bool sbx_term_begin(const struct sbx_term_opts *opts, char *err, size_t errsz);
void sbx_term_end(void);
void sbx_term_size(int *cols, int *rows);
/* Copies the grid to the screen. */
void sbx_term_draw(const struct sbx_grid *g);
/* The next key within timeout_ms (-1 forever): 0 when none came. Mouse keys
 * put the position in *row and *col. */
int sbx_term_key(int timeout_ms, int *row, int *col);
/* A quit asked for by a signal (SIGINT, SIGTERM, SIGHUP): the signal number, or 0. */
int sbx_term_signal(void);
void sbx_term_clear_signal(void);

#endif
