/* Unified diffs: cutting git diff, diff -u, diff -ruN and diff -ru output
 * into files (fixtures made by the real programs: tests/fixtures/
 * make-mdiff-fixtures), every quirk on small diffs written here, walking
 * hunks, finding a file by path, and a diff loaded with a run: its files
 * event, or none when a manifest pair already names its files. */
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

#include "importers/format.h"
#include "importers/load.h"
#include "importers/mdiff.h"
#include "model/diffs.h"
#include "analyses/summary.h"
#include "tests/unit/mdifftest.h"

/* ---- helpers ---- */

static const struct sbx_diff_file *file_named(const struct sbx_diff_parsed *p, const char *path)
{
    for (size_t i = 0; i < p->nfiles; i++)
        if (strcmp(p->files[i].path, path) == 0)
            return &p->files[i];
    return NULL;
}

struct want {
    const char *path, *old_path;
    enum sbx_change change;
    bool binary, renamed;
    uint32_t added, removed;
};

static void check_files(const struct sbx_diff_parsed *p, const struct want *w, size_t n)
{
    assert_int_equal(p->nfiles, n);
    for (size_t i = 0; i < n; i++) {
        const struct sbx_diff_file *f = file_named(p, w[i].path);
        if (!f)
            fail_msg("no file %s", w[i].path);
        assert_int_equal(f->change, w[i].change);
        assert_int_equal(f->binary, w[i].binary);
        assert_int_equal(f->renamed, w[i].renamed);
        if (w[i].old_path)
            assert_string_equal(f->old_path, w[i].old_path);
        else
            assert_null(f->old_path);
        assert_int_equal(f->added_lines, w[i].added);
        assert_int_equal(f->removed_lines, w[i].removed);
    }
}

static void parse_str(const char *s, struct sbx_diff_parsed *p)
{
    sbx_diff_parse(s, strlen(s), p);
}

/* The kinds of a section's lines, one letter each: h header, b binary,
 * @ hunk, space context, + add, - del, \ no newline, ? other. */
static void kinds(const char *data, const struct sbx_diff_file *f, char *out, size_t outsz)
{
    static const char letters[] = "hb@ +-\\?";
    struct sbx_diff_iter it;
    struct sbx_diff_line l;
    size_t k = 0;
    sbx_diff_iter_bytes(&it, data + f->off, f->len);
    while (sbx_diff_next(&it, &l) && k + 1 < outsz)
        out[k++] = letters[l.kind];
    out[k] = '\0';
}

/* ---- the real programs' output ---- */

static const struct want git_files[] = {
    {"VERSION", NULL, SBX_CHANGED, false, false, 1, 1},
    {"csvsum.py", NULL, SBX_CHANGED, false, false, 1, 1},
    {"logo.bin", NULL, SBX_CHANGED, true, false, 0, 0},
    {"na\xc3\xafve.txt", NULL, SBX_CHANGED, false, false, 1, 1},
    {"notes.txt", NULL, SBX_ADDED, false, false, 1, 0},
    {"old.txt", NULL, SBX_REMOVED, false, false, 0, 1},
    {"sp ace.txt", NULL, SBX_CHANGED, false, false, 1, 1},
    {"src/moved.txt", "src/orig.txt", SBX_ADDED, false, true, 1, 0},
};

static void git_diff(void **state)
{
    (void)state;
    const char *names[] = {"git.patch", "git-binary.patch"};
    for (int k = 0; k < 2; k++) {
        size_t n;
        char *data = mdifftest_fixture(names[k], &n);
        assert_true(sbx_diff_looks_like(data, n));
        struct sbx_diff_parsed p;
        sbx_diff_parse(data, n, &p);
        assert_int_equal(p.nproblems, 0);
        check_files(&p, git_files, sizeof git_files / sizeof git_files[0]);
        /* sections tile the file: each ends where the next begins */
        for (size_t i = 0; i + 1 < p.nfiles; i++)
            assert_int_equal(p.files[i].off + p.files[i].len, p.files[i + 1].off);
        assert_int_equal(p.files[p.nfiles - 1].off + p.files[p.nfiles - 1].len, n);
        char got[64];
        kinds(data, file_named(&p, "notes.txt"), got, sizeof got);
        assert_string_equal(got, "hhhhh@+\\");
        kinds(data, file_named(&p, "logo.bin"), got, sizeof got);
        assert_string_equal(got, k ? "hhbbbbbbb" : "hhb");
        sbx_diff_parsed_free(&p);
        free(data);
    }
}

