/* One thing seen twice is one thing (analyses/witness.h): a table of run
 * variants made from tests/fixtures/runtime-run by adding second accounts
 * of it (webhook deliveries of its events, checked or not; sandboxio's audit
 * and tool spans of its commands, their clocks shifted over several offsets)
 * must give the run's own lifecycle counts, command counts, failures by
 * program, cross-check and hash counts. Then what only one log saw
 * (unwrapped), a log that is the wrapper's where no recorder ran, an event
 * id given to another event, the row a failed delivery wins, a redacted
 * script, and where the timeline and the detail put the witnesses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "analyses/summary.h"
#include "importers/load.h"
#include "tests/unit/shifted.h"

#define RUN "tests/fixtures/runtime-run"
#define WIT "tests/fixtures/witness-run"
#define SECRET "whsec_witness_fixture" /* the made-up secret make-witness-fixtures signs with */

struct loaded {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

static struct loaded *load_with(const char *const *paths, size_t n, const char *secret,
                                const struct sbx_summary_opts *sopts)
{
    struct loaded *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    struct sbx_load_opts opts = {.threads = 2, .import = {.webhook_secrets = secret}};
    struct sbx_load_report rep = {0};
    size_t added = sbx_load_paths(&r->tl, paths, n, &opts, &rep);
    assert_int_equal(added, r->tl.nsources);
    assert_int_equal(rep.nerrors, 0);
    sbx_load_report_free(&rep);
    char err[160];
    assert_true(sbx_summarize(&r->tl, sopts, &r->sum, err, sizeof err));
    return r;
}

static struct loaded *load(const char *const *paths, size_t n, const char *secret)
{
    return load_with(paths, n, secret, NULL);
}

static void drop(struct loaded *r)
{
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
}

/* A temporary file holding text; its path is written into path. */
static void temp_file(char *path, size_t n, const char *name, const char *text)
{
    char dir[] = "/tmp/sbx-witness-XXXXXX";
    assert_non_null(mkdtemp(dir));
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void temp_remove(const char *path)
{
    unlink(path);
    char dir[256];
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
    rmdir(dir);
}

/* sandboxio's audit of the run's five wrapper commands, its clock offset_ms
 * off the wrapper's. */
static void sandboxio_audit(char *path, size_t n, int offset_ms)
{
    static const struct {
        int start_ms, ms, exit;
        const char *argv;
    } cmds[] = {
        {1000, 200, 0, "[\"git\",\"status\"]"},
        {2000, 1500, 1, "[\"bash\",\"-c\",\"cd /w && python3 -m pytest -q\"]"},
        {5000, 100, 6, "[\"curl\",\"-fsS\",\"https://paste.example.com/x\",\"-o\",\"/tmp/x\"]"},
        {7100, 900, 0, "[\"pip\",\"install\",\"requests\"]"},
        {8950, 50, 0, "[\"echo\",\"done\"]"},
    };
    char text[4096] = "";
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        int t = 10 * 3600000 + cmds[i].start_ms + offset_ms; /* ms since midnight */
        snprintf(text + strlen(text), sizeof text - strlen(text),
                 "{\"ts\":\"2026-05-04T%02d:%02d:%02d.%03d000+00:00\",\"event\":\"exec\","
                 "\"sandbox_id\":\"a1b2c3d4\",\"argv\":%s,\"exit_code\":%d,\"duration_ms\":%d}\n",
                 t / 3600000, t / 60000 % 60, t / 1000 % 60, t % 1000, cmds[i].argv, cmds[i].exit,
                 cmds[i].ms);
    }
    temp_file(path, n, "audit.jsonl", text);
}

struct variant {
    const char *name;
    const char *extra[3]; /* files added to the run */
    const char *secret;
    int sandboxio_offset_ms; /* 0: no generated audit */
};

static const struct variant variants[] = {
    {"the run alone", {NULL}, NULL, 0},
    {"+ webhook deliveries, unchecked", {WIT "/runtime-webhooks.jsonl"}, NULL, 0},
    {"+ webhook deliveries, verified", {WIT "/runtime-webhooks.jsonl"}, SECRET, 0},
    {"+ sandboxio's audit", {WIT "/audit.jsonl"}, NULL, 0},
    {"+ tool spans", {WIT "/traces.jsonl"}, NULL, 0},
    {"+ all three", {WIT "/runtime-webhooks.jsonl", WIT "/audit.jsonl", WIT "/traces.jsonl"}, SECRET, 0},
    {"+ sandboxio 1.9 s behind", {NULL}, NULL, -1900},
    {"+ sandboxio 0.7 s behind", {NULL}, NULL, -700},
    {"+ sandboxio 1 ms ahead", {NULL}, NULL, 1},
    {"+ sandboxio 0.9 s ahead", {NULL}, NULL, 900},
    {"+ sandboxio 1.9 s ahead, spans too", {WIT "/traces.jsonl"}, NULL, 1900},
};

static size_t failures_of(const struct loaded *r, const char *program)
{
    for (size_t i = 0; i < r->sum.nfailed_by; i++)
        if (strcmp(sbx_str(&r->tl, r->sum.failed_by[i].program), program) == 0)
            return r->sum.failed_by[i].count;
    return 0;
}

/* The run with var's logs beside it, and its sandboxio audit log written
 * into audit (a temporary file's name, or "" when var has none). */
static struct loaded *load_variant(const struct variant *var, char audit[256])
{
    const char *paths[5] = {RUN};
    size_t n = 1;
    for (size_t k = 0; k < 3 && var->extra[k]; k++)
        paths[n++] = var->extra[k];
    audit[0] = '\0';
    if (var->sandboxio_offset_ms) {
        sandboxio_audit(audit, 256, var->sandboxio_offset_ms);
        paths[n++] = audit;
    }
    return load(paths, n, var->secret);
}

static void drop_variant(struct loaded *r, const char *audit)
{
    drop(r);
    if (audit[0])
        temp_remove(audit);
}

static void variants_count_as_the_run(void **state)
{
    (void)state;
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        const struct variant *var = &variants[v];
        char audit[256];
        struct loaded *r = load_variant(var, audit);
        const struct sbx_summary *s = &r->sum;
        print_message("variant: %s\n", var->name);
        assert_int_equal(s->commands, 5);
        assert_int_equal(s->failed, 2);
        assert_int_equal(s->nfailed_by, 2);
        assert_int_equal(failures_of(r, "curl"), 1);
        assert_int_equal(failures_of(r, "pytest"), 1);
        assert_int_equal(s->lifecycle, 2);
        assert_int_equal(s->wakes, 1);
        assert_int_equal(s->stops, 1);
        assert_int_equal(s->cross.npairs, 5);
        assert_int_equal(s->cross.noutside, 1); /* the background sleep */
        assert_int_equal(s->ngaps, 1);          /* the curl at 10:00:06, between lines 3 and 4 */
        assert_string_equal(sbx_str(&r->tl, s->gaps[0].record->u.cmd.program), "curl");
        assert_string_equal(sbx_str(&r->tl, s->cross.outside[0]->u.cmd.program), "sleep");
        assert_int_equal(s->cross.nmissing, 0);
        assert_int_equal(s->cross.nexit_mismatch, 0);
        assert_int_equal(s->hash_verified, 5);
        assert_int_equal(s->hash_unverifiable, 0);
        assert_int_equal(s->witness.nunwrapped, 0);
        assert_int_equal(s->signatures_failed, 0);
        /* every added command and event is a second witness of the run's */
        size_t added = r->tl.n - 18; /* the run alone has 18 events */
        assert_int_equal(s->witness.n, added);
        for (size_t i = 0; i < r->tl.n; i++) {
            const struct sbx_event *e = sbx_tl_at(&r->tl, i);
            const struct sbx_event *first = sbx_witness_first_of(&s->witness, e);
            bool from_run = strncmp(r->tl.sources[e->source].path, RUN, strlen(RUN)) == 0;
            bool delivery = e->tflags & SBX_EVT_WEBHOOK;
            /* a delivery is the row of its event; a second log's command is not */
            assert_true(first == NULL || (!delivery && (from_run == (e->kind == SBX_EV_LIFECYCLE))));
            if (first)
                assert_int_equal(first->kind, e->kind);
        }
        drop_variant(r, audit);
    }
}

