/* Choosing formats on the command line (--as, FORMAT:path), loading with a
 * forced format, and the reasons a file no format reads is skipped for. */
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

#include "importers/describe.h"
#include "importers/formatarg.h"
#include "importers/load.h"

static void names(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_format_names(&b);
    /* every format of sbx_formats[], in order, and nothing else */
    struct sbx_buf want = SBX_BUF_INIT;
    size_t n = 0;
    for (; sbx_formats[n]; n++)
        sbx_buf_addf(&want, "%s%s", n ? ", " : "", sbx_formats[n]->name);
    assert_true(n >= 2);
    assert_string_equal(b.p, want.p);
    assert_non_null(strstr(b.p, "recorder"));
    assert_non_null(strstr(b.p, "squid"));
    for (size_t i = 0; i < n; i++) {
        const char *name = sbx_formats[i]->name;
        assert_ptr_equal(sbx_format_named(name, strlen(name)), sbx_formats[i]);
        const struct sbx_format *f = NULL;
        char err[512];
        assert_true(sbx_format_arg(name, &f, err, sizeof err));
        assert_ptr_equal(f, sbx_formats[i]);
    }
    assert_null(sbx_format_named("squi", 4));
    assert_null(sbx_format_named("squid2", 6));
    assert_ptr_equal(sbx_format_named("squid:x", 5), &sbx_format_squid);

    const struct sbx_format *f = &sbx_format_squid;
    char err[512];
    assert_true(sbx_format_arg("auto", &f, err, sizeof err));
    assert_null(f);
    assert_false(sbx_format_arg("Squid", &f, err, sizeof err)); /* names are exact */
    assert_false(sbx_format_arg("x\033]52;c;AAA\007", &f, err, sizeof err));
    sbx_buf_clear(&want);
    sbx_buf_addf(&want, "unknown format 'x\\x1b]52;c;AAA\\x07' (known: auto, %s)", b.p);
    assert_string_equal(err, want.p);
    sbx_buf_free(&want);
    sbx_buf_free(&b);
}

struct arg_case {
    const char *arg;
    bool ok, named;
    const struct sbx_format *fmt;
    const char *path;
};

static void input_args(void **state)
{
    (void)state;
    char dir[] = "/tmp/sbx-formatarg-XXXXXX", old[4096];
    assert_non_null(mkdtemp(dir));
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(dir), 0);
    FILE *f = fopen("squid:here.log", "w"); /* a real file whose name looks like the prefix form */
    assert_non_null(f);
    fclose(f);
    const struct arg_case cases[] = {
        {"squid:proxy.log", true, true, &sbx_format_squid, "proxy.log"},
        {"recorder:-", true, true, &sbx_format_recorder, "-"},
        {"auto:run/", true, true, NULL, "run/"},
        {"recorder:a:b", true, true, &sbx_format_recorder, "a:b"},
        {"squid:here.log", true, false, NULL, "squid:here.log"}, /* it exists: the path wins */
        {"./squid:proxy.log", true, false, NULL, "./squid:proxy.log"},
        {"/var/log/squid:x", true, false, NULL, "/var/log/squid:x"},
        {"-", true, false, NULL, "-"},
        {"plain.log", true, false, NULL, "plain.log"},
        {"dir/x:y", true, false, NULL, "dir/x:y"}, /* "dir/x" could be no format's name */
        {"sqiud:proxy.log", false, false, NULL, NULL},
        {"squid:", false, false, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct arg_case *c = &cases[i];
        bool named = !c->named;
        const struct sbx_format *fmt = &sbx_format_runtime_audit;
        const char *path = NULL;
        char err[512] = "";
        bool ok = sbx_input_arg(c->arg, &named, &fmt, &path, err, sizeof err);
        assert_int_equal(ok, c->ok);
        if (!ok) {
            assert_true(err[0]);
            continue;
        }
        assert_int_equal(named, c->named);
        assert_ptr_equal(fmt, c->fmt);
        assert_string_equal(path, c->path);
    }
    char err[512];
    bool named;
    const struct sbx_format *fmt;
    const char *path;
    assert_false(sbx_input_arg("sqiud:proxy.log", &named, &fmt, &path, err, sizeof err));
    assert_non_null(strstr(err, "unknown format 'sqiud' in 'sqiud:proxy.log' (known: auto, recorder"));
    assert_non_null(strstr(err, "write ./sqiud:proxy.log"));
    assert_false(sbx_input_arg("squid:", &named, &fmt, &path, err, sizeof err));
    assert_string_equal(err, "'squid:' names no input (write squid:FILE, or squid:- for standard input)");
    unlink("squid:here.log");
    assert_int_equal(chdir(old), 0);
    rmdir(dir);
}

