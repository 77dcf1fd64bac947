#define _XOPEN_SOURCE_EXTENDED 1
#include "tui/term.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "importers/readfile.h"
#include "app/keys.h"
#include "app/termrules.h"

/* Process-wide by nature: there is one terminal. Written before the signal
 * handlers are installed, read by them. */
static struct {
    FILE *tty;
    SCREEN *screen;
    int fd;
    struct termios saved;
    bool have_saved;
    char reset[256]; /* what puts the terminal back: leave the alternate screen, … */
    size_t reset_len;
    struct sbx_grid shown; /* what the screen holds now */
    attr_t attrs[SBX_STYLE_COUNT];
    short pairs[SBX_STYLE_COUNT];
    pthread_t loop_thread; /* the thread that reads keys, woken by a quit signal */
    struct sbx_input_watch input; /* empty reads of a ready input (app/termrules.h) */
} T = {.fd = -1};

static volatile sig_atomic_t quit_signal;
/* What each signal did before the interface: given back when it ends. */
static struct sigaction before[_NSIG];
static bool handled[_NSIG];

static void emergency_restore(void)
{
    if (T.fd < 0)
        return;
    if (T.reset_len)
        (void)!write(T.fd, T.reset, T.reset_len);
    if (T.have_saved)
        tcsetattr(T.fd, TCSAFLUSH, &T.saved);
}

