/* The tables the risky rules read: which paths, hosts and words they are
 * about (docs/risky-commands.md lists them). */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "analyses/risky_internal.h"

bool risky_ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return n >= k && memcmp(s, prefix, k) == 0;
}

const char *risky_basename(const char *p, size_t n, size_t *len)
{
    while (n > 1 && p[n - 1] == '/')
        n--;
    const char *slash = n ? memrchr(p, '/', n) : NULL;
    const char *b = slash ? slash + 1 : p;
    *len = (size_t)(p + n - b);
    return b;
}

static bool in_list(const char *s, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == n && memcmp(*list, s, n) == 0)
            return true;
    return false;
}

/* Whether path p ends with suffix, starting at a folder boundary. */
static bool ends_at_folder(const char *p, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return risky_ends_with(p, n, suffix) && (n == k || p[n - k - 1] == '/');
}

/* Where part is inside path p, or NULL. */
static const char *contains(const char *p, size_t n, const char *part)
{
    return n >= strlen(part) ? memmem(p, n, part, strlen(part)) : NULL;
}

static const char *const rc_files[] = {
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile",
    ".zshenv", ".zlogin", ".kshrc", ".cshrc", ".tcshrc", ".mkshrc", NULL};
static const char *const etc_shell[] = {
    "/etc/profile", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zshrc", "/etc/zprofile",
    "/etc/zshenv", "/etc/zsh/zshrc", "/etc/zsh/zprofile", "/etc/zsh/zshenv", "/etc/environment",
    NULL};

const char *risky_persistence_path(const char *p, size_t n)
{
    size_t bl;
    const char *b = risky_basename(p, n, &bl);
    while (n > 1 && p[n - 1] == '/')
        n--;
    if (in_list(b, bl, rc_files) || in_list(p, n, etc_shell) || starts_with(p, n, "/etc/profile.d") ||
        ends_at_folder(p, n, "fish/config.fish") || contains(p, n, "fish/conf.d/"))
        return "a shell's startup file";
    if (starts_with(p, n, "/etc/cron") || starts_with(p, n, "/var/spool/cron") ||
        starts_with(p, n, "/etc/anacrontab"))
        return "cron";
    if (starts_with(p, n, "/etc/systemd/") || starts_with(p, n, "/lib/systemd/") ||
        starts_with(p, n, "/usr/lib/systemd/") || starts_with(p, n, "/run/systemd/system") ||
        contains(p, n, ".config/systemd/") || ends_at_folder(p, n, ".config/systemd"))
        return "a systemd unit";
    if ((bl == 15 && memcmp(b, "authorized_keys", 15) == 0) ||
        (bl == 16 && memcmp(b, "authorized_keys2", 16) == 0))
        return "authorized_keys";
    if (starts_with(p, n, "/etc/init.d/") || (n == 13 && memcmp(p, "/etc/rc.local", 13) == 0) ||
        contains(p, n, ".config/autostart/") || (n == 18 && memcmp(p, "/etc/ld.so.preload", 18) == 0))
        return "a start-up script";
    return NULL;
}

static const char *const history_files[] = {
    ".bash_history", ".zsh_history", ".sh_history", ".history", ".histfile", ".python_history",
    ".node_repl_history", ".psql_history", ".mysql_history", ".sqlite_history", ".lesshst", NULL};

bool risky_history_file(const char *p, size_t n)
{
    size_t bl;
    const char *b = risky_basename(p, n, &bl);
    return in_list(b, bl, history_files);
}

/* Credential files: matched at a path boundary, not followed by more of a
 * name (id_rsa, not id_rsa.pub). */
