/* What ends the review (app/termrules.h), without a terminal: every signal
 * by its default action (signal(7)): those that end a program and can wait
 * are a quit with 128+N, crashes and core dumps are restored from their
 * handler, the rest left alone; and what a read that gave no key means:
 * a hang-up, an error or a closed descriptor at once, an end of input at
 * the third empty ready read in a row, a key or a quiet wait starting the
 * count again. The end-to-end tests (tests/e2e/run, terminal-gone) drive the
 * same rules through a real terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <poll.h>
#include <signal.h>

#include <cmocka.h>

#include "app/termrules.h"

static void every_signal_by_its_default_action(void **state)
{
    (void)state;
    static const struct {
        int sig;
        enum sbx_signal_action want;
    } table[] = {
        /* terminate by default: a quit */
        {SIGINT, SBX_SIGNAL_QUIT},    {SIGTERM, SBX_SIGNAL_QUIT},   {SIGHUP, SBX_SIGNAL_QUIT},
        {SIGPIPE, SBX_SIGNAL_QUIT},   {SIGUSR1, SBX_SIGNAL_QUIT},   {SIGUSR2, SBX_SIGNAL_QUIT},
        {SIGALRM, SBX_SIGNAL_QUIT},   {SIGVTALRM, SBX_SIGNAL_QUIT}, {SIGPROF, SBX_SIGNAL_QUIT},
        {SIGXCPU, SBX_SIGNAL_QUIT},   {SIGXFSZ, SBX_SIGNAL_QUIT},   {SIGPOLL, SBX_SIGNAL_QUIT},
        {SIGPWR, SBX_SIGNAL_QUIT},    {SIGSTKFLT, SBX_SIGNAL_QUIT},
        /* a crash, or a core dump asked for */
        {SIGSEGV, SBX_SIGNAL_CRASH},  {SIGABRT, SBX_SIGNAL_CRASH},  {SIGFPE, SBX_SIGNAL_CRASH},
        {SIGILL, SBX_SIGNAL_CRASH},   {SIGQUIT, SBX_SIGNAL_CRASH},  {SIGTRAP, SBX_SIGNAL_CRASH},
        {SIGSYS, SBX_SIGNAL_CRASH},
        /* ignored, stopping, continuing, the loader's own, or not catchable */
        {SIGCHLD, SBX_SIGNAL_LEAVE},  {SIGWINCH, SBX_SIGNAL_LEAVE}, {SIGCONT, SBX_SIGNAL_LEAVE},
        {SIGURG, SBX_SIGNAL_LEAVE},   {SIGTSTP, SBX_SIGNAL_LEAVE},  {SIGTTIN, SBX_SIGNAL_LEAVE},
        {SIGTTOU, SBX_SIGNAL_LEAVE},  {SIGSTOP, SBX_SIGNAL_LEAVE},  {SIGKILL, SBX_SIGNAL_LEAVE},
        {SIGBUS, SBX_SIGNAL_LEAVE},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        print_message("signal %d\n", table[i].sig);
        assert_int_equal(sbx_signal_action(table[i].sig), table[i].want);
    }
    /* the real-time signals end a program by default: each a quit */
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
        assert_int_equal(sbx_signal_action(sig), SBX_SIGNAL_QUIT);
    /* the kernel's real-time signals below SIGRTMIN are the C library's own
     * (thread cancelling): never taken */
    for (int sig = 32; sig < SIGRTMIN; sig++)
        assert_int_equal(sbx_signal_action(sig), SBX_SIGNAL_LEAVE);
    /* every other signal is one of the table's */
    for (int sig = 1; sig < 32; sig++) {
        bool listed = false;
        for (size_t i = 0; i < sizeof table / sizeof *table; i++)
            listed |= table[i].sig == sig;
        if (!listed)
            fail_msg("signal %d has no row in the table", sig);
    }
}

static void exit_status_is_128_plus_the_signal(void **state)
{
    (void)state;
    for (int sig = 1; sig <= SIGRTMAX; sig++)
        assert_int_equal(sbx_signal_exit_status(sig), 128 + sig);
    assert_int_equal(sbx_signal_exit_status(sbx_input_gone_signal()), 129); /* as a hang-up */
}

/* Reads that gave no key, each with poll's answer, and whether the
 * terminal is gone after it ('k' is a key read in between). */
static void what_an_empty_read_means(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        struct {
            char what; /* 'p' a poll result, 'f' poll failed, 'k' a key */
            short revents;
            bool gone;
        } steps[6];
        size_t n;
    } cases[] = {
        {"a hang-up", {{'p', POLLHUP, true}}, 1},
        {"a hang-up with input", {{'p', POLLIN | POLLHUP, true}}, 1},
        {"an error", {{'p', POLLERR, true}}, 1},
        {"a closed descriptor", {{'p', POLLNVAL, true}}, 1},
        {"end of input", {{'p', POLLIN, false}, {'p', POLLIN, false}, {'p', POLLIN, true}}, 3},
        {"a key came in between",
         {{'p', POLLIN, false}, {'p', POLLIN, false}, {'k', 0, false}, {'p', POLLIN, false},
          {'p', POLLIN, false}, {'p', POLLIN, true}},
         6},
        {"a timeout in between",
         {{'p', POLLIN, false}, {'p', POLLIN, false}, {'p', 0, false}, {'p', POLLIN, false},
          {'p', POLLIN, false}},
         5},
        {"poll failed", {{'f', 0, false}, {'f', POLLHUP, false}}, 2},
        {"timeouts only", {{'p', 0, false}, {'p', 0, false}, {'p', 0, false}, {'p', 0, false}}, 4},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        print_message("%s\n", cases[k].name);
        struct sbx_input_watch w = {0};
        for (size_t i = 0; i < cases[k].n; i++) {
            if (cases[k].steps[i].what == 'k') {
                sbx_input_key(&w);
                continue;
            }
            bool gone = sbx_input_gone(&w, cases[k].steps[i].what == 'f', cases[k].steps[i].revents);
            assert_int_equal(gone, cases[k].steps[i].gone);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_signal_by_its_default_action),
        cmocka_unit_test(exit_status_is_128_plus_the_signal),
        cmocka_unit_test(what_an_empty_read_means),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
