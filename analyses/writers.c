/* Write targets of a command line (the rules are in analyses/writers.h).
 *
 * Two passes: the lexer cuts the line into words (quotes removed),
 * redirections with their targets, separators, and heredoc bodies, all in
 * one buffer; then each simple command is read by its program. */
#include "analyses/writers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hex.h"

#define MAX_DEPTH 4    /* bash -c strings inside each other */
#define MAX_HEREDOC 8  /* pending heredocs per line */
#define MAX_SUBSHELL 8 /* ( … ) nesting whose cwd is kept apart */
#define PRINTF_MAX 65536 /* bytes of printf's text kept */

/* Steps of this thread's reading, for sbx_write_work: bytes lexed, tokens,
 * words and path bytes walked. */
static _Thread_local size_t steps;

const char *sbx_write_rule_words(enum sbx_write_rule r)
{
    static const char *const words[] = {
#define SBX_WR_WORDS(id, words) words,
        SBX_WRITE_RULES(SBX_WR_WORDS)
#undef SBX_WR_WORDS
    };
    return (unsigned)r < SBX_WRITE_RULE_COUNT ? words[r] : "?";
}

/* ---- the lexer ---- */

enum tk { TK_WORD, TK_REDIR, TK_SEP };
enum redir { R_OUT, R_APPEND, R_HEREDOC, R_INPUT, R_DUP };

struct tok {
    uint8_t type;  /* enum tk */
    uint8_t sep;   /* TK_SEP: ; & | \n ( ) or A (&&), O (||) */
    uint8_t redir; /* TK_REDIR: enum redir */
    bool expands;  /* the word or target holds an expansion */
    bool stdout_too; /* TK_REDIR: it takes the command's standard output */
    bool dash;     /* <<- */
    bool has_body; /* a heredoc whose body was read */
    size_t off, len;       /* the word, or the redirection's target, in words */
    size_t body_off, body_len;
};

struct line {
    struct tok *t;
    size_t n, cap;
    struct sbx_buf words;
};

/* The line's words from off on ("" while none was stored). */
static const char *word_at(const struct line *ln, size_t off)
{
    return ln->words.p ? ln->words.p + off : "";
}

static bool is_break(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' ||
           c == ')' || c == '<' || c == '>';
}

/* Past a balanced ( … ) or { … } starting at p[i] (the opening byte),
 * quotes inside skipped; copies the bytes to w. */
static size_t skip_group(const char *p, size_t n, size_t i, struct sbx_buf *w)
{
    char open = p[i], close = open == '(' ? ')' : '}';
    size_t depth = 0, start = i;
    while (i < n) {
        steps++;
        char c = p[i];
        if (c == '\\') {
            i += 2;
            continue;
        }
        if (c == '\'' || c == '"') {
            for (i++; i < n && p[i] != c; i++)
                if (c == '"' && p[i] == '\\')
                    i++;
        } else if (c == open) {
            depth++;
        } else if (c == close && --depth == 0) {
            i++;
            break;
        }
        i++;
    }
    if (i > n)
        i = n;
    sbx_buf_add(w, p + start, i - start);
    return i;
}

/* $… at p[i]: $'…' decoded, anything else an expansion kept as it is. */
static size_t dollar(const char *p, size_t n, size_t i, struct sbx_buf *w, bool *expands)
{
    if (i + 1 < n && p[i + 1] == '\'') {
        for (i += 2; i < n && p[i] != '\''; i++) {
            char c = p[i];
            if (c == '\\' && i + 1 < n) {
                char e = p[++i];
                int h1, h2;
                if (e == 'x' && i + 2 < n && (h1 = sbx_hex_digit(p[i + 1])) >= 0 &&
                    (h2 = sbx_hex_digit(p[i + 2])) >= 0) {
                    c = (char)(h1 << 4 | h2);
                    i += 2;
                } else {
                    c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
                }
            }
            sbx_buf_addc(w, c);
        }
        return i < n ? i + 1 : n;
    }
    *expands = true;
    if (i + 1 < n && (p[i + 1] == '(' || p[i + 1] == '{')) {
        sbx_buf_addc(w, '$');
        return skip_group(p, n, i + 1, w);
    }
    sbx_buf_addc(w, '$');
    return i + 1;
}

static size_t backquote(const char *p, size_t n, size_t i, struct sbx_buf *w, bool *expands)
{
    size_t start = i++;
    while (i < n && p[i] != '`')
        i += p[i] == '\\' ? 2 : 1;
    i = i < n ? i + 1 : n;
    sbx_buf_add(w, p + start, i - start);
    *expands = true;
    return i;
}

/* One word from p[i], its quotes removed, appended to w. */
static size_t read_word(const char *p, size_t n, size_t i, struct sbx_buf *w, bool *expands)
{
    *expands = false;
    if (i < n && p[i] == '~')
        *expands = true;
    while (i < n && !is_break((unsigned char)p[i])) {
        steps++;
        char c = p[i];
        if (c == '\\') {
            if (i + 1 < n && p[i + 1] != '\n')
                sbx_buf_addc(w, p[i + 1]);
            i += 2;
        } else if (c == '\'') {
            size_t e = i + 1;
            while (e < n && p[e] != '\'')
                e++;
            sbx_buf_add(w, p + i + 1, e - i - 1);
            i = e < n ? e + 1 : n;
        } else if (c == '"') {
            for (i++; i < n && p[i] != '"';) {
                if (p[i] == '\\' && i + 1 < n && strchr("$`\"\\\n", p[i + 1])) {
                    if (p[i + 1] != '\n')
                        sbx_buf_addc(w, p[i + 1]);
                    i += 2;
                } else if (p[i] == '$') {
                    i = dollar(p, n, i, w, expands);
                } else if (p[i] == '`') {
                    i = backquote(p, n, i, w, expands);
                } else {
                    sbx_buf_addc(w, p[i++]);
                }
            }
            i = i < n ? i + 1 : n;
        } else if (c == '$') {
            i = dollar(p, n, i, w, expands);
        } else if (c == '`') {
            i = backquote(p, n, i, w, expands);
        } else {
            if (c == '*' || c == '?' || c == '[')
                *expands = true;
            sbx_buf_addc(w, c);
            i++;
        }
    }
    return i > n ? n : i;
}

