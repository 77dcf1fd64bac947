/* The runs list: which folders are folders of runs, the rows a fill gives
 * (on a pool and on one thread alike), sorting by each column, filtering. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "importers/runs.h"
#include "base/buf.h"
#include "analyses/runs.h"
#include "model/timeline.h"

/* ---- folders made here ---- */

static char *path_of(const char *dir, const char *name)
{
    struct sbx_buf p = SBX_BUF_INIT;
    sbx_buf_addf(&p, "%s/%s", dir, name);
    return p.p;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char *p = path_of(dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(p);
}

static char *make_dir(const char *dir, const char *name)
{
    char *p = path_of(dir, name);
    assert_int_equal(mkdir(p, 0700), 0);
    return p;
}

/* A recorder log: day d of November, `cmds` commands of which `fails`
 * fail, one curl refused when refused, an echoed token when secret. */
static char *run_log(int day, int cmds, int fails, bool refused, bool secret)
{
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < cmds; i++)
        sbx_buf_addf(&b,
                     "{\"at\": \"2026-11-%02dT09:%02d:%02d.000000+00:00\", \"sandbox\": \"s1\", "
                     "\"kind\": \"command\", \"command\": \"step %d\", \"cwd\": \"/w\", \"exit\": %d, "
                     "\"timed_out\": false, \"ms\": %d, \"stdout\": \"\", \"stderr\": \"\"}\n",
                     day, i / 60, i % 60, i, i < fails ? 1 : 0, 10 + i);
    if (refused)
        sbx_buf_addf(&b,
                     "{\"at\": \"2026-11-%02dT10:00:00.000000+00:00\", \"sandbox\": \"s1\", "
                     "\"kind\": \"command\", \"command\": \"curl https://pastebin.com/x\", "
                     "\"cwd\": \"/w\", \"exit\": 7, \"timed_out\": false, \"ms\": 5, \"stdout\": \"\", "
                     "\"stderr\": \"curl: (7) Failed to connect to pastebin.com port 443 after 0 ms: "
                     "Connection refused\\n\"}\n",
                     day);
    if (secret)
        sbx_buf_addf(&b,
                     "{\"at\": \"2026-11-%02dT10:00:01.000000+00:00\", \"sandbox\": \"s1\", "
                     "\"kind\": \"command\", \"command\": \"echo ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\", "
                     "\"cwd\": \"/w\", \"exit\": 0, \"timed_out\": false, \"ms\": 5, "
                     "\"stdout\": \"ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\\n\", \"stderr\": \"\"}\n",
                     day);
    return b.p;
}

struct tree {
    char root[64];
};

static void add_run(struct tree *t, const char *name, const char *log)
{
    char *d = make_dir(t->root, name);
    write_file(d, "agent-run.jsonl", log);
    free(d);
}

static void tree_make(struct tree *t)
{
    snprintf(t->root, sizeof t->root, "/tmp/sbx-runs-XXXXXX");
    assert_non_null(mkdtemp(t->root));
}

static void tree_drop(struct tree *t)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
    assert_int_equal(system(cmd), 0);
}

/* ---- discovery ---- */

