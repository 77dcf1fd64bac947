/* Runtime's records (importers/formats/runtime/runtime.h): every record type in every saved
 * shape, the raw text and line of items inside arrays and pages, the file
 * watch's files event, notes for other types, bad items reported with line
 * and reason while the rest loads, and detection by content (which must not
 * take a recorder log). Inputs are written here or are the small files in
 * fixtures/runtime. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "importers/formats/runtime/runtime.h"
#include "base/timefmt.h"
#include "model/files.h"

static int64_t ts(const char *iso)
{
    int64_t ns;
    assert_true(sbx_time_parse(iso, strlen(iso), &ns, NULL));
    return ns;
}

/* Every event's raw text lies inside its source and is one JSON object. */
static void check_ranges(const struct sbx_timeline *tl)
{
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        const struct sbx_source *src = &tl->sources[e->source];
        assert_true(e->line_off + sbx_ev_line_len(e) <= src->size);
        assert_true(sbx_ev_line_len(e) >= 2);
        assert_true(sbx_ev_line_no(e) >= 1 && sbx_ev_line_no(e) <= src->lines);
        assert_int_equal(src->data[e->line_off], '{');
        assert_int_equal(src->data[e->line_off + sbx_ev_line_len(e) - 1], '}');
    }
    for (size_t i = 0; i < tl->nskips; i++)
        assert_true(tl->skips[i].line >= 1 &&
                    tl->skips[i].line <= tl->sources[tl->skips[i].source].lines);
}

/* Loads bytes with fmt (NULL: the format detection picks, and must pick one). */
static struct sbx_timeline *load_as(const char *bytes, size_t n, const struct sbx_format *fmt,
                                    int threads)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    char *copy = malloc(n + 1);
    memcpy(copy, bytes, n);
    copy[n] = '\0';
    if (!fmt)
        fmt = sbx_detect_format(copy, n);
    assert_non_null(fmt);
    uint32_t src = sbx_timeline_add_source(tl, "t.json", copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts opts = {.threads = threads, .split_min = threads > 1 ? 1 : 0};
    sbx_load_source(tl, src, fmt, &opts);
    sbx_timeline_finish(tl);
    check_ranges(tl);
    return tl;
}
#define LOAD(s, fmt) load_as((s), strlen(s), (fmt), 1)

static void drop(struct sbx_timeline *tl)
{
    sbx_timeline_free(tl);
    free(tl);
}