/* The cross-check's view (sbx_witness_view): for every variant and a
 * command only sandboxio saw, the timeline's events in its order without
 * the commands that are not the wrapper's own (second witnesses,
 * unwrapped commands); a run that leaves none out shares the timeline's order
 * (no copy), one that does gets a copy, and each is released. */
static void the_view_leaves_out_the_second_witnesses(void **state)
{
    (void)state;
    static const struct variant unwrapped = {"+ a command only sandboxio saw", {WIT "/unwrapped.jsonl"}, NULL, 0};
    size_t nvariants = sizeof variants / sizeof *variants;
    for (size_t v = 0; v <= nvariants; v++) {
        const struct variant *var = v < nvariants ? &variants[v] : &unwrapped;
        char audit[256];
        struct loaded *r = load_variant(var, audit);
        const struct sbx_witnesses *w = &r->sum.witness;
        struct sbx_timeline view;
        sbx_witness_view(&r->tl, w, &view);
        size_t kept = 0;
        for (size_t i = 0; i < r->tl.n; i++) {
            const struct sbx_event *e = sbx_tl_at(&r->tl, i);
            bool out = e->kind == SBX_EV_COMMAND &&
                       (sbx_witness_is_second(w, e) || (e->findings & SBX_F_UNWRAPPED));
            if (out)
                continue;
            if (kept >= view.n || sbx_tl_at(&view, kept) != e)
                fail_msg("%s: event %zu is not the view's %zu", var->name, i, kept);
            kept++;
        }
        assert_int_equal(view.n, kept);
        if (kept == r->tl.n)
            assert_ptr_equal(view.order_, r->tl.order_);
        else
            assert_ptr_not_equal(view.order_, r->tl.order_);
        print_message("variant: %s: %zu of %zu events in the view\n", var->name, view.n, r->tl.n);
        sbx_witness_view_free(&r->tl, &view);
        assert_null(view.order_);
        drop_variant(r, audit);
    }
}

