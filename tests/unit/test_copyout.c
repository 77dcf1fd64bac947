/* Copying out (app/copyout.h, app/app_copy.c): base64 against RFC 4648's
 * vectors, the OSC 52 escape, the rule for sending it as a table, the
 * settings; the text of c, o and d redacted and sanitised; and the keys:
 * Y and | hand the text out, w writes a file 0600 and never over one
 * without y. */
#include <locale.h>
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

#include "base/base64.h"
#include "importers/format.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "tests/unit/apptest.h"
#include "app/app.h"
#include "app/app_internal.h"
#include "app/copyout.h"

#define TOKEN "ghp_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8"

static const char LOG[] =
    "{\"at\": \"2026-01-01T10:00:01Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": "
    "\"curl -H 'Authorization: token " TOKEN "' https://api.example.com/x\", \"exit\": 0, \"ms\": 5, "
    "\"stdout\": \"token=" TOKEN "\\u001b]2;PWNED\\u0007 out\\n\", \"stderr\": \"warn\\n\"}\n"
    "{\"at\": \"2026-01-01T10:00:02Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": "
    "\"true\", \"exit\": 0, \"ms\": 5}\n"
    "{\"at\": \"2026-01-01T10:00:03Z\", \"sandbox\": \"s1\", \"kind\": \"files\", \"added\": [\"./a\"], "
    "\"removed\": [], \"changed\": []}\n";

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    char dir[64];
};

static int setup(void **state)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        return -1;
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    size_t n = strlen(LOG);
    char *copy = malloc(n + 1);
    memcpy(copy, LOG, n + 1);
    uint32_t src = sbx_timeline_add_source(&r->tl, "agent-run.jsonl", copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(&r->tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (!sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err))
        return -1;
    snprintf(r->dir, sizeof r->dir, "/tmp/sbx-copyout-XXXXXX");
    if (!mkdtemp(r->dir))
        return -1;
    *state = r;
    return 0;
}

static int teardown(void **state)
{
    struct run *r = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", r->dir);
    int rc = system(cmd);
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
    return rc;
}

static void base64_vectors(void **state)
{
    (void)state;
    static const char *const v[][2] = {
        {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
        {"\xff\xfe\xfd", "//79"}, {"\x00\x10\x83", "ABCD"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        struct sbx_buf b = SBX_BUF_INIT;
        size_t n = i == 8 ? 3 : strlen(v[i][0]);
        sbx_base64(v[i][0], n, &b);
        sbx_buf_addc(&b, '\0');
        assert_string_equal(b.p, v[i][1]);
        sbx_buf_free(&b);
    }
}

static void osc52_escape_and_rule(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_osc52("hi there", 8, &b);
    assert_int_equal(b.len, 7 + 12 + 1);
    assert_memory_equal(b.p, "\033]52;c;aGkgdGhlcmU=\a", b.len);
    sbx_buf_free(&b);
    static const struct {
        enum sbx_clip_setting setting;
        bool has_ms;
        size_t len;
        bool sent;
        const char *why;
    } rule[] = {
        {SBX_CLIP_AUTO, true, 100, true, NULL},
        {SBX_CLIP_AUTO, false, 100, false, "no Ms"},
        {SBX_CLIP_ON, false, 100, true, NULL},
        {SBX_CLIP_ON, true, 100, true, NULL},
        {SBX_CLIP_OFF, true, 100, false, "off"},
        {SBX_CLIP_OFF, false, 100, false, "off"},
        {SBX_CLIP_AUTO, true, SBX_OSC52_MAX, true, NULL},
        {SBX_CLIP_AUTO, true, SBX_OSC52_MAX + 1, false, "too long"},
        {SBX_CLIP_ON, false, SBX_OSC52_MAX + 1, false, "too long"},
    };
    for (size_t i = 0; i < sizeof rule / sizeof rule[0]; i++) {
        char why[256] = "";
        bool sent = sbx_osc52_allowed(rule[i].setting, rule[i].has_ms, rule[i].len, why, sizeof why);
        if (sent != rule[i].sent || (rule[i].why && !strstr(why, rule[i].why)))
            fail_msg("rule %zu: %s (%s)", i, sent ? "sent" : "not sent", why);
    }
    static const struct {
        const char *s;
        bool ok;
        enum sbx_clip_setting want;
    } settings[] = {{NULL, true, SBX_CLIP_AUTO}, {"", true, SBX_CLIP_AUTO},  {"auto", true, SBX_CLIP_AUTO},
                    {"on", true, SBX_CLIP_ON},   {"off", true, SBX_CLIP_OFF}, {"yes", false, SBX_CLIP_AUTO}};
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        enum sbx_clip_setting got = SBX_CLIP_AUTO;
        assert_int_equal(sbx_clip_setting_parse(settings[i].s, &got), settings[i].ok);
        if (settings[i].ok)
            assert_int_equal(got, settings[i].want);
    }
}

static void start(struct sbx_app *a, struct run *r)
{
    struct sbx_app_opts o = {.threads = 1, .exports = true};
    sbx_app_init(a, &o, 100, 20);
    sbx_app_set_data(a, &r->tl, &r->sum, false);
}

/* No token, no control character but LF, and holds want. */
static void safe_and_has(const char *s, size_t n, const char *want)
{
    char *t = sbx_xstrndup(s, n);
    assert_null(strstr(t, TOKEN));
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)t[i] < 0x20 && t[i] != '\n')
            fail_msg("a control character 0x%02x at %zu in: %s", (unsigned char)t[i], i, t);
    if (!strstr(t, want))
        fail_msg("no '%s' in: %s", want, t);
    free(t);
}