static void names_are(const struct sbx_runs *r, const char *const *want, size_t n)
{
    assert_int_equal(r->n, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(r->rows[i].name, want[i]);
}

static void discover_folder_of_runs(void **state)
{
    (void)state;
    struct tree t;
    tree_make(&t);
    char *log = run_log(3, 2, 0, false, false);
    add_run(&t, "zeta", log);
    add_run(&t, "alpha", log);
    write_file(t.root, "README.txt", "not a log\n");   /* a text file at the top is fine */
    char *notes = make_dir(t.root, "notes");          /* files, none a log: still a run */
    write_file(notes, "n.txt", "hello\n");
    char *empty = make_dir(t.root, "empty");          /* no file: not a run */
    char *hidden = make_dir(t.root, ".cache");        /* hidden: not a run */
    write_file(hidden, "agent-run.jsonl", log);
    struct sbx_runs r;
    assert_true(sbx_runs_discover(t.root, &r));
    names_are(&r, (const char *const[]){"alpha", "notes", "zeta"}, 3);
    for (size_t i = 0; i < r.n; i++)
        assert_int_equal(atomic_load(&r.rows[i].state), SBX_RUN_PENDING);
    /* the notes run cannot be read, and says why */
    struct sbx_runs_fill *f = sbx_runs_fill_start(&r, NULL, NULL, 2, false);
    sbx_runs_fill_free(f);
    assert_int_equal(atomic_load(&r.rows[1].state), SBX_RUN_UNREADABLE);
    assert_true(r.rows[1].why[0] != '\0');
    assert_int_equal(atomic_load(&r.rows[0].state), SBX_RUN_READY);
    assert_int_equal(r.rows[0].count[SBX_RUN_COMMANDS], 2);
    assert_int_equal(atomic_load(&r.done), 3);
    sbx_runs_free(&r);
    free(notes);
    free(empty);
    free(hidden);
    free(log);
    tree_drop(&t);
}

static void discover_not_a_folder_of_runs(void **state)
{
    (void)state;
    struct tree t;
    tree_make(&t);
    char *log = run_log(3, 2, 0, false, false);
    struct sbx_runs r;
    memset(&r, 0x5a, sizeof r);
    /* an empty folder, and a missing one */
    assert_false(sbx_runs_discover(t.root, &r));
    char *missing = path_of(t.root, "missing");
    assert_false(sbx_runs_discover(missing, &r));
    /* a run folder: a log of its own */
    write_file(t.root, "agent-run.jsonl", log);
    add_run(&t, "sub", log);
    assert_false(sbx_runs_discover(t.root, &r));
    /* a file, not a folder */
    char *file = path_of(t.root, "agent-run.jsonl");
    assert_false(sbx_runs_discover(file, &r));
    assert_int_equal(unlink(file), 0);
    /* subfolders with files, none a log */
    struct tree u;
    tree_make(&u);
    char *d = make_dir(u.root, "a");
    write_file(d, "x.txt", "hello\n");
    assert_false(sbx_runs_discover(u.root, &r));
    /* the list was not touched */
    assert_int_equal(r.n, (size_t)0x5a5a5a5a5a5a5a5aull);
    /* with the log of its own gone, the first tree is a folder of runs */
    assert_true(sbx_runs_discover(t.root, &r));
    names_are(&r, (const char *const[]){"sub"}, 1);
    sbx_runs_free(&r);
    free(d);
    free(file);
    free(missing);
    free(log);
    tree_drop(&u);
    tree_drop(&t);
}

/* ---- filling ---- */

struct spec {
    const char *name;
    int day, cmds, fails;
    bool refused, secret;
};

static const struct spec specs[] = {
    {"r01", 5, 3, 0, false, false}, {"r02", 2, 8, 3, true, false}, {"r03", 9, 1, 1, false, true},
    {"r04", 1, 5, 0, true, true},   {"r05", 7, 12, 6, false, false}, {"r06", 3, 4, 2, false, false},
    {"r07", 8, 2, 0, false, false}, {"r08", 4, 9, 1, true, false}, {"r09", 6, 6, 4, false, true},
    {"r10", 10, 7, 0, false, false}, {"r11", 11, 3, 3, true, true}, {"r12", 12, 10, 5, false, false},
};
enum { NSPECS = sizeof specs / sizeof specs[0] };

static void make_runs(struct tree *t)
{
    tree_make(t);
    for (size_t i = 0; i < NSPECS; i++) {
        char *log = run_log(specs[i].day, specs[i].cmds, specs[i].fails, specs[i].refused,
                            specs[i].secret);
        add_run(t, specs[i].name, log);
        free(log);
    }
}

static void fill_rows_match_the_runs(void **state)
{
    (void)state;
    struct tree t;
    make_runs(&t);
    struct sbx_runs serial, pool;
    assert_true(sbx_runs_discover(t.root, &serial));
    assert_true(sbx_runs_discover(t.root, &pool));
    sbx_runs_fill_free(sbx_runs_fill_start(&serial, NULL, NULL, 1, false));
    struct sbx_runs_fill *f = sbx_runs_fill_start(&pool, NULL, NULL, 4, true);
    sbx_runs_fill_wait(f);
    assert_true(sbx_runs_fill_done(f));
    sbx_runs_fill_free(f);
    assert_int_equal(serial.n, NSPECS);
    assert_int_equal(pool.n, NSPECS);
    for (size_t i = 0; i < NSPECS; i++) {
        const struct sbx_run_row *a = &serial.rows[i], *b = &pool.rows[i];
        const struct spec *s = &specs[i];
        assert_string_equal(a->name, s->name);
        assert_int_equal(atomic_load(&a->state), SBX_RUN_READY);
        assert_int_equal(a->count[SBX_RUN_COMMANDS], s->cmds + s->refused + s->secret);
        assert_int_equal(a->count[SBX_RUN_FAILED], s->fails + s->refused);
        assert_int_equal(a->count[SBX_RUN_REFUSED], s->refused);
        assert_int_equal(a->count[SBX_RUN_SECRETS], s->secret);
        assert_int_equal(a->count[SBX_RUN_SANDBOXES], 1);
        assert_true(a->start != SBX_TIME_UNKNOWN);
        /* the pool's rows are the serial rows, number for number */
        assert_int_equal(atomic_load(&b->state), atomic_load(&a->state));
        assert_int_equal(b->start, a->start);
        assert_int_equal(b->end, a->end);
        assert_memory_equal(b->count, a->count, sizeof a->count);
        assert_int_equal(b->events, a->events);
        assert_int_equal(b->findings, a->findings);
    }
    sbx_runs_free(&serial);
    sbx_runs_free(&pool);
    tree_drop(&t);
}

/* A run whose commands' stdout does not hash to the recorded hash: its
 * row names the first such command's program and counts them all; one
 * whose hashes verify, and one without hashes, name none. */
static void hash_mismatch_named(void **state)
{
    (void)state;
    struct tree t;
    tree_make(&t);
    static const char line[] =
        "{\"at\": \"2026-11-02T09:00:%02d.000000+00:00\", \"sandbox\": \"s1\", \"kind\": \"command\", "
        "\"command\": \"%s\", \"cwd\": \"/w\", \"exit\": 0, \"timed_out\": false, \"ms\": 5, "
        "\"stdout\": \"%s\", \"stderr\": \"\"%s}\n";
    struct sbx_buf bad = SBX_BUF_INIT, plain = SBX_BUF_INIT;
    sbx_buf_addf(&bad, line, 1, "ls", "a\\n", "");
    sbx_buf_addf(&bad, line, 2, "git push origin main", "pushed\\n", ", \"stdout_hash\": \"0000000000000000\"");
    sbx_buf_addf(&bad, line, 3, "make test", "ok\\n", ", \"stdout_hash\": \"0123456789abcdef\"");
    sbx_buf_addf(&plain, line, 1, "ls", "a\\n", "");
    add_run(&t, "bad", bad.p);
    add_run(&t, "plain", plain.p);
    struct sbx_runs r;
    assert_true(sbx_runs_discover(t.root, &r));
    sbx_runs_fill_free(sbx_runs_fill_start(&r, NULL, NULL, 1, false));
    assert_int_equal(r.n, 2);
    assert_string_equal(r.rows[0].name, "bad");
    assert_int_equal(r.rows[0].mismatches, 2);
    assert_string_equal(r.rows[0].mismatch, "git push");
    assert_int_equal(r.rows[1].mismatches, 0);
    assert_string_equal(r.rows[1].mismatch, "");
    sbx_runs_free(&r);
    sbx_buf_free(&bad);
    sbx_buf_free(&plain);
    tree_drop(&t);
}

/* Stopping a fill right away leaves a list that is still whole: every row
 * read, unreadable or pending, and done counting the first two. */
static void fill_stops(void **state)
{
    (void)state;
    struct tree t;
    make_runs(&t);
    struct sbx_runs r;
    assert_true(sbx_runs_discover(t.root, &r));
    sbx_runs_fill_free(sbx_runs_fill_start(&r, NULL, NULL, 2, true));
    size_t settled = 0;
    for (size_t i = 0; i < r.n; i++)
        settled += atomic_load(&r.rows[i].state) != SBX_RUN_PENDING;
    assert_int_equal(settled, atomic_load(&r.done));
    sbx_runs_free(&r);
    tree_drop(&t);
}

/* A fill waits on await_run for each run's files (a store's runs arrive
 * behind the list): no row is read before its run is let through, a run
 * that will not come is unreadable with the reason given, and a fill
 * stopped while its workers wait ends with those rows pending. */
struct gate {
    _Atomic bool open;
    _Atomic size_t asked;
};

static bool gate_await(void *ctx, size_t i, const _Atomic bool *stop, char *why, size_t whysz)
{
    struct gate *g = ctx;
    atomic_fetch_add(&g->asked, 1);
    if (i % 2) {
        snprintf(why, whysz, "not fetched: row %zu", i);
        return false;
    }
    while (!atomic_load(&g->open) && !atomic_load(stop))
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
    snprintf(why, whysz, "stopped");
    return atomic_load(&g->open);
}

static void fill_awaits_each_run(void **state)
{
    (void)state;
    struct tree t;
    make_runs(&t);
    struct sbx_runs r;
    assert_true(sbx_runs_discover(t.root, &r));
    struct gate g = {false, 0};
    r.await_run = gate_await;
    r.await_ctx = &g;
    struct sbx_runs_fill *f = sbx_runs_fill_start(&r, NULL, NULL, 2, true);
    /* both workers at the gate, or past an odd row (10 s at most) */
    for (int ms = 0; atomic_load(&g.asked) < 2 && ms < 10000; ms++)
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
    assert_true(atomic_load(&g.asked) >= 2);
    for (size_t i = 0; i < r.n; i += 2)
        assert_int_equal(atomic_load(&r.rows[i].state), SBX_RUN_PENDING);
    atomic_store(&g.open, true);
    sbx_runs_fill_wait(f);
    sbx_runs_fill_free(f);
    for (size_t i = 0; i < r.n; i++) {
        if (i % 2) {
            char want[64];
            snprintf(want, sizeof want, "not fetched: row %zu", i);
            assert_int_equal(atomic_load(&r.rows[i].state), SBX_RUN_UNREADABLE);
            assert_string_equal(r.rows[i].why, want);
        } else {
            assert_int_equal(atomic_load(&r.rows[i].state), SBX_RUN_READY);
            assert_int_equal(r.rows[i].count[SBX_RUN_SANDBOXES], 1);
        }
    }
    sbx_runs_free(&r);
    /* stopped at the gate: the waiting rows stay pending, none fails */
    assert_true(sbx_runs_discover(t.root, &r));
    struct gate shut = {false, 0};
    r.await_run = gate_await;
    r.await_ctx = &shut;
    f = sbx_runs_fill_start(&r, NULL, NULL, 2, true);
    for (int ms = 0; atomic_load(&shut.asked) < 2 && ms < 10000; ms++)
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
    assert_true(atomic_load(&shut.asked) >= 2);
    sbx_runs_fill_free(f);
    for (size_t i = 0; i < r.n; i += 2)
        assert_int_equal(atomic_load(&r.rows[i].state), SBX_RUN_PENDING);
    sbx_runs_free(&r);
    tree_drop(&t);
}

/* ---- sorting and filtering, on rows set here ---- */

static void fake_rows(struct sbx_runs *r, size_t n, unsigned seed)
{
    sbx_runs_init(r, "runs");
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "run-%03zu", (i * 7919 + seed) % 1000);
        sbx_runs_add(r, name, name);
        struct sbx_run_row *row = &r->rows[i];
        seed = seed * 1103515245u + 12345u;
        row->start = (int64_t)(seed % 5000) * 1000000000;
        row->end = row->start + (int64_t)(seed % 97) * 1000000;
        for (int c = SBX_RUN_SANDBOXES; c < SBX_RUN_NCOLS; c++) {
            seed = seed * 1103515245u + 12345u;
            row->count[c] = (seed >> 16) % 4;
        }
        row->known = ~0u;
        atomic_store(&row->state, SBX_RUN_READY);
    }
}

