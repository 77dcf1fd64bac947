/* The skipped lines of a source in words (importers/skipwords.h): every
 * line named, grouped by reason, runs as ranges, the unlisted rest counted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/skipwords.h"

/* Skips lines[i] with reasons[i] ('A', 'B', ...: "reason A") in a source of
 * its own, after a source with one skip of its own (never to be named). */
static char *words_of(const uint32_t *lines, const char *reasons, size_t n, size_t extra)
{
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    uint32_t other = sbx_timeline_add_source(&tl, "other", NULL, 0, SBX_DATA_HEAP);
    uint32_t src = sbx_timeline_add_source(&tl, "log", NULL, 0, SBX_DATA_HEAP);
    struct sbx_evbuf buf = {0};
    sbx_evbuf_skip(&buf, &tl, other, 2, "%s", "reason Z");
    sbx_timeline_adopt(&tl, &buf);
    for (size_t i = 0; i < n; i++)
        sbx_evbuf_skip(&buf, &tl, src, lines[i], "reason %c", reasons[i]);
    sbx_timeline_adopt(&tl, &buf);
    sbx_timeline_finish(&tl);
    tl.sources[src].skipped += extra; /* past the listing cap: counted only */
    struct sbx_buf out = SBX_BUF_INIT;
    sbx_skip_words(&tl, src, &out);
    sbx_evbuf_free(&buf);
    sbx_timeline_free(&tl);
    return out.p ? out.p : calloc(1, 1);
}

static void ranges_and_reasons(void **state)
{
    (void)state;
    static const struct {
        uint32_t lines[8];
        const char *reasons;
        size_t extra;
        const char *want;
    } cases[] = {
        {{7}, "A", 0, "line 7: reason A"},
        {{1, 2, 3}, "AAA", 0, "lines 1-3: reason A"},
        {{1, 2, 4, 5, 9}, "AAAAA", 0, "lines 1-2, 4-5, 9: reason A"},
        {{1, 2, 3, 4}, "AABA", 0, "lines 1-2, 4: reason A; line 3: reason B"},
        {{1, 2, 3, 4, 5}, "BABAB", 0, "lines 1, 3, 5: reason B; lines 2, 4: reason A"},
        {{3, 4}, "AA", 5, "lines 3-4: reason A; +5 more lines"},
        {{3}, "A", 1, "line 3: reason A; +1 more line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n = strlen(cases[i].reasons);
        char *got = words_of(cases[i].lines, cases[i].reasons, n, cases[i].extra);
        assert_string_equal(got, cases[i].want);
        free(got);
    }
    char *none = words_of(NULL, "", 0, 0);
    assert_string_equal(none, "");
    free(none);
}

/* A long list stops near SBX_SKIPWORDS_MAX and counts what it did not name. */
static void long_lists_are_cut_and_counted(void **state)
{
    (void)state;
    enum { N = 900 };
    uint32_t *lines = malloc(N * sizeof *lines);
    char *reasons = malloc(N + 1);
    for (size_t i = 0; i < N; i++) {
        lines[i] = (uint32_t)(2 * i + 1); /* no two in a row: no ranges */
        reasons[i] = 'A';
    }
    reasons[N] = '\0';
    /* one reason: all named in one group whatever its length */
    char *one = words_of(lines, reasons, N, 0);
    assert_non_null(strstr(one, ", 1799: reason A"));
    assert_null(strstr(one, "more"));
    free(one);
    for (size_t i = 0; i < N; i++)
        reasons[i] = (char)('A' + i % 26); /* many groups */
    char *many = words_of(lines, reasons, N, 0);
    assert_true(strlen(many) < SBX_SKIPWORDS_MAX + 2000);
    const char *more = strstr(many, "; +");
    assert_non_null(more);
    unsigned long rest = strtoul(more + 3, NULL, 10);
    /* no ranges: a group names 1 + its ", " lines; whole groups, the rest counted */
    size_t named = 0;
    for (const char *p = many; p < more; p++)
        named += strncmp(p, ", ", 2) == 0 || strncmp(p, "reason ", 7) == 0;
    assert_true(rest > 0);
    assert_int_equal(rest, N - named);
    free(many);
    free(lines);
    free(reasons);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ranges_and_reasons),
        cmocka_unit_test(long_lists_are_cut_and_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