/* A command only sandboxio saw is unwrapped, and the cross-check does not
 * take it for the wrapper's: the record of the curl it matches stays
 * outside the wrapper. It ran, so it counts. */
static void what_one_log_alone_saw_is_a_finding(void **state)
{
    (void)state;
    const char *paths[] = {RUN, WIT "/unwrapped.jsonl"};
    struct loaded *r = load(paths, 2, NULL);
    const struct sbx_summary *s = &r->sum;
    assert_int_equal(s->witness.nunwrapped, 1);
    const struct sbx_event *u = s->witness.unwrapped[0];
    assert_true(u->findings & SBX_F_UNWRAPPED);
    assert_string_equal(r->tl.sources[u->source].format, "sandboxio");
    assert_int_equal(s->cross.noutside, 1);
    assert_int_equal(s->ngaps, 1);
    assert_int_equal(s->cross.nmissing, 0);
    assert_int_equal(s->commands, 6);
    size_t marked = 0;
    for (size_t i = 0; i < r->tl.n; i++)
        marked += !!(sbx_tl_at(&r->tl, i)->findings & SBX_F_UNWRAPPED);
    assert_int_equal(marked, 1);
    drop(r);
}

/* Where no recorder ran, sandboxio's audit is the wrapper's log: nothing
 * in it is unwrapped, and tool spans are checked against it. */
static void sandboxio_is_the_wrapper_without_a_recorder(void **state)
{
    (void)state;
    const char *paths[] = {WIT "/unwrapped.jsonl", WIT "/traces.jsonl"};
    struct loaded *r = load(paths, 2, NULL);
    assert_int_equal(r->sum.commands, 6);
    assert_int_equal(r->sum.witness.commands, 5);
    assert_int_equal(r->sum.witness.nunwrapped, 0);
    drop(r);
}

/* The same id on another type, sandbox or time is another event: both
 * count. */
static void an_id_on_another_event_is_not_the_same_event(void **state)
{
    (void)state;
    static const char *const changed[] = {
        "\"type\": \"sandbox.paused\", \"createdAt\": \"2026-05-04T10:00:09.500Z\", \"resourceId\": \"a1b2c3d4\"",
        "\"type\": \"sandbox.stopped\", \"createdAt\": \"2026-05-04T10:00:09.600Z\", \"resourceId\": \"a1b2c3d4\"",
        "\"type\": \"sandbox.stopped\", \"createdAt\": \"2026-05-04T10:00:09.500Z\", \"resourceId\": \"ffff0000\"",
    };
    for (size_t i = 0; i < sizeof changed / sizeof *changed; i++) {
        char text[512], path[256];
        struct sbx_buf b = SBX_BUF_INIT; /* the body's members, escaped as a JSON string */
        for (const char *p = changed[i]; *p; p++) {
            if (*p == '"')
                sbx_buf_addc(&b, '\\');
            sbx_buf_addc(&b, *p);
        }
        sbx_buf_addc(&b, '\0');
        snprintf(text, sizeof text, "{\"headers\": {}, \"body\": \"{\\\"id\\\": \\\"ev-2\\\", %s}\"}\n", b.p);
        sbx_buf_free(&b);
        temp_file(path, sizeof path, "runtime-webhooks.jsonl", text);
        const char *paths[] = {RUN, path};
        struct loaded *r = load(paths, 2, NULL);
        assert_int_equal(r->sum.webhooks, 1);
        assert_int_equal(r->sum.lifecycle, 3);
        assert_int_equal(r->sum.witness.lifecycle, 0);
        drop(r);
        temp_remove(path);
    }
}

static const struct sbx_event *stopped_in(const struct loaded *r, const char *path_end)
{
    for (size_t i = 0; i < r->tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&r->tl, i);
        const char *p = r->tl.sources[e->source].path;
        if (e->kind == SBX_EV_LIFECYCLE && strcmp(sbx_str(&r->tl, e->label), "sandbox.stopped") == 0 &&
            strlen(p) >= strlen(path_end) && strcmp(p + strlen(p) - strlen(path_end), path_end) == 0)
            return e;
    }
    fail_msg("no sandbox.stopped in %s", path_end);
    return NULL;
}

/* A replayed delivery of an event also delivered properly and in the events
 * file: one event, its row the failed delivery (so the finding shows), the
 * others its witnesses; the signatures are still each delivery's. */