/* The line of the first occurrence of sub in s. */
static uint32_t line_of(const char *s, const char *sub)
{
    const char *at = strstr(s, sub);
    assert_non_null(at);
    uint32_t line = 1;
    for (const char *p = s; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Lines as the loader counts them: a last line without its newline counts. */
static uint32_t lines_in(const char *s)
{
    uint32_t n = 0;
    for (const char *p = s; *p; p++)
        n += *p == '\n';
    return n + (*s && s[strlen(s) - 1] != '\n');
}

/* The event's raw text is exactly `text`, found at its place in the input. */
static void assert_raw(const struct sbx_timeline *tl, const struct sbx_event *e, const char *input,
                       const char *text)
{
    const char *at = strstr(input, text);
    assert_non_null(at);
    assert_int_equal(e->line_off, (uint64_t)(at - input));
    assert_int_equal(sbx_ev_line_len(e), strlen(text));
    assert_memory_equal(sbx_event_line(tl, e), text, strlen(text));
    assert_int_equal(sbx_ev_line_no(e), line_of(input, text));
}

static const char *reason_at(const struct sbx_timeline *tl, uint32_t line)
{
    for (size_t i = 0; i < tl->nskips; i++)
        if (tl->skips[i].line == line)
            return tl->skips[i].reason;
    return NULL;
}

static const char *str(const struct sbx_timeline *tl, uint32_t id)
{
    return sbx_str(tl, id);
}

#define CMD_A                                                                                    \
    "{\"id\": \"a\", \"sandboxId\": \"7f3a2c10\", \"program\": \"pytest\", \"exitCode\": 1, "      \
    "\"state\": \"exited\", \"startedAt\": \"2026-10-08T14:31:02.114Z\", \"durationMs\": 2140, "    \
    "\"actor\": {\"kind\": \"agent\", \"id\": \"key_ci_7Qx\", \"name\": \"ci-agent\"}}"
#define CMD_B                                                                                    \
    "{\"id\": \"b\", \"sandboxId\": \"7f3a2c10\", \"program\": \"python3\", \"exitCode\": null, "  \
    "\"state\": \"running\", \"startedAt\": \"2026-10-08T14:31:03Z\", \"durationMs\": null, "       \
    "\"actor\": {\"kind\": \"agent\", \"id\": \"key_ci_7Qx\"}}"
#define CMD_C                                                                                    \
    "{\"id\": \"c\", \"sandbox_id\": \"9e0b1d22\", \"program\": \"curl\", \"exit_code\": null, "   \
    "\"state\": \"unread\", \"started_at\": \"2026-10-08T14:31:04Z\", \"duration_ms\": 12}"

static void command_fields(void **state)
{
    (void)state;
    const char *in = CMD_A "\n" CMD_B "\n" CMD_C "\n";
    struct sbx_timeline *tl = LOAD(in, NULL);
    assert_string_equal(tl->sources[0].format, "runtime-commands");
    assert_int_equal(tl->n, 3);
    assert_int_equal(tl->nskips, 0);

    const struct sbx_event *a = sbx_tl_at(tl, 0), *b = sbx_tl_at(tl, 1), *c = sbx_tl_at(tl, 2);
    assert_int_equal(a->kind, SBX_EV_COMMAND);
    assert_int_equal(a->start, ts("2026-10-08T14:31:02.114Z"));
    assert_int_equal(a->end, a->start + 2140 * 1000000LL);
    assert_string_equal(str(tl, a->sandbox), "7f3a2c10");
    assert_string_equal(str(tl, a->u.cmd.program), "pytest");
    assert_string_equal(str(tl, a->label), "ci-agent");
    assert_int_equal(sbx_cmd_exit(&a->u.cmd), 1);
    assert_int_equal(sbx_cmd_ms(&a->u.cmd), 2140);
    assert_int_equal(a->u.cmd.flags, SBX_CMD_RECORD | SBX_CMD_EXIT_KNOWN | SBX_CMD_MS_KNOWN);
    assert_false(a->u.cmd.command.flags & SBX_TEXT_PRESENT);
    assert_false(a->u.cmd.out.flags & SBX_TEXT_PRESENT);
    assert_int_equal(a->findings, 0);
    assert_raw(tl, a, in, CMD_A);

    assert_int_equal(b->u.cmd.flags, SBX_CMD_RECORD | SBX_CMD_RUNNING);
    assert_int_equal(b->end, b->start);
    assert_string_equal(str(tl, b->label), "key_ci_7Qx"); /* no name: the actor's id */
    assert_int_equal(b->findings, 0);

    /* snake_case */
    assert_int_equal(c->u.cmd.flags, SBX_CMD_RECORD | SBX_CMD_UNREAD | SBX_CMD_MS_KNOWN);
    assert_string_equal(str(tl, c->sandbox), "9e0b1d22");
    assert_string_equal(str(tl, c->u.cmd.program), "curl");
    assert_int_equal(c->start, ts("2026-10-08T14:31:04Z"));
    assert_int_equal(c->end, c->start + 12 * 1000000LL);
    assert_int_equal(c->label, 0);
    assert_int_equal(sbx_ev_line_no(c), 3);
    drop(tl);
}

/* The same three items in every shape give the same events, each pointing
 * at its own item's text and line. */
static void command_shapes(void **state)
{
    (void)state;
    const char *items[] = {CMD_A, CMD_B, CMD_C};
    char *shapes[] = {
        /* a JSON array on one line */
        "[" CMD_A ", " CMD_B ",\t" CMD_C "]",
        /* an array printed over lines */
        "[\n  " CMD_A ",\n  " CMD_B ",\n\n  " CMD_C "\n]\n",
        /* one page */
        "{\"data\": [" CMD_A ", " CMD_B ", " CMD_C "], \"nextCursor\": \"cur_2\"}\n",
        /* one page printed over lines, the cursor first */
        "{\n  \"nextCursor\": null,\n  \"data\": [\n    " CMD_A ",\n    " CMD_B ",\n    " CMD_C
        "\n  ]\n}",
        /* pages one per line */
        "{\"data\": [" CMD_A ", " CMD_B "], \"nextCursor\": \"cur_2\"}\n"
        "{\"data\": [" CMD_C "], \"nextCursor\": null}\n",
        /* pages printed over lines, one after the other (jq's output) */
        "{\n  \"data\": [\n    " CMD_A "\n  ],\n  \"nextCursor\": \"x\"\n}\n{\n  \"data\": [\n    " CMD_B
        ",\n    " CMD_C "\n  ],\n  \"nextCursor\": null\n}\n",
        /* an array of pages */
        "[{\"data\": [" CMD_A "], \"nextCursor\": \"x\"},\n {\"data\": [" CMD_B ", " CMD_C
        "], \"nextCursor\": null}]\n",
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        for (int threads = 1; threads <= 3; threads += 2) {
            struct sbx_timeline *tl = load_as(shapes[s], strlen(shapes[s]), NULL, threads);
            if (tl->n != 3 || tl->nskips != 0)
                fail_msg("shape %zu: %zu events, %zu skips", s, tl->n, tl->nskips);
            assert_string_equal(tl->sources[0].format, "runtime-commands");
            for (int i = 0; i < 3; i++) {
                assert_int_equal(sbx_tl_at(tl, i)->kind, SBX_EV_COMMAND);
                assert_raw(tl, sbx_tl_at(tl, i), shapes[s], items[i]);
            }
            assert_int_equal(tl->sources[0].lines, lines_in(shapes[s]));
            drop(tl);
        }
    }
}

/* An array of items printed over lines the way json.dump(indent=2) does:
 * each item spans lines, and its event starts on the item's first line. */
static void pretty_items_lines(void **state)
{
    (void)state;
    const char *one = "{\n    \"sandboxId\": \"s1\",\n    \"program\": \"git\",\n"
                      "    \"startedAt\": \"2026-10-08T14:00:01Z\",\n    \"exitCode\": 0\n  }";
    const char *two = "{\n    \"sandboxId\": \"s1\",\n    \"program\": \"ls\",\n"
                      "    \"startedAt\": \"2026-10-08T14:00:02Z\",\n    \"exitCode\": 2,\n"
                      "    \"extra\": {\"nested\": [1, \"]}\", {\"x\": \"\\\"\"}]}\n  }";
    struct sbx_buf in = SBX_BUF_INIT;
    sbx_buf_addf(&in, "[\n  %s,\n  %s\n]", one, two);
    struct sbx_timeline *tl = LOAD(in.p, NULL);
    assert_int_equal(tl->n, 2);
    assert_raw(tl, sbx_tl_at(tl, 0), in.p, one);
    assert_raw(tl, sbx_tl_at(tl, 1), in.p, two);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 0)), 2);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 1)), 8);
    assert_int_equal(tl->sources[0].lines, lines_in(in.p));
    assert_int_equal(tl->sources[0].lines, 15);
    assert_int_equal(sbx_cmd_exit(&sbx_tl_at(tl, 1)->u.cmd), 2);
    drop(tl);
    sbx_buf_free(&in);
}

