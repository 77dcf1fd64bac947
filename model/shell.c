#include "model/shell.h"

#include <stdlib.h>
#include <string.h>

#include "base/hex.h"

/* A heredoc whose body starts after the next newline of its input. */
struct pending {
    uint32_t redir; /* its index in sh->redirs */
    uint32_t delim; /* the delimiter word */
    uint32_t owner; /* the command it feeds */
    bool dash;
};
#define MAX_PENDING 8

struct input {
    const unsigned char *p;
    size_t n, i;
    struct pending pend[MAX_PENDING];
    unsigned npend;
};

/* The command being read at one depth: its words and redirections until it
 * is finished and copied into the sh's arrays. */
struct sbx_sh_level {
    struct sbx_buf word;
    uint32_t *idx;
    size_t nidx, capidx;
    struct sbx_sh_redir *r;
    size_t nr, capr;
};

static int peek(const struct input *in) { return in->i < in->n ? in->p[in->i] : -1; }
static int peek_at(const struct input *in, size_t k) { return in->i + k < in->n ? in->p[in->i + k] : -1; }

static bool is_break(int c)
{
    switch (c) {
    case ' ': case '\t': case '\n': case ';': case '&': case '|': case '<': case '>':
    case '(': case ')':
        return true;
    default:
        return false;
    }
}

