#include "model/program.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/hex.h"

/* The command line is a stack of byte streams: level 0 is the raw input;
 * level k+1 is one word of level k with the shell's quote removal applied,
 * decoded on the fly. A tokenizer reading level k reads its words through
 * level k+1; to unwrap `bash -c WORD` it runs a tokenizer on level k+1
 * itself. So nothing is copied and each input byte costs O(depth). */

#define MAX_NEST 4              /* bash -c strings unwrapped inside each other */
#define NLEV (MAX_NEST + 2)     /* raw input + one word decoder per tokenizer */
#define WMAX 128                /* bytes kept of a word */
#define MAX_HEREDOC 4           /* pending heredocs tracked per line */
#define LOOK_NONE (-2)

enum { Q_NONE, Q_S, Q_D, Q_DS };

struct heredoc {
    unsigned char b[WMAX];
    size_t blen, len;
    bool dash; /* <<- strips leading tabs */
};

struct lvl {
    /* level 0: the raw bytes */
    const unsigned char *p;
    size_t n, i;
    /* levels >= 1: a word decoder over the level below */
    int look;
    unsigned char q, subq;
    bool in_sub, in_bq, sub_esc, done, any;
    unsigned depth;
    size_t out, qpos;
    unsigned char pend[4];
    unsigned npend, ipend;
    /* heredocs whose bodies start after this stream's next newline */
    struct heredoc hd[MAX_HEREDOC];
    unsigned nhd;
    /* inside case … esac: the next command starts with a pattern */
    unsigned case_depth;
    bool case_pat;
};

struct walker;
typedef void visit_fn(struct walker *w, const unsigned char *prog, size_t plen,
                      const unsigned char *label, size_t llen);

struct walker {
    struct lvl lv[NLEV];
    bool stop;
    size_t nemit;
    visit_fn *visit;
    /* sbx_program_each */
    void (*cb)(const char *, size_t, void *);
    void *ctx;
    /* sbx_program_label */
    bool found, have_first;
    unsigned char first[2 * WMAX + 2];
    size_t firstlen;
    char *out;
    size_t cap, outlen;
    /* characters read and decoded at every level (sbx_program_work) */
    size_t steps;
};

/* ---- streams ---- */

static int decode(struct walker *w, int k);

static inline int peek(struct walker *w, int k)
{
    struct lvl *l = &w->lv[k];
    if (k == 0)
        return l->i < l->n ? l->p[l->i] : -1;
    if (l->look == LOOK_NONE)
        l->look = decode(w, k);
    return l->look;
}

static inline int next(struct walker *w, int k)
{
    struct lvl *l = &w->lv[k];
    w->steps++;
    if (k == 0)
        return l->i < l->n ? l->p[l->i++] : -1;
    int c = peek(w, k);
    if (c >= 0)
        l->look = LOOK_NONE;
    return c;
}

static void decoder_init(struct lvl *l)
{
    l->look = LOOK_NONE;
    l->q = l->subq = Q_NONE;
    l->in_sub = l->in_bq = l->sub_esc = l->done = l->any = false;
    l->depth = 0;
    l->out = 0;
    l->qpos = SIZE_MAX;
    l->npend = l->ipend = 0;
    l->nhd = 0;
    l->case_depth = 0;
    l->case_pat = false;
}

static inline bool is_break(int c)
{
    switch (c) {
    case ' ': case '\t': case '\n': case ';': case '&': case '|': case '<': case '>':
    case '(': case ')':
        return true;
    default:
        return false;
    }
}

static inline int out1(struct lvl *l, int c)
{
    l->out++;
    return c;
}

static inline void mark_quoted(struct lvl *l)
{
    l->any = true;
    if (l->qpos == SIZE_MAX)
        l->qpos = l->out;
}

/* Returns the first of n bytes and queues the rest. */
static int out_n(struct lvl *l, const unsigned char *b, unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        l->pend[i - 1] = b[i];
    l->npend = n - 1;
    l->ipend = 0;
    return out1(l, b[0]);
}