static void describe_is(const char *data, size_t n, const char *want)
{
    char out[SBX_DESCRIBE_BUFSZ];
    sbx_describe_unread(data, n, out, sizeof out);
    assert_string_equal(out, want);
    for (const char *p = out; *p; p++) /* ASCII, printable */
        assert_true(*p >= 0x20 && *p < 0x7f);
}

#define DESCRIBE(literal, want) describe_is(literal, sizeof literal - 1, want)

static void describe(void **state)
{
    (void)state;
    describe_is("", 0, "empty file");
    describe_is("\xEF\xBB\xBF", 3, "empty file");
    DESCRIBE("\n  \r\n\t\n", "only blank lines");
    describe_is("ab\0cd", 5, "binary (NUL bytes)");
    describe_is("\x1f\x8b\x08\x00", 4, "gzip-compressed (decompress it first: zcat FILE | sbxview summary -)");
    DESCRIBE("\n{\"ts\": 1, \"level\": \"info\", \"msg\": \"x\"}\n{}\n",
             "no format matches: first line looks like a JSON object with keys ts, level, msg");
    DESCRIBE("{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8}",
             "no format matches: first line looks like a JSON object with keys a, b, c, d, e, f (+2 more)");
    DESCRIBE("{}", "no format matches: first line looks like an empty JSON object");
    DESCRIBE("{\n  \"resourceSpans\": []\n}\n",
             "no format matches: first line looks like the start of a JSON object that goes on over more lines");
    DESCRIBE("{\"a\" 1}",
             "no format matches: first line looks like JSON that does not parse (expected ':' after a key at byte 5)");
    /* keys are escaped and cut: an escape sequence in a key never comes out raw */
    DESCRIBE("{\"\\u001b]52;c;QUJD\\u0007\": 1, \"a-very-long-key-name-that-goes-on-and-on\": 2}",
             "no format matches: first line looks like a JSON object with keys \\e]52;c;QUJD\\x07, "
             "a-very-long-key-name...");
    DESCRIBE("[1, 2, 3]\n", "no format matches: first line looks like a JSON array: '[1, 2, 3]'");
    DESCRIBE("Nov 29 08:38:48 host sshd[811]: Accepted publickey for root from 10.0.0.1\n",
             "no format matches: first line is text: 'Nov 29 08:38:48 host sshd[811]: Accepted...'");
    /* escape sequences, quotes, backslashes and non-ASCII bytes are escaped */
    DESCRIBE("\033[31mred\033[0m it's a\\b \xC3\xA9\r\n",
             "no format matches: first line is text: '\\e[31mred\\e[0m it\\'s a\\\\b \\xc3\\xa9'");
    /* a long first line: the start only */
    struct sbx_buf big = SBX_BUF_INIT;
    for (int i = 0; i < 200000; i++)
        sbx_buf_adds(&big, "word ");
    describe_is(big.p, big.len, "no format matches: first line is text: 'word word word word word word word word ...'");
    sbx_buf_free(&big);
    /* a small buffer gets a cut, terminated description */
    char small[12];
    sbx_describe_unread("", 0, small, sizeof small);
    assert_string_equal(small, "empty file");
    sbx_describe_unread("hello", 5, small, sizeof small);
    assert_string_equal(small, "no format m");
}

/* What a description quotes is redacted before it is cut: at every place
 * of the token within the quoted 40 bytes and the 20 of a key. */
static void describe_redacts(void **state)
{
    (void)state;
    static const char tok[] = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB";
    for (int at = 0; at < 40; at++) {
        char data[200], out[SBX_DESCRIBE_BUFSZ];
        snprintf(data, sizeof data, "%*sGH=%s\n", at, "", tok);
        memset(data, 'x', (size_t)at); /* text before it, not blank */
        sbx_describe_unread(data, strlen(data), out, sizeof out);
        assert_null(strstr(out, "ghp_1"));
        if (at < 25)
            assert_non_null(strstr(out, "ghp_...AB"));
        snprintf(data, sizeof data, "{\"%.*s%s\": 1}\n", at % 12, "............", tok);
        sbx_describe_unread(data, strlen(data), out, sizeof out);
        assert_null(strstr(out, "ghp_1"));
        assert_non_null(strstr(out, "keys "));
    }
}

struct fixture {
    char dir[64];
};

static char *path_in(const struct fixture *fx, const char *name)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "%s/%s", fx->dir, name);
    return b.p;
}

static void write_file(const char *path, const char *data)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(data, f);
    assert_int_equal(fclose(f), 0);
}

static const char squid_line[] =
    "1795942225.114     13 127.0.0.1 TCP_MISS/200 428 GET http://pypi.internal/simple/ - HIER_DIRECT/127.0.0.1 text/html\n";
static const char recorder_line[] =
    "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"command\", \"command\": \"ls\", \"exit\": 0, \"ms\": 1}\n";

