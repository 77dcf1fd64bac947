/* Tests for analyses/written: which command wrote each changed path — by
 * the path named as a write target, in the record's sandbox, before the
 * record; removals by removing targets; folders' trees; a file watch's
 * narrowing to the last command before it; a system file's lines from a
 * command's text; and linear time over many commands and records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/written.h"
#include "analyses/writers.h"
#include "tests/unit/fixture.h"

#define T0 (INT64_C(1780000000) * FX_S)

static struct sbx_event *cmd_in(struct fixture *fx, const char *sb, int64_t at, const char *line,
                                const char *cwd)
{
    struct sbx_event *e = fixture_command(fx, sb, at, 10, line, 0);
    e->u.cmd.cwd = fixture_id(fx, cwd);
    return e;
}

static const struct sbx_written *run(struct fixture *fx, struct sbx_written_list *out, const char *path)
{
    fixture_finish(fx);
    sbx_written_run(&fx->tl, NULL, out);
    return sbx_written_find(out, path);
}

/* The writer's command line and rule, as "rule: line". */
static void assert_writer(const struct fixture *fx, const struct sbx_written *w, size_t i,
                          const char *rule, const char *line)
{
    assert_non_null(w);
    assert_true(i < w->nby);
    assert_string_equal(sbx_write_rule_words(w->by[i].rule), rule);
    struct sbx_buf b = SBX_BUF_INIT;
    size_t n;
    const char *s = sbx_text_get(&fx->tl, w->by[i].command, &w->by[i].command->u.cmd.command, &b, &n);
    assert_int_equal(n, strlen(line));
    assert_memory_equal(s, line, n);
    sbx_buf_free(&b);
}

/* The story: sed -i, a heredoc, rm, echo >>; the commands that name no
 * path (git, sleep) and one after the record are not writers. */
static void test_story(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    cmd_in(&fx, "sb", T0, "git status --short", "/workspace");
    cmd_in(&fx, "sb", T0 + 1 * FX_S, "sed -i 's/a/b/' src/dates.py", "/workspace");
    cmd_in(&fx, "sb", T0 + 2 * FX_S, "cat > tests/t.py <<'EOF'\nx = 1\nEOF", "/workspace");
    cmd_in(&fx, "sb", T0 + 3 * FX_S, "rm README.md", "/workspace");
    cmd_in(&fx, "sb", T0 + 4 * FX_S, "echo '203.0.113.50 pypi.org' >> /etc/hosts", "/workspace");
    cmd_in(&fx, "sb", T0 + 5 * FX_S, "sleep 1", "/workspace");
    struct sbx_event *f = fixture_files(&fx, "sb", T0 + 6 * FX_S, NULL);
    fixture_path(&fx, f, SBX_CHANGED, "src/dates.py");
    fixture_path(&fx, f, SBX_ADDED, "tests/t.py");
    fixture_path(&fx, f, SBX_REMOVED, "README.md");
    fixture_path(&fx, f, SBX_ADDED, "notes.txt");
    struct sbx_event *etc = fixture_files(&fx, "sb", T0 + 6 * FX_S, "/etc");
    fixture_path(&fx, etc, SBX_CHANGED, "/etc/hosts");
    cmd_in(&fx, "sb", T0 + 7 * FX_S, "echo late > src/dates.py", "/workspace");
    struct sbx_written_list l;
    const struct sbx_written *w = run(&fx, &l, "src/dates.py");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, "sed -i", "sed -i 's/a/b/' src/dates.py");
    assert_false(w->system);
    assert_int_equal(w->nlines, 0);
    w = sbx_written_find(&l, "tests/t.py");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, "heredoc", "cat > tests/t.py <<'EOF'\nx = 1\nEOF");
    w = sbx_written_find(&l, "README.md");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, "rm", "rm README.md");
    w = sbx_written_find(&l, "notes.txt");
    assert_non_null(w);
    assert_int_equal(w->nby, 0); /* no command names it */
    w = sbx_written_find(&l, "/etc/hosts");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, ">> redirection", "echo '203.0.113.50 pypi.org' >> /etc/hosts");
    assert_true(w->system);
    assert_false(w->lines_from_diff);
    assert_int_equal(w->nlines, 1);
    assert_string_equal(w->lines[0], "+ 203.0.113.50 pypi.org");
    assert_null(sbx_written_find(&l, "src"));
    sbx_written_free(&l);
    fixture_free(&fx);
}

/* A removed path takes removing targets only; a written one writing
 * targets only; another sandbox's command is no writer; a folder's tree
 * (rm -r, cp -r) covers the paths beneath it, a plain target does not. */
