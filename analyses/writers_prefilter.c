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
 * basename (more breaks only make more runs).
 *
 * A program is only the first word of a simple command: a name counts
 * where its run starts the line or follows a separator, and anywhere when
 * the line holds what can put it elsewhere (a wrapper or reserved word of
 * skip_wrappers, a shell that reads a string, a VAR=value, a '<') or can
 * make one word of several runs (a quote, a $ group, a backquote). */
#include "analyses/writers.h"

#include <stdint.h>
#include <string.h>

/* The programs run_command (analyses/writers.c) reads a target from: a
 * row here for every program rule there. GIT: only with one of the GIT_SUB
 * words on the line (the sub-commands that write); python (any pythonN.M)
 * is found apart, and only with "open(" on the line. */
enum role { WRITES, GIT, GIT_SUB, OPENER };

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
    /* what a program may stand after: skip_wrappers' words, the shells */
    P("!", OPENER), P("{", OPENER), P("}", OPENER), P("if", OPENER), P("then", OPENER),
    P("else", OPENER), P("elif", OPENER), P("do", OPENER), P("while", OPENER),
    P("until", OPENER), P("time", OPENER), P("command", OPENER), P("exec", OPENER),
    P("nohup", OPENER), P("builtin", OPENER), P("sudo", OPENER), P("doas", OPENER),
    P("env", OPENER), P("nice", OPENER), P("timeout", OPENER), P("bash", OPENER),
    P("sh", OPENER), P("dash", OPENER), P("zsh", OPENER), P("ksh", OPENER),
};
#undef P

/* Every name's length and first byte, made once (sbx_write_may_target is
 * called from several threads: the table is filled before any of them). */
static uint64_t name_lens;
static uint64_t by_first[256]; /* the rows whose name starts with the byte */

_Static_assert(sizeof programs / sizeof *programs <= 64, "a row is a bit of by_first");

__attribute__((constructor)) static void names_index(void)
{
    for (size_t k = 0; k < sizeof programs / sizeof *programs; k++) {
        name_lens |= 1ull << programs[k].len;
        by_first[(unsigned char)programs[k].name[0]] |= 1ull << k;
    }
}

enum cls { C_WORD, C_BLANK, C_CR, C_SEP, C_LT, C_QUOTE, C_FULL, C_DOLLAR, C_SLASH, C_EQ, C_BACKQUOTE };

/* The reader's word breaks (is_break in writers.c): blanks, the
 * separators after which a simple command starts, and '<'; '\r' only
 * between words (the lexer passes over it there, a word keeps it). */
static const uint8_t cls[256] = {
    [' '] = C_BLANK,  ['\t'] = C_BLANK, ['\r'] = C_CR, ['\n'] = C_SEP,   [';'] = C_SEP,
    ['&'] = C_SEP,    ['|'] = C_SEP,    ['('] = C_SEP,    [')'] = C_SEP,    ['<'] = C_LT,
    ['\''] = C_QUOTE, ['"'] = C_QUOTE,  ['>'] = C_FULL,   ['\\'] = C_FULL,  ['$'] = C_DOLLAR,
    ['/'] = C_SLASH,  ['='] = C_EQ,    ['`'] = C_BACKQUOTE,
};

#define BASE_MAX 16 /* longer than every name; a longer basename only counts for python */

struct run {
    char cur[BASE_MAX], prev[BASE_MAX]; /* prev: before the last '/', for "rm/" */
    size_t ncur, nprev;
    bool long_cur, long_prev;
    bool begun, first; /* first: it started where a command does */
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

/* What the line holds so far; *_first: as a simple command's first word. */
struct seen {
    bool writes, git, git_first, git_sub, python, python_first, open, opener;
};

/* A run ended: true when it is a program that writes, in a command's
 * place. */
static bool run_end(struct run *r, struct seen *s)
{
    const char *b = r->cur;
    size_t n = r->ncur;
    bool cut = r->long_cur, first = r->first;
    if (!n && !cut) { /* "a/rm/": the part before the trailing slashes */
        b = r->prev;
        n = r->nprev;
        cut = r->long_prev;
    }
    r->ncur = r->nprev = 0;
    r->long_cur = r->long_prev = r->begun = false;
    if (is_python(b, n, cut)) {
        s->python = true;
        s->python_first |= first;
        return false;
    }
    if (cut || n >= 64 || !(name_lens >> n & 1))
        return false;
    for (uint64_t rows = by_first[(unsigned char)b[0]]; rows; rows &= rows - 1) {
        size_t k = (size_t)__builtin_ctzll(rows);
        if (programs[k].len != n || memcmp(programs[k].name, b, n) != 0)
            continue;
        switch (programs[k].role) {
        case WRITES:
            if (first)
                return true;
            s->writes = true;
            break;
        case GIT:
            s->git = true;
            s->git_first |= first;
            break;
        case GIT_SUB:
            s->git_sub = true;
            break;
        case OPENER:
            s->opener = true;
            break;
        }
    }
    return false;
}

bool sbx_write_may_target(const char *cmd, size_t n)
{
    const unsigned char *p = (const unsigned char *)cmd;
    struct run r = {.ncur = 0};
    struct seen s = {false, false, false, false, false, false, false, false};
    uint32_t last4 = 0; /* the last four bytes with the quotes left out, for "open(" */
    bool at_command = true; /* a run starting here is a simple command's first word */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        switch (cls[c]) {
        case C_FULL:
            return true;
        case C_QUOTE:
            s.opener = true; /* "a b/rm" is one word */
            continue;
        case C_CR:
            if (!r.begun)
                continue;
            goto word;
        case C_LT:
        case C_SEP:
        case C_BLANK:
            if (c == '(' && last4 == ('o' << 24 | 'p' << 16 | 'e' << 8 | 'n'))
                s.open = true;
            if (r.begun) {
                if (run_end(&r, &s))
                    return true;
                at_command = false;
            }
            if (cls[c] == C_SEP)
                at_command = true;
            s.opener |= c == '<';
            break;
        case C_SLASH:
            if (!r.begun)
                r.first = at_command;
            r.begun = true;
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
        case C_EQ:        /* VAR=value before the program; after $: ${a b}/rm is one word */
        case C_BACKQUOTE: /* `a b`/rm is one word */
            s.opener = true;
            __attribute__((fallthrough));
        case C_WORD:
        word:
            if (!r.begun)
                r.first = at_command;
            r.begun = true;
            if (r.ncur < BASE_MAX)
                r.cur[r.ncur++] = (char)c;
            else
                r.long_cur = true;
        }
        last4 = last4 << 8 | c;
    }
    if (run_end(&r, &s))
        return true;
    bool any = s.opener; /* then a program may be any word */
    return (s.writes && any) || ((s.git_first || (s.git && any)) && s.git_sub) ||
           ((s.python_first || (s.python && any)) && s.open);
}
