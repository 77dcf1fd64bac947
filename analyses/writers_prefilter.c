/* Whether a command line can name a write target at all (the rule is in
 * analyses/writers.h, sbx_write_may_target).
 *
 * A target comes only from a '>' (every redirection that writes has one)
 * or from a word whose basename is a writing program's name. A word's
 * bytes are the line's bytes with its quotes taken out, except where a
 * backslash or $'…' makes new ones: a line holding either is read in
 * full. Otherwise the line is read as runs of bytes between the reader's
 * word breaks with ' and " left out: every word of the reader, and every
 * word of a `bash -c` string inside it, has its basename as such a run's
 * basename (more breaks only make more runs). */
#include "analyses/writers.h"

#include <stdint.h>
#include <string.h>

/* The programs run_command (analyses/writers.c) reads a target from: a
 * row here for every program rule there. GIT: only with one of the GIT_SUB
 * words on the line (the sub-commands that write); python (any pythonN.M)
 * is found apart, and only with "open(" on the line. */
enum role { WRITES, GIT, GIT_SUB };

#define P(name, role) {name, sizeof name - 1, role}
static const struct {
    const char *name;
    size_t len;
    enum role role;
} programs[] = {
    P("sed", WRITES),    P("tee", WRITES),     P("cp", WRITES),       P("mv", WRITES),
    P("install", WRITES), P("ln", WRITES),     P("rm", WRITES),       P("touch", WRITES),
    P("mkdir", WRITES),  P("patch", WRITES),   P("git", GIT),         P("apply", GIT_SUB),
    P("checkout", GIT_SUB), P("restore", GIT_SUB),
};
#undef P

/* Every name's length and first byte, made once (sbx_write_may_target is
 * called from several threads: the table is filled before any of them). */
static uint64_t name_lens;
static bool name_firsts[256];

__attribute__((constructor)) static void names_index(void)
{
    for (size_t k = 0; k < sizeof programs / sizeof *programs; k++) {
        name_lens |= 1ull << programs[k].len;
        name_firsts[(unsigned char)programs[k].name[0]] = true;
    }
}

enum cls { C_WORD, C_BREAK, C_QUOTE, C_FULL, C_DOLLAR, C_SLASH };

/* The reader's word breaks (is_break in writers.c) and '\r', which the
 * lexer passes over between words. */
static const uint8_t cls[256] = {
    [' '] = C_BREAK,  ['\t'] = C_BREAK, ['\n'] = C_BREAK, ['\r'] = C_BREAK, [';'] = C_BREAK,
    ['&'] = C_BREAK,  ['|'] = C_BREAK,  ['('] = C_BREAK,  [')'] = C_BREAK,  ['<'] = C_BREAK,
    ['\''] = C_QUOTE, ['"'] = C_QUOTE,  ['>'] = C_FULL,   ['\\'] = C_FULL,  ['$'] = C_DOLLAR,
    ['/'] = C_SLASH,
};

#define BASE_MAX 16 /* longer than every name; a longer basename only counts for python */

struct run {
    char cur[BASE_MAX], prev[BASE_MAX]; /* prev: before the last '/', for "rm/" */
    size_t ncur, nprev;
    bool long_cur, long_prev;
};

static bool is_python(const char *s, size_t n, bool cut)
{
    if (n < 6 || memcmp(s, "python", 6) != 0)
        return false;
    if (cut)
        return true; /* its tail was not kept: it may be digits and dots */
    for (size_t k = 6; k < n; k++)
        if (!((s[k] >= '0' && s[k] <= '9') || s[k] == '.'))
            return false;
    return true;
}

struct seen {
    bool git, git_sub, python, open;
};

/* A run ended: true when its basename is a program that writes outright. */
static bool run_end(struct run *r, struct seen *s)
{
    const char *b = r->cur;
    size_t n = r->ncur;
    bool cut = r->long_cur;
    if (!n && !cut) { /* "a/rm/": the part before the trailing slashes */
        b = r->prev;
        n = r->nprev;
        cut = r->long_prev;
    }
    r->ncur = r->nprev = 0;
    r->long_cur = r->long_prev = false;
    if (is_python(b, n, cut)) {
        s->python = true;
        return false;
    }
    if (cut || n >= 64 || !(name_lens >> n & 1) || !name_firsts[(unsigned char)b[0]])
        return false;
    for (size_t k = 0; k < sizeof programs / sizeof *programs; k++) {
        if (programs[k].len != n || programs[k].name[0] != b[0] || memcmp(programs[k].name, b, n) != 0)
            continue;
        if (programs[k].role == WRITES)
            return true;
        s->git |= programs[k].role == GIT;
        s->git_sub |= programs[k].role == GIT_SUB;
    }
    return false;
}

bool sbx_write_may_target(const char *cmd, size_t n)
{
    const unsigned char *p = (const unsigned char *)cmd;
    struct run r = {.ncur = 0};
    struct seen s = {false, false, false, false};
    uint32_t last4 = 0; /* the last four bytes with the quotes left out, for "open(" */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        switch (cls[c]) {
        case C_FULL:
            return true;
        case C_QUOTE:
            continue;
        case C_BREAK:
            if (c == '(' && last4 == ('o' << 24 | 'p' << 16 | 'e' << 8 | 'n'))
                s.open = true;
            if (run_end(&r, &s))
                return true;
            break;
        case C_SLASH:
            if (r.ncur || r.long_cur) {
                memcpy(r.prev, r.cur, r.ncur);
                r.nprev = r.ncur;
                r.long_prev = r.long_cur;
            }
            r.ncur = 0;
            r.long_cur = false;
            break;
        case C_DOLLAR:
            if (i + 1 < n && cls[p[i + 1]] == C_QUOTE)
                return true; /* $'…', or $"…" whose quotes may leave a $' for bash -c */
            __attribute__((fallthrough));
        case C_WORD:
            if (r.ncur < BASE_MAX)
                r.cur[r.ncur++] = (char)c;
            else
                r.long_cur = true;
        }
        last4 = last4 << 8 | c;
    }
    if (run_end(&r, &s))
        return true;
    return (s.git && s.git_sub) || (s.python && s.open);
}