static void on_crash(int sig)
{
    emergency_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_quit(int sig)
{
    quit_signal = sig;
    /* delivered to a worker thread: wake the loop's blocked read too */
    if (!pthread_equal(pthread_self(), T.loop_thread))
        pthread_kill(T.loop_thread, sig);
}

static void add_reset(const char *s)
{
    size_t n = strlen(s);
    if (T.reset_len + n < sizeof T.reset) {
        memcpy(T.reset + T.reset_len, s, n);
        T.reset_len += n;
    }
}

static void add_cap(const char *name)
{
    const char *s = tigetstr(name);
    if (s && s != (char *)-1)
        add_reset(s);
}

static void take_signal(int sig, const struct sigaction *sa)
{
    if (sigaction(sig, sa, &before[sig]) == 0)
        handled[sig] = true;
}

static void give_back_signals(void)
{
    for (int sig = 1; sig < _NSIG; sig++)
        if (handled[sig]) {
            sigaction(sig, &before[sig], NULL);
            handled[sig] = false;
        }
}

/* Every signal app/termrules.h says ends the review: a quit the loop sees,
 * or a crash restored from its handler. */
static void install_signals(void)
{
    struct sigaction quit, crash;
    memset(&quit, 0, sizeof quit);
    sigemptyset(&quit.sa_mask);
    quit.sa_handler = on_quit; /* no SA_RESTART: a blocked read returns and the loop sees it */
    crash = quit;
    crash.sa_handler = on_crash;
    crash.sa_flags = SA_RESETHAND;
    for (int sig = 1; sig < _NSIG; sig++) {
        enum sbx_signal_action a = sbx_signal_action(sig);
        if (a != SBX_SIGNAL_LEAVE)
            take_signal(sig, a == SBX_SIGNAL_QUIT ? &quit : &crash);
    }
    /* a file that shrinks under its mapping: the loader's handler says so and exits */
    sbx_install_sigbus_handler(emergency_restore);
}

static short colour_for(int c)
{
    if (c < 0)
        return -1;
    if (c >= COLORS)
        return (short)(c < 16 ? c - 8 : c % 8); /* the nearest of the basic colours */
    return (short)c;
}

static void set_styles(const struct sbx_term_opts *o)
{
    bool colour = o->colour && has_colors();
    if (colour) {
        start_color();
        use_default_colors();
    }
    for (int i = 0; i < SBX_STYLE_COUNT; i++) {
        const struct sbx_look *l = &o->theme->look[i];
        attr_t a = A_NORMAL;
        if (l->attrs & SBX_ATTR_BOLD)
            a |= A_BOLD;
        if (l->attrs & SBX_ATTR_DIM)
            a |= A_DIM;
        if (l->attrs & SBX_ATTR_UNDERLINE)
            a |= A_UNDERLINE;
        if (l->attrs & SBX_ATTR_REVERSE)
            a |= A_REVERSE;
        T.attrs[i] = a;
        T.pairs[i] = 0;
        if (colour && (l->fg >= 0 || l->bg >= 0) && i + 1 < COLOR_PAIRS) {
            init_pair((short)(i + 1), colour_for(l->fg), colour_for(l->bg));
            T.pairs[i] = (short)(i + 1);
        }
    }
}

bool sbx_term_begin(const struct sbx_term_opts *o, char *err, size_t errsz)
{
    const char *term = getenv("TERM");
    if (!term || !*term) {
        snprintf(err, errsz, "TERM is not set, so the terminal is unknown (sbxview summary works without one)");
        return false;
    }
    if (strcmp(term, "dumb") == 0) {
        snprintf(err, errsz, "TERM=dumb cannot show the interface (sbxview summary prints the summary)");
        return false;
    }
    /* the terminal, even when standard input is the log */
    T.tty = fopen("/dev/tty", "r+");
    if (!T.tty) {
        snprintf(err, errsz, "no terminal to show the interface on (sbxview summary prints the summary)");
        return false;
    }
    T.fd = fileno(T.tty);
    T.loop_thread = pthread_self();
    sbx_input_key(&T.input);
    fcntl(T.fd, F_SETFD, FD_CLOEXEC);
    T.have_saved = tcgetattr(T.fd, &T.saved) == 0;
    T.screen = newterm(term, T.tty, T.tty);
    if (!T.screen) {
        snprintf(err, errsz, "the terminal type TERM=%.40s is not known here", term);
        fclose(T.tty);
        T.tty = NULL;
        T.fd = -1;
        return false;
    }
    set_term(T.screen);
    add_cap("sgr0");
    add_cap("rmkx");
    add_cap("cnorm");
    add_cap("rmcup");
    add_reset("\033[?1000l\033[?1002l\033[?1006l"); /* mouse reporting off */
    install_signals();
    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    if (o->mouse) {
        mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
        mouseinterval(250);
    }
    set_styles(o);
    sbx_grid_init(&T.shown, false);
    return true;
}

void sbx_term_end(void)
{
    if (!T.screen)
        return;
    endwin();
    give_back_signals();
    delscreen(T.screen);
    T.screen = NULL;
    sbx_grid_free(&T.shown);
    if (T.tty)
        fclose(T.tty);
    T.tty = NULL;
    T.fd = -1;
}

void sbx_term_size(int *cols, int *rows)
{
    *cols = COLS;
    *rows = LINES;
}

static bool same_cell(const struct sbx_cell *a, const struct sbx_cell *b)
{
    return a->len == b->len && a->width == b->width && a->style == b->style &&
           memcmp(a->text, b->text, a->len) == 0;
}

void sbx_term_draw(const struct sbx_grid *g)
{
    bool fresh = T.shown.cols != g->cols || T.shown.rows != g->rows;
    if (fresh) {
        sbx_grid_resize(&T.shown, g->cols, g->rows);
        clearok(curscr, TRUE);
    }
    for (int r = 0; r < g->rows && r < LINES; r++) {
        for (int c = 0; c < g->cols && c < COLS; c++) {
            const struct sbx_cell *cell = sbx_grid_cat(g, r, c);
            struct sbx_cell *old = sbx_grid_at(&T.shown, r, c);
            if (!fresh && same_cell(cell, old))
                continue;
            *old = *cell;
            if (cell->width == 0)
                continue; /* the right half of a wide character, drawn with it */
            attr_set(T.attrs[cell->style], T.pairs[cell->style], NULL);
            mvaddnstr(r, c, cell->text, cell->len);
        }
    }
    attr_set(A_NORMAL, 0, NULL);
    refresh();
}

static int map_key(int code)
{
    switch (code) {
    case KEY_UP: return SBX_KEY_UP;
    case KEY_DOWN: return SBX_KEY_DOWN;
    case KEY_LEFT: return SBX_KEY_LEFT;
    case KEY_RIGHT: return SBX_KEY_RIGHT;
    case KEY_PPAGE: return SBX_KEY_PGUP;
    case KEY_NPAGE: return SBX_KEY_PGDN;
    case KEY_HOME: return SBX_KEY_HOME;
    case KEY_END: return SBX_KEY_END;
    case KEY_ENTER: return SBX_KEY_ENTER;
    case KEY_BACKSPACE: return SBX_KEY_BACKSPACE;
    case KEY_DC: return SBX_KEY_DELETE;
    case KEY_BTAB: return SBX_KEY_BTAB;
    case KEY_RESIZE: return SBX_KEY_RESIZE;
    default:
        if (code == KEY_F(1))
            return SBX_KEY_F1;
        if (code == KEY_F(2))
            return SBX_KEY_F2;
        if (code == KEY_F(3))
            return SBX_KEY_F3;
        return 0;
    }
}

/* After a read that gave no key: whether the terminal is gone (the rule
 * is app/termrules.h's). */
static bool terminal_gone(void)
{
    struct pollfd p = {.fd = T.fd, .events = POLLIN};
    bool failed = poll(&p, 1, 0) < 0;
    return sbx_input_gone(&T.input, failed, p.revents);
}

int sbx_term_key(int timeout_ms, int *row, int *col)
{
    wint_t ch;
    timeout(timeout_ms);
    int r = get_wch(&ch);
    if (r == ERR) {
        /* a timeout, or the terminal went away: end the review as a hang-up would */
        if (!quit_signal && terminal_gone())
            quit_signal = sbx_input_gone_signal();
        return 0;
    }
    sbx_input_key(&T.input);
    if (r == KEY_CODE_YES) {
        if (ch == KEY_MOUSE) {
            MEVENT m;
            if (getmouse(&m) != OK)
                return 0;
            *row = m.y;
            *col = m.x;
            if (m.bstate & BUTTON4_PRESSED)
                return SBX_KEY_WHEEL_UP;
            if (m.bstate & BUTTON5_PRESSED)
                return SBX_KEY_WHEEL_DOWN;
            if (m.bstate & BUTTON1_DOUBLE_CLICKED)
                return SBX_KEY_DOUBLE_CLICK;
            if (m.bstate & BUTTON1_CLICKED)
                return SBX_KEY_CLICK;
            return 0;
        }
        return map_key((int)ch);
    }
    if (ch == '\r')
        return SBX_KEY_ENTER;
    if (ch == '\t')
        return SBX_KEY_TAB;
    if (ch == 127 || ch == 8)
        return SBX_KEY_BACKSPACE;
    if (ch == 27) {
        /* Alt-/ arrives as ESC then '/' at once; a lone ESC is Esc */
        wint_t next;
        timeout(0);
        int r2 = get_wch(&next);
        if (r2 == OK && next == '/')
            return SBX_KEY_ALT_SLASH;
        if (r2 == KEY_CODE_YES)
            ungetch((int)next);
        else if (r2 == OK)
            unget_wch(next);
        return SBX_KEY_ESC;
    }
    return (int)ch;
}

int sbx_term_signal(void)
{
    return quit_signal;
}

void sbx_term_clear_signal(void)
{
    quit_signal = 0;
}

/* The path in single quotes, for the shell that runs the editor. */
static void shell_quote(struct sbx_buf *b, const char *s)
{
    sbx_buf_addc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            sbx_buf_adds(b, "'\\''");
        else
            sbx_buf_addc(b, *s);
    }
    sbx_buf_addc(b, '\'');
}