/* Inside $(…), ${…} or `…`: bytes pass through; track quotes and nesting
 * only to find where it ends. */
static void sub_track(struct lvl *l, int c)
{
    if (l->sub_esc) {
        l->sub_esc = false;
        return;
    }
    if (l->subq == Q_S) {
        if (c == '\'')
            l->subq = Q_NONE;
        return;
    }
    if (c == '\\') {
        l->sub_esc = true;
    } else if (l->subq == Q_D) {
        if (c == '"')
            l->subq = Q_NONE;
    } else if (c == '\'') {
        l->subq = Q_S;
    } else if (c == '"') {
        l->subq = Q_D;
    } else if (l->in_sub) {
        if (c == '(' || c == '{')
            l->depth++;
        else if ((c == ')' || c == '}') && l->depth > 0 && --l->depth == 0)
            l->in_sub = false;
    } else if (c == '`') {
        l->in_bq = false;
    }
}

static void start_sub(struct lvl *l)
{
    l->in_sub = true;
    l->depth = 0;
    l->subq = Q_NONE;
    l->sub_esc = false;
}

static void start_bq(struct lvl *l)
{
    l->in_bq = true;
    l->subq = Q_NONE;
    l->sub_esc = false;
}

/* $'…' after a backslash (bash's ANSI-C quoting). */
static int ansi_escape(struct walker *w, int k)
{
    struct lvl *l = &w->lv[k];
    int pk = k - 1;
    int d = next(w, pk);
    unsigned char b[4];
    switch (d) {
    case -1: return out1(l, '\\');
    case 'n': return out1(l, '\n');
    case 't': return out1(l, '\t');
    case 'r': return out1(l, '\r');
    case 'a': return out1(l, 7);
    case 'b': return out1(l, 8);
    case 'f': return out1(l, 12);
    case 'v': return out1(l, 11);
    case 'e': case 'E': return out1(l, 27);
    case '\\': case '\'': case '"': case '?': return out1(l, d);
    case 'c': {
        int e = next(w, pk);
        if (e < 0) {
            b[0] = '\\';
            b[1] = 'c';
            return out_n(l, b, 2);
        }
        return out1(l, e & 0x1f);
    }
    case 'x': case 'u': case 'U': {
        int maxd = d == 'x' ? 2 : d == 'u' ? 4 : 8, nd = 0;
        uint32_t v = 0;
        while (nd < maxd && sbx_hex_digit(peek(w, pk)) >= 0) {
            v = v * 16 + (uint32_t)sbx_hex_digit(next(w, pk));
            nd++;
        }
        if (nd == 0) {
            b[0] = '\\';
            b[1] = (unsigned char)d;
            return out_n(l, b, 2);
        }
        if (d == 'x' || v < 0x80)
            return out1(l, (int)(v & 0xff));
        if (v < 0x800) {
            b[0] = (unsigned char)(0xc0 | v >> 6);
            b[1] = (unsigned char)(0x80 | (v & 0x3f));
            return out_n(l, b, 2);
        }
        if (v < 0x10000) {
            b[0] = (unsigned char)(0xe0 | v >> 12);
            b[1] = (unsigned char)(0x80 | (v >> 6 & 0x3f));
            b[2] = (unsigned char)(0x80 | (v & 0x3f));
            return out_n(l, b, 3);
        }
        if (v > 0x10ffff)
            v = 0xfffd;
        b[0] = (unsigned char)(0xf0 | v >> 18);
        b[1] = (unsigned char)(0x80 | (v >> 12 & 0x3f));
        b[2] = (unsigned char)(0x80 | (v >> 6 & 0x3f));
        b[3] = (unsigned char)(0x80 | (v & 0x3f));
        return out_n(l, b, 4);
    }
    default:
        if (d >= '0' && d <= '7') {
            unsigned v = (unsigned)(d - '0');
            for (int j = 0; j < 2 && peek(w, pk) >= '0' && peek(w, pk) <= '7'; j++)
                v = v * 8 + (unsigned)(next(w, pk) - '0');
            return out1(l, (int)(v & 0xff));
        }
        b[0] = '\\';
        b[1] = (unsigned char)d;
        return out_n(l, b, 2);
    }
}