#define AUD_A                                                                                    \
    "{\"seq\": \"000912\", \"id\": \"x1\", \"at\": \"2026-10-08T14:22:40.512Z\", "                 \
    "\"action\": \"network.rules_changed\", \"actor\": {\"kind\": \"agent\", \"id\": \"key_ci\", " \
    "\"name\": \"ci-agent\", \"person\": \"dana@example.com\"}, \"target\": {\"type\": "           \
    "\"sandbox\", \"id\": \"7f3a2c10\"}, \"detail\": {\"allow\": {\"added\": [\"p.example\"]}}, "   \
    "\"ip\": \"10.1.4.7\", \"requestId\": \"req_0\", \"via\": \"api\", \"sandbox\": \"9e0b1d22\"}"
#define AUD_B                                                                                    \
    "{\"seq\": \"000913\", \"at\": \"2026-10-08T14:22:41Z\", \"action\": \"sandbox.stopped\", "    \
    "\"actor\": {\"kind\": \"person\", \"id\": \"usr_41\", \"name\": \"dana@example.com\"}, "       \
    "\"target\": {\"type\": \"sandbox\", \"id\": \"7f3a2c10\"}, \"via\": \"web\", \"sandbox\": null}"
#define AUD_C                                                                                    \
    "{\"seq\": \"000914\", \"at\": \"2026-10-08T14:22:42Z\", \"action\": \"key.created\", "        \
    "\"actor\": {\"kind\": \"person\", \"id\": \"usr_41\", \"name\": \"dana@example.com\"}, "       \
    "\"target\": {\"type\": \"key\", \"id\": \"key_ci\"}, \"via\": \"web\"}"

static void audit_fields_and_shapes(void **state)
{
    (void)state;
    const char *items[] = {AUD_A, AUD_B, AUD_C};
    const char *shapes[] = {
        AUD_A "\n" AUD_B "\n" AUD_C "\n",
        "{\"events\": [" AUD_A ", " AUD_B ", " AUD_C "], \"next\": null}",
        "{\n  \"events\": [\n    " AUD_A ",\n    " AUD_B "\n  ],\n  \"next\": \"000913\"\n}\n"
        "{\n  \"events\": [\n    " AUD_C "\n  ],\n  \"next\": null\n}\n",
        "{\"events\": [" AUD_A "], \"next\": \"1\"}\n{\"events\": [" AUD_B ", " AUD_C
        "], \"next\": null}\n",
        "[\n" AUD_A ",\n" AUD_B ",\n" AUD_C "\n]",
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        struct sbx_timeline *tl = LOAD(shapes[s], NULL);
        assert_string_equal(tl->sources[0].format, "runtime-audit");
        assert_int_equal(tl->n, 3);
        for (int i = 0; i < 3; i++)
            assert_raw(tl, sbx_tl_at(tl, i), shapes[s], items[i]);
        const struct sbx_event *a = sbx_tl_at(tl, 0), *b = sbx_tl_at(tl, 1), *c = sbx_tl_at(tl, 2);
        assert_int_equal(a->kind, SBX_EV_AUDIT);
        assert_int_equal(a->start, ts("2026-10-08T14:22:40.512Z"));
        assert_string_equal(str(tl, a->label), "network.rules_changed");
        assert_string_equal(str(tl, a->u.audit->actor), "ci-agent");
        assert_string_equal(str(tl, a->u.audit->actor_kind), "agent");
        assert_string_equal(str(tl, a->u.audit->target), "sandbox:7f3a2c10");
        assert_string_equal(str(tl, a->u.audit->via), "api");
        /* made from inside a sandbox: that one is the event's sandbox */
        assert_string_equal(str(tl, a->u.audit->inside), "9e0b1d22");
        assert_string_equal(str(tl, a->sandbox), "9e0b1d22");
        /* not from inside: the target sandbox */
        assert_int_equal(b->u.audit->inside, 0);
        assert_string_equal(str(tl, b->sandbox), "7f3a2c10");
        /* neither */
        assert_int_equal(c->sandbox, 0);
        assert_string_equal(str(tl, c->u.audit->target), "key:key_ci");
        assert_int_equal(a->findings | b->findings | c->findings, 0);
        drop(tl);
    }
}

#define EV_CREATED                                                                               \
    "{\"id\": \"e1\", \"type\": \"sandbox.created\", \"createdAt\": \"2026-09-23T15:00:00Z\", "    \
    "\"data\": {\"sandbox\": {\"id\": \"7f3a2c10\", \"state\": \"starting\", "                     \
    "\"previousState\": null, \"stopReason\": null}}}"
#define EV_STOPPED                                                                               \
    "{\"id\": \"e2\", \"type\": \"sandbox.stopped\", \"created_at\": \"2026-09-23T15:04:05.123Z\", " \
    "\"resource_id\": \"7f3a2c10\", \"data\": {\"sandbox\": {\"id\": \"7f3a2c10\", \"name\": "     \
    "\"build-runner\", \"labels\": {\"team\": \"ml\"}, \"state\": \"stopped\", "                   \
    "\"previous_state\": \"stopping\", \"stop_reason\": \"requested\", \"vcpu\": 2}}}"
