/* Tests for analyses/writers: command lines to write targets and the rules
 * that found them, as a table in tests/unit/cases/writers.test (positives
 * and negatives), and hostile input (unbalanced quotes, NUL, a long line)
 * in linear time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/writers.h"
#include "base/buf.h"
#include "tests/unit/cases.h"

/* Each target as "rule|path", then "|removes", "|tree", "|text=…". */
struct got {
    struct sbx_buf t[CASES_MAX_FIELDS];
    size_t n, calls;
};

static void collect(const struct sbx_write_target *t, void *ctx)
{
    struct got *g = ctx;
    if (g->calls++ >= CASES_MAX_FIELDS)
        return;
    struct sbx_buf *b = &g->t[g->n++];
    sbx_buf_addf(b, "%s|%.*s", sbx_write_rule_words(t->rule), (int)t->len, t->path);
    if (t->removes)
        sbx_buf_adds(b, "|removes");
    if (t->tree)
        sbx_buf_adds(b, "|tree");
    if (t->text) {
        sbx_buf_adds(b, "|text=");
        sbx_buf_add(b, t->text, t->textlen);
    }
    sbx_buf_addc(b, '\0');
}

/* A case: the command line, its cwd, then one field a target (a single
 * empty field: none). */
static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    if (c->n < 3)
        case_fail(c, "a case is a command line, a cwd and its targets");
    struct got g = {0};
    size_t calls = sbx_write_targets(c->field[0], c->len[0], c->field[1], collect, &g);
    size_t want = c->n == 3 && c->len[2] == 0 ? 0 : c->n - 2;
    if (calls != want || g.calls != calls)
        case_fail(c, "targets of [%s] in [%s]: %zu, want %zu (first: [%s])", c->field[0], c->field[1],
                  calls, want, g.n ? g.t[0].p : "");
    struct got all = {0}; /* the prefilter drops no target */
    if (sbx_write_targets_read(c->field[0], c->len[0], c->field[1], collect, &all) != calls ||
        (calls && !sbx_write_may_target(c->field[0], c->len[0])))
        case_fail(c, "the prefilter changed the targets of [%s]", c->field[0]);
    for (size_t i = 0; i < CASES_MAX_FIELDS; i++)
        sbx_buf_free(&all.t[i]);
    for (size_t i = 0; i < want && i < g.n; i++)
        if (strcmp(g.t[i].p, c->field[2 + i]) != 0)
            case_fail(c, "target %zu of [%s]:\ngot  [%s]\nwant [%s]", i + 1, c->field[0], g.t[i].p,
                      c->field[2 + i]);
    for (size_t i = 0; i < CASES_MAX_FIELDS; i++)
        sbx_buf_free(&g.t[i]);
}

static void test_case_file(void **state)
{
    (void)state;
    cases_run("writers.test", check_case, NULL);
}

static void count(const struct sbx_write_target *t, void *ctx)
{
    (void)t;
    ++*(size_t *)ctx;
}

/* The prefilter: a case is a line and "may" or "none"; with either, the
 * targets are those of the full reading (none for "none"). */
static void check_prefilter(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 2);
    bool may = strcmp(c->field[1], "may") == 0;
    if (!may && strcmp(c->field[1], "none") != 0)
        case_fail(c, "the second field is may or none");
    if (sbx_write_may_target(c->field[0], c->len[0]) != may)
        case_fail(c, "[%s]: the prefilter says %s", c->field[0], may ? "none" : "may");
    size_t full = 0, filtered = 0;
    sbx_write_targets_read(c->field[0], c->len[0], "/w", count, &full);
    sbx_write_targets(c->field[0], c->len[0], "/w", count, &filtered);
    if (full != filtered || (!may && full))
        case_fail(c, "[%s]: %zu targets read in full, %zu through the prefilter", c->field[0], full,
                  filtered);
}

static void test_prefilter_cases(void **state)
{
    (void)state;
    cases_run("writers_prefilter.test", check_prefilter, NULL);
}

/* Lines made of the pieces a name can be hidden with (quotes, escapes,
 * slashes, breaks, $, program names and their halves): wherever the
 * prefilter says none, the full reading finds none. */
