/* What the risky rules (risky_rules.c) share: the command being judged and
 * the tables of paths, hosts and programs (risky_tables.c). Internal to
 * analyses/. Nothing here allocates but the scanner (risky.h). */
#ifndef SBX_RISKY_INTERNAL_H
#define SBX_RISKY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyses/risky.h"
#include "base/buf.h"
#include "model/shell.h"

enum { SBX_RISKY_WORDS_MAX = 128, SBX_RISKY_NEEDLES = 96 };

/* The prefilter's words (risky_tables.c): their texts, lengths, and the
 * words by the pair of bytes they start with. */
struct sbx_risky_words {
    const char *s[SBX_RISKY_WORDS_MAX];
    size_t len[SBX_RISKY_WORDS_MAX];
    size_t n;
    uint64_t starts[65536 / 64];       /* a bit per first two bytes (8 KiB: stays in cache) */
    uint8_t head[65536];               /* by first two bytes: 1 + the first word's id, 0 none */
    uint8_t next[SBX_RISKY_WORDS_MAX]; /* 1 + the next word with the same two, 0 none */
};

struct sbx_risky_scanner {
    struct sbx_sh sh;
    struct sbx_buf low;      /* the line lowered, quotes and backslashes left out: the prefilter's */
    struct sbx_buf tmp;      /* a rule's scratch */
    char **logs;             /* the run's own log names, owned */
    size_t nlogs;
    struct sbx_risky_why *why; /* the current call's, or NULL */
    struct sbx_risky_words words;
    size_t need_a[SBX_RISKY_NEEDLES], need_b[SBX_RISKY_NEEDLES]; /* word ids; SIZE_MAX: none */
    uint32_t found;
    size_t steps; /* the last line's work (sbx_risky_work) */
};

/* One simple command of the line being judged. */
struct risky_cmd {
    struct sbx_risky_scanner *s;
    const struct sbx_sh *sh;
    uint32_t ci;
    const struct sbx_sh_cmd *c;
    size_t prog;        /* index of the program word, or c->nwords */
    const char *name;   /* its basename ("" when none) */
    size_t namelen;
};

/* Records kind with a reason (printf-style); the first reason is kept. */
void risky_hit(struct risky_cmd *rc, uint32_t kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Word i of the command. */
const char *risky_arg(const struct risky_cmd *rc, size_t i, size_t *len);
bool risky_arg_is(const struct risky_cmd *rc, size_t i, const char *lit);
bool risky_name_is(const struct risky_cmd *rc, const char *lit);
bool risky_name_in(const struct risky_cmd *rc, const char *const *list);

/* The rules, one per kind (risky_rules*.c). */
void risky_pipe_shell(struct risky_cmd *rc);
void risky_metadata(struct risky_cmd *rc);
void risky_hosts(struct risky_cmd *rc);
void risky_persistence(struct risky_cmd *rc);
void risky_tampering(struct risky_cmd *rc);
void risky_tls(struct risky_cmd *rc);
void risky_credentials(struct risky_cmd *rc);
void risky_url_install(struct risky_cmd *rc);

/* Each file the command writes: redirections, tee, cp/mv/install/ln's
 * destination (with each source's name when it is a folder), sed -i's
 * files, dd of=, truncate's files. append: >> or tee -a. */
typedef void risky_target_fn(struct risky_cmd *rc, const char *path, size_t n, bool append, void *ctx);
void risky_write_targets(struct risky_cmd *rc, risky_target_fn *fn, void *ctx);

/* The tables (risky_tables.c). A path's category, or NULL: */
const char *risky_persistence_path(const char *p, size_t n);  /* "a shell rc file", "cron", … */
const char *risky_credential_in(const char *w, size_t n);     /* a credential path inside w */
bool risky_history_file(const char *p, size_t n);             /* ~/.bash_history and the like */
/* A host under a registry, source or API host of the table. */
bool risky_registry_host(const char *h, size_t n);
/* A metadata endpoint inside word w (with host boundaries), or NULL. */
const char *risky_metadata_in(const char *w, size_t n);
/* A path's last part (after the last '/', trailing slashes left out), and
 * whether s ends with suffix. */
const char *risky_basename(const char *p, size_t n, size_t *len);
bool risky_ends_with(const char *s, size_t n, const char *suffix);

/* The prefilter: whether the line may hold any rule's words, or $'…'
 * (lowered into s->low, quotes and backslashes left out, when it holds
 * any of them). */
bool risky_might(struct sbx_risky_scanner *s, const char *text, size_t n);
/* Fills s->words from the needles and s->logs. */
void risky_words_build(struct sbx_risky_scanner *s);
/* text lowered, quotes and backslashes left out, into b; whether it holds
 * $'…' (ANSI-C quoting, which can spell any word). */
bool risky_lower(struct sbx_buf *b, const char *text, size_t n);

#endif
