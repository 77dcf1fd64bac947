/* Tests for app/keys (key names and the --keys script syntax) and the key
 * map the help is made from: every name parses back, bad scripts are
 * refused with SIZE_MAX, <Resize:..> carries its size, and every key in the
 * map can be written in a script. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app/app_runs_keys.h"
#include "app/keymap.h"
#include "app/view.h"
#include "app/keys.h"

/* Parses one key from s; returns the bytes used. */
static size_t parse1(const char *s, int *key)
{
    int cols = -1, rows = -1;
    *key = -1;
    return sbx_key_parse(s, strlen(s), key, &cols, &rows);
}

/* Parses a whole script into keys; returns how many, or SIZE_MAX. */
static size_t parse_all(const char *s, int *keys, size_t max)
{
    size_t n = strlen(s), k = 0;
    for (size_t i = 0; i < n;) {
        int key, cols, rows;
        size_t used = sbx_key_parse(s + i, n - i, &key, &cols, &rows);
        if (used == SIZE_MAX)
            return SIZE_MAX;
        assert_true(used > 0 && used <= n - i);
        if (k < max)
            keys[k] = key;
        k++;
        i += used;
    }
    return k;
}

static void names(void **state)
{
    (void)state;
    char buf[16];
    assert_string_equal(sbx_key_name('j', buf), "j");
    assert_string_equal(sbx_key_name(' ', buf), "Space");
    assert_string_equal(sbx_key_name(SBX_KEY_ENTER, buf), "Enter");
    assert_string_equal(sbx_key_name(SBX_KEY_ESC, buf), "Esc");
    assert_string_equal(sbx_key_name(sbx_ctrl('d'), buf), "Ctrl-D");
    assert_string_equal(sbx_key_name(SBX_KEY_PGDN, buf), "PgDn");
    assert_string_equal(sbx_key_name(SBX_KEY_F1, buf), "F1");
    assert_string_equal(sbx_key_name(SBX_KEY_ALT_SLASH, buf), "Alt-/");
    assert_string_equal(sbx_key_name(SBX_KEY_DOWN, buf), "Down");
    assert_string_equal(sbx_key_name(0xe9, buf), "U+00E9");
    /* the name always fits the 16 bytes the header promises */
    for (int k = 0; k < SBX_KEY_LAST; k += k < 0x300 ? 1 : 0x1fff) {
        sbx_key_name(k, buf);
        assert_true(strlen(buf) > 0 && strlen(buf) < 16);
    }
    for (int k = SBX_KEY_NAMED; k < SBX_KEY_LAST; k++) {
        sbx_key_name(k, buf);
        assert_true(strlen(buf) > 0 && strlen(buf) < 16);
    }
}

static void plain_characters(void **state)
{
    (void)state;
    int key;
    assert_int_equal(parse1("j", &key), 1);
    assert_int_equal(key, 'j');
    assert_int_equal(parse1("/", &key), 1);
    assert_int_equal(key, '/');
    assert_int_equal(parse1(" ", &key), 1);
    assert_int_equal(key, ' ');
    assert_int_equal(parse1("\xc3\xa9x", &key), 2); /* é */
    assert_int_equal(key, 0xe9);
    assert_int_equal(parse1("\xe4\xb8\xad", &key), 3);
    assert_int_equal(key, 0x4e2d);
    assert_int_equal(parse1("\xf0\x9f\x98\x80", &key), 4);
    assert_int_equal(key, 0x1f600);
    /* the end of the script */
    int cols, rows;
    assert_int_equal(sbx_key_parse("", 0, &key, &cols, &rows), 0);
    /* n is honoured: a character cut by it is not read past the end */
    assert_int_equal(sbx_key_parse("\xe4\xb8\xad", 2, &key, &cols, &rows), SIZE_MAX);
}

static void backslash_escapes(void **state)
{
    (void)state;
    int key;
    assert_int_equal(parse1("\\n", &key), 2);
    assert_int_equal(key, SBX_KEY_ENTER);
    assert_int_equal(parse1("\\e", &key), 2);
    assert_int_equal(key, SBX_KEY_ESC);
    assert_int_equal(parse1("\\t", &key), 2);
    assert_int_equal(key, SBX_KEY_TAB);
    assert_int_equal(parse1("\\\\", &key), 2);
    assert_int_equal(key, '\\');
    assert_int_equal(parse1("\\x", &key), SIZE_MAX);
    assert_int_equal(parse1("\\q", &key), SIZE_MAX);
}

