/* The risky scanner: the prefilter, the command line read once, and each
 * simple command tried against every rule; what the rules share (words,
 * the files a command writes). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/risky_internal.h"

/* The rules, in the findings table's order of the kinds they set. */
static void (*const rules[])(struct risky_cmd *) = {
    risky_tampering, risky_hosts, risky_pipe_shell, risky_metadata,
    risky_credentials, risky_persistence, risky_tls, risky_url_install,
};

static const uint32_t slots[8] = {
    SBX_F_PIPED_TO_SHELL, SBX_F_METADATA_ENDPOINT, SBX_F_HOSTS_REDIRECT, SBX_F_PERSISTENCE,
    SBX_F_LOG_TAMPERING, SBX_F_TLS_OFF, SBX_F_CREDENTIAL_READ, SBX_F_URL_INSTALL,
};

size_t sbx_risky_slot(uint32_t kind)
{
    for (size_t i = 0; i < 8; i++)
        if (slots[i] == kind)
            return i;
    return 0;
}

bool risky_lower(struct sbx_buf *b, const char *s, size_t n)
{
    sbx_buf_clear(b);
    sbx_buf_reserve(b, n + 1);
    bool ansi = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\'' || c == '"' || c == '\\') {
            ansi |= c == '\'' && i && s[i - 1] == '$';
            continue;
        }
        b->p[b->len++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    b->p[b->len] = '\0';
    return ansi;
}

struct sbx_risky_scanner *sbx_risky_scanner_new(const char *const *logs, size_t nlogs)
{
    struct sbx_risky_scanner *s = sbx_xcalloc(1, sizeof *s);
    s->sh = (struct sbx_sh)SBX_SH_INIT;
    s->logs = nlogs ? sbx_xcalloc(nlogs, sizeof *s->logs) : NULL;
    for (size_t i = 0; i < nlogs; i++) {
        struct sbx_buf b = SBX_BUF_INIT;
        risky_lower(&b, logs[i], strlen(logs[i]));
        if (!b.len) {
            sbx_buf_free(&b);
            continue;
        }
        s->logs[s->nlogs++] = b.p;
    }
    risky_words_build(s);
    return s;
}

void sbx_risky_scanner_free(struct sbx_risky_scanner *s)
{
    if (!s)
        return;
    sbx_sh_free(&s->sh);
    sbx_buf_free(&s->low);
    sbx_buf_free(&s->tmp);
    for (size_t i = 0; i < s->nlogs; i++)
        free(s->logs[i]);
    free(s->logs);
    free(s);
}

void risky_hit(struct risky_cmd *rc, uint32_t kind, const char *fmt, ...)
{
    struct sbx_risky_scanner *s = rc->s;
    if (s->found & kind)
        return;
    s->found |= kind;
    if (!s->why)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why->why[sbx_risky_slot(kind)], SBX_RISKY_WHY_MAX, fmt, ap);
    va_end(ap);
}

const char *risky_arg(const struct risky_cmd *rc, size_t i, size_t *len)
{
    rc->s->steps++;
    return sbx_sh_arg(rc->sh, rc->c, i, len);
}

bool risky_arg_is(const struct risky_cmd *rc, size_t i, const char *lit)
{
    size_t n;
    const char *a = risky_arg(rc, i, &n);
    return n == strlen(lit) && memcmp(a, lit, n) == 0;
}

bool risky_name_is(const struct risky_cmd *rc, const char *lit)
{
    return rc->namelen == strlen(lit) && memcmp(rc->name, lit, rc->namelen) == 0;
}

bool risky_name_in(const struct risky_cmd *rc, const char *const *list)
{
    for (; *list; list++)
        if (risky_name_is(rc, *list))
            return true;
    return false;
}

/* Options of the copying programs that take the next word as a value. */
static bool takes_value(const struct risky_cmd *rc, const char *a, size_t n)
{
    if (n != 2 || a[0] != '-')
        return false;
    if (risky_name_is(rc, "install"))
        return strchr("mogtS", a[1]) != NULL;
    return strchr("tS", a[1]) != NULL;
}