static struct tok *push(struct line *ln, uint8_t type)
{
    SBX_GROW(ln->t, ln->n, ln->cap);
    struct tok *t = &ln->t[ln->n++];
    memset(t, 0, sizeof *t);
    t->type = type;
    return t;
}

static size_t skip_blanks(const char *p, size_t n, size_t i)
{
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    return i;
}

/* The bodies of the heredocs opened on the line that just ended. */
static size_t read_bodies(struct line *ln, const char *p, size_t n, size_t i, size_t *pending,
                          size_t *npending)
{
    for (size_t h = 0; h < *npending; h++) {
        struct tok *t = &ln->t[pending[h]];
        t->body_off = ln->words.len;
        t->has_body = true;
        while (i < n) {
            size_t e = i;
            while (e < n && p[e] != '\n')
                e++;
            size_t s = i;
            if (t->dash)
                while (s < e && p[s] == '\t')
                    s++;
            i = e < n ? e + 1 : n;
            if (e - s == t->len && memcmp(p + s, word_at(ln, t->off), t->len) == 0)
                break;
            sbx_buf_add(&ln->words, p + s, e - s);
            sbx_buf_addc(&ln->words, '\n');
        }
        t->body_len = ln->words.len - t->body_off;
    }
    *npending = 0;
    return i;
}

/* A redirection at p[i] ('<' or '>'); stdout_too: &> and &>>. */
static size_t redirection(struct line *ln, const char *p, size_t n, size_t i, bool io_number,
                          bool stdout_too, size_t *pending, size_t *npending)
{
    uint8_t kind;
    bool dash = false, dup_ok = false;
    if (p[i] == '>') {
        i++;
        kind = R_OUT;
        if (i < n && p[i] == '>') {
            kind = R_APPEND;
            i++;
        } else if (i < n && p[i] == '|') {
            i++;
        } else if (i < n && p[i] == '&') {
            i++;
            dup_ok = true;
        }
    } else {
        i++;
        kind = R_INPUT;
        if (i < n && p[i] == '<') {
            i++;
            if (i < n && p[i] == '<') {
                i++;
            } else {
                kind = R_HEREDOC;
                if (i < n && p[i] == '-') {
                    dash = true;
                    i++;
                }
            }
        } else if (i < n && (p[i] == '&' || p[i] == '>')) {
            i++;
        }
    }
    if (i < n && p[i] == '(' && (kind == R_OUT || kind == R_INPUT)) { /* >(…) <(…): an argument */
        struct tok *t = push(ln, TK_WORD);
        t->off = ln->words.len;
        i = skip_group(p, n, i, &ln->words);
        t->len = ln->words.len - t->off;
        t->expands = true;
        return i;
    }
    i = skip_blanks(p, n, i);
    struct tok *t = push(ln, TK_REDIR);
    t->redir = kind;
    t->dash = dash;
    t->stdout_too = stdout_too || !io_number;
    t->off = ln->words.len;
    bool expands = false;
    i = read_word(p, n, i, &ln->words, &expands);
    t->len = ln->words.len - t->off;
    t->expands = expands;
    if (dup_ok) { /* >&2, >&- copy a descriptor; >&file is &>file */
        const char *w = word_at(ln, t->off);
        bool digits = t->len > 0;
        for (size_t k = 0; k < t->len; k++)
            digits &= w[k] >= '0' && w[k] <= '9';
        if (digits || (t->len == 1 && w[0] == '-'))
            t->redir = R_DUP;
        else
            t->stdout_too = true;
    }
    if (kind == R_HEREDOC && *npending < MAX_HEREDOC)
        pending[(*npending)++] = ln->n - 1;
    return i;
}

static void lex(struct line *ln, const char *p, size_t n)
{
    size_t pending[MAX_HEREDOC], npending = 0;
    for (size_t i = 0; i < n;) {
        steps++;
        char c = p[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (c == '\\' && i + 1 < n && p[i + 1] == '\n') {
            i += 2;
        } else if (c == '#') {
            while (i < n && p[i] != '\n')
                i++;
        } else if (c == '\n') {
            push(ln, TK_SEP)->sep = '\n';
            i = read_bodies(ln, p, n, i + 1, pending, &npending);
        } else if (c == ';') {
            push(ln, TK_SEP)->sep = ';';
            i++;
            while (i < n && (p[i] == ';' || p[i] == '&'))
                i++;
        } else if (c == '&') {
            if (i + 1 < n && p[i + 1] == '&') {
                push(ln, TK_SEP)->sep = 'A';
                i += 2;
            } else if (i + 1 < n && p[i + 1] == '>') {
                i = redirection(ln, p, n, i + 1, false, true, pending, &npending);
            } else {
                push(ln, TK_SEP)->sep = '&';
                i++;
            }
        } else if (c == '|') {
            bool two = i + 1 < n && p[i + 1] == '|';
            push(ln, TK_SEP)->sep = two ? 'O' : '|';
            i += i + 1 < n && (p[i + 1] == '|' || p[i + 1] == '&') ? 2 : 1;
        } else if (c == '(' || c == ')') {
            push(ln, TK_SEP)->sep = (uint8_t)c;
            i++;
        } else if (c == '<' || c == '>') {
            i = redirection(ln, p, n, i, false, false, pending, &npending);
        } else {
            size_t off = ln->words.len;
            bool expands;
            i = read_word(p, n, i, &ln->words, &expands);
            size_t len = ln->words.len - off;
            bool digits = len > 0 && !expands;
            for (size_t k = 0; k < len && digits; k++)
                digits = ln->words.p[off + k] >= '0' && ln->words.p[off + k] <= '9';
            if (digits && i < n && (p[i] == '<' || p[i] == '>')) { /* 2>file: fd 2 */
                ln->words.len = off;
                i = redirection(ln, p, n, i, true, false, pending, &npending);
                continue;
            }
            struct tok *t = push(ln, TK_WORD);
            t->off = off;
            t->len = len;
            t->expands = expands;
        }
    }
}

/* ---- paths ---- */

struct cwd {
    struct sbx_buf p; /* "" and !abs: the start, unknown; else the folder */
    bool abs, lost;
};

/* s[0..n) appended to out, "." and ".." collapsed; out holds a normalised
 * path of the same kind (absolute: "/…" or "/"; relative: "" or "a/b"). */
static void append_path(struct sbx_buf *out, bool abs, const char *s, size_t n)
{
    steps += n;
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && s[e] != '/')
            e++;
        size_t len = e - i;
        if (len == 2 && s[i] == '.' && s[i + 1] == '.') {
            size_t k = out->len;
            while (k > 0 && out->p[k - 1] != '/')
                k--;
            bool up = out->len > k && !(out->len - k == 2 && out->p[k] == '.' && out->p[k + 1] == '.');
            if (up)
                out->len = k > 0 && (k > 1 || !abs) ? k - 1 : k;
            else if (!abs)
                sbx_buf_adds(out, out->len ? "/.." : "..");
        } else if (len && !(len == 1 && s[i] == '.')) {
            if (out->len && out->p[out->len - 1] != '/')
                sbx_buf_addc(out, '/');
            sbx_buf_add(out, s + i, len);
        }
        i = e + 1;
    }
}

