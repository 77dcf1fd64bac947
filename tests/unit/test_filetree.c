/* Tests for analyses/filetree: files events merged per path into a tree:
 * system roots first, then the workspace; directories made from the paths;
 * the latest state wins and every change is kept; odd paths (doubled
 * slashes, "." and "..", a path that is also a directory, the root itself);
 * counts beneath directories; an empty run. The events are made here
 * (tests/unit/fixture.h), their paths as the recorder keeps them: under
 * their root, without the leading "./" (test_recorder.c reads those).
 * A table of namings checks that one path string (the same pointer, as an
 * interned list gives it) named by many events, under two roots, or spelt
 * two ways, gathers every change in time order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/filetree.h"
#include "tests/unit/fixture.h"

/* 2026-01-01T10:00:00Z + s seconds */
#define AT(s) ((INT64_C(1767261600) + (s)) * FX_S)

/* The run: five files events (the workspace, /etc, the workspace, /usr/local,
 * the workspace with odd paths), then a command. */
static void run(struct fixture *fx)
{
    fixture_init(fx, "run.jsonl");
    struct sbx_event *e = fixture_files(fx, "s1", AT(1), NULL);
    fixture_paths(fx, e, SBX_ADDED, "src/a.py", "notes.txt", NULL);
    fixture_paths(fx, e, SBX_CHANGED, "src/lib/b.py", NULL);
    e = fixture_files(fx, "s1", AT(2), "/etc");
    fixture_paths(fx, e, SBX_ADDED, "/etc/cron.d/job", NULL);
    fixture_paths(fx, e, SBX_CHANGED, "/etc/hosts", NULL);
    e = fixture_files(fx, "s1", AT(3), NULL);
    fixture_paths(fx, e, SBX_REMOVED, "notes.txt", NULL);
    fixture_paths(fx, e, SBX_CHANGED, "src/a.py", NULL);
    e = fixture_files(fx, "s1", AT(4), "/usr/local");
    fixture_paths(fx, e, SBX_ADDED, "/usr/local/bin/tool", NULL);
    e = fixture_files(fx, "s1", AT(5), NULL);
    fixture_paths(fx, e, SBX_ADDED, "a//b/./c", "../x", NULL);
    fixture_paths(fx, e, SBX_CHANGED, "src", NULL);
    fixture_command(fx, "s1", AT(6) - FX_MS, 1, "ls", 0);
    fixture_finish(fx);
}

struct want {
    const char *name;
    unsigned depth;
    int state; /* -1: not a changed path */
    unsigned nchanges;
    bool system;
};

static void shape(void **state)
{
    (void)state;
    struct fixture fx;
    run(&fx);
    struct sbx_filetree t;
    sbx_filetree_build(&t, &fx.tl);
    static const struct want want[] = {
        {"/etc", 0, -1, 0, true},         {"cron.d", 1, -1, 0, true},
        {"job", 2, SBX_ADDED, 1, true},   {"hosts", 1, SBX_CHANGED, 1, true},
        {"/usr/local", 0, -1, 0, true},   {"bin", 1, -1, 0, true},
        {"tool", 2, SBX_ADDED, 1, true},  {"", 0, -1, 0, false},
        {"..", 1, -1, 0, false},          {"x", 2, SBX_ADDED, 1, false},
        {"a", 1, -1, 0, false},           {"b", 2, -1, 0, false},
        {"c", 3, SBX_ADDED, 1, false},    {"notes.txt", 1, SBX_REMOVED, 2, false},
        {"src", 1, SBX_CHANGED, 1, false}, {"a.py", 2, SBX_CHANGED, 2, false},
        {"lib", 2, -1, 0, false},         {"b.py", 3, SBX_CHANGED, 1, false},
    };
    size_t nwant = sizeof want / sizeof want[0];
    for (size_t i = 0; i < t.n && i < nwant; i++) {
        const struct sbx_ftnode *n = &t.nodes[i];
        if (strcmp(n->name, want[i].name) != 0 || n->depth != want[i].depth)
            fail_msg("node %zu: \"%s\" at depth %u, wanted \"%s\" at %u", i, n->name, n->depth,
                     want[i].name, want[i].depth);
        assert_int_equal(n->changed, want[i].state >= 0);
        if (want[i].state >= 0) {
            assert_int_equal(n->state, want[i].state);
            assert_int_equal(n->nchanges, want[i].nchanges);
        }
        assert_int_equal(n->system, want[i].system);
    }
    assert_int_equal(t.n, nwant);
    assert_int_equal(t.paths, 9);
    assert_int_equal(t.system_paths, 3);
    /* subtrees: /etc holds 4 nodes, src holds a.py, lib, b.py */
    assert_int_equal(t.nodes[0].end, 4);
    assert_int_equal(t.nodes[14].end, 18);
    assert_true(sbx_ftnode_is_dir(&t, 14));
    assert_false(sbx_ftnode_is_dir(&t, 15));
    /* paths as the events gave them; directories as their parts */
    assert_string_equal(t.nodes[3].path, "/etc/hosts");
    assert_string_equal(t.nodes[12].path, "a//b/./c");
    assert_string_equal(t.nodes[11].path, "a/b");
    assert_string_equal(t.nodes[16].path, "src/lib");
    /* counts beneath: the workspace has 6 changed paths, src 2 beneath it */
    const struct sbx_ftnode *ws = &t.nodes[7];
    assert_int_equal(ws->below[SBX_ADDED] + ws->below[SBX_CHANGED] + ws->below[SBX_REMOVED], 6);
    assert_int_equal(ws->below[SBX_REMOVED], 1);
    assert_int_equal(t.nodes[14].below[SBX_CHANGED], 2);
    assert_int_equal(t.nodes[0].below[SBX_ADDED], 1);
    assert_int_equal(t.nodes[0].below[SBX_CHANGED], 1);
    /* the changes of notes.txt: added, then removed, in time order */
    const struct sbx_ftnode *notes = &t.nodes[13];
    const struct sbx_ftchange *c = &t.changes[notes->change0];
    assert_int_equal(c[0].change, SBX_ADDED);
    assert_int_equal(c[1].change, SBX_REMOVED);
    assert_true(c[0].event->start < c[1].event->start);
    sbx_filetree_free(&t);
    fixture_free(&fx);
}