#define EV_FILES                                                                                 \
    "{\"id\": \"e3\", \"type\": \"sandbox.files.changed\", \"createdAt\": \"2026-09-23T15:01:00Z\", " \
    "\"resourceId\": \"7f3a2c10\", \"data\": {\"watch\": {\"id\": \"w1\", \"path\": \"/workspace/\"}, " \
    "\"events\": [{\"type\": \"create\", \"path\": \"/workspace/new.py\", \"isDir\": false}, "     \
    "{\"type\": \"write\", \"path\": \"src/a.py\", \"isDir\": false, \"count\": 3}, "              \
    "{\"type\": \"chmod\", \"path\": \"./run.sh\", \"isDir\": false}, "                            \
    "{\"type\": \"rename\", \"path\": \"/workspace/b.py\", \"oldPath\": \"/workspace/a.py\", "     \
    "\"isDir\": false}, {\"type\": \"remove\", \"path\": \"/workspace/old\", \"isDir\": true}, "    \
    "{\"type\": \"explode\", \"path\": \"/x\"}], \"more\": false, \"overflow\": false, "           \
    "\"ended\": false}}"
#define EV_SNAPSHOT                                                                              \
    "{\"id\": \"e4\", \"type\": \"snapshot.created\", \"createdAt\": \"2026-09-23T15:02:00Z\", "   \
    "\"resourceId\": \"7f3a2c10\", \"data\": {\"snapshot\": {\"id\": \"snap_1\"}}}"
#define EV_VOLUME                                                                                \
    "{\"id\": \"e5\", \"type\": \"volume.attached\", \"createdAt\": \"2026-09-23T15:02:01Z\"}"
#define EV_UNKNOWN                                                                               \
    "{\"id\": \"e6\", \"type\": \"sandbox.teleported\", \"createdAt\": \"2026-09-23T15:02:02Z\", " \
    "\"resourceId\": \"7f3a2c10\"}"

static void lifecycle_events(void **state)
{
    (void)state;
    const char *in = "{\"data\": [" EV_STOPPED ", " EV_VOLUME ",\n" EV_UNKNOWN ", " EV_SNAPSHOT
                     ", " EV_FILES ", " EV_CREATED "], \"nextCursor\": null}\n";
    struct sbx_timeline *tl = LOAD(in, NULL);
    assert_string_equal(tl->sources[0].format, "runtime-events");
    assert_int_equal(tl->n, 6);
    assert_int_equal(tl->nskips, 0);

    const struct sbx_event *created = sbx_tl_at(tl, 0);
    assert_int_equal(created->kind, SBX_EV_LIFECYCLE);
    assert_string_equal(str(tl, created->label), "sandbox.created");
    assert_string_equal(str(tl, created->sandbox), "7f3a2c10"); /* from data.sandbox.id */
    assert_string_equal(str(tl, created->u.life.state), "starting");
    assert_int_equal(created->u.life.previous, 0);
    assert_int_equal(created->u.life.reason, 0);
    assert_raw(tl, created, in, EV_CREATED);
    assert_int_equal(sbx_ev_line_no(created), 2);

    const struct sbx_event *files = sbx_tl_at(tl, 1);
    assert_int_equal(files->kind, SBX_EV_FILES);
    assert_raw(tl, files, in, EV_FILES);
    const struct sbx_files *f = files->u.files;
    assert_string_equal(str(tl, f->root), "/workspace");
    assert_int_equal(f->n[SBX_ADDED], 1);
    assert_string_equal(sbx_files_path(tl, f, SBX_ADDED, 0), "/workspace/new.py");
    assert_int_equal(f->n[SBX_CHANGED], 3);
    assert_string_equal(sbx_files_path(tl, f, SBX_CHANGED, 0), "/workspace/src/a.py");
    assert_string_equal(sbx_files_path(tl, f, SBX_CHANGED, 1), "/workspace/run.sh");
    assert_string_equal(sbx_files_path(tl, f, SBX_CHANGED, 2), "/workspace/b.py"); /* a rename: the new path */
    assert_int_equal(f->n[SBX_REMOVED], 1);
    assert_string_equal(sbx_files_path(tl, f, SBX_REMOVED, 0), "/workspace/old");
    assert_true(files->findings & SBX_F_BAD_FIELD); /* the unknown change type */
    assert_true(f->flags & SBX_FILES_MORE); /* a file watch keeps its id */
    assert_string_equal(str(tl, sbx_files_more(f)->id), "e3");

    const struct sbx_event *snap = sbx_tl_at(tl, 2), *vol = sbx_tl_at(tl, 3), *odd = sbx_tl_at(tl, 4);
    assert_int_equal(snap->kind, SBX_EV_NOTE);
    assert_string_equal(str(tl, snap->label), "snapshot.created");
    assert_int_equal(vol->kind, SBX_EV_NOTE);
    assert_string_equal(str(tl, vol->label), "volume.attached");
    assert_int_equal(vol->sandbox, 0);
    assert_int_equal(odd->kind, SBX_EV_NOTE);
    assert_string_equal(str(tl, odd->label), "sandbox.teleported");
    assert_raw(tl, odd, in, EV_UNKNOWN);
    assert_int_equal(sbx_ev_line_no(odd), 2);

    const struct sbx_event *stopped = sbx_tl_at(tl, 5);
    assert_int_equal(stopped->kind, SBX_EV_LIFECYCLE);
    assert_int_equal(stopped->start, ts("2026-09-23T15:04:05.123Z"));
    assert_string_equal(str(tl, stopped->sandbox), "7f3a2c10");
    assert_string_equal(str(tl, stopped->u.life.state), "stopped");
    assert_string_equal(str(tl, stopped->u.life.previous), "stopping");
    assert_string_equal(str(tl, stopped->u.life.reason), "requested");
    assert_int_equal(sbx_ev_line_no(stopped), 1);
    assert_int_equal(stopped->findings, 0);
    drop(tl);
}

