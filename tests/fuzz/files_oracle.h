/* The oracle for the recorder's `files` lines: what jansson's reading of a
 * line gives (the root as a C string, each list an array, each element a
 * string, "./" dropped, paths under the root; a present list that is no
 * array, an element that is no string, an `at` that is no time and a
 * `sandbox` that is no string set SBX_F_BAD_FIELD), compared with the event
 * the flat reading made. Shared by the recorder's fuzz target and its unit
 * tests. Header-only; files_oracle_diff returns NULL when they agree, else
 * a static ASCII reason. Nothing to free. */
#ifndef SBX_FUZZ_FILES_ORACLE_H
#define SBX_FUZZ_FILES_ORACLE_H

#include <jansson.h>
#include <stdbool.h>
#include <string.h>

#include "base/buf.h"
#include "base/timefmt.h"
#include "importers/json/jsonload.h"
#include "model/findings.h"
#include "model/timeline.h"
#include "model/files.h"

static const char *files_oracle_diff(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    if (e->kind != SBX_EV_FILES)
        return NULL;
    const struct sbx_files *f = e->u.files;
    if (!f)
        return "a files event without its lists";
    json_t *o = sbx_json_load(sbx_event_line(tl, e), sbx_ev_line_len(e), 0, NULL, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return "jansson reads no object from a line that made a files event";
    }
    const char *why = NULL;
    bool bad = false;
    json_t *at = json_object_get(o, "at");
    int64_t ns;
    unsigned tf;
    if (!json_is_string(at) || !sbx_time_parse(json_string_value(at), json_string_length(at), &ns, &tf))
        bad = true;
    json_t *sb = json_object_get(o, "sandbox");
    if (sb && !json_is_string(sb))
        bad = true;
    const char *rootdir = json_string_value(json_object_get(o, "root"));
    size_t rootlen = rootdir ? strlen(rootdir) : 0;
    while (rootlen > 1 && rootdir[rootlen - 1] == '/')
        rootlen--;
    bool workspace = !rootdir || rootlen == 0 || (rootlen == 1 && rootdir[0] == '.');
    const char *got_root = sbx_str(tl, f->root);
    if (workspace ? f->root != 0 : (strlen(got_root) != rootlen || memcmp(got_root, rootdir, rootlen)))
        why = "the root differs";
    static const char *const names[SBX_CHANGE_COUNT] = {"added", "changed", "removed"};
    for (int c = 0; c < SBX_CHANGE_COUNT && !why; c++) {
        json_t *arr = json_object_get(o, names[c]);
        size_t want = 0;
        if (arr && !json_is_array(arr))
            bad = true;
        for (size_t i = 0; json_is_array(arr) && i < json_array_size(arr); i++) {
            json_t *v = json_array_get(arr, i);
            if (!json_is_string(v)) {
                bad = true;
                continue;
            }
            const char *p = json_string_value(v);
            size_t plen = json_string_length(v);
            while (plen >= 2 && p[0] == '.' && p[1] == '/') {
                p += 2;
                plen -= 2;
            }
            struct sbx_buf path = SBX_BUF_INIT;
            if (!workspace) {
                sbx_buf_add(&path, rootdir, rootlen);
                if (rootlen != 1 || rootdir[0] != '/')
                    sbx_buf_addc(&path, '/');
            }
            sbx_buf_add(&path, p, plen);
            const char *wp = path.len ? path.p : "";
            if (want >= f->n[c])
                why = "a list has fewer paths";
            else if (strlen(sbx_files_path(tl, f, (enum sbx_change)c, want)) != strnlen(wp, path.len) ||
                     memcmp(sbx_files_path(tl, f, (enum sbx_change)c, want), wp, strnlen(wp, path.len)) != 0)
                why = "a path differs"; /* as the analyses read it: a C string */
            sbx_buf_free(&path);
            if (why)
                break;
            want++;
        }
        if (!why && want != f->n[c])
            why = "a list has more paths";
    }
    if (!why && bad != ((e->findings & SBX_F_BAD_FIELD) != 0))
        why = "the bad-field finding differs";
    json_decref(o);
    return why;
}

#endif