/* The target word resolved against cwd into out (NUL-terminated); false
 * when it names no one path. */
static bool resolve(const struct cwd *cwd, const char *w, size_t n, struct sbx_buf *out)
{
    sbx_buf_clear(out);
    if (!n || memchr(w, '\0', n) || (n >= 5 && memcmp(w, "/dev/", 5) == 0) ||
        (n == 4 && memcmp(w, "/dev", 4) == 0))
        return false; /* a NUL ends a path: such a word names no file */
    if (w[0] == '/') {
        sbx_buf_addc(out, '/');
        append_path(out, true, w, n);
    } else {
        if (cwd->lost)
            return false;
        sbx_buf_add(out, cwd->p.p ? cwd->p.p : "", cwd->p.len);
        append_path(out, cwd->abs, w, n);
    }
    if (!out->len)
        sbx_buf_addc(out, '.');
    if (out->len >= 5 && memcmp(out->p, "/dev/", 5) == 0)
        return false;
    sbx_buf_addc(out, '\0');
    out->len--;
    return true;
}

static void cwd_set(struct cwd *c, const char *start)
{
    sbx_buf_clear(&c->p);
    c->lost = false;
    c->abs = start && start[0] == '/';
    if (c->abs) {
        sbx_buf_addc(&c->p, '/');
        append_path(&c->p, true, start, strlen(start));
    } else if (start && start[0]) {
        append_path(&c->p, false, start, strlen(start));
    }
}

static void cwd_cd(struct cwd *c, const char *w, size_t n, bool expands)
{
    if (expands || !n || (n == 1 && w[0] == '-') || memchr(w, '\0', n)) {
        c->lost = true;
        return;
    }
    if (w[0] == '/') {
        sbx_buf_clear(&c->p);
        sbx_buf_addc(&c->p, '/');
        c->abs = true;
        c->lost = false;
    }
    append_path(&c->p, c->abs, w, n);
}

static void cwd_copy(struct cwd *dst, const struct cwd *src)
{
    sbx_buf_clear(&dst->p);
    sbx_buf_add(&dst->p, src->p.p ? src->p.p : "", src->p.len);
    dst->abs = src->abs;
    dst->lost = src->lost;
}

/* ---- reading simple commands ---- */

struct walk {
    void (*cb)(const struct sbx_write_target *, void *);
    void *ctx;
    size_t calls;
    struct sbx_buf path;
};

/* A word of the command: a view into the line's words. */
struct word {
    const char *s;
    size_t n;
    bool expands;
};

struct cmd {
    struct word *w; /* the words from the program on */
    size_t nw;
    const struct line *ln;
    struct cwd *cwd;
    size_t first, end;    /* its tokens */
    const char *in;       /* its standard input's text, when known */
    size_t inlen;
    bool heredoc;         /* the input is a heredoc body */
};

static bool word_is(const struct word *w, const char *s)
{
    size_t n = strlen(s);
    return w->n == n && memcmp(w->s, s, n) == 0;
}

static struct word basename_of(const struct word *w)
{
    size_t n = w->n;
    while (n > 1 && w->s[n - 1] == '/')
        n--;
    size_t b = n;
    while (b > 0 && w->s[b - 1] != '/')
        b--;
    return (struct word){w->s + b, n - b, w->expands};
}

static void emit(struct walk *wk, const struct cwd *cwd, const struct word *w,
                 enum sbx_write_rule rule, bool removes, bool tree, const char *text, size_t textlen)
{
    if (w->expands || !resolve(cwd, w->s, w->n, &wk->path))
        return;
    struct sbx_write_target t = {wk->path.p, wk->path.len, rule, removes, tree, text, textlen};
    wk->calls++;
    wk->cb(&t, wk->ctx);
}

/* dir/basename(src) as the target. */
static void emit_into(struct walk *wk, const struct cwd *cwd, const struct word *dir,
                      const struct word *src, enum sbx_write_rule rule, bool removes, bool tree)
{
    struct word b = basename_of(src);
    if (dir->expands || src->expands || !b.n || word_is(&b, ".") || word_is(&b, ".."))
        return;
    struct sbx_buf j = SBX_BUF_INIT;
    sbx_buf_add(&j, dir->s, dir->n);
    sbx_buf_addc(&j, '/');
    sbx_buf_add(&j, b.s, b.n);
    struct word w = {j.p, j.len, false};
    emit(wk, cwd, &w, rule, removes, tree, NULL, 0);
    sbx_buf_free(&j);
}

