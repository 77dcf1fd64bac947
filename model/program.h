/* sbx_program: the "program" of a shell command line, by Runtime's rule
 * (docs/formats/runtime.md, "The program of a command line" and
 * "Cross-check").
 *
 * The command line is read with shell quoting ('…', "…", $'…', backslash),
 * split into simple commands at && || ; | |& & ( ) and newlines, with
 * redirections (including their targets), comments, heredoc bodies, $(…),
 * ${…}, `…`, <(…) and ((…)) kept inside their own command. The program of a
 * simple command is the basename of its first word after VAR=value
 * assignments; the reserved words ! { if then elif else while until do time
 * are passed over, case patterns are skipped (the commands of each branch
 * count), and a command that starts with for select function coproc [[ } fi
 * done esac has no program. `bash -c STRING` / `sh -c STRING` (any
 * option cluster containing c, e.g. -lc -ec, options like -o pipefail before
 * it, /bin/bash too) is replaced by the simple commands of STRING, unwrapped
 * up to 4 levels deep; a string with no command reports the shell itself.
 * Commands inside $(…) and similar are not reported (Runtime records one
 * program per exec call).
 *
 * Any bytes are accepted (NUL, invalid UTF-8, unbalanced quotes end at the
 * end of the input); labels may contain them — sanitise before display.
 * Time is linear in n, recursion bounded, no allocation, no global state:
 * safe from any thread.
 *
 * Ownership: labels are written into the caller's buffer; program names given
 * to the callback point into a stack buffer that is valid only during the
 * call (copy them to keep them). Names and arguments longer than 128 bytes
 * are truncated to their first 128 bytes. */
#ifndef SBX_PROGRAM_H
#define SBX_PROGRAM_H

#include <stddef.h>

/* The label of a command line, written to out (NUL-terminated, truncated to
 * cap-1 bytes; nothing is written when cap is 0); returns its length.
 * The label is the program of the first simple command that is not cd,
 * export, source, ., set, pushd or true (if all are, the first one's), with:
 * python/python3/python3.11 -m X -> X; for pip pip3 npm pnpm yarn git cargo
 * go apt apt-get docker kubectl uv poetry gem (also as a -m module) the first
 * non-option argument added ("pip install", "git status" for git -C dir
 * status: git's -C and -c take a value). Empty command -> "" (0). */
size_t sbx_program_label(const char *cmd, size_t n, char *out, size_t cap);

/* Calls cb once per simple command of the line, in order, with its program
 * name (basename of the first word after VAR=value assignments; the label's
 * skip-list is NOT applied: cd, export … are reported too; python -m X
 * reports python). For cross-checking against Runtime's records. Returns the
 * number of calls. cb may be NULL (just counts). */
size_t sbx_program_each(const char *cmd, size_t n,
                        void (*cb)(const char *prog, size_t len, void *ctx), void *ctx);

/* The work sbx_program_each does on a line: the characters it read and
 * decoded, summed over every nesting level. It grows linearly with n
 * whatever the line holds; the tests check that instead of timing. */
size_t sbx_program_work(const char *cmd, size_t n);

#endif
