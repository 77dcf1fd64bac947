#include "app/termrules.h"

#include <poll.h>
#include <signal.h>

/* Empty reads of a ready input in a row that make an end of input. */
#define EMPTY_READS_GONE 3

enum sbx_signal_action sbx_signal_action(int sig)
{
    if (sig >= SIGRTMIN && sig <= SIGRTMAX)
        return SBX_SIGNAL_QUIT; /* they end a program by default too */
    switch (sig) {
    case SIGINT: case SIGTERM: case SIGHUP: case SIGPIPE: case SIGUSR1: case SIGUSR2:
    case SIGALRM: case SIGVTALRM: case SIGPROF: case SIGXCPU: case SIGXFSZ: case SIGPOLL:
    case SIGPWR: case SIGSTKFLT:
        return SBX_SIGNAL_QUIT;
    case SIGSEGV: case SIGABRT: case SIGFPE: case SIGILL: case SIGQUIT: case SIGTRAP: case SIGSYS:
        return SBX_SIGNAL_CRASH;
    default:
        return SBX_SIGNAL_LEAVE;
    }
}

int sbx_signal_exit_status(int sig)
{
    return 128 + sig;
}

bool sbx_input_gone(struct sbx_input_watch *w, bool poll_failed, short revents)
{
    if (poll_failed)
        return false;
    if (revents & (POLLHUP | POLLERR | POLLNVAL))
        return true;
    w->empty_reads = revents & POLLIN ? w->empty_reads + 1 : 0;
    return w->empty_reads >= EMPTY_READS_GONE;
}

void sbx_input_key(struct sbx_input_watch *w)
{
    w->empty_reads = 0;
}

int sbx_input_gone_signal(void)
{
    return SIGHUP;
}
