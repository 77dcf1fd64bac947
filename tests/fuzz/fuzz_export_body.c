/* Fuzz target for export/body: a recorder log made from the input (NUL
 * separates a command, its stdout, its stderr and the sandbox; each piece
 * may hold anything) with a planted GitHub token, exported to every body
 * kind. Checked: the body is valid UTF-8 with no control but LF and no C1
 * code point; within its limit; in markdown, every piece of log text stays
 * inside its code span or fence (what is outside is sbxview's words: no @,
 * <, >, [, ], backslash, "http", nothing at a line's start that GitLab
 * would run); in ADF every non-code text node likewise; Slack's text holds
 * no < or > and no backtick but its two fences; the marker is found; and
 * the planted token is not there. The first byte picks the limit and
 * --include-output. */
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "export/body.h"
#include "importers/format.h"
#include "importers/load.h"
#include "base/utf8.h"

#define TOKEN "ghp_Zq8Lw3Rt6Yp1Ks4Nv7Bx2Cm5Hd9Fg0Jj3kAB"
#define TOKEN_BODY "Zq8Lw3Rt6Yp1Ks4Nv7Bx2Cm5Hd9Fg0Jj3k"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    json_object_seed(1);
    return 0;
}

/* check_token false: the input itself holds the token's bytes (the fuzzer
 * copies them about), so its survival cannot be told apart. */
static void inert(const char *s, size_t n, bool check_token)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (!k)
            abort(); /* not UTF-8 */
        if ((cp < 0x20 && cp != '\n') || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
            (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
            abort();
        i += k;
    }
    if (check_token && memmem(s, n, TOKEN_BODY, strlen(TOKEN_BODY)))
        abort(); /* the planted token survived */
}

static bool bad_outside(const char *o)
{
    return strpbrk(o, "@<>[]\\") || strstr(o, "http") || strstr(o, "www.") || o[0] == '/';
}

static void markdown_inert(const char *s, size_t n, const char *digest, const char *review_digest)
{
    const char *end = s + n;
    size_t fence = 0;
    char marker[128], review_marker[128];
    snprintf(marker, sizeof marker, "<!-- sbxview:%s -->", digest);
    /* the review's marker (export/body.h): sbxview's own line, before the last */
    snprintf(review_marker, sizeof review_marker, "<!-- sbxview-review:%s -->", review_digest);
    char *outside = malloc(n + 1);
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s), run = 0;
        while (run < len && s[run] == '`')
            run++;
        if (fence) {
            if (run == len && run >= fence)
                fence = 0;
        } else if (run >= 3 && run == len) {
            fence = run;
        } else if (len == strlen(marker) && memcmp(s, marker, len) == 0) {
            if (!nl || nl + 1 != end)
                abort(); /* the marker is the last line */
        } else if (len == strlen(review_marker) && memcmp(s, review_marker, len) == 0) {
            if (!nl || nl + 1 == end)
                abort(); /* the review's marker comes before the last line */
        } else {
            size_t o = 0;
            for (size_t i = 0; i < len;) {
                if (s[i] != '`') {
                    outside[o++] = s[i++];
                    continue;
                }
                size_t k = 0;
                while (i + k < len && s[i + k] == '`')
                    k++;
                size_t j = i + k, close = 0;
                while (j < len) {
                    size_t r = 0;
                    while (j + r < len && s[j + r] == '`')
                        r++;
                    if (r == k) {
                        close = j;
                        break;
                    }
                    j += r ? r : 1;
                }
                if (!close)
                    abort(); /* a code span that never closes */
                i = close + k;
            }
            outside[o] = 0;
            if (bad_outside(outside))
                abort();
        }
        s = nl ? nl + 1 : end;
    }
    free(outside);
    if (fence)
        abort(); /* a fence left open */
}

static void adf_inert(json_t *node)
{
    if (json_is_array(node)) {
        size_t i;
        json_t *v;
        json_array_foreach(node, i, v) adf_inert(v);
        return;
    }
    const char *type = json_string_value(json_object_get(node, "type"));
    if (!type)
        abort();
    if (strcmp(type, "codeBlock") == 0)
        return;
    if (strcmp(type, "text") == 0) {
        const char *t = json_string_value(json_object_get(node, "text"));
        if (!t || !*t)
            abort();
        json_t *marks = json_object_get(node, "marks");
        const char *mark = marks ? json_string_value(json_object_get(json_array_get(marks, 0), "type")) : NULL;
        if (!(mark && strcmp(mark, "code") == 0) && (bad_outside(t) || strchr(t, '`')))
            abort();
        return;
    }
    json_t *content = json_object_get(node, "content");
    if (content)
        adf_inert(content);
}

