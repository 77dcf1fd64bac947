/* Where the running program is, and folders named relative to it (an
 * installed binary finds its prefix's share/ wherever it was installed).
 * The functions write into the caller's buffer; nothing is allocated. */
#ifndef SBX_SELFPATH_H
#define SBX_SELFPATH_H

#include <stdbool.h>
#include <stddef.h>

/* The running binary's absolute path (/proc/self/exe) into out (n bytes);
 * false when it cannot be read or does not fit. */
bool sbx_self_exe(char *out, size_t n);

/* The folder holding exe joined with rel ("../share/sbxview/themes",
 * "themes") into out (n bytes), ".." taken off against the folders before
 * it; false when exe has no folder, rel climbs above the root or the
 * result does not fit. */
bool sbx_path_beside(const char *exe, const char *rel, char *out, size_t n);

#endif
