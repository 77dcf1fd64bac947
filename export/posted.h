/* What an export remembers of its post in the review file, for services
 * that cannot find it again by the body's review marker
 * (docs/review-file.md, "What an export posted"): Jira's comment id, to
 * edit that comment next time; Slack's time and body digest, for the next
 * message to say which one it replaces.
 *
 * Ownership: sbx_export_earlier returns a post borrowed from the review;
 * sbx_export_posted fills a post whose strings are the caller's
 * (sbx_export_posted_free). */
#ifndef SBX_EXPORT_POSTED_H
#define SBX_EXPORT_POSTED_H

#include <stdint.h>

#include "export/body.h"
#include "export/send.h"
#include "export/target.h"
#include "model/review.h"

/* The last post of this export (review_marker: export/body.h's
 * sbx_body_info) to t that r holds, when t's service needs one
 * (export/send.h's sbx_send_memory_of); else NULL. A service of many
 * servers (Jira) takes only a post to the server env names
 * (export/send.h's sbx_send_server): another one's ids are not its. */
const struct sbx_review_post *sbx_export_earlier(const struct sbx_review *r,
                                                 const struct sbx_target *t,
                                                 const struct sbx_send_env *env,
                                                 const char *review_marker);

/* The post to keep after res: posted or edited, to a service that needs
 * it (with the server env names, for Jira); false (p untouched) when
 * there is nothing to keep. */
bool sbx_export_posted(const struct sbx_target *t, const struct sbx_send_env *env,
                       const struct sbx_body_info *info, const struct sbx_send_result *res,
                       const char *author, int64_t at, struct sbx_review_post *p);
void sbx_export_posted_free(struct sbx_review_post *p);

#endif
