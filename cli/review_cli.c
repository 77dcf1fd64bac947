#include "cli/review_cli.h"

#include <fcntl.h>
#include <libgen.h>
#include <pwd.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "export/body.h"
#include "export/review_write.h"
#include "importers/review.h"
#include "cli/msg.h"
#include "cli/review_store.h"
#include "cli/s3_fetch.h"

extern char **environ;

/* The folder a review sits in for these inputs: the first input's folder,
 * or the folder it is in; NULL for standard input. Caller frees. */
static char *run_folder(const char *const *inputs, size_t n)
{
    if (!n || strcmp(inputs[0], "-") == 0)
        return NULL;
    struct stat st;
    if (stat(inputs[0], &st) == 0 && S_ISDIR(st.st_mode))
        return sbx_xstrndup(inputs[0], strlen(inputs[0]));
    char *copy = sbx_xstrndup(inputs[0], strlen(inputs[0]));
    char *dir = dirname(copy);
    char *out = sbx_xstrndup(dir, strlen(dir));
    free(copy);
    return out;
}

/* $XDG_STATE_HOME (when absolute, as the XDG rule wants), else
 * $HOME/.local/state, then sbxview/reviews/DIGEST.jsonl. Caller frees. */
static char *state_path(const struct sbx_review_where *w, const char *digest)
{
    struct sbx_buf b = SBX_BUF_INIT;
    if (w->state_home && w->state_home[0] == '/')
        sbx_buf_adds(&b, w->state_home);
    else {
        sbx_buf_adds(&b, w->home && w->home[0] ? w->home : "/tmp");
        sbx_buf_adds(&b, "/.local/state");
    }
    sbx_buf_addf(&b, "/sbxview/reviews/%s.jsonl", digest);
    return b.p;
}

void sbx_review_place_rule(struct sbx_review_place *p, const char *given,
                           const char *const *inputs, size_t n, const char *digest,
                           const struct sbx_review_where *w)
{
    memset(p, 0, sizeof *p);
    if (given) {
        p->read[p->nread++] = sbx_xstrndup(given, strlen(given));
        p->write = sbx_xstrndup(given, strlen(given));
        return;
    }
    char *folder = run_folder(inputs, n);
    if (folder) {
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_adds(&b, folder);
        sbx_buf_addc(&b, '/');
        sbx_buf_adds(&b, SBX_REVIEW_FILE_NAME);
        p->read[p->nread++] = b.p;
        if (w->writable(folder, w->ctx))
            p->write = sbx_xstrndup(b.p, b.len);
        free(folder);
    }
    if (!p->write && digest) { /* no run loaded (a manifest's row): no digest to look under */
        char *s = state_path(w, digest);
        p->read[p->nread++] = s;
        p->write = sbx_xstrndup(s, strlen(s));
        p->make_dirs = true;
    }
}

static bool can_write(const char *dir, void *ctx)
{
    (void)ctx;
    return access(dir, W_OK) == 0;
}

void sbx_review_place_find(struct sbx_review_place *p, const char *given,
                           const char *const *inputs, size_t n, const struct sbx_timeline *tl)
{
    struct sbx_review_where w = {getenv("XDG_STATE_HOME"), getenv("HOME"), can_write, NULL};
    if (!tl) {
        sbx_review_place_rule(p, given, inputs, n, NULL, &w);
        return;
    }
    /* the run digest (a SHA-256 of every source) only when the rule needs it */
    sbx_review_place_rule(p, given, inputs, n, NULL, &w);
    if (p->write)
        return;
    sbx_review_place_free(p);
    struct sbx_export_digests d;
    sbx_export_digests(tl, &d);
    sbx_review_place_rule(p, given, inputs, n, d.run, &w);
    sbx_export_digests_free(&d);
}

void sbx_review_place_free(struct sbx_review_place *p)
{
    for (size_t i = 0; i < p->nread; i++)
        free(p->read[i]);
    free(p->write);
    memset(p, 0, sizeof *p);
}

