/* The cross-check of the wrapper's log against the provider's command
 * record (docs/formats/runtime.md, "Cross-check"): matching by sandbox, time, program and exit;
 * the closest start wins ties; the skew measured and used; commands outside
 * the wrapper, missing from the record or older than it; exit mismatches;
 * background records. Records are made here as the importer makes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/crosscheck.h"
#include "analyses/summary.h"

static const int64_t T0 = 1764405000LL * 1000000000LL; /* a start for every test */
static const int64_t MS = 1000000;

struct run {
    struct sbx_timeline tl;
    struct sbx_buf log;
    struct sbx_evbuf records;
    struct sbx_summary sum;
};

/* A wrapper command: ends at T0 + end_ms, ran ms. */
static void wrapper(struct run *r, const char *sandbox, int64_t end_ms, int ms, const char *cmd, int exit)
{
    int64_t t = T0 / MS + end_ms; /* ms since the epoch */
    char at[40];
    time_t secs = (time_t)(t / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%S", &tm);
    sbx_buf_addf(&r->log,
                 "{\"at\": \"%s.%03dZ\", \"sandbox\": \"%s\", \"kind\": \"command\", \"command\": "
                 "\"%s\", \"exit\": %d, \"ms\": %d, \"stdout\": \"\", \"stderr\": \"\"}\n",
                 at, (int)(t % 1000), sandbox, cmd, exit, ms);
}

/* A record in the provider's command record, starting at T0 + start_ms. */
static void record(struct run *r, const char *sandbox, int64_t start_ms, const char *program,
                   int exit, unsigned state_flags)
{
    struct sbx_event *e = sbx_evbuf_push(&r->records);
    e->kind = SBX_EV_COMMAND;
    e->start = T0 + start_ms * MS;
    e->end = e->start + 5 * MS;
    e->source = 1;
    e->line_no = (uint32_t)r->records.n;
    e->sandbox = sbx_strtab_intern(&r->tl.strings, sandbox, strlen(sandbox));
    e->u.cmd.program = sbx_strtab_intern(&r->tl.strings, program, strlen(program));
    e->u.cmd.flags = SBX_CMD_RECORD | SBX_CMD_MS_KNOWN | state_flags;
    e->u.cmd.ms = 5;
    if (!(state_flags & (SBX_CMD_RUNNING | SBX_CMD_UNREAD))) {
        e->u.cmd.flags |= SBX_CMD_EXIT_KNOWN;
        e->u.cmd.exit = exit;
    }
}

static struct run *start(void)
{
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    return r;
}

/* Loads the wrapper's log and adds the records, then analyses. */
static void finish(struct run *r)
{
    char *copy = malloc(r->log.len + 1);
    memcpy(copy, r->log.p ? r->log.p : "", r->log.len);
    uint32_t src = sbx_timeline_add_source(&r->tl, "agent-run.jsonl", copy, r->log.len, SBX_DATA_HEAP);
    sbx_load_source(&r->tl, src, &sbx_format_recorder, NULL);
    char *none = malloc(1);
    sbx_timeline_add_source(&r->tl, "runtime-commands.jsonl", none, 0, SBX_DATA_HEAP);
    sbx_timeline_adopt(&r->tl, &r->records);
    sbx_timeline_finish(&r->tl);
    char err[160];
    assert_true(sbx_summarize(&r->tl, NULL, &r->sum, err, sizeof err));
}

static void done(struct run *r)
{
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    sbx_buf_free(&r->log);
    free(r);
}

static const struct sbx_event *only_wrapper(struct run *r, const char *cmd_prefix)
{
    struct sbx_buf tmp = SBX_BUF_INIT;
    const struct sbx_event *found = NULL;
    for (size_t i = 0; i < r->tl.n; i++) {
        const struct sbx_event *e = r->tl.order[i];
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD))
            continue;
        size_t n;
        const char *s = sbx_text_get(&r->tl, e, &e->u.cmd.command, &tmp, &n);
        if (n >= strlen(cmd_prefix) && memcmp(s, cmd_prefix, strlen(cmd_prefix)) == 0)
            found = e;
    }
    sbx_buf_free(&tmp);
    assert_non_null(found);
    return found;
}

static void matched_and_outside(void **state)
{
    (void)state;
    struct run *r = start();
    /* starts: ls at 0, curl at 1000, FOO=1 python3 at 2000 (bash -c unwrapped) */
    wrapper(r, "s1", 10, 10, "ls -la", 0);
    wrapper(r, "s1", 1020, 20, "curl -s https://x", 6);
    wrapper(r, "s1", 2050, 50, "FOO=1 bash -c \\\"cd /w && python3 t.py\\\"", 0);
    record(r, "s1", 3, "ls", 0, 0);
    record(r, "s1", 1004, "curl", 6, 0);
    record(r, "s1", 2001, "python3", 0, 0);
    record(r, "s1", 1500, "curl", 0, 0); /* nobody ran this one through the wrapper */
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->records, 4);
    assert_int_equal(x->npairs, 3);
    assert_int_equal(x->noutside, 1);
    assert_int_equal(x->outside[0]->start, T0 + 1500 * MS);
    assert_true(x->outside[0]->findings & SBX_F_OUTSIDE_WRAPPER);
    assert_int_equal(x->nmissing, 0);
    const struct sbx_event *py = only_wrapper(r, "FOO=1");
    const struct sbx_event *rec = sbx_crosscheck_record_of(x, py);
    assert_non_null(rec);
    assert_string_equal(sbx_str(&r->tl, rec->u.cmd.program), "python3");
    /* the records are not counted as the run's commands */
    assert_int_equal(r->sum.commands, 3);
    done(r);
}

