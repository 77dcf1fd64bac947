/* Manifests (sha256sum output): every line form (text, binary " *", BSD
 * --tag, escaped names), detection by content on fixtures made by the real
 * sha256sum (tests/fixtures/make-mdiff-fixtures), and the pairs a run's
 * manifests make: by file name or by order, one files event each, a note
 * for one without a partner, the summary counting a path once. */
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
#include "model/files.h"
#include "analyses/summary.h"
#include "tests/unit/mdifftest.h"

#define H64 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static void line_forms(void **state)
{
    (void)state;
    struct sbx_buf path = SBX_BUF_INIT;
    unsigned char hash[32];
    const char *why = NULL;
    static const struct {
        const char *line, *path;
    } good[] = {
        {H64 "  ./csvsum.py", "csvsum.py"},
        {H64 " *./logo.bin", "logo.bin"},
        {H64 "  ./sp ace.txt", "sp ace.txt"},
        {H64 "  /etc/hosts", "/etc/hosts"},
        {H64 "  ./ trailing space ", " trailing space "},
        {H64 "  ./crlf.txt\r", "crlf.txt"},
        {"\\" H64 "  ./back\\\\slash", "back\\slash"},
        {"\\" H64 "  ./new\\nline", "new\nline"},
        {"\\" H64 "  ./cr\\rhere", "cr\rhere"},
        {"SHA256 (./tagged file) = " H64, "tagged file"},
        {"E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855  upper", "upper"},
        {H64 "  ./", "./"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (!sbx_manifest_line(good[i].line, strlen(good[i].line), hash, &path, &why))
            fail_msg("not read: %s (%s)", good[i].line, why);
        assert_int_equal(path.len, strlen(good[i].path));
        assert_memory_equal(path.p, good[i].path, path.len);
        assert_int_equal(hash[0], 0xe3);
        assert_int_equal(hash[31], 0x55);
    }
    static const char *const bad[] = {
        H64,                       /* no name */
        H64 " ./x",                /* one space */
        H64 "  ",                  /* empty name */
        H64 "0  ./x",              /* 65 digits */
        "e3b0c44298fc1c14  ./x",   /* short */
        "g3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  ./x",
        "\\" H64 "  ./bad\\tescape", /* only \\ \n \r are sha256sum's escapes */
        "SHA256 (x) = e3b0",
        "# a comment",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why = NULL;
        if (sbx_manifest_line(bad[i], strlen(bad[i]), hash, &path, &why))
            fail_msg("read: %s", bad[i]);
        assert_non_null(why);
    }
    sbx_buf_free(&path);
}

/* The real sha256sum's output is a manifest and nothing else. */
static void detected(void **state)
{
    (void)state;
    const char *names[] = {"manifest-before.sha256", "manifest-after.sha256", "binary-mode.sha256",
                           "tag.sha256", "escaped.sha256"};
    for (size_t i = 0; i < 5; i++) {
        size_t n;
        char *d = mdifftest_fixture(names[i], &n);
        assert_ptr_equal(sbx_detect_format(d, n), &sbx_format_manifest);
        for (size_t k = 0; sbx_formats[k]; k++)
            if (sbx_formats[k] != &sbx_format_manifest && sbx_formats[k]->detect(d, n))
                fail_msg("%s also accepts %s", sbx_formats[k]->name, names[i]);
        free(d);
    }
    const char *not[] = {"just some text\n", "{\"at\": \"x\", \"kind\": \"command\"}\n",
                         "diff --git a/x b/x\n", ""};
    for (size_t i = 0; i < 4; i++)
        assert_false(sbx_format_manifest.detect(not[i], strlen(not[i])));
}

/* ---- manifests loaded with a run ---- */

static int setup(void **state)
{
    return mdifftest_setup(state, "/tmp/sbxview-manifest-XXXXXX");
}

static char *put_fixture(const struct fixture_dir *fx, const char *name, const char *as)
{
    size_t n;
    char *d = mdifftest_fixture(name, &n);
    char *p = mdifftest_put(fx, as, d, n);
    free(d);
    return p;
}

struct loaded {
    struct sbx_timeline tl;
    struct sbx_load_report rep;
    size_t nsources;
};

static void load(struct loaded *l, const char *const *paths, size_t n, size_t prefix)
{
    sbx_timeline_init(&l->tl);
    memset(&l->rep, 0, sizeof l->rep);
    struct sbx_load_opts opts = {.prefix = prefix};
    l->nsources = sbx_load_paths(&l->tl, paths, n, &opts, &l->rep);
}

static void unload(struct loaded *l)
{
    sbx_load_report_free(&l->rep);
    sbx_timeline_free(&l->tl);
}

static const struct sbx_event *nth_of_kind(const struct sbx_timeline *tl, enum sbx_kind k, size_t nth)
{
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_tl_at(tl, i)->kind == k && nth-- == 0)
            return sbx_tl_at(tl, i);
    return NULL;
}

