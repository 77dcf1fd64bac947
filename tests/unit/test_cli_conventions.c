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
#include "model/findings.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "cli/msg.h"
#include "cli/subcommands.h"

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

/* Runs a command's function with stdout and stderr caught (the run's
 * output is not looked at); returns its exit status. */
static int run_quiet(int (*cmd)(int, char **), char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2);
    FILE *sink = tmpfile();
    assert_non_null(sink);
    dup2(fileno(sink), 1);
    dup2(fileno(sink), 2);
    optind = 0;
    int status = cmd(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(err, 2);
    close(out);
    close(err);
    fclose(sink);
    return status;
}

/* check --allow takes every name the findings table gives (the names
 * compare and the JSON use), those check does not report too, and refuses
 * anything else. */
static void allow_takes_every_finding_name(void **state)
{
    (void)state;
    sbx_msg_set_command("check");
    char list[64]; /* check cuts its value at the commas, as it may cut argv's */
    for (size_t i = 0; i < sbx_nfindings; i++) {
        snprintf(list, sizeof list, "%s", sbx_findings[i].name);
        char *argv[] = {"check", "-q", "--allow", list, "examples/csv-fix", NULL};
        int status = run_quiet(sbx_cmd_check, argv);
        if (status != 1) /* the example has findings of other kinds whatever is allowed */
            fail_msg("check --allow %s: exit %d", sbx_findings[i].name, status);
    }
    snprintf(list, sizeof list, "skipped-lines,secret");
    char *skips[] = {"check", "-q", "--allow", list, "examples/csv-fix", NULL};
    assert_int_equal(run_quiet(sbx_cmd_check, skips), 1);
    static const char *const bad[] = {"account-inside", "secrets", "Secret", "", "secret,"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(list, sizeof list, "%s%s", bad[i], strcmp(bad[i], "secret,") == 0 ? "nope" : "");
        char *argv[] = {"check", "-q", "--allow", list, "examples/csv-fix", NULL};
        if (run_quiet(sbx_cmd_check, argv) != 2 && *list)
            fail_msg("check --allow %s was taken", list);
    }
}

/* A theme that cannot load is an error when nothing is coloured too. */
static void a_missing_theme_is_an_error(void **state)
{
    (void)state;
    sbx_msg_set_command("summary");
    char *json[] = {"summary", "-q", "-f", "json", "--theme", "no-such-theme", "examples/csv-fix", NULL};
    assert_int_equal(run_quiet(sbx_cmd_summary, json), 2);
    char *never[] = {"summary", "-q", "--color", "never", "--theme", "no-such-theme", "examples/csv-fix", NULL};
    assert_int_equal(run_quiet(sbx_cmd_summary, never), 2);
    char *plain[] = {"summary", "-q", "-f", "json", "examples/csv-fix", NULL};
    assert_int_equal(run_quiet(sbx_cmd_summary, plain), 0);
    sbx_msg_set_command(NULL);
    char *dump[] = {"sbxview", "--dump", "--theme", "no-such-theme", "examples/csv-fix", NULL};
    assert_int_equal(run_quiet(sbx_cmd_view, dump), 2);
}

/* Bare sbxview: a few lines naming the forms and every sub-command, then
 * where to look; not the whole help. */
static void short_usage(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    sbx_short_usage(f);
    long n = ftell(f);
    char *s = calloc(1, (size_t)n + 1);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    size_t lines = 0;
    for (const char *p = s; *p; p++)
        lines += *p == '\n';
    assert_true(lines >= 2 && lines <= 5);
    assert_non_null(strstr(s, "Usage: sbxview [OPTIONS] FILE"));
    for (size_t i = 0; i < sbx_nsubcommands; i++)
        assert_non_null(strstr(s, sbx_subcommands[i].name));
    assert_non_null(strstr(s, "\nTry 'sbxview --help' for more information.\n"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conventions),
        cmocka_unit_test(prefix),
        cmocka_unit_test(allow_takes_every_finding_name),
        cmocka_unit_test(a_missing_theme_is_an_error),
        cmocka_unit_test(short_usage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