static void line(json_t *arr, const char *cmd, size_t cn, const char *out, size_t on,
                 const char *err, size_t en, const char *sb, size_t sn, int sec)
{
    json_t *o = json_object();
    char at[40];
    snprintf(at, sizeof at, "2026-01-01T00:00:%02d.000Z", sec);
    json_object_set_new(o, "at", json_string(at));
    json_object_set_new(o, "sandbox", json_stringn_nocheck(sb, sn));
    json_object_set_new(o, "kind", json_string("command"));
    json_object_set_new(o, "command", json_stringn_nocheck(cmd, cn));
    json_object_set_new(o, "exit", json_integer(1));
    json_object_set_new(o, "ms", json_integer(5));
    json_object_set_new(o, "stdout", json_stringn_nocheck(out, on));
    json_object_set_new(o, "stderr", json_stringn_nocheck(err, en));
    json_array_append_new(arr, o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const size_t limits[] = {0, 1500, 3000, 6000, 65536};
    size_t limit = limits[data[0] % 5];
    bool output = data[0] & 8;
    bool check_token = memmem(data, size, TOKEN_BODY, 8) == NULL;
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    /* up to four NUL-separated pieces */
    const char *piece[4] = {"", "", "", "s1"};
    size_t len[4] = {0, 0, 0, 2};
    for (int k = 0; k < 4 && p <= end; k++) {
        const char *z = memchr(p, 0, (size_t)(end - p));
        piece[k] = p;
        len[k] = z ? (size_t)(z - p) : (size_t)(end - p);
        p = z ? z + 1 : end + 1;
    }
    /* the token planted in the output, between spaces */
    char *out = malloc(len[1] + 64);
    memcpy(out, piece[1], len[1]);
    size_t on = len[1];
    memcpy(out + on, " " TOKEN " ", strlen(TOKEN) + 2);
    on += strlen(TOKEN) + 2;

    json_t *arr = json_array();
    line(arr, piece[0], len[0], out, on, piece[2], len[2], piece[3], len[3], 1);
    line(arr, "echo " TOKEN, 5 + strlen(TOKEN), piece[2], len[2], piece[0], len[0], "s2", 2, 2);
    struct sbx_buf log = SBX_BUF_INIT;
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v)
    {
        char *s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
        if (s) {
            sbx_buf_adds(&log, s);
            sbx_buf_addc(&log, '\n');
            free(s);
        }
    }
    json_decref(arr);
    free(out);

    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    char *copy = malloc(log.len + 1);
    memcpy(copy, log.p ? log.p : "", log.len);
    uint32_t src = sbx_timeline_add_source(&tl, "run.jsonl", copy, log.len, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(&tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&tl);
    sbx_buf_free(&log);
    struct sbx_summary sum;
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (!sbx_summarize(&tl, &so, &sum, err, sizeof err))
        abort();
    struct sbx_export_digests d;
    sbx_export_digests(&tl, &d);
    char *path = sbx_xstrndup(piece[0], len[0]); /* the reopen line's path: a C string */
    const char *paths[1] = {path};
    for (int k = 0; k < 4; k++) {
        struct sbx_body_opts o = {.kind = (enum sbx_body_kind)k, .limit = limit,
                                  .include_output = output, .output_lines = 5,
                                  .paths = paths, .npaths = 1};
        struct sbx_buf body = SBX_BUF_INIT;
        struct sbx_body_info info;
        if (!sbx_export_body(&tl, &sum, &d, &o, &body, &info, err, sizeof err)) {
            if (!limit || body.len)
                abort(); /* only a limit can refuse, and then nothing is written */
            continue;
        }
        inert(body.p, body.len, check_token);
        if (limit && info.chars > limit)
            abort();
        if (!sbx_export_marker_found(body.p, body.len, info.marker))
            abort();
        if (k == SBX_BODY_MARKDOWN) {
            if (sbx_body_chars(body.p, body.len) != info.chars)
                abort();
            markdown_inert(body.p, body.len, info.marker, info.review_marker);
        } else if (k == SBX_BODY_JIRA_ADF || k == SBX_BODY_SLACK) {
            json_error_t je;
            json_t *doc = json_loadb(body.p, body.len, 0, &je);
            if (!doc)
                abort();
            if (k == SBX_BODY_JIRA_ADF) {
                adf_inert(doc);
            } else {
                const char *t = json_string_value(json_object_get(doc, "text"));
                size_t ticks = 0;
                if (!t || strpbrk(t, "<>"))
                    abort();
                for (const char *c = t; *c; c++)
                    ticks += *c == '`';
                if (ticks != 6)
                    abort();
                inert(t, strlen(t), check_token);
            }
            json_decref(doc);
        }
        sbx_buf_free(&body);
    }
    free(path);
    sbx_export_digests_free(&d);
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
    return 0;
}