static void a_failed_delivery_is_the_row(void **state)
{
    (void)state;
    const char *paths[] = {RUN, WIT "/runtime-webhooks.jsonl", WIT "/replayed.jsonl"};
    struct loaded *r = load(paths, 3, SECRET);
    const struct sbx_summary *s = &r->sum;
    assert_int_equal(s->lifecycle, 2);
    assert_int_equal(s->stops, 1);
    assert_int_equal(s->webhooks, 3);
    assert_int_equal(s->signatures_verified, 2);
    assert_int_equal(s->signatures_failed, 1);
    const struct sbx_event *replayed = stopped_in(r, "replayed.jsonl");
    assert_null(sbx_witness_first_of(&s->witness, replayed));
    assert_true(replayed->findings & SBX_F_BAD_SIGNATURE);
    assert_int_equal(replayed->u.life.signed_off_s, 600);
    size_t n;
    const struct sbx_witness *w = sbx_witness_seconds(&s->witness, replayed, &n);
    assert_int_equal(n, 2);
    assert_ptr_equal(w[0].first, replayed);
    assert_ptr_equal(sbx_witness_first_of(&s->witness, stopped_in(r, "runtime-events.jsonl")), replayed);
    assert_ptr_equal(sbx_witness_first_of(&s->witness, stopped_in(r, "runtime-webhooks.jsonl")), replayed);
    drop(r);
}

/* sandboxio labels `bash -c ***` (a script it redacted) by the shell; the
 * wrapper's line for it is the script's. */
static void a_redacted_script_is_the_same_command(void **state)
{
    (void)state;
    char rec[256], sbio[256];
    temp_file(rec, sizeof rec, "agent-run.jsonl",
              "{\"at\": \"2026-05-04T10:00:01.200Z\", \"sandbox\": \"a1b2c3d4\", \"kind\": \"command\", "
              "\"command\": \"bash -c 'make -C /w test'\", \"exit\": 2, \"ms\": 200}\n");
    temp_file(sbio, sizeof sbio, "audit.jsonl",
              "{\"ts\":\"2026-05-04T10:00:01.100000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
              "\"argv\":[\"bash\",\"-c\",\"***\"],\"exit_code\":2,\"duration_ms\":190}\n");
    const char *paths[] = {rec, sbio};
    struct loaded *r = load(paths, 2, NULL);
    assert_int_equal(r->sum.commands, 1);
    assert_int_equal(r->sum.witness.commands, 1);
    assert_int_equal(r->sum.witness.nunwrapped, 0);
    drop(r);
    temp_remove(rec);
    temp_remove(sbio);
}

/* The run's five wrapper commands as sandboxio's audit or OTLP tool spans
 * give them, their clock offset_ms off the wrapper's; with unwrapped, also
 * a curl at 10:00:06.750 (wrapper's clock) that the wrapper's log lacks. */
static const struct {
    int start_ms, ms, exit;
    const char *argv;
} run_cmds[] = {
    {1000, 200, 0, "[\"git\",\"status\"]"},
    {2000, 1500, 1, "[\"bash\",\"-c\",\"cd /w && python3 -m pytest -q\"]"},
    {5000, 100, 6, "[\"curl\",\"-fsS\",\"https://paste.example.com/x\",\"-o\",\"/tmp/x\"]"},
    {6750, 300, 0, "[\"curl\",\"-fsS\",\"https://paste.example.com/y\"]"}, /* the unwrapped one */
    {7100, 900, 0, "[\"pip\",\"install\",\"requests\"]"},
    {8950, 50, 0, "[\"echo\",\"done\"]"},
};
#define UNWRAPPED_CMD 3
#define RUN_EPOCH_S 1777888800LL /* 2026-05-04T10:00:00Z */

static void shifted_log(char *path, size_t n, bool otlp, int offset_ms, bool unwrapped, const char *more)
{
    struct sbx_buf b = SBX_BUF_INIT;
    if (otlp)
        sbx_buf_adds(&b, "{\"resourceSpans\":[{\"resource\":{\"attributes\":[]},\"scopeSpans\":[{\"spans\":[");
    bool first = true;
    for (size_t i = 0; i < sizeof run_cmds / sizeof *run_cmds; i++) {
        if (i == UNWRAPPED_CMD && !unwrapped)
            continue;
        long long t = 10LL * 3600000 + run_cmds[i].start_ms + offset_ms; /* ms since midnight */
        if (otlp) {
            /* the argv as a JSON string inside JSON */
            struct sbx_buf a = SBX_BUF_INIT;
            for (const char *p = run_cmds[i].argv; *p; p++) {
                if (*p == '"')
                    sbx_buf_addc(&a, '\\');
                sbx_buf_addc(&a, *p);
            }
            sbx_buf_addc(&a, '\0');
            long long ns = (RUN_EPOCH_S * 1000 + t - 10LL * 3600000) * 1000000;
            sbx_buf_addf(&b,
                         "%s{\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":\"7a3c0000000000%02zx\","
                         "\"name\":\"execute_tool exec\",\"startTimeUnixNano\":\"%lld\",\"endTimeUnixNano\":\"%lld\","
                         "\"attributes\":[{\"key\":\"gen_ai.operation.name\",\"value\":{\"stringValue\":\"execute_tool\"}},"
                         "{\"key\":\"sandboxio.sandbox.id\",\"value\":{\"stringValue\":\"a1b2c3d4\"}},"
                         "{\"key\":\"sandboxio.argv\",\"value\":{\"stringValue\":\"%s\"}},"
                         "{\"key\":\"sandboxio.exit_code\",\"value\":{\"intValue\":\"%d\"}},"
                         "{\"key\":\"sandboxio.duration_ms\",\"value\":{\"intValue\":\"%d\"}}],\"status\":{}}",
                         first ? "" : ",", i + 1, ns, ns + run_cmds[i].ms * 1000000LL, a.p, run_cmds[i].exit,
                         run_cmds[i].ms);
            sbx_buf_free(&a);
        } else {
            sbx_buf_addf(&b,
                         "{\"ts\":\"2026-05-04T%02lld:%02lld:%02lld.%03lld000+00:00\",\"event\":\"exec\","
                         "\"sandbox_id\":\"a1b2c3d4\",\"argv\":%s,\"exit_code\":%d,\"duration_ms\":%d}\n",
                         t / 3600000, t / 60000 % 60, t / 1000 % 60, t % 1000, run_cmds[i].argv,
                         run_cmds[i].exit, run_cmds[i].ms);
        }
        first = false;
    }
    if (otlp)
        sbx_buf_adds(&b, "]}]}]}\n");
    if (more)
        sbx_buf_adds(&b, more);
    sbx_buf_addc(&b, '\0');
    temp_file(path, n, otlp ? "traces.jsonl" : "audit.jsonl", b.p);
    sbx_buf_free(&b);
}

