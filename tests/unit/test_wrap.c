/* The text summary's wrapping (render/summary/wrap.h): rows break only at
 * spaces, a word that does not fit what is left of a row goes whole onto
 * the next when it fits there, and only a word longer than a row is split
 * (never inside a character). The boundary each way: a word exactly the
 * room left, one column more, exactly a row, one longer than a row. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "render/summary/wrap.h"

/* The rows of s: the first `first` columns wide, the others `cont`; joined
 * by '|' into out. */
static void rows_of(const char *s, int first, int cont, char *out, size_t outsz)
{
    struct sbx_buf b = SBX_BUF_INIT;
    size_t n = strlen(s), next = 0;
    struct sbx_wrap_row row;
    bool any = false;
    for (int avail = first; next < n || !any; avail = cont) {
        next = sbx_wrap_next(s, n, next, avail, cont, &row);
        if (any)
            sbx_buf_addc(&b, '|');
        sbx_buf_add(&b, s + row.begin, row.end - row.begin);
        any = true;
        assert_true(b.len < 4096);
    }
    sbx_buf_addc(&b, '\0');
    snprintf(out, outsz, "%s", b.p);
    sbx_buf_free(&b);
}

static void breaks_at_spaces(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int first, cont;
        const char *want;
    } cases[] = {
        {"aa bbbb cc", 20, 10, "aa bbbb cc"},          /* fits */
        {"aa bbbb", 7, 5, "aa bbbb"},                  /* a word exactly the room left: stays */
        {"aa bbbbb", 7, 6, "aa|bbbbb"},                /* one column more: moves whole */
        {"aa bbbbbb", 7, 6, "aa|bbbbbb"},              /* exactly a row: moves whole */
        {"aa bbbbbbb", 7, 6, "aa bbbb|bbb"},           /* one longer than a row: split */
        {"aaaa bbbbbbb", 7, 6, "aaaa|bbbbbb|b"},       /* split from the next row: this one is more than half full */
        {"aaaaaaaaaaaa", 5, 5, "aaaaa|aaaaa|aa"},      /* no space at all: split where it must */
        {"aa   bbbbb", 7, 6, "aa|bbbbb"},              /* spaces at the break are left out */
        {"one two three four", 9, 7, "one two|three|four"},
        /* a path that fits the next row goes there whole, not ".../runtime-event" + "s.jsonl" */
        {"(recorder, 12 events); tests/fixtures/story-run/runtime-events.jsonl (x)", 40, 50,
         "(recorder, 12 events);|tests/fixtures/story-run/runtime-events.jsonl (x)"},
        {"x \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 7, 6, "x|\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"}, /* wide: 6 columns */
        {"x \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xa0", 7, 7,
         "x \xe6\x97\xa5\xe6\x9c\xac|\xe8\xaa\x9e\xe3\x81\xa0"}, /* 8 columns, a row of 7: split between characters */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char got[4096];
        rows_of(cases[k].text, cases[k].first, cases[k].cont, got, sizeof got);
        print_message("%s (%d, %d) -> %s\n", cases[k].text, cases[k].first, cases[k].cont, got);
        assert_string_equal(got, cases[k].want);
    }
}

int main(void)
{
    setlocale(LC_ALL, "C.UTF-8"); /* the widths of wide characters, as a terminal's */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(breaks_at_spaces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