#define PT_1                                                                                     \
    "{\"at\": \"2026-10-08T14:30:10Z\", \"cpuPercent\": 87.5, \"cpuCores\": 1.75, "                \
    "\"cpuPeakPercent\": 90.5, \"memoryBytes\": 536870912, \"memoryPeakBytes\": 545259520, "        \
    "\"samples\": 1}"
#define PT_2 "{\"at\": \"2026-10-08T14:30:20Z\", \"cpu_percent\": 12, \"memory_bytes\": 268435456}"
#define PT_BAD "{\"at\": \"2026-10-08T14:30:30Z\", \"cpuPercent\": \"high\", \"memoryBytes\": -5}"
#define PT_NOTIME "{\"cpuPercent\": 1}"

static void metrics_points(void **state)
{
    (void)state;
    struct sbx_buf in = SBX_BUF_INIT;
    sbx_buf_addf(&in,
                 "{\n  \"sandboxId\": \"7f3a2c10\",\n  \"range\": \"15m\",\n  \"latest\": null,\n"
                 "  \"points\": [\n    %s,\n    %s,\n    %s,\n    %s\n  ],\n  \"state\": \"stopped\"\n}\n",
                 PT_1, PT_2, PT_BAD, PT_NOTIME);
    struct sbx_timeline *tl = LOAD(in.p, NULL);
    assert_string_equal(tl->sources[0].format, "runtime-metrics");
    assert_int_equal(tl->n, 3);
    const struct sbx_event *a = sbx_tl_at(tl, 0), *b = sbx_tl_at(tl, 1), *c = sbx_tl_at(tl, 2);
    assert_int_equal(a->kind, SBX_EV_METRIC);
    assert_raw(tl, a, in.p, PT_1);
    assert_int_equal(sbx_ev_line_no(a), 6);
    assert_string_equal(str(tl, a->sandbox), "7f3a2c10");
    assert_true(a->u.metric.cpu_percent == 87.5);
    assert_true(a->u.metric.cpu_peak_percent == 90.5);
    assert_int_equal(a->u.metric.memory_bytes, 536870912);
    assert_int_equal(a->u.metric.memory_peak_bytes, 545259520);
    assert_int_equal(a->findings, 0);
    assert_true(b->u.metric.cpu_percent == 12);
    assert_true(b->u.metric.cpu_peak_percent < 0);
    assert_int_equal(b->u.metric.memory_bytes, 268435456);
    assert_true(b->u.metric.memory_peak_bytes < 0);
    assert_int_equal(b->findings, 0);
    assert_true(c->u.metric.cpu_percent < 0);
    assert_true(c->u.metric.memory_bytes < 0);
    assert_true(c->findings & SBX_F_BAD_FIELD);
    assert_int_equal(tl->nskips, 1);
    assert_int_equal(tl->skips[0].line, line_of(in.p, PT_NOTIME));
    assert_string_equal(tl->skips[0].reason, "metrics point without at");
    drop(tl);

    /* JSONL of metrics objects, one per line */
    sbx_buf_clear(&in);
    sbx_buf_addf(&in, "{\"sandboxId\": \"s1\", \"points\": [%s, %s]}\n{\"sandbox_id\": \"s2\", "
                      "\"points\": []}\n{\"sandboxId\": \"s3\", \"points\": [%s]}\n",
                 PT_1, PT_2, PT_BAD);
    tl = load_as(in.p, in.len, NULL, 2);
    assert_int_equal(tl->n, 3);
    assert_string_equal(str(tl, sbx_tl_at(tl, 0)->sandbox), "s1");
    assert_raw(tl, sbx_tl_at(tl, 1), in.p, PT_2);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 2)), 3);
    assert_string_equal(str(tl, sbx_tl_at(tl, 2)->sandbox), "s3");
    drop(tl);
    sbx_buf_free(&in);
}

