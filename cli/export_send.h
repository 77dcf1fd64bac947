/* sbxview export's network side on the command line: the services'
 * settings read from the environment, --dry-run's print of the request,
 * or the send with its progress and result (internal to cli/).
 * Borrows everything it is given; keeps nothing. */
#ifndef SBX_CLI_EXPORT_SEND_H
#define SBX_CLI_EXPORT_SEND_H

#include <stdbool.h>
#include <stddef.h>

#include "export/send.h"
#include "export/target.h"

/* The services' settings from the environment (export/send.h names the
 * variables); jira_api 3. The strings are the environment's. */
void sbx_export_settings(struct sbx_send_env *env);

struct sbx_export_send_args {
    const struct sbx_target *target;       /* not file: */
    const struct sbx_send_env *settings;   /* sbx_export_settings's, with --jira-api */
    const char *body;                      /* export/body.h's body for the target */
    size_t len;
    const char *digest;                    /* the run digest the body's marker holds */
    const char *review_marker;             /* the body's review marker, or NULL (export/send.h) */
    const char *kept_comment;              /* the comment id the review file kept, or NULL */
    const char *kept_body;                 /* the marker digest of the body it was posted with */
    struct sbx_send_result *result;        /* optional: the send's result, for the caller to
                                              keep what it needs (sbx_send_result_free) */
    bool dry_run, quiet, repost;
    long timeout_ms;                       /* one request; 0: 30 s */
    long wait_ms;                          /* rate limits waited out in all; 0: 120 s */
};

/* --dry-run: the request on standard output (secrets masked; a token not
 * set shows as masked too, with a note). Else the send: progress on
 * standard error unless quiet, the comment's URL on standard output (the
 * new one, or the one an earlier run posted), the reason on standard error
 * when it fails. SIGINT stops it. Returns an exit status (SBX_EXIT_*). */
int sbx_export_send(const struct sbx_export_send_args *a);

#endif