/* The next byte of level k's word after quote removal, or -1 at its end
 * (an unquoted break character of level k-1, left unread, or the end of
 * level k-1; an unterminated quote ends there too). */
static int decode(struct walker *w, int k)
{
    struct lvl *l = &w->lv[k];
    w->steps++;
    int pk = k - 1;
    if (l->ipend < l->npend)
        return out1(l, l->pend[l->ipend++]);
    if (l->done)
        return -1;
    for (;;) {
        int c = peek(w, pk);
        if (c < 0) {
            l->done = true;
            return -1;
        }
        if (l->in_sub || l->in_bq) {
            next(w, pk);
            sub_track(l, c);
            l->any = true;
            return out1(l, c);
        }
        switch (l->q) {
        case Q_NONE:
            if (is_break(c)) {
                l->done = true;
                return -1;
            }
            next(w, pk);
            if (c == '\'') {
                mark_quoted(l);
                l->q = Q_S;
                continue;
            }
            if (c == '"') {
                mark_quoted(l);
                l->q = Q_D;
                continue;
            }
            if (c == '\\') {
                int d = next(w, pk);
                if (d == '\n')
                    continue; /* line continuation */
                mark_quoted(l);
                return out1(l, d < 0 ? '\\' : d);
            }
            if (c == '$') {
                int d = peek(w, pk);
                if (d == '\'') {
                    next(w, pk);
                    mark_quoted(l);
                    l->q = Q_DS;
                    continue;
                }
                if (d == '(' || d == '{')
                    start_sub(l);
            } else if (c == '`') {
                start_bq(l);
            }
            l->any = true;
            return out1(l, c);
        case Q_S:
            next(w, pk);
            if (c == '\'') {
                l->q = Q_NONE;
                continue;
            }
            return out1(l, c);
        case Q_D:
            next(w, pk);
            if (c == '"') {
                l->q = Q_NONE;
                continue;
            }
            if (c == '\\') {
                int d = peek(w, pk);
                if (d == '$' || d == '`' || d == '"' || d == '\\') {
                    next(w, pk);
                    return out1(l, d);
                }
                if (d == '\n') {
                    next(w, pk);
                    continue;
                }
                return out1(l, '\\');
            }
            if (c == '$') {
                int d = peek(w, pk);
                if (d == '(' || d == '{')
                    start_sub(l);
            } else if (c == '`') {
                start_bq(l);
            }
            return out1(l, c);
        default: /* Q_DS */
            next(w, pk);
            if (c == '\'') {
                l->q = Q_NONE;
                continue;
            }
            if (c == '\\')
                return ansi_escape(w, k);
            return out1(l, c);
        }
    }
}

/* ---- words ---- */

struct word {
    unsigned char b[WMAX];    /* the first WMAX bytes */
    size_t blen, len;         /* kept, and full length */
    unsigned char base[WMAX]; /* after the last '/' (only when asked) */
    size_t baselen;
    size_t qpos; /* bytes before the first quoting; SIZE_MAX if none */
    bool any;    /* has any content, even an empty quoted string */
};

/* Bytes that stand for themselves in an unquoted word. */
static inline bool word_plain(int c)
{
    return !is_break(c) && c != '\'' && c != '"' && c != '\\' && c != '$' && c != '`';
}

static inline void word_add(struct word *wd, int c, bool want_base)
{
    if (wd->blen < WMAX)
        wd->b[wd->blen++] = (unsigned char)c;
    wd->len++;
    if (want_base) {
        if (c == '/')
            wd->baselen = 0;
        else if (wd->baselen < WMAX)
            wd->base[wd->baselen++] = (unsigned char)c;
    }
}

