/* Reading one input into memory: a regular file is mapped (nothing copied,
 * so a 1.7 GB log costs no anonymous memory), standard input ("-") and FIFOs
 * are read into the heap, up to a cap (2 GiB unless told), and refused as
 * soon as they show themselves binary, so `summary - < /dev/zero` stops at
 * once. Anything else (a device, a directory) is refused with a reason. For
 * a quick first look, sbx_read_prefix reads only the start of a regular
 * file.
 *
 * Ownership: on success *data belongs to the caller, to be released as *how
 * says (munmap or free) — normally by handing it to sbx_timeline_add_source. */
#ifndef SBX_READFILE_H
#define SBX_READFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

/* What standard input or a FIFO may hold unless told (--max-input). */
#define SBX_MAX_INPUT_DEFAULT (2ULL << 30)
/* How much of the start sbx_sniff_not_text looks at. */
#define SBX_SNIFF_BYTES 4096

/* Returns true with the bytes; false with a reason in err ("No such file or
 * directory", "not a regular file", "binary (NUL bytes)", "standard input
 * holds more than 2 GiB (...)", …). A stream (standard input, a FIFO) may
 * hold at most max_stream bytes (0: SBX_MAX_INPUT_DEFAULT) and is refused
 * while it is read when its start is not text (sbx_sniff_not_text), a NUL
 * tail (sbx_nul_tail) aside. Zero-length files succeed. */
bool sbx_read_input(const char *path, uint64_t max_stream, const char **data, size_t *size,
                    enum sbx_data_how *how, char *err, size_t errsz);

/* As sbx_read_input, except that a regular file is read into the heap (a
 * copy the program owns) instead of mapped: for the interactive review,
 * where a file truncated or rewritten while it is shown must not take the
 * loaded bytes with it (a mapping's lost pages fault or read as zeros). It
 * costs the file's size in memory. */
bool sbx_read_input_copy(const char *path, uint64_t max_stream, const char **data, size_t *size,
                         enum sbx_data_how *how, char *err, size_t errsz);

/* The first bytes of a regular file, read into the heap (never mapped): at
 * most prefix bytes, and when the file is longer than that, only up to the
 * end of its last complete line within them (possibly nothing). *file_size
 * gets the file's size, *cut whether bytes were left out. Anything but a
 * regular file is refused with a reason, FIFOs included (they cannot be read
 * twice). The bytes are released as SBX_DATA_HEAP. */
bool sbx_read_prefix(const char *path, size_t prefix, const char **data, size_t *size,
                     size_t *file_size, bool *cut, char *err, size_t errsz);

/* Gives back what sbx_read_input or sbx_read_prefix returned. */
void sbx_release_input(const char *data, size_t size, enum sbx_data_how how);

/* Why bytes are not a text log we read, or NULL if they might be: "gzip-compressed",
 * "UTF-16 text", "binary (NUL bytes)". Looks at the first SBX_SNIFF_BYTES only. */
const char *sbx_sniff_not_text(const char *data, size_t size);

/* Where the run of NUL bytes that ends data[0..size) begins: what a crash
 * leaves at the end of a log (the file grew, its last blocks were never
 * written). size when the data does not end in NUL, or when the bytes
 * before the NULs hold no complete line (then they are no log's tail, and
 * sbx_sniff_not_text judges them). */
size_t sbx_nul_tail(const char *data, size_t size);
/* Keeps only data[0..keep) of an input sbx_read_input returned: *size
 * becomes keep, and mapped pages wholly past it are given back (releasing
 * the kept size later releases the rest). */
void sbx_trim_input(const char *data, size_t *size, size_t keep, enum sbx_data_how how);

/* A SIGBUS while reading a mapped file means it shrank under us: the handler
 * prints a clean error and exits 2 instead of dumping core. Install once. */
void sbx_install_sigbus_handler(void (*restore_terminal)(void));

#endif
