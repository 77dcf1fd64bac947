/* Manifests (sha256sum output) and unified diffs: reading a manifest line,
 * and the step after every source of a run is read that turns them into
 * evidence.
 *
 * A manifest's own lines are not events. Two manifests loaded together are
 * a before/after pair (by file name: before/after, pre/post, old/new, orig;
 * else in the order they were given) and give one files event, like a
 * recorder's files line: added, changed, removed. A manifest left without a
 * partner gives a note. A diff's files go into the timeline (model/diffs.h)
 * for the views; it gives a files event of its own only when some file it
 * names is in no manifest pair. Manifests and diffs carry no time: their
 * events are placed just after the run's last known event and marked
 * SBX_EVT_TIME_INFERRED.
 *
 * Ownership: sbx_manifest_line writes the path into the caller's buffer;
 * everything sbx_mdiff_link makes belongs to the timeline. */
#ifndef SBX_MDIFF_H
#define SBX_MDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "model/timeline.h"

/* One manifest line: "<64 hex>  path", " *path" in binary mode, the BSD
 * form "SHA256 (path) = <hex>", and sha256sum's escaped form (a leading
 * backslash, then \\ \n \r in the name). The hash (32 bytes) to hash, the
 * decoded path, without a leading "./", to path (cleared first). False with
 * a reason (static ASCII) when the line is not one. A CR at the end (a file
 * with Windows line ends) is not part of the name. */
bool sbx_manifest_line(const char *line, size_t len, unsigned char hash[32], struct sbx_buf *path,
                       const char **why);

/* After the last source is read, before the timeline is finished: pairs the
 * manifests, adds the diffs' files, and adds their events. Sources that hold
 * only the start of a file (a preview) are left out. */
void sbx_mdiff_link(struct sbx_timeline *tl);

#endif
