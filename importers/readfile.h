/* Reading one input into memory: a regular file is mapped (nothing copied,
 * so a 1.7 GB log costs no anonymous memory), standard input ("-") and FIFOs
 * are read into the heap. Anything else (a device, a directory) is refused
 * with a reason, so /dev/zero cannot hang the program.
 *
 * Ownership: on success *data belongs to the caller, to be released as *how
 * says (munmap or free) — normally by handing it to sbx_timeline_add_source. */
#ifndef SBX_READFILE_H
#define SBX_READFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/timeline.h"

/* Returns true with the bytes; false with a reason in err ("No such file or
 * directory", "not a regular file", …). Zero-length files succeed. */
bool sbx_read_input(const char *path, const char **data, size_t *size, enum sbx_data_how *how,
                    char *err, size_t errsz);

/* Gives back what sbx_read_input returned. */
void sbx_release_input(const char *data, size_t size, enum sbx_data_how how);

/* Why bytes are not a text log we read, or NULL if they might be: "gzip-compressed",
 * "UTF-16 text", "binary (NUL bytes)". Looks at the first few KiB only. */
const char *sbx_sniff_not_text(const char *data, size_t size);

/* A SIGBUS while reading a mapped file means it shrank under us: the handler
 * prints a clean error and exits 2 instead of dumping core. Install once. */
void sbx_install_sigbus_handler(void (*restore_terminal)(void));

#endif