static void gnu_diff(void **state)
{
    (void)state;
    static const struct want ruN[] = {
        {"VERSION", NULL, SBX_CHANGED, false, false, 1, 1},
        {"csvsum.py", NULL, SBX_CHANGED, false, false, 1, 1},
        {"logo.bin", NULL, SBX_CHANGED, true, false, 0, 0},
        {"na\xc3\xafve.txt", NULL, SBX_CHANGED, false, false, 1, 1},
        {"notes.txt", NULL, SBX_ADDED, false, false, 1, 0},
        {"old.txt", NULL, SBX_REMOVED, false, false, 0, 1},
        {"sp ace.txt", NULL, SBX_CHANGED, false, false, 1, 1},
        {"src/moved.txt", NULL, SBX_ADDED, false, false, 8, 0},
        {"src/orig.txt", NULL, SBX_REMOVED, false, false, 0, 7},
    };
    static const struct want ru[] = {
        {"VERSION", NULL, SBX_CHANGED, false, false, 1, 1},
        {"csvsum.py", NULL, SBX_CHANGED, false, false, 1, 1},
        {"logo.bin", NULL, SBX_CHANGED, true, false, 0, 0},
        {"na\xc3\xafve.txt", NULL, SBX_CHANGED, false, false, 1, 1},
        {"notes.txt", NULL, SBX_ADDED, false, false, 0, 0},
        {"old.txt", NULL, SBX_REMOVED, false, false, 0, 0},
        {"sp ace.txt", NULL, SBX_CHANGED, false, false, 1, 1},
        {"src/moved.txt", NULL, SBX_ADDED, false, false, 0, 0},
        {"src/orig.txt", NULL, SBX_REMOVED, false, false, 0, 0},
    };
    static const struct want u[] = {{"csvsum.py", NULL, SBX_CHANGED, false, false, 1, 1}};
    static const struct {
        const char *name;
        const struct want *w;
        size_t n;
    } cases[] = {{"diff-ruN.patch", ruN, 9}, {"diff-ru.patch", ru, 9}, {"diff-u.patch", u, 1}};
    for (size_t c = 0; c < 3; c++) {
        size_t n;
        char *data = mdifftest_fixture(cases[c].name, &n);
        assert_true(sbx_diff_looks_like(data, n));
        struct sbx_diff_parsed p;
        sbx_diff_parse(data, n, &p);
        assert_int_equal(p.nproblems, 0);
        check_files(&p, cases[c].w, cases[c].n);
        sbx_diff_parsed_free(&p);
        free(data);
    }
}

/* A one-line file: "@@ -1 +1 @@", counts left out. */
static void omitted_counts(void **state)
{
    (void)state;
    long os, oc, ns, nc;
    assert_true(sbx_diff_hunk_header("@@ -1 +1 @@", 11, &os, &oc, &ns, &nc));
    assert_int_equal(os, 1);
    assert_int_equal(oc, 1);
    assert_int_equal(ns, 1);
    assert_int_equal(nc, 1);
    assert_true(sbx_diff_hunk_header("@@ -0,0 +1,3 @@ def f():", 24, &os, &oc, &ns, &nc));
    assert_int_equal(oc, 0);
    assert_int_equal(nc, 3);
    assert_false(sbx_diff_hunk_header("@@ -1 +1", 8, &os, &oc, &ns, &nc));
    assert_false(sbx_diff_hunk_header("@@ -x +1 @@", 11, &os, &oc, &ns, &nc));
    assert_false(sbx_diff_hunk_header("@@@ -1 -1 +1 @@@", 16, &os, &oc, &ns, &nc));

    size_t n;
    char *data = mdifftest_fixture("git-one-line.patch", &n);
    struct sbx_diff_parsed p;
    sbx_diff_parse(data, n, &p);
    assert_int_equal(p.nfiles, 1);
    struct sbx_diff_iter it;
    struct sbx_diff_line l;
    sbx_diff_iter_bytes(&it, data + p.files[0].off, p.files[0].len);
    int adds = 0, dels = 0;
    while (sbx_diff_next(&it, &l)) {
        if (l.kind == SBX_DIFF_ADD) {
            adds++;
            assert_int_equal(l.new_no, 1);
            assert_memory_equal(l.text, "+version 2", 10);
        }
        if (l.kind == SBX_DIFF_DEL) {
            dels++;
            assert_int_equal(l.old_no, 1);
        }
    }
    assert_int_equal(adds, 1);
    assert_int_equal(dels, 1);
    sbx_diff_parsed_free(&p);
    free(data);
}