extern char **environ;

/* The signals a program run on the terminal takes for itself: ^C in the
 * editor or the pager is theirs, and a pager that quits early must not end
 * this process's writing to it. Ignored here while it runs, at their
 * defaults in it. */
static const int handed_over[] = {SIGINT, SIGQUIT, SIGPIPE};
enum { NHANDED = sizeof handed_over / sizeof *handed_over };

static void hand_over_signals(struct sigaction was[NHANDED])
{
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    sigemptyset(&ign.sa_mask);
    ign.sa_handler = SIG_IGN;
    for (int i = 0; i < NHANDED; i++)
        sigaction(handed_over[i], &ign, &was[i]);
}

static void take_back_signals(const struct sigaction was[NHANDED])
{
    for (int i = 0; i < NHANDED; i++)
        sigaction(handed_over[i], &was[i], NULL);
}

/* Starts cmd through sh on the terminal (its output and errors there;
 * its input from in, or the terminal when in < 0: standard input may be
 * the log), with the handed-over signals at their defaults. 0 with *pid
 * set, or posix_spawn's error. */
static int spawn_on_terminal(const char *cmd, int in, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (in >= 0)
        posix_spawn_file_actions_adddup2(&fa, in, 0);
    if (T.fd >= 0) {
        if (in < 0)
            posix_spawn_file_actions_adddup2(&fa, T.fd, 0);
        posix_spawn_file_actions_adddup2(&fa, T.fd, 1);
        posix_spawn_file_actions_adddup2(&fa, T.fd, 2);
    }
    sigset_t dfl;
    sigemptyset(&dfl);
    for (int i = 0; i < NHANDED; i++)
        sigaddset(&dfl, handed_over[i]);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setsigdefault(&at, &dfl);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    int rc = posix_spawn(pid, "/bin/sh", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return rc;
}

/* pid's wait status once it ends, or -1 when it cannot be waited for. */
static int wait_for(pid_t pid)
{
    int st = 0;
    pid_t got;
    while ((got = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        ;
    return got == pid ? st : -1;
}

/* Runs cmd through sh on the terminal: 0 when it exited 0, 1 when it
 * failed or was killed (^C), -1 when it could not be run. */
static int run_on_terminal(const char *cmd)
{
    struct sigaction was[NHANDED];
    hand_over_signals(was);
    pid_t pid;
    int st = spawn_on_terminal(cmd, -1, &pid) == 0 ? wait_for(pid) : -1;
    take_back_signals(was);
    return st == -1 ? -1 : WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

bool sbx_term_edit(const char *editor, const char *dir, const char *initial, struct sbx_buf *out,
                   char *err, size_t errsz)
{
    struct sbx_buf path = SBX_BUF_INIT, cmd = SBX_BUF_INIT;
    sbx_buf_addf(&path, "%s/sbxview-note-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path.p);
    bool ok = false;
    if (fd < 0) {
        snprintf(err, errsz, "could not make a file for the editor in %.200s: %s", dir, strerror(errno));
        sbx_buf_free(&path);
        return false;
    }
    size_t n = strlen(initial);
    bool written = n == 0 || write(fd, initial, n) == (ssize_t)n;
    close(fd);
    if (!written) {
        snprintf(err, errsz, "could not write the editor's file: %s", strerror(errno));
        goto done;
    }
    sbx_buf_addf(&cmd, "exec %s ", editor);
    shell_quote(&cmd, path.p);
    def_prog_mode();
    endwin();
    int status = run_on_terminal(cmd.p);
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
    if (status != 0) {
        snprintf(err, errsz, status < 0 ? "the editor could not run (%.100s): nothing written"
                                        : "the editor (%.100s) failed: nothing written", editor);
        goto done;
    }
    FILE *f = fopen(path.p, "r");
    if (!f) {
        snprintf(err, errsz, "the editor's file could not be read back: %s", strerror(errno));
        goto done;
    }
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0 && out->len < (1u << 20))
        sbx_buf_add(out, buf, got);
    fclose(f);
    ok = true;
done:
    unlink(path.p);
    sbx_buf_free(&path);
    sbx_buf_free(&cmd);
    return ok;
}

bool sbx_term_has_ms(void)
{
    const char *s = T.screen ? tigetstr("Ms") : NULL;
    return s && s != (char *)-1;
}

bool sbx_term_send(const char *s, size_t n)
{
    if (T.fd < 0)
        return false;
    while (n) {
        ssize_t w = write(T.fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        s += w;
        n -= (size_t)w;
    }
    return true;
}

bool sbx_term_pager(const char *pager, const char *text, size_t n, int *status, char *why,
                    size_t whysz)
{
    *status = -1;
    if (!T.screen || T.fd < 0) {
        snprintf(why, whysz, "no terminal to page on");
        return false;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(why, whysz, "no pipe to the pager: %s", strerror(errno));
        return false;
    }
    def_prog_mode();
    endwin();
    struct sigaction was[NHANDED];
    hand_over_signals(was);
    pid_t pid;
    int rc = spawn_on_terminal(pager, fds[0], &pid);
    close(fds[0]);
    if (rc == 0) {
        /* the pager may quit before reading it all: EPIPE ends the writing */
        for (size_t done = 0; done < n;) {
            ssize_t w = write(fds[1], text + done, n - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            done += (size_t)w;
        }
    }
    close(fds[1]);
    if (rc == 0) {
        int st = wait_for(pid);
        if (st != -1)
            *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    } else {
        snprintf(why, whysz, "the pager could not be run: %s", strerror(rc));
    }
    take_back_signals(was);
    reset_prog_mode();
    sbx_grid_resize(&T.shown, 0, 0); /* the next draw is a whole screen */
    clearok(curscr, TRUE);
    refresh();
    return rc == 0;
}
