/* Which finding kinds a run's sources can tell (analyses/coverage.c): a
 * table of runs made of different sources, each with the kinds it must and
 * must not be able to tell, and a need in words for every kind that is not
 * always told. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/fixture.h"

#include "analyses/summary.h"

#define T0 (INT64_C(1780000000) * FX_S)

/* What a case puts in its run. */
enum {
    WRAPPER = 1u << 0,  /* a recorder source with a command */
    RECORD = 1u << 1,   /* a runtime-commands source with a record */
    AUDIT = 1u << 2,    /* an audit entry */
    PROXY = 1u << 3,    /* a squid source with a request */
    SIGNED = 1u << 4,   /* a webhook delivery whose signature was checked */
    UNSIGNED = 1u << 5, /* a webhook delivery never checked */
    HASHED = 1u << 6,   /* the wrapper's command has a stdout hash */
    SANDBOXIO = 1u << 7,/* a sandboxio source with an operation */
    DIFF = 1u << 8,     /* a diff source */
};

static const uint32_t ALWAYS = SBX_F_SECRET | SBX_F_BAD_FIELD | SBX_F_DUP_FIELD;
/* the risky kinds: every one from command text; the metadata endpoint from
 * the proxy's hosts too, /etc/hosts from a diff too */
static const uint32_t RISKY = SBX_F_PIPED_TO_SHELL | SBX_F_METADATA_ENDPOINT | SBX_F_HOSTS_REDIRECT |
                              SBX_F_PERSISTENCE | SBX_F_LOG_TAMPERING | SBX_F_TLS_OFF |
                              SBX_F_CREDENTIAL_READ | SBX_F_URL_INSTALL;
static const uint32_t COMMANDS = SBX_F_FAILED | SBX_F_TIMED_OUT | SBX_F_HIDDEN_TEXT | SBX_F_REFUSED_HOST | RISKY;
static const uint32_t CROSS =
    SBX_F_OUTSIDE_WRAPPER | SBX_F_REMOVED_FROM_LOG | SBX_F_MISSING_FROM_RECORD | SBX_F_EXIT_MISMATCH;
static const uint32_t ACCOUNT = SBX_F_ACCOUNT_CHANGE | SBX_F_ACCOUNT_INSIDE;

static const struct {
    const char *name;
    unsigned what;
    uint32_t tells; /* exactly these */
} cases[] = {
    {"nothing but text", 0, ALWAYS},
    {"the wrapper's log", WRAPPER, ALWAYS | COMMANDS},
    {"the wrapper's log and Runtime's record", WRAPPER | RECORD, ALWAYS | COMMANDS | CROSS},
    {"Runtime's record alone: no cross-check, no command log", RECORD, ALWAYS},
    {"sandboxio's operations", SANDBOXIO, ALWAYS | COMMANDS},
    {"the wrapper's log and sandboxio's: the unwrapped", WRAPPER | SANDBOXIO, ALWAYS | COMMANDS | SBX_F_UNWRAPPED},
    {"the proxy's log", PROXY, ALWAYS | SBX_F_REFUSED_HOST | SBX_F_METADATA_ENDPOINT},
    {"a diff", DIFF, ALWAYS | SBX_F_HOSTS_REDIRECT},
    {"the audit log", WRAPPER | AUDIT, ALWAYS | COMMANDS | ACCOUNT},
    {"a signed delivery", SIGNED, ALWAYS | SBX_F_BAD_SIGNATURE},
    {"a delivery never checked", UNSIGNED, ALWAYS},
    {"hashed stdout", WRAPPER | HASHED, ALWAYS | COMMANDS | SBX_F_HASH_MISMATCH},
};

/* A source of that format (its events stay in the fixture's one source,
 * which holds their texts: the kinds follow the formats loaded). */
static void add_source(struct fixture *fx, const char *path, const char *format)
{
    uint32_t s = sbx_timeline_add_source(&fx->tl, path, NULL, 0, SBX_DATA_HEAP);
    fx->tl.sources[s].format = format;
}

static void the_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned w = cases[i].what;
        struct fixture fx;
        fixture_init(&fx, "notes.txt");
        fx.tl.sources[0].format = "text";
        if (w & SANDBOXIO) {
            add_source(&fx, "audit.jsonl", "sandboxio");
            fixture_command(&fx, "sb1", T0, 5, "ls", 0);
        }
        if (w & WRAPPER) {
            add_source(&fx, "agent-run.jsonl", "recorder");
            struct sbx_event *e = fixture_command(&fx, "sb1", T0 + FX_S, 5, "make", 0);
            if (w & HASHED) {
                e->u.cmd.flags |= SBX_CMD_HASH_PRESENT;
                e->u.cmd.stdout_hash = 0x0123456789abcdefULL;
            }
        }
        if (w & RECORD) {
            add_source(&fx, "runtime-commands.json", "runtime-commands");
            fixture_record(&fx, "sb1", T0 + FX_S, "make", 0, 0);
        }
        if (w & PROXY) {
            add_source(&fx, "access.log", "squid");
            fixture_request(&fx, "sb1", T0 + 2 * FX_S, "example.com");
        }
        if (w & DIFF)
            add_source(&fx, "changes.patch", "diff");
        if (w & AUDIT)
            fixture_event(&fx, SBX_EV_AUDIT, NULL, T0, SBX_TIME_UNKNOWN)->label = fixture_id(&fx, "key.created");
        if (w & (SIGNED | UNSIGNED)) {
            struct sbx_event *e = fixture_event(&fx, SBX_EV_LIFECYCLE, "sb1", T0, SBX_TIME_UNKNOWN);
            e->label = fixture_id(&fx, "sandbox.woken");
            e->tflags |= SBX_EVT_WEBHOOK | (w & SIGNED ? SBX_EVT_SIG_OK : 0);
        }
        fixture_finish(&fx);
        struct sbx_summary sum;
        char err[200];
        assert_true(sbx_summarize(&fx.tl, NULL, &sum, err, sizeof err));
        if (sum.checkable != cases[i].tells)
            fail_msg("%s: tells %#x, want %#x", cases[i].name, sum.checkable, cases[i].tells);
        assert_int_equal(sbx_summary_checkable(&fx.tl, &sum), sum.checkable);
        assert_int_equal(sbx_summary_has_wrapper(&fx.tl), (w & WRAPPER) != 0);
        sbx_summary_free(&sum);
        fixture_free(&fx);
    }
}

/* Every kind check reports has words for what it needs, but those every
 * run can tell. */
static void every_need_in_words(void **state)
{
    (void)state;
    for (size_t i = 0; i < sbx_nfindings; i++) {
        const char *needs = sbx_finding_needs(sbx_findings[i].bit);
        if (ALWAYS & sbx_findings[i].bit)
            assert_null(needs);
        else if (!needs)
            fail_msg("%s: no need in words", sbx_findings[i].name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_table),
        cmocka_unit_test(every_need_in_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
