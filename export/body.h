/* The body of an export: what is posted to a ticket or written to a file.
 *
 * One body per kind of service:
 *   SBX_BODY_MARKDOWN   GitHub comments, GitLab notes, files: markdown
 *   SBX_BODY_JIRA_ADF   Jira Cloud REST v3: the comment's "body" value, an
 *                       Atlassian Document Format document (JSON)
 *   SBX_BODY_JIRA_TEXT  Jira REST v2: the comment's "body" string, plain text
 *                       in one {noformat} block, then the marker line
 *   SBX_BODY_SLACK      an incoming webhook's whole JSON payload,
 *                       {"text": "...", "mrkdwn": true}
 * The sender wraps GitHub's, GitLab's and Jira's body in the request
 * ({"body": ...}); Slack's payload is sent as it is.
 *
 * What goes in: the one-screen summary (render/summary/summary.h's markdown), the
 * findings with their evidence (render/findings.h), with --include-output
 * the last lines of each failed command's output, the SHA-256 of every
 * source, how to reopen the run (`sbxview` and the paths as given, shell
 * quoted), and the marker.
 *
 * What never does: every piece of log text is sanitised (render/sanitize.h),
 * then redacted (analyses/secrets/secrets.h), then quoted: in markdown inside a code
 * span or fence longer than any backtick run it holds; in ADF as text with
 * the code mark or in a codeBlock; in Jira's v2 text inside {noformat}
 * (a "{noformat" inside is written "{-noformat"); in Slack inside a ```
 * block, with & < > escaped and each backtick written as U+02CB. Every
 * other byte is sbxview's own words, so no line can start a GitLab quick
 * action, mention anyone, fetch an image, or be HTML.
 *
 * Size: a body must fit its service's limit, counted in UTF-16 code units
 * (Java's and JavaScript's characters; never less than code points, so a
 * limit in code points is met too). It is met by showing fewer items of
 * each list ("and N more"), then fewer output lines, then none; never by
 * cutting a line or a character. Limits (SBX_LIMIT_*):
 *   GitHub 65,536 ("Body is too long (maximum is 65536 characters)", the
 *   API's 422); GitLab 1,000,000 ("Note is too long (maximum is 1000000
 *   characters)"); Jira 32,767 ("The entered text is too long. It exceeds
 *   the allowed limit of 32,767 characters"; applied to the ADF document's
 *   JSON for v3, which is more than the text it holds); Slack 40,000 (its
 *   API truncates a message's text beyond 40,000 characters; applied to the
 *   text value).
 *
 * The marker: `<!-- sbxview:DIGEST -->` as the markdown's last line, a
 * last line `sbxview:DIGEST` in Jira's and Slack's bodies; DIGEST, 64 hex
 * digits, is the marker digest: of the run digest and of everything the
 * body says before the marker (sbx_export_marker_digest), so the same run
 * exported with other options (--include-output, --allow-list, another
 * reopen line) is a different comment, and the same export twice is one. sbx_export_marker_found() recognises it in
 * any of the bodies as a service returns them.
 *
 * Ownership: bodies are appended to the caller's sbx_buf; digests are
 * owned by the struct (sbx_export_digests_free). No global state. */
#ifndef SBX_EXPORT_BODY_H
#define SBX_EXPORT_BODY_H

#include <stdbool.h>
#include <stddef.h>

#include "export/target.h"
#include "base/buf.h"
#include "analyses/summary.h"
#include "model/review.h"
#include "model/timeline.h"

enum sbx_body_kind {
    SBX_BODY_MARKDOWN,
    SBX_BODY_JIRA_ADF,
    SBX_BODY_JIRA_TEXT,
    SBX_BODY_SLACK,
};

enum {
    SBX_LIMIT_GITHUB = 65536,
    SBX_LIMIT_GITLAB = 1000000,
    SBX_LIMIT_JIRA = 32767,
    SBX_LIMIT_SLACK = 40000,
};