/* A removed line that reads "-- x" is "--- x" in the diff: inside a hunk's
 * counted lines it is a removed line, not the next file's header. */
static void header_lookalikes_in_hunks(void **state)
{
    (void)state;
    const char *d = "--- a/notes.md\n+++ b/notes.md\n@@ -1,3 +1,3 @@\n title\n--- old rule\n+++ new rule\n"
                    " end\n";
    struct sbx_diff_parsed p;
    parse_str(d, &p);
    assert_int_equal(p.nproblems, 0);
    assert_int_equal(p.nfiles, 1);
    assert_string_equal(p.files[0].path, "notes.md");
    assert_int_equal(p.files[0].added_lines, 1);
    assert_int_equal(p.files[0].removed_lines, 1);
    char got[32];
    kinds(d, &p.files[0], got, sizeof got);
    assert_string_equal(got, "hh@ -+ ");
    sbx_diff_parsed_free(&p);
}

/* Quoted names with octal escapes, and names with spaces without quotes. */
static void quoted_and_spaced_paths(void **state)
{
    (void)state;
    const char *d =
        "diff --git \"a/sp ace\\303\\251\\t.txt\" \"b/sp ace\\303\\251\\t.txt\"\n"
        "deleted file mode 100644\n"
        "index 1111111..0000000\n"
        "Binary files \"a/sp ace\\303\\251\\t.txt\" and /dev/null differ\n"
        "diff --git a/my dir/a b.txt b/my dir/a b.txt\n"
        "new file mode 100644\n"
        "index 0000000..2222222\n"
        "--- /dev/null\n"
        "+++ b/my dir/a b.txt\t\n"
        "@@ -0,0 +1 @@\n"
        "+x\n";
    struct sbx_diff_parsed p;
    parse_str(d, &p);
    assert_int_equal(p.nproblems, 0);
    static const struct want w[] = {
        {"sp ace\xc3\xa9\t.txt", NULL, SBX_REMOVED, true, false, 0, 0},
        {"my dir/a b.txt", NULL, SBX_ADDED, false, false, 1, 0},
    };
    check_files(&p, w, 2);
    sbx_diff_parsed_free(&p);
}

/* Renames without content, copies, mode changes, mnemonic prefixes. */
static void git_headers(void **state)
{
    (void)state;
    const char *d = "diff --git a/x.sh b/x.sh\nold mode 100644\nnew mode 100755\n"
                    "diff --git a/one b/two\nsimilarity index 100%\nrename from one\nrename to two\n"
                    "diff --git a/base b/copy\nsimilarity index 90%\ncopy from base\ncopy to copy\n"
                    "index 1..2 100644\n--- a/base\n+++ b/copy\n@@ -1 +1,2 @@\n same\n+more\n"
                    "diff --git i/lib.c w/lib.c\nindex 3..4 100644\n--- i/lib.c\n+++ w/lib.c\n"
                    "@@ -1 +1 @@\n-a\n+b\n";
    struct sbx_diff_parsed p;
    parse_str(d, &p);
    assert_int_equal(p.nproblems, 0);
    static const struct want w[] = {
        {"x.sh", NULL, SBX_CHANGED, false, false, 0, 0},
        {"two", "one", SBX_ADDED, false, true, 0, 0},
        {"copy", "base", SBX_ADDED, false, false, 1, 0},
        {"lib.c", NULL, SBX_CHANGED, false, false, 1, 1},
    };
    check_files(&p, w, 4);
    sbx_diff_parsed_free(&p);
}