/* Bad items are skipped with their line and why; the rest loads. */
static void bad_items_jsonl(void **state)
{
    (void)state;
    const char *in =
        CMD_A "\n"
        "{\"sandboxId\": \"s\", \"program\": \"x\", \"startedAt\": \"2026-10-08T14:31:0\n" /* 2: cut */
        "[1, 2]\n"                                                                         /* 3 */
        "{\"sandboxId\": \"s\", \"program\": \"x\"}\n"                                     /* 4 */
        "{\"sandboxId\": \"s\", \"program\": \"x\", \"startedAt\": 17}\n"                  /* 5 */
        "not json at all\n"                                                                /* 6 */
        "{\"sandboxId\": 5, \"program\": [\"x\"], \"startedAt\": \"2026-10-08T14:31:09Z\", "
        "\"exitCode\": \"one\", \"state\": \"gone\", \"durationMs\": -4, \"actor\": 3}\n"  /* 7 */
        "{\"data\": [" CMD_B ", {\"program\": \"y\"}, 7], \"nextCursor\": null}\n"         /* 8 */
        "{\"a\": 1, \"a\": 2}\n"                                                           /* 9 */
        "\n" CMD_C;                                                                        /* 11 */
    for (int threads = 1; threads <= 4; threads += 3) {
        struct sbx_timeline *tl = load_as(in, strlen(in), &sbx_format_runtime_commands, threads);
        assert_int_equal(tl->n, 4);
        assert_int_equal(tl->sources[0].lines, 11);
        assert_non_null(strstr(reason_at(tl, 2), "not JSON"));
        assert_string_equal(reason_at(tl, 3), "not a command record: not a JSON object");
        assert_string_equal(reason_at(tl, 4), "command record without startedAt");
        assert_string_equal(reason_at(tl, 5), "command record whose startedAt is not a time");
        assert_string_equal(reason_at(tl, 6), "not JSON: the line is no object or array");
        /* a key given twice is JSON (the last value is read): this line is no
           command record for what it lacks */
        assert_string_equal(reason_at(tl, 9), "command record without startedAt");
        /* line 8: a page whose second and third items are bad */
        size_t on8 = 0;
        for (size_t i = 0; i < tl->nskips; i++)
            on8 += tl->skips[i].line == 8;
        assert_int_equal(on8, 2);
        assert_int_equal(tl->sources[0].skipped, 9); /* line 3's two numbers are two */
        const struct sbx_event *bad = NULL;
        for (size_t i = 0; i < tl->n; i++)
            if (sbx_ev_line_no(sbx_tl_at(tl, i)) == 7)
                bad = sbx_tl_at(tl, i);
        assert_non_null(bad);
        assert_true(bad->findings & SBX_F_BAD_FIELD);
        assert_int_equal(bad->sandbox, 0);
        assert_int_equal(bad->u.cmd.program, 0);
        assert_int_equal(bad->u.cmd.flags, SBX_CMD_RECORD);
        assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 2)), 11); /* CMD_C, after a blank line */
        assert_string_equal(str(tl, sbx_tl_at(tl, 2)->u.cmd.program), "curl");
        drop(tl);
    }
}

/* Broken items inside an array printed over lines: the good ones load, each
 * broken one is reported at its line, a cut-off end at where it starts. */
static void bad_items_pretty(void **state)
{
    (void)state;
    const char *in = "[\n"
                     "  " CMD_A ",\n"                                          /* 2 */
                     "  {\"program\": \"x\", \"startedAt\": tru},\n"           /* 3 */
                     "  \"text\",\n"                                           /* 4 */
                     "  {\"program\": \"x\",\n   \"startedAt\": \"yesterday\"},\n" /* 5 */
                     "  " CMD_B ",\n"                                          /* 7 */
                     "  {\"sandboxId\": \"s\", \"program\": \"cut\", \"star";  /* 8 */
    struct sbx_timeline *tl = LOAD(in, NULL);
    assert_int_equal(tl->n, 2);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 1)), 7);
    assert_non_null(strstr(reason_at(tl, 3), "not JSON"));
    assert_string_equal(reason_at(tl, 4), "not a command record: not a JSON object");
    assert_string_equal(reason_at(tl, 5), "command record whose startedAt is not a time");
    assert_non_null(strstr(reason_at(tl, 8), "never ends"));
    assert_int_equal(tl->nskips, 4);
    drop(tl);

    /* cut after an item and its comma: the cut is on the last line there is */
    const char *cut = "[\n  " CMD_A ",\n";
    tl = LOAD(cut, NULL);
    assert_int_equal(tl->n, 1);
    assert_int_equal(tl->nskips, 1);
    assert_non_null(strstr(reason_at(tl, 2), "never ends"));
    drop(tl);

    /* a broken page: its later items still load, read on their own */
    const char *page = "{\n  \"data\": [\n    " CMD_A ",\n    {\"x\": [}\n,\n    " CMD_C
                       "\n  ],\n  \"nextCursor\": null\n}\n" CMD_B "\n";
    tl = LOAD(page, &sbx_format_runtime_commands);
    assert_int_equal(tl->n, 3);
    assert_non_null(strstr(reason_at(tl, 1), "unexpected byte on line 4"));
    assert_raw(tl, sbx_tl_at(tl, 2), page, CMD_C);
    drop(tl);

    /* a file that is all brackets that never close is read in linear time */
    struct sbx_buf big = SBX_BUF_INIT;
    for (int i = 0; i < 20000; i++)
        sbx_buf_adds(&big, "{\"a\": [\n");
    tl = load_as(big.p, big.len, &sbx_format_runtime_commands, 1);
    assert_int_equal(tl->n, 0);
    assert_true(tl->sources[0].skipped > 0);
    drop(tl);
    sbx_buf_free(&big);
}

/* A page printed over lines is read an item at a time (a long one never
 * becomes one tree): a broken item costs only itself. */