static bool listed(const struct sbx_timeline *tl, const struct sbx_files *f, int c, const char *path)
{
    for (uint32_t i = 0; i < f->n[c]; i++)
        if (strcmp(sbx_files_path(tl, f, (enum sbx_change)c, i), path) == 0)
            return true;
    return false;
}

/* Named before/after: the names decide, whatever the order given. */
static void pair_by_name(void **state)
{
    struct fixture_dir *fx = *state;
    char *after = put_fixture(fx, "manifest-after.sha256", "post-task.sha256");
    char *before = put_fixture(fx, "manifest-before.sha256", "pre-task.sha256");
    const char *paths[] = {after, before};
    struct loaded l;
    load(&l, paths, 2, 0);
    assert_int_equal(l.nsources, 2);
    assert_int_equal(l.rep.nerrors, 0);
    assert_int_equal(l.tl.n, 1);
    const struct sbx_event *e = sbx_tl_at(&l.tl, 0);
    assert_int_equal(e->kind, SBX_EV_FILES);
    assert_int_equal(e->start, SBX_TIME_UNKNOWN); /* nothing in the run has a time */
    assert_false(e->tflags & SBX_EVT_TIME_INFERRED);
    const struct sbx_files *f = e->u.files;
    assert_int_equal(f->flags, SBX_FILES_MANIFESTS | SBX_FILES_MORE); /* before and after kept */
    assert_string_equal(l.tl.sources[sbx_files_more(f)->before].path, before);
    assert_string_equal(l.tl.sources[sbx_files_more(f)->after].path, after);
    assert_int_equal(e->source, sbx_files_more(f)->after);
    assert_int_equal(f->root, 0);
    assert_int_equal(f->n[SBX_ADDED], 2);
    assert_true(listed(&l.tl, f, SBX_ADDED, "notes.txt"));
    assert_true(listed(&l.tl, f, SBX_ADDED, "src/moved.txt"));
    assert_int_equal(f->n[SBX_REMOVED], 2);
    assert_true(listed(&l.tl, f, SBX_REMOVED, "old.txt"));
    assert_true(listed(&l.tl, f, SBX_REMOVED, "src/orig.txt"));
    assert_int_equal(f->n[SBX_CHANGED], 5);
    assert_true(listed(&l.tl, f, SBX_CHANGED, "sp ace.txt"));
    assert_true(listed(&l.tl, f, SBX_CHANGED, "na\xc3\xafve.txt"));
    assert_false(listed(&l.tl, f, SBX_CHANGED, "prices.csv"));
    unload(&l);
    free(after);
    free(before);
}

/* Names that say nothing: the first given is before. The BSD form pairs with
 * the plain one. */