static void named_keys(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int key;
    } cases[] = {
        {"<Up>", SBX_KEY_UP},        {"<Down>", SBX_KEY_DOWN},   {"<Left>", SBX_KEY_LEFT},
        {"<Right>", SBX_KEY_RIGHT},  {"<PgUp>", SBX_KEY_PGUP},   {"<PgDn>", SBX_KEY_PGDN},
        {"<Home>", SBX_KEY_HOME},    {"<End>", SBX_KEY_END},     {"<Enter>", SBX_KEY_ENTER},
        {"<Esc>", SBX_KEY_ESC},      {"<Tab>", SBX_KEY_TAB},     {"<BTab>", SBX_KEY_BTAB},
        {"<BS>", SBX_KEY_BACKSPACE}, {"<Del>", SBX_KEY_DELETE},  {"<F1>", SBX_KEY_F1},
        {"<F2>", SBX_KEY_F2},        {"<F3>", SBX_KEY_F3},       {"<Alt-/>", SBX_KEY_ALT_SLASH},
        {"<WheelUp>", SBX_KEY_WHEEL_UP}, {"<WheelDown>", SBX_KEY_WHEEL_DOWN},
        {"<C-d>", 4},                {"<C-u>", 21},              {"<C-D>", 4},
        {"<C-a>", 1},                {"<C-l>", 12},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int key;
        size_t used = parse1(cases[i].s, &key);
        if (used != strlen(cases[i].s) || key != cases[i].key)
            fail_msg("%s: used %zu, key %d; want %zu, %d", cases[i].s, used, key,
                     strlen(cases[i].s), cases[i].key);
    }
    /* a '<' that starts no name is the character */
    int key;
    assert_int_equal(parse1("<", &key), 1);
    assert_int_equal(key, '<');
    assert_int_equal(parse1("<>", &key), 1);
    assert_int_equal(key, '<');
    assert_int_equal(parse1("<abc", &key), 1);
    assert_int_equal(key, '<');
}

static void bad_scripts(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "<Nope>", "<up>", "<C->", "<C-dd>", "<Resize:>", "<Resize:20>", "<Resize:x5>",
        "<Resize:20y5>", "<Resize:0x5>", "<Resize:20x0>", "<Resize:-1x5>", "<Resize:1001x5>",
        "<Resize:20x1001>", "<Resize:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa>",
        "\\z", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe4\xb8",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int key;
        if (parse1(bad[i], &key) != SIZE_MAX)
            fail_msg("accepted %s as key %d", bad[i], key);
    }
    /* a bad key anywhere spoils the script */
    int keys[16];
    assert_int_equal(parse_all("jj<Bogus>k", keys, 16), SIZE_MAX);
}

static void resize(void **state)
{
    (void)state;
    int key = 0, cols = 0, rows = 0;
    const char *s = "<Resize:20x5>j";
    assert_int_equal(sbx_key_parse(s, strlen(s), &key, &cols, &rows), 13);
    assert_int_equal(key, SBX_KEY_RESIZE);
    assert_int_equal(cols, 20);
    assert_int_equal(rows, 5);
    s = "<Resize:1x1>";
    assert_int_equal(sbx_key_parse(s, strlen(s), &key, &cols, &rows), strlen(s));
    assert_int_equal(cols, 1);
    assert_int_equal(rows, 1);
    s = "<Resize:1000x1000>";
    assert_int_equal(sbx_key_parse(s, strlen(s), &key, &cols, &rows), strlen(s));
    assert_int_equal(cols, 1000);
    assert_int_equal(rows, 1000);
}

/* Found by these tests: the size is read with sscanf("%d%c%d"), which
 * stops before whatever follows, so trailing junk is taken as valid. */
static void resize_trailing_junk(void **state)
{
    (void)state;
    static const char *const bad[] = {"<Resize:20x5x>", "<Resize:20x5junk>", "<Resize:20x5 >"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int key;
        if (parse1(bad[i], &key) != SIZE_MAX)
            fail_msg("accepted %s", bad[i]);
    }
}

static void scripts(void **state)
{
    (void)state;
    int keys[32];
    const char *s = "jj/fl\xc3\xa9<Enter>n<C-d>\\e<Resize:80x24>G";
    size_t n = parse_all(s, keys, 32);
    int want[] = {'j', 'j', '/', 'f', 'l', 0xe9, SBX_KEY_ENTER, 'n', 4, SBX_KEY_ESC,
                  SBX_KEY_RESIZE, 'G'};
    assert_int_equal(n, sizeof want / sizeof want[0]);
    assert_memory_equal(keys, want, sizeof want);
}

/* The text to type key k in a script, from its name as the help shows it. */
static void script_for(int k, char *out, size_t n)
{
    char name[16];
    sbx_key_name(k, name);
    if (k == '\\')
        snprintf(out, n, "\\\\");
    else if (strlen(name) == 1)
        snprintf(out, n, "%s", name);
    else if (strncmp(name, "Ctrl-", 5) == 0 && strlen(name) == 6)
        snprintf(out, n, "<C-%c>", name[5]);
    else
        snprintf(out, n, "<%s>", name);
}