static void sorts_by_each_column(void **state)
{
    (void)state;
    struct sbx_runs r;
    fake_rows(&r, 200, 17);
    uint32_t *out = malloc(r.n * sizeof *out);
    for (int c = 0; c < SBX_RUN_NCOLS; c++) {
        for (int rev = 0; rev < 2; rev++) {
            struct sbx_runs_query q = {(enum sbx_run_col)c, rev, NULL};
            assert_int_equal(sbx_runs_view(&r, &q, out), r.n);
            for (size_t k = 1; k < r.n; k++) {
                const struct sbx_run_row *a = &r.rows[out[k - 1]], *b = &r.rows[out[k]];
                if (c == SBX_RUN_NAME) {
                    int d = strcmp(a->name, b->name);
                    assert_true(rev ? d >= 0 : d <= 0);
                    continue;
                }
                int64_t va = sbx_run_row_value(a, (enum sbx_run_col)c),
                        vb = sbx_run_row_value(b, (enum sbx_run_col)c);
                /* start ascends, the rest descend; reverse turns each around */
                bool asc = (c == SBX_RUN_START) != rev;
                assert_true(asc ? va <= vb : va >= vb);
                if (va == vb) /* ties by name */
                    assert_true(strcmp(a->name, b->name) <= 0);
            }
        }
        assert_string_equal(sbx_run_col_name((enum sbx_run_col)c),
                            sbx_run_col_name((enum sbx_run_col)sbx_run_col_by_name(
                                sbx_run_col_name((enum sbx_run_col)c))));
    }
    assert_int_equal(sbx_run_col_by_name("failed"), SBX_RUN_FAILED);
    assert_int_equal(sbx_run_col_by_name("nope"), -1);
    free(out);
    sbx_runs_free(&r);
}

