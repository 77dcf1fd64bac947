/* A files event's storage (model/files.h): lists of 0, 1 and many paths in
 * every combination, with and without the rare fields, each read back as
 * added; the rare fields all zero when the struct has none, and setting
 * them never touches the lists; the buffer's 4-byte pieces they live in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/files.h"

static const uint32_t sizes[] = {0, 1, 2, 1000};

static uint32_t id_of(struct sbx_timeline *tl, int c, uint32_t k)
{
    char path[64];
    snprintf(path, sizeof path, "%s/f%u", c == 0 ? "added" : c == 1 ? "changed" : "removed", k);
    return sbx_strtab_intern(&tl->strings, path, strlen(path));
}

static void check(struct sbx_timeline *tl, const struct sbx_files *f, const uint32_t n[SBX_CHANGE_COUNT])
{
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        assert_int_equal(f->n[c], n[c]);
        for (uint32_t k = 0; k < n[c]; k++) {
            char want[64];
            snprintf(want, sizeof want, "%s/f%u", c == 0 ? "added" : c == 1 ? "changed" : "removed", k);
            assert_int_equal(sbx_files_ids(f, (enum sbx_change)c)[k], id_of(tl, c, k));
            assert_string_equal(sbx_files_path(tl, f, (enum sbx_change)c, k), want);
        }
    }
}

static void every_shape(void **state)
{
    (void)state;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_evbuf buf = {0};
    size_t ns = sizeof sizes / sizeof *sizes;
    for (int more = 0; more < 2; more++)
        for (size_t a = 0; a < ns; a++)
            for (size_t b = 0; b < ns; b++)
                for (size_t r = 0; r < ns; r++) {
                    const uint32_t n[SBX_CHANGE_COUNT] = {sizes[a], sizes[b], sizes[r]};
                    struct sbx_files *f = sbx_files_new(&buf, n, more);
                    f->root = 7;
                    for (int c = 0; c < SBX_CHANGE_COUNT; c++)
                        for (uint32_t k = 0; k < n[c]; k++)
                            sbx_files_add(f, (enum sbx_change)c, id_of(&tl, c, k));
                    check(&tl, f, n);
                    assert_int_equal(f->root, 7);
                    const struct sbx_files_more *m = sbx_files_more(f);
                    assert_true(m->bytes_in == 0 && m->bytes_out == 0 && m->denials == 0 && m->before == 0 &&
                                m->after == 0 && m->id == 0 && m->signed_off_s == 0);
                    if (!more) {
                        assert_null(sbx_files_more_mut(f));
                        assert_false(f->flags & SBX_FILES_MORE);
                        continue;
                    }
                    struct sbx_files_more *w = sbx_files_more_mut(f);
                    assert_non_null(w);
                    *w = (struct sbx_files_more){-1, INT64_MAX, UINT64_MAX, UINT32_MAX, 3, 9, -300};
                    check(&tl, f, n); /* the lists stay as they were */
                    m = sbx_files_more(f);
                    assert_true(m->bytes_in == -1 && m->bytes_out == INT64_MAX && m->denials == UINT64_MAX &&
                                m->before == UINT32_MAX && m->after == 3 && m->id == 9 && m->signed_off_s == -300);
                }
    sbx_evbuf_free(&buf);
    sbx_timeline_free(&tl);
}

/* The event buffer's pieces for files events: 4-byte aligned and cut to a
 * multiple of 4 (one right after the other in a block), mixed with pieces
 * aligned for any type, none overlapping another, all zeroed. */
static void word_pieces(void **state)
{
    (void)state;
    struct sbx_evbuf buf = {0};
    enum { N = 4000 };
    static unsigned char *piece[N];
    static size_t len[N];
    for (size_t i = 0; i < N; i++) {
        bool words = i % 5 != 4;
        len[i] = 1 + (i * 7) % 61;
        piece[i] = words ? sbx_evbuf_alloc_words(&buf, len[i]) : sbx_evbuf_alloc(&buf, len[i]);
        assert_int_equal((uintptr_t)piece[i] % (words ? 4 : 16), 0);
        for (size_t k = 0; k < len[i]; k++)
            assert_int_equal(piece[i][k], 0);
        memset(piece[i], (int)(i % 251) + 1, len[i]);
        if (i && words && i % 5 != 0 && piece[i] > piece[i - 1] && piece[i] - piece[i - 1] < 4096)
            assert_int_equal(piece[i] - piece[i - 1], (len[i - 1] + 3) / 4 * 4); /* packed */
    }
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < len[i]; k++)
            assert_int_equal(piece[i][k], (int)(i % 251) + 1);
    sbx_evbuf_free(&buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(every_shape), cmocka_unit_test(word_pieces)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