static void pair_by_order(void **state)
{
    struct fixture_dir *fx = *state;
    char *a = put_fixture(fx, "manifest-before.sha256", "one.sha256");
    char *b = put_fixture(fx, "tag.sha256", "two.sha256");
    const char *paths[] = {a, b};
    struct loaded l;
    load(&l, paths, 2, 0);
    assert_int_equal(l.tl.n, 1);
    const struct sbx_files *f = sbx_tl_at(&l.tl, 0)->u.files;
    assert_string_equal(l.tl.sources[sbx_files_more(f)->before].path, a);
    assert_true(listed(&l.tl, f, SBX_ADDED, "notes.txt"));
    assert_true(listed(&l.tl, f, SBX_REMOVED, "old.txt"));
    unload(&l);
    /* given the other way round, the other way round */
    const char *rev[] = {b, a};
    load(&l, rev, 2, 0);
    f = sbx_tl_at(&l.tl, 0)->u.files;
    assert_true(listed(&l.tl, f, SBX_ADDED, "old.txt"));
    assert_true(listed(&l.tl, f, SBX_REMOVED, "notes.txt"));
    unload(&l);
    free(a);
    free(b);
}

/* Two pairs in one folder (the workspace and /etc), told apart by name; an
 * absolute manifest's changes are under their system root. */
static void two_pairs_and_a_root(void **state)
{
    struct fixture_dir *fx = *state;
    free(put_fixture(fx, "manifest-before.sha256", "ws-before.sha256"));
    free(put_fixture(fx, "manifest-after.sha256", "ws-after.sha256"));
    const char *etc_before = H64 "  /etc/hosts\n" H64 "  /etc/passwd\n";
    const char *etc_after = "0000000000000000000000000000000000000000000000000000000000000000  /etc/hosts\n"
                            H64 "  /etc/passwd\n" H64 "  /etc/cron.d/job\n";
    free(mdifftest_put(fx, "etc-old.sha256", etc_before, strlen(etc_before)));
    free(mdifftest_put(fx, "etc-new.sha256", etc_after, strlen(etc_after)));
    const char *paths[] = {fx->dir};
    struct loaded l;
    load(&l, paths, 1, 0);
    assert_int_equal(l.nsources, 4);
    assert_int_equal(l.tl.n, 2);
    struct sbx_summary sum;
    char err[128];
    assert_true(sbx_summarize(&l.tl, NULL, &sum, err, sizeof err));
    assert_int_equal(sum.system_roots.n, 1);
    assert_string_equal(sum.system_roots.s[0], "/etc");
    assert_int_equal(sum.system[SBX_CHANGED].n, 1);
    assert_string_equal(sum.system[SBX_CHANGED].s[0], "/etc/hosts");
    assert_int_equal(sum.system[SBX_ADDED].n, 1);
    assert_string_equal(sum.system[SBX_ADDED].s[0], "/etc/cron.d/job");
    assert_int_equal(sum.files[SBX_CHANGED].n, 5);
    assert_true(sum.files_from_manifests);
    bool system_finding = false;
    for (size_t i = 0; i < l.tl.n; i++)
        system_finding |= (sbx_tl_at(&l.tl, i)->findings & SBX_F_SYSTEM_FILES) != 0;
    assert_true(system_finding);
    sbx_summary_free(&sum);
    unload(&l);
}

/* One manifest: a note, not an error; its lines are not events. Bad lines
 * are skipped with their reason. */
static void lone_manifest(void **state)
{
    struct fixture_dir *fx = *state;
    const char *m = H64 "  ./a\n" "not a manifest line\n" H64 " *./b c\n\n" "\\" H64 "  ./d\\ne\n"
                    H64 "  ./f\n" H64 "  ./g\n";
    char *p = mdifftest_put(fx, "workspace.sha256", m, strlen(m));
    const char *paths[] = {p};
    struct loaded l;
    load(&l, paths, 1, 0);
    assert_int_equal(l.nsources, 1);
    assert_int_equal(l.rep.nerrors, 0);
    assert_string_equal(l.tl.sources[0].format, "manifest");
    assert_int_equal(l.tl.nskips, 1);
    assert_int_equal(l.tl.skips[0].line, 2);
    assert_non_null(strstr(l.tl.skips[0].reason, "not a manifest line"));
    assert_int_equal(l.tl.n, 1);
    const struct sbx_event *e = sbx_tl_at(&l.tl, 0);
    assert_int_equal(e->kind, SBX_EV_NOTE);
    assert_string_equal(sbx_str(&l.tl, e->label), "manifest with no partner (5 files listed)");
    unload(&l);
    free(p);
}