/* git format-patch: a mail and a commit message before, a diffstat after
 * "---", the signature after the last hunk. CRLF line ends. */
static void format_patch_and_crlf(void **state)
{
    (void)state;
    const char *d = "From 1234 Mon Sep 17 00:00:00 2001\r\nSubject: [PATCH] fix\r\n\r\nbody text\r\n"
                    "---\r\n a.txt | 2 +-\r\n 1 file changed\r\n\r\n"
                    "diff --git a/a.txt b/a.txt\r\nindex 1..2 100644\r\n--- a/a.txt\r\n+++ b/a.txt\r\n"
                    "@@ -1,2 +1,2 @@\r\n keep\r\n-old\r\n+new\r\n-- \r\n2.39.5\r\n\r\n";
    assert_true(sbx_diff_looks_like(d, strlen(d)));
    struct sbx_diff_parsed p;
    parse_str(d, &p);
    assert_int_equal(p.nproblems, 0);
    assert_int_equal(p.nfiles, 1);
    assert_string_equal(p.files[0].path, "a.txt");
    char got[32];
    kinds(d, &p.files[0], got, sizeof got);
    assert_string_equal(got, "hhhh@ -+");
    sbx_diff_parsed_free(&p);
}

/* What is not a diff is reported, line by line, and the rest still reads. */
static void problems(void **state)
{
    (void)state;
    const char *d = "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n"  /* one line short */
                    "diff --git a/g b/g\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-x\n+y\n"
                    "garbage here\n"
                    "@@ nonsense @@\n+z\n"
                    "+++ b/h\n"
                    "--- a/i\n+++ b/i\n@@ -1,5 +1,5 @@\n a\n";
    struct sbx_diff_parsed p;
    parse_str(d, &p);
    assert_int_equal(p.nfiles, 3);
    assert_string_equal(p.files[0].path, "f");
    assert_string_equal(p.files[1].path, "g");
    assert_string_equal(p.files[2].path, "i");
    /* the lines under an unreadable hunk header (+z, +++ b/h) are not reported again */
    static const uint32_t lines[] = {3, 13, 14, 19};
    assert_int_equal(p.nproblems, 4);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(p.problems[i].line_no, lines[i]);
    assert_non_null(strstr(p.problems[0].reason, "fewer lines"));
    assert_non_null(strstr(p.problems[3].reason, "ends inside a hunk"));
    sbx_diff_parsed_free(&p);
    parse_str("diff --git a/h b/h\n+++ b/h\n@@ -1 +1 @@\n-a\n+b\n", &p);
    assert_int_equal(p.nproblems, 2);
    assert_int_equal(p.problems[0].line_no, 2);
    assert_non_null(strstr(p.problems[0].reason, "+++"));
    assert_non_null(strstr(p.problems[1].reason, "before its file's ---"));
    sbx_diff_parsed_free(&p);
    /* nothing like a diff: not detected */
    const char *notes[] = {
        "{\"at\": \"2026-01-01T00:00:00Z\", \"kind\": \"command\", \"command\": \"git diff\"}\n",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  ./a\n",
        "--- a\n+++ b\nno hunk\n", ""};
    for (size_t i = 0; i < 4; i++)
        assert_false(sbx_diff_looks_like(notes[i], strlen(notes[i])));
}

/* ---- loaded with a run ---- */

static int setup(void **state)
{
    return mdifftest_setup(state, "/tmp/sbxview-diff-XXXXXX");
}

static void put(const struct fixture_dir *fx, const char *name, const char *data, size_t n)
{
    free(mdifftest_put(fx, name, data, n));
}

