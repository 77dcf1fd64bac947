/* The sub-command table (cli/subcommands.h) and the help's Usage list laid
 * out from it. This test links the command line itself (cli/ and tui/
 * without main: see the Makefile), as the table points at the commands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "cli/subcommands.h"
#include "cli/usage.h"

/* What f holds (a tmpfile written to), as a string the caller frees. */
static char *contents(FILE *f)
{
    long n = ftell(f);
    assert_true(n >= 0);
    char *s = malloc((size_t)n + 1);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static char *entry_text(const char *name, const char *args, const char *usage)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    sbx_usage_entry(f, name, args, usage);
    return contents(f);
}

static char *help_text(void)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    sbx_usage(f);
    return contents(f);
}

/* Every row has a plain name no other row has, its synopsis, its summary and
 * a function; each is found by its name, and nothing else is. */
static void table_is_consistent(void **state)
{
    (void)state;
    assert_true(sbx_nsubcommands >= 5);
    for (size_t i = 0; i < sbx_nsubcommands; i++) {
        const struct sbx_subcommand *c = &sbx_subcommands[i];
        assert_non_null(c->name);
        assert_true(c->name[0] && c->name[0] != '-');
        assert_null(strpbrk(c->name, " /:")); /* an input could not be mistaken for it */
        assert_true(c->args && *c->args);
        assert_true(c->usage && *c->usage);
        assert_non_null(c->run);
        for (size_t j = 0; j < i; j++)
            if (strcmp(sbx_subcommands[j].name, c->name) == 0)
                fail_msg("two rows called %s", c->name);
        assert_ptr_equal(sbx_subcommand_find(c->name), c);
    }
    assert_null(sbx_subcommand_find("view")); /* the review has no name: a file may be called so */
    assert_null(sbx_subcommand_find("summar"));
    assert_null(sbx_subcommand_find("summary "));
    assert_null(sbx_subcommand_find(""));
    /* the ones the manual and the tests name */
    static const char *const known[] = {"summary", "check", "compare", "fetch", "export"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        assert_non_null(sbx_subcommand_find(known[i]));
}

/* The Usage list holds each row as sbx_usage_entry lays it out, in the
 * table's order, after the review's two forms. */
static void help_lists_each(void **state)
{
    (void)state;
    char *help = help_text();
    assert_memory_equal(help, "Usage:\n", 7);
    char *end = strstr(help, "\n\n");
    assert_non_null(end);
    end[1] = '\0'; /* the Usage list only */
    const char *at = strstr(help, "  sbxview [OPTIONS] RUNS_FOLDER");
    assert_non_null(at);
    assert_true(strstr(help, "  sbxview [OPTIONS] FILE|FOLDER|- ...") < at);
    for (size_t i = 0; i < sbx_nsubcommands; i++) {
        const struct sbx_subcommand *c = &sbx_subcommands[i];
        char *want = entry_text(c->name, c->args, c->usage);
        const char *found = strstr(at, want);
        if (!found)
            fail_msg("the help does not list %s in order:\n%s", c->name, want);
        at = found + strlen(want);
        free(want);
    }
    assert_string_equal(at, ""); /* and nothing after the last row */
    free(help);
}

/* The layout: the summary from column 43, beside a short synopsis and below
 * a long one; long lines wrapped within 79 columns, a synopsis under its
 * first argument, a bracket kept whole. */
static void entry_layout(void **state)
{
    (void)state;
    static const struct {
        const char *name, *args, *usage, *want;
    } cases[] = {
        {"run", "[OPTIONS] FILE", "do it",
         "  sbxview run [OPTIONS] FILE               do it\n"},
        {NULL, "FILE", "the review",
         "  sbxview FILE                             the review\n"},
        /* a synopsis of 42 columns still has the summary beside it; of 43, below */
        {"abcdefgh", "01234567890123456789012", "x",
         "  sbxview abcdefgh 01234567890123456789012 x\n"},
        {"abcdefgh", "012345678901234567890123", "x",
         "  sbxview abcdefgh 012345678901234567890123\n"
         "                                           x\n"},
        {"wrap", "[--one ONE] [--two TWO] [--three THREE] [--four FOUR FOUR] [--five] FILE ...",
         "a summary long enough that it needs a second line to say all it has to",
         "  sbxview wrap [--one ONE] [--two TWO] [--three THREE] [--four FOUR FOUR]\n"
         "               [--five] FILE ...\n"
         "                                           a summary long enough that it needs\n"
         "                                           a second line to say all it has to\n"},
        /* an option and its value go to the next line together */
        {"b", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA [--opt VALUE]", "x",
         "  sbxview b AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
         "            [--opt VALUE]\n"
         "                                           x\n"},
        /* 79 columns fit; 80 do not */
        {"x", "A", "123456789012345678901234567890123456",
         "  sbxview x A                              123456789012345678901234567890123456\n"},
        {"x", "A", "1234567890123456789012345678901234 67",
         "  sbxview x A                              1234567890123456789012345678901234\n"
         "                                           67\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = entry_text(cases[i].name, cases[i].args, cases[i].usage);
        if (strcmp(got, cases[i].want) != 0)
            fail_msg("case %zu:\n%s-- wanted:\n%s", i, got, cases[i].want);
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_consistent),
        cmocka_unit_test(help_lists_each),
        cmocka_unit_test(entry_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