static void pending_and_unreadable_sort_last(void **state)
{
    (void)state;
    struct sbx_runs r;
    fake_rows(&r, 6, 3);
    atomic_store(&r.rows[0].state, SBX_RUN_PENDING);
    atomic_store(&r.rows[1].state, SBX_RUN_UNREADABLE);
    uint32_t out[6];
    for (int rev = 0; rev < 2; rev++) {
        struct sbx_runs_query q = {SBX_RUN_FAILED, rev, NULL};
        assert_int_equal(sbx_runs_view(&r, &q, out), 6);
        assert_int_equal(out[4], 0);
        assert_int_equal(out[5], 1);
    }
    /* a finding word cannot tell a pending row yet; a name can */
    struct sbx_runs_query q = {SBX_RUN_NAME, false, "failed"};
    size_t n = sbx_runs_view(&r, &q, out);
    for (size_t k = 0; k < n; k++)
        assert_true(out[k] != 0 && out[k] != 1);
    q.filter = r.rows[0].name;
    assert_int_equal(sbx_runs_view(&r, &q, out), 1);
    assert_int_equal(out[0], 0);
    sbx_runs_free(&r);
}

static size_t count_where(const struct sbx_runs *r, bool (*pred)(const struct sbx_run_row *))
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += pred(&r->rows[i]);
    return n;
}

