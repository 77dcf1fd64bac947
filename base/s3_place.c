#include "base/s3_place.h"

struct sbx_s3_placed sbx_s3_place(uint64_t from, uint64_t len, uint64_t asked, long status,
                                  uint64_t at, size_t n)
{
    struct sbx_s3_placed p = {0};
    uint64_t pos = (status == 206 ? asked : 0) + at, end = pos + n;
    if (len && end > from + len)
        end = from + len;
    if (pos < from)
        p.skip = (size_t)(from - pos), pos = from;
    if (end <= pos)
        return (struct sbx_s3_placed){0};
    p.take = (size_t)(end - pos);
    p.off = pos - from;
    return p;
}
