/* Where a ranged read's bytes belong: an answer's body, chunk by chunk,
 * placed in the part of the object that was asked for. A 206 answer starts
 * where its request's Range started; a 200 is the whole object (a store
 * that ignores Range), of which only the part's bytes count.
 *
 * Ownership: nothing is kept or returned but numbers. */
#ifndef SBX_S3_PLACE_H
#define SBX_S3_PLACE_H

#include <stddef.h>
#include <stdint.h>

struct sbx_s3_placed {
    size_t skip;   /* the chunk's bytes before those taken */
    size_t take;   /* how many to take (0: none of it is the part's) */
    uint64_t off;  /* where the first taken byte goes, from the part's start */
};

/* The chunk of n bytes that came at byte `at` of the body of an answer
 * with `status` to a request whose Range started at `asked`, placed in the
 * part [from, from + len) (len 0: to the object's end). */
struct sbx_s3_placed sbx_s3_place(uint64_t from, uint64_t len, uint64_t asked, long status,
                                  uint64_t at, size_t n);

#endif