static void root_itself_and_one_event_twice(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "run.jsonl");
    struct sbx_event *e = fixture_files(&fx, NULL, AT(1), "/etc");
    fixture_paths(&fx, e, SBX_ADDED, "/etc/.", NULL);
    fixture_paths(&fx, e, SBX_REMOVED, "/etc/x", NULL);
    fixture_paths(&fx, e, SBX_CHANGED, "/etc/x", NULL);
    fixture_files(&fx, NULL, AT(2), "/etc");
    fixture_finish(&fx);
    struct sbx_filetree t;
    sbx_filetree_build(&t, &fx.tl);
    assert_int_equal(t.n, 2);
    assert_true(t.nodes[0].changed); /* "." is the root itself */
    assert_int_equal(t.nodes[0].state, SBX_ADDED);
    assert_int_equal(t.nodes[0].below[SBX_REMOVED], 1);
    assert_int_equal(t.nodes[1].nchanges, 2); /* changed and removed in one event: removed wins */
    assert_int_equal(t.nodes[1].state, SBX_REMOVED);
    sbx_filetree_free(&t);
    fixture_free(&fx);
}

static void nothing_changed(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "run.jsonl");
    fixture_files(&fx, NULL, AT(1), "/etc");
    fixture_command(&fx, NULL, AT(6), 0, "ls", 0);
    fixture_finish(&fx);
    struct sbx_filetree t;
    sbx_filetree_build(&t, &fx.tl);
    /* /etc was checked and nothing changed: it shows, alone */
    assert_int_equal(t.n, 1);
    assert_string_equal(t.nodes[0].name, "/etc");
    assert_true(t.nodes[0].system);
    assert_false(t.nodes[0].changed);
    assert_int_equal(t.nodes[0].end, 1);
    assert_int_equal(t.paths, 0);
    sbx_filetree_free(&t);
    fixture_free(&fx);
    /* no files event at all: no tree */
    fixture_init(&fx, "run.jsonl");
    fixture_command(&fx, NULL, AT(6), 0, "ls", 0);
    fixture_finish(&fx);
    sbx_filetree_build(&t, &fx.tl);
    assert_int_equal(t.n, 0);
    sbx_filetree_free(&t);
    fixture_free(&fx);
}

/* Many paths in random order: pre-order holds (each node's subtree ends
 * within its parent's, depths step by one) and every path is found. */
static void many_paths(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, "run.jsonl");
    srand(3);
    for (int ev = 0; ev < 20; ev++) {
        const char *root = ev % 5 == 0 ? "/opt" : NULL;
        struct sbx_event *e = fixture_files(&fx, NULL, AT(ev), root);
        for (int k = 0; k < 30; k++) {
            char path[64];
            int d = rand() % 4, sub = rand() % 3, f = rand() % 50;
            snprintf(path, sizeof path, "%s%sd%d/e%d/f%d", root ? root : "", root ? "/" : "", d,
                     sub, f);
            fixture_path(&fx, e, SBX_ADDED, path);
        }
    }
    fixture_finish(&fx);
    struct sbx_filetree t;
    sbx_filetree_build(&t, &fx.tl);
    size_t changed = 0, pairs = 0;
    for (size_t i = 0; i < t.n; i++) {
        const struct sbx_ftnode *n = &t.nodes[i];
        assert_true(n->end > i && n->end <= t.n);
        if (i + 1 < t.n)
            assert_true(t.nodes[i + 1].depth <= n->depth + 1);
        for (size_t k = i + 1; k < n->end; k++)
            assert_true(t.nodes[k].depth > n->depth);
        changed += n->changed;
        pairs += n->nchanges;
    }
    assert_int_equal(changed, t.paths);
    assert_int_equal(pairs, 20 * 30);
    assert_int_equal(t.nchanges, 20 * 30);
    assert_true(t.nodes[0].system); /* /opt first */
    sbx_filetree_free(&t);
    fixture_free(&fx);
}