static bool name_start(int c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool name_char(int c) { return name_start(c) || (c >= '0' && c <= '9'); }

static uint32_t add_word(struct sbx_sh *sh, const char *s, size_t n, uint32_t flags)
{
    SBX_GROW(sh->words, sh->nwords, sh->capwords);
    sh->words[sh->nwords] = (struct sbx_sh_word){(uint32_t)sh->text.len, (uint32_t)n, flags};
    sbx_buf_add(&sh->text, s, n);
    sbx_buf_addc(&sh->text, '\0');
    return (uint32_t)sh->nwords++;
}

static uint32_t new_cmd(struct sbx_sh *sh, uint32_t parent, uint32_t pos, uint32_t how, unsigned depth)
{
    SBX_GROW(sh->cmds, sh->ncmds, sh->capcmds);
    sh->cmds[sh->ncmds] = (struct sbx_sh_cmd){.parent = parent, .pos = pos, .how = how,
                                              .pipe_to = SBX_SH_NONE, .pipe_from = SBX_SH_NONE,
                                              .depth = depth};
    return (uint32_t)sh->ncmds++;
}

static void parse_input(struct sbx_sh *sh, const char *s, size_t n, unsigned depth, uint32_t parent,
                        uint32_t pos, uint32_t how);
static void parse_list(struct sbx_sh *sh, struct input *in, unsigned depth, uint32_t parent,
                       uint32_t pos, uint32_t how, int closer);

/* Past the end of a nesting that is too deep to read: the matching closer
 * (')' or '`'), quotes respected; the bytes are copied into w. */
static void skip_nested(struct input *in, int closer, struct sbx_buf *w)
{
    int depth = 0, q = 0;
    while (in->i < in->n) {
        int c = in->p[in->i++];
        sbx_buf_addc(w, (char)c);
        if (q == '\'') {
            if (c == '\'')
                q = 0;
        } else if (c == '\\' && in->i < in->n) {
            sbx_buf_addc(w, (char)in->p[in->i++]);
        } else if (q == '"') {
            if (c == '"')
                q = 0;
        } else if (c == '\'' || c == '"') {
            q = c;
        } else if (closer == '`' && c == '`') {
            return;
        } else if (closer == ')' && c == '(') {
            depth++;
        } else if (closer == ')' && c == ')' && depth-- == 0) {
            return;
        }
    }
}

/* $(…), `…`, <(…), >(…) at in->i (the opener already consumed): read as
 * commands nested in cmd, and written into the word as they stand. */
static void nested(struct sbx_sh *sh, struct input *in, unsigned depth, uint32_t cmd, uint32_t pos,
                   uint32_t how, int closer, size_t start)
{
    struct sbx_buf *w = &sh->lv[depth].word;
    if (depth + 1 > SBX_SH_MAX_DEPTH) {
        sbx_buf_add(w, in->p + start, in->i - start);
        skip_nested(in, closer, w);
        return;
    }
    parse_list(sh, in, depth + 1, cmd, pos, how, closer);
    /* the nested list used other levels' scratch, never this one's */
    w = &sh->lv[depth].word;
    sbx_buf_add(w, in->p + start, in->i - start);
}

/* Copies ${…} or $((…)) as written. */
static void copy_braced(struct input *in, struct sbx_buf *w, int open, int close)
{
    int depth = 0;
    while (in->i < in->n) {
        int c = in->p[in->i++];
        sbx_buf_addc(w, (char)c);
        if (c == '\\' && in->i < in->n)
            sbx_buf_addc(w, (char)in->p[in->i++]);
        else if (c == open)
            depth++;
        else if (c == close && --depth <= 0)
            return;
    }
}

static void put_utf8(struct sbx_buf *w, uint32_t v)
{
    if (v > 0x10ffff)
        v = 0xfffd;
    if (v < 0x80) {
        sbx_buf_addc(w, (char)v);
    } else if (v < 0x800) {
        sbx_buf_addc(w, (char)(0xc0 | v >> 6));
        sbx_buf_addc(w, (char)(0x80 | (v & 0x3f)));
    } else if (v < 0x10000) {
        sbx_buf_addc(w, (char)(0xe0 | v >> 12));
        sbx_buf_addc(w, (char)(0x80 | (v >> 6 & 0x3f)));
        sbx_buf_addc(w, (char)(0x80 | (v & 0x3f)));
    } else {
        sbx_buf_addc(w, (char)(0xf0 | v >> 18));
        sbx_buf_addc(w, (char)(0x80 | (v >> 12 & 0x3f)));
        sbx_buf_addc(w, (char)(0x80 | (v >> 6 & 0x3f)));
        sbx_buf_addc(w, (char)(0x80 | (v & 0x3f)));
    }
}

/* The body of $'…' (after the opening quote), decoded as bash does. */
static void ansi_c(struct input *in, struct sbx_buf *w)
{
    while (in->i < in->n) {
        int c = in->p[in->i++];
        if (c == '\'')
            return;
        if (c != '\\' || in->i >= in->n) {
            sbx_buf_addc(w, (char)c);
            continue;
        }
        int d = in->p[in->i++];
        switch (d) {
        case 'n': sbx_buf_addc(w, '\n'); break;
        case 't': sbx_buf_addc(w, '\t'); break;
        case 'r': sbx_buf_addc(w, '\r'); break;
        case 'a': sbx_buf_addc(w, 7); break;
        case 'b': sbx_buf_addc(w, 8); break;
        case 'f': sbx_buf_addc(w, 12); break;
        case 'v': sbx_buf_addc(w, 11); break;
        case 'e': case 'E': sbx_buf_addc(w, 27); break;
        case 'c':
            if (in->i < in->n)
                sbx_buf_addc(w, (char)(in->p[in->i++] & 0x1f));
            break;
        case 'x': case 'u': case 'U': {
            int maxd = d == 'x' ? 2 : d == 'u' ? 4 : 8, nd = 0;
            uint32_t v = 0;
            while (nd < maxd && in->i < in->n && sbx_hex_digit(in->p[in->i]) >= 0) {
                v = v * 16 + (uint32_t)sbx_hex_digit(in->p[in->i++]);
                nd++;
            }
            if (!nd) {
                sbx_buf_addc(w, '\\');
                sbx_buf_addc(w, (char)d);
            } else if (d == 'x') {
                sbx_buf_addc(w, (char)v);
            } else {
                put_utf8(w, v);
            }
            break;
        }
        default:
            if (d >= '0' && d <= '7') {
                unsigned v = (unsigned)(d - '0');
                for (int k = 0; k < 2 && in->i < in->n && in->p[in->i] >= '0' && in->p[in->i] <= '7'; k++)
                    v = v * 8 + (unsigned)(in->p[in->i++] - '0');
                sbx_buf_addc(w, (char)v);
            } else if (d == '\\' || d == '\'' || d == '"' || d == '?') {
                sbx_buf_addc(w, (char)d);
            } else {
                sbx_buf_addc(w, '\\');
                sbx_buf_addc(w, (char)d);
            }
        }
    }
}

/* A '$' at in->i (not yet consumed). Returns the flags it adds. */
static uint32_t dollar(struct sbx_sh *sh, struct input *in, unsigned depth, uint32_t cmd, uint32_t pos,
                       bool dquoted)
{
    struct sbx_buf *w = &sh->lv[depth].word;
    int d = peek_at(in, 1);
    if (d == '\'' && !dquoted) {
        in->i += 2;
        ansi_c(in, w);
        return SBX_SH_QUOTED;
    }
    if (d == '(' && peek_at(in, 2) == '(') {
        copy_braced(in, w, '(', ')');
        return SBX_SH_EXPANDS;
    }
    if (d == '(') {
        size_t start = in->i;
        in->i += 2;
        nested(sh, in, depth, cmd, pos, SBX_SH_SUBST, ')', start);
        return SBX_SH_EXPANDS;
    }
    if (d == '{') {
        in->i++;
        sbx_buf_addc(w, '$');
        copy_braced(in, w, '{', '}');
        return SBX_SH_EXPANDS;
    }
    in->i++;
    sbx_buf_addc(w, '$');
    if (d >= 0 && name_start(d)) {
        while (in->i < in->n && name_char(in->p[in->i]))
            sbx_buf_addc(w, (char)in->p[in->i++]);
        return SBX_SH_EXPANDS;
    }
    if (d >= 0 && strchr("0123456789@*#?$!-", d) && d != 0) {
        sbx_buf_addc(w, (char)in->p[in->i++]);
        return SBX_SH_EXPANDS;
    }
    return 0;
}

/* One word at in->i into the level's scratch; returns its flags. *any:
 * it had content (an empty quoted string counts). */
static uint32_t read_word(struct sbx_sh *sh, struct input *in, unsigned depth, uint32_t cmd,
                          uint32_t pos, int closer, bool *any)
{
    sbx_buf_clear(&sh->lv[depth].word);
    uint32_t flags = 0;
    *any = false;
    for (;;) {
        struct sbx_buf *w = &sh->lv[depth].word;
        int c = peek(in);
        if (c < 0)
            break;
        if ((c == '<' || c == '>') && peek_at(in, 1) == '(') {
            size_t start = in->i;
            in->i += 2;
            nested(sh, in, depth, cmd, pos, SBX_SH_PROCSUB, ')', start);
            flags |= SBX_SH_EXPANDS;
            *any = true;
            continue;
        }
        if (is_break(c) || (closer == '`' && c == '`'))
            break;
        *any = true;
        if (c == '\'') {
            in->i++;
            flags |= SBX_SH_QUOTED;
            while (in->i < in->n && in->p[in->i] != '\'')
                sbx_buf_addc(w, (char)in->p[in->i++]);
            if (in->i < in->n)
                in->i++;
        } else if (c == '\\') {
            in->i++;
            if (peek(in) == '\n') {
                in->i++;
                continue;
            }
            flags |= SBX_SH_QUOTED;
            if (in->i < in->n)
                sbx_buf_addc(w, (char)in->p[in->i++]);
        } else if (c == '"') {
            in->i++;
            flags |= SBX_SH_QUOTED;
            while (in->i < in->n && (c = in->p[in->i]) != '"') {
                if (c == '\\' && in->i + 1 < in->n && strchr("$`\"\\\n", in->p[in->i + 1])) {
                    if (in->p[in->i + 1] != '\n')
                        sbx_buf_addc(&sh->lv[depth].word, (char)in->p[in->i + 1]);
                    in->i += 2;
                } else if (c == '$') {
                    flags |= dollar(sh, in, depth, cmd, pos, true);
                } else if (c == '`') {
                    size_t start = in->i++;
                    nested(sh, in, depth, cmd, pos, SBX_SH_SUBST, '`', start);
                    flags |= SBX_SH_EXPANDS;
                } else {
                    sbx_buf_addc(&sh->lv[depth].word, (char)c);
                    in->i++;
                }
            }
            if (in->i < in->n)
                in->i++;
        } else if (c == '$') {
            flags |= dollar(sh, in, depth, cmd, pos, false);
        } else if (c == '`') {
            size_t start = in->i++;
            nested(sh, in, depth, cmd, pos, SBX_SH_SUBST, '`', start);
            flags |= SBX_SH_EXPANDS;
        } else {
            sbx_buf_addc(w, (char)c);
            in->i++;
        }
    }
    return flags;
}

static bool plain_is(const struct sbx_buf *w, uint32_t flags, const char *lit)
{
    return !flags && w->len == strlen(lit) && memcmp(w->p, lit, w->len) == 0;
}

static bool reserved_pass(const struct sbx_buf *w, uint32_t flags)
{
    static const char *const kw[] = {"{", "}", "!", "if", "then", "elif", "else", "fi", "do", "done",
                                     "while", "until", "time", "esac", NULL};
    for (size_t i = 0; kw[i]; i++)
        if (plain_is(w, flags, kw[i]))
            return true;
    return false;
}

static bool reserved_noprog(const struct sbx_buf *w, uint32_t flags)
{
    return plain_is(w, flags, "for") || plain_is(w, flags, "select") || plain_is(w, flags, "case") ||
           plain_is(w, flags, "[[") || plain_is(w, flags, "function");
}

static bool is_assignment(const char *s, size_t n)
{
    if (!n || !name_start((unsigned char)s[0]))
        return false;
    size_t i = 1;
    while (i < n && name_char((unsigned char)s[i]))
        i++;
    if (i < n && s[i] == '+')
        i++;
    return i < n && s[i] == '=';
}

static bool word_eq(const struct sbx_sh *sh, uint32_t w, const char *lit)
{
    return sh->words[w].len == strlen(lit) && memcmp(sh->text.p + sh->words[w].off, lit, sh->words[w].len) == 0;
}

static bool is_shell_name(const char *b, size_t n)
{
    static const char *const shells[] = {"bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", NULL};
    for (size_t i = 0; shells[i]; i++)
        if (n == strlen(shells[i]) && memcmp(b, shells[i], n) == 0)
            return true;
    return false;
}

/* A finished command: -c strings and eval words are read as its commands. */
static void unwrap(struct sbx_sh *sh, uint32_t ci)
{
    const struct sbx_sh_cmd *c = &sh->cmds[ci];
    if (c->depth + 1 > SBX_SH_MAX_DEPTH)
        return;
    size_t p = sbx_sh_program(sh, c);
    if (p >= c->nwords)
        return;
    size_t blen;
    const char *base = sbx_sh_basename(sh, c, p, &blen);
    size_t str = SIZE_MAX;
    if (is_shell_name(base, blen)) {
        bool has_c = false;
        size_t k = p + 1;
        for (; k < c->nwords; k++) {
            size_t n;
            const char *a = sbx_sh_arg(sh, c, k, &n);
            if (n == 0 || (a[0] != '-' && a[0] != '+') || (n == 1) || (n == 2 && a[1] == '-'))
                break;
            if (a[1] == '-') {
                if ((n == 8 && memcmp(a, "--rcfile", 8) == 0) || (n == 11 && memcmp(a, "--init-file", 11) == 0))
                    k++;
                continue;
            }
            for (size_t j = 1; j < n; j++) {
                if (a[j] == 'c')
                    has_c = true;
                else if (a[j] == 'o' || a[j] == 'O')
                    k++;
            }
        }
        if (k < c->nwords && (word_eq(sh, sh->argv[c->word + k], "--") ||
                              word_eq(sh, sh->argv[c->word + k], "-")))
            k++;
        if (has_c && k < c->nwords)
            str = k;
    } else if ((blen == 2 && memcmp(base, "su", 2) == 0)) {
        for (size_t k = p + 1; k + 1 < c->nwords; k++)
            if (word_eq(sh, sh->argv[c->word + k], "-c") || word_eq(sh, sh->argv[c->word + k], "--command"))
                str = k + 1;
    } else if (blen == 4 && memcmp(base, "eval", 4) == 0 && p + 1 < c->nwords) {
        struct sbx_buf joined = SBX_BUF_INIT;
        for (size_t k = p + 1; k < c->nwords; k++) {
            size_t n;
            const char *a = sbx_sh_arg(sh, c, k, &n);
            if (k > p + 1)
                sbx_buf_addc(&joined, ' ');
            sbx_buf_add(&joined, a, n);
            sh->words[sh->argv[c->word + k]].flags |= SBX_SH_UNWRAPPED;
        }
        parse_input(sh, joined.p ? joined.p : "", joined.len, c->depth + 1, ci, (uint32_t)(p + 1),
                    SBX_SH_STRING);
        sbx_buf_free(&joined);
        return;
    }
    if (str == SIZE_MAX)
        return;
    size_t n;
    const char *a = sbx_sh_arg(sh, c, str, &n);
    char *copy = sbx_xstrndup(a, n);
    sh->words[sh->argv[c->word + str]].flags |= SBX_SH_UNWRAPPED;
    parse_input(sh, copy, n, c->depth + 1, ci, (uint32_t)str, SBX_SH_STRING);
    free(copy);
}

/* Copies the level's words and redirections into command ci. */
static void finish(struct sbx_sh *sh, struct input *in, unsigned depth, uint32_t ci, bool noprog,
                   size_t nassign)
{
    struct sbx_sh_level *lv = &sh->lv[depth];
    struct sbx_sh_cmd *c = &sh->cmds[ci];
    c->word = (uint32_t)sh->nargv;
    c->nwords = (uint32_t)lv->nidx;
    c->nassign = (uint32_t)nassign;
    c->noprog = noprog;
    for (size_t i = 0; i < lv->nidx; i++) {
        SBX_GROW(sh->argv, sh->nargv, sh->capargv);
        sh->argv[sh->nargv++] = lv->idx[i];
    }
    c->redir = (uint32_t)sh->nredirs;
    c->nredir = (uint32_t)lv->nr;
    for (size_t i = 0; i < lv->nr; i++) {
        SBX_GROW(sh->redirs, sh->nredirs, sh->capredirs);
        if (lv->r[i].op == SBX_SH_R_HEREDOC && in->npend < MAX_PENDING) {
            struct pending *p = &in->pend[in->npend++];
            p->redir = (uint32_t)sh->nredirs;
            p->delim = lv->r[i].word;
            p->owner = ci;
            p->dash = lv->r[i].fd == -2;
            lv->r[i].fd = -1;
        }
        sh->redirs[sh->nredirs++] = lv->r[i];
    }
    lv->nidx = lv->nr = 0;
    unwrap(sh, ci);
}

/* Whether command c runs a shell that reads its script from standard input
 * (no -c, no script file). */
static bool shell_reads_stdin(const struct sbx_sh *sh, const struct sbx_sh_cmd *c)
{
    size_t p = sbx_sh_program(sh, c), blen;
    if (p >= c->nwords)
        return false;
    const char *base = sbx_sh_basename(sh, c, p, &blen);
    if (!is_shell_name(base, blen))
        return false;
    for (size_t k = p + 1; k < c->nwords; k++) {
        size_t n;
        const char *a = sbx_sh_arg(sh, c, k, &n);
        if (n == 0 || (a[0] != '-' && a[0] != '+'))
            return false;
        if (n > 1 && a[1] != '-' && memchr(a, 'c', n))
            return false;
        if (n > 1 && a[1] != '-' && memchr(a, 's', n))
            return true;
    }
    return true;
}

/* After a newline: the bodies of the heredocs started on the line. */
static void heredoc_bodies(struct sbx_sh *sh, struct input *in)
{
    for (unsigned h = 0; h < in->npend; h++) {
        const struct pending *p = &in->pend[h];
        struct sbx_buf body = SBX_BUF_INIT;
        const struct sbx_sh_word dw = sh->words[p->delim];
        for (;;) {
            size_t ls = in->i;
            while (in->i < in->n && in->p[in->i] != '\n')
                in->i++;
            size_t le = in->i;
            if (in->i < in->n)
                in->i++;
            size_t s = ls;
            if (p->dash)
                while (s < le && in->p[s] == '\t')
                    s++;
            if ((le - s == dw.len && memcmp(in->p + s, sh->text.p + dw.off, dw.len) == 0) || ls == in->n)
                break;
            sbx_buf_add(&body, in->p + s, le - s);
            sbx_buf_addc(&body, '\n');
        }
        uint32_t w = add_word(sh, body.p ? body.p : "", body.len, 0);
        sh->redirs[p->redir].word = w;
        if (shell_reads_stdin(sh, &sh->cmds[p->owner]) && sh->cmds[p->owner].depth + 1 <= SBX_SH_MAX_DEPTH) {
            char *copy = sbx_xstrndup(body.p ? body.p : "", body.len);
            sh->words[w].flags |= SBX_SH_UNWRAPPED;
            parse_input(sh, copy, body.len, sh->cmds[p->owner].depth + 1, p->owner, SBX_SH_POS_REDIR,
                        SBX_SH_STRING);
            free(copy);
        }
        sbx_buf_free(&body);
    }
    in->npend = 0;
}

/* A redirection at in->i; fd is the number written before it, or -1. */
static void redirection(struct sbx_sh *sh, struct input *in, unsigned depth, uint32_t ci, int fd)
{
    uint32_t op;
    bool dash = false;
    int c = in->p[in->i++];
    if (c == '&') { /* &> &>> */
        in->i++;
        op = SBX_SH_R_OUT;
        if (peek(in) == '>') {
            in->i++;
            op = SBX_SH_R_APPEND;
        }
    } else if (c == '<') {
        op = SBX_SH_R_IN;
        if (peek(in) == '<' && peek_at(in, 1) == '<') {
            in->i += 2;
            op = SBX_SH_R_HERESTR;
        } else if (peek(in) == '<') {
            in->i++;
            op = SBX_SH_R_HEREDOC;
            if (peek(in) == '-') {
                in->i++;
                dash = true;
            }
        } else if (peek(in) == '&') {
            in->i++;
            op = SBX_SH_R_DUP;
        } else if (peek(in) == '>') {
            in->i++;
        }
    } else {
        op = SBX_SH_R_OUT;
        if (peek(in) == '>') {
            in->i++;
            op = SBX_SH_R_APPEND;
        } else if (peek(in) == '&') {
            in->i++;
            op = SBX_SH_R_DUP;
        } else if (peek(in) == '|') {
            in->i++;
        }
    }
    while (peek(in) == ' ' || peek(in) == '\t')
        in->i++;
    bool any;
    uint32_t flags = read_word(sh, in, depth, ci, SBX_SH_POS_REDIR, -1, &any);
    struct sbx_sh_level *lv = &sh->lv[depth];
    uint32_t w = add_word(sh, lv->word.p ? lv->word.p : "", lv->word.len, flags);
    SBX_GROW(lv->r, lv->nr, lv->capr);
    /* a heredoc's dash rides in fd until finish() files it as pending */
    lv->r[lv->nr++] = (struct sbx_sh_redir){op, op == SBX_SH_R_HEREDOC && dash ? -2 : fd, w};
}

/* Digits followed by < or >: a file descriptor for a redirection. */
static int io_number(const struct input *in)
{
    size_t k = 0;
    int v = 0;
    while (k < 9 && peek_at(in, k) >= '0' && peek_at(in, k) <= '9')
        v = v * 10 + (peek_at(in, k++) - '0');
    int c = peek_at(in, k);
    return k && (c == '<' || c == '>') ? v : -1;
}

static void parse_list(struct sbx_sh *sh, struct input *in, unsigned depth, uint32_t parent,
                       uint32_t pos, uint32_t how, int closer)
{
    uint32_t pipe_from = SBX_SH_NONE, last = SBX_SH_NONE;
    unsigned parens = 0;
    bool end = false;
    while (!end) {
        uint32_t ci = new_cmd(sh, parent, pos, how, depth);
        struct sbx_sh_level *lv = &sh->lv[depth];
        lv->nidx = lv->nr = 0;
        bool noprog = false, pipe = false, done = false;
        size_t nassign = 0;
        while (!done) {
            int c = peek(in);
            if (c < 0) {
                end = done = true;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                in->i++;
            } else if (c == '\\' && peek_at(in, 1) == '\n') {
                in->i += 2;
            } else if (c == closer && closer == '`') {
                in->i++;
                end = done = true;
            } else if (c == ')') {
                in->i++;
                if (parens)
                    parens--;
                else if (closer == ')')
                    end = true;
                done = true;
            } else if (c == '(') {
                in->i++;
                parens++;
                done = lv->nidx || lv->nr; /* f() { …; }: the name is a command of its own */
            } else if (c == '\n') {
                in->i++;
                done = true;
            } else if (c == ';') {
                in->i++;
                while (peek(in) == ';' || peek(in) == '&')
                    in->i++;
                done = true;
            } else if (c == '&') {
                if (peek_at(in, 1) == '>') {
                    redirection(sh, in, depth, ci, -1);
                    continue;
                }
                in->i += peek_at(in, 1) == '&' ? 2 : 1;
                done = true;
            } else if (c == '|') {
                if (peek_at(in, 1) == '|') {
                    in->i += 2;
                } else {
                    in->i += peek_at(in, 1) == '&' ? 2 : 1;
                    pipe = true;
                }
                done = true;
            } else if (c == '#') { /* a comment starts at any word */
                while (peek(in) >= 0 && peek(in) != '\n')
                    in->i++;
            } else if (((c == '<' || c == '>') && peek_at(in, 1) != '(') || io_number(in) >= 0) {
                int fd = io_number(in);
                if (fd >= 0)
                    while (peek(in) >= '0' && peek(in) <= '9')
                        in->i++;
                redirection(sh, in, depth, ci, fd);
            } else {
                bool any;
                uint32_t flags = read_word(sh, in, depth, ci, (uint32_t)lv->nidx, closer, &any);
                lv = &sh->lv[depth];
                if (!any) {
                    if (peek(in) == c)
                        in->i++; /* a byte no rule takes: pass it */
                    continue;
                }
                bool first = lv->nidx == nassign;
                if (first && !noprog && reserved_pass(&lv->word, flags))
                    continue;
                if (first && !noprog && reserved_noprog(&lv->word, flags))
                    noprog = true;
                uint32_t w = add_word(sh, lv->word.p ? lv->word.p : "", lv->word.len, flags);
                if (first && !noprog && is_assignment(lv->word.p, lv->word.len))
                    nassign++;
                SBX_GROW(lv->idx, lv->nidx, lv->capidx);
                lv->idx[lv->nidx++] = w;
            }
        }
        bool empty = !lv->nidx && !lv->nr;
        finish(sh, in, depth, ci, noprog, nassign);
        if (!empty) {
            if (pipe_from != SBX_SH_NONE) {
                sh->cmds[pipe_from].pipe_to = ci;
                sh->cmds[ci].pipe_from = pipe_from;
                pipe_from = SBX_SH_NONE;
            }
            last = ci;
        }
        if (pipe)
            pipe_from = empty ? last : ci;
        else if (!empty)
            pipe_from = SBX_SH_NONE;
        if (in->i > 0 && in->p[in->i - 1] == '\n' && in->npend)
            heredoc_bodies(sh, in);
        if (empty && ci + 1 == sh->ncmds)
            sh->ncmds--; /* nothing nested in it: drop it */
    }
}

static void parse_input(struct sbx_sh *sh, const char *s, size_t n, unsigned depth, uint32_t parent,
                        uint32_t pos, uint32_t how)
{
    struct input in = {(const unsigned char *)s, n, 0, {{0}}, 0};
    parse_list(sh, &in, depth, parent, pos, how, -1);
    /* heredocs never closed: their bodies are the rest (none left) */
    if (in.npend)
        heredoc_bodies(sh, &in);
}

void sbx_sh_parse(struct sbx_sh *sh, const char *s, size_t n)
{
    if (!sh->lv)
        sh->lv = sbx_xcalloc(SBX_SH_MAX_DEPTH + 2, sizeof *sh->lv);
    sbx_buf_clear(&sh->text);
    sh->nwords = sh->nargv = sh->nredirs = sh->ncmds = 0;
    parse_input(sh, s ? s : "", s ? n : 0, 0, SBX_SH_NONE, 0, SBX_SH_TOP);
}

void sbx_sh_free(struct sbx_sh *sh)
{
    sbx_buf_free(&sh->text);
    free(sh->words);
    free(sh->argv);
    free(sh->redirs);
    free(sh->cmds);
    if (sh->lv) {
        for (size_t i = 0; i < SBX_SH_MAX_DEPTH + 2; i++) {
            sbx_buf_free(&sh->lv[i].word);
            free(sh->lv[i].idx);
            free(sh->lv[i].r);
        }
        free(sh->lv);
    }
    *sh = (struct sbx_sh)SBX_SH_INIT;
}

const char *sbx_sh_word_text(const struct sbx_sh *sh, uint32_t w, size_t *len)
{
    *len = sh->words[w].len;
    return sh->text.p + sh->words[w].off;
}

const char *sbx_sh_arg(const struct sbx_sh *sh, const struct sbx_sh_cmd *c, size_t i, size_t *len)
{
    return sbx_sh_word_text(sh, sh->argv[c->word + i], len);
}

uint32_t sbx_sh_arg_flags(const struct sbx_sh *sh, const struct sbx_sh_cmd *c, size_t i)
{
    return sh->words[sh->argv[c->word + i]].flags;
}

const char *sbx_sh_basename(const struct sbx_sh *sh, const struct sbx_sh_cmd *c, size_t i, size_t *len)
{
    size_t n;
    const char *a = sbx_sh_arg(sh, c, i, &n);
    const char *slash = n ? memrchr(a, '/', n) : NULL;
    if (slash && slash + 1 < a + n) {
        *len = (size_t)(a + n - slash - 1);
        return slash + 1;
    }
    *len = n;
    return a;
}

static bool arg_is(const struct sbx_sh *sh, const struct sbx_sh_cmd *c, size_t i, const char *lit)
{
    size_t n;
    const char *a = sbx_sh_arg(sh, c, i, &n);
    return n == strlen(lit) && memcmp(a, lit, n) == 0;
}

/* Options of a wrapper: which take a value (short letters, long names). */
struct wrapper {
    const char *name;
    const char *valued;      /* short options that take the next word */
    const char *const *lvalued; /* long options that take the next word (without =) */
    bool names_too;          /* VAR=value words come before the program (env) */
    unsigned positionals;    /* words to pass after the options (timeout's duration) */
};

static const char *const sudo_long[] = {"--user", "--group", "--close-from", "--chdir", "--host",
                                        "--prompt", "--role", "--type", "--other-user",
                                        "--command-timeout", NULL};
static const char *const env_long[] = {"--unset", "--chdir", "--split-string", NULL};
static const char *const nice_long[] = {"--adjustment", NULL};
static const char *const timeout_long[] = {"--signal", "--kill-after", NULL};
static const char *const none_long[] = {NULL};

static const struct wrapper wrappers[] = {
    {"sudo", "ugCDhprtUT", sudo_long, true, 0},
    {"doas", "uC", none_long, false, 0},
    {"env", "uCS", env_long, true, 0},
    {"nohup", "", none_long, false, 0},
    {"setsid", "", none_long, false, 0},
    {"nice", "n", nice_long, false, 0},
    {"ionice", "cnp", none_long, false, 0},
    {"time", "fo", none_long, false, 0},
    {"command", "", none_long, false, 0},
    {"builtin", "", none_long, false, 0},
    {"exec", "a", none_long, false, 0},
    {"timeout", "sk", timeout_long, false, 1},
    {"stdbuf", "ioe", none_long, false, 0},
    {"xargs", "aEdIiLlnPs", none_long, false, 0},
};

size_t sbx_sh_program(const struct sbx_sh *sh, const struct sbx_sh_cmd *c)
{
    if (c->noprog)
        return c->nwords;
    size_t i = c->nassign;
    for (unsigned hops = 0; hops < 8 && i < c->nwords; hops++) {
        size_t blen;
        const char *base = sbx_sh_basename(sh, c, i, &blen);
        const struct wrapper *wr = NULL;
        for (size_t k = 0; k < sizeof wrappers / sizeof wrappers[0]; k++)
            if (blen == strlen(wrappers[k].name) && memcmp(base, wrappers[k].name, blen) == 0)
                wr = &wrappers[k];
        if (!wr)
            return i;
        /* command -v / -V only looks a name up */
        if (strcmp(wr->name, "command") == 0 && i + 1 < c->nwords &&
            (arg_is(sh, c, i + 1, "-v") || arg_is(sh, c, i + 1, "-V")))
            return c->nwords;
        i++;
        unsigned positionals = wr->positionals;
        while (i < c->nwords) {
            size_t n;
            const char *a = sbx_sh_arg(sh, c, i, &n);
            if (n == 2 && a[0] == '-' && a[1] == '-') {
                i++;
                break;
            }
            if (n > 1 && a[0] == '-' && a[1] == '-') {
                bool takes = false;
                for (const char *const *l = wr->lvalued; *l; l++)
                    takes |= n == strlen(*l) && memcmp(a, *l, n) == 0;
                i += takes ? 2 : 1;
                continue;
            }
            if (n > 1 && a[0] == '-') {
                /* nice -5 and the like: a number is the option's own value */
                bool takes = false;
                for (size_t j = 1; j < n; j++)
                    if (strchr(wr->valued, a[j]) && a[j]) {
                        takes = j + 1 == n; /* else the value is the rest of the word */
                        break;
                    }
                i += takes ? 2 : 1;
                continue;
            }
            if (wr->names_too && is_assignment(a, n)) {
                i++;
                continue;
            }
            if (positionals) {
                positionals--;
                i++;
                continue;
            }
            break;
        }
    }
    return i < c->nwords ? i : c->nwords;
}
