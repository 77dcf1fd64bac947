/* What an export remembers of its post in the review file, for services
 * that cannot find it again by the body's review marker
 * (docs/review-file.md, "What an export posted"): Jira's comment id, to
 * edit that comment next time; Slack's time and body digest, for the next
 * message to say which one it replaces.
 *
 * `sbxview export` and the interface's export (app/app_export.c) both go
 * through sbx_export_body_kept, sbx_export_kept_opts and
 * sbx_export_keep_post, so the rule is written once.
 *
 * Ownership: sbx_export_earlier and sbx_export_body_kept give a post
 * borrowed from the review; sbx_export_posted fills a post whose strings
 * are the caller's (model/review.h: sbx_review_post_free). */
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

/* The body of an export to t (export/body.h's sbx_export_body with bo,
 * whose review it carries) and, unless repost, this export's earlier post
 * that r keeps (*earlier, NULL: none). To a service whose posts are never
 * edited (Slack), when the review changed since that post, the body is
 * made again naming the one it replaces (bo's replaces_* set). */
bool sbx_export_body_kept(const struct sbx_timeline *tl, const struct sbx_summary *sum,
                          const struct sbx_export_digests *d, struct sbx_body_opts *bo,
                          const struct sbx_review *r, const struct sbx_target *t,
                          const struct sbx_send_env *env, bool repost, struct sbx_buf *out,
                          struct sbx_body_info *info, const struct sbx_review_post **earlier,
                          char *err, size_t errsz);

/* What the send needs of the earlier post (NULL: nothing): the comment id
 * to edit and the marker it must still hold (export/send.h). */
void sbx_export_kept_opts(const struct sbx_review_post *earlier, struct sbx_send_opts *o);

/* After a send (not a dry run): what must be remembered of it
 * (sbx_export_posted) appended to the review file path as a "posted"
 * line (export/review_write.h). True when it was kept or there was nothing
 * to keep; false with the reason in err. */
bool sbx_export_keep_post(const char *path, bool make_dirs, const struct sbx_target *t,
                          const struct sbx_send_env *env, const struct sbx_body_info *info,
                          const struct sbx_send_result *res, const char *author, int64_t at,
                          char *err, size_t errsz);

#endif