static void test_kinds_sandboxes_trees(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    cmd_in(&fx, "a", T0, "echo x > gone.txt", "/w");
    cmd_in(&fx, "a", T0 + FX_S, "rm gone.txt", "/w");
    cmd_in(&fx, "b", T0 + FX_S, "echo y > kept.txt", "/w");
    cmd_in(&fx, "a", T0 + 2 * FX_S, "rm -rf build", "/w");
    cmd_in(&fx, "a", T0 + 2 * FX_S, "touch dist", "/w");
    cmd_in(&fx, "a", T0 + 3 * FX_S, "cd sub && cp -r ../tpl out/", "/w");
    struct sbx_event *f = fixture_files(&fx, "a", T0 + 5 * FX_S, NULL);
    fixture_path(&fx, f, SBX_REMOVED, "gone.txt");
    fixture_path(&fx, f, SBX_ADDED, "kept.txt");
    fixture_path(&fx, f, SBX_REMOVED, "build/lib/x.o");
    fixture_path(&fx, f, SBX_ADDED, "dist/app");
    fixture_path(&fx, f, SBX_ADDED, "sub/out/tpl/a.txt");
    struct sbx_written_list l;
    const struct sbx_written *w = run(&fx, &l, "gone.txt");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, "rm", "rm gone.txt");
    assert_int_equal(sbx_written_find(&l, "kept.txt")->nby, 0);
    w = sbx_written_find(&l, "build/lib/x.o");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, "rm", "rm -rf build");
    assert_int_equal(sbx_written_find(&l, "dist/app")->nby, 0);
    w = sbx_written_find(&l, "sub/out/tpl/a.txt");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, "cp", "cd sub && cp -r ../tpl out/");
    sbx_written_free(&l);
    fixture_free(&fx);
}

/* A file watch (a Runtime source) takes the last naming command to start
 * by its time; a recorder's record every one before it. */
static void test_watch_narrows(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    uint32_t ev = sbx_timeline_add_source(&fx.tl, "runtime-events.jsonl", NULL, 0, SBX_DATA_HEAP);
    fx.tl.sources[ev].format = "runtime-events";
    cmd_in(&fx, "sb", T0, "echo 1 > app.cfg", "/w");
    cmd_in(&fx, "sb", T0 + 2 * FX_S, "echo 2 >> app.cfg", "/w");
    cmd_in(&fx, "sb", T0 + 4 * FX_S, "echo 3 >> app.cfg", "/w");
    cmd_in(&fx, "sb", T0 + 4 * FX_S, "echo 4 >> other.cfg", "/w");
    struct sbx_event *watch = fixture_files(&fx, "sb", T0 + 3 * FX_S, "/w");
    watch->source = (uint16_t)ev;
    fixture_path(&fx, watch, SBX_CHANGED, "/w/app.cfg");
    struct sbx_event *rec = fixture_files(&fx, "sb", T0 + 9 * FX_S, NULL);
    fixture_path(&fx, rec, SBX_CHANGED, "other.cfg");
    struct sbx_written_list l;
    const struct sbx_written *w = run(&fx, &l, "/w/app.cfg");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, ">> redirection", "echo 2 >> app.cfg");
    w = sbx_written_find(&l, "other.cfg");
    assert_int_equal(w->nby, 1);
    assert_writer(&fx, w, 0, ">> redirection", "echo 4 >> other.cfg");
    sbx_written_free(&l);
    fixture_free(&fx);
}

/* Every writer of a path in time order, each once per rule; a record with
 * no time of its own (a manifest's, a diff's) takes every command. */
static void test_several_writers(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    cmd_in(&fx, "sb", T0 + 2 * FX_S, "tee -a log.txt", "/w");
    cmd_in(&fx, "sb", T0, "echo a > log.txt; echo b >> log.txt; echo c >> log.txt", "/w");
    struct sbx_event *f = fixture_files(&fx, NULL, T0 + FX_S, NULL);
    f->tflags |= SBX_EVT_TIME_INFERRED;
    fixture_path(&fx, f, SBX_CHANGED, "log.txt");
    struct sbx_written_list l;
    const struct sbx_written *w = run(&fx, &l, "log.txt");
    assert_int_equal(w->nby, 3);
    assert_writer(&fx, w, 0, "> redirection", "echo a > log.txt; echo b >> log.txt; echo c >> log.txt");
    assert_writer(&fx, w, 1, ">> redirection", "echo a > log.txt; echo b >> log.txt; echo c >> log.txt");
    assert_writer(&fx, w, 2, "tee", "tee -a log.txt");
    sbx_written_free(&l);
    fixture_free(&fx);
}

/* One entry a path however many events and lists name it, the entries by
 * name; two ids whose strings are one C string (a NUL inside a path) are
 * one path; a path's writer found whichever naming comes first. */