static void put_fixture(const struct fixture_dir *fx, const char *name)
{
    size_t n;
    char *d = mdifftest_fixture(name, &n);
    put(fx, name, d, n);
    free(d);
}

static size_t count_files_events(const struct sbx_timeline *tl, const struct sbx_event **last)
{
    size_t k = 0;
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_tl_at(tl, i)->kind == SBX_EV_FILES) {
            k++;
            *last = sbx_tl_at(tl, i);
        }
    return k;
}

static const char *const RECORDER =
    "{\"at\": \"2026-11-29T08:00:01Z\", \"kind\": \"command\", \"command\": \"python3 fix.py\", \"exit\": 0}\n"
    "{\"at\": \"2026-11-29T08:00:05Z\", \"kind\": \"files\", \"added\": [], \"removed\": [], "
    "\"changed\": [\"./csvsum.py\"]}\n";

/* A diff alone gives a files event of its own, placed after the run. */
static void diff_alone_gives_files(void **state)
{
    struct fixture_dir *fx = *state;
    put(fx, "agent-run.jsonl", RECORDER, strlen(RECORDER));
    put_fixture(fx, "git.patch");
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {fx->dir};
    assert_int_equal(sbx_load_paths(&tl, paths, 1, NULL, &rep), 2);
    assert_int_equal(rep.nerrors + rep.nunread, 0);
    assert_int_equal(tl.nskips, 0);
    const struct sbx_event *e = NULL;
    assert_int_equal(count_files_events(&tl, &e), 2);
    assert_ptr_equal(sbx_tl_at(&tl, tl.n - 1), e);
    assert_string_equal(tl.sources[e->source].format, "diff");
    assert_true(e->tflags & SBX_EVT_TIME_INFERRED);
    assert_true(e->start > sbx_tl_at(&tl, tl.n - 2)->start);
    const struct sbx_files *f = e->u.files;
    assert_true(f->flags & SBX_FILES_DIFF);
    assert_int_equal(sbx_files_more(f)->after, e->source); /* the diff it came from */
    assert_int_equal(f->root, 0);
    assert_int_equal(f->n[SBX_ADDED], 2);   /* notes.txt, src/moved.txt */
    assert_int_equal(f->n[SBX_CHANGED], 5);
    assert_int_equal(f->n[SBX_REMOVED], 2); /* old.txt, src/orig.txt (renamed away) */
    /* sections by path, as a view looks them up */
    assert_int_equal(tl.ndiffs, 8);
    const struct sbx_diff_file *d = sbx_diff_find(&tl, "./csvsum.py");
    assert_non_null(d);
    assert_ptr_equal(sbx_diff_find(&tl, "b/csvsum.py"), d);
    assert_ptr_equal(sbx_diff_find(&tl, "csvsum.py"), d);
    assert_null(sbx_diff_find(&tl, "prices.csv"));
    struct sbx_diff_iter it;
    struct sbx_diff_line l;
    sbx_diff_iter_init(&it, &tl, d);
    assert_true(sbx_diff_next(&it, &l));
    assert_memory_equal(l.text, "diff --git a/csvsum.py b/csvsum.py", l.len);
    bool saw_add = false;
    while (sbx_diff_next(&it, &l))
        saw_add |= l.kind == SBX_DIFF_ADD && l.new_no == 5;
    assert_true(saw_add);

    /* the summary: csvsum.py once, though the recorder and the diff both name it */
    struct sbx_summary sum;
    char err[128];
    assert_true(sbx_summarize(&tl, NULL, &sum, err, sizeof err));
    assert_int_equal(sum.files[SBX_CHANGED].n, 5);
    assert_int_equal(sum.files[SBX_ADDED].n, 2);
    assert_int_equal(sum.files[SBX_REMOVED].n, 2);
    assert_false(sum.files_from_manifests);
    assert_int_equal(sum.diff_files, 8);
    assert_int_equal(sum.diff_added_lines, 6);
    assert_int_equal(sum.diff_removed_lines, 5);
    sbx_summary_free(&sum);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
}