static bool has_failed(const struct sbx_run_row *row) { return row->count[SBX_RUN_FAILED] > 0; }
static bool no_secret(const struct sbx_run_row *row) { return row->count[SBX_RUN_SECRETS] == 0; }
static bool refused_no_account(const struct sbx_run_row *row)
{
    return row->count[SBX_RUN_REFUSED] > 0 && row->count[SBX_RUN_ACCOUNT] == 0;
}
static bool name_has_07(const struct sbx_run_row *row) { return strstr(row->name, "07") != NULL; }

/* A column a run's sources cannot tell: -1, not 0; neither "outside" nor
 * "!outside" holds; after the known values whichever way the list sorts. */
static void unknown_columns(void **state)
{
    (void)state;
    struct sbx_runs r;
    fake_rows(&r, 40, 3);
    for (size_t i = 0; i < r.n; i += 3)
        r.rows[i].known &= ~(1u << SBX_RUN_OUTSIDE | 1u << SBX_RUN_COMMANDS);
    uint32_t *out = malloc(r.n * sizeof *out);
    size_t unknown = (r.n + 2) / 3;
    for (size_t i = 0; i < r.n; i++) {
        bool known = i % 3 != 0;
        assert_int_equal(sbx_run_row_value(&r.rows[i], SBX_RUN_OUTSIDE) < 0, !known);
        assert_int_equal(sbx_run_row_value(&r.rows[i], SBX_RUN_COMMANDS) < 0, !known);
        assert_true(sbx_run_row_value(&r.rows[i], SBX_RUN_FAILED) >= 0);
    }
    const char *const words[] = {"outside", "!outside"};
    size_t shown = 0;
    for (int w = 0; w < 2; w++) {
        struct sbx_runs_query q = {SBX_RUN_NAME, false, words[w]};
        size_t n = sbx_runs_view(&r, &q, out);
        for (size_t k = 0; k < n; k++)
            assert_true(out[k] % 3 != 0);
        shown += n;
    }
    assert_int_equal(shown, r.n - unknown);
    for (int rev = 0; rev < 2; rev++) {
        struct sbx_runs_query q = {SBX_RUN_OUTSIDE, rev, NULL};
        assert_int_equal(sbx_runs_view(&r, &q, out), r.n);
        for (size_t k = 0; k < r.n; k++)
            assert_int_equal(out[k] % 3 == 0, k >= r.n - unknown);
    }
    free(out);
    sbx_runs_free(&r);
}

