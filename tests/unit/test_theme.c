/* Themes: parsing, lookup order, and the escape sequences they make. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "render/theme.h"

/* The shipped default.theme says exactly what the built-in default does. */
static void shipped_default_matches_builtin(void **state)
{
    (void)state;
    FILE *f = fopen("themes/default.theme", "rb");
    assert_non_null(f);
    char text[16384];
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    struct sbx_theme builtin, parsed;
    sbx_theme_default(&builtin);
    memset(&parsed, 0x55, sizeof parsed);
    char err[160];
    assert_true(sbx_theme_parse(&parsed, text, n, err, sizeof err));
    assert_memory_equal(&builtin, &parsed, sizeof builtin);
}

/* Each shipped theme parses and names every style exactly once. */
static void shipped_themes_are_complete(void **state)
{
    (void)state;
    static const char *const names[] = {"default", "light", "high-contrast", "mono"};
    for (size_t t = 0; t < sizeof names / sizeof names[0]; t++) {
        char path[64], text[16384], err[160];
        snprintf(path, sizeof path, "themes/%s.theme", names[t]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        struct sbx_theme theme;
        sbx_theme_default(&theme);
        if (!sbx_theme_parse(&theme, text, n, err, sizeof err))
            fail_msg("%s: %s", path, err);
        int seen[SBX_STYLE_COUNT] = {0};
        for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
             line = strtok_r(NULL, "\n", &save)) {
            char name[64];
            if (sscanf(line, "style %63s", name) == 1) {
                int st = sbx_style_by_name(name);
                assert_true(st >= 0);
                seen[st]++;
            }
        }
        for (int i = 0; i < SBX_STYLE_COUNT; i++)
            if (seen[i] != 1)
                fail_msg("%s names %s %d times", path, sbx_style_name((enum sbx_style)i), seen[i]);
    }
}

static void parse_rules(void **state)
{
    (void)state;
    struct sbx_theme t;
    sbx_theme_default(&t);
    char err[160];
    static const char good[] = "# comment\n\nstyle summary.finding 196 default bold underline # trailing\n"
                               "style text.escape default 236 reverse\r\n";
    assert_true(sbx_theme_parse(&t, good, sizeof good - 1, err, sizeof err));
    assert_int_equal(t.look[SBX_STYLE_FINDING].fg, 196);
    assert_int_equal(t.look[SBX_STYLE_FINDING].attrs, SBX_ATTR_BOLD | SBX_ATTR_UNDERLINE);
    assert_int_equal(t.look[SBX_STYLE_ESCAPE].bg, 236);
    static const char *const bad[] = {
        "style nope red default\n",        "style summary.label red\n",
        "style summary.label 256 default\n", "style summary.label red default blink\n",
        "colour summary.label red default\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(sbx_theme_parse(&t, bad[i], strlen(bad[i]), err, sizeof err));
        assert_non_null(strstr(err, "line 1"));
    }
    static const char second[] = "style normal default default\nstyle x y z\n";
    assert_false(sbx_theme_parse(&t, second, sizeof second - 1, err, sizeof err));
    assert_non_null(strstr(err, "line 2"));
}

static void style_names_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < SBX_STYLE_COUNT; i++)
        assert_int_equal(sbx_style_by_name(sbx_style_name((enum sbx_style)i)), i);
    assert_null(sbx_style_name(SBX_STYLE_COUNT));
    assert_int_equal(sbx_style_by_name("no.such.style"), -1);
}

static void sgr(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    struct sbx_look plain = {SBX_COLOR_DEFAULT, SBX_COLOR_DEFAULT, 0};
    sbx_look_sgr(&plain, &b);
    assert_int_equal(b.len, 0);
    struct sbx_look l = {1, 236, SBX_ATTR_BOLD | SBX_ATTR_DIM};
    sbx_look_sgr(&l, &b);
    assert_string_equal(b.p, "\033[0;1;2;31;48;5;236m");
    sbx_buf_free(&b);
}

