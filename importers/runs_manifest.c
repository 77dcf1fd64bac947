#include "importers/runs_manifest.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "importers/readfile.h"
#include "model/findings.h"
#include "model/review.h"
#include "model/timeline.h"

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static const char *expect(const char *p, const char *end, const char *tok)
{
    size_t n = strlen(tok);
    p = skip_ws(p, end);
    return (size_t)(end - p) >= n && memcmp(p, tok, n) == 0 ? p + n : NULL;
}

bool sbx_run_manifest_sniff(const char *data, size_t n)
{
    const char *p = data, *end = data + n;
    static const char *const toks[] = {"{", "\"schema\"", ":", "1", ",", "\"verdict\""};
    for (size_t i = 0; p && i < sizeof toks / sizeof toks[0]; i++)
        p = expect(p, end, toks[i]);
    return p != NULL;
}

static bool newer(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec != b->tv_sec ? a->tv_sec > b->tv_sec : a->tv_nsec > b->tv_nsec;
}

bool sbx_run_manifest_fresh(const char *dir)
{
    struct sbx_buf p = SBX_BUF_INIT;
    sbx_buf_addf(&p, "%s/%s", dir, SBX_RUN_MANIFEST_NAME);
    struct stat mst;
    bool fresh = lstat(p.p, &mst) == 0 && S_ISREG(mst.st_mode);
    DIR *d = fresh ? opendir(dir) : NULL;
    fresh = d != NULL;
    struct dirent *de;
    while (fresh && (de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
            strcmp(de->d_name, SBX_RUN_MANIFEST_NAME) == 0 ||
            strcmp(de->d_name, SBX_REVIEW_FILE_NAME) == 0)
            continue;
        p.len = 0;
        sbx_buf_addf(&p, "%s/%s", dir, de->d_name);
        struct stat st;
        /* a file that cannot be looked at might be newer: not fresh */
        if (lstat(p.p, &st) != 0 || (S_ISREG(st.st_mode) && newer(&st.st_mtim, &mst.st_mtim)))
            fresh = false;
    }
    if (d)
        closedir(d);
    sbx_buf_free(&p);
    return fresh;
}

/* A member that is a non-negative integer (an int64_t), or null when
 * nullable (then *v is SBX_TIME_UNKNOWN). */
static bool get_int(json_t *o, const char *key, bool nullable, int64_t *v)
{
    json_t *x = json_object_get(o, key);
    if (nullable && json_is_null(x)) {
        *v = SBX_TIME_UNKNOWN;
        return true;
    }
    if (!json_is_integer(x) || json_integer_value(x) < 0)
        return false;
    *v = (int64_t)json_integer_value(x);
    return true;
}

static bool parse_row(json_t *root, struct sbx_run_row *v, const char **why)
{
    json_t *schema = json_object_get(root, "schema"), *row = json_object_get(root, "runs_row");
    if (!json_is_integer(schema) || json_integer_value(schema) != 1) {
        *why = "not schema 1";
        return false;
    }
    if (!json_is_object(row)) {
        *why = "no runs_row (written by an older sbxview)";
        return false;
    }
    int64_t events;
    *why = "a runs_row member of the wrong type";
    if (!get_int(row, "start_ns", true, &v->start) || !get_int(row, "end_ns", true, &v->end) ||
        !get_int(row, "events", false, &events))
        return false;
    v->events = (size_t)events;
    json_t *counts = json_object_get(row, "counts"), *known = json_object_get(row, "known"),
           *findings = json_object_get(row, "findings");
    if (!json_is_object(counts) || !json_is_array(known) || !json_is_array(findings))
        return false;
    memset(v->count, 0, sizeof v->count);
    for (int col = SBX_RUN_SANDBOXES; col < SBX_RUN_LOG_END; col++) {
        int64_t n;
        if (!get_int(counts, sbx_run_col_name((enum sbx_run_col)col), false, &n))
            return false;
        v->count[col] = (size_t)n;
    }
    v->known = 1u << SBX_RUN_REVIEW | 1u << SBX_RUN_VERDICT; /* the review file tells them */
    size_t i;
    json_t *x;
    json_array_foreach(known, i, x) {
        int col = json_is_string(x) ? sbx_run_col_by_name(json_string_value(x)) : -1;
        if (col < SBX_RUN_SANDBOXES || col >= SBX_RUN_LOG_END) {
            *why = "an unknown column in runs_row.known";
            return false;
        }
        v->known |= 1u << col;
    }
    v->findings = 0;
    json_array_foreach(findings, i, x) {
        uint32_t bit = json_is_string(x) ? sbx_finding_by_name(json_string_value(x)) : 0;
        if (!bit) {
            /* a finding this sbxview does not know: its row cannot be told from here */
            *why = "a finding this sbxview does not know in runs_row.findings";
            return false;
        }
        v->findings |= bit;
    }
    json_t *mm = json_object_get(row, "stdout_mismatch");
    json_t *first = json_object_get(mm, "first");
    int64_t count;
    if (!json_is_string(first) || !get_int(mm, "count", false, &count))
        return false;
    /* kept as the list keeps its own (a program label, cut at a character);
     * the list draws it as log text, redacted and sanitised */
    const char *f = json_string_value(first);
    size_t fn = json_string_length(first), k = fn < sizeof v->mismatch ? fn : sizeof v->mismatch - 1;
    while (k < fn && k > 0 && ((unsigned char)f[k] & 0xc0) == 0x80)
        k--;
    for (size_t j = 0; j < k; j++)
        v->mismatch[j] = f[j] ? f[j] : '?';
    v->mismatch[k] = '\0';
    v->mismatches = (size_t)count;
    return true;
}

bool sbx_run_manifest_parse(const char *data, size_t n, struct sbx_run_row *row, char *err,
                            size_t errsz)
{
    if (!sbx_run_manifest_sniff(data, n)) {
        snprintf(err, errsz, "not sbxview's JSON summary");
        return false;
    }
    json_error_t jerr;
    json_t *root = json_loadb(data, n, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf(err, errsz, "not valid JSON (line %d)", jerr.line);
        return false;
    }
    struct sbx_run_row v = *row;
    const char *why = NULL;
    bool ok = parse_row(root, &v, &why);
    json_decref(root);
    if (!ok) {
        snprintf(err, errsz, "%s", why);
        return false;
    }
    *row = v;
    return true;
}

/* The row of dir's manifest into *v when the rule allows it. */
static bool read_current(const char *dir, struct sbx_run_row *v)
{
    if (!sbx_run_manifest_fresh(dir))
        return false;
    struct sbx_buf p = SBX_BUF_INIT;
    sbx_buf_addf(&p, "%s/%s", dir, SBX_RUN_MANIFEST_NAME);
    const char *data;
    size_t size, file_size;
    bool cut;
    char err[256];
    bool ok = sbx_read_prefix(p.p, SBX_RUN_MANIFEST_MAX, &data, &size, &file_size, &cut, err,
                              sizeof err);
    sbx_buf_free(&p);
    if (!ok)
        return false;
    ok = !cut && sbx_run_manifest_parse(data, size, v, err, sizeof err);
    sbx_release_input(data, size, SBX_DATA_HEAP);
    return ok;
}

bool sbx_run_manifest_current(const char *dir)
{
    struct sbx_run_row v = {.start = SBX_TIME_UNKNOWN, .end = SBX_TIME_UNKNOWN};
    return read_current(dir, &v);
}

bool sbx_run_manifest_read(const char *dir, struct sbx_run_row *row)
{
    return read_current(dir, row);
}