static void closest_start_wins(void **state)
{
    (void)state;
    struct run *r = start();
    /* two ls 1.5 s apart, records in between: each takes the nearer one */
    wrapper(r, "s1", 1000, 0, "ls a", 0);
    wrapper(r, "s1", 2500, 0, "ls b", 0);
    record(r, "s1", 2400, "ls", 0, 0);
    record(r, "s1", 1100, "ls", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->npairs, 2);
    assert_int_equal(sbx_crosscheck_record_of(x, only_wrapper(r, "ls a"))->start, T0 + 1100 * MS);
    assert_int_equal(sbx_crosscheck_record_of(x, only_wrapper(r, "ls b"))->start, T0 + 2400 * MS);
    done(r);
}

static void skew_measured_and_used(void **state)
{
    (void)state;
    struct run *r = start();
    /* the provider's clock runs 1.8 s ahead: within the window at first, and
     * the skew found lets a command 2.5 s off match too */
    wrapper(r, "s1", 0, 0, "echo a", 0);
    wrapper(r, "s1", 5000, 0, "echo b", 0);
    wrapper(r, "s1", 10000, 0, "echo c", 0);
    wrapper(r, "s1", 20000, 0, "pwd", 0);
    record(r, "s1", 1800, "echo", 0, 0);
    record(r, "s1", 6800, "echo", 0, 0);
    record(r, "s1", 11800, "echo", 0, 0);
    record(r, "s1", 22500, "pwd", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_true(x->skew_known);
    assert_int_equal(x->skew_ns / MS, 1800);
    assert_int_equal(x->npairs, 4);
    assert_int_equal(x->noutside, 0);
    done(r);
}

static void missing_older_and_exit_mismatch(void **state)
{
    (void)state;
    struct run *r = start();
    wrapper(r, "s1", -20000, 0, "make old", 0); /* before the record's first entry */
    wrapper(r, "s1", 1000, 0, "make build", 2);
    wrapper(r, "s1", 5000, 0, "rm -rf x", 0);   /* the record lacks it */
    wrapper(r, "s2", 5000, 0, "ls", 0);         /* s2 has no record: not checked */
    record(r, "s1", 0, "echo", 0, 0);
    record(r, "s1", 1000, "make", 0, 0);        /* the record says it exited 0 */
    record(r, "s1", 9000, "sleep", 0, SBX_CMD_RUNNING);
    record(r, "s1", 9500, "tail", 0, SBX_CMD_UNREAD);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->checked_commands, 3);
    assert_int_equal(x->older_than_record, 1);
    assert_int_equal(x->nmissing, 1);
    assert_true(x->missing[0]->findings & SBX_F_MISSING_FROM_RECORD);
    assert_int_equal(x->nexit_mismatch, 1);
    assert_true(x->exit_mismatch[0].wrapper->findings & SBX_F_EXIT_MISMATCH);
    assert_int_equal(x->running, 1);
    assert_int_equal(x->unread, 1);
    /* echo, sleep and tail ran outside the wrapper */
    assert_int_equal(x->noutside, 3);
    done(r);
}

static void running_matches_any_exit(void **state)
{
    (void)state;
    struct run *r = start();
    wrapper(r, "s1", 3000, 3000, "sleep 3", 124);
    record(r, "s1", 0, "sleep", 0, SBX_CMD_UNREAD);
    finish(r);
    assert_int_equal(r->sum.cross.npairs, 1);
    assert_int_equal(r->sum.cross.noutside, 0);
    done(r);
}

static void several_sandboxes(void **state)
{
    (void)state;
    struct run *r = start();
    wrapper(r, "a", 1000, 0, "git status", 0);
    wrapper(r, "b", 1000, 0, "git status", 0);
    record(r, "b", 1000, "git", 0, 0);
    record(r, "a", 1001, "git", 0, 0);
    finish(r);
    const struct sbx_crosscheck *x = &r->sum.cross;
    assert_int_equal(x->npairs, 2);
    for (size_t i = 0; i < x->npairs; i++)
        assert_int_equal(x->pairs[i].wrapper->sandbox, x->pairs[i].record->sandbox);
    done(r);
}

static void no_record_no_check(void **state)
{
    (void)state;
    struct run *r = start();
    wrapper(r, "s1", 1000, 0, "ls", 0);
    finish(r);
    assert_int_equal(r->sum.cross.records, 0);
    assert_int_equal(r->sum.cross.nmissing, 0);
    assert_false(r->tl.order[0]->findings & SBX_F_MISSING_FROM_RECORD);
    done(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matched_and_outside),
        cmocka_unit_test(closest_start_wins),
        cmocka_unit_test(skew_measured_and_used),
        cmocka_unit_test(missing_older_and_exit_mismatch),
        cmocka_unit_test(running_matches_any_exit),
        cmocka_unit_test(several_sandboxes),
        cmocka_unit_test(no_record_no_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