/* Options: a cluster's letters, their values, the long options and the
 * operands. Letters in `valued` take a value (the cluster's rest, else the
 * next word); letters in `attached` take the cluster's rest only (sed -i). */
struct longopt {
    struct word name, value;
    bool has_value;
};

struct opts {
    uint64_t letters;       /* a-z then A-Z */
    struct word val[52];
    struct longopt *lo;
    size_t nlo, caplo;
    size_t *ops;            /* operand positions in the command's words */
    size_t nops, capops;
};

static int letter(char c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' : c >= 'A' && c <= 'Z' ? c - 'A' + 26 : -1;
}

static bool has(const struct opts *o, char c)
{
    int l = letter(c);
    return l >= 0 && (o->letters >> l & 1);
}

static const struct longopt *long_of(const struct opts *o, const char *name)
{
    for (size_t i = 0; i < o->nlo; i++)
        if (word_is(&o->lo[i].name, name))
            return &o->lo[i];
    return NULL;
}

/* A value given by letter or by long name (NULL: neither). */
static const struct word *value_of(const struct opts *o, char c, const char *name)
{
    const struct longopt *l = name ? long_of(o, name) : NULL;
    if (l && l->has_value)
        return &l->value;
    int k = letter(c);
    return k >= 0 && (o->letters >> k & 1) && o->val[k].s ? &o->val[k] : NULL;
}

static void parse_opts(const struct cmd *c, size_t from, const char *valued, const char *attached,
                       const char *const *long_valued, struct opts *o)
{
    memset(o, 0, sizeof *o);
    bool ended = false;
    for (size_t i = from; i < c->nw; i++) {
        steps++;
        const struct word *w = &c->w[i];
        if (ended || w->n < 2 || w->s[0] != '-') {
            SBX_GROW(o->ops, o->nops, o->capops);
            o->ops[o->nops++] = i;
            continue;
        }
        if (w->n == 2 && w->s[1] == '-') {
            ended = true;
        } else if (w->s[1] == '-') {
            SBX_GROW(o->lo, o->nlo, o->caplo);
            struct longopt *l = &o->lo[o->nlo++];
            const char *eq = memchr(w->s, '=', w->n);
            l->name = (struct word){w->s + 2, (eq ? (size_t)(eq - w->s) : w->n) - 2, false};
            l->has_value = eq != NULL;
            if (eq)
                l->value = (struct word){eq + 1, w->n - (size_t)(eq + 1 - w->s), w->expands};
            for (const char *const *v = long_valued; !eq && v && *v; v++)
                if (word_is(&l->name, *v) && i + 1 < c->nw) {
                    l->value = c->w[++i];
                    l->has_value = true;
                    break;
                }
        } else {
            for (size_t k = 1; k < w->n; k++) {
                int l = letter(w->s[k]);
                if (l < 0)
                    continue;
                o->letters |= 1ull << l;
                bool takes = strchr(valued, w->s[k]) != NULL, rest = strchr(attached, w->s[k]) != NULL;
                if (!takes && !rest)
                    continue;
                if (k + 1 < w->n)
                    o->val[l] = (struct word){w->s + k + 1, w->n - k - 1, w->expands};
                else if (takes && i + 1 < c->nw)
                    o->val[l] = c->w[++i];
                else
                    o->val[l] = (struct word){w->s + w->n, 0, false};
                break;
            }
        }
    }
}

static void opts_free(struct opts *o)
{
    free(o->lo);
    free(o->ops);
}

static void rule_sed(struct walk *wk, const struct cmd *c)
{
    static const char *const lv[] = {"expression", "file", "line-length", NULL};
    struct opts o;
    parse_opts(c, 1, "efl", "i", lv, &o);
    bool script = has(&o, 'e') || has(&o, 'f') || long_of(&o, "expression") || long_of(&o, "file");
    if (has(&o, 'i') || long_of(&o, "in-place"))
        for (size_t k = script ? 0 : 1; k < o.nops; k++)
            emit(wk, c->cwd, &c->w[o.ops[k]], SBX_WRITE_SED, false, false, NULL, 0);
    opts_free(&o);
}

/* cp, mv, install, ln: the last operand, or each source into -t DIR, or
 * into the last when it is a folder (several sources, a trailing '/'). */
static void rule_copy(struct walk *wk, const struct cmd *c, enum sbx_write_rule rule)
{
    static const char *const lv[] = {"target-directory", "suffix", "mode", "owner", "group", NULL};
    struct opts o;
    parse_opts(c, 1, rule == SBX_WRITE_INSTALL ? "tSmog" : "tS", "", lv, &o);
    bool mv = rule == SBX_WRITE_MV;
    bool tree = mv || (rule == SBX_WRITE_CP && (has(&o, 'r') || has(&o, 'R') || has(&o, 'a') ||
                                                long_of(&o, "recursive") || long_of(&o, "archive")));
    const struct word *dir = value_of(&o, 't', "target-directory");
    if (rule == SBX_WRITE_INSTALL && has(&o, 'd')) {
        for (size_t k = 0; k < o.nops; k++)
            emit(wk, c->cwd, &c->w[o.ops[k]], rule, false, false, NULL, 0);
    } else if (dir || o.nops >= 2) {
        size_t nsrc = dir ? o.nops : o.nops - 1;
        const struct word *dest = dir ? dir : &c->w[o.ops[o.nops - 1]];
        bool into = dir || (!has(&o, 'T') && !long_of(&o, "no-target-directory") &&
                            (nsrc > 1 || (dest->n && dest->s[dest->n - 1] == '/')));
        for (size_t k = 0; k < nsrc; k++) {
            const struct word *src = &c->w[o.ops[k]];
            if (into)
                emit_into(wk, c->cwd, dest, src, rule, false, tree);
            if (mv)
                emit(wk, c->cwd, src, rule, true, true, NULL, 0);
        }
        if (!into)
            emit(wk, c->cwd, dest, rule, false, tree, NULL, 0);
    }
    opts_free(&o);
}

