#include "importers/formats/recorder_files.h"

#include <string.h>

#include "base/jsonstr.h"
#include "importers/json/jsonarray.h"
#include "model/files.h"
#include "model/findings.h"
#include "model/timeline.h"

void sbx_recfiles_init(struct sbx_recfiles *rf)
{
    memset(rf, 0, sizeof *rf); /* empty buffers, empty slots */
}

void sbx_recfiles_free(struct sbx_recfiles *rf)
{
    sbx_buf_free(&rf->path);
    sbx_buf_free(&rf->dec);
}

/* The elements of a list (an upper bound on its paths: some may be no string). */
static uint32_t count_list(const struct sbx_jmember *m)
{
    struct sbx_jarray_it it;
    struct sbx_jelem el;
    uint32_t count = 0;
    sbx_jarray_begin(&it, m->val, m->val_len);
    while (sbx_jarray_next(&it, &el))
        count++;
    return count;
}

/* One list's paths, each under the root (rootdir[0..rootlen), NULL for the
 * workspace), appended to f's list c; *bad when an element is no string. */
static void read_list(struct sbx_recfiles *rf, struct sbx_jline *j, struct sbx_files *f,
                      enum sbx_change c, const struct sbx_jmember *m, const char *rootdir,
                      size_t rootlen, bool *bad)
{
    struct sbx_jarray_it it;
    struct sbx_jelem el;
    sbx_jarray_begin(&it, m->val, m->val_len);
    while (sbx_jarray_next(&it, &el)) {
        if (!el.string) {
            *bad = true;
            continue;
        }
        const char *p = el.body;
        size_t plen = el.len;
        if (el.escaped) {
            sbx_buf_clear(&rf->dec);
            sbx_buf_reserve(&rf->dec, el.len);
            plen = sbx_jstr_decode(el.body, el.len, rf->dec.p);
            p = rf->dec.p;
        }
        while (plen >= 2 && p[0] == '.' && p[1] == '/') {
            p += 2;
            plen -= 2;
        }
        sbx_buf_clear(&rf->path);
        if (rootdir) {
            sbx_buf_add(&rf->path, rootdir, rootlen);
            if (rootlen != 1 || rootdir[0] != '/')
                sbx_buf_addc(&rf->path, '/');
        }
        sbx_buf_add(&rf->path, p, plen);
        sbx_files_add(f, c, sbx_strtab_intern(&j->tl->strings, rf->path.p ? rf->path.p : "", rf->path.len));
    }
}

void sbx_recfiles_read(struct sbx_recfiles *rf, struct sbx_jline *j, struct sbx_evbuf *out,
                       struct sbx_event *e, const struct sbx_jmember *root,
                       const struct sbx_jmember *const lists[SBX_CHANGE_COUNT])
{
    const char *rootdir = NULL;
    size_t rootlen = 0;
    uint32_t root_id = 0;
    if (root && root->type == SBX_JSTRING) {
        rootdir = sbx_jline_string(j, root, &rootlen);
        const char *nul = memchr(rootdir, '\0', rootlen);
        if (nul)
            rootlen = (size_t)(nul - rootdir);
        while (rootlen > 1 && rootdir[rootlen - 1] == '/')
            rootlen--;
        if (rootlen == 0 || (rootlen == 1 && rootdir[0] == '.'))
            rootdir = NULL; /* the workspace */
    }
    if (rootdir) {
        root_id = sbx_strtab_intern(&j->tl->strings, rootdir, rootlen);
        rootdir = sbx_strtab_intern_str(&j->tl->strings, rootdir, rootlen); /* stable: scratch is reused */
    }
    /* first each list's room: a repeated list's from the cache (what the slot
       held then: two lists of a line may share a slot), else its elements */
    struct sbx_recfiles_list *slot[SBX_CHANGE_COUNT] = {NULL};
    bool hit[SBX_CHANGE_COUNT] = {false}, hit_bad[SBX_CHANGE_COUNT] = {false};
    const uint32_t *hit_ids[SBX_CHANGE_COUNT] = {NULL};
    uint64_t hash[SBX_CHANGE_COUNT] = {0};
    uint32_t room[SBX_CHANGE_COUNT] = {0};
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        const struct sbx_jmember *m = lists[c];
        if (!m || m->type != SBX_JARRAY)
            continue;
        if (m->val_len <= SBX_RECFILES_RAW) {
            uint64_t h = hash[c] = sbx_jline_hash(m->val, m->val_len) ^ root_id;
            struct sbx_recfiles_list *s = slot[c] = &rf->cache[h % SBX_RECFILES_CACHE];
            hit[c] = s->raw_len == m->val_len && s->hash == h && s->root == root_id && s->out == out &&
                     memcmp(s->raw, m->val, m->val_len) == 0;
            hit_ids[c] = s->ids;
            hit_bad[c] = s->bad;
        }
        room[c] = hit[c] ? slot[c]->n : count_list(m);
    }
    struct sbx_files *f = sbx_files_new(out, room, false);
    e->u.files = f;
    f->root = root_id;
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        const struct sbx_jmember *m = lists[c];
        if (!m)
            continue;
        if (m->type != SBX_JARRAY) {
            e->findings |= SBX_F_BAD_FIELD;
            continue;
        }
        struct sbx_recfiles_list *s = slot[c];
        bool bad = false;
        if (hit[c]) {
            for (uint32_t k = 0; k < room[c]; k++)
                sbx_files_add(f, (enum sbx_change)c, hit_ids[c][k]);
            bad = hit_bad[c];
        } else {
            read_list(rf, j, f, (enum sbx_change)c, m, rootdir, rootlen, &bad);
        }
        if (bad)
            e->findings |= SBX_F_BAD_FIELD;
        if (s && !hit[c]) {
            *s = (struct sbx_recfiles_list){.hash = hash[c], .out = out,
                                            .ids = sbx_files_ids(f, (enum sbx_change)c), .n = f->n[c],
                                            .root = root_id, .raw_len = (uint32_t)m->val_len, .bad = bad};
            memcpy(s->raw, m->val, m->val_len);
        }
    }
}
