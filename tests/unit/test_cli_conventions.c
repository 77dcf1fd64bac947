/* The command line's conventions (cli/msg.h, cli/cli_util.h): GNU's usage
 * errors for every kind of bad option, when the summary is coloured, and
 * the ASCII folding of messages (base/asciifold.h). The cases are
 * tests/unit/cases/cli_conventions.test. This test links the command line
 * (cli/ and tui/ without main: see the Makefile). */
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cases.h"
#include "base/asciifold.h"
#include "cli/cli_util.h"
#include "cli/msg.h"

static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'}, {"quiet", no_argument, NULL, 'q'},
    {"theme", required_argument, NULL, 'T'},  {"threads", required_argument, NULL, 'j'},
    {"color", required_argument, NULL, 'C'},  {"colour", required_argument, NULL, 'C'},
    {NULL, 0, NULL, 0},
};

/* What getopt_long and sbx_bad_option say of args, stderr caught in a file. */
static char *bad_option_text(char *args, int *status)
{
    char *argv[16] = {"summary"};
    int argc = 1;
    for (char *save = NULL, *a = strtok_r(args, " ", &save); a && argc < 15;
         a = strtok_r(NULL, " ", &save))
        argv[argc++] = a;
    FILE *f = tmpfile();
    assert_non_null(f);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(f), 2);
    optind = 0; /* 0, not 1: glibc forgets a cluster an earlier case left half read */
    opterr = 0;
    int c;
    *status = -1;
    while ((c = getopt_long(argc, argv, "-:f:j:q", longopts, NULL)) != -1)
        if (c == '?' || c == ':') {
            *status = sbx_bad_option(c, argv, longopts);
            break;
        }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long n = ftell(f);
    char *s = calloc(1, (size_t)n + 1);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

static const char *unset_or(const struct test_case *c, size_t i)
{
    return strcmp(c->field[i], "<unset>") == 0 ? NULL : c->field[i];
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    if (strcmp(c->table, "option") == 0) {
        case_want_fields(c, 2);
        char *args = strdup(c->field[0]);
        int status;
        char *got = bad_option_text(args, &status);
        struct sbx_buf want = SBX_BUF_INIT;
        sbx_buf_addf(&want, "%s\nTry 'sbxview --help' for more information.\n", c->field[1]);
        if (status != 2 || strcmp(got, want.p) != 0)
            case_fail(c, "exit %d, stderr:\n%s", status, got);
        sbx_buf_free(&want);
        free(got);
        free(args);
    } else if (strcmp(c->table, "colour") == 0) {
        case_want_fields(c, 7);
        struct sbx_colour_env env = {.no_color = unset_or(c, 2), .clicolor_force = unset_or(c, 3),
                                     .term = unset_or(c, 4), .tty = strcmp(c->field[5], "1") == 0};
        bool got = sbx_colour_wanted(c->field[0], strcmp(c->field[1], "1") == 0, &env);
        if (got != (strcmp(c->field[6], "yes") == 0))
            case_fail(c, "colour: %s", got ? "yes" : "no");
    } else if (strcmp(c->table, "fold") == 0) {
        case_want_fields(c, 2);
        struct sbx_buf out = SBX_BUF_INIT;
        sbx_ascii_fold(&out, c->field[0], c->len[0]);
        if (out.len != c->len[1] || (out.len && memcmp(out.p, c->field[1], out.len) != 0))
            case_fail(c, "folded to '%.*s'", (int)out.len, out.p ? out.p : "");
        sbx_buf_free(&out);
    } else {
        case_fail(c, "no such table");
    }
}

static void conventions(void **state)
{
    (void)state;
    sbx_msg_set_command("summary");
    assert_true(cases_run("cli_conventions.test", check_case, NULL) >= 30);
}

/* The prefix names the sub-command, and only when there is one. */
static void prefix(void **state)
{
    (void)state;
    sbx_msg_set_command(NULL);
    assert_string_equal(sbx_msg_prog(), "sbxview");
    sbx_msg_set_command("export");
    assert_string_equal(sbx_msg_prog(), "sbxview export");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conventions),
        cmocka_unit_test(prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