/* A folder holding NAME.theme with one line in it. */
static void write_theme(const char *dir, const char *name, const char *line)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.theme", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(line, f);
    fclose(f);
}

static void remove_theme(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.theme", dir, name);
    unlink(path);
}

/* The folders given are searched in order, the first holding the name wins
 * (good or bad); NULL and "" are passed over; names cannot be paths; and
 * the environment is not looked at (the command line reads it). */
static void lookup_order(void **state)
{
    (void)state;
    char a[] = "/tmp/sbxview-theme-a-XXXXXX", b[] = "/tmp/sbxview-theme-b-XXXXXX";
    assert_non_null(mkdtemp(a));
    assert_non_null(mkdtemp(b));
    write_theme(a, "mine", "style summary.label green default\n");
    write_theme(b, "mine", "style summary.label red default\n");
    write_theme(b, "only-b", "style summary.label blue default\n");
    write_theme(a, "broken", "style no.such.style red default\n");
    write_theme(b, "broken", "style summary.label red default\n");
    struct sbx_theme t;
    char err[256];
    const char *ab[] = {a, b}, *ba[] = {b, a}, *gaps[] = {NULL, "", b};
    assert_true(sbx_theme_load(&t, "mine", ab, 2, err, sizeof err));
    assert_int_equal(t.look[SBX_STYLE_LABEL].fg, 2);
    assert_true(sbx_theme_load(&t, "mine", ba, 2, err, sizeof err));
    assert_int_equal(t.look[SBX_STYLE_LABEL].fg, 1);
    assert_true(sbx_theme_load(&t, "only-b", ab, 2, err, sizeof err)); /* a has none: b's */
    assert_int_equal(t.look[SBX_STYLE_LABEL].fg, 4);
    assert_true(sbx_theme_load(&t, "mine", gaps, 3, err, sizeof err));
    assert_int_equal(t.look[SBX_STYLE_LABEL].fg, 1);
    /* a bad file is an error, not a reason to look further */
    assert_false(sbx_theme_load(&t, "broken", ab, 2, err, sizeof err));
    assert_non_null(strstr(err, a));
    assert_non_null(strstr(err, "line 1"));
    assert_false(sbx_theme_load(&t, "missing", ab, 2, err, sizeof err));
    assert_string_equal(err, "no theme called missing");
    assert_false(sbx_theme_load(&t, "mine", ab, 0, err, sizeof err));
    assert_false(sbx_theme_load(&t, "../etc/passwd", ab, 2, err, sizeof err));
    assert_string_equal(err, "a theme name is a plain name, like default");
    const char *installed[] = {"themes"};
    assert_true(sbx_theme_load(&t, "default", installed, 1, err, sizeof err));

    /* a theme only the environment's folder holds is not found */
    char xdg[256];
    snprintf(xdg, sizeof xdg, "%s/sbxview", a);
    mkdir(xdg, 0700);
    snprintf(xdg, sizeof xdg, "%s/sbxview/themes", a);
    mkdir(xdg, 0700);
    write_theme(xdg, "env-only", "style summary.label green default\n");
    setenv("XDG_CONFIG_HOME", a, 1);
    assert_false(sbx_theme_load(&t, "env-only", installed, 1, err, sizeof err));
    assert_string_equal(err, "no theme called env-only");
    unsetenv("XDG_CONFIG_HOME");
    remove_theme(xdg, "env-only");
    rmdir(xdg);
    snprintf(xdg, sizeof xdg, "%s/sbxview", a);
    rmdir(xdg);

    remove_theme(a, "mine");
    remove_theme(a, "broken");
    remove_theme(b, "mine");
    remove_theme(b, "only-b");
    remove_theme(b, "broken");
    rmdir(a);
    rmdir(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_default_matches_builtin), cmocka_unit_test(shipped_themes_are_complete),
        cmocka_unit_test(parse_rules),
        cmocka_unit_test(style_names_round_trip), cmocka_unit_test(sgr),
        cmocka_unit_test(lookup_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