/* One naming of a path: its event's time (seconds; one event per time and
 * root), root, change and path (interned, as the importers keep it: one
 * string however many namings). */
struct naming {
    int at;
    const char *root;
    char change; /* 'A', 'C', 'R' */
    const char *path;
};

static const struct {
    const char *name;
    struct naming n[8];
    /* each node: dots for its depth, its name, and for a changed path its
     * changes (time and change) and the path as shown */
    const char *want;
} namings_cases[] = {
    {"one pointer in three events",
     {{1, NULL, 'A', "src/a.py"}, {2, NULL, 'C', "src/a.py"},
      {2, NULL, 'A', "src/b.py"}, {3, NULL, 'R', "src/a.py"}},
     "[] .[src] ..[a.py 1A 2C 3R @src/a.py] ..[b.py 2A @src/b.py]"},
    {"two spellings, time order kept",
     {{1, NULL, 'A', "src/./a.py"}, {2, NULL, 'C', "src/a.py"},
      {3, NULL, 'C', "src/./a.py"}, {4, NULL, 'R', "src/a.py"}},
     "[] .[src] ..[a.py 1A 2C 3C 4R @src/./a.py]"},
    {"the later spelling first in the table",
     {{1, NULL, 'C', "a/b"}, {2, NULL, 'C', "a//b"}, {3, NULL, 'R', "a/b"}},
     "[] .[a] ..[b 1C 2C 3R @a/b]"},
    {"one pointer twice in one list",
     {{1, NULL, 'A', "p"}, {1, NULL, 'A', "p"}, {2, NULL, 'C', "q"}},
     "[] .[p 1A 1A @p] .[q 2C @q]"},
    {"one pointer under two roots",
     {{1, "/etc", 'C', "/etc/x"}, {2, NULL, 'A', "/etc/x"},
      {3, "/etc", 'R', "/etc/x"}},
     "[/etc] .[x 1C 3R @/etc/x] [] .[etc] ..[x 2A @/etc/x]"},
};

static void dump_tree(const struct sbx_filetree *t, struct sbx_buf *out)
{
    static const char letter[] = {'A', 'C', 'R'};
    for (size_t i = 0; i < t->n; i++) {
        const struct sbx_ftnode *n = &t->nodes[i];
        if (i)
            sbx_buf_addc(out, ' ');
        for (unsigned d = 0; d < n->depth; d++)
            sbx_buf_addc(out, '.');
        sbx_buf_addf(out, "[%s", n->name);
        if (n->changed) {
            for (uint32_t k = 0; k < n->nchanges; k++) {
                const struct sbx_ftchange *c = &t->changes[n->change0 + k];
                sbx_buf_addf(out, " %d%c", (int)((c->event->start - AT(0)) / FX_S),
                               letter[c->change]);
            }
            sbx_buf_addf(out, " @%s", n->path);
        }
        sbx_buf_addc(out, ']');
    }
}

static void namings(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof namings_cases / sizeof *namings_cases; c++) {
        struct fixture fx;
        fixture_init(&fx, "run.jsonl");
        struct sbx_event *ev[8] = {0};
        const struct naming *nm = namings_cases[c].n;
        for (size_t i = 0; i < 8 && nm[i].path; i++) {
            size_t k = 0;
            while (k < i && !(nm[k].at == nm[i].at && nm[k].root == nm[i].root))
                k++;
            if (k == i)
                ev[i] = fixture_files(&fx, "s1", AT(nm[i].at), nm[i].root);
            else
                ev[i] = ev[k];
            enum sbx_change ch = nm[i].change == 'A' ? SBX_ADDED
                                 : nm[i].change == 'C' ? SBX_CHANGED
                                                       : SBX_REMOVED;
            fixture_path(&fx, ev[i], ch, nm[i].path);
        }
        fixture_finish(&fx);
        struct sbx_filetree t;
        sbx_filetree_build(&t, &fx.tl);
        struct sbx_buf got = SBX_BUF_INIT;
        dump_tree(&t, &got);
        sbx_buf_addc(&got, '\0');
        if (strcmp(got.p, namings_cases[c].want) != 0)
            fail_msg("%s:\n  got  %s\n  want %s", namings_cases[c].name, got.p,
                     namings_cases[c].want);
        sbx_buf_free(&got);
        sbx_filetree_free(&t);
        fixture_free(&fx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shape),
        cmocka_unit_test(root_itself_and_one_event_twice),
        cmocka_unit_test(nothing_changed),
        cmocka_unit_test(many_paths),
        cmocka_unit_test(namings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
