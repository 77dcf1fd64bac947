/* The inputs of a command line (cli/cli_util.h): a path that does not exist
 * stops the command before anything is read, named on stderr. This test
 * links the command line (see the Makefile). */
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

#include "cli/cli_util.h"
#include "cli/s3_fetch.h"

/* Runs check (sbx_inputs_done or sbx_inputs_exist) over args and returns
 * its answer; what it wrote on stderr into err (at most errsz - 1 bytes). */
static bool stderr_of(bool (*check)(struct sbx_inputs *), const char *const *args, size_t n,
                      char *err, size_t errsz)
{
    struct sbx_inputs in = {0};
    for (size_t i = 0; i < n; i++)
        assert_true(sbx_inputs_add(&in, args[i]));
    fflush(stderr);
    int saved = dup(2);
    FILE *f = tmpfile();
    assert_non_null(f);
    dup2(fileno(f), 2);
    bool ok = check(&in);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    size_t got = fread(err, 1, errsz - 1, f);
    err[got] = '\0';
    fclose(f);
    sbx_inputs_free(&in);
    return ok;
}

static bool done_with(const char *const *args, size_t n, char *err, size_t errsz)
{
    return stderr_of(sbx_inputs_done, args, n, err, errsz);
}

static char dir[] = "/tmp/sbxview-cli-inputs-XXXXXX";
static char file[sizeof dir + 16];

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(file, sizeof file, "%s/run.jsonl", dir);
    FILE *f = fopen(file, "w");
    if (!f)
        return -1;
    fclose(f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(file);
    rmdir(dir);
    return 0;
}

/* A file, a folder and standard input are inputs; nothing is said. */
static void existing_inputs_pass(void **state)
{
    (void)state;
    char err[1024];
    const char *args[] = {file, dir, "-"};
    assert_true(done_with(args, 3, err, sizeof err));
    assert_string_equal(err, "");
}

/* Each missing path is named, whichever place it has among the inputs and
 * however it is given (plain, after --as, as FORMAT:path). */
static void every_missing_path_is_named(void **state)
{
    (void)state;
    char err[2048], typo[sizeof dir + 32], forced[sizeof dir + 48];
    snprintf(typo, sizeof typo, "%s/run.jsnl", dir);
    snprintf(forced, sizeof forced, "squid:%s/access.lg", dir);
    const char *first[] = {typo, file};
    assert_false(done_with(first, 2, err, sizeof err));
    assert_non_null(strstr(err, "run.jsnl: No such file or directory"));
    assert_null(strstr(err, "run.jsonl:"));
    const char *last[] = {dir, "-", forced, typo};
    assert_false(done_with(last, 4, err, sizeof err));
    assert_non_null(strstr(err, "/access.lg: No such file or directory"));
    assert_null(strstr(err, "squid:")); /* the path, not the argument */
    assert_non_null(strstr(err, "run.jsnl: No such file or directory"));
    assert_non_null(strstr(err, "check the paths above"));
    const char *in_missing_folder[] = {"leap/agent-run.jsnl"};
    assert_false(done_with(in_missing_folder, 1, err, sizeof err));
    assert_non_null(strstr(err, "sbxview: leap/agent-run.jsnl: No such file or directory\n"));
    assert_non_null(strstr(err, "check the path above"));
}

/* The path is the user's but may have been pasted from a log: it is shown
 * sanitised, never with its control characters. */
static void a_named_path_is_sanitised(void **state)
{
    (void)state;
    char err[1024];
    const char *args[] = {"./no\033]0;pwned\007such"};
    assert_false(done_with(args, 1, err, sizeof err));
    assert_null(strchr(err, '\033'));
    assert_null(strchr(err, '\007'));
    assert_non_null(strstr(err, "No such file or directory"));
}

/* Runs sbx_inputs_exist over args (nothing fetched); its stderr into err. */
static bool exist_check(struct sbx_inputs *in)
{
    return sbx_inputs_exist(in);
}

static bool exist_with(const char *const *args, size_t n, char *err, size_t errsz)
{
    return stderr_of(exist_check, args, n, err, errsz);
}

/* An s3:// input not fetched yet (the interface fetches several behind it)
 * is not a missing path: its fetch says what is wrong; the local inputs
 * beside it are checked as ever. */
static void store_inputs_are_not_missing_paths(void **state)
{
    (void)state;
    char err[1024], typo[sizeof dir + 32];
    snprintf(typo, sizeof typo, "%s/run.jsnl", dir);
    const char *fine[] = {"s3://runs/a/agent-run.jsonl", file, "s3://runs/b/"};
    assert_true(exist_with(fine, 3, err, sizeof err));
    assert_string_equal(err, "");
    const char *one_missing[] = {"s3://runs/a/agent-run.jsonl", typo};
    assert_false(exist_with(one_missing, 2, err, sizeof err));
    assert_non_null(strstr(err, "run.jsnl: No such file or directory"));
    assert_null(strstr(err, "s3://"));
}

/* The name a fetched input goes by: one spelling whatever the URL's. */
static void store_names_are_canonical(void **state)
{
    (void)state;
    static const struct {
        const char *url;
        bool folder;
        const char *name;
    } cases[] = {
        {"s3://runs/team/run-7", true, "s3://runs/team/run-7/"},
        {"s3://runs/team/run-7/", true, "s3://runs/team/run-7/"},
        {"s3://runs/team/run-7//", true, "s3://runs/team/run-7/"},
        {"s3://runs", true, "s3://runs/"},
        {"s3://runs/", true, "s3://runs/"},
        {"s3://runs/team/run-7/agent-run.jsonl", false, "s3://runs/team/run-7/agent-run.jsonl"},
        {"s3://runs/team/notes", false, "s3://runs/team/notes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *name = sbx_s3_source_name(cases[i].url, cases[i].folder);
        if (strcmp(name, cases[i].name) != 0)
            fail_msg("%s (%s): %s, wanted %s", cases[i].url, cases[i].folder ? "folder" : "object",
                     name, cases[i].name);
        free(name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(existing_inputs_pass),
        cmocka_unit_test(every_missing_path_is_named),
        cmocka_unit_test(a_named_path_is_sanitised),
        cmocka_unit_test(store_inputs_are_not_missing_paths),
        cmocka_unit_test(store_names_are_canonical),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
