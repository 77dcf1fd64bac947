/* The terminal: ncursesw set up and torn down, a grid copied to the screen
 * (only the cells that changed), keys and mouse read into app/keys.h codes.
 * The only file that includes curses. Internal to tui/.
 *
 * The terminal is restored on every way out: sbx_term_end on a normal exit;
 * every signal whose default action ends the program and that can wait
 * (SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1/2, SIGALRM, SIGVTALRM, SIGPROF,
 * SIGXCPU, SIGXFSZ, SIGPOLL, SIGPWR, SIGSTKFLT, the real-time ones) turned
 * into a quit the event loop sees; the terminal going away without a SIGHUP
 * (its input ends or hangs up) seen as a SIGHUP; and crash signals (SIGSEGV,
 * SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGQUIT, SIGTRAP, SIGSYS) restoring it
 * from the signal handler before the default action. sbx_term_end gives
 * every signal back what it did before. Which signal is which, and when
 * the terminal is gone, are app/termrules.h's rules (tested without curses). */
#ifndef SBX_TERM_H
#define SBX_TERM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
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
/* A quit asked for by a signal (one of those above, or SIGHUP for a terminal
 * that went away): the signal number, or 0. */
int sbx_term_signal(void);
void sbx_term_clear_signal(void);

/* Runs editor (a command line, as $EDITOR holds one: "vi", "code -w") on
 * the terminal, on a new file in dir (made with mkstemp, mode 0600, removed
 * after) that starts with initial; the interface is put away while it runs
 * and comes back after. True with what the file then held appended to the
 * caller's out; false with why in err (it did not start, or exited with
 * an error: nothing is taken then). */
bool sbx_term_edit(const char *editor, const char *dir, const char *initial, struct sbx_buf *out,
                   char *err, size_t errsz);
/* Whether the terminal's terminfo entry has Ms, its way to set the
 * clipboard (OSC 52): the rule that uses it is app/copyout.h's. */
bool sbx_term_has_ms(void);
/* Writes s[0..n) to the terminal as it is (the clipboard escape the app
 * built from sanitised text, base64 inside); false when it could not. */
bool sbx_term_send(const char *s, size_t n);
/* Leaves the screen, runs pager (a shell command line, as $PAGER is) with
 * text on its standard input and the terminal as its output, waits for
 * it, and comes back to the screen, drawn anew. While it runs the keyboard's
 * signals (SIGINT, SIGQUIT) and SIGPIPE are ignored here, as system() does,
 * and reach the pager with their default actions. Its exit status in
 * *status (-1 when it could not be run); false with why when it could not. */
bool sbx_term_pager(const char *pager, const char *text, size_t n, int *status, char *why,
                    size_t whysz);

#endif