/* Another exit code, or a start beyond the window, is another command:
 * with the run's commands beside it to measure the clock by, the odd one
 * is unwrapped. */
static void another_exit_or_time_is_another_command(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "{\"ts\":\"2026-05-04T10:00:01.000000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
        "\"argv\":[\"git\",\"status\"],\"exit_code\":128,\"duration_ms\":200}\n",
        "{\"ts\":\"2026-05-04T10:00:03.100000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
        "\"argv\":[\"git\",\"status\"],\"exit_code\":0,\"duration_ms\":200}\n",
        "{\"ts\":\"2026-05-04T10:00:01.000000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"ffff0000\","
        "\"argv\":[\"git\",\"status\"],\"exit_code\":0,\"duration_ms\":200}\n",
        "{\"ts\":\"2026-05-04T10:00:01.000000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
        "\"argv\":[\"gitk\"],\"exit_code\":0,\"duration_ms\":200}\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        char path[256];
        shifted_log(path, sizeof path, false, 0, false, lines[i]);
        const char *paths[] = {RUN "/agent-run.jsonl", path};
        struct loaded *r = load(paths, 2, NULL);
        assert_int_equal(r->sum.witness.commands, 5);
        /* in another sandbox sandboxio is that sandbox's wrapper log */
        assert_int_equal(r->sum.witness.nunwrapped, i == 2 ? 0 : 1);
        assert_int_equal(r->sum.commands, 6);
        drop(r);
        temp_remove(path);
    }
}

static const struct sbx_event *command_at(const struct loaded *r, uint32_t src, const char *program)
{
    for (size_t i = 0; i < r->tl.n; i++) {
        const struct sbx_event *e = sbx_tl_at(&r->tl, i);
        if (e->source == src && e->kind == SBX_EV_COMMAND && strcmp(sbx_str(&r->tl, e->u.cmd.program), program) == 0)
            return e;
    }
    fail_msg("no %s command", program);
    return NULL;
}

static int64_t distance(int64_t a, int64_t b)
{
    return a > b ? a - b : b - a;
}

/* sandboxio's audit and OTLP tool spans of the run, their clocks shifted
 * far beyond the 2 s window: the same counts and the same unwrapped
 * command as unshifted, the offset measured within 50 ms, and the log
 * shown on the wrapper's clock (its own time kept beside). */