/* The csv-fix run: the recorder says csvsum.py changed, the manifests say
 * csvsum.py changed and notes.txt added: each counts once. The pair's event
 * comes after the run's last event, its time marked inferred. */
static void with_a_recorder_log(void **state)
{
    struct fixture_dir *fx = *state;
    const char *log =
        "{\"at\": \"2026-11-29T08:38:48Z\", \"kind\": \"command\", \"command\": \"python3 fix.py\", \"exit\": 0}\n"
        "{\"at\": \"2026-11-29T08:38:49.919Z\", \"kind\": \"files\", \"added\": [], \"removed\": [], "
        "\"changed\": [\"./csvsum.py\"]}\n";
    const char *before = "fbd5de5f439f9759551c272cfbfab89f13021521fa7ebf938c1e5e1c858c4cca  ./csvsum.py\n"
                         "1ed31531994d05e2f512b183b1aa17e7441e832d6ef7c74d2e7a932b571d1afd  ./prices.csv\n";
    const char *after = "7c37314c21b3c613a1b4cc5212ed54e5a88d362df336a7f711eb240b2a9724d4  ./csvsum.py\n"
                        "613306d0912cda4c64f06418e3ffa91ef73ea6e19bc2527211a551b6fa23790f  ./notes.txt\n"
                        "1ed31531994d05e2f512b183b1aa17e7441e832d6ef7c74d2e7a932b571d1afd  ./prices.csv\n";
    free(mdifftest_put(fx, "agent-run.jsonl", log, strlen(log)));
    free(mdifftest_put(fx, "manifest-before.sha256", before, strlen(before)));
    free(mdifftest_put(fx, "manifest-after.sha256", after, strlen(after)));
    const char *paths[] = {fx->dir};
    struct loaded l;
    load(&l, paths, 1, 0);
    assert_int_equal(l.nsources, 3);
    assert_int_equal(l.tl.n, 3);
    const struct sbx_event *pair = sbx_tl_at(&l.tl, 2);
    assert_int_equal(pair->kind, SBX_EV_FILES);
    assert_true(pair->u.files->flags & SBX_FILES_MANIFESTS);
    assert_true(pair->tflags & SBX_EVT_TIME_INFERRED);
    assert_true(pair->start > sbx_tl_at(&l.tl, 1)->start);
    assert_true(pair->start - sbx_tl_at(&l.tl, 1)->start < 1000000); /* within a millisecond */
    struct sbx_summary sum;
    char err[128];
    assert_true(sbx_summarize(&l.tl, NULL, &sum, err, sizeof err));
    assert_int_equal(sum.files[SBX_CHANGED].n, 1);
    assert_string_equal(sum.files[SBX_CHANGED].s[0], "csvsum.py");
    assert_int_equal(sum.files[SBX_ADDED].n, 1);
    assert_string_equal(sum.files[SBX_ADDED].s[0], "notes.txt");
    assert_int_equal(sum.files[SBX_REMOVED].n, 0);
    sbx_summary_free(&sum);
    unload(&l);
}