static void filters(void **state)
{
    (void)state;
    struct sbx_runs r;
    fake_rows(&r, 300, 5);
    uint32_t *out = malloc(r.n * sizeof *out);
    struct {
        const char *filter;
        bool (*pred)(const struct sbx_run_row *);
    } cases[] = {
        {"failed", has_failed},      {"FAILED", has_failed},           {"!secret", no_secret},
        {"!secrets", no_secret},     {"refused !account", refused_no_account},
        {"07", name_has_07},         {"  07  ", name_has_07},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct sbx_runs_query q = {SBX_RUN_NAME, false, cases[k].filter};
        size_t n = sbx_runs_view(&r, &q, out);
        assert_int_equal(n, count_where(&r, cases[k].pred));
        for (size_t i = 0; i < n; i++)
            assert_true(cases[k].pred(&r.rows[out[i]]));
    }
    /* findings bits: a timed-out command */
    r.rows[4].findings = SBX_F_TIMED_OUT;
    struct sbx_runs_query q = {SBX_RUN_NAME, false, "timedout"};
    assert_int_equal(sbx_runs_view(&r, &q, out), 1);
    assert_int_equal(out[0], 4);
    q.filter = "";
    assert_int_equal(sbx_runs_view(&r, &q, out), r.n);
    free(out);
    sbx_runs_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(discover_folder_of_runs),
        cmocka_unit_test(discover_not_a_folder_of_runs),
        cmocka_unit_test(fill_rows_match_the_runs),
        cmocka_unit_test(fill_stops),
        cmocka_unit_test(sorts_by_each_column),
        cmocka_unit_test(pending_and_unreadable_sort_last),
        cmocka_unit_test(filters),
        cmocka_unit_test(unknown_columns),
        cmocka_unit_test(hash_mismatch_named),
        cmocka_unit_test(fill_awaits_each_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
