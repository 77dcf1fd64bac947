/* The risky rules, one function per finding kind, each judging one simple
 * command of a line (docs/risky-commands.md states each rule and what it
 * deliberately does not fire on). */
#include <string.h>
#include <strings.h>

#include "analyses/risky_internal.h"

static const char *const shells[] = {"bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "fish", NULL};

static bool is_python(const char *b, size_t n)
{
    if ((n < 6 || memcmp(b, "python", 6) != 0) && (n < 4 || memcmp(b, "pypy", 4) != 0))
        return false;
    for (size_t i = b[0] == 'p' && b[1] == 'y' && b[2] == 'p' ? 4 : 6; i < n; i++)
        if (!((b[i] >= '0' && b[i] <= '9') || b[i] == '.'))
            return false;
    return true;
}

static bool opt(const char *a, size_t n) { return n > 1 && a[0] == '-'; }

/* ---- piped to a shell ---- */

/* curl's and wget's short options that take the next word (or the rest of
 * the cluster) as their value. */
static const char curl_valued[] = "AbcCdDeEFHKmoPQrtTuUwxXyYz";
static const char wget_valued[] = "aAbBDeIlNOoPQRtTUwXY";

/* Whether a curl or wget command writes what it fetched to standard output. */
static bool downloads_to_stdout(const struct risky_cmd *rc)
{
    bool curl = risky_name_is(rc, "curl"), wget = risky_name_is(rc, "wget");
    if (!curl && !wget)
        return false;
    bool out = curl; /* curl writes to stdout unless told otherwise; wget to a file */
    for (size_t i = rc->prog + 1; i < rc->c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if (!opt(a, n))
            continue;
        if (a[1] == '-') {
            const char *eq = memchr(a, '=', n);
            size_t kn = eq ? (size_t)(eq - a) : n;
            const char *val = NULL;
            size_t vn = 0;
            if (eq) {
                val = eq + 1;
                vn = n - kn - 1;
            } else if (i + 1 < rc->c->nwords) {
                val = risky_arg(rc, i + 1, &vn);
            }
            bool is_out = (curl && kn == 8 && memcmp(a, "--output", 8) == 0) ||
                          (wget && kn == 17 && memcmp(a, "--output-document", 17) == 0);
            if (is_out) {
                out = val && ((vn == 1 && val[0] == '-') || (vn == 11 && memcmp(val, "/dev/stdout", 11) == 0));
                if (!eq)
                    i++;
            } else if (curl && ((kn == 13 && memcmp(a, "--remote-name", 13) == 0) ||
                                (kn == 17 && memcmp(a, "--remote-name-all", 17) == 0))) {
                out = false;
            }
            continue;
        }
        const char *valued = curl ? curl_valued : wget_valued;
        for (size_t j = 1; j < n; j++) {
            if (curl && a[j] == 'O') {
                out = false;
                continue;
            }
            if (!strchr(valued, a[j]))
                continue;
            const char *val = a + j + 1;
            size_t vn = n - j - 1;
            if (!vn && i + 1 < rc->c->nwords)
                val = risky_arg(rc, ++i, &vn);
            if ((curl && a[j] == 'o') || (wget && a[j] == 'O'))
                out = (vn == 1 && val[0] == '-') || (vn == 11 && memcmp(val, "/dev/stdout", 11) == 0);
            break;
        }
    }
    return out;
}

/* base64 -d, openssl base64 -d, xxd -r: text turned back into bytes. */
static bool decodes(const struct risky_cmd *rc)
{
    bool b64 = risky_name_is(rc, "base64") || risky_name_is(rc, "base32") || risky_name_is(rc, "basenc");
    bool ossl = risky_name_is(rc, "openssl"), xxd = risky_name_is(rc, "xxd");
    if (!b64 && !ossl && !xxd)
        return false;
    bool dec = false, base = !ossl;
    for (size_t i = rc->prog + 1; i < rc->c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if (ossl && ((n == 6 && memcmp(a, "base64", 6) == 0) || (n == 2 && memcmp(a, "-a", 2) == 0) ||
                     (n == 7 && memcmp(a, "-base64", 7) == 0)))
            base = true;
        if (!opt(a, n))
            continue;
        if (a[1] == '-')
            dec |= n == 8 && memcmp(a, "--decode", 8) == 0;
        else if (xxd)
            dec |= memchr(a, 'r', n) != NULL;
        else
            dec |= memchr(a, 'd', n) != NULL || (b64 && memchr(a, 'D', n) != NULL);
    }
    return dec && base;
}

/* What a source of code is: a download to stdout, or decoded text; its
 * words for the reason. */
static const char *source_kind(const struct sbx_risky_scanner *s, const struct sbx_sh *sh, uint32_t ci)
{
    struct risky_cmd rc = {.s = (struct sbx_risky_scanner *)s, .sh = sh, .ci = ci, .c = &sh->cmds[ci]};
    rc.prog = sbx_sh_program(sh, rc.c);
    rc.name = "";
    rc.namelen = 0;
    if (rc.prog < rc.c->nwords)
        rc.name = sbx_sh_basename(sh, rc.c, rc.prog, &rc.namelen);
    if (downloads_to_stdout(&rc))
        return risky_name_is(&rc, "curl") ? "curl" : "wget";
    if (decodes(&rc))
        return "decoded text";
    return NULL;
}

/* A source among ci and the commands nested in it. */
static const char *source_within(const struct risky_cmd *rc, uint32_t ci)
{
    const char *k = source_kind(rc->s, rc->sh, ci);
    for (uint32_t j = ci + 1; !k && j < rc->sh->ncmds; j++) {
        uint32_t p = rc->sh->cmds[j].parent;
        while (p != SBX_SH_NONE && p > ci)
            p = rc->sh->cmds[p].parent;
        if (p == ci)
            k = source_kind(rc->s, rc->sh, j);
        else if (rc->sh->cmds[j].depth <= rc->sh->cmds[ci].depth)
            break;
    }
    return k;
}

/* Where an interpreter takes its code from: *stdin when it reads it from
 * standard input; the index of the word that is the code (a -c string, a
 * script's path, eval's words: SIZE_MAX - 1 for "any word") or SIZE_MAX. */
static size_t code_word(const struct risky_cmd *rc, bool *stdin_code)
{
    const struct sbx_sh_cmd *c = rc->c;
    *stdin_code = false;
    if (rc->prog >= c->nwords)
        return SIZE_MAX;
    size_t n0;
    const char *first = risky_arg(rc, c->nassign, &n0);
    size_t fb;
    const char *fbase = risky_basename(first, n0, &fb);
    bool via_xargs = fb == 5 && memcmp(fbase, "xargs", 5) == 0; /* stdin becomes its arguments */
    if (risky_name_is(rc, "eval"))
        return SIZE_MAX - 1;
    if (risky_name_is(rc, "source") || risky_name_is(rc, ".")) {
        if (rc->prog + 1 >= c->nwords)
            return SIZE_MAX;
        size_t n;
        const char *a = risky_arg(rc, rc->prog + 1, &n);
        *stdin_code = !via_xargs && ((n == 10 && memcmp(a, "/dev/stdin", 10) == 0) || (n == 1 && a[0] == '-'));
        return rc->prog + 1;
    }
    bool sh = risky_name_in(rc, shells), py = is_python(rc->name, rc->namelen);
    bool pe = risky_name_is(rc, "perl") || risky_name_is(rc, "ruby");
    bool node = risky_name_is(rc, "node") || risky_name_is(rc, "nodejs");
    bool php = risky_name_is(rc, "php");
    if (!sh && !py && !pe && !node && !php)
        return SIZE_MAX;
    for (size_t i = rc->prog + 1; i < c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if ((n == 1 && a[0] == '-') || (n == 10 && memcmp(a, "/dev/stdin", 10) == 0)) {
            *stdin_code = !via_xargs;
            return SIZE_MAX;
        }
        if (n == 2 && a[0] == '-' && a[1] == '-') {
            if (i + 1 < c->nwords && sh)
                return i + 1;
            break;
        }
        if (!opt(a, n) && !(sh && n > 1 && a[0] == '+'))
            return i; /* a script file */
        if (a[1] == '-') {
            if (node && ((n == 6 && memcmp(a, "--eval", 6) == 0) || (n == 7 && memcmp(a, "--print", 7) == 0)))
                return i + 1;
            if (sh && ((n == 8 && memcmp(a, "--rcfile", 8) == 0) || (n == 11 && memcmp(a, "--init-file", 11) == 0)))
                i++;
            if (node && n == 9 && memcmp(a, "--require", 9) == 0)
                i++;
            continue;
        }
        for (size_t j = 1; j < n; j++) {
            char ch = a[j];
            if (sh && ch == 's') {
                *stdin_code = !via_xargs;
                return SIZE_MAX;
            }
            if ((sh && ch == 'c') || (py && ch == 'c') || (pe && (ch == 'e' || ch == 'E')) ||
                (node && (ch == 'e' || ch == 'p')) || (php && ch == 'r'))
                return j + 1 < n ? i : i + 1; /* the rest of the word, or the next */
            if (py && ch == 'm')
                return SIZE_MAX; /* a module: its own code */
            if ((sh && (ch == 'o' || ch == 'O')) || (py && (ch == 'W' || ch == 'X')) || (node && ch == 'r') ||
                (php && ch == 'f')) {
                if (php && ch == 'f')
                    return j + 1 < n ? i : i + 1;
                if (j + 1 == n)
                    i++;
                break;
            }
        }
    }
    *stdin_code = !via_xargs;
    return SIZE_MAX;
}

void risky_pipe_shell(struct risky_cmd *rc)
{
    bool from_stdin;
    size_t code = code_word(rc, &from_stdin);
    if (code == SIZE_MAX && !from_stdin)
        return;
    const struct sbx_sh *sh = rc->sh;
    const char *src = NULL;
    if (from_stdin) {
        /* any stage before it in the pipeline */
        for (uint32_t u = rc->c->pipe_from; !src && u != SBX_SH_NONE; u = sh->cmds[u].pipe_from)
            src = source_within(rc, u);
    }
    /* a substitution in the code's word, or feeding standard input */
    for (uint32_t j = rc->ci + 1; !src && j < sh->ncmds; j++) {
        const struct sbx_sh_cmd *k = &sh->cmds[j];
        if (k->depth <= rc->c->depth)
            break;
        if (k->parent != rc->ci || k->how == SBX_SH_STRING)
            continue;
        bool at_code = code == SIZE_MAX - 1 ? k->pos > rc->prog : k->pos == code;
        if (at_code || (from_stdin && k->pos == SBX_SH_POS_REDIR))
            src = source_within(rc, j);
    }
    if (src)
        risky_hit(rc, SBX_F_PIPED_TO_SHELL, "%s run by %.*s", src, (int)rc->namelen, rc->name);
}

/* ---- the metadata endpoint ---- */

static const char *const text_only[] = {"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack",
                                        ":", "true", "false", "test", "[", NULL};

void risky_metadata(struct risky_cmd *rc)
{
    if (rc->prog >= rc->c->nwords || risky_name_in(rc, text_only))
        return;
    for (size_t i = 0; i < rc->c->nwords; i++) {
        if (sbx_sh_arg_flags(rc->sh, rc->c, i) & SBX_SH_UNWRAPPED)
            continue; /* read as commands of their own */
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        const char *m = risky_metadata_in(a, n);
        if (m) {
            risky_hit(rc, SBX_F_METADATA_ENDPOINT, "%s by %.*s", m, (int)rc->namelen, rc->name);
            return;
        }
    }
}

/* ---- /etc/hosts ---- */

static bool is_etc_hosts(const char *p, size_t n)
{
    return (n == 10 && memcmp(p, "/etc/hosts", 10) == 0) || (n > 10 && risky_ends_with(p, n, "/etc/hosts"));
}

/* What an echo or printf command writes: its words (options left out),
 * with printf's and echo -e's \n as new lines. */
static void printed(const struct risky_cmd *rc, const struct sbx_sh_cmd *c, size_t prog, struct sbx_buf *out)
{
    bool words = false;
    for (size_t i = prog + 1; i < c->nwords; i++) {
        size_t n;
        const char *a = sbx_sh_arg(rc->sh, c, i, &n);
        if (!words && n > 1 && a[0] == '-' && strspn(a + 1, "neE") == n - 1)
            continue;
        words = true;
        if (out->len)
            sbx_buf_addc(out, ' ');
        for (size_t k = 0; k < n; k++) {
            if (a[k] == '\\' && k + 1 < n && a[k + 1] == 'n') {
                sbx_buf_addc(out, '\n');
                k++;
            } else {
                sbx_buf_addc(out, a[k]);
            }
        }
    }
}

/* Heredocs and here-strings of command c. */
static void fed(const struct sbx_sh *sh, const struct sbx_sh_cmd *c, struct sbx_buf *out)
{
    for (uint32_t k = 0; k < c->nredir; k++) {
        const struct sbx_sh_redir *r = &sh->redirs[c->redir + k];
        if (r->op != SBX_SH_R_HEREDOC && r->op != SBX_SH_R_HERESTR)
            continue;
        size_t n;
        const char *t = sbx_sh_word_text(sh, r->word, &n);
        sbx_buf_addc(out, '\n');
        sbx_buf_add(out, t, n);
    }
}

/* The text a command writes, when its words or input show it. */
static void written_text(const struct risky_cmd *rc, const struct sbx_sh_cmd *c, struct sbx_buf *out)
{
    size_t prog = sbx_sh_program(rc->sh, c), n;
    if (prog >= c->nwords) {
        fed(rc->sh, c, out);
        return;
    }
    const char *b = sbx_sh_basename(rc->sh, c, prog, &n);
    if ((n == 4 && memcmp(b, "echo", 4) == 0) || (n == 6 && memcmp(b, "printf", 6) == 0))
        printed(rc, c, prog, out);
    else if (n == 3 && memcmp(b, "sed", 3) == 0)
        for (size_t i = prog + 1; i < c->nwords; i++) { /* its script: the lines it adds or rewrites */
            size_t an;
            const char *a = sbx_sh_arg(rc->sh, c, i, &an);
            sbx_buf_addc(out, '\n');
            for (size_t k = 0; k < an; k++)
                sbx_buf_addc(out, a[k] == '/' ? ' ' : a[k]);
        }
    else
        fed(rc->sh, c, out);
}

struct hosts_ctx {
    bool hit;
};

static void hosts_target(struct risky_cmd *rc, const char *path, size_t n, bool append, void *ctx)
{
    (void)append;
    struct hosts_ctx *h = ctx;
    if (h->hit || !is_etc_hosts(path, n))
        return;
    struct sbx_buf text = SBX_BUF_INIT;
    written_text(rc, rc->c, &text);
    /* tee writes what is piped into it */
    if (risky_name_is(rc, "tee") && rc->c->pipe_from != SBX_SH_NONE)
        written_text(rc, &rc->sh->cmds[rc->c->pipe_from], &text);
    char why[SBX_RISKY_WHY_MAX - 40];
    if (text.len && sbx_risky_hosts_text(text.p, text.len, why, sizeof why)) {
        h->hit = true;
        risky_hit(rc, SBX_F_HOSTS_REDIRECT, "/etc/hosts gains \"%s\"", why);
    }
    sbx_buf_free(&text);
}

void risky_hosts(struct risky_cmd *rc)
{
    struct hosts_ctx h = {false};
    risky_write_targets(rc, hosts_target, &h);
}

/* An address: dotted IPv4, or IPv6 (hex digits and at least two ':'). */
static bool is_address(const char *s, size_t n)
{
    size_t dots = 0, colons = 0;
    bool v4 = true, v6 = true;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        dots += c == '.';
        colons += c == ':';
        v4 &= (c >= '0' && c <= '9') || c == '.';
        v6 &= (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.';
    }
    return n && ((v4 && dots == 3) || (v6 && colons >= 2));
}

static bool blank(char c) { return c == ' ' || c == '\t'; }

bool sbx_risky_hosts_text(const char *text, size_t n, char *why, size_t whysz)
{
    for (size_t ls = 0; ls < n;) {
        const char *nl = memchr(text + ls, '\n', n - ls);
        size_t le = nl ? (size_t)(nl - text) : n;
        size_t i = ls;
        while (i < le && blank(text[i]))
            i++;
        bool comment = i < le && text[i] == '#';
        /* each token that is an address, then the names after it on the line */
        for (size_t j = i; !comment && j < le;) {
            while (j < le && blank(text[j]))
                j++;
            size_t ts = j;
            while (j < le && !blank(text[j]) && text[j] != '#')
                j++;
            if (j < le && text[j] == '#')
                break;
            if (!is_address(text + ts, j - ts))
                continue;
            for (size_t k = j; k < le;) {
                while (k < le && blank(text[k]))
                    k++;
                size_t hs = k;
                while (k < le && !blank(text[k]) && text[k] != '#')
                    k++;
                if (k == hs || is_address(text + hs, k - hs))
                    break;
                if (risky_registry_host(text + hs, k - hs)) {
                    if (why && whysz) {
                        size_t keep = le - i < whysz - 1 ? le - i : whysz - 1;
                        memcpy(why, text + i, keep);
                        why[keep] = '\0';
                    }
                    return true;
                }
            }
        }
        ls = le + 1;
    }
    return false;
}

/* ---- persistence ---- */

static void persist_target(struct risky_cmd *rc, const char *path, size_t n, bool append, void *ctx)
{
    (void)append;
    (void)ctx;
    const char *what = risky_persistence_path(path, n);
    if (what)
        risky_hit(rc, SBX_F_PERSISTENCE, "writes %s (%.*s)", what, (int)n, path);
}

void risky_persistence(struct risky_cmd *rc)
{
    risky_write_targets(rc, persist_target, NULL);
    const struct sbx_sh_cmd *c = rc->c;
    if (risky_name_is(rc, "crontab")) {
        /* crontab FILE or crontab - installs a table; -l lists, -r removes */
        bool lists = false, file = false;
        for (size_t i = rc->prog + 1; i < c->nwords; i++) {
            size_t n;
            const char *a = risky_arg(rc, i, &n);
            if (n == 2 && a[0] == '-' && (a[1] == 'l' || a[1] == 'r'))
                lists = true;
            else if (n == 2 && a[0] == '-' && a[1] == 'u')
                i++;
            else if ((n == 2 && a[0] == '-' && a[1] == 'e') || !opt(a, n) || (n == 1 && a[0] == '-'))
                file = true;
        }
        if (file && !lists)
            risky_hit(rc, SBX_F_PERSISTENCE, "installs a crontab");
    }
    if (risky_name_is(rc, "systemctl"))
        for (size_t i = rc->prog + 1; i < c->nwords; i++)
            if (risky_arg_is(rc, i, "enable") || risky_arg_is(rc, i, "link") || risky_arg_is(rc, i, "preset")) {
                risky_hit(rc, SBX_F_PERSISTENCE, "systemctl enables a unit");
                break;
            }
}

/* ---- log and history tampering ---- */

/* Whether path is a log: *.log, under /var/log, a shell history, or one of
 * the run's own logs (*own). */
static bool log_path(const struct risky_cmd *rc, const char *p, size_t n, bool *own)
{
    size_t bl;
    const char *b = risky_basename(p, n, &bl);
    *own = risky_history_file(p, n) || (n > 9 && memcmp(p, "/var/log/", 9) == 0);
    for (size_t i = 0; !*own && i < rc->s->nlogs; i++)
        *own = strlen(rc->s->logs[i]) == bl && strncasecmp(rc->s->logs[i], b, bl) == 0;
    if (!*own && bl == 15 && memcmp(b, "agent-run.jsonl", 15) == 0)
        *own = true;
    return *own || (bl > 4 && memcmp(b + bl - 4, ".log", 4) == 0);
}

/* A command that writes nothing of its own: `: > f`, `> f`, `true > f`,
 * `echo -n > f`, `cat /dev/null > f`, `printf '' > f`. */
static bool writes_nothing(const struct risky_cmd *rc)
{
    const struct sbx_sh_cmd *c = rc->c;
    if (rc->prog >= c->nwords)
        return true;
    if (risky_name_is(rc, ":") || risky_name_is(rc, "true"))
        return true;
    size_t left = c->nwords - rc->prog - 1;
    if (risky_name_is(rc, "echo"))
        return left == 0 || (left == 1 && risky_arg_is(rc, rc->prog + 1, "-n"));
    if (risky_name_is(rc, "cat"))
        return left == 1 && risky_arg_is(rc, rc->prog + 1, "/dev/null");
    if (risky_name_is(rc, "printf")) {
        size_t n;
        risky_arg(rc, rc->prog + 1, &n);
        return left == 1 && n == 0;
    }
    return false;
}

static bool from_dev_null(const struct risky_cmd *rc)
{
    for (size_t i = rc->prog + 1; i < rc->c->nwords; i++)
        if (risky_arg_is(rc, i, "/dev/null"))
            return true;
    return false;
}

static void tamper_target(struct risky_cmd *rc, const char *path, size_t n, bool append, void *ctx)
{
    (void)ctx;
    bool own;
    if (!log_path(rc, path, n, &own))
        return;
    bool copy = risky_name_is(rc, "cp") || risky_name_is(rc, "mv") || risky_name_is(rc, "ln") ||
                risky_name_is(rc, "install");
    if (risky_name_is(rc, "sed"))
        risky_hit(rc, SBX_F_LOG_TAMPERING, "edits the log %.*s in place", (int)n, path);
    else if (copy && from_dev_null(rc))
        risky_hit(rc, SBX_F_LOG_TAMPERING, "points %.*s at /dev/null", (int)n, path);
    else if (!append && !copy && writes_nothing(rc))
        risky_hit(rc, SBX_F_LOG_TAMPERING, "truncates %.*s", (int)n, path);
    else if (own && !copy)
        risky_hit(rc, SBX_F_LOG_TAMPERING, "%s the run's own log %.*s", append ? "appends to" : "overwrites",
                  (int)n, path);
}

static bool name_value(const char *a, size_t n, const char *name, const char **val, size_t *vn)
{
    size_t k = strlen(name);
    if (n <= k || strncasecmp(a, name, k) != 0 || a[k] != '=')
        return false;
    *val = a + k + 1;
    *vn = n - k - 1;
    return true;
}

/* Each VAR=value of the command: its prefixes, env's and sudo's, and the
 * words of export, declare, typeset, local and readonly. */
typedef void assign_fn(struct risky_cmd *rc, const char *a, size_t n);
static void each_assignment(struct risky_cmd *rc, assign_fn *fn)
{
    static const char *const declares[] = {"export", "declare", "typeset", "local", "readonly", NULL};
    size_t end = rc->prog < rc->c->nwords && risky_name_in(rc, declares) ? rc->c->nwords : rc->prog;
    for (size_t i = 0; i < end; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        const char *eq = memchr(a, '=', n);
        if (eq && eq > a && a[0] != '-')
            fn(rc, a, n);
    }
}

static void history_assign(struct risky_cmd *rc, const char *a, size_t n)
{
    const char *v;
    size_t vn;
    if (name_value(a, n, "HISTFILE", &v, &vn) && (vn == 0 || (vn == 9 && memcmp(v, "/dev/null", 9) == 0)))
        risky_hit(rc, SBX_F_LOG_TAMPERING, "the shell's history goes to %s", vn ? "/dev/null" : "no file");
    if ((name_value(a, n, "HISTSIZE", &v, &vn) || name_value(a, n, "HISTFILESIZE", &v, &vn) ||
         name_value(a, n, "SAVEHIST", &v, &vn)) &&
        vn == 1 && v[0] == '0')
        risky_hit(rc, SBX_F_LOG_TAMPERING, "the shell keeps no history (%.*s)", (int)n, a);
}

void risky_tampering(struct risky_cmd *rc)
{
    const struct sbx_sh_cmd *c = rc->c;
    each_assignment(rc, history_assign);
    if (rc->prog >= c->nwords) {
        risky_write_targets(rc, tamper_target, NULL);
        return;
    }
    if (risky_name_is(rc, "history")) {
        for (size_t i = rc->prog + 1; i < c->nwords; i++) {
            size_t n;
            const char *a = risky_arg(rc, i, &n);
            if (n > 1 && a[0] == '-' && a[1] != '-' && memchr(a, 'c', n))
                risky_hit(rc, SBX_F_LOG_TAMPERING, "history -c clears the shell's history");
        }
    } else if (risky_name_is(rc, "unset")) {
        for (size_t i = rc->prog + 1; i < c->nwords; i++)
            if (risky_arg_is(rc, i, "HISTFILE"))
                risky_hit(rc, SBX_F_LOG_TAMPERING, "unset HISTFILE: the shell's history is not saved");
    } else if (risky_name_is(rc, "set")) {
        for (size_t i = rc->prog + 1; i + 1 < c->nwords; i++)
            if (risky_arg_is(rc, i, "+o") && risky_arg_is(rc, i + 1, "history"))
                risky_hit(rc, SBX_F_LOG_TAMPERING, "set +o history: the shell stops keeping history");
    } else if (risky_name_is(rc, "rm") || risky_name_is(rc, "unlink") || risky_name_is(rc, "shred") ||
               risky_name_is(rc, "srm") || risky_name_is(rc, "truncate")) {
        bool trunc = risky_name_is(rc, "truncate");
        for (size_t i = rc->prog + 1; i < c->nwords; i++) {
            size_t n;
            const char *a = risky_arg(rc, i, &n);
            if (opt(a, n)) {
                if (trunc && n == 2 && (a[1] == 's' || a[1] == 'r'))
                    i++;
                continue;
            }
            bool own;
            if (log_path(rc, a, n, &own))
                risky_hit(rc, SBX_F_LOG_TAMPERING, "%s the log %.*s", trunc ? "truncates" : "removes", (int)n, a);
        }
    } else if (risky_name_is(rc, "find")) {
        bool deletes = false, logs = false;
        for (size_t i = rc->prog + 1; i < c->nwords; i++) {
            size_t n;
            const char *a = risky_arg(rc, i, &n);
            bool own;
            deletes |= risky_arg_is(rc, i, "-delete") ||
                       (risky_arg_is(rc, i, "-exec") && i + 1 < c->nwords &&
                        (risky_arg_is(rc, i + 1, "rm") || risky_arg_is(rc, i + 1, "truncate")));
            logs |= !opt(a, n) && log_path(rc, a, n, &own);
        }
        if (deletes && logs)
            risky_hit(rc, SBX_F_LOG_TAMPERING, "find deletes logs");
    }
    risky_write_targets(rc, tamper_target, NULL);
}

/* ---- TLS checks ---- */

static void tls_assign(struct risky_cmd *rc, const char *a, size_t n)
{
    const char *v;
    size_t vn;
    bool off = false;
    if (name_value(a, n, "NODE_TLS_REJECT_UNAUTHORIZED", &v, &vn) || name_value(a, n, "PYTHONHTTPSVERIFY", &v, &vn))
        off = vn == 1 && v[0] == '0';
    else if (name_value(a, n, "PIP_TRUSTED_HOST", &v, &vn) || name_value(a, n, "UV_INSECURE_HOST", &v, &vn))
        off = vn > 0;
    else if (name_value(a, n, "GIT_SSL_NO_VERIFY", &v, &vn))
        off = vn > 0 && !(vn == 1 && v[0] == '0') && !(vn == 5 && strncasecmp(v, "false", 5) == 0);
    else if (name_value(a, n, "NPM_CONFIG_STRICT_SSL", &v, &vn) || name_value(a, n, "YARN_STRICT_SSL", &v, &vn))
        off = (vn == 5 && strncasecmp(v, "false", 5) == 0) || (vn == 1 && v[0] == '0');
    if (off) {
        const char *eq = memchr(a, '=', n);
        risky_hit(rc, SBX_F_TLS_OFF, "%.*s turns certificate checks off", (int)(eq - a), a);
    }
}

static bool falsy(const char *v, size_t n)
{
    return (n == 5 && strncasecmp(v, "false", 5) == 0) || (n == 1 && v[0] == '0') ||
           (n == 2 && strncasecmp(v, "no", 2) == 0) || (n == 3 && strncasecmp(v, "off", 3) == 0);
}

/* git's http.sslVerify (or http.<url>.sslVerify) set false in "KEY=VALUE"
 * or KEY VALUE. */
static bool git_ssl_key(const char *a, size_t n)
{
    return n >= 14 && strncasecmp(a, "http.", 5) == 0 && strncasecmp(a + n - 9, "sslverify", 9) == 0;
}

static const char *const pips[] = {"pip", "pip3", "uv", "pipx", "poetry", NULL};

void risky_tls(struct risky_cmd *rc)
{
    const struct sbx_sh_cmd *c = rc->c;
    each_assignment(rc, tls_assign);
    if (rc->prog >= c->nwords)
        return;
    bool curl = risky_name_is(rc, "curl"), wget = risky_name_is(rc, "wget"), git = risky_name_is(rc, "git");
    bool pip = risky_name_in(rc, pips) || is_python(rc->name, rc->namelen);
    bool npm = risky_name_is(rc, "npm") || risky_name_is(rc, "yarn") || risky_name_is(rc, "pnpm");
    bool conda = risky_name_is(rc, "conda") || risky_name_is(rc, "mamba");
    for (size_t i = rc->prog + 1; i < c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if (curl && opt(a, n)) {
            if (a[1] == '-') {
                if ((n == 10 && memcmp(a, "--insecure", 10) == 0) || (n == 16 && memcmp(a, "--proxy-insecure", 16) == 0))
                    risky_hit(rc, SBX_F_TLS_OFF, "curl %.*s", (int)n, a);
                continue;
            }
            for (size_t j = 1; j < n; j++) {
                if (a[j] == 'k') {
                    risky_hit(rc, SBX_F_TLS_OFF, "curl -k (--insecure)");
                    break;
                }
                if (strchr(curl_valued, a[j])) {
                    if (j + 1 == n)
                        i++;
                    break;
                }
            }
        } else if (wget && n == 22 && memcmp(a, "--no-check-certificate", 22) == 0) {
            risky_hit(rc, SBX_F_TLS_OFF, "wget --no-check-certificate");
        } else if (pip && ((n >= 14 && memcmp(a, "--trusted-host", 14) == 0) ||
                           (n >= 21 && memcmp(a, "--allow-insecure-host", 21) == 0) ||
                           risky_ends_with(a, n, ".trusted-host"))) {
            risky_hit(rc, SBX_F_TLS_OFF, "%.*s %.*s", (int)rc->namelen, rc->name, (int)n, a);
        } else if (git) {
            const char *eq = memchr(a, '=', n);
            bool key_eq = eq && git_ssl_key(a, (size_t)(eq - a)) && falsy(eq + 1, n - (size_t)(eq - a) - 1);
            size_t vn = 0;
            const char *v = i + 1 < c->nwords ? risky_arg(rc, i + 1, &vn) : NULL;
            bool key_sp = !eq && git_ssl_key(a, n) && v && falsy(v, vn);
            if (key_eq || key_sp)
                risky_hit(rc, SBX_F_TLS_OFF, "git http.sslVerify false");
        } else if (npm) {
            size_t vn = 0;
            const char *v = i + 1 < c->nwords ? risky_arg(rc, i + 1, &vn) : NULL;
            bool key = (n == 10 && memcmp(a, "strict-ssl", 10) == 0) || (n == 12 && memcmp(a, "--strict-ssl", 12) == 0);
            if ((key && v && falsy(v, vn)) || (n == 16 && memcmp(a, "strict-ssl=false", 16) == 0) ||
                (n == 18 && memcmp(a, "--strict-ssl=false", 18) == 0) || (n == 15 && memcmp(a, "--no-strict-ssl", 15) == 0))
                risky_hit(rc, SBX_F_TLS_OFF, "%.*s strict-ssl false", (int)rc->namelen, rc->name);
        } else if (conda && n == 10 && memcmp(a, "ssl_verify", 10) == 0 && i + 1 < c->nwords) {
            size_t vn;
            const char *v = risky_arg(rc, i + 1, &vn);
            if (falsy(v, vn))
                risky_hit(rc, SBX_F_TLS_OFF, "conda ssl_verify false");
        }
    }
}

/* ---- credential files ---- */

static const char *const readers[] = {
    "cat", "tac", "less", "more", "most", "head", "tail", "nl", "base64", "base32", "basenc", "xxd",
    "od", "hexdump", "strings", "cp", "scp", "rsync", "tar", "zip", "7z", "gzip", "bzip2", "xz",
    "zstd", "gpg", "openssl", "jq", "yq", "grep", "egrep", "fgrep", "rg", "ag", "awk", "gawk", "mawk",
    "sed", "cut", "sort", "uniq", "diff", "cmp", "curl", "wget", "nc", "ncat", "socat", "dd", "perl",
    "ruby", "node", "nodejs", "php", "xclip", "pbcopy", "uuencode", "sqlite3", NULL};

/* Words of the command that name a file it writes, not one it reads. */
static bool written_word(const struct risky_cmd *rc, size_t i)
{
    if (i == 0 || i <= rc->prog)
        return false;
    size_t n;
    const char *prev = risky_arg(rc, i - 1, &n);
    if (risky_name_is(rc, "curl") || risky_name_is(rc, "wget"))
        return (n == 2 && (memcmp(prev, "-o", 2) == 0 || memcmp(prev, "-O", 2) == 0 ||
                           memcmp(prev, "-K", 2) == 0)) ||
               (n == 8 && memcmp(prev, "--output", 8) == 0) || (n == 12 && memcmp(prev, "--netrc-file", 12) == 0) ||
               (n == 8 && memcmp(prev, "--config", 8) == 0);
    if (risky_name_is(rc, "cp") || risky_name_is(rc, "scp") || risky_name_is(rc, "rsync"))
        return i + 1 == rc->c->nwords; /* the destination */
    return false;
}

void risky_credentials(struct risky_cmd *rc)
{
    const struct sbx_sh *sh = rc->sh;
    const struct sbx_sh_cmd *c = rc->c;
    for (uint32_t k = 0; k < c->nredir; k++) {
        const struct sbx_sh_redir *r = &sh->redirs[c->redir + k];
        size_t n;
        const char *t = sbx_sh_word_text(sh, r->word, &n);
        const char *cred;
        if (r->op == SBX_SH_R_IN && (cred = risky_credential_in(t, n))) {
            risky_hit(rc, SBX_F_CREDENTIAL_READ, "reads %s (input of %.*s)", cred, (int)rc->namelen, rc->name);
            return;
        }
    }
    if (rc->prog >= c->nwords)
        return;
    bool reader = risky_name_in(rc, readers) || is_python(rc->name, rc->namelen);
    if (risky_name_is(rc, "sed")) {
        for (size_t i = rc->prog + 1; i < c->nwords; i++) {
            size_t n;
            const char *a = risky_arg(rc, i, &n);
            if (opt(a, n) && a[1] != '-' && memchr(a, 'i', n))
                reader = false; /* sed -i rewrites the file */
        }
    }
    if (!reader)
        return;
    for (size_t i = rc->prog + 1; i < c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        const char *cred = risky_credential_in(a, n);
        if (cred && !written_word(rc, i)) {
            risky_hit(rc, SBX_F_CREDENTIAL_READ, "%.*s reads %s", (int)rc->namelen, rc->name, cred);
            return;
        }
    }
}

/* ---- installed from a URL or a git remote ---- */

static bool url_like(const char *a, size_t n)
{
    static const char *const schemes[] = {"http://", "https://", "ftp://", "git://", "git+", "hg+", "svn+",
                                          "bzr+", "ssh://", "file://", NULL};
    for (const char *const *s = schemes; *s; s++)
        if (n > strlen(*s) && strncasecmp(a, *s, strlen(*s)) == 0)
            return true;
    return false;
}

/* npm's specs that are not the registry's: github:, gitlab:, bitbucket:,
 * gist:, git+…, a URL, owner/repo (npm reads it as GitHub's), and
 * name@<one of those>. */
static bool npm_remote(const char *a, size_t n)
{
    const char *at = n > 1 ? memchr(a + 1, '@', n - 1) : NULL;
    if (at) { /* name@spec, @scope/name@spec */
        size_t k = (size_t)(at - a) + 1;
        a += k;
        n -= k;
    }
    static const char *const hosts[] = {"github:", "gitlab:", "bitbucket:", "gist:", NULL};
    for (const char *const *h = hosts; *h; h++)
        if (n > strlen(*h) && memcmp(a, *h, strlen(*h)) == 0)
            return true;
    if (url_like(a, n))
        return true;
    /* owner/repo: one slash, not a scope, not a path, no version range */
    const char *slash = memchr(a, '/', n);
    return !at && slash && a[0] != '@' && a[0] != '.' && a[0] != '/' && a[0] != '~' &&
           !memchr(slash + 1, '/', n - (size_t)(slash + 1 - a)) && !risky_ends_with(a, n, ".tgz") &&
           !risky_ends_with(a, n, ".tar.gz") && slash > a && slash + 1 < a + n;
}

/* pip's: a URL or VCS spec, or name @ URL (PEP 508), as a word or two. */
static bool pip_remote(const char *a, size_t n)
{
    if (url_like(a, n))
        return true;
    const char *at = memchr(a, '@', n);
    if (!at)
        return false;
    size_t k = (size_t)(at - a) + 1;
    while (k < n && a[k] == ' ')
        k++;
    return url_like(a + k, n - k);
}

void risky_url_install(struct risky_cmd *rc)
{
    const struct sbx_sh_cmd *c = rc->c;
    if (rc->prog >= c->nwords)
        return;
    size_t i = rc->prog + 1;
    bool pip = risky_name_is(rc, "pip") || risky_name_is(rc, "pip3") || risky_name_is(rc, "pipx");
    if (is_python(rc->name, rc->namelen)) { /* python -m pip install */
        for (; i + 1 < c->nwords && !risky_arg_is(rc, i, "-m"); i++)
            ;
        if (i + 1 >= c->nwords || !risky_arg_is(rc, i + 1, "pip"))
            return;
        pip = true;
        i += 2;
    } else if (risky_name_is(rc, "uv")) {
        if (i < c->nwords && risky_arg_is(rc, i, "pip"))
            i++;
        pip = true;
    } else if (risky_name_is(rc, "poetry")) {
        pip = true;
    }
    bool npm = risky_name_is(rc, "npm") || risky_name_is(rc, "pnpm") || risky_name_is(rc, "yarn") ||
               risky_name_is(rc, "bun");
    bool cargo = risky_name_is(rc, "cargo"), gem = risky_name_is(rc, "gem");
    if (!pip && !npm && !cargo && !gem)
        return;
    /* the sub-command, past options */
    while (i < c->nwords) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if (!opt(a, n))
            break;
        i++;
    }
    if (i >= c->nwords)
        return;
    static const char *const installs[] = {"install", "i", "add", "isntall", "in", NULL};
    bool install = false;
    for (const char *const *s = installs; *s; s++)
        install |= risky_arg_is(rc, i, *s);
    if (!install)
        return;
    for (i++; i < c->nwords; i++) {
        size_t n;
        const char *a = risky_arg(rc, i, &n);
        if (cargo && n == 5 && memcmp(a, "--git", 5) == 0) {
            risky_hit(rc, SBX_F_URL_INSTALL, "cargo install --git");
            return;
        }
        if (opt(a, n)) {
            /* values that name where to install from are not packages */
            if (pip && n == 2 && strchr("rcit", a[1]))
                i++;
            if (pip && (risky_ends_with(a, n, "-url") || (n == 14 && memcmp(a, "--trusted-host", 14) == 0)))
                i++;
            if (gem && (n == 8 && memcmp(a, "--source", 8) == 0))
                i++;
            continue;
        }
        bool remote = npm ? npm_remote(a, n) : pip ? pip_remote(a, n) : url_like(a, n);
        if (remote) {
            risky_hit(rc, SBX_F_URL_INSTALL, "%.*s installs %.*s", (int)rc->namelen, rc->name, (int)n, a);
            return;
        }
    }
}