/* cp, mv, install, ln: the destination; a folder (-t, or the last word
 * when it ends in '/' or there are several sources) names each source's
 * basename under it. */
static void copy_targets(struct risky_cmd *rc, risky_target_fn *fn, void *ctx)
{
    const struct sbx_sh_cmd *c = rc->c;
    size_t first = SIZE_MAX, last = SIZE_MAX, npos = 0, tdir = SIZE_MAX;
    bool opts = true;
    for (size_t i = rc->prog + 1; i < c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if (opts && n == 2 && a[0] == '-' && a[1] == '-') {
            opts = false;
            continue;
        }
        if (opts && n > 1 && a[0] == '-') {
            if (takes_value(rc, a, n) && i + 1 < c->nwords) {
                if (a[1] == 't')
                    tdir = i + 1;
                i++;
            } else if (n > 20 && memcmp(a, "--target-directory=", 19) == 0) {
                tdir = i; /* the value after '=' */
            }
            continue;
        }
        if (first == SIZE_MAX)
            first = i;
        last = i;
        npos++;
    }
    size_t dn;
    const char *dest;
    size_t srcs_end;
    if (tdir != SIZE_MAX) {
        dest = risky_arg(rc, tdir, &dn);
        if (dn > 19 && memcmp(dest, "--target-directory=", 19) == 0) {
            dest += 19;
            dn -= 19;
        }
        srcs_end = last == SIZE_MAX ? 0 : last + 1;
    } else {
        if (npos < 2)
            return;
        dest = risky_arg(rc, last, &dn);
        srcs_end = last;
    }
    fn(rc, dest, dn, false, ctx);
    bool folder = tdir != SIZE_MAX || (dn && dest[dn - 1] == '/') || npos > 2;
    if (!folder || first == SIZE_MAX)
        return;
    for (size_t i = first; i < srcs_end; i++) {
        size_t sn, bl;
        const char *src = risky_arg(rc, i, &sn);
        if (sn > 1 && src[0] == '-')
            continue;
        const char *b = risky_basename(src, sn, &bl);
        struct sbx_buf *t = &rc->s->tmp;
        sbx_buf_clear(t);
        sbx_buf_add(t, dest, dn);
        if (!dn || dest[dn - 1] != '/')
            sbx_buf_addc(t, '/');
        sbx_buf_add(t, b, bl);
        /* the callback may use tmp: hand it a copy */
        char *full = sbx_xstrndup(t->p, t->len);
        fn(rc, full, t->len, false, ctx);
        free(full);
    }
}

/* sed -i's files: the words after the script (or after -e/-f scripts). */
static void sed_targets(struct risky_cmd *rc, risky_target_fn *fn, void *ctx)
{
    const struct sbx_sh_cmd *c = rc->c;
    bool inplace = false, script_given = false, script_seen = false;
    for (size_t i = rc->prog + 1; i < c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if ((n >= 2 && a[0] == '-' && a[1] == 'i') || (n >= 10 && memcmp(a, "--in-place", 10) == 0) ||
            (n >= 2 && a[0] == '-' && a[1] != '-' && memchr(a, 'i', n) && !memchr(a, 'e', n) &&
             !memchr(a, 'f', n)))
            inplace = true;
        if ((n == 2 && a[0] == '-' && (a[1] == 'e' || a[1] == 'f')) || (n > 2 && a[0] == '-' && a[1] != '-' &&
                                                                          (a[n - 1] == 'e' || a[n - 1] == 'f') &&
                                                                          !memchr(a, 'i', n))) {
            script_given = true;
            i++;
        }
    }
    if (!inplace)
        return;
    for (size_t i = rc->prog + 1; i < c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if (n > 1 && a[0] == '-') {
            if ((n == 2 && (a[1] == 'e' || a[1] == 'f')) ||
                (a[1] != '-' && (a[n - 1] == 'e' || a[n - 1] == 'f') && !memchr(a, 'i', n)))
                i++;
            continue;
        }
        if (!script_given && !script_seen) {
            script_seen = true;
            continue;
        }
        fn(rc, a, n, false, ctx);
    }
}