static void big_page(void **state)
{
    (void)state;
    struct sbx_buf in = SBX_BUF_INIT;
    sbx_buf_adds(&in, "{\n  \"nextCursor\": null,\n  \"data\": [\n");
    int n = 12000;
    for (int i = 0; i < n; i++)
        sbx_buf_addf(&in,
                     "    {\n      \"sandboxId\": \"s\",\n      \"program\": \"p%d\",\n"
                     "      \"startedAt\": \"2026-10-08T%02d:%02d:%02dZ\"%s\n    }%s\n",
                     i, i / 3600, i / 60 % 60, i % 60, i == 77 ? ", \"x\": tru" : "",
                     i + 1 < n ? "," : "");
    sbx_buf_adds(&in, "  ]\n}\n");
    assert_true(in.len > (1u << 20));
    struct sbx_timeline *tl = load_as(in.p, in.len, NULL, 1);
    assert_int_equal(tl->n, (size_t)n - 1);
    assert_int_equal(tl->nskips, 1);
    assert_int_equal(tl->skips[0].line, 4 + 77 * 5);
    assert_non_null(strstr(tl->skips[0].reason, "not JSON: invalid syntax (line"));
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 0)), 4);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, n - 2)), 4 + (uint32_t)(n - 1) * 5);
    assert_string_equal(str(tl, sbx_tl_at(tl, n - 2)->u.cmd.program), "p11999");
    drop(tl);

    /* its envelope is read too: a key it gives twice (the list's last) marks
       every item read from it */
    memcpy(strstr(in.p, "\"nextCursor\""), "\"data\"      ", 12);
    tl = load_as(in.p, in.len, &sbx_format_runtime_commands, 1);
    assert_int_equal(tl->n, (size_t)n - 1);
    assert_int_equal(tl->nskips, 1);
    for (size_t i = 0; i < tl->n; i++)
        assert_true(sbx_tl_at(tl, i)->tflags & SBX_EVT_DUP_FIELD);
    drop(tl);
    sbx_buf_free(&in);
}

static void bom_crlf_blank(void **state)
{
    (void)state;
    const char *in = "\xEF\xBB\xBF" CMD_A "\r\n\r\n   \n" CMD_B "\r\n";
    struct sbx_timeline *tl = LOAD(in, NULL);
    assert_int_equal(tl->n, 2);
    assert_int_equal(tl->nskips, 0);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 1)), 4);
    assert_raw(tl, sbx_tl_at(tl, 0), in, CMD_A);
    drop(tl);

    /* a pretty file with a BOM and CRLF line ends */
    const char *p = "\xEF\xBB\xBF[\r\n  " CMD_A ",\r\n  " CMD_B "\r\n]\r\n";
    tl = LOAD(p, NULL);
    assert_int_equal(tl->n, 2);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, 1)), 3);
    drop(tl);
}

static const struct sbx_format *detect(const char *s)
{
    return sbx_detect_format(s, strlen(s));
}

static void detection(void **state)
{
    (void)state;
    assert_ptr_equal(detect(CMD_A "\n"), &sbx_format_runtime_commands);
    assert_ptr_equal(detect("[\n " CMD_C "\n]"), &sbx_format_runtime_commands);
    assert_ptr_equal(detect(EV_STOPPED), &sbx_format_runtime_events);
    assert_ptr_equal(detect("{\"data\": [" EV_FILES "], \"nextCursor\": \"c\"}"),
                     &sbx_format_runtime_events);
    assert_ptr_equal(detect("{\"next\": null, \"events\": [" AUD_B "]}"), &sbx_format_runtime_audit);
    assert_ptr_equal(detect("{\"events\": [], \"next\": null}\n"), &sbx_format_runtime_audit);
    assert_ptr_equal(detect("{\"sandboxId\": \"s\", \"points\": []}"), &sbx_format_runtime_metrics);
    assert_ptr_equal(detect("{\"headers\": {}, \"body\": \"{}\"}\n"), &sbx_format_runtime_webhooks);
    /* broken lines before the first good one do not hide the format */
    assert_ptr_equal(detect("{\"sandboxId\": \"s\", \"pro\n\n[1,\n" CMD_A "\n"),
                     &sbx_format_runtime_commands);
    /* nothing to tell by: an empty data page, a foreign object, text */
    assert_null(detect("{\"data\": [], \"nextCursor\": null}\n"));
    assert_null(detect("{\"name\": \"package\", \"version\": \"1.0\"}\n" CMD_A "\n"));
    assert_null(detect("[1, 2, 3]"));
    assert_null(detect("hello\n"));
    assert_null(detect(""));

    /* a recorder log is the recorder's, and no Runtime format takes it */
    const char *rec = "{\"at\": \"2026-10-08T14:31:02Z\", \"sandbox\": \"7f3a2c10\", \"kind\": "
                      "\"command\", \"command\": \"pytest -q\", \"exit\": 1, \"ms\": 5}\n"
                      "{\"at\": \"2026-10-08T14:31:03Z\", \"kind\": \"files\", \"changed\": []}\n";
    assert_ptr_equal(detect(rec), &sbx_format_recorder);
    for (size_t i = 0; sbx_formats[i]; i++)
        if (sbx_formats[i] != &sbx_format_recorder)
            assert_false(sbx_formats[i]->detect(rec, strlen(rec)));
    /* and a Runtime file is no recorder log */
    assert_false(sbx_format_recorder.detect(CMD_A "\n" AUD_A "\n", strlen(CMD_A "\n" AUD_A "\n")));

    /* each kind refuses the others' items */
    const char *kinds[] = {CMD_A, EV_STOPPED, AUD_A, "{\"sandboxId\": \"s\", \"points\": []}",
                           "{\"headers\": {}, \"body\": \"{}\"}"};
    const struct sbx_format *fmts[] = {&sbx_format_runtime_commands, &sbx_format_runtime_events,
                                       &sbx_format_runtime_audit, &sbx_format_runtime_metrics,
                                       &sbx_format_runtime_webhooks};
    for (int k = 0; k < 5; k++)
        for (int f = 0; f < 5; f++)
            assert_int_equal(fmts[f]->detect(kinds[k], strlen(kinds[k])), k == f);
}