static void a_shifted_second_log_is_put_on_the_wrappers_clock(void **state)
{
    (void)state;
    static const int offsets_ms[] = {0, -90000, -2500, 45000, 15 * 60000, 1900, -700};
    for (int otlp = 0; otlp < 2; otlp++)
        for (size_t k = 0; k < sizeof offsets_ms / sizeof *offsets_ms; k++) {
            int off = offsets_ms[k];
            print_message("%s %+d ms\n", otlp ? "OTLP" : "sandboxio", off);
            char path[256];
            shifted_log(path, sizeof path, otlp, off, true, NULL);
            const char *paths[] = {RUN, path};
            struct loaded *r = load(paths, 2, NULL);
            const struct sbx_summary *s = &r->sum;
            assert_int_equal(s->commands, 6);
            assert_int_equal(s->failed, 2);
            assert_int_equal(s->witness.commands, 5);
            assert_int_equal(s->witness.nunwrapped, 1);
            assert_int_equal(s->witness.nunconcluded, 0);
            assert_int_equal(s->cross.npairs, 5);
            assert_int_equal(s->cross.noutside, 1);
    assert_int_equal(s->ngaps, 1);
            assert_int_equal(s->cross.nmissing, 0);
            assert_int_equal(s->witness.nclocks, 1);
            const struct sbx_witness_clock *c = &s->witness.clocks[0];
            const struct sbx_source *src = &r->tl.sources[c->source];
            assert_string_equal(src->path, path);
            assert_int_equal(c->skew.how, SBX_SKEW_MEASURED);
            assert_int_equal(c->skew.pairs, 5);
            assert_true(distance(c->skew.ns, off * 1000000LL) <= 50000000);
            assert_int_equal(src->clock_offset, c->skew.ns);
            assert_int_equal(src->clock, SBX_CLOCK_MEASURED); /* measured, 0 too */
            /* the unwrapped curl sits between the wrapper's curl and pip */
            const struct sbx_event *u = s->witness.unwrapped[0];
            assert_string_equal(r->tl.sources[u->source].path, path);
            assert_true(distance(u->start, (RUN_EPOCH_S * 1000 + 6750) * 1000000LL) <= 50000000);
            assert_int_equal(sbx_event_own_time(&r->tl, u, u->start),
                             (RUN_EPOCH_S * 1000 + 6750 + off) * 1000000LL);
            const struct sbx_event *git = command_at(r, c->source, "git status");
            assert_ptr_equal(sbx_witness_first_of(&s->witness, git)->source, 0);
            for (size_t i = 1; i < r->tl.n; i++) /* sorted again after the move */
                assert_true(sbx_event_cmp(sbx_tl_at(&r->tl, i - 1), sbx_tl_at(&r->tl, i)) <= 0);
            drop(r);
            temp_remove(path);
        }
}

/* Two of five commands agreeing is too few: the skew is uncertain, the log
 * stays on its own clock, and what is left unmatched concludes nothing. */
static void an_uncertain_clock_concludes_nothing(void **state)
{
    (void)state;
    char path[256];
    temp_file(path, sizeof path, "audit.jsonl",
              "{\"ts\":\"2026-05-04T10:00:46.000000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
              "\"argv\":[\"git\",\"status\"],\"exit_code\":0,\"duration_ms\":200}\n"
              "{\"ts\":\"2026-05-04T10:00:47.000000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
              "\"argv\":[\"gitk\"],\"exit_code\":0,\"duration_ms\":200}\n"
              "{\"ts\":\"2026-05-04T10:00:48.000000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
              "\"argv\":[\"gitk\"],\"exit_code\":3,\"duration_ms\":200}\n"
              "{\"ts\":\"2026-05-04T10:00:52.100000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
              "\"argv\":[\"pip\",\"install\",\"requests\"],\"exit_code\":0,\"duration_ms\":900}\n"
              /* near the record's curl that ran outside the wrapper: not the wrapper's */
              "{\"ts\":\"2026-05-04T10:00:06.000000+00:00\",\"event\":\"exec\",\"sandbox_id\":\"a1b2c3d4\","
              "\"argv\":[\"curl\",\"-fsS\",\"https://paste.example.com/y\"],\"exit_code\":0,\"duration_ms\":300}\n");
    const char *paths[] = {RUN, path};
    struct loaded *r = load(paths, 2, NULL);
    const struct sbx_summary *s = &r->sum;
    assert_int_equal(s->witness.nclocks, 1);
    assert_int_equal(s->witness.clocks[0].skew.how, SBX_SKEW_UNCERTAIN);
    assert_int_equal(s->witness.clocks[0].skew.pairs, 2);
    assert_int_equal(r->tl.sources[s->witness.clocks[0].source].clock, SBX_CLOCK_OWN);
    assert_int_equal(s->witness.nunwrapped, 0);
    assert_int_equal(s->witness.nunconcluded, 3);
    assert_int_equal(s->witness.commands, 2); /* paired at the best guess */
    for (size_t i = 0; i < r->tl.n; i++)
        assert_false(sbx_tl_at(&r->tl, i)->findings & SBX_F_UNWRAPPED);
    assert_int_equal(s->cross.npairs, 5); /* the unconcluded are not the wrapper's */
    assert_int_equal(s->cross.noutside, 1);
    assert_int_equal(s->ngaps, 1);
    drop(r);
    temp_remove(path);
}

/* --skew names sandboxio's or OTLP's log as it names Runtime's: the offset
 * given is the one used, whatever the estimate would say. */
static void a_given_skew_is_used_for_a_second_log(void **state)
{
    (void)state;
    for (int otlp = 0; otlp < 2; otlp++) {
        char path[256];
        shifted_log(path, sizeof path, otlp, 45000, true, NULL);
        const char *paths[] = {RUN, path};
        struct {
            const char *source;
            int64_t ns;
            size_t witnessed, unwrapped;
        } cases[] = {
            {otlp ? "traces.jsonl" : "audit.jsonl", 45300 * 1000000LL, 5, 1},
            {otlp ? "otlp" : "sandboxio", 45000 * 1000000LL, 5, 1},
            {otlp ? "traces.jsonl" : "audit.jsonl", 0, 0, 6}, /* wrong, but given: nothing matches */
        };
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            struct sbx_skew_given g = {cases[i].source, cases[i].ns};
            struct sbx_summary_opts o = {.skews = &g, .nskews = 1};
            struct loaded *r = load_with(paths, 2, NULL, &o);
            const struct sbx_summary *s = &r->sum;
            assert_int_equal(s->witness.nclocks, 1);
            assert_int_equal(s->witness.clocks[0].skew.how, SBX_SKEW_GIVEN);
            assert_int_equal(s->witness.clocks[0].skew.ns, cases[i].ns);
            assert_int_equal(s->witness.clocks[0].skew.pairs, cases[i].witnessed);
            assert_int_equal(r->tl.sources[s->witness.clocks[0].source].clock_offset, cases[i].ns);
            assert_int_equal(s->witness.commands, cases[i].witnessed);
            assert_int_equal(s->witness.nunwrapped, cases[i].unwrapped);
            drop(r);
        }
        temp_remove(path);
    }
}