static void rule_simple(struct walk *wk, const struct cmd *c, enum sbx_write_rule rule,
                        const char *valued, const char *const *lv)
{
    struct opts o;
    parse_opts(c, 1, valued, "", lv, &o);
    bool rm = rule == SBX_WRITE_RM;
    bool tree = rm && (has(&o, 'r') || has(&o, 'R') || long_of(&o, "recursive"));
    for (size_t k = 0; k < o.nops; k++)
        emit(wk, c->cwd, &c->w[o.ops[k]], rule, rm, tree,
             rule == SBX_WRITE_TEE ? c->in : NULL, rule == SBX_WRITE_TEE ? c->inlen : 0);
    opts_free(&o);
}

/* The files a unified diff's text patches: its "+++ " lines (a deleted
 * file: the "--- " line before), strip leading parts removed (SIZE_MAX:
 * all but the last), under dir. Returns how many. */
static size_t patch_paths(struct walk *wk, const struct cwd *cwd, const char *text, size_t n,
                          size_t strip, enum sbx_write_rule rule)
{
    size_t found = 0;
    struct word minus = {NULL, 0, false};
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && text[e] != '\n')
            e++;
        if (e - i > 4 && (memcmp(text + i, "+++ ", 4) == 0 || memcmp(text + i, "--- ", 4) == 0)) {
            size_t s = i + 4, t = s;
            while (t < e && text[t] != '\t')
                t++;
            while (t > s && (text[t - 1] == ' ' || text[t - 1] == '\r'))
                t--;
            struct word w = {text + s, t - s, false};
            bool plus = text[i] == '+';
            bool null = word_is(&w, "/dev/null");
            if (!plus) {
                minus = null ? (struct word){NULL, 0, false} : w;
            } else {
                bool removes = null;
                if (null)
                    w = minus;
                if (w.s) {
                    size_t k = 0, parts = 0;
                    if (strip == SIZE_MAX) {
                        w = basename_of(&w);
                    } else {
                        while (parts < strip && k < w.n) {
                            while (k < w.n && w.s[k] != '/')
                                k++;
                            while (k < w.n && w.s[k] == '/')
                                k++;
                            parts++;
                        }
                        w.s += k;
                        w.n -= k;
                    }
                    if (w.n && w.s[0] != '/') {
                        emit(wk, cwd, &w, rule, removes, false, NULL, 0);
                        found++;
                    }
                }
                minus = (struct word){NULL, 0, false};
            }
        }
        i = e + 1;
    }
    return found;
}

static size_t strip_of(const struct word *w, size_t dflt)
{
    if (!w || !w->n || w->expands)
        return dflt;
    size_t v = 0;
    for (size_t k = 0; k < w->n; k++) {
        if (w->s[k] < '0' || w->s[k] > '9')
            return dflt;
        v = v * 10 + (size_t)(w->s[k] - '0');
        if (v > 1000)
            return dflt;
    }
    return v;
}

static void tree_here(struct walk *wk, const struct cwd *cwd, enum sbx_write_rule rule)
{
    struct word dot = {".", 1, false};
    emit(wk, cwd, &dot, rule, false, true, NULL, 0);
}

static void rule_patch(struct walk *wk, const struct cmd *c)
{
    static const char *const lv[] = {"strip", "input", "directory", "output", "prefix",
                                     "suffix", "fuzz", "reject-file", NULL};
    struct opts o;
    parse_opts(c, 1, "pidoBzVDFrYg", "", lv, &o);
    struct cwd here = {SBX_BUF_INIT, false, false};
    cwd_copy(&here, c->cwd);
    const struct word *dir = value_of(&o, 'd', "directory");
    if (dir)
        cwd_cd(&here, dir->s, dir->n, dir->expands);
    const struct word *out = value_of(&o, 'o', "output");
    if (long_of(&o, "dry-run")) {
        /* writes nothing */
    } else if (out) {
        emit(wk, &here, out, SBX_WRITE_PATCH, false, false, NULL, 0);
    } else if (o.nops) {
        emit(wk, &here, &c->w[o.ops[0]], SBX_WRITE_PATCH, false, false, NULL, 0);
    } else if (value_of(&o, 'i', "input") || !c->in ||
               !patch_paths(wk, &here, c->in, c->inlen, strip_of(value_of(&o, 'p', "strip"), SIZE_MAX),
                            SBX_WRITE_PATCH)) {
        tree_here(wk, &here, SBX_WRITE_PATCH_CWD);
    }
    sbx_buf_free(&here.p);
    opts_free(&o);
}

static void rule_git(struct walk *wk, const struct cmd *c)
{
    struct cwd here = {SBX_BUF_INIT, false, false};
    cwd_copy(&here, c->cwd);
    size_t i = 1;
    while (i < c->nw && c->w[i].n && c->w[i].s[0] == '-') {
        const struct word *w = &c->w[i++];
        if ((word_is(w, "-C") || word_is(w, "-c")) && i < c->nw) {
            if (word_is(w, "-C"))
                cwd_cd(&here, c->w[i].s, c->w[i].n, c->w[i].expands);
            i++;
        }
    }
    if (i < c->nw) {
        const struct word *sub = &c->w[i];
        struct opts o;
        if (word_is(sub, "apply")) {
            static const char *const lv[] = {"directory", "include", "exclude", NULL};
            parse_opts(c, i + 1, "pC", "", lv, &o);
            bool writes = !long_of(&o, "check") && !long_of(&o, "stat") && !long_of(&o, "numstat") &&
                          !long_of(&o, "summary") && !long_of(&o, "cached");
            const struct word *d = value_of(&o, 0, "directory");
            struct cwd root = {SBX_BUF_INIT, false, false};
            cwd_copy(&root, &here);
            if (d)
                cwd_cd(&root, d->s, d->n, d->expands);
            if (writes && (o.nops || !c->in ||
                           !patch_paths(wk, &root, c->in, c->inlen, strip_of(value_of(&o, 'p', NULL), 1),
                                        SBX_WRITE_GIT_APPLY)))
                tree_here(wk, &here, SBX_WRITE_GIT_APPLY_CWD);
            sbx_buf_free(&root.p);
            opts_free(&o);
        } else if (word_is(sub, "checkout")) {
            size_t k = i + 1;
            while (k < c->nw && !word_is(&c->w[k], "--"))
                k++;
            for (k++; k < c->nw; k++)
                emit(wk, &here, &c->w[k], SBX_WRITE_GIT_CHECKOUT, false, true, NULL, 0);
        } else if (word_is(sub, "restore")) {
            static const char *const lv[] = {"source", NULL};
            parse_opts(c, i + 1, "s", "", lv, &o);
            bool staged = has(&o, 'S') || long_of(&o, "staged");
            bool worktree = has(&o, 'W') || long_of(&o, "worktree");
            for (size_t k = 0; (!staged || worktree) && k < o.nops; k++)
                emit(wk, &here, &c->w[o.ops[k]], SBX_WRITE_GIT_RESTORE, false, true, NULL, 0);
            opts_free(&o);
        }
    }
    sbx_buf_free(&here.p);
}