#define SBX_DIGEST_HEX 65 /* 64 hex digits and a NUL */

/* The SHA-256 of every source's bytes (as loaded: the whole file), and the
 * run digest: the SHA-256 of the sources' hex digests, sorted, each
 * followed by a newline (so it depends on the bytes, not on the paths or
 * their order). */
struct sbx_export_digests {
    char (*file)[SBX_DIGEST_HEX]; /* one per tl->sources[i]; owned */
    size_t n;
    char run[SBX_DIGEST_HEX];
};

void sbx_export_digests(const struct sbx_timeline *tl, struct sbx_export_digests *d);
void sbx_export_digests_free(struct sbx_export_digests *d);

/* The marker digest: SHA-256 over a version line, the run digest and
 * said[0..n) (the markdown body up to its marker), into out. */
void sbx_export_marker_digest(const char *run_digest, const char *said, size_t n,
                              char out[SBX_DIGEST_HEX]);

/* True when text[0..n) holds "sbxview:" followed by exactly run_digest (64
 * hex digits, not followed by another hex digit): the markdown comment,
 * Jira's footer (in ADF JSON or plain text) and Slack's all match. */
bool sbx_export_marker_found(const char *text, size_t n, const char *run_digest);

/* The body kind and the limit (in UTF-16 code units; 0: none) of a target.
 * jira_api is 2 or 3. */
enum sbx_body_kind sbx_target_body_kind(enum sbx_target_kind k, int jira_api);
size_t sbx_target_limit(enum sbx_target_kind k);
/* "markdown", "jira-adf", "jira-text", "slack". */
const char *sbx_body_kind_name(enum sbx_body_kind k);

/* UTF-16 code units of s[0..n) (an invalid byte counts 1). */
size_t sbx_body_chars(const char *s, size_t n);

struct sbx_body_opts {
    enum sbx_body_kind kind;
    size_t limit;                 /* UTF-16 code units; 0: no limit */
    bool include_output;          /* the failed commands' output tails */
    unsigned output_lines;        /* lines of each tail; 0: 20 */
    const char *const *paths;     /* the inputs as given, for the reopen line */
    size_t npaths;
    /* the run's review (model/review.h; borrowed): a Review part with the
     * verdict, the triaged findings, notes and tags; NULL: none */
    const struct sbx_review *review;
    const struct sbx_review_state *review_state;
    /* the post this body replaces (a service whose posts are never edited:
     * export/send.h's SBX_SEND_REPLACES), from the review file: its body's
     * marker digest (64 hex digits) and time; NULL: none. A line naming
     * it goes before the marker, which does not cover it. */
    const char *replaces_body;
    int64_t replaces_at;
};

/* How the body came out. */
struct sbx_body_info {
    size_t chars;       /* what the limit was applied to, in UTF-16 units */
    int list_max;       /* items each list showed (10 unless shortened) */
    unsigned output_lines; /* lines of each output tail shown (0: none) */
    bool shortened;     /* lists or tails were cut to fit */
    char marker[SBX_DIGEST_HEX]; /* the marker digest the body ends with: what
                                    sbx_export_marker_found looks for */
    /* the review marker: the digest of the run and the body without its
     * Review part, the same when only the review changed; a markdown body
     * carries it ("<!-- sbxview-review:D -->" before the marker), the
     * others do not (the review file keeps it for Jira and Slack) */
    char review_marker[SBX_DIGEST_HEX];
};

/* Builds the body of o->kind and appends it to out. sum must come from
 * sbx_summarize over tl; d from sbx_export_digests over tl. False with a
 * message in err when even the shortest form does not fit o->limit (out
 * is then left as it was). info may be NULL. */
bool sbx_export_body(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                     const struct sbx_export_digests *d, const struct sbx_body_opts *o,
                     struct sbx_buf *out, struct sbx_body_info *info, char *err, size_t errsz);

#endif