static void test_prefilter_never_drops(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "r", "m", "rm", "tee", "t", "ee", "sed", "git", "apply", "restore", "python3", "python",
        "-c", "open", "(", ")", "'", "\"", "\\", "$", "`", "/", " ", ";", "|", "&", "\n", "\r",
        "\t", "<", "<<", "EOF", "=", "x", ",", "w", "{", "}", "#", "bash", "sh", "-i", "cd",
        "sudo", "env", "timeout", "1", ".", "\0", "install", "pip", "if", "do", "time", "${",
        "$(", "  ",
    };
    size_t np = sizeof pieces / sizeof *pieces;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    size_t drops = 0, nones = 0;
    for (int round = 0; round < 200000; round++) {
        char line[128];
        size_t n = 0;
        for (int k = 0; k < 12; k++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            const char *p = pieces[seed % np];
            size_t len = p[0] ? strlen(p) : 1; /* "\0": one NUL byte */
            if (n + len > sizeof line)
                break;
            memcpy(line + n, p, len);
            n += len;
        }
        if (sbx_write_may_target(line, n))
            continue;
        nones++;
        size_t full = 0;
        sbx_write_targets_read(line, n, "/w", count, &full);
        if (full && drops++ < 5) {
            char shown[4 * sizeof line + 1];
            size_t k = 0;
            for (size_t j = 0; j < n; j++)
                k += (size_t)sprintf(shown + k, line[j] >= ' ' && line[j] < 127 ? "%c" : "\\x%02x",
                                     (unsigned char)line[j]);
            print_error("dropped: [%s]\n", shown);
        }
    }
    assert_int_equal(drops, 0);
    assert_true(nones > 1000); /* the lines tried hold both kinds */
}

/* Unbalanced quotes, NUL bytes and groups that never close end at the end
 * of the input; a megabyte of redirections gives every target. */
static void test_hostile(void **state)
{
    (void)state;
    static const char *const lines[] = {"echo 'a > b", "echo \"$(x > y", "cat <<EOF", "> ", "2>&",
                                        "sed -i", "cp", "mv -t", "patch -p", "(((((", ")))",
                                        "bash -c", "git -C", "python3 -c", "echo $'\\x", NULL};
    for (const char *const *l = lines; *l; l++) {
        size_t n = 0;
        sbx_write_targets(*l, strlen(*l), "/w", count, &n);
    }
    char nul[] = "echo a > x\0y; echo b > z";
    size_t got = 0;
    sbx_write_targets(nul, sizeof nul - 1, "/w", count, &got);
    assert_int_equal(got, 1); /* z; a name with a NUL in it is no file's */

    struct sbx_buf big = SBX_BUF_INIT;
    for (int i = 0; i < 100000; i++)
        sbx_buf_adds(&big, "echo a >> f; ");
    got = 0;
    sbx_write_targets(big.p, big.len, "/w", count, &got);
    assert_int_equal(got, 100000);
    sbx_buf_free(&big);
}

/* The reading's work (sbx_write_work) is linear in the line, whatever it
 * repeats: twice the line costs at most twice the steps plus a constant,
 * and at least a step for every 16 bytes. Counted, not timed. */
static void test_work_is_linear(void **state)
{
    (void)state;
    static const char *const units[] = {
        "echo a >> f; ", "cat > f <<EOF\nline\nEOF\n", "sed -i s/a/b/ f g; ",
        "cp -t dir a b c; ", "mv -f a b; ", "bash -c 'echo x > y'; ", "(cd d && echo x > f); ",
        "echo 'never closed ", "echo \"$(echo $(x > y)", "python3 -c 'open(\"f\",\"w\")'; ",
        "git -C d restore f; ", "patch -p1 < p.diff; ", "echo x > a/../b/./c//d; ",
        "tee -a log | cat >> out; ", "printf '%s\\n' a b > f; ", "{ { { ", "cd a; cd ..; ",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "\t\t  \\\n",
        "rm -rf -- a b c d e f; ", "echo $'\\x41' > f; ",
    };
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        struct sbx_buf one = SBX_BUF_INIT, two = SBX_BUF_INIT;
        for (int i = 0; i < 2000; i++)
            sbx_buf_adds(&one, units[u]);
        sbx_buf_add(&two, one.p, one.len);
        sbx_buf_add(&two, one.p, one.len);
        size_t w1 = sbx_write_work(one.p, one.len, "/w"), w2 = sbx_write_work(two.p, two.len, "/w");
        if (w2 > 2 * w1 + 64 || w1 < one.len / 16)
            fail_msg("'%s' x2000: %zu steps for %zu bytes, %zu for twice that", units[u], w1,
                     one.len, w2);
        sbx_buf_free(&one);
        sbx_buf_free(&two);
    }
}

/* Every rule has words, and no two rules share them. */
static void test_rule_words(void **state)
{
    (void)state;
    for (int i = 0; i < SBX_WRITE_RULE_COUNT; i++) {
        assert_true(sbx_write_rule_words(i)[0] != '\0');
        for (int j = 0; j < i; j++)
            assert_string_not_equal(sbx_write_rule_words(i), sbx_write_rule_words(j));
    }
    assert_string_equal(sbx_write_rule_words(SBX_WRITE_RULE_COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_file),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_work_is_linear),
        cmocka_unit_test(test_rule_words),
        cmocka_unit_test(test_prefilter_cases),
        cmocka_unit_test(test_prefilter_never_drops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
