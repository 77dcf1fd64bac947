/* Write targets: the files a shell command line writes, removes or
 * creates, read from its text, each with the rule that found it.
 *
 * The line is read with shell quoting ('…', "…", $'…', backslash), split
 * into simple commands at ; && || | |& & ( ) and newlines, heredoc bodies
 * attached to the command that opened them. A simple command's leading
 * VAR=value words and the wrappers sudo, env, command, exec, nohup, nice,
 * time and timeout are passed over; `bash -c STRING` (sh, dash, zsh, ksh)
 * is read as a line of its own, up to 4 levels deep. The rules are the
 * rows of SBX_WRITE_RULES, and docs/architecture.md ("Which command wrote
 * each file") states what each one reads.
 *
 * A target is resolved against the cwd (and any `cd DIR` / `pushd DIR`
 * before it on the line; a subshell's cd ends with it): "." and ".."
 * parts collapsed, an absolute cwd gives an absolute path, no cwd a
 * relative one. A word with an expansion ($, `…`, a leading ~, a wildcard)
 * names no one path and gives no target; nor does a word holding a NUL
 * byte, nor anything under /dev/,
 * nor a descriptor copy (2>&1, >&-); after `cd` to such a word, relative
 * targets are dropped. A target is a folder's tree (rm -r, cp -r, mv,
 * git checkout --, "patch ran in cwd") when the path and everything beneath
 * it are its. Text: what the command writes into the target when its own
 * text shows it — echo and printf arguments (%s and %% only), a heredoc's
 * body, either through a pipe into tee.
 *
 * Any bytes are accepted; time is linear in the line's length (plus the
 * targets' lengths), no global state: safe from any thread. Ownership:
 * nothing is kept; the target given to the callback and its strings are
 * valid only during the call. */
#ifndef SBX_WRITERS_H
#define SBX_WRITERS_H

#include <stdbool.h>
#include <stddef.h>

/* X(ID, words people read) */
#define SBX_WRITE_RULES(X)                       \
    X(REDIRECT, "> redirection")                 \
    X(APPEND, ">> redirection")                  \
    X(HEREDOC, "heredoc")                        \
    X(TEE, "tee")                                \
    X(SED, "sed -i")                             \
    X(CP, "cp")                                  \
    X(MV, "mv")                                  \
    X(INSTALL, "install")                        \
    X(LN, "ln")                                  \
    X(RM, "rm")                                  \
    X(TOUCH, "touch")                            \
    X(MKDIR, "mkdir")                            \
    X(PATCH, "patch")                            \
    X(PATCH_CWD, "patch ran in cwd")             \
    X(GIT_APPLY, "git apply")                    \
    X(GIT_APPLY_CWD, "git apply ran in cwd")     \
    X(GIT_CHECKOUT, "git checkout --")           \
    X(GIT_RESTORE, "git restore")                \
    X(PYTHON_OPEN, "python open()")

enum sbx_write_rule {
#define SBX_WR_ENUM(id, words) SBX_WRITE_##id,
    SBX_WRITE_RULES(SBX_WR_ENUM)
#undef SBX_WR_ENUM
        SBX_WRITE_RULE_COUNT
};

/* The rule's words ("sed -i"), static. */
const char *sbx_write_rule_words(enum sbx_write_rule r);

struct sbx_write_target {
    const char *path; /* resolved, NUL-terminated */
    size_t len;
    enum sbx_write_rule rule;
    bool removes;     /* rm, mv's sources, a patch deleting a file */
    bool tree;        /* the path and everything beneath it */
    const char *text; /* what is written into it, or NULL when unknown */
    size_t textlen;
};

/* Calls cb once per target of cmd[0..n), in the line's order; cwd (NULL or
 * "" when unknown) is where the line started. Returns the number of calls. */
size_t sbx_write_targets(const char *cmd, size_t n, const char *cwd,
                         void (*cb)(const struct sbx_write_target *t, void *ctx), void *ctx);

/* False only when cmd[0..n) can name no target: it holds no '>', no
 * backslash, no $ before a quote, and no word (its quotes left out) whose
 * basename is a program a rule reads (git only with a sub-command that
 * writes, python only with "open(" on the line). sbx_write_targets asks
 * it first; one pass over the bytes, any bytes. */
bool sbx_write_may_target(const char *cmd, size_t n);

/* sbx_write_targets without asking sbx_write_may_target first: the same
 * calls, for the tests that check the prefilter never drops a target. */
size_t sbx_write_targets_read(const char *cmd, size_t n, const char *cwd,
                              void (*cb)(const struct sbx_write_target *t, void *ctx), void *ctx);

/* The work sbx_write_targets does on cmd[0..n): the bytes its lexer and
 * word readers look at, each token, word and option walked, each path
 * byte resolved. It grows linearly with the line whatever it holds; the
 * tests check that instead of timing. */
size_t sbx_write_work(const char *cmd, size_t n, const char *cwd);

#endif
