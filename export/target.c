#include "export/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

static const char *const kind_names[] = {"file", "github", "gitlab", "jira", "slack"};

const char *sbx_target_kind_name(enum sbx_target_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

static bool fail(char *err, size_t errsz, const char *msg)
{
    if (errsz)
        snprintf(err, errsz, "%s", msg);
    return false;
}

static bool alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* A decimal 1..2147483647 without a leading zero, the whole of s[0..n). */
static bool number(const char *s, size_t n, uint32_t *v)
{
    if (n == 0 || n > 10 || s[0] == '0')
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    if (x > 2147483647u)
        return false;
    *v = (uint32_t)x;
    return true;
}

/* "PATH#N": the position of the last '#', and N. */
static bool split_number(const char *s, size_t *hash, uint32_t *n)
{
    const char *h = strrchr(s, '#');
    if (!h)
        return false;
    *hash = (size_t)(h - s);
    return number(h + 1, strlen(h + 1), n);
}

static bool github_owner(const char *s, size_t n)
{
    if (n == 0 || n > 39 || s[0] == '-')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!alnum(s[i]) && s[i] != '-')
            return false;
    return true;
}

/* A repository name, or one GitLab path segment (max 100 or 255). */
static bool name_segment(const char *s, size_t n, size_t max)
{
    if (n == 0 || n > max || s[0] == '-' || s[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
            return false;
    return true;
}

static bool parse_github(const char *s, struct sbx_target *t, char *err, size_t errsz)
{
    size_t hash;
    uint32_t n;
    static const char rule[] = "a GitHub target is github:OWNER/REPO#N (OWNER of letters, digits "
                               "and '-', REPO of letters, digits, '.', '_' and '-', N the issue "
                               "or pull request number)";
    if (!split_number(s, &hash, &n))
        return fail(err, errsz, rule);
    const char *slash = memchr(s, '/', hash);
    if (!slash || !github_owner(s, (size_t)(slash - s)) ||
        !name_segment(slash + 1, hash - (size_t)(slash - s) - 1, 100))
        return fail(err, errsz, rule);
    t->owner = sbx_xstrndup(s, (size_t)(slash - s));
    t->repo = sbx_xstrndup(slash + 1, hash - (size_t)(slash - s) - 1);
    t->number = n;
    return true;
}

static bool parse_gitlab(const char *s, struct sbx_target *t, char *err, size_t errsz)
{
    size_t hash;
    uint32_t n;
    static const char rule[] = "a GitLab target is gitlab:GROUP/PROJECT#N or with subgroups "
                               "gitlab:GROUP/SUB/PROJECT#N (each part of letters, digits, '.', "
                               "'_' and '-', not starting with '.' or '-'; N the issue number)";
    if (!split_number(s, &hash, &n) || hash > 2048)
        return fail(err, errsz, rule);
    size_t segments = 0, start = 0;
    for (size_t i = 0; i <= hash; i++) {
        if (i < hash && s[i] != '/')
            continue;
        size_t len = i - start;
        if (!name_segment(s + start, len, 255) ||
            (len >= 4 && memcmp(s + i - 4, ".git", 4) == 0) ||
            (len >= 5 && memcmp(s + i - 5, ".atom", 5) == 0))
            return fail(err, errsz, rule);
        segments++;
        start = i + 1;
    }
    if (segments < 2 || segments > 21)
        return fail(err, errsz, rule);
    t->project = sbx_xstrndup(s, hash);
    t->number = n;
    return true;
}

static bool parse_jira(const char *s, struct sbx_target *t, char *err, size_t errsz)
{
    static const char rule[] = "a Jira target is jira:KEY-123 (the project key in capitals: a "
                               "letter, then letters, digits or '_'; then '-' and the number)";
    const char *dash = strrchr(s, '-');
    uint32_t n;
    if (!dash || dash == s || dash - s > 255 || !number(dash + 1, strlen(dash + 1), &n) ||
        !(s[0] >= 'A' && s[0] <= 'Z'))
        return fail(err, errsz, rule);
    for (const char *p = s; p < dash; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return fail(err, errsz, rule);
    t->key = sbx_xstrndup(s, strlen(s));
    t->number = n;
    return true;
}

bool sbx_target_parse(const char *s, struct sbx_target *t, char *err, size_t errsz)
{
    memset(t, 0, sizeof *t);
    if (!s || !*s)
        return fail(err, errsz, "no export target given (--to github:OWNER/REPO#N, "
                                "gitlab:GROUP/PROJECT#N, jira:KEY-123, slack: or file:PATH.md)");
    /* "WORD:" names a kind; anything else is a path */
    size_t w = 0;
    while (alnum(s[w]) || s[w] == '-')
        w++;
    if (w == 0 || s[w] != ':') {
        t->kind = SBX_TARGET_FILE;
        t->path = sbx_xstrndup(s, strlen(s));
        return true;
    }
    const char *rest = s + w + 1;
    if (w == 4 && memcmp(s, "file", 4) == 0) {
        if (!*rest)
            return fail(err, errsz, "file: needs a path (file:summary.md, or file:- for standard output)");
        t->kind = SBX_TARGET_FILE;
        t->path = sbx_xstrndup(rest, strlen(rest));
        return true;
    }
    if (w == 6 && memcmp(s, "github", 6) == 0) {
        t->kind = SBX_TARGET_GITHUB;
        return parse_github(rest, t, err, errsz);
    }
    if (w == 6 && memcmp(s, "gitlab", 6) == 0) {
        t->kind = SBX_TARGET_GITLAB;
        return parse_gitlab(rest, t, err, errsz);
    }
    if (w == 4 && memcmp(s, "jira", 4) == 0) {
        t->kind = SBX_TARGET_JIRA;
        return parse_jira(rest, t, err, errsz);
    }
    if (w == 5 && memcmp(s, "slack", 5) == 0) {
        if (*rest)
            return fail(err, errsz, "slack: takes nothing after the colon: the webhook's URL is a "
                                    "secret, read from SLACK_WEBHOOK_URL");
        t->kind = SBX_TARGET_SLACK;
        return true;
    }
    return fail(err, errsz, "unknown export target kind (use github:, gitlab:, jira:, slack: or "
                            "file:; a path that holds a colon: ./NAME)");
}

void sbx_target_free(struct sbx_target *t)
{
    free(t->path);
    free(t->owner);
    free(t->repo);
    free(t->project);
    free(t->key);
    memset(t, 0, sizeof *t);
}

bool sbx_target_format(const struct sbx_target *t, char *buf, size_t n)
{
    int r = -1;
    switch (t->kind) {
    case SBX_TARGET_FILE: r = snprintf(buf, n, "file:%s", t->path ? t->path : ""); break;
    case SBX_TARGET_GITHUB: r = snprintf(buf, n, "github:%s/%s#%u", t->owner, t->repo, t->number); break;
    case SBX_TARGET_GITLAB: r = snprintf(buf, n, "gitlab:%s#%u", t->project, t->number); break;
    case SBX_TARGET_JIRA: r = snprintf(buf, n, "jira:%s", t->key); break;
    case SBX_TARGET_SLACK: r = snprintf(buf, n, "slack:"); break;
    }
    return r >= 0 && (size_t)r < n;
}