static const char *const credentials[] = {
    ".aws/credentials", ".netrc", "_netrc", ".git-credentials", "id_rsa", "id_ed25519", "id_ecdsa",
    "id_dsa", "id_ecdsa_sk", "id_ed25519_sk", ".docker/config.json", ".npmrc", ".pypirc",
    "gcloud/credentials.db", "gcloud/access_tokens.db", "gcloud/application_default_credentials.json",
    ".kube/config", "gh/hosts.yml", ".vault-token", ".azure/accessTokens.json",
    ".config/hub", ".gem/credentials", ".cargo/credentials", ".cargo/credentials.toml", NULL};

static bool name_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

const char *risky_credential_in(const char *w, size_t n)
{
    for (const char *const *c = credentials; *c; c++) {
        size_t k = strlen(*c);
        for (const char *at = w; at && (size_t)(w + n - at) >= k;) {
            const char *hit = memmem(at, (size_t)(w + n - at), *c, k);
            if (!hit)
                break;
            bool before = hit == w || hit[-1] == '/' || (!name_byte((unsigned char)hit[-1]) && (*c)[0] == '.');
            bool after = hit + k == w + n || !name_byte((unsigned char)hit[k]);
            if (before && after)
                return *c;
            at = hit + 1;
        }
    }
    return NULL;
}

/* Package registries, source hosts and the APIs an agent talks to. A name
 * under one (upload.pypi.org) counts too. */
static const char *const registry_hosts[] = {
    "pypi.org", "pythonhosted.org", "registry.npmjs.org", "npmjs.org", "npmjs.com",
    "registry.yarnpkg.com", "github.com", "githubusercontent.com", "ghcr.io", "gitlab.com",
    "bitbucket.org", "deb.debian.org", "security.debian.org", "ftp.debian.org", "archive.ubuntu.com",
    "security.ubuntu.com", "ports.ubuntu.com", "dl-cdn.alpinelinux.org", "mirrors.fedoraproject.org",
    "docker.io", "docker.com", "quay.io", "gcr.io", "crates.io", "rubygems.org", "repo.maven.apache.org",
    "repo1.maven.org", "proxy.golang.org", "sum.golang.org", "golang.org", "go.dev", "packagist.org",
    "nuget.org", "anaconda.org", "anaconda.com", "conda-forge.org", "cran.r-project.org",
    "api.openai.com", "api.anthropic.com", "huggingface.co", NULL};

bool risky_registry_host(const char *h, size_t n)
{
    while (n && h[n - 1] == '.')
        n--;
    for (const char *const *r = registry_hosts; *r; r++) {
        size_t k = strlen(*r);
        if (n == k && strncasecmp(h, *r, k) == 0)
            return true;
        if (n > k && h[n - k - 1] == '.' && strncasecmp(h + n - k, *r, k) == 0)
            return true;
    }
    return false;
}

/* The metadata endpoints of the clouds (AWS, GCP, Azure, Alibaba; ECS's
 * task endpoint), and 169.254.169.254 written as one number. */
static const char *const metadata_hosts[] = {
    "169.254.169.254", "fd00:ec2::254", "metadata.google.internal", "metadata.goog", "169.254.170.2",
    "100.100.100.200", "instance-data.ec2.internal", "2852039166", "0xa9fea9fe", NULL};

static bool host_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
}

const char *risky_metadata_in(const char *w, size_t n)
{
    for (const char *const *m = metadata_hosts; *m; m++) {
        size_t k = strlen(*m);
        bool v6 = strchr(*m, ':') != NULL;
        for (const char *at = w; (size_t)(w + n - at) >= k;) {
            const char *hit = memmem(at, (size_t)(w + n - at), *m, k);
            if (!hit)
                break;
            unsigned char b = hit == w ? ' ' : (unsigned char)hit[-1];
            unsigned char a = hit + k == w + n ? ' ' : (unsigned char)hit[k];
            bool ok = !host_byte(b) && !host_byte(a) && (!v6 || (b != ':' && a != ':'));
            if (ok)
                return *m;
            at = hit + 1;
        }
    }
    return NULL;
}