static void every_mapped_key_can_be_scripted(void **state)
{
    (void)state;
    assert_true(sbx_keymap_len > 10);
    for (size_t i = 0; i < sbx_keymap_len; i++) {
        for (int j = 0; j < 4 && sbx_keymap[i].keys[j]; j++) {
            int k = sbx_keymap[i].keys[j], got;
            char script[32];
            script_for(k, script, sizeof script);
            size_t used = parse1(script, &got);
            if (used != strlen(script) || got != k)
                fail_msg("key %d (%s) parses as %d", k, script, got);
        }
    }
}

static void keymap(void **state)
{
    (void)state;
    /* one action per key per view: a key never means two things at once,
     * but where a screen's own key (a later row) takes one of the keys
     * that move (the runs list's < and > sort) */
    unsigned screens[SBX_VIEW_COUNT + SBX_RK_COUNT];
    int nscreens = 0;
    for (int v = 0; v < SBX_VIEW_COUNT; v++)
        screens[nscreens++] = sbx_views[v]->keys;
    for (int r = 0; r < SBX_RK_COUNT; r++)
        screens[nscreens++] = sbx_runs_screen_keys((enum sbx_runs_keyscreen)r);
    for (int v = 0; v < nscreens; v++) {
        unsigned groups = screens[v];
        for (size_t i = 0; i < sbx_keymap_len; i++)
            for (int j = 0; j < 4 && sbx_keymap[i].keys[j]; j++)
                for (size_t i2 = i + 1; i2 < sbx_keymap_len; i2++)
                    for (int j2 = 0; j2 < 4 && sbx_keymap[i2].keys[j2]; j2++)
                        if (sbx_keymap[i].keys[j] == sbx_keymap[i2].keys[j2] &&
                            (sbx_keymap[i].group & groups) && (sbx_keymap[i2].group & groups) &&
                            sbx_keymap[i].group != SBX_KEYS_MOVE)
                            fail_msg("key %d is in two actions of screen %d", sbx_keymap[i].keys[j], v);
    }
    assert_int_equal(sbx_keymap_find('<', sbx_runs_screen_keys(SBX_RK_LIST)), SBX_ACT_SORT_LEFT);
    assert_int_equal(sbx_keymap_find('<', sbx_runs_screen_keys(SBX_RK_COMPARE)), SBX_ACT_TOP);
    assert_int_equal(sbx_keymap_find('g', sbx_runs_screen_keys(SBX_RK_LIST)), SBX_ACT_TOP);
    for (size_t i = 0; i < sbx_keymap_len; i++) {
        const struct sbx_keymap_entry *e = &sbx_keymap[i];
        assert_true(e->help && *e->help);
        assert_true(e->keys[0] != 0);
        /* a key may do other things in other views (Enter opens, or sends
         * an export), never this action in a view without its group */
        bool somewhere = false;
        for (int v = 0; v < nscreens; v++) {
            unsigned groups = screens[v];
            somewhere |= (e->group & groups) != 0;
            for (int j = 0; j < 4 && e->keys[j]; j++) {
                enum sbx_action got = sbx_keymap_find(e->keys[j], groups);
                if (!(e->group & groups))
                    assert_int_not_equal(got, e->action);
                else if (got != e->action && e->group != SBX_KEYS_MOVE)
                    fail_msg("\"%s\": key %d does another action on screen %d", e->help, e->keys[j], v);
            }
        }
        if (!somewhere)
            fail_msg("no view takes \"%s\"", e->help);
    }
    unsigned timeline = sbx_views[SBX_VIEW_TIMELINE]->keys, exp = sbx_views[SBX_VIEW_EXPORT]->keys;
    assert_int_equal(sbx_keymap_find(SBX_KEY_ENTER, timeline), SBX_ACT_OPEN);
    assert_int_equal(sbx_keymap_find(SBX_KEY_ENTER, exp), SBX_ACT_SEND);
    assert_int_equal(sbx_keymap_find('y', timeline), SBX_ACT_NONE);
    assert_int_equal(sbx_keymap_find('e', exp), SBX_ACT_NONE);
    assert_int_equal(sbx_keymap_find('j', timeline), SBX_ACT_DOWN);
    assert_int_equal(sbx_keymap_find('&', sbx_views[SBX_VIEW_DETAIL]->keys), SBX_ACT_NONE);
    assert_int_equal(sbx_keymap_find('Z', ~0u), SBX_ACT_NONE);
    assert_int_equal(sbx_keymap_find(0, ~0u), SBX_ACT_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names),
        cmocka_unit_test(plain_characters),
        cmocka_unit_test(backslash_escapes),
        cmocka_unit_test(named_keys),
        cmocka_unit_test(bad_scripts),
        cmocka_unit_test(resize),
        cmocka_unit_test(resize_trailing_junk),
        cmocka_unit_test(scripts),
        cmocka_unit_test(every_mapped_key_can_be_scripted),
        cmocka_unit_test(keymap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
