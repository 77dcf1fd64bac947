/* sbx_sh: a shell command line read into its simple commands, each with its
 * words (quotes removed), its VAR=value prefixes, its redirections, the
 * pipe that joins it to the next command, and the commands nested in it.
 * What analyses/risky.c reads; model/program.h keeps Runtime's own rule for
 * the program label.
 *
 * Reading: '…', "…", $'…' and backslashes are removed as the shell does; a
 * word keeps $NAME, ${…}, $((…)) as written (flag SBX_SH_EXPANDS). Commands
 * are split at ; & && || | |& newlines ( ) and the reserved words { } ! if
 * then elif else fi do done while until time; a command starting with for,
 * select, case or [[ has no program and is kept as words only. Redirections
 * ([n]> >> >| < <> &> &>> >& <& <<< << <<-) take their target out of the
 * words; a heredoc's target is its body (the lines after the command line up
 * to the delimiter). $(…), `…`, <(…) and >(…) are read as commands of their
 * own, nested in the command whose word holds them (how SUBST or PROCSUB);
 * their text stays in the word as written. The string of `bash -c STRING`
 * (sh, zsh, dash, ksh, ash too, after sudo/env/nohup/nice/time/command/exec/
 * timeout/stdbuf), and the words of `eval …`, are read as commands nested in
 * it (how STRING), their word marked SBX_SH_UNWRAPPED. Nesting stops at
 * SBX_SH_MAX_DEPTH: deeper text stays in its word, unread.
 *
 * Any bytes are accepted (NUL, invalid UTF-8; an unbalanced quote ends at the
 * end of the input). Time and memory are linear in n times the depth.
 *
 * Ownership: a struct sbx_sh owns its arrays and text (sbx_sh_free); it may
 * be parsed into again (sbx_sh_parse resets it, keeping the memory). Word
 * texts point into it and are valid until the next parse or the free. One
 * per thread. */
#ifndef SBX_SHELL_H
#define SBX_SHELL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define SBX_SH_MAX_DEPTH 6
#define SBX_SH_NONE UINT32_MAX

enum sbx_sh_word_flags {
    SBX_SH_QUOTED = 1u << 0,    /* some of it was quoted or escaped */
    SBX_SH_EXPANDS = 1u << 1,   /* holds $NAME, ${…}, $(…), `…` or <(…): its value is not known */
    SBX_SH_UNWRAPPED = 1u << 2, /* a -c string or eval word read as commands (how STRING) */
};

struct sbx_sh_word {
    uint32_t off, len; /* in the text */
    uint32_t flags;    /* enum sbx_sh_word_flags */
};

enum sbx_sh_redir_op {
    SBX_SH_R_IN,      /* <  <> */
    SBX_SH_R_OUT,     /* >  >|  &> */
    SBX_SH_R_APPEND,  /* >>  &>> */
    SBX_SH_R_DUP,     /* >&  <&  (a file descriptor, or a file for >&) */
    SBX_SH_R_HERESTR, /* <<< */
    SBX_SH_R_HEREDOC, /* <<  <<-: the word is the body */
};

struct sbx_sh_redir {
    uint32_t op;   /* enum sbx_sh_redir_op */
    int32_t fd;    /* the descriptor written before it; -1 when none */
    uint32_t word; /* its target: an index into words */
};

enum sbx_sh_how {
    SBX_SH_TOP,     /* the line itself */
    SBX_SH_SUBST,   /* inside $(…) or `…` of the parent's word */
    SBX_SH_PROCSUB, /* inside <(…) or >(…) */
    SBX_SH_STRING,  /* the parent's -c string or eval words */
};

/* In sbx_sh_cmd.pos: the nested command was in a redirection's target. */
#define SBX_SH_POS_REDIR UINT32_MAX

struct sbx_sh_cmd {
    uint32_t word, nwords; /* argv[word .. word+nwords): every word, the nassign first */
    uint32_t nassign;      /* the VAR=value words before the program */
    uint32_t redir, nredir;
    uint32_t parent; /* the command nesting it, or SBX_SH_NONE */
    uint32_t pos;    /* which of the parent's words held it (0-based), or SBX_SH_POS_REDIR */
    uint32_t how;    /* enum sbx_sh_how */
    uint32_t pipe_to;   /* the command its stdout is piped to, or SBX_SH_NONE */
    uint32_t pipe_from; /* the command piped into it, or SBX_SH_NONE */
    uint32_t depth;     /* 0 at the top */
    bool noprog;        /* starts with for, select, case or [[: no program runs */
};

struct sbx_sh {
    struct sbx_buf text; /* every word's bytes; NUL after each */
    struct sbx_sh_word *words;
    size_t nwords, capwords;
    uint32_t *argv; /* per command, indexes into words */
    size_t nargv, capargv;
    struct sbx_sh_redir *redirs;
    size_t nredirs, capredirs;
    struct sbx_sh_cmd *cmds; /* in the order their text starts … ends (nested after their parent) */
    size_t ncmds, capcmds;
    /* scratch per depth while reading */
    struct sbx_sh_level *lv;
};

#define SBX_SH_INIT {SBX_BUF_INIT, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0, NULL}

void sbx_sh_parse(struct sbx_sh *sh, const char *s, size_t n);
void sbx_sh_free(struct sbx_sh *sh);

/* Word i of command c (i < c->nwords, counting the assignments), its bytes
 * (NUL-terminated) and length. */
const char *sbx_sh_arg(const struct sbx_sh *sh, const struct sbx_sh_cmd *c, size_t i, size_t *len);
uint32_t sbx_sh_arg_flags(const struct sbx_sh *sh, const struct sbx_sh_cmd *c, size_t i);
/* The text of word index w (a redirection's target). */
const char *sbx_sh_word_text(const struct sbx_sh *sh, uint32_t w, size_t *len);

/* Which of c's words is the program that runs, past the assignments and the
 * wrappers sudo, doas, env (its options and VAR=value words), nohup, nice,
 * time, command, exec, builtin, timeout (its duration), stdbuf, ionice,
 * setsid: its index in c's words, or c->nwords when there is none. */
size_t sbx_sh_program(const struct sbx_sh *sh, const struct sbx_sh_cmd *c);
/* The basename of word i of c (after the last '/'). */
const char *sbx_sh_basename(const struct sbx_sh *sh, const struct sbx_sh_cmd *c, size_t i, size_t *len);

#endif