/* The bundled example still loads as a recorder log. */
static void example_is_recorder(void **state)
{
    (void)state;
    char path[4096];
    const char *me = __FILE__, *slash = strrchr(me, '/');
    int dir = slash ? (int)(slash - me) : 0;
    snprintf(path, sizeof path, "%.*s%s../../examples/csv-fix/agent-run.jsonl", dir, me,
             slash ? "/" : "");
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fp = fopen("examples/csv-fix/agent-run.jsonl", "rb");
    assert_non_null(fp);
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
        sbx_buf_add(&b, chunk, got);
    fclose(fp);
    assert_ptr_equal(sbx_detect_format(b.p, b.len), &sbx_format_recorder);
    for (size_t i = 0; sbx_formats[i]; i++)
        if (sbx_formats[i] != &sbx_format_recorder)
            assert_false(sbx_formats[i]->detect(b.p, b.len));
    sbx_buf_free(&b);
}

/* A folder of Runtime's records loads by content, every file with its format. */
static void folder_by_content(void **state)
{
    (void)state;
    char dir[4096];
    const char *me = __FILE__, *slash = strrchr(me, '/');
    int n = slash ? (int)(slash - me) : 0;
    snprintf(dir, sizeof dir, "%.*s%sfixtures/runtime", n, me, slash ? "/" : "");
    FILE *probe = fopen(dir, "r");
    if (probe)
        fclose(probe);
    else
        snprintf(dir, sizeof dir, "tests/unit/fixtures/runtime");
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {dir};
    size_t loaded = sbx_load_paths(&tl, paths, 1, NULL, &rep);
    assert_int_equal(loaded, 5);
    assert_int_equal(rep.nerrors, 0);
    assert_int_equal(rep.nunread, 0);
    static const struct {
        const char *file, *format;
        size_t events;
    } want[] = {
        {"audit.json", "runtime-audit", 1},      {"commands-page.json", "runtime-commands", 2},
        {"events.jsonl", "runtime-events", 3},   {"metrics.json", "runtime-metrics", 2},
        {"webhooks.jsonl", "runtime-webhooks", 1},
    };
    for (size_t i = 0; i < tl.nsources; i++) {
        const char *base = strrchr(tl.sources[i].path, '/') + 1;
        assert_string_equal(base, want[i].file);
        assert_string_equal(tl.sources[i].format, want[i].format);
        assert_int_equal(tl.sources[i].events, want[i].events);
        assert_int_equal(tl.sources[i].skipped, 0);
    }
    check_ranges(&tl);
    size_t kinds[SBX_EV_KIND_COUNT] = {0};
    for (size_t i = 0; i < tl.n; i++) {
        kinds[sbx_tl_at(&tl, i)->kind]++;
        if (sbx_tl_at(&tl, i)->kind == SBX_EV_LIFECYCLE && (sbx_tl_at(&tl, i)->tflags & SBX_EVT_WEBHOOK))
            assert_int_equal(sbx_tl_at(&tl, i)->tflags & (SBX_EVT_SIG_OK | SBX_EVT_SIG_BAD), 0);
    }
    assert_int_equal(kinds[SBX_EV_COMMAND], 2);
    assert_int_equal(kinds[SBX_EV_AUDIT], 1);
    assert_int_equal(kinds[SBX_EV_METRIC], 2);
    assert_int_equal(kinds[SBX_EV_FILES], 1);
    assert_int_equal(kinds[SBX_EV_LIFECYCLE], 3);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
}

/* Split across threads, a JSONL file gives the same events as on one. */
static void threads_agree(void **state)
{
    (void)state;
    struct sbx_buf in = SBX_BUF_INIT;
    for (int i = 0; i < 3000; i++) {
        if (i % 100 == 7)
            sbx_buf_adds(&in, "{broken\n");
        else
            sbx_buf_addf(&in,
                         "{\"sandboxId\": \"s%d\", \"program\": \"p%d\", \"exitCode\": %d, "
                         "\"state\": \"exited\", \"startedAt\": \"2026-10-08T%02d:%02d:%02dZ\", "
                         "\"durationMs\": %d}\n",
                         i % 3, i % 17, i % 2, i / 3600, i / 60 % 60, i % 60, i);
    }
    struct sbx_timeline *one = load_as(in.p, in.len, NULL, 1);
    struct sbx_timeline *four = load_as(in.p, in.len, NULL, 4);
    assert_int_equal(one->n, 2970);
    assert_int_equal(one->n, four->n);
    assert_int_equal(one->nskips, 30);
    assert_int_equal(four->nskips, 30);
    for (size_t i = 0; i < one->n; i++) {
        assert_int_equal(sbx_ev_line_no(sbx_tl_at(one, i)), sbx_ev_line_no(sbx_tl_at(four, i)));
        assert_int_equal(sbx_tl_at(one, i)->line_off, sbx_tl_at(four, i)->line_off);
        assert_int_equal(sbx_tl_at(one, i)->start, sbx_tl_at(four, i)->start);
    }
    for (size_t i = 0; i < one->nskips; i++)
        assert_int_equal(one->skips[i].line, four->skips[i].line);
    drop(one);
    drop(four);
    sbx_buf_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(command_fields),     cmocka_unit_test(command_shapes),
        cmocka_unit_test(pretty_items_lines), cmocka_unit_test(audit_fields_and_shapes),
        cmocka_unit_test(lifecycle_events),   cmocka_unit_test(metrics_points),
        cmocka_unit_test(bad_items_jsonl),    cmocka_unit_test(bad_items_pretty),
        cmocka_unit_test(big_page),           cmocka_unit_test(bom_crlf_blank),
        cmocka_unit_test(detection),
        cmocka_unit_test(example_is_recorder), cmocka_unit_test(folder_by_content),
        cmocka_unit_test(threads_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
