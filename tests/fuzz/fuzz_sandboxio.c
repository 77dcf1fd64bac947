/* Arbitrary bytes two ways.
 *
 * As a sandboxio audit log: detection of every format, the import on one
 * thread and on two (they must agree), every analysis, the three summaries
 * (the json one must parse), and every event's row and detail drawn; each
 * event's line and texts lie inside the file; no line jansson reads is
 * skipped as not JSON (tests/fuzz/json_oracle.h).
 *
 * As an argv (the whole input a JSON array of strings): whenever jansson
 * reads it as one, sbx_argv_format must too, within SBX_ARGV_MAX, and its
 * command line, split again as a POSIX shell splits words, must give back
 * exactly jansson's strings. No crash, no leak. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/load.h"
#include "model/argv.h"
#include "analyses/summary.h"
#include "render/summary/summary.h"
#include "tests/fuzz/json_oracle.h"
#include "render/views/views.h"

static void inside(const struct sbx_event *e, const struct sbx_text *t)
{
    uint64_t off = sbx_text_off(e, t);
    if ((t->flags & SBX_TEXT_PRESENT) &&
        (off < e->line_off || off + sbx_text_len(t) > e->line_off + sbx_ev_line_len(e)))
        abort();
    /* a field inside its line has the usual form */
    if ((t->flags & SBX_TEXT_PRESENT) && (t->flags & SBX_TEXT_LONG) && sbx_text_len(t) <= SBX_TEXT_SHORT_MAX)
        abort();
}

static void draw(const struct sbx_timeline *tl, const struct sbx_summary *sum)
{
    struct sbx_rows_look look;
    sbx_rows_look_init(&look, tl, sum, false);
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    sbx_grid_resize(&g, 80, 1);
    for (size_t i = 0; i < tl->n && i < 64; i++) {
        sbx_draw_event_row(&g, 0, &look, sbx_tl_at(tl, i), i == 0);
        struct sbx_doc d;
        sbx_doc_init(&d, 60, false);
        sbx_detail_doc(&d, &look, sbx_tl_at(tl, i), false);
        sbx_doc_free(&d);
    }
    sbx_grid_free(&g);
    sbx_rows_look_free(&look);
}

static size_t run(const uint8_t *data, size_t size, int threads)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    uint32_t src = sbx_timeline_add_source(&tl, "audit.jsonl", copy, size, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = threads, .split_min = 1};
    sbx_load_source(&tl, src, &sbx_format_sandboxio, &lo);
    sbx_timeline_finish(&tl);
    json_oracle_check(&tl, (const char *)data, size);
    for (size_t i = 0; i < tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&tl, i);
        if (e->line_off + sbx_ev_line_len(e) > size)
            abort();
        if (e->kind == SBX_EV_COMMAND)
            inside(e, &e->u.cmd.command);
        if (e->start != SBX_TIME_UNKNOWN && e->start > e->end)
            abort();
    }
    size_t n = tl.n;
    if (threads == 1) {
        struct sbx_summary sum;
        char err[256];
        if (!sbx_summarize(&tl, NULL, &sum, err, sizeof err))
            abort();
        for (int f = SBX_SUMMARY_TEXT; f <= SBX_SUMMARY_JSON; f++) {
            struct sbx_buf out = SBX_BUF_INIT;
            if (!sbx_render_summary(&tl, &sum, (enum sbx_summary_format)f, NULL, &out, err, sizeof err))
                abort();
            if (f == SBX_SUMMARY_JSON) {
                json_t *v = json_loadb(out.p, out.len, 0, NULL);
                if (!v)
                    abort();
                json_decref(v);
            }
            sbx_buf_free(&out);
        }
        draw(&tl, &sum);
        sbx_summary_free(&sum);
    }
    sbx_timeline_free(&tl);
    return n;
}

/* The words a POSIX shell makes of line (as sbx_argv_format writes it:
 * words one space apart, '…', "…", \' between quotes), into a JSON array. */
static json_t *shell_words(const char *s, size_t n)
{
    json_t *words = json_array();
    const char *p = s, *end = s + n;
    struct sbx_buf w = SBX_BUF_INIT;
    while (p < end) {
        sbx_buf_clear(&w);
        sbx_buf_reserve(&w, 0);
        while (p < end && *p != ' ') {
            if (*p == '\'') {
                const char *q = memchr(p + 1, '\'', (size_t)(end - p - 1));
                if (!q)
                    abort(); /* unbalanced */
                sbx_buf_add(&w, p + 1, (size_t)(q - p - 1));
                p = q + 1;
            } else if (*p == '"') {
                for (p++; p < end && *p != '"'; p++) {
                    if (*p == '\\' && p + 1 < end && strchr("$`\"\\\n", p[1]))
                        p++;
                    else if (*p == '$' || *p == '`')
                        abort(); /* would expand */
                    sbx_buf_addc(&w, *p);
                }
                if (p == end)
                    abort();
                p++;
            } else if (*p == '\\') {
                if (p + 1 == end)
                    abort();
                sbx_buf_addc(&w, p[1]);
                p += 2;
            } else {
                /* unquoted: only what needs no quotes (and ***) */
                if (strchr("'\"\\$`;&|<>()[]{}?!#~\t\n ", *p) && *p)
                    abort();
                sbx_buf_addc(&w, *p++);
            }
        }
        json_array_append_new(words, json_stringn(w.p, w.len));
        if (p < end)
            p++; /* the space between words */
        if (p == end && end > s && end[-1] == ' ')
            abort(); /* a trailing space */
    }
    sbx_buf_free(&w);
    return words;
}

static void argv_roundtrip(const uint8_t *data, size_t size)
{
    json_t *want = json_loadb((const char *)data, size, JSON_ALLOW_NUL, NULL);
    char *dst = malloc(SBX_ARGV_MAX(size));
    size_t n = sbx_argv_format((const char *)data, size, dst);
    bool strings = want && json_is_array(want);
    for (size_t i = 0; strings && i < json_array_size(want); i++)
        strings = json_is_string(json_array_get(want, i));
    if (strings) {
        if (n == SIZE_MAX || n > SBX_ARGV_MAX(size))
            abort();
        json_t *got = shell_words(dst, n);
        if (!json_equal(got, want))
            abort();
        json_decref(got);
    } else if (n != SIZE_MAX && n > SBX_ARGV_MAX(size)) {
        abort();
    }
    json_decref(want);
    free(dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sbx_detect_format((const char *)data, size);
    if (run(data, size, 1) != run(data, size, 2))
        abort();
    argv_roundtrip(data, size);
    return 0;
}