/* Reads one word of level k through level k+1. */
static void read_word(struct walker *w, int k, struct word *wd, bool want_base)
{
    struct lvl *l = &w->lv[k + 1];
    struct lvl *raw = &w->lv[0];
    decoder_init(l);
    wd->blen = wd->len = wd->baselen = 0;
    for (;;) {
        /* fast path over the raw input: runs of plain, single-quoted or
         * ordinary double-quoted bytes decode to themselves */
        if (k == 0 && !l->in_sub && !l->in_bq && l->look == LOOK_NONE &&
            l->ipend >= l->npend) {
            size_t i = raw->i, start = i;
            if (l->q == Q_NONE) {
                while (i < raw->n && word_plain(raw->p[i]))
                    word_add(wd, raw->p[i++], want_base);
                if (i > start)
                    l->any = true;
            } else if (l->q == Q_S) {
                while (i < raw->n && raw->p[i] != '\'')
                    word_add(wd, raw->p[i++], want_base);
            } else if (l->q == Q_D) {
                unsigned char c;
                while (i < raw->n && (c = raw->p[i]) != '"' && c != '\\' && c != '$' && c != '`')
                    word_add(wd, raw->p[i++], want_base);
            }
            l->out += i - start;
            raw->i = i;
        }
        int c = next(w, k + 1);
        if (c < 0)
            break;
        word_add(wd, c, want_base);
    }
    wd->qpos = l->qpos;
    wd->any = l->any;
}

static void discard_word(struct walker *w, int k)
{
    decoder_init(&w->lv[k + 1]);
    while (next(w, k + 1) >= 0)
        ;
}

struct name {
    const char *s;
    size_t n;
};
#define NAME(s) {s, sizeof s - 1}

#define word_is(wd, lit) ((wd)->len == sizeof lit - 1 && memcmp((wd)->b, lit, sizeof lit - 1) == 0)
#define bytes_is(b, n, lit) ((n) == sizeof lit - 1 && memcmp(b, lit, sizeof lit - 1) == 0)

static bool bytes_in(const unsigned char *b, size_t n, const struct name *list)
{
    for (; list->s; list++)
        if (list->n == n && memcmp(b, list->s, n) == 0)
            return true;
    return false;
}