bool sbx_risky_metadata_host(const char *host, size_t n)
{
    if (n > 2 && host[0] == '[' && host[n - 1] == ']') { /* an IPv6 address as URLs write it */
        host++;
        n -= 2;
    }
    const char *m = risky_metadata_in(host, n);
    return m && strlen(m) == n;
}

/* The prefilter's words: every rule needs one of these in the line (lowered,
 * with quotes and backslashes left out); a second word, when given, must be
 * there too (curl is common: it is risky only piped, with -k, …). */
struct needle {
    const char *a, *b;
};
static const struct needle needles[] = {
    /* piped to a shell: a source, and a pipe or a substitution */
    {"curl", "|"}, {"curl", "<("}, {"curl", "$("}, {"curl", "`"},
    {"wget", "|"}, {"wget", "<("}, {"wget", "$("}, {"wget", "`"},
    {"base64", "|"}, {"base64", "<("}, {"base64", "$("}, {"base64", "`"},
    {"base32", "|"}, {"basenc", "|"}, {"openssl", "|"}, {"openssl", "$("}, {"xxd", "|"}, {"xxd", "$("},
    /* metadata */
    {"169.254.", NULL}, {"metadata", NULL}, {"fd00:ec2", NULL}, {"100.100.100.200", NULL},
    {"2852039166", NULL}, {"0xa9fea9fe", NULL}, {"instance-data", NULL},
    /* hosts */
    {"hosts", NULL},
    /* persistence */
    {"shrc", NULL}, {"rc.local", NULL}, {"profile", NULL}, {"bash_", NULL}, {"zshenv", NULL},
    {"zlogin", NULL}, {"cron", NULL}, {"systemd", NULL}, {"systemctl", NULL},
    {"authorized_keys", NULL}, {"autostart", NULL}, {"init.d", NULL}, {"preload", NULL},
    {"environment", NULL}, {"fish", NULL},
    /* tampering: history, and *.log, /var/log (the run's own logs are added) */
    {"hist", NULL}, {".log", NULL}, {"/log", NULL},
    /* TLS */
    {"curl", "k"}, {"insecure", NULL}, {"check-certificate", NULL}, {"trusted", NULL},
    {"reject_unauthorized", NULL}, {"sslverify", NULL}, {"strict", NULL}, {"httpsverify", NULL},
    {"ssl_no_verify", NULL}, {"ssl_verify", NULL},
    /* credentials */
    {"credentials", NULL}, {"netrc", NULL}, {"id_rsa", NULL}, {"id_ed25519", NULL},
    {"id_ecdsa", NULL}, {"id_dsa", NULL}, {"config.json", NULL}, {"npmrc", NULL},
    {"pypirc", NULL}, {"kube", NULL}, {"hosts.yml", NULL}, {"vault-token", NULL},
    {"accesstokens", NULL}, {".config/hub", NULL},
    /* installed from a URL or a git remote */
    {"pip", "://"}, {"pip", "+"}, {"uv", "://"}, {"uv", "+"}, {"poetry", "://"}, {"poetry", "+"},
    {"gem", "://"}, {"--git", NULL}, {"npm", "/"}, {"npm", ":"}, {"yarn", "/"}, {"yarn", ":"},
    {"bun", "/"}, {"bun", ":"},
};

_Static_assert(sizeof needles / sizeof needles[0] <= SBX_RISKY_NEEDLES, "SBX_RISKY_NEEDLES");

static inline unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* The words the needles and the run's logs are made of, each once, and the
 * pairs of bytes they start with: the scan looks a word up only where its
 * first two bytes are. */
static size_t word_id(struct sbx_risky_words *w, const char *s)
{
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->s[i], s) == 0)
            return i;
    if (w->n == SBX_RISKY_WORDS_MAX)
        return SIZE_MAX;
    w->s[w->n] = s;
    w->len[w->n] = strlen(s);
    unsigned k = (unsigned char)s[0] << 8 | (unsigned char)s[1];
    w->starts[k >> 6] |= 1ull << (k & 63);
    w->next[w->n] = w->head[k];
    w->head[k] = (uint8_t)(w->n + 1);
    return w->n++;
}

