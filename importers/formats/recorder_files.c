#include "importers/formats/recorder_files.h"

#include <string.h>

#include "base/jsonstr.h"
#include "importers/json/jsonarray.h"
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

/* One list's paths, each under the root (rootdir[0..rootlen), NULL for the
 * workspace), into a new array of out; *bad when an element is no string. */
static const char **read_list(struct sbx_recfiles *rf, struct sbx_jline *j, struct sbx_evbuf *out,
                              const struct sbx_jmember *m, const char *rootdir, size_t rootlen,
                              uint32_t *n, bool *bad)
{
    struct sbx_jarray_it it;
    struct sbx_jelem el;
    size_t count = 0;
    sbx_jarray_begin(&it, m->val, m->val_len);
    while (sbx_jarray_next(&it, &el))
        count++;
    const char **paths = sbx_evbuf_alloc(out, (count ? count : 1) * sizeof *paths);
    *n = 0;
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
        paths[(*n)++] = sbx_strtab_intern_str(&j->tl->strings, rf->path.p ? rf->path.p : "",
                                              rf->path.len);
    }
    return paths;
}

void sbx_recfiles_read(struct sbx_recfiles *rf, struct sbx_jline *j, struct sbx_evbuf *out,
                       struct sbx_event *e, const struct sbx_jmember *root,
                       const struct sbx_jmember *const lists[SBX_CHANGE_COUNT])
{
    struct sbx_files *f = sbx_evbuf_alloc(out, sizeof *f);
    e->u.files = f;
    const char *rootdir = NULL;
    size_t rootlen = 0;
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
        f->root = sbx_strtab_intern(&j->tl->strings, rootdir, rootlen);
        rootdir = sbx_strtab_intern_str(&j->tl->strings, rootdir, rootlen); /* stable: scratch is reused */
    }
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        const struct sbx_jmember *m = lists[c];
        if (!m)
            continue;
        if (m->type != SBX_JARRAY) {
            e->findings |= SBX_F_BAD_FIELD;
            continue;
        }
        struct sbx_recfiles_list *slot = NULL;
        uint64_t h = 0;
        if (m->val_len <= SBX_RECFILES_RAW) {
            h = sbx_jline_hash(m->val, m->val_len) ^ f->root;
            slot = &rf->cache[h % SBX_RECFILES_CACHE];
            if (slot->raw_len == m->val_len && slot->hash == h && slot->root == f->root &&
                slot->out == out && memcmp(slot->raw, m->val, m->val_len) == 0) {
                f->paths[c] = slot->paths;
                f->n[c] = slot->n;
                if (slot->bad)
                    e->findings |= SBX_F_BAD_FIELD;
                continue;
            }
        }
        bool bad = false;
        f->paths[c] = read_list(rf, j, out, m, rootdir, rootlen, &f->n[c], &bad);
        if (bad)
            e->findings |= SBX_F_BAD_FIELD;
        if (slot) {
            *slot = (struct sbx_recfiles_list){.hash = h, .out = out, .paths = f->paths[c],
                                               .n = f->n[c], .root = f->root,
                                               .raw_len = (uint32_t)m->val_len, .bad = bad};
            memcpy(slot->raw, m->val, m->val_len);
        }
    }
}