/* open("path", "w") in Python code: a plain string literal, then a mode
 * literal that writes (w, a, x or +). */
static size_t py_string(const char *s, size_t n, size_t i, struct word *out)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i + 1 < n && (s[i] == 'r' || s[i] == 'b') && (s[i + 1] == '\'' || s[i + 1] == '"'))
        i++;
    if (i >= n || (s[i] != '\'' && s[i] != '"'))
        return SIZE_MAX;
    char q = s[i++];
    size_t b = i;
    while (i < n && s[i] != q && s[i] != '\\' && s[i] != '\n')
        i++;
    if (i >= n || s[i] != q)
        return SIZE_MAX;
    *out = (struct word){s + b, i - b, false};
    return i + 1;
}

static void python_code(struct walk *wk, const struct cwd *cwd, const char *s, size_t n)
{
    for (size_t i = 0; i + 5 <= n; i++) {
        if (memcmp(s + i, "open(", 5) != 0 || (i && (s[i - 1] == '_' || s[i - 1] == '.' ||
                                                      (s[i - 1] >= 'a' && s[i - 1] <= 'z'))))
            continue;
        struct word path, mode;
        size_t k = py_string(s, n, i + 5, &path);
        if (k == SIZE_MAX)
            continue;
        while (k < n && (s[k] == ' ' || s[k] == '\t'))
            k++;
        if (k >= n || s[k] != ',')
            continue;
        k++;
        while (k < n && (s[k] == ' ' || s[k] == '\t'))
            k++;
        if (k + 5 <= n && memcmp(s + k, "mode=", 5) == 0)
            k += 5;
        if (py_string(s, n, k, &mode) == SIZE_MAX)
            continue;
        bool writes = false;
        for (size_t m = 0; m < mode.n; m++)
            writes |= strchr("wax+", mode.s[m]) != NULL;
        if (writes)
            emit(wk, cwd, &path, SBX_WRITE_PYTHON_OPEN, false, false, NULL, 0);
    }
}

static bool is_python(const struct word *w)
{
    struct word b = basename_of(w);
    if (b.n < 6 || memcmp(b.s, "python", 6) != 0)
        return false;
    for (size_t k = 6; k < b.n; k++)
        if (!((b.s[k] >= '0' && b.s[k] <= '9') || b.s[k] == '.'))
            return false;
    return true;
}

static void rule_python(struct walk *wk, const struct cmd *c)
{
    for (size_t i = 1; i < c->nw; i++) {
        const struct word *w = &c->w[i];
        if (word_is(w, "-c") && i + 1 < c->nw) {
            python_code(wk, c->cwd, c->w[i + 1].s, c->w[i + 1].n);
            return;
        }
        if (word_is(w, "-") || w->n == 0 || w->s[0] != '-')
            break;
    }
    bool stdin_code = c->nw == 1 || word_is(&c->w[c->nw - 1], "-");
    if (stdin_code && c->heredoc && c->in)
        python_code(wk, c->cwd, c->in, c->inlen);
}

/* What echo or printf writes, into out; false when its text is not known. */
static bool echo_text(const struct cmd *c, struct sbx_buf *out)
{
    size_t i = 1;
    bool newline = true, escapes = false;
    for (; i < c->nw; i++) {
        const struct word *w = &c->w[i];
        if (w->n < 2 || w->s[0] != '-' || strspn(w->s + 1, "neE") < w->n - 1)
            break;
        for (size_t k = 1; k < w->n; k++) {
            newline &= w->s[k] != 'n';
            escapes = w->s[k] == 'e' ? true : w->s[k] == 'E' ? false : escapes;
        }
    }
    for (size_t k = i; k < c->nw; k++) {
        if (c->w[k].expands)
            return false;
        if (k > i)
            sbx_buf_addc(out, ' ');
        for (size_t m = 0; m < c->w[k].n; m++) {
            char ch = c->w[k].s[m];
            if (escapes && ch == '\\' && m + 1 < c->w[k].n) {
                char e = c->w[k].s[++m];
                ch = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            }
            sbx_buf_addc(out, ch);
        }
    }
    if (newline)
        sbx_buf_addc(out, '\n');
    return true;
}