/* With a manifest pair naming its files, the diff only gives their content. */
static void diff_with_manifests(void **state)
{
    struct fixture_dir *fx = *state;
    put(fx, "agent-run.jsonl", RECORDER, strlen(RECORDER));
    put_fixture(fx, "diff-ruN.patch");
    put_fixture(fx, "manifest-before.sha256");
    put_fixture(fx, "manifest-after.sha256");
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {fx->dir};
    assert_int_equal(sbx_load_paths(&tl, paths, 1, NULL, &rep), 4);
    assert_int_equal(tl.nskips, 0);
    const struct sbx_event *e = NULL;
    assert_int_equal(count_files_events(&tl, &e), 2);
    assert_string_equal(tl.sources[e->source].format, "manifest");
    assert_true(e->u.files->flags & SBX_FILES_MANIFESTS);
    assert_non_null(sbx_diff_find(&tl, "src/moved.txt"));
    struct sbx_summary sum;
    char err[128];
    assert_true(sbx_summarize(&tl, NULL, &sum, err, sizeof err));
    assert_true(sum.files_from_manifests);
    assert_int_equal(sum.files[SBX_CHANGED].n, 5);
    assert_int_equal(sum.files[SBX_ADDED].n, 2);
    assert_int_equal(sum.files[SBX_REMOVED].n, 2);
    sbx_summary_free(&sum);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
}

/* Detection by content: the fixtures are diffs and nothing else. */
static void detected_as_diff(void **state)
{
    (void)state;
    const char *names[] = {"git.patch", "git-binary.patch", "diff-ruN.patch", "diff-ru.patch",
                           "diff-u.patch", "git-one-line.patch"};
    for (size_t i = 0; i < 6; i++) {
        size_t n;
        char *d = mdifftest_fixture(names[i], &n);
        assert_ptr_equal(sbx_detect_format(d, n), &sbx_format_diff);
        free(d);
    }
}

/* A section whose path was kept as written, "./" (a header the parser could
 * not split better), is found by that path too (the diff fuzz target's
 * oracle: every section is found by its own path). */
static void a_path_kept_as_written_is_found(void **state)
{
    (void)state;
    /* the input the fuzz target found */
    static const char PATCH[] =
        "diff --git a\x12/VER@\n-versiON\nindoooooooooooooooooooooooooooooooooo"
        "oo\ndiff --git a/cuNsvsum@\ncopy from -version 2\n+version \xa2" "2\nd"
        "iff --git a/cuNsvs\xe2\xe2\xe2\xe2\xe2\xe2\xe2um ./";
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    char *copy = malloc(sizeof PATCH - 1);
    memcpy(copy, PATCH, sizeof PATCH - 1);
    uint32_t src = sbx_timeline_add_source(&tl, "changes.patch", copy, sizeof PATCH - 1, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(&tl, src, &sbx_format_diff, &lo);
    sbx_mdiff_link(&tl);
    sbx_timeline_finish(&tl);
    assert_true(tl.ndiffs >= 2);
    bool dot = false;
    for (size_t i = 0; i < tl.ndiffs; i++) {
        dot |= strcmp(tl.diffs[i].path, "./") == 0;
        assert_ptr_equal(sbx_diff_find(&tl, tl.diffs[i].path), &tl.diffs[i]);
    }
    assert_true(dot);
    sbx_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(git_diff),
        cmocka_unit_test(gnu_diff),
        cmocka_unit_test(omitted_counts),
        cmocka_unit_test(header_lookalikes_in_hunks),
        cmocka_unit_test(quoted_and_spaced_paths),
        cmocka_unit_test(git_headers),
        cmocka_unit_test(format_patch_and_crlf),
        cmocka_unit_test(problems),
        cmocka_unit_test(detected_as_diff),
        cmocka_unit_test(a_path_kept_as_written_is_found),
        cmocka_unit_test_setup_teardown(diff_alone_gives_files, setup, mdifftest_teardown),
        cmocka_unit_test_setup_teardown(diff_with_manifests, setup, mdifftest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