static void forced_load(void **state)
{
    (void)state;
    struct fixture fx;
    snprintf(fx.dir, sizeof fx.dir, "/tmp/sbx-forced-XXXXXX");
    assert_non_null(mkdtemp(fx.dir));
    char *run = path_in(&fx, "run");
    assert_int_equal(mkdir(run, 0755), 0);
    char *proxy = path_in(&fx, "run/proxy.log"), *notes = path_in(&fx, "run/notes.txt"),
         *empty = path_in(&fx, "run/empty"), *bin = path_in(&fx, "run/core"),
         *json = path_in(&fx, "run/app.jsonl"), *mixed = path_in(&fx, "mixed.log");
    write_file(proxy, squid_line);
    write_file(notes, "remember the milk\n");
    write_file(empty, "");
    FILE *f = fopen(bin, "wb");
    fwrite("\x7f" "ELF\0\0\0", 1, 7, f);
    fclose(f);
    write_file(json, "{\"ts\": 1, \"msg\": \"hi\"}\n");
    /* a recorder line, then a squid line: detected as a recorder log */
    struct sbx_buf m = SBX_BUF_INIT;
    sbx_buf_adds(&m, recorder_line);
    sbx_buf_adds(&m, squid_line);
    write_file(mixed, m.p);
    sbx_buf_free(&m);

    /* detected: the folder's proxy log loads, every other file is listed with its reason */
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {run, mixed};
    assert_int_equal(sbx_load_paths(&tl, paths, 2, NULL, &rep), 2);
    assert_int_equal(rep.nunread, 4);
    assert_int_equal(rep.nerrors, 0);
    const char *want[][2] = {
        {json, "no format matches: first line looks like a JSON object with keys ts, msg"},
        {bin, "binary (NUL bytes)"},
        {empty, "empty file"},
        {notes, "no format matches: first line is text: 'remember the milk'"},
    };
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(rep.unread[i].path, want[i][0]);
        assert_string_equal(rep.unread[i].reason, want[i][1]);
        assert_true(rep.unread[i].in_folder);
    }
    assert_string_equal(tl.sources[1].format, "recorder");
    assert_int_equal(tl.sources[1].skipped, 1); /* the squid line a skip */
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);

    /* forced: squid for the mixed file (its recorder line a skip with a reason) */
    sbx_timeline_init(&tl);
    const struct sbx_format *formats[] = {NULL, &sbx_format_squid};
    struct sbx_load_opts opts = {.formats = formats};
    assert_int_equal(sbx_load_paths(&tl, paths, 2, &opts, &rep), 2);
    assert_string_equal(tl.sources[1].format, "squid");
    assert_int_equal(tl.sources[1].events, 1);
    assert_int_equal(tl.sources[1].skipped, 1);
    assert_int_equal(tl.skips[0].line, 1);
    assert_true(tl.skips[0].reason[0]);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);

    /* forced on a folder: every text file read as squid (nothing lost quietly: skips), binary
     * refused; the two of which no line is squid are not read, each line named */
    sbx_timeline_init(&tl);
    const struct sbx_format *squid_all[] = {&sbx_format_squid};
    opts.formats = squid_all;
    assert_int_equal(sbx_load_paths(&tl, paths, 1, &opts, &rep), 2);
    assert_int_equal(rep.nunread, 3);
    assert_string_equal(rep.unread[0].path, json);
    assert_non_null(strstr(rep.unread[0].reason, "read as squid, as asked, but none of its 1 line is one: line 1: "));
    assert_string_equal(rep.unread[1].reason, "binary (NUL bytes)");
    assert_string_equal(rep.unread[2].path, notes);
    assert_non_null(strstr(rep.unread[2].reason, "none of its 1 line is one: line 1: "));
    for (size_t i = 0; i < tl.nsources; i++)
        assert_string_equal(tl.sources[i].format, "squid");
    assert_int_equal(tl.n, 1);
    assert_int_equal(tl.nskips, 2); /* app.jsonl and notes.txt, a line each */
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);

    /* a named file nothing reads is an error with the same reason */
    sbx_timeline_init(&tl);
    const char *one[] = {notes};
    assert_int_equal(sbx_load_paths(&tl, one, 1, NULL, &rep), 0);
    assert_int_equal(rep.nerrors, 1);
    assert_non_null(strstr(rep.errors[0], "notes.txt: no format matches: first line is text: 'remember the milk'"));
    assert_int_equal(rep.nunread, 1);
    assert_false(rep.unread[0].in_folder);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx.dir);
    assert_int_equal(system(cmd), 0);
    free(run);
    free(proxy);
    free(notes);
    free(empty);
    free(bin);
    free(json);
    free(mixed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names),
        cmocka_unit_test(input_args),
        cmocka_unit_test(describe),
        cmocka_unit_test(describe_redacts),
        cmocka_unit_test(forced_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