static bool is_name_start(unsigned char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_name_char(unsigned char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* NAME=value or NAME+=value with NAME and '=' unquoted. */
static bool is_assignment(const struct word *wd)
{
    if (wd->blen == 0 || !is_name_start(wd->b[0]))
        return false;
    size_t i = 1;
    while (i < wd->blen && is_name_char(wd->b[i]))
        i++;
    if (i < wd->blen && wd->b[i] == '+')
        i++;
    return i < wd->blen && wd->b[i] == '=' && (wd->qpos == SIZE_MAX || i < wd->qpos);
}

static bool is_io_number(const struct word *wd)
{
    if (wd->len == 0 || wd->len > 9 || wd->qpos != SIZE_MAX)
        return false;
    for (size_t i = 0; i < wd->len; i++)
        if (wd->b[i] < '0' || wd->b[i] > '9')
            return false;
    return true;
}

static const struct name kw_pass[] = {
    NAME("!"), NAME("{"), NAME("if"), NAME("then"), NAME("elif"), NAME("else"),
    NAME("while"), NAME("until"), NAME("do"), NAME("time"), {NULL, 0}};
static const struct name kw_block[] = {
    NAME("}"), NAME("fi"), NAME("done"), NAME("for"), NAME("select"), NAME("function"),
    NAME("[["), NAME("coproc"), {NULL, 0}};
static const struct name tools[] = {
    NAME("pip"), NAME("pip3"), NAME("npm"), NAME("pnpm"), NAME("yarn"), NAME("git"),
    NAME("cargo"), NAME("go"), NAME("apt"), NAME("apt-get"), NAME("docker"), NAME("kubectl"),
    NAME("uv"), NAME("poetry"), NAME("gem"), {NULL, 0}};
static const struct name label_skip[] = {
    NAME("cd"), NAME("export"), NAME("source"), NAME("."), NAME("set"), NAME("pushd"),
    NAME("true"), {NULL, 0}};

static bool is_python(const unsigned char *b, size_t n)
{
    if (n < 6 || memcmp(b, "python", 6) != 0)
        return false;
    for (size_t i = 6; i < n; i++)
        if (!((b[i] >= '0' && b[i] <= '9') || b[i] == '.'))
            return false;
    return true;
}

/* ---- simple commands ---- */

enum { ST_CMD, ST_ARGS, ST_REST, ST_NOCMD, ST_CASEPAT };
enum { K_OTHER, K_SHELL, K_PYTHON, K_TOOL };

struct simple {
    int st, kind;
    bool emitted, has_c, opts_done, module_next, after_time;
    unsigned skip_next; /* option values still to pass over */
    unsigned char prog[WMAX];
    size_t plen;
    unsigned char tool[WMAX]; /* the tool whose subcommand is wanted */
    size_t toollen;
    unsigned char label[2 * WMAX + 1];
    size_t llen;
};

static void set_label(struct simple *sc, const unsigned char *a, size_t an,
                      const unsigned char *b, size_t bn)
{
    memcpy(sc->label, a, an);
    sc->llen = an;
    if (bn) {
        sc->label[sc->llen++] = ' ';
        memcpy(sc->label + sc->llen, b, bn);
        sc->llen += bn;
    }
}

static void emit(struct walker *w, struct simple *sc)
{
    sc->emitted = true;
    sc->st = ST_REST;
    w->nemit++;
    w->visit(w, sc->prog, sc->plen, sc->label, sc->llen);
}

static void on_command_word(struct walker *w, int k, struct simple *sc, const struct word *wd)
{
    bool plain = wd->qpos == SIZE_MAX;
    struct lvl *l = &w->lv[k];
    if (is_assignment(wd))
        return;
    if (plain && sc->after_time && wd->blen > 1 && wd->b[0] == '-')
        return; /* time -p */
    if (plain && bytes_in(wd->b, wd->len, kw_pass)) {
        sc->after_time = word_is(wd, "time");
        return;
    }
    if (plain && bytes_in(wd->b, wd->len, kw_block)) {
        sc->st = ST_NOCMD;
        return;
    }
    if (plain && word_is(wd, "case")) {
        l->case_depth++;
        l->case_pat = true;
        sc->st = ST_CASEPAT; /* the subject, "in", then the first pattern */
        return;
    }
    if (plain && word_is(wd, "esac")) {
        if (l->case_depth)
            l->case_depth--;
        sc->st = ST_NOCMD;
        return;
    }
    /* basename; a word ending in '/' keeps its whole (kept) text */
    const unsigned char *base = wd->baselen ? wd->base : wd->b;
    size_t blen = wd->baselen ? wd->baselen : wd->blen;
    memcpy(sc->prog, base, blen);
    sc->plen = blen;
    set_label(sc, base, blen, NULL, 0);
    sc->st = ST_ARGS;
    if (bytes_is(base, blen, "bash") || bytes_is(base, blen, "sh")) {
        sc->kind = K_SHELL;
    } else if (is_python(base, blen)) {
        sc->kind = K_PYTHON;
    } else if (bytes_in(base, blen, tools)) {
        sc->kind = K_TOOL;
        memcpy(sc->tool, base, blen);
        sc->toollen = blen;
    } else {
        sc->kind = K_OTHER;
        emit(w, sc); /* the label is final: no need to read on for it */
    }
}

static void found_module(struct walker *w, struct simple *sc, const unsigned char *m, size_t n)
{
    set_label(sc, m, n, NULL, 0);
    if (bytes_in(m, n, tools)) {
        sc->kind = K_TOOL;
        memcpy(sc->tool, m, n);
        sc->toollen = n;
        sc->skip_next = 0;
    } else {
        emit(w, sc);
    }
}

static void on_python_arg(struct walker *w, struct simple *sc, const struct word *wd)
{
    if (sc->module_next) {
        found_module(w, sc, wd->b, wd->blen);
        return;
    }
    if (wd->blen < 2 || wd->b[0] != '-' || wd->b[1] == '-') {
        emit(w, sc); /* a script, "-" (stdin), or a long option we do not read */
        return;
    }
    for (size_t j = 1; j < wd->blen; j++) {
        unsigned char ch = wd->b[j];
        if (ch == 'm') {
            if (j + 1 < wd->blen)
                found_module(w, sc, wd->b + j + 1, wd->blen - j - 1);
            else
                sc->module_next = true;
            return;
        }
        if (ch == 'c') {
            emit(w, sc);
            return;
        }
        if (ch == 'W' || ch == 'X' || ch == 'Q') {
            if (j + 1 == wd->blen)
                sc->skip_next = 1;
            return;
        }
    }
}

static void on_tool_arg(struct walker *w, struct simple *sc, const struct word *wd)
{
    if (wd->blen >= 1 && wd->b[0] == '-') {
        if (bytes_is(sc->tool, sc->toollen, "git") && (word_is(wd, "-C") || word_is(wd, "-c")))
            sc->skip_next = 1;
        return;
    }
    set_label(sc, sc->tool, sc->toollen, wd->b, wd->blen);
    emit(w, sc);
}

static void on_shell_arg(struct walker *w, struct simple *sc, const struct word *wd)
{
    if (!sc->opts_done && wd->blen >= 1 && (wd->b[0] == '-' || wd->b[0] == '+')) {
        if (word_is(wd, "-") || word_is(wd, "--")) {
            sc->opts_done = true;
        } else if (wd->blen >= 2 && wd->b[1] == '-') {
            if (word_is(wd, "--rcfile") || word_is(wd, "--init-file"))
                sc->skip_next = 1;
        } else {
            for (size_t j = 1; j < wd->blen; j++) {
                if (wd->b[j] == 'c')
                    sc->has_c = true;
                else if (wd->b[j] == 'o' || wd->b[j] == 'O')
                    sc->skip_next++;
            }
        }
        return;
    }
    emit(w, sc); /* a script file, or a -c string too deep to unwrap */
}

static void on_word(struct walker *w, int k, struct simple *sc, const struct word *wd)
{
    if (sc->st == ST_CMD) {
        on_command_word(w, k, sc, wd);
        return;
    }
    if (sc->st == ST_CASEPAT && wd->qpos == SIZE_MAX && word_is(wd, "esac")) {
        struct lvl *l = &w->lv[k];
        if (l->case_depth)
            l->case_depth--;
        l->case_pat = false;
        sc->st = ST_NOCMD;
        return;
    }
    if (sc->st != ST_ARGS)
        return;
    if (sc->skip_next) {
        sc->skip_next--;
        return;
    }
    switch (sc->kind) {
    case K_SHELL: on_shell_arg(w, sc, wd); break;
    case K_PYTHON: on_python_arg(w, sc, wd); break;
    case K_TOOL: on_tool_arg(w, sc, wd); break;
    default: break;
    }
}

static void skip_heredoc_bodies(struct walker *w, int k)
{
    struct lvl *l = &w->lv[k];
    for (unsigned h = 0; h < l->nhd; h++) {
        const struct heredoc *hd = &l->hd[h];
        for (;;) {
            size_t pos = 0;
            bool match = true, lead = true;
            int c;
            while ((c = next(w, k)) >= 0 && c != '\n') {
                if (hd->dash && lead && c == '\t')
                    continue;
                lead = false;
                if (pos < hd->blen && hd->b[pos] != c)
                    match = false;
                pos++;
            }
            if (match && pos == hd->len)
                break;
            if (c < 0) {
                l->nhd = 0;
                return;
            }
        }
    }
    l->nhd = 0;
}

/* At '<' or '>' of level k: the operator and its target word. */
static void redirection(struct walker *w, int k)
{
    int c = next(w, k);
    int d = peek(w, k);
    bool heredoc = false, dash = false;
    if (d == '(') { /* process substitution <(…) >(…): an argument */
        struct lvl *l = &w->lv[k + 1];
        decoder_init(l);
        start_sub(l);
        while (next(w, k + 1) >= 0)
            ;
        return;
    }
    if (c == '<') {
        if (d == '<') {
            next(w, k);
            if (peek(w, k) == '<') {
                next(w, k); /* <<< here-string */
            } else {
                heredoc = true;
                if (peek(w, k) == '-') {
                    next(w, k);
                    dash = true;
                }
            }
        } else if (d == '&' || d == '>') {
            next(w, k);
        }
    } else if (d == '>' || d == '|' || d == '&') {
        next(w, k);
    }
    while ((c = peek(w, k)) == ' ' || c == '\t')
        next(w, k);
    if (c < 0 || is_break(c))
        return;
    if (!heredoc) {
        discard_word(w, k);
        return;
    }
    struct word wd;
    read_word(w, k, &wd, false);
    struct lvl *l = &w->lv[k];
    if (l->nhd < MAX_HEREDOC) {
        struct heredoc *hd = &l->hd[l->nhd++];
        memcpy(hd->b, wd.b, wd.blen);
        hd->blen = wd.blen;
        hd->len = wd.len;
        hd->dash = dash;
    }
}

static void parse_list(struct walker *w, int k);

/* One simple command of level k, up to and including its separator.
 * Returns false at the end of the stream (or when stopped). */
static bool parse_simple(struct walker *w, int k)
{
    struct simple sc;
    struct word wd;
    struct lvl *l = &w->lv[k];
    sc.st = l->case_pat ? ST_CASEPAT : ST_CMD;
    sc.kind = K_OTHER;
    sc.emitted = sc.has_c = sc.opts_done = sc.module_next = sc.after_time = false;
    sc.skip_next = 0;
    sc.plen = sc.llen = sc.toollen = 0;
    bool more = true;

    for (;;) {
        if (w->stop)
            return false;
        int c = peek(w, k);
        if (c < 0) {
            more = false;
            break;
        }
        if (c == ' ' || c == '\t') {
            next(w, k);
            continue;
        }
        if (c == '\n') {
            next(w, k);
            if (!sc.emitted && sc.st == ST_ARGS)
                emit(w, &sc);
            if (w->stop)
                return false;
            skip_heredoc_bodies(w, k);
            return true;
        }
        if (c == ';' || c == '|') {
            next(w, k);
            int d = peek(w, k);
            if (d == c || d == '&')
                next(w, k); /* || ;; ;& |& */
            if (c == ';' && (d == ';' || d == '&')) {
                if (peek(w, k) == '&')
                    next(w, k); /* ;;& */
                if (l->case_depth)
                    l->case_pat = true;
            }
            break;
        }
        if (c == '&') {
            next(w, k);
            int d = peek(w, k);
            if (d == '&') {
                next(w, k);
                break;
            }
            if (d != '>')
                break;
            redirection(w, k); /* &> and &>> */
            continue;
        }
        if (c == '(') {
            next(w, k);
            if (sc.st == ST_CASEPAT)
                continue; /* (pattern) */
            if (sc.st == ST_CMD && peek(w, k) == '(') { /* ((arithmetic)) */
                next(w, k);
                for (size_t depth = 2; depth && (c = next(w, k)) >= 0;) {
                    if (c == '(')
                        depth++;
                    else if (c == ')')
                        depth--;
                }
                sc.st = ST_NOCMD;
                continue;
            }
            break;
        }
        if (c == ')') {
            next(w, k);
            if (sc.st == ST_CASEPAT) { /* the end of a case pattern */
                l->case_pat = false;
                sc.st = ST_CMD;
                continue;
            }
            break;
        }
        if (c == '<' || c == '>') {
            redirection(w, k);
            continue;
        }
        if (c == '#') {
            while ((c = peek(w, k)) >= 0 && c != '\n')
                next(w, k);
            continue;
        }
        if (sc.st == ST_ARGS && sc.kind == K_SHELL && sc.has_c && !sc.skip_next &&
            (sc.opts_done || (c != '-' && c != '+')) && k < MAX_NEST) {
            size_t before = w->nemit;
            decoder_init(&w->lv[k + 1]);
            parse_list(w, k + 1);
            if (w->stop)
                return false;
            if (w->nemit != before)
                sc.emitted = true; /* the string's commands stand for the shell */
            else
                emit(w, &sc);
            sc.st = ST_REST;
            continue;
        }
        read_word(w, k, &wd, sc.st == ST_CMD);
        if (!wd.any)
            continue; /* only a line continuation */
        if (is_io_number(&wd) && ((c = peek(w, k)) == '<' || c == '>'))
            continue;
        on_word(w, k, &sc, &wd);
    }
    if (!sc.emitted && sc.st == ST_ARGS)
        emit(w, &sc);
    return more && !w->stop;
}

static void parse_list(struct walker *w, int k)
{
    while (parse_simple(w, k))
        ;
}

static void walk(struct walker *w, const char *cmd, size_t n)
{
    w->lv[0].p = (const unsigned char *)cmd;
    w->lv[0].n = cmd ? n : 0;
    w->lv[0].i = 0;
    w->lv[0].nhd = 0;
    w->lv[0].case_depth = 0;
    w->lv[0].case_pat = false;
    w->stop = false;
    w->nemit = 0;
    parse_list(w, 0);
}

/* ---- the two entry points ---- */

static void visit_each(struct walker *w, const unsigned char *prog, size_t plen,
                       const unsigned char *label, size_t llen)
{
    (void)label;
    (void)llen;
    if (w->cb)
        w->cb((const char *)prog, plen, w->ctx);
}

/* One walk that calls cb (may be NULL) for each simple command. */
static void walk_each(struct walker *w, const char *cmd, size_t n,
                      void (*cb)(const char *prog, size_t len, void *ctx), void *ctx)
{
    w->visit = visit_each;
    w->cb = cb;
    w->ctx = ctx;
    w->steps = 0;
    walk(w, cmd, n);
}

size_t sbx_program_each(const char *cmd, size_t n,
                        void (*cb)(const char *prog, size_t len, void *ctx), void *ctx)
{
    struct walker w;
    walk_each(&w, cmd, n, cb, ctx);
    return w.nemit;
}

size_t sbx_program_work(const char *cmd, size_t n)
{
    struct walker w;
    walk_each(&w, cmd, n, NULL, NULL);
    return w.steps;
}

static void put_label(struct walker *w, const unsigned char *s, size_t n)
{
    if (w->cap == 0)
        return;
    if (n > w->cap - 1)
        n = w->cap - 1;
    memcpy(w->out, s, n);
    w->out[n] = '\0';
    w->outlen = n;
}

static void visit_label(struct walker *w, const unsigned char *prog, size_t plen,
                        const unsigned char *label, size_t llen)
{
    if (!w->have_first) {
        w->have_first = true;
        memcpy(w->first, label, llen);
        w->firstlen = llen;
    }
    if (!bytes_in(prog, plen, label_skip)) {
        put_label(w, label, llen);
        w->found = true;
        w->stop = true;
    }
}

size_t sbx_program_label(const char *cmd, size_t n, char *out, size_t cap)
{
    struct walker w;
    w.visit = visit_label;
    w.found = w.have_first = false;
    w.firstlen = 0;
    w.out = out;
    w.cap = cap;
    w.outlen = 0;
    w.steps = 0;
    if (cap)
        out[0] = '\0';
    walk(&w, cmd, n);
    if (!w.found)
        put_label(&w, w.first, w.firstlen);
    return w.outlen;
}
