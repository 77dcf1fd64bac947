/* Writing a finished output (a summary) to standard output or a file.
 *
 * A regular file, or a path where nothing is yet, is written whole or not at
 * all: the bytes go to a temporary file beside it, which is renamed over the
 * target only once everything is written and flushed, so a failed run never
 * leaves half a summary behind (an existing file keeps its permissions). A
 * symbolic link is followed to the file it names (a loop is refused), and
 * that file is the one replaced; the link stays. A character device or a
 * FIFO (/dev/null, /dev/stdout, a pipe) is opened and written as it is,
 * never replaced. A folder, a block device or a socket is refused.
 * Ownership: nothing is kept; err gets a message on failure. */
#ifndef SBX_OUTPUT_H
#define SBX_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

/* path NULL or "-" means standard output. */
bool sbx_write_output(const char *path, const char *data, size_t len, char *err, size_t errsz);

#endif