/* Files events that disagree: a path counts once, by the run's net change. */
static void net_change(void **state)
{
    struct fixture_dir *fx = *state;
    const char *log =
        "{\"at\": \"2026-11-29T08:00:01Z\", \"kind\": \"files\", \"added\": [\"new.txt\", \"tmp.txt\"], "
        "\"changed\": [\"kept.txt\"], \"removed\": [\"gone.txt\"]}\n"
        "{\"at\": \"2026-11-29T08:00:02Z\", \"kind\": \"files\", \"added\": [\"gone.txt\"], "
        "\"changed\": [\"new.txt\", \"kept.txt\"], \"removed\": [\"tmp.txt\"]}\n";
    char *p = mdifftest_put(fx, "agent-run.jsonl", log, strlen(log));
    const char *paths[] = {p};
    struct loaded l;
    load(&l, paths, 1, 0);
    struct sbx_summary sum;
    char err[128];
    assert_true(sbx_summarize(&l.tl, NULL, &sum, err, sizeof err));
    /* new.txt: added then changed -> added; gone.txt: removed then added back
     * -> changed; tmp.txt: added then removed -> removed; kept.txt: changed */
    assert_int_equal(sum.files[SBX_ADDED].n, 1);
    assert_string_equal(sum.files[SBX_ADDED].s[0], "new.txt");
    assert_int_equal(sum.files[SBX_CHANGED].n, 2);
    assert_string_equal(sum.files[SBX_CHANGED].s[0], "gone.txt");
    assert_string_equal(sum.files[SBX_CHANGED].s[1], "kept.txt");
    assert_int_equal(sum.files[SBX_REMOVED].n, 1);
    assert_string_equal(sum.files[SBX_REMOVED].s[0], "tmp.txt");
    sbx_summary_free(&sum);
    unload(&l);
    free(p);
}

/* A preview holds only the start of each file: no pair is made from it. */
static void no_pair_in_a_preview(void **state)
{
    struct fixture_dir *fx = *state;
    char *a = put_fixture(fx, "manifest-before.sha256", "manifest-before.sha256");
    char *b = put_fixture(fx, "manifest-after.sha256", "manifest-after.sha256");
    const char *paths[] = {a, b};
    struct loaded l;
    load(&l, paths, 2, 200);
    assert_int_equal(l.nsources, 2);
    assert_true(l.tl.sources[0].preview);
    assert_int_equal(l.tl.n, 0);
    unload(&l);
    free(a);
    free(b);
}

/* Escaped names (a newline, a backslash) compare like any other. */
static void escaped_names_pair(void **state)
{
    struct fixture_dir *fx = *state;
    char *a = put_fixture(fx, "escaped.sha256", "before.sha256");
    const char *after = "\\3bb2abb69ebb27fbfe63c7639624c6ec5e331b841a5bc8c3ebc10b9285e90877  ./back\\\\slash.txt\n"
                        "\\0000000000000000000000000000000000000000000000000000000000000000  ./new\\nline.txt\n";
    char *b = mdifftest_put(fx, "after.sha256", after, strlen(after));
    const char *paths[] = {a, b};
    struct loaded l;
    load(&l, paths, 2, 0);
    assert_int_equal(l.tl.nskips, 0);
    const struct sbx_event *e = nth_of_kind(&l.tl, SBX_EV_FILES, 0);
    assert_non_null(e);
    assert_true(listed(&l.tl, e->u.files, SBX_CHANGED, "new\nline.txt"));
    assert_true(listed(&l.tl, e->u.files, SBX_REMOVED, "plain.txt"));
    assert_int_equal(e->u.files->n[SBX_CHANGED], 1);
    assert_int_equal(e->u.files->n[SBX_ADDED], 0);
    unload(&l);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_forms),
        cmocka_unit_test(detected),
        cmocka_unit_test_setup_teardown(pair_by_name, setup, mdifftest_teardown),
        cmocka_unit_test_setup_teardown(pair_by_order, setup, mdifftest_teardown),
        cmocka_unit_test_setup_teardown(two_pairs_and_a_root, setup, mdifftest_teardown),
        cmocka_unit_test_setup_teardown(lone_manifest, setup, mdifftest_teardown),
        cmocka_unit_test_setup_teardown(with_a_recorder_log, setup, mdifftest_teardown),
        cmocka_unit_test_setup_teardown(net_change, setup, mdifftest_teardown),
        cmocka_unit_test_setup_teardown(no_pair_in_a_preview, setup, mdifftest_teardown),
        cmocka_unit_test_setup_teardown(escaped_names_pair, setup, mdifftest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
