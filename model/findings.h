/* Findings: what the analyses (analyses/) conclude about an event, as bits
 * in its findings field. SBX_FINDINGS is the one list of them, heaviest
 * first: the order of the timeline's marks, `sbxview check`, the export's
 * lists, compare and the help. Adding a kind of finding is one row here
 * plus the analysis that sets it.
 *
 * A row: X(ID, BIT, NAME, MARK, STYLE, SERIOUS, WORD, WORDS, CHECK, NEEDS)
 *   ID       SBX_F_ID, the bit's name in the code
 *   BIT      its position in the findings field (never reused: saved
 *            findings fields stay readable)
 *   NAME     its name in `check --allow`, compare and JSON
 *   MARK     the timeline's one-letter mark
 *   STYLE    the row's look, an enum sbx_style name (render/style.h) that
 *            only render/ expands
 *   SERIOUS  1: the timeline's "serious findings only" keeps it
 *   WORD     the filter's word for it (query/query.h, the runs list), or NULL
 *   WORDS    how the timeline, the detail and the help say it
 *   CHECK    what `sbxview check` says it reports, or NULL: check leaves
 *            it out (a failure is no finding for CI)
 *   NEEDS    what the sources must hold for the kind to be checked at all
 *            ("not checked: it needs …"), or NULL: every run can tell
 *
 * SBX_F_BAD_FIELD is the one bit an importer sets (only it sees a field's
 * type); every other bit is set by an analysis, from facts the importers
 * stored (model/event.h). Nothing here is allocated: strings are static. */
#ifndef SBX_FINDINGS_H
#define SBX_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a NEEDS column names, where several kinds need the same. */
#define SBX_NEEDS_CROSS "the wrapper's log and Runtime's command record"
#define SBX_NEEDS_AUDIT "Runtime's audit log"
#define SBX_NEEDS_COMMANDS "a log of the commands"
#define SBX_NEEDS_NETWORK "a log of the commands or the proxy's log"
#define SBX_NEEDS_HOSTS "a log of the commands or a diff of /etc/hosts"

