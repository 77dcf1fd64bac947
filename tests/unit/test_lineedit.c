/* Tests for app/lineedit.h, the status line's one-line editor: the table
 * in tests/unit/cases/lineedit.test (typing, moving, deleting, the kill
 * keys, code points of every length, what the start text may not hold),
 * and that no key script leaves the text invalid UTF-8 or the cursor off a
 * code point's start. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/utf8.h"
#include "app/keys.h"
#include "app/lineedit.h"
#include "tests/unit/cases.h"

static bool valid_utf8(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (!k || cp < 0x20 || cp == 0x7f)
            return false;
        i += k;
    }
    return true;
}

static void check_valid(const struct sbx_lineedit *ed)
{
    const char *t = sbx_lineedit_text(ed);
    assert_true(valid_utf8(t, ed->text.len));
    assert_true(ed->cursor <= ed->text.len);
    if (ed->cursor < ed->text.len)
        assert_int_not_equal((unsigned char)t[ed->cursor] & 0xc0, 0x80);
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 4);
    struct sbx_lineedit ed = {0};
    sbx_lineedit_start(&ed, c->field[0], c->len[0]);
    enum sbx_lineedit_result res = SBX_EDIT_GOING;
    for (size_t i = 0; i < c->len[1];) {
        int key, cols, rows;
        size_t used = sbx_key_parse(c->field[1] + i, c->len[1] - i, &key, &cols, &rows);
        if (used == SIZE_MAX || used == 0)
            case_fail(c, "bad key script at byte %zu", i);
        i += used;
        res = sbx_lineedit_key(&ed, key);
        check_valid(&ed);
    }
    struct sbx_buf got = SBX_BUF_INIT;
    sbx_buf_add(&got, sbx_lineedit_text(&ed), ed.cursor);
    sbx_buf_addc(&got, '|');
    sbx_buf_add(&got, sbx_lineedit_text(&ed) + ed.cursor, ed.text.len - ed.cursor);
    if (got.len != c->len[2] || memcmp(got.p, c->field[2], got.len) != 0)
        case_fail(c, "got \"%s\", want \"%s\"", got.p, c->field[2]);
    static const char *const names[] = {"going", "accept", "cancel"};
    if (strcmp(names[res], c->field[3]) != 0)
        case_fail(c, "the last key: %s, want %s", names[res], c->field[3]);
    sbx_buf_free(&got);
    sbx_lineedit_free(&ed);
}

static void the_table(void **state)
{
    (void)state;
    assert_true(cases_run("lineedit.test", check_case, NULL) >= 38);
}

/* Random keys (characters of every UTF-8 length, the editing keys, named
 * keys, controls) never break the text or the cursor, and never grow the
 * text past its limit. */
static void random_keys(void **state)
{
    (void)state;
    static const int keys[] = {'a', ' ', 0xe9, 0x6f22, 0x1f600, 0x202e, 0xad, SBX_KEY_LEFT,
                               SBX_KEY_RIGHT, SBX_KEY_HOME, SBX_KEY_END, SBX_KEY_BACKSPACE,
                               SBX_KEY_DELETE, 1, 2, 4, 5, 6, 8, 11, 21, 23, 127, 0x85, 0xd800,
                               SBX_KEY_UP, SBX_KEY_F1, 0, 9};
    uint32_t seed = 12345;
    struct sbx_lineedit ed = {0};
    sbx_lineedit_start(&ed, "", 0);
    for (int i = 0; i < 200000; i++) {
        seed = seed * 1103515245u + 12345u;
        int key = keys[(seed >> 16) % (sizeof keys / sizeof keys[0])];
        sbx_lineedit_key(&ed, key);
        check_valid(&ed);
        assert_true(ed.text.len <= SBX_LINEEDIT_MAX);
    }
    sbx_lineedit_free(&ed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_table),
        cmocka_unit_test(random_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
