/* Base64 (RFC 4648, with padding), for the clipboard escape (OSC 52).
 * Ownership: appends to the caller's sbx_buf. */
#ifndef SBX_BASE64_H
#define SBX_BASE64_H

#include <stddef.h>

#include "base/buf.h"

void sbx_base64(const void *data, size_t n, struct sbx_buf *out);

#endif
