/* A hash index from a name (a host, a path) to a position in the caller's
 * array, so that a table kept per host is found in constant time however
 * many hosts a hostile log names (a linear search made 200,000 refused
 * hosts take minutes).
 *
 * Ownership: the index owns its slots (sbx_hostindex_free); the names are
 * borrowed: each must stay alive, unchanged, as long as the index. */
#ifndef SBX_HOSTINDEX_H
#define SBX_HOSTINDEX_H

#include <stddef.h>

struct sbx_hostslot {
    const char *name; /* NULL: empty */
    size_t len;
    size_t at;
};

struct sbx_hostindex {
    struct sbx_hostslot *slots;
    size_t nslots, n; /* nslots a power of two, at least twice n */
};

#define SBX_HOSTINDEX_INIT {NULL, 0, 0}

/* The position stored for name[0..len), or SIZE_MAX. */
size_t sbx_hostindex_find(const struct sbx_hostindex *ix, const char *name, size_t len);
/* Stores at for name[0..len) (replacing a position stored for it before). */
void sbx_hostindex_put(struct sbx_hostindex *ix, const char *name, size_t len, size_t at);
void sbx_hostindex_free(struct sbx_hostindex *ix);

#endif