static void test_one_entry_a_path(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    cmd_in(&fx, "sb", T0, "echo x > b.txt", "/w");
    static const char *const names[] = {"c/d", "b.txt", "a", "c", "b.txt", "a/z", "c/d"};
    for (int i = 0; i < 7; i++) {
        struct sbx_event *f = fixture_files(&fx, "sb", T0 + (i + 1) * FX_S, NULL);
        fixture_path(&fx, f, (enum sbx_change)(i % 3), names[i]);
        fixture_path(&fx, f, SBX_CHANGED, names[(i + 3) % 7]);
    }
    struct sbx_event *twins = fixture_files(&fx, "sb", T0 + 9 * FX_S, NULL);
    static const uint32_t room[SBX_CHANGE_COUNT] = {1, 1, 0};
    struct sbx_files *f = sbx_files_new(&fx.buf, room, false);
    sbx_files_add(f, SBX_ADDED, sbx_strtab_intern(&fx.tl.strings, "q\0one", 5));
    sbx_files_add(f, SBX_CHANGED, sbx_strtab_intern(&fx.tl.strings, "q\0two", 5));
    assert_int_not_equal(sbx_files_ids(f, SBX_ADDED)[0], sbx_files_ids(f, SBX_CHANGED)[0]);
    twins->u.files = f;
    struct sbx_written_list l;
    const struct sbx_written *w = run(&fx, &l, "b.txt");
    static const char *const want[] = {"a", "a/z", "b.txt", "c", "c/d", "q"};
    assert_int_equal(l.n, 6);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(l.v[i].path, want[i]);
    assert_int_equal(w->nby, 1);
    assert_ptr_equal(w->path, sbx_str(&fx.tl, sbx_strtab_intern(&fx.tl.strings, "b.txt", 5))); /* the timeline's */
    assert_writer(&fx, w, 0, "> redirection", "echo x > b.txt");
    assert_int_equal(sbx_written_find(&l, "c/d")->nby, 0);
    sbx_written_free(&l);
    fixture_free(&fx);
}

/* 20,000 commands writing one path each and the same path, named by 5,000
 * records: every writer is found (the work is counted below). */
static void test_linear(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    enum { N = 20000, R = 5000 };
    char line[64];
    for (int i = 0; i < N; i++) {
        snprintf(line, sizeof line, "echo %d >> f%d && echo x >> same", i, i);
        cmd_in(&fx, "sb", T0 + i * FX_MS, line, "/w");
    }
    struct sbx_event *f = fixture_files(&fx, "sb", T0 + N * FX_MS, NULL);
    for (int i = 0; i < N; i++) {
        snprintf(line, sizeof line, "f%d", i);
        fixture_path(&fx, f, SBX_CHANGED, line);
    }
    for (int r = 0; r < R; r++) {
        struct sbx_event *g = fixture_files(&fx, "sb", T0 + (N + r) * FX_MS, NULL);
        fixture_path(&fx, g, SBX_CHANGED, "same");
    }
    struct sbx_written_list l;
    const struct sbx_written *w = run(&fx, &l, "same");
    assert_int_equal(w->nby, N);
    assert_int_equal(sbx_written_find(&l, "f123")->nby, 1);
    assert_int_equal(l.n, N + 1);
    sbx_written_free(&l);
    fixture_free(&fx);
}

/* Lines repeated (agents repeat commands), from two cwds, more distinct
 * ones than the cache of recent lines holds and one longer than it keeps:
 * every run of a line is a writer of what it names from its own cwd, as
 * if each were read afresh. */