static bool printf_text(const struct cmd *c, struct sbx_buf *out)
{
    size_t i = 1;
    if (i < c->nw && word_is(&c->w[i], "--"))
        i++;
    if (i >= c->nw || c->w[i].expands)
        return false;
    const struct word *fmt = &c->w[i++];
    do {
        size_t from = i; /* the format is used again only while it takes arguments */
        for (size_t m = 0; m < fmt->n; m++) {
            char ch = fmt->s[m];
            if (ch == '\\' && m + 1 < fmt->n) {
                char e = fmt->s[++m];
                sbx_buf_addc(out, e == 'n' ? '\n' : e == 't' ? '\t' : e);
            } else if (ch == '%' && m + 1 < fmt->n && fmt->s[m + 1] == '%') {
                sbx_buf_addc(out, '%');
                m++;
            } else if (ch == '%' && m + 1 < fmt->n && fmt->s[m + 1] == 's') {
                if (i < c->nw) {
                    if (c->w[i].expands)
                        return false;
                    sbx_buf_add(out, c->w[i].s, c->w[i].n);
                    i++;
                }
                m++;
            } else if (ch == '%') {
                return false;
            } else {
                sbx_buf_addc(out, ch);
            }
        }
        if (out->len > PRINTF_MAX)
            return false; /* a format repeated for many arguments: not worth keeping */
        if (i == from)
            break;
    } while (i < c->nw);
    return true;
}

static bool prog_is(const struct word *w, const char *name)
{
    struct word b = basename_of(w);
    return word_is(&b, name);
}

static bool is_shell(const struct word *w)
{
    static const char *const shells[] = {"bash", "sh", "dash", "zsh", "ksh", NULL};
    for (const char *const *s = shells; *s; s++)
        if (prog_is(w, *s))
            return true;
    return false;
}

static size_t walk_line(struct walk *wk, const char *cmd, size_t n, struct cwd *start, int depth);

/* bash -c STRING: the string's targets, from the same cwd. */
static void rule_shell(struct walk *wk, const struct cmd *c, int depth)
{
    bool has_c = false;
    for (size_t i = 1; i < c->nw; i++) {
        const struct word *w = &c->w[i];
        if (w->n >= 2 && (w->s[0] == '-' || w->s[0] == '+') && w->s[1] != '-') {
            has_c |= memchr(w->s + 1, 'c', w->n - 1) != NULL;
            if ((word_is(w, "-o") || word_is(w, "+o")) && i + 1 < c->nw)
                i++;
            continue;
        }
        if (w->n >= 2 && w->s[0] == '-')
            continue; /* --norc, --login */
        if (has_c && depth < MAX_DEPTH)
            walk_line(wk, w->s, w->n, c->cwd, depth + 1);
        return;
    }
}

/* The wrappers a program runs under, and the words their options take. */
static size_t skip_wrappers(const struct word *w, size_t nw, size_t i)
{
    static const char *const reserved[] = {"!", "{", "}", "if", "then", "else", "elif", "do",
                                           "while", "until", "time", "command", "exec", "nohup",
                                           "builtin", NULL};
    for (;;) {
        while (i < nw) { /* VAR=value */
            const char *eq = memchr(w[i].s, '=', w[i].n);
            size_t k = 0;
            while (eq && k < (size_t)(eq - w[i].s) &&
                   (w[i].s[k] == '_' || (w[i].s[k] >= 'a' && w[i].s[k] <= 'z') ||
                    (w[i].s[k] >= 'A' && w[i].s[k] <= 'Z') || (k && w[i].s[k] >= '0' && w[i].s[k] <= '9')))
                k++;
            if (!eq || !k || k != (size_t)(eq - w[i].s))
                break;
            i++;
        }
        if (i >= nw)
            return i;
        const char *valued = NULL;
        bool found = false;
        for (const char *const *r = reserved; *r; r++)
            found |= word_is(&w[i], *r);
        if (found) {
            valued = "";
        } else if (prog_is(&w[i], "sudo") || prog_is(&w[i], "doas")) {
            valued = "ugCDhprtUT";
        } else if (prog_is(&w[i], "env")) {
            valued = "uCS";
        } else if (prog_is(&w[i], "nice")) {
            valued = "n";
        } else if (prog_is(&w[i], "timeout")) {
            valued = "sk";
        } else {
            return i;
        }
        bool timeout = prog_is(&w[i], "timeout");
        for (i++; i < nw && w[i].n > 1 && w[i].s[0] == '-'; i++) {
            bool dashdash = word_is(&w[i], "--");
            if (!dashdash && w[i].s[1] != '-' && strchr(valued, w[i].s[w[i].n - 1]))
                i++;
            if (dashdash) {
                i++;
                break;
            }
        }
        if (timeout && i < nw)
            i++; /* the duration */
    }
}

/* One simple command: its redirections, then its program's rule (a new
 * program rule is a row of programs[] in analyses/writers_prefilter.c too,
 * or the prefilter passes its lines over). out gets
 * what it writes to standard output when that is known. */