bool sbx_review_load(const struct sbx_review_place *p, struct sbx_review *r, bool quiet)
{
    bool ok = true;
    for (size_t i = 0; i < p->nread; i++) {
        char err[512];
        if (sbx_is_s3_url(p->read[i])) {
            /* a review in the store: read whole; none yet is an empty one */
            struct sbx_buf b = SBX_BUF_INIT;
            bool missing;
            bool got = sbx_s3_read(p->read[i], SBX_REVIEW_S3_MAX, &b, &missing);
            if (!got)
                ok = false;
            else if (!missing)
                sbx_review_read_bytes(r, sbx_review_add_file(r, p->read[i]), b.p ? b.p : "",
                                      b.len);
            if (!quiet && got)
                sbx_review_unsent_note(p->read[i], b.p, b.len);
            sbx_buf_free(&b);
            continue;
        }
        if (!sbx_review_read_file(r, p->read[i], err, sizeof err)) {
            sbx_errf("%s", err);
            ok = false;
        }
    }
    for (size_t i = 0; i < r->nproblems && !quiet; i++)
        sbx_errf("%s:%u: %s (the line is left out; the rest is read)",
                r->files[r->problems[i].file], r->problems[i].line, r->problems[i].reason);
    return ok;
}

/* `git config KEY`'s value, run without a shell; NULL when git has none. */
static char *git_config(const char *key)
{
    int fds[2];
    if (pipe(fds) != 0)
        return NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"git", "config", "--get", (char *)key, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    struct sbx_buf b = SBX_BUF_INIT;
    if (rc == 0) {
        char chunk[256];
        ssize_t got;
        while ((got = read(fds[0], chunk, sizeof chunk)) > 0 && b.len < 1024)
            sbx_buf_add(&b, chunk, (size_t)got);
        int status;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            b.len = 0;
    }
    close(fds[0]);
    while (b.len && (b.p[b.len - 1] == '\n' || b.p[b.len - 1] == '\r'))
        b.p[--b.len] = '\0';
    if (!b.len) {
        sbx_buf_free(&b);
        return NULL;
    }
    return b.p;
}

char *sbx_review_author(const char *given)
{
    if (given && given[0])
        return sbx_xstrndup(given, strlen(given));
    const char *env = getenv("SBXVIEW_AUTHOR");
    if (env && env[0])
        return sbx_xstrndup(env, strlen(env));
    char *name = git_config("user.name");
    if (name) {
        char *mail = git_config("user.email");
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_adds(&b, name);
        if (mail)
            sbx_buf_addf(&b, " <%s>", mail);
        free(name);
        free(mail);
        return b.p;
    }
    const char *login = getlogin();
    if (!login) {
        struct passwd *pw = getpwuid(getuid());
        login = pw ? pw->pw_name : NULL;
    }
    return sbx_xstrndup(login ? login : "unknown", strlen(login ? login : "unknown"));
}

void sbx_review_of_run(void *ctx, const char *path, const struct sbx_timeline *tl,
                       struct sbx_review *out)
{
    (void)ctx;
    struct sbx_review_place p;
    const char *inputs[1] = {path};
    sbx_review_place_find(&p, NULL, inputs, 1, tl);
    for (size_t i = 0; i < p.nread; i++) {
        char err[512];
        sbx_review_read_file(out, p.read[i], err, sizeof err); /* unreadable: what was read counts */
    }
    sbx_review_place_free(&p);
}

char *sbx_review_s3_beside(const char *run_url, bool folder)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, run_url);
    if (folder && b.p[b.len - 1] != '/') {
        sbx_buf_addc(&b, '/');
    } else if (!folder) { /* beside the object: its key's folder */
        b.len = (size_t)(strrchr(b.p, '/') - b.p) + 1;
        b.p[b.len] = '\0';
    }
    sbx_buf_adds(&b, SBX_REVIEW_FILE_NAME);
    return b.p;
}

bool sbx_review_place_append(const struct sbx_review_place *p, const struct sbx_review_op *op)
{
    if (sbx_is_s3_url(p->write)) {
        struct sbx_buf line = SBX_BUF_INIT;
        sbx_review_op_line(op, &line);
        bool ok = sbx_s3_append(p->write, line.p, line.len, "application/x-ndjson");
        sbx_buf_free(&line);
        return ok;
    }
    char err[512];
    if (sbx_review_append(p->write, op, p->make_dirs, err, sizeof err))
        return true;
    sbx_errf("%s", err);
    return false;
}