static void test_repeated_lines(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    enum { N = 5000, ROUNDS = 3 };
    static int runs[2][N];
    memset(runs, 0, sizeof runs);
    char line[700], path[64];
    int64_t at = T0;
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < N; k++) {
            int i = (k * 7 + r * 13) % N, w = (i + r) % 2;
            snprintf(line, sizeof line, "echo %d > out%d.txt && rm -f old%d", i, i, i);
            cmd_in(&fx, "sb", at += FX_MS, line, w ? "/a" : "/b");
            runs[w][i]++;
        }
    memset(line, 'z', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    memcpy(line, "echo x > long.txt #", 19);
    for (int r = 0; r < ROUNDS; r++) {
        cmd_in(&fx, "sb", at += FX_MS, line, "/a");
        /* first in another sandbox: every writer here is a line seen before */
        cmd_in(&fx, r ? "sb" : "other", at += FX_MS, "echo '203.0.113.7 r.example' >> /etc/hosts", "/a");
    }
    struct sbx_event *etc = fixture_files(&fx, "sb", at + FX_S, "/etc");
    fixture_path(&fx, etc, SBX_CHANGED, "/etc/hosts");
    struct sbx_event *f = fixture_files(&fx, "sb", at + FX_S, NULL);
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < N; i++) {
            snprintf(path, sizeof path, "/%c/out%d.txt", w ? 'a' : 'b', i);
            fixture_path(&fx, f, SBX_ADDED, path);
            snprintf(path, sizeof path, "/%c/old%d", w ? 'a' : 'b', i);
            fixture_path(&fx, f, SBX_REMOVED, path);
        }
    fixture_path(&fx, f, SBX_ADDED, "/a/long.txt");
    struct sbx_written_list l;
    const struct sbx_written *w = run(&fx, &l, "/a/long.txt");
    assert_int_equal(w->nby, ROUNDS);
    w = sbx_written_find(&l, "/etc/hosts");
    assert_int_equal(w->nby, ROUNDS - 1);
    assert_true(w->nlines >= 1);
    for (size_t k = 0; k < w->nlines; k++)
        assert_string_equal(w->lines[k], "+ 203.0.113.7 r.example");
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < N; i++) {
            snprintf(path, sizeof path, "/%c/out%d.txt", d ? 'a' : 'b', i);
            w = sbx_written_find(&l, path);
            assert_non_null(w);
            if ((int)w->nby != runs[d][i])
                fail_msg("%s: %zu writers, want %d", path, w->nby, runs[d][i]);
            for (size_t k = 0; k < w->nby; k++)
                assert_string_equal(sbx_write_rule_words(w->by[k].rule), "> redirection");
            snprintf(path, sizeof path, "/%c/old%d", d ? 'a' : 'b', i);
            w = sbx_written_find(&l, path);
            assert_int_equal(w->nby, runs[d][i]);
            for (size_t k = 0; k < w->nby; k++)
                assert_string_equal(sbx_write_rule_words(w->by[k].rule), "rm");
        }
    sbx_written_free(&l);
    fixture_free(&fx);
}

/* The steps sbx_written_run takes (sbx_written_work) on a run of shape
 * `shape` made n times over (names of one width, so twice the run is
 * twice the bytes). */
static size_t work_of(int shape, int n)
{
    struct fixture fx;
    fixture_init(&fx, "agent-run.jsonl");
    char line[96];
    struct sbx_event *f = NULL;
    for (int i = 0; i < n; i++) {
        int64_t at = T0 + i * FX_MS;
        switch (shape) {
        case 0: /* each its own path and one shared, the shared named by every record */
            snprintf(line, sizeof line, "echo %06d >> f%06d && echo x >> same", i, i);
            cmd_in(&fx, "sb", at, line, "/w");
            fixture_path(&fx, fixture_files(&fx, "sb", at + 1, NULL), SBX_CHANGED, "same");
            break;
        case 1: /* deep paths, each under a tree a command removes whole */
            snprintf(line, sizeof line, "rm -rf a%06d", i);
            cmd_in(&fx, "sb", at, line, "/w");
            snprintf(line, sizeof line, "a%06d/b/c/d/e/f/g/h", i);
            fixture_path(&fx, fixture_files(&fx, "sb", at + 1, NULL), SBX_REMOVED, line);
            break;
        case 2: /* records of paths no command names, one files event */
            if (!f)
                f = fixture_files(&fx, "sb", T0, NULL);
            snprintf(line, sizeof line, "untouched/p%06d", i);
            fixture_path(&fx, f, SBX_ADDED, line);
            cmd_in(&fx, "sb", at, "ls -la", "/w");
            break;
        default: /* one path written by every command and named once, a system one */
            cmd_in(&fx, "sb", at, "echo '203.0.113.9 x.example' >> /etc/hosts", "/");
            if (i == n - 1)
                fixture_path(&fx, fixture_files(&fx, "sb", at + 1, NULL), SBX_CHANGED, "/etc/hosts");
            break;
        }
    }
    struct sbx_written_list l;
    run(&fx, &l, "same");
    size_t steps = sbx_written_work();
    sbx_written_free(&l);
    fixture_free(&fx);
    return steps;
}

/* Twice the run costs at most twice the steps plus a constant, in every
 * shape, and at least a step per command. Counted, not timed. */
static void test_work_is_linear(void **state)
{
    (void)state;
    for (int shape = 0; shape < 4; shape++) {
        size_t w1 = work_of(shape, 2000), w2 = work_of(shape, 4000);
        if (w2 > 2 * w1 + 64 || w1 < 2000)
            fail_msg("shape %d: %zu steps for 2000, %zu for 4000", shape, w1, w2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_story),
        cmocka_unit_test(test_kinds_sandboxes_trees),
        cmocka_unit_test(test_watch_narrows),
        cmocka_unit_test(test_several_writers),
        cmocka_unit_test(test_one_entry_a_path),
        cmocka_unit_test(test_linear),
        cmocka_unit_test(test_repeated_lines),
        cmocka_unit_test(test_work_is_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