/* Runtime's record and sandboxio's audit each on a clock of its own: each
 * offset is measured against the wrapper's own commands only (sandboxio's
 * account of them, at its other offset, is no candidate for the record's),
 * both within 50 ms, and the findings are the unshifted run's. */
static void runtime_and_sandboxio_each_keep_their_own_offset(void **state)
{
    (void)state;
    static const struct {
        int runtime_ms, sandboxio_ms;
    } cases[] = {
        {0, 0}, {45000, -90000}, {45000, 60000}, {-90000, 45000}, {2500, -2500}, {45000, 45000},
        {-90000, -60000}, {2500, 600000},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        print_message("Runtime %+d ms, sandboxio %+d ms\n", cases[k].runtime_ms, cases[k].sandboxio_ms);
        char dir[256], audit[256];
        shifted_run_make(dir, sizeof dir, RUN, cases[k].runtime_ms);
        shifted_log(audit, sizeof audit, false, cases[k].sandboxio_ms, false, NULL);
        const char *paths[] = {dir, audit};
        struct loaded *r = load(paths, 2, NULL);
        const struct sbx_summary *s = &r->sum;
        assert_int_equal(s->commands, 5);
        assert_int_equal(s->failed, 2);
        assert_int_equal(s->cross.skew.how, SBX_SKEW_MEASURED);
        /* the record's clock runs 40 ms after the wrapper's in the fixture */
        assert_true(distance(s->cross.skew_ns, (cases[k].runtime_ms + 40) * 1000000LL) <= 50000000);
        assert_int_equal(s->cross.skew.pairs, 5);
        assert_int_equal(s->cross.skew.comparable, 5); /* the wrapper's five, counted once */
        assert_int_equal(s->cross.npairs, 5);
        /* the background sleep outside the wrapper, the curl in a gap of its log */
        assert_int_equal(s->cross.noutside, 1);
        assert_int_equal(s->ngaps, 1);
        assert_int_equal(s->cross.nmissing, 0);
        assert_int_equal(s->cross.nexit_mismatch, 0);
        assert_int_equal(s->witness.nclocks, 1);
        assert_int_equal(s->witness.clocks[0].skew.how, SBX_SKEW_MEASURED);
        assert_true(distance(s->witness.clocks[0].skew.ns, cases[k].sandboxio_ms * 1000000LL) <= 50000000);
        assert_int_equal(s->witness.commands, 5);
        assert_int_equal(s->witness.nunwrapped, 0);
        assert_int_equal(s->lifecycle, 2);
        drop(r);
        temp_remove(audit);
        shifted_run_remove(dir);
    }
}

/* A webhook delivery of body signed at unix time t under SECRET, as one
 * line of a runtime-webhooks.jsonl. */
static void delivery_line(struct sbx_buf *out, const char *body, long long t)
{
    char msg[2048];
    snprintf(msg, sizeof msg, "%lld.%s", t, body);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned maclen = 0;
    HMAC(EVP_sha256(), SECRET, (int)strlen(SECRET), (const unsigned char *)msg, strlen(msg), mac, &maclen);
    sbx_buf_addf(out, "{\"headers\": {\"Runtime-Signature\": \"t=%lld,v1=", t);
    for (unsigned i = 0; i < maclen; i++)
        sbx_buf_addf(out, "%02x", mac[i]);
    sbx_buf_adds(out, "\"}, \"body\": \"");
    for (const char *p = body; *p; p++) {
        if (*p == '"' || *p == '\\')
            sbx_buf_addc(out, '\\');
        sbx_buf_addc(out, *p);
    }
    sbx_buf_adds(out, "\"}\n");
}

/* Every kind of Runtime event (docs/formats/runtime.md): in the events file
 * and delivered by a signed webhook, it is one event with two witnesses,
 * its row the delivery (the signature shows there), counted once; the same
 * id on another kind of event is another event. */