static bool run_command(struct walk *wk, struct cmd *c, int depth, struct sbx_buf *out)
{
    const struct line *ln = c->ln;
    struct word *all = NULL;
    size_t nall = 0, cap = 0;
    const struct tok *hd = NULL;
    for (size_t k = c->first; k < c->end; k++) {
        steps++;
        const struct tok *t = &ln->t[k];
        if (t->type == TK_WORD) {
            SBX_GROW(all, nall, cap);
            all[nall++] = (struct word){word_at(ln, t->off), t->len, t->expands};
        } else if (t->type == TK_REDIR && t->redir == R_HEREDOC && t->has_body) {
            hd = t;
        }
    }
    if (hd) {
        c->in = word_at(ln, hd->body_off);
        c->inlen = hd->body_len;
        c->heredoc = true;
    }
    size_t p = skip_wrappers(all, nall, 0);
    if (p > nall) /* a wrapper's option that wants a value the line does not give */
        p = nall;
    c->w = all ? all + p : NULL;
    c->nw = nall - p;
    bool known = false;
    sbx_buf_clear(out);
    if (c->nw) {
        const struct word *prog = &c->w[0];
        if (prog_is(prog, "echo"))
            known = echo_text(c, out);
        else if (prog_is(prog, "printf"))
            known = printf_text(c, out);
        else if (prog_is(prog, "cat") && c->in && (c->nw == 1 || (c->nw == 2 && word_is(&c->w[1], "-")))) {
            sbx_buf_add(out, c->in, c->inlen);
            known = true;
        }
    }
    bool cat_heredoc = c->heredoc && c->nw && prog_is(&c->w[0], "cat") && c->nw == 1;
    for (size_t k = c->first; k < c->end; k++) {
        steps++;
        const struct tok *t = &ln->t[k];
        if (t->type != TK_REDIR || (t->redir != R_OUT && t->redir != R_APPEND))
            continue;
        struct word w = {word_at(ln, t->off), t->len, t->expands};
        enum sbx_write_rule rule = cat_heredoc                ? SBX_WRITE_HEREDOC
                                   : t->redir == R_APPEND     ? SBX_WRITE_APPEND
                                                              : SBX_WRITE_REDIRECT;
        bool text = known && t->stdout_too;
        emit(wk, c->cwd, &w, rule, false, false, text ? out->p : NULL, text ? out->len : 0);
    }
    if (c->nw) {
        const struct word *prog = &c->w[0];
        static const char *const touch_lv[] = {"date", "reference", NULL};
        static const char *const mkdir_lv[] = {"mode", NULL};
        static const char *const tee_lv[] = {NULL};
        if (prog_is(prog, "cd") || prog_is(prog, "pushd")) {
            size_t a = c->nw > 1 && word_is(&c->w[1], "--") ? 2 : 1;
            if (a < c->nw)
                cwd_cd(c->cwd, c->w[a].s, c->w[a].n, c->w[a].expands);
            else
                c->cwd->lost = true; /* $HOME */
        } else if (prog_is(prog, "sed")) {
            rule_sed(wk, c);
        } else if (prog_is(prog, "tee")) {
            rule_simple(wk, c, SBX_WRITE_TEE, "", tee_lv);
        } else if (prog_is(prog, "cp")) {
            rule_copy(wk, c, SBX_WRITE_CP);
        } else if (prog_is(prog, "mv")) {
            rule_copy(wk, c, SBX_WRITE_MV);
        } else if (prog_is(prog, "install")) {
            rule_copy(wk, c, SBX_WRITE_INSTALL);
        } else if (prog_is(prog, "ln")) {
            rule_copy(wk, c, SBX_WRITE_LN);
        } else if (prog_is(prog, "rm")) {
            rule_simple(wk, c, SBX_WRITE_RM, "", tee_lv);
        } else if (prog_is(prog, "touch")) {
            rule_simple(wk, c, SBX_WRITE_TOUCH, "dtr", touch_lv);
        } else if (prog_is(prog, "mkdir")) {
            rule_simple(wk, c, SBX_WRITE_MKDIR, "m", mkdir_lv);
        } else if (prog_is(prog, "patch")) {
            rule_patch(wk, c);
        } else if (prog_is(prog, "git")) {
            rule_git(wk, c);
        } else if (is_python(prog)) {
            rule_python(wk, c);
        } else if (is_shell(prog)) {
            rule_shell(wk, c, depth);
        }
    }
    free(all);
    return known;
}

static size_t walk_line(struct walk *wk, const char *cmd, size_t n, struct cwd *start, int depth)
{
    struct line ln = {NULL, 0, 0, SBX_BUF_INIT};
    lex(&ln, cmd ? cmd : "", cmd ? n : 0);
    struct cwd stack[MAX_SUBSHELL + 1];
    size_t top = 0;
    stack[0] = (struct cwd){SBX_BUF_INIT, false, false};
    cwd_copy(&stack[0], start);
    struct sbx_buf prev = SBX_BUF_INIT, out = SBX_BUF_INIT;
    bool prev_known = false, piped = false;
    size_t before = wk->calls;
    for (size_t k = 0; k <= ln.n;) {
        size_t e = k;
        while (e < ln.n && ln.t[e].type != TK_SEP) {
            steps++;
            e++;
        }
        struct cmd c = {NULL, 0, &ln, &stack[top], k, e, NULL, 0, false};
        if (piped && prev_known) {
            c.in = prev.p ? prev.p : "";
            c.inlen = prev.len;
        }
        bool known = e > k && run_command(wk, &c, depth, &out);
        if (e >= ln.n)
            break;
        uint8_t sep = ln.t[e].sep;
        piped = sep == '|';
        if (e > k) {
            struct sbx_buf t = prev;
            prev = out;
            out = t;
            prev_known = known;
        }
        if (sep == '(' && top < MAX_SUBSHELL) {
            stack[top + 1] = (struct cwd){SBX_BUF_INIT, false, false};
            cwd_copy(&stack[top + 1], &stack[top]);
            top++;
        } else if (sep == ')' && top > 0) {
            sbx_buf_free(&stack[top--].p);
        }
        k = e + 1;
    }
    for (size_t i = 0; i <= top; i++)
        sbx_buf_free(&stack[i].p);
    sbx_buf_free(&prev);
    sbx_buf_free(&out);
    sbx_buf_free(&ln.words);
    free(ln.t);
    return wk->calls - before;
}

size_t sbx_write_targets(const char *cmd, size_t n, const char *cwd,
                         void (*cb)(const struct sbx_write_target *t, void *ctx), void *ctx)
{
    steps += n; /* the prefilter looks at every byte */
    if (!sbx_write_may_target(cmd ? cmd : "", cmd ? n : 0))
        return 0;
    return sbx_write_targets_read(cmd, n, cwd, cb, ctx);
}

size_t sbx_write_targets_read(const char *cmd, size_t n, const char *cwd,
                              void (*cb)(const struct sbx_write_target *t, void *ctx), void *ctx)
{
    struct walk wk = {cb, ctx, 0, SBX_BUF_INIT};
    struct cwd start = {SBX_BUF_INIT, false, false};
    cwd_set(&start, cwd);
    walk_line(&wk, cmd, n, &start, 0);
    sbx_buf_free(&start.p);
    sbx_buf_free(&wk.path);
    return wk.calls;
}

static void no_target(const struct sbx_write_target *t, void *ctx)
{
    (void)t;
    (void)ctx;
}

size_t sbx_write_work(const char *cmd, size_t n, const char *cwd)
{
    steps = 0;
    sbx_write_targets(cmd, n, cwd, no_target, NULL);
    return steps;
}