void risky_write_targets(struct risky_cmd *rc, risky_target_fn *fn, void *ctx)
{
    const struct sbx_sh *sh = rc->sh;
    const struct sbx_sh_cmd *c = rc->c;
    for (uint32_t k = 0; k < c->nredir; k++) {
        const struct sbx_sh_redir *r = &sh->redirs[c->redir + k];
        size_t n;
        const char *t = sbx_sh_word_text(sh, r->word, &n);
        bool fdnum = n && strspn(t, "0123456789-") == n;
        if (r->op == SBX_SH_R_OUT || r->op == SBX_SH_R_APPEND || (r->op == SBX_SH_R_DUP && !fdnum && r->fd != 0))
            fn(rc, t, n, r->op == SBX_SH_R_APPEND, ctx);
    }
    if (rc->prog >= c->nwords)
        return;
    if (risky_name_is(rc, "tee")) {
        bool append = false;
        for (size_t i = rc->prog + 1; i < c->nwords; i++) {
            size_t n;
            const char *a = risky_arg(rc, i, &n);
            if (n > 1 && a[0] == '-')
                append |= (a[1] != '-' && memchr(a, 'a', n)) || (n == 8 && memcmp(a, "--append", 8) == 0);
        }
        for (size_t i = rc->prog + 1; i < c->nwords; i++) {
            size_t n;
            const char *a = risky_arg(rc, i, &n);
            if (!(n > 1 && a[0] == '-'))
                fn(rc, a, n, append, ctx);
        }
    } else if (risky_name_is(rc, "cp") || risky_name_is(rc, "mv") || risky_name_is(rc, "install") ||
               risky_name_is(rc, "ln")) {
        copy_targets(rc, fn, ctx);
    } else if (risky_name_is(rc, "sed")) {
        sed_targets(rc, fn, ctx);
    } else if (risky_name_is(rc, "dd")) {
        for (size_t i = rc->prog + 1; i < c->nwords; i++) {
            size_t n;
            const char *a = risky_arg(rc, i, &n);
            if (n > 3 && memcmp(a, "of=", 3) == 0)
                fn(rc, a + 3, n - 3, false, ctx);
        }
    }
}

bool sbx_risky_might(struct sbx_risky_scanner *s, const char *text, size_t n)
{
    return risky_might(s, text, n);
}

size_t sbx_risky_work(const struct sbx_risky_scanner *s)
{
    return s->steps;
}

uint32_t sbx_risky_command(struct sbx_risky_scanner *s, const char *cmd, size_t n,
                           struct sbx_risky_why *why)
{
    if (why)
        why->kinds = 0;
    s->steps = n; /* the prefilter reads every byte */
    if (!sbx_risky_might(s, cmd, n))
        return 0;
    s->found = 0;
    s->why = why;
    sbx_sh_parse(&s->sh, cmd, n);
    /* what the reading made: a step a byte of words, a word, a command */
    s->steps += n + s->sh.text.len + s->sh.nwords + s->sh.nredirs + s->sh.ncmds;
    for (size_t i = 0; i < s->sh.ncmds; i++) {
        s->steps += sizeof rules / sizeof rules[0];
        struct risky_cmd rc = {.s = s, .sh = &s->sh, .ci = (uint32_t)i, .c = &s->sh.cmds[i]};
        rc.prog = sbx_sh_program(&s->sh, rc.c);
        rc.name = "";
        if (rc.prog < rc.c->nwords)
            rc.name = sbx_sh_basename(&s->sh, rc.c, rc.prog, &rc.namelen);
        for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
            rules[r](&rc);
    }
    s->why = NULL;
    if (why)
        why->kinds = s->found;
    return s->found;
}