static void fold_tab_build(void);

void risky_words_build(struct sbx_risky_scanner *s)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fold_tab_build);
    struct sbx_risky_words *w = &s->words;
    memset(w, 0, sizeof *w);
    for (size_t k = 0; k < sizeof needles / sizeof needles[0]; k++) {
        s->need_a[k] = word_id(w, needles[k].a);
        s->need_b[k] = needles[k].b && needles[k].b[1] ? word_id(w, needles[k].b) : SIZE_MAX;
    }
    for (size_t i = 0; i < s->nlogs; i++)
        if (s->logs[i][0] && s->logs[i][1])
            word_id(w, s->logs[i]);
}

/* The words found in t[0..n) (lowered already, or folded here), as bits.
 * Unless lowered, false at the first quote or backslash (nothing found:
 * the words are looked for again in the text as the shell joins it). */
/* Each byte folded to lower case; 0 for a quote or a backslash (and 1 for
 * NUL, which no word holds). */
static unsigned char fold_tab[256];

static void fold_tab_build(void)
{
    for (unsigned c = 0; c < 256; c++)
        fold_tab[c] = c == '\'' || c == '"' || c == '\\' ? 0 : c == 0 ? 1 : fold((unsigned char)c);
}

static bool find_words(const struct sbx_risky_words *w, const unsigned char *t, size_t n, bool lowered,
                       uint64_t found[2])
{
    if (!n)
        return true;
    unsigned c0 = lowered ? t[0] : fold_tab[t[0]];
    if (!c0)
        return false;
    for (size_t i = 0; i + 1 < n; i++) {
        unsigned c1 = lowered ? t[i + 1] : fold_tab[t[i + 1]], k = c0 << 8 | c1;
        if (!c1)
            return false;
        c0 = c1;
        if (!(w->starts[k >> 6] >> (k & 63) & 1))
            continue;
        for (unsigned id = w->head[k]; id; id = w->next[id - 1]) {
            size_t j = id - 1, len = w->len[j];
            if (len > n - i || (found[j >> 6] >> (j & 63) & 1))
                continue;
            size_t m = 2;
            while (m < len && (lowered ? t[i + m] : fold_tab[t[i + m]]) == (unsigned char)w->s[j][m])
                m++;
            if (m == len)
                found[j >> 6] |= 1ull << (j & 63);
        }
    }
    return true;
}

bool risky_might(struct sbx_risky_scanner *s, const char *text, size_t n)
{
    const unsigned char *t = (const unsigned char *)text;
    uint64_t found[2] = {0, 0};
    if (!find_words(&s->words, t, n, false, found)) {
        /* c""url: the words as the shell will join them */
        if (risky_lower(&s->low, text, n))
            return true; /* $'…' can spell any word: such a line is always read */
        t = (const unsigned char *)s->low.p;
        n = s->low.len;
        found[0] = found[1] = 0;
        find_words(&s->words, t, n, true, found);
    }
    if (!found[0] && !found[1])
        return false;
#define HAS(id) ((id) != SIZE_MAX && (found[(id) >> 6] >> ((id) & 63) & 1))
    for (size_t k = 0; k < sizeof needles / sizeof needles[0]; k++) {
        if (!HAS(s->need_a[k]))
            continue;
        const char *b = needles[k].b;
        if (!b || (b[1] ? HAS(s->need_b[k]) : memchr(t, b[0], n) != NULL))
            return true;
    }
    for (size_t i = 0; i < s->nlogs; i++) {
        size_t len = strlen(s->logs[i]);
        for (size_t j = 0; j < s->words.n; j++)
            if (s->words.len[j] == len && strcmp(s->words.s[j], s->logs[i]) == 0 && HAS(j))
                return true;
    }
#undef HAS
    return false;
}