static void every_event_kind_delivered_is_one_event(void **state)
{
    (void)state;
    static const struct {
        const char *type, *data;
        enum sbx_kind kind;
    } kinds[] = {
        {"sandbox.created", "{\"sandbox\": {\"state\": \"running\"}}", SBX_EV_LIFECYCLE},
        {"sandbox.running", "{\"sandbox\": {\"state\": \"running\"}}", SBX_EV_LIFECYCLE},
        {"sandbox.paused", "{\"sandbox\": {\"state\": \"paused\"}}", SBX_EV_LIFECYCLE},
        {"sandbox.woken", "{\"sandbox\": {\"state\": \"running\"}}", SBX_EV_LIFECYCLE},
        {"sandbox.stopped", "{\"sandbox\": {\"state\": \"stopped\", \"stopReason\": \"requested\"}}", SBX_EV_LIFECYCLE},
        {"sandbox.start_failed", "{}", SBX_EV_LIFECYCLE},
        {"sandbox.wake_failed", "{}", SBX_EV_LIFECYCLE},
        {"sandbox.files.changed",
         "{\"watch\": {\"path\": \"/workspace\"}, \"events\": [{\"type\": \"create\", \"path\": \"new.txt\"}, "
         "{\"type\": \"write\", \"path\": \"old.txt\"}]}",
         SBX_EV_FILES},
        {"snapshot.created", "{\"snapshot\": {\"id\": \"snap-1\"}}", SBX_EV_NOTE},
        {"volume.attached", "{}", SBX_EV_NOTE},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        print_message("%s\n", kinds[k].type);
        for (int other_id = 0; other_id < 2; other_id++) {
            char body[1024], events[256], hooks[256];
            snprintf(body, sizeof body,
                     "{\"id\": \"ev-%s\", \"type\": \"%s\", \"createdAt\": \"2026-05-04T10:00:04.000Z\", "
                     "\"resourceId\": \"a1b2c3d4\", \"data\": %s}",
                     other_id ? "other" : "9", kinds[k].type, kinds[k].data);
            struct sbx_buf line = SBX_BUF_INIT;
            delivery_line(&line, body, RUN_EPOCH_S + 4);
            sbx_buf_addc(&line, '\0');
            temp_file(hooks, sizeof hooks, "runtime-webhooks.jsonl", line.p);
            sbx_buf_free(&line);
            snprintf(body, sizeof body,
                     "{\"id\": \"ev-9\", \"type\": \"%s\", \"createdAt\": \"2026-05-04T10:00:04.000Z\", "
                     "\"resourceId\": \"a1b2c3d4\", \"data\": %s}\n",
                     kinds[k].type, kinds[k].data);
            temp_file(events, sizeof events, "runtime-events.jsonl", body);
            const char *paths[] = {RUN "/agent-run.jsonl", events, hooks};
            struct loaded *r = load(paths, 3, SECRET);
            const struct sbx_summary *s = &r->sum;
            const struct sbx_event *in_file = NULL, *delivered = NULL;
            for (size_t i = 0; i < r->tl.n; i++) {
                const struct sbx_event *e = sbx_tl_at(&r->tl, i);
                if (strncmp(r->tl.sources[e->source].format, "runtime-", 8) == 0)
                    *(e->tflags & SBX_EVT_WEBHOOK ? &delivered : &in_file) = e;
            }
            assert_non_null(in_file);
            assert_non_null(delivered);
            assert_int_equal(in_file->kind, kinds[k].kind);
            assert_int_equal(delivered->kind, kinds[k].kind);
            assert_true(delivered->tflags & SBX_EVT_SIG_OK);
            assert_int_equal(s->webhooks, 1);
            assert_int_equal(s->signatures_verified, 1);
            if (other_id) { /* two events: both stand */
                assert_int_equal(s->witness.lifecycle, 0);
                assert_null(sbx_witness_first_of(&s->witness, in_file));
            } else {
                assert_int_equal(s->witness.lifecycle, 1);
                assert_ptr_equal(sbx_witness_first_of(&s->witness, in_file), delivered);
                assert_null(sbx_witness_first_of(&s->witness, delivered)); /* the row */
            }
            assert_null(sbx_witness_first_of(&s->witness, delivered));
            if (kinds[k].kind == SBX_EV_LIFECYCLE)
                assert_int_equal(s->lifecycle, other_id ? 2 : 1);
            drop(r);
            temp_remove(events);
            temp_remove(hooks);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(variants_count_as_the_run),
        cmocka_unit_test(the_view_leaves_out_the_second_witnesses),
        cmocka_unit_test(what_one_log_alone_saw_is_a_finding),
        cmocka_unit_test(sandboxio_is_the_wrapper_without_a_recorder),
        cmocka_unit_test(an_id_on_another_event_is_not_the_same_event),
        cmocka_unit_test(a_failed_delivery_is_the_row),
        cmocka_unit_test(a_redacted_script_is_the_same_command),
        cmocka_unit_test(another_exit_or_time_is_another_command),
        cmocka_unit_test(a_shifted_second_log_is_put_on_the_wrappers_clock),
        cmocka_unit_test(an_uncertain_clock_concludes_nothing),
        cmocka_unit_test(a_given_skew_is_used_for_a_second_log),
        cmocka_unit_test(runtime_and_sandboxio_each_keep_their_own_offset),
        cmocka_unit_test(every_event_kind_delivered_is_one_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
