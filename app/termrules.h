/* What ends the review, decided without a terminal (tui/term.c asks; the
 * rules are tested here without curses):
 *   - a signal whose default action ends the program and that can wait
 *     (SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1/2, SIGALRM, SIGVTALRM,
 *     SIGPROF, SIGXCPU, SIGXFSZ, SIGPOLL, SIGPWR, SIGSTKFLT, the real-time
 *     ones) is a quit: the loop restores the terminal and the program
 *     exits 128+N, as a shell reports a signal;
 *   - a crash or a core dump asked for (SIGSEGV, SIGABRT, SIGFPE, SIGILL,
 *     SIGQUIT, SIGTRAP, SIGSYS) restores the terminal in its handler, then
 *     its default action runs; SIGBUS is the loader's own (a file that
 *     shrank under its mapping, importers/readfile.h);
 *   - the others (SIGCHLD, SIGWINCH, SIGCONT, SIGURG, the stop signals,
 *     SIGKILL) are left as they are;
 *   - a read of the terminal that gave no key: a hang-up, an error or a
 *     closed descriptor on it (poll's POLLHUP, POLLERR, POLLNVAL) means the
 *     terminal is gone; so does input that is ready but gives nothing
 *     three reads in a row (an end of input: once can be a key that came
 *     just after the read timed out). A terminal gone ends the review as a
 *     hang-up does (SIGHUP, exit 129).
 *
 * Nothing to free; no state but the caller's watch. Safe from any thread
 * (a signal handler may call sbx_signal_action). */
#ifndef SBX_TERMRULES_H
#define SBX_TERMRULES_H

#include <stdbool.h>

enum sbx_signal_action {
    SBX_SIGNAL_LEAVE, /* not taken */
    SBX_SIGNAL_QUIT,  /* the loop quits: restore, exit 128+N */
    SBX_SIGNAL_CRASH, /* restore in the handler, then the default action */
};

enum sbx_signal_action sbx_signal_action(int sig);
/* The exit status of a review that signal sig ended: 128 + sig. */
int sbx_signal_exit_status(int sig);

/* Empty reads of a ready input, in a row (start it zeroed). */
struct sbx_input_watch {
    int empty_reads;
};

/* After a read that gave no key: whether the terminal is gone, from poll's
 * result on it (poll_failed: poll itself failed, which tells nothing). */
bool sbx_input_gone(struct sbx_input_watch *w, bool poll_failed, short revents);
/* A key came: the empty reads start again. */
void sbx_input_key(struct sbx_input_watch *w);
/* The signal a terminal gone stands for. */
int sbx_input_gone_signal(void);

#endif