static void texts_are_safe(void **state)
{
    struct sbx_app a;
    start(&a, *state);
    static const struct {
        size_t row;
        int letter;
        const char *want; /* in the text, or in the message when none */
        bool made;
    } cases[] = {
        {0, 'c', "api.example.com/x", true},
        {0, 'o', " out", true},
        {0, 'o', "warn", true}, /* stderr after stdout */
        {0, 'd', "api.example.com/x", true},
        {1, 'c', "true", true},
        {1, 'o', "printed nothing", false},
        {2, 'c', "no command", false},
        {2, 'd', "files", true},
        {0, 'x', "c the command line", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sbx_buf b = SBX_BUF_INIT;
        char why[256] = "";
        bool made = sbx_copy_text(a.tl, &a.look, sbx_app_event(&a, cases[i].row), cases[i].letter,
                                  false, &b, why, sizeof why);
        if (made != cases[i].made)
            fail_msg("case %zu: %s", i, made ? "made" : why);
        if (made)
            safe_and_has(b.p, b.len, cases[i].want);
        else if (!strstr(why, cases[i].want))
            fail_msg("case %zu: %s", i, why);
        sbx_buf_free(&b);
    }
    sbx_app_free(&a);
}

static void keys_hand_out_and_write(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r);
    /* Y c: the text is handed out, for the clipboard */
    assert_int_equal(apptest_keys(&a, "gY"), 0);
    assert_int_equal(apptest_keys(&a, "c"), SBX_APP_OUTPUT);
    int to;
    size_t n;
    const char *text = sbx_app_output(&a, &to, &n);
    assert_int_equal(to, 'Y');
    safe_and_has(text, n, "api.example.com/x");
    sbx_app_output_done(&a);
    /* | o: for the pager; Esc after | cancels */
    assert_int_equal(apptest_keys(&a, "|o"), SBX_APP_OUTPUT);
    text = sbx_app_output(&a, &to, &n);
    assert_int_equal(to, '|');
    safe_and_has(text, n, " out");
    sbx_app_output_done(&a);
    assert_int_equal(apptest_keys(&a, "|<Esc>"), 0);
    assert_int_equal(a.pending, 0);
    /* w: a new file, 0600 */
    char path[128], keys[200];
    snprintf(path, sizeof path, "%s/out.txt", r->dir);
    snprintf(keys, sizeof keys, "wo%s\n", path);
    apptest_keys(&a, keys);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    FILE *f = fopen(path, "r");
    char got[512] = "";
    size_t len = fread(got, 1, sizeof got - 1, f);
    fclose(f);
    safe_and_has(got, len, " out");
    /* again: it is there, and stays without y */
    snprintf(keys, sizeof keys, "wc%s\n", path);
    apptest_keys(&a, keys);
    assert_non_null(strstr(a.msg, "exists"));
    apptest_keys(&a, "n");
    f = fopen(path, "r");
    len = fread(got, 1, sizeof got - 1, f);
    got[len] = '\0';
    fclose(f);
    assert_non_null(strstr(got, " out"));
    /* with y it is overwritten, and 0600 even when it was not */
    chmod(path, 0644);
    apptest_keys(&a, keys);
    apptest_keys(&a, "y");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    f = fopen(path, "r");
    len = fread(got, 1, sizeof got - 1, f);
    got[len] = '\0';
    fclose(f);
    assert_null(strstr(got, " out"));
    assert_non_null(strstr(got, "api.example.com/x"));
    /* never through a symbolic link */
    char link[160];
    snprintf(link, sizeof link, "%s/link.txt", r->dir);
    assert_int_equal(symlink(path, link), 0);
    snprintf(keys, sizeof keys, "wo%s\n", link);
    apptest_keys(&a, keys);
    assert_non_null(strstr(a.msg, "not a regular file"));
    sbx_app_free(&a);
    /* without exports (tests that press random keys), w writes nothing */
    struct sbx_app_opts o = {.threads = 1};
    sbx_app_init(&a, &o, 100, 20);
    sbx_app_set_data(&a, &r->tl, &r->sum, false);
    apptest_keys(&a, "gwc");
    assert_int_equal(a.prompt, 0);
    assert_non_null(strstr(a.msg, "off here"));
    sbx_app_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(base64_vectors),
        cmocka_unit_test(osc52_escape_and_rule),
        cmocka_unit_test(texts_are_safe),
        cmocka_unit_test(keys_hand_out_and_write),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
