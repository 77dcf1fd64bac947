#include "importers/json/jsonline.h"

#include <stdio.h>
#include <string.h>

#include "base/fnv.h"
#include "base/jsonstr.h"

void sbx_jline_init(struct sbx_jline *j, struct sbx_timeline *tl, uint32_t source)
{
    memset(j, 0, sizeof *j);
    j->tl = tl;
    j->source = source;
    j->base = tl->sources[source].data;
    sbx_jscan_init(&j->scan);
}

void sbx_jline_free(struct sbx_jline *j)
{
    sbx_jscan_free(&j->scan);
    sbx_buf_free(&j->scratch);
}

const char *sbx_jline_string(struct sbx_jline *j, const struct sbx_jmember *m, size_t *n)
{
    if (!m->val_escaped) {
        *n = m->val_len;
        return m->val;
    }
    sbx_buf_clear(&j->scratch);
    sbx_buf_reserve(&j->scratch, m->val_len);
    *n = j->scratch.len = sbx_jstr_decode(m->val, m->val_len, j->scratch.p);
    return j->scratch.p;
}

struct sbx_text sbx_jline_text(const struct sbx_jline *j, struct sbx_evbuf *buf,
                               const struct sbx_event *e, const struct sbx_jmember *m, uint32_t flags)
{
    return sbx_text_make(buf, e, (uint64_t)(m->val - j->base), m->val_len, SBX_TEXT_PRESENT | flags);
}

enum sbx_line_status sbx_jline_scan(struct sbx_jline *j, const char *line, size_t len,
                                    char *reason, size_t reasonsz)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
        i++;
    if (i == len)
        return SBX_LINE_BLANK;
    if (!sbx_jscan_line(&j->scan, line, len)) {
        snprintf(reason, reasonsz, "not JSON: %s (byte %zu)", j->scan.err, j->scan.err_pos + 1);
        return SBX_LINE_BAD;
    }
    return SBX_LINE_OK;
}

uint32_t sbx_jline_intern(struct sbx_jline *j, struct sbx_jline_last *last,
                          const struct sbx_jmember *m)
{
    for (int i = 0; i < SBX_JLINE_LAST; i++)
        if (last[i].id && m->val_len == last[i].len && memcmp(m->val, last[i].raw, m->val_len) == 0)
            return last[i].id;
    size_t n;
    const char *s = sbx_jline_string(j, m, &n);
    uint32_t id = sbx_strtab_intern(&j->tl->strings, s, n);
    if (m->val_len <= sizeof last->raw) {
        memmove(last + 1, last, (SBX_JLINE_LAST - 1) * sizeof *last);
        memcpy(last[0].raw, m->val, m->val_len);
        last[0].len = m->val_len;
        last[0].id = id;
    }
    return id;
}

/* Eight bytes a step, then FNV-1a over the tail: the caches it serves take
 * a whole command line or list on every line of a log. The multiply only
 * carries upwards, so the last steps fold the high bits down into the low
 * ones the callers index with. */
uint64_t sbx_jline_hash(const char *s, size_t n)
{
    const uint64_t k = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t h = SBX_FNV_BASIS ^ n;
    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    h = sbx_fnv1a(h, s, n);
    h ^= h >> 32;
    h *= k;
    return h ^ h >> 29;
}
