/* Writing a finished output (a summary) to standard output or a file.
 *
 * A regular file, or a path where nothing is yet, is written whole or not at
 * all: the bytes go to a temporary file beside it, which is renamed over the
 * target only once everything is written and flushed, so a failed run never
 * leaves half a summary behind (an existing file keeps its permissions). A
 * symbolic link is followed to the file it names (a loop is refused), and
 * that file is the one replaced; the link stays. A character device or a
 * FIFO (/dev/null, /dev/stdout, a pipe) is opened and written as it is,
 * never replaced. A folder, a block device or a socket is refused. An
 * output may also be written in pieces as it is made (sbx_output_open,
 * _write, _close): the same rules, the temporary renamed only by a close
 * that keeps it, so a summary streamed out need not be held whole.
 * Ownership: sbx_output_open's output is the caller's until
 * sbx_output_close frees it; err gets a message on failure. */
#ifndef SBX_OUTPUT_H
#define SBX_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

/* path NULL or "-" means standard output. */
bool sbx_write_output(const char *path, const char *data, size_t len, char *err, size_t errsz);

struct sbx_output;
/* The output to path (as sbx_write_output's), opened: standard output as it
 * is, a device or FIFO opened, a file's temporary made. NULL with err set
 * when it cannot be (a folder, a loop of links, no permission). */
struct sbx_output *sbx_output_open(const char *path, char *err, size_t errsz);
/* Appends len bytes; a failure is kept for sbx_output_close to report (the
 * later writes are dropped). */
void sbx_output_write(struct sbx_output *o, const char *data, size_t len);
/* Ends o and frees it. keep: the output is whole (a file's temporary is
 * flushed and renamed over the target); true then, or false with err set by
 * the first failure. Not keep: a file's temporary is removed (the target
 * stays as it was), err is left alone, false. */
bool sbx_output_close(struct sbx_output *o, bool keep, char *err, size_t errsz);

#endif