#define SBX_FINDINGS(X)                                                                        \
    X(ACCOUNT_INSIDE, 13, "account-change", '!', OUTSIDE, 1, NULL,                             \
      "account change made from inside a sandbox", "an account change made from inside a sandbox", \
      SBX_NEEDS_AUDIT)                                                                         \
    X(REMOVED_FROM_LOG, 25, "removed-from-log", 'Z', OUTSIDE, 1, "removed",                      \
      "possibly removed from the log",                                                         \
      "a command in Runtime's record that fits a gap in the wrapper's log", SBX_NEEDS_CROSS)   \
    X(OUTSIDE_WRAPPER, 7, "outside-wrapper", 'O', OUTSIDE, 1, "outside", "ran outside the wrapper", \
      "a command in Runtime's record the wrapper never ran", SBX_NEEDS_CROSS)                  \
    X(UNWRAPPED, 15, "unwrapped", 'W', OUTSIDE, 1, "outside",                                   \
      "ran outside the wrapper (only another log saw it)",                                     \
      "a command sandboxio or a tool span saw that the wrapper's log lacks",                   \
      "the wrapper's log and sandboxio's audit or OpenTelemetry tool spans")                   \
    X(MISSING_FROM_RECORD, 10, "missing-from-record", 'M', OUTSIDE, 1, NULL,                    \
      "missing from Runtime's record", "a wrapper command Runtime's record lacks", SBX_NEEDS_CROSS) \
    X(EXIT_MISMATCH, 11, "exit-mismatch", 'D', OUTSIDE, 1, "mismatch",                          \
      "Runtime's record saw another exit code", "the record and the wrapper saw other exit codes", \
      SBX_NEEDS_CROSS)                                                                         \
    X(LOG_TAMPERING, 17, "log-tampering", 'L', OUTSIDE, 1, "tamper", "log or history tampering", \
      "a command that clears the shell's history or removes or truncates a log", SBX_NEEDS_COMMANDS) \
    X(HOSTS_REDIRECT, 18, "hosts-redirect", 'J', SYSTEM, 1, "hosts",                           \
      "/etc/hosts points a registry or source host elsewhere",                                 \
      "an /etc/hosts line that sends a package registry, source or API host to another address", \
      SBX_NEEDS_HOSTS)                                                                         \
    X(PIPED_TO_SHELL, 19, "piped-to-shell", 'P', OUTSIDE, 1, "pipeshell", "download run by a shell", \
      "a download or decoded text run by a shell or interpreter", SBX_NEEDS_COMMANDS)          \
    X(METADATA_ENDPOINT, 20, "metadata-endpoint", 'Y', SECRET, 1, "metadata",                   \
      "cloud metadata endpoint", "a command or request to the cloud metadata endpoint",        \
      SBX_NEEDS_NETWORK)                                                                       \
    X(CREDENTIAL_READ, 21, "credential-read", 'C', SECRET, 1, "creds", "credential file read",  \
      "a command that reads a credential file (cloud, ssh, git, registry)", SBX_NEEDS_COMMANDS) \
    X(PERSISTENCE, 22, "persistence", 'S', SYSTEM, 1, "persist",                                \
      "persistence (shell rc, cron, systemd, authorized_keys)",                                \
      "a write to a shell rc file, cron, a systemd unit or authorized_keys", SBX_NEEDS_COMMANDS) \
    X(REFUSED_HOST, 0, "refused-host", 'R', REFUSED, 1, "refused", "refused host",              \
      "a host the sandbox was refused", "a log of the commands or the proxy's log")            \
    X(UNLISTED_HOST, 14, "unlisted-host", 'U', REFUSED, 0, "unlisted", "host not on the allow list", \
      "a host reached or tried that --allow-list lacks", "an allow list (--allow-list)")       \
    X(ACCOUNT_CHANGE, 8, "account-audit", 'A', ACCOUNT, 1, "account", "account change", NULL,   \
      SBX_NEEDS_AUDIT)                                                                         \
    X(SECRET, 2, "secret", 'K', SECRET, 1, "secret", "secret in the record",                    \
      "a credential-shaped string in a command or its output", NULL)                           \
    X(BAD_SIGNATURE, 12, "bad-signature", 'G', SECRET, 1, NULL, "webhook signature failed",     \
      "a webhook delivery whose signature failed", "webhook deliveries and their signing secret") \
    X(HASH_MISMATCH, 5, "hash-mismatch", 'H', SECRET, 1, "mismatch", "stdout hash mismatch",    \
      "stdout that does not hash to what the recorder took", "commands with a recorded stdout hash") \
    X(TLS_OFF, 23, "tls-off", 'V', WARNING, 1, "insecure", "TLS checks turned off",            \
      "a command that turns off TLS certificate checks", SBX_NEEDS_COMMANDS)                   \
    X(URL_INSTALL, 24, "url-install", 'N', WARNING, 1, "urlinstall",                            \
      "installed from a URL or git remote", "a package installed from a URL or a git remote, not its registry", \
      SBX_NEEDS_COMMANDS)                                                                      \
    X(SYSTEM_FILES, 1, "system-file-change", 'E', SYSTEM, 1, "system", "system file change",    \
      "a change under a system folder such as /etc", "a manifest of a system folder")          \
    X(HIDDEN_TEXT, 9, "hidden-text", 'I', HIDDEN, 1, "hidden",                                  \
      "hidden text (invisible or bidi characters)",                                            \
      "invisible or bidi characters in a command or its output", SBX_NEEDS_COMMANDS)           \
    X(DUP_FIELD, 16, "field-twice", 'F', WARNING, 1, "twice", "a field given twice",            \
      "a record that gives a field twice (the last value is read)", NULL)                      \
    X(TIMED_OUT, 3, "timed-out", 'T', TIMEDOUT, 0, "timedout", "timed out", NULL,               \
      SBX_NEEDS_COMMANDS)                                                                      \
    X(FAILED, 4, "failed", 'X', FAILED, 0, "failed", "failed", NULL, SBX_NEEDS_COMMANDS)        \
    X(BAD_FIELD, 6, "bad-field", '?', WARNING, 0, NULL, "a field of the wrong type", NULL, NULL)

enum sbx_finding {
#define SBX_F_ENUM(id, bit, ...) SBX_F_##id = 1u << (bit),
    SBX_FINDINGS(SBX_F_ENUM)
#undef SBX_F_ENUM
};

/* The bits the timeline's "serious findings only" keeps. */
#define SBX_F_SERIOUS_BIT(id, bit, name, mark, style, serious, ...) | ((serious) ? 1u << (bit) : 0u)
#define SBX_F_SERIOUS (0u SBX_FINDINGS(SBX_F_SERIOUS_BIT))

struct sbx_finding_info {
    uint32_t bit;      /* one enum sbx_finding bit */
    const char *name;  /* NAME */
    char mark;         /* MARK */
    bool serious;      /* SERIOUS */
    const char *word;  /* WORD, or NULL */
    const char *words; /* WORDS */
    const char *check; /* CHECK, or NULL */
    const char *needs; /* NEEDS, or NULL */
};

/* The rows, heaviest first: sbx_findings[0 .. sbx_nfindings). */
extern const struct sbx_finding_info sbx_findings[];
extern const size_t sbx_nfindings;

/* The row of one bit (NULL for a bit no row has). */
const struct sbx_finding_info *sbx_finding_of(uint32_t bit);
/* A bit's place in the order: 0 the heaviest; sbx_nfindings for none. */
size_t sbx_finding_rank(uint32_t bit);
/* The heaviest bit among findings; 0 for none. */
uint32_t sbx_finding_heaviest(uint32_t findings);
/* The bit by its NAME, or by its MARK; 0 when no row has it. */
uint32_t sbx_finding_by_name(const char *name);
uint32_t sbx_finding_by_mark(char mark);
/* The bits whose WORD is w[0..n) (any_case: in upper or lower case, as
 * the runs list reads it; the filter's words are lower case); 0 for none. */
uint32_t sbx_findings_by_word(const char *w, size_t n, bool any_case);

#endif
