/* sbx_strtab: interned strings (sandbox ids, program labels, working
 * directories, kind names) stored once and named by a small id.
 *
 * Id 0 is the empty/absent string. Ids are dense (1, 2, 3 …) in order of
 * first interning. Ownership: the table owns every string; pointers from
 * sbx_strtab_get stay valid until sbx_strtab_free (strings never move).
 * Thread-safety: sbx_strtab_intern may be called from several threads at
 * once (it takes the table's lock); sbx_strtab_get is lock-free but must not
 * race with an intern that grows the table — call it after loading. */
#ifndef SBX_STRTAB_H
#define SBX_STRTAB_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct sbx_strtab {
    pthread_mutex_t lock;
    /* entries[id] -> string; the strings live in fixed blocks that never move */
    const char **str;
    uint32_t *len;
    uint32_t n, cap;
    uint32_t *slots; /* open addressing: id or 0 */
    uint32_t nslots;
    char *block;
    size_t block_used, block_cap;
    char **blocks;
    size_t nblocks;
};

void sbx_strtab_init(struct sbx_strtab *t);
void sbx_strtab_free(struct sbx_strtab *t);
/* Returns the id of s[0..n) (interning a copy if new); n == 0 gives 0. */
uint32_t sbx_strtab_intern(struct sbx_strtab *t, const char *s, size_t n);
/* The same, for a caller that wants the stable string rather than its id
 * (file paths: one copy per distinct path, however many events name it;
 * safe while other threads intern). n == 0 gives "". */
const char *sbx_strtab_intern_str(struct sbx_strtab *t, const char *s, size_t n);
/* The NUL-terminated string of id (owned by the table); "" for 0. */
const char *sbx_strtab_get(const struct sbx_strtab *t, uint32_t id);
uint32_t sbx_strtab_len(const struct sbx_strtab *t, uint32_t id);
/* Copies s[0..n) into the table's storage without interning (for one-off
 * strings such as unescaped file paths); returns the stable copy. */
const char *sbx_strtab_store(struct sbx_strtab *t, const char *s, size_t n);

#endif
