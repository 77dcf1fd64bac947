/* Webhook signatures (analyses/webhook.h) and the deliveries importer
 * (importers/formats/runtime/runtime.h): good, bad, rotated (two v1, two secrets), too old,
 * missing or malformed header, no secret (unchecked), and the flags and
 * finding the importer sets. Signatures are made here with OpenSSL's
 * one-shot HMAC, besides one known answer from another implementation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "importers/format.h"
#include "importers/load.h"
#include "importers/formats/runtime/runtime.h"
#include "base/timefmt.h"
#include "analyses/webhook.h"
#include "model/files.h"

#define T0 "1791469920" /* 2026-10-08T14:32:00Z */
static const int64_t T0_NS = 1791469920LL * 1000000000LL;

/* The hex HMAC-SHA256 of "<t>.<body>" under secret (a static buffer). */
static const char *sign(const char *secret, const char *t, const char *body)
{
    static char hex[65];
    struct sbx_buf msg = SBX_BUF_INIT;
    sbx_buf_addf(&msg, "%s.%s", t, body);
    unsigned char mac[32];
    unsigned int n = 0;
    assert_non_null(HMAC(EVP_sha256(), secret, (int)strlen(secret), (unsigned char *)msg.p, msg.len,
                         mac, &n));
    assert_int_equal(n, 32);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", mac[i]);
    sbx_buf_free(&msg);
    return hex;
}

static enum sbx_sig verify(const char *secrets, const char *header, const char *body, int64_t at)
{
    struct sbx_webhook_secrets s;
    sbx_webhook_secrets_parse(&s, secrets);
    enum sbx_sig r = sbx_webhook_verify(&s, header, header ? strlen(header) : 0, body, strlen(body),
                                        at, SBX_WEBHOOK_TOLERANCE_S, NULL);
    sbx_webhook_secrets_free(&s);
    return r;
}

static void known_answer(void **state)
{
    (void)state;
    /* Python: hmac.new(b"whsec_test", b'1791469920.{"id": "e9"}', sha256).hexdigest() */
    const char *h = "t=" T0 ",v1=abe75e79d72e2cd9c819047ae91fc41c370ce2bd3e5dc5ee8081cc2968a200ab";
    assert_int_equal(verify("whsec_test", h, "{\"id\": \"e9\"}", T0_NS), SBX_SIG_OK);
    assert_string_equal(sign("whsec_test", T0, "{\"id\": \"e9\"}"),
                        "abe75e79d72e2cd9c819047ae91fc41c370ce2bd3e5dc5ee8081cc2968a200ab");
    /* upper-case hex and spaces around the parts */
    const char *u = "t = " T0 " , v1=ABE75E79D72E2CD9C819047AE91FC41C370CE2BD3E5DC5EE8081CC2968A200AB ";
    assert_int_equal(verify("whsec_test", u, "{\"id\": \"e9\"}", T0_NS), SBX_SIG_OK);
}

static void good_and_bad(void **state)
{
    (void)state;
    const char *body = "{\"type\": \"sandbox.paused\"}";
    char h[256];
    snprintf(h, sizeof h, "t=%s,v1=%s", T0, sign("s3cret", T0, body));
    assert_int_equal(verify("s3cret", h, body, T0_NS), SBX_SIG_OK);
    assert_int_equal(verify("other", h, body, T0_NS), SBX_SIG_MISMATCH);
    /* one byte of the body changed */
    assert_int_equal(verify("s3cret", h, "{\"type\": \"sandbox.paused\" }", T0_NS), SBX_SIG_MISMATCH);
    /* the t signed is part of the message: another t does not verify */
    snprintf(h, sizeof h, "t=%s,v1=%s", "1791469921", sign("s3cret", T0, body));
    assert_int_equal(verify("s3cret", h, body, T0_NS), SBX_SIG_MISMATCH);
    /* a v1 cut short or not hex */
    snprintf(h, sizeof h, "t=%s,v1=%.63s", T0, sign("s3cret", T0, body));
    assert_int_equal(verify("s3cret", h, body, T0_NS), SBX_SIG_MISMATCH);
    snprintf(h, sizeof h, "t=%s,v1=%.63sg", T0, sign("s3cret", T0, body));
    assert_int_equal(verify("s3cret", h, body, T0_NS), SBX_SIG_MISMATCH);
}

static void rotated(void **state)
{
    (void)state;
    const char *body = "{\"id\": \"r\"}";
    char h[256], old[65];
    snprintf(old, sizeof old, "%s", sign("old", T0, body));
    /* two v1 values, one per secret: either secret verifies */
    snprintf(h, sizeof h, "t=%s,v1=%s,v1=%s", T0, old, sign("new", T0, body));
    assert_int_equal(verify("new", h, body, T0_NS), SBX_SIG_OK);
    assert_int_equal(verify("old", h, body, T0_NS), SBX_SIG_OK);
    assert_int_equal(verify("neither", h, body, T0_NS), SBX_SIG_MISMATCH);
    /* two secrets held, one v1: whichever signed it */
    snprintf(h, sizeof h, "t=%s,v1=%s", T0, old);
    assert_int_equal(verify("new,old", h, body, T0_NS), SBX_SIG_OK);
    assert_int_equal(verify(" old , new ", h, body, T0_NS), SBX_SIG_OK);
    assert_int_equal(verify("new,newer", h, body, T0_NS), SBX_SIG_MISMATCH);
    /* an unknown scheme beside v1 is ignored */
    snprintf(h, sizeof h, "t=%s,v0=abc,v1=%s", T0, old);
    assert_int_equal(verify("old", h, body, T0_NS), SBX_SIG_OK);
}

static void too_old(void **state)
{
    (void)state;
    const char *body = "{}";
    char h[256];
    const char *times[] = {"1791469619", "1791469620", "1791470220", "1791470221"};
    enum sbx_sig want[] = {SBX_SIG_TOO_OLD, SBX_SIG_OK, SBX_SIG_OK, SBX_SIG_TOO_OLD};
    for (int i = 0; i < 4; i++) {
        snprintf(h, sizeof h, "t=%s,v1=%s", times[i], sign("k", times[i], body));
        assert_int_equal(verify("k", h, body, T0_NS), want[i]);
        /* with no event time to compare with, the signature alone counts */
        assert_int_equal(verify("k", h, body, SBX_TIME_UNKNOWN), SBX_SIG_OK);
    }
    /* a bad signature is a mismatch, whatever its time */
    snprintf(h, sizeof h, "t=1,v1=%s", sign("k", T0, body));
    assert_int_equal(verify("k", h, body, T0_NS), SBX_SIG_MISMATCH);
}

static void missing_malformed_unchecked(void **state)
{
    (void)state;
    const char *body = "{}";
    const char *v1 = sign("k", T0, body);
    char h[256];
    assert_int_equal(verify("k", NULL, body, T0_NS), SBX_SIG_NO_HEADER);
    snprintf(h, sizeof h, "v1=%s", v1);
    assert_int_equal(verify("k", h, body, T0_NS), SBX_SIG_MALFORMED);
    assert_int_equal(verify("k", "t=" T0, body, T0_NS), SBX_SIG_MALFORMED);
    snprintf(h, sizeof h, "t=17914699x0,v1=%s", v1);
    assert_int_equal(verify("k", h, body, T0_NS), SBX_SIG_MALFORMED);
    snprintf(h, sizeof h, "t=%s,t=%s,v1=%s", T0, T0, v1);
    assert_int_equal(verify("k", h, body, T0_NS), SBX_SIG_MALFORMED);
    snprintf(h, sizeof h, "t=,v1=%s", v1);
    assert_int_equal(verify("k", h, body, T0_NS), SBX_SIG_MALFORMED);
    assert_int_equal(verify("k", "", body, T0_NS), SBX_SIG_MALFORMED);
    /* no secret: nothing is checked, not even whether there is a header */
    snprintf(h, sizeof h, "t=%s,v1=%s", T0, v1);
    assert_int_equal(verify(NULL, h, body, T0_NS), SBX_SIG_UNCHECKED);
    assert_int_equal(verify(" , ", NULL, body, T0_NS), SBX_SIG_UNCHECKED);
    assert_int_equal(verify("", "garbage", body, T0_NS), SBX_SIG_UNCHECKED);
    assert_string_equal(sbx_sig_name(SBX_SIG_OK), "verified");
}

static void secrets_list(void **state)
{
    (void)state;
    struct sbx_webhook_secrets s;
    assert_int_equal(sbx_webhook_secrets_parse(&s, " a ,,\tbb\t, c c ,"), 3);
    assert_int_equal(s.len[0], 1);
    assert_memory_equal(s.key[0], "a", 1);
    assert_int_equal(s.len[1], 2);
    assert_memory_equal(s.key[1], "bb", 2);
    assert_int_equal(s.len[2], 3);
    assert_memory_equal(s.key[2], "c c", 3);
    sbx_webhook_secrets_free(&s);
    assert_int_equal(s.n, 0);
    assert_int_equal(sbx_webhook_secrets_parse(&s, NULL), 0);
    sbx_webhook_secrets_free(&s);
}

/* body as a JSON string body (quotes and backslashes escaped). */
static void add_escaped(struct sbx_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sbx_buf_addc(b, '\\');
        sbx_buf_addc(b, *s);
    }
}

/* One delivery line: headers (JSON members) and the raw body. */
static void delivery(struct sbx_buf *b, const char *headers, const char *body)
{
    sbx_buf_addf(b, "{\"headers\": {%s, \"Runtime-Webhook-Id\": \"w\"}, \"body\": \"", headers);
    add_escaped(b, body);
    sbx_buf_adds(b, "\"}\n");
}

#define PAUSED                                                                                   \
    "{\"id\": \"e9\", \"type\": \"sandbox.paused\", \"createdAt\": \"2026-10-08T14:32:00.000Z\", " \
    "\"resourceId\": \"7f3a2c10\", \"data\": {\"sandbox\": {\"id\": \"7f3a2c10\", \"state\": "      \
    "\"paused\", \"previousState\": \"running\", \"stopReason\": null}}}"
#define FILES                                                                                    \
    "{\"id\": \"e10\", \"type\": \"sandbox.files.changed\", \"createdAt\": "                       \
    "\"2026-10-08T14:32:01Z\", \"resourceId\": \"7f3a2c10\", \"data\": {\"watch\": {\"path\": "    \
    "\"/etc\"}, \"events\": [{\"type\": \"write\", \"path\": \"/etc/hosts\"}]}}"

/* The deliveries in `in`, imported with the secrets given (NULL: none). */
static struct sbx_timeline *load_deliveries(const struct sbx_buf *in, const char *secrets)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    char *copy = malloc(in->len);
    memcpy(copy, in->p, in->len);
    assert_ptr_equal(sbx_detect_format(copy, in->len), &sbx_format_runtime_webhooks);
    uint32_t src = sbx_timeline_add_source(tl, "hooks.jsonl", copy, in->len, SBX_DATA_HEAP);
    struct sbx_load_opts opts = {.import.webhook_secrets = secrets};
    sbx_load_source(tl, src, &sbx_format_runtime_webhooks, &opts);
    sbx_timeline_finish(tl);
    return tl;
}

static const struct sbx_event *on_line(const struct sbx_timeline *tl, uint32_t line)
{
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_ev_line_no(sbx_tl_at(tl, i)) == line)
            return sbx_tl_at(tl, i);
    fail_msg("no event on line %u", line);
    return NULL;
}

/* A replay: the right secret, signed beyond the tolerance either way. The
 * check gives the time difference, the importer keeps it on the event (and
 * the id that pairs it with the events file), and it is said in words; a
 * signature that matches no secret, or a time within the tolerance, is no
 * replay. */
static void replay_keeps_the_time_difference(void **state)
{
    (void)state;
    static const struct {
        int64_t off_s;
        const char *secret;
        enum sbx_sig want;
        int32_t kept;
    } cases[] = {
        {600, "k", SBX_SIG_TOO_OLD, 600},     {-600, "k", SBX_SIG_TOO_OLD, -600},
        {301, "k", SBX_SIG_TOO_OLD, 301},     {-3 * 86400, "k", SBX_SIG_TOO_OLD, -3 * 86400},
        {300, "k", SBX_SIG_OK, 0},            {-120, "k", SBX_SIG_OK, 0},
        {600, "other", SBX_SIG_MISMATCH, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char t[24], h[256];
        snprintf(t, sizeof t, "%lld", (long long)(1791469920LL + cases[i].off_s));
        snprintf(h, sizeof h, "t=%s,v1=%s", t, sign(cases[i].secret, t, PAUSED));
        struct sbx_webhook_secrets s;
        sbx_webhook_secrets_parse(&s, "k");
        int64_t off = 12345;
        assert_int_equal(sbx_webhook_verify(&s, h, strlen(h), PAUSED, strlen(PAUSED), T0_NS,
                                            SBX_WEBHOOK_TOLERANCE_S, &off),
                         cases[i].want);
        assert_int_equal(off, cases[i].want == SBX_SIG_MISMATCH ? 0 : cases[i].off_s);
        sbx_webhook_secrets_free(&s);

        struct sbx_buf in = SBX_BUF_INIT;
        char hdr[300];
        snprintf(hdr, sizeof hdr, "\"Runtime-Signature\": \"%s\"", h);
        delivery(&in, hdr, PAUSED);
        struct sbx_timeline *tl = load_deliveries(&in, "k");
        const struct sbx_event *e = on_line(tl, 1);
        assert_int_equal(e->u.life.signed_off_s, cases[i].kept);
        assert_string_equal(sbx_str(tl, e->u.life.id), "e9");
        assert_int_equal(!!(e->tflags & SBX_EVT_SIG_BAD), cases[i].want != SBX_SIG_OK);
        sbx_timeline_free(tl);
        free(tl);
        sbx_buf_free(&in);
    }
    char words[64];
    assert_string_equal(sbx_webhook_replay_words(600, words, sizeof words),
                        "signed 10 min 0 s after the event");
    assert_string_equal(sbx_webhook_replay_words(-301, words, sizeof words),
                        "signed 5 min 1 s before the event");
    assert_string_equal(sbx_sig_name(SBX_SIG_TOO_OLD), "replayed: signed too far from the event's time");
}

/* A replay of any kind of event keeps how late it was signed: a note and a
 * file watch as a lifecycle change does (the detail and check say it). */
static void replay_of_every_kind_keeps_the_time_difference(void **state)
{
    (void)state;
    static const struct {
        const char *body;
        int64_t created; /* the body's createdAt, Unix seconds */
        enum sbx_kind kind;
    } cases[] = {
        {PAUSED, 1791469920LL, SBX_EV_LIFECYCLE},
        {FILES, 1791469921LL, SBX_EV_FILES},
        {"{\"id\": \"e11\", \"type\": \"snapshot.created\", \"createdAt\": \"2026-10-08T14:32:00.000Z\", "
         "\"resourceId\": \"7f3a2c10\", \"data\": {}}",
         1791469920LL, SBX_EV_NOTE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int64_t off = -900; off <= 900; off += 300) {
            char t[24], h[256], hdr[300];
            snprintf(t, sizeof t, "%lld", (long long)(cases[i].created + off));
            snprintf(h, sizeof h, "t=%s,v1=%s", t, sign("k", t, cases[i].body));
            snprintf(hdr, sizeof hdr, "\"Runtime-Signature\": \"%s\"", h);
            struct sbx_buf in = SBX_BUF_INIT;
            delivery(&in, hdr, cases[i].body);
            struct sbx_timeline *tl = load_deliveries(&in, "k");
            const struct sbx_event *e = on_line(tl, 1);
            assert_int_equal(e->kind, cases[i].kind);
            /* within the tolerance (300 s either way) no replay */
            assert_int_equal(sbx_event_signed_off(e), off < -300 || off > 300 ? off : 0);
            sbx_timeline_free(tl);
            free(tl);
            sbx_buf_free(&in);
        }
}

static void importer_flags(void **state)
{
    (void)state;
    struct sbx_buf in = SBX_BUF_INIT;
    char h[512];
    const char *late = "1791473520"; /* an hour after the event */
    snprintf(h, sizeof h, "\"Runtime-Signature\": \"t=%s,v1=%s\"", T0, sign("new", T0, PAUSED));
    delivery(&in, h, PAUSED); /* 1: good */
    snprintf(h, sizeof h, "\"runtime-signature\": \"t=%s,v1=%s\"", T0, sign("old", T0, PAUSED));
    delivery(&in, h, PAUSED); /* 2: good, the header in lower case, the old secret */
    snprintf(h, sizeof h, "\"Runtime-Signature\": \"t=%s,v1=%s\"", T0, sign("wrong", T0, PAUSED));
    delivery(&in, h, PAUSED); /* 3: bad */
    delivery(&in, "\"Content-Type\": \"application/json\"", PAUSED); /* 4: no header */
    snprintf(h, sizeof h, "\"Runtime-Signature\": \"t=%s,v1=%s\"", late, sign("new", late, PAUSED));
    delivery(&in, h, PAUSED); /* 5: too old */
    snprintf(h, sizeof h, "\"Runtime-Signature\": \"t=%s,v1=%s\"", T0, sign("new", T0, "{}"));
    delivery(&in, h, PAUSED); /* 6: signed over another body */
    snprintf(h, sizeof h, "{\"headers\": {\"Runtime-Signature\": \"t=%s,v1=%s\"}, \"body\": %s}\n",
             T0, sign("new", T0, PAUSED), PAUSED);
    sbx_buf_adds(&in, h); /* 7: the body saved as an object: cannot be verified */
    delivery(&in, "\"Runtime-Signature\": \"t=1,v1=00\"", "not json"); /* 8: no event */
    snprintf(h, sizeof h, "\"Runtime-Signature\": \"t=%s,v1=%s\", \"RUNTIME-SIGNATURE\": \"t=1\"",
             T0, sign("new", T0, PAUSED));
    delivery(&in, h, PAUSED); /* 9: two signature headers */
    snprintf(h, sizeof h, "\"Runtime-Signature\": [\"t=%s,v1=%s\"]", T0, sign("new", T0, FILES));
    delivery(&in, h, FILES); /* 10: good, a header saved as a list; a files event */

    struct sbx_timeline *tl = load_deliveries(&in, "new, old");
    assert_int_equal(tl->n, 9);
    assert_int_equal(tl->nskips, 1);
    assert_int_equal(tl->skips[0].line, 8);
    assert_string_equal(tl->skips[0].reason, "webhook delivery whose body is not a JSON object");
    static const uint32_t ok[] = {1, 2, 10}, bad[] = {3, 4, 5, 6, 7, 9};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        const struct sbx_event *e = on_line(tl, ok[i]);
        assert_int_equal(e->tflags & (SBX_EVT_WEBHOOK | SBX_EVT_SIG_OK | SBX_EVT_SIG_BAD),
                         SBX_EVT_WEBHOOK | SBX_EVT_SIG_OK);
        assert_false(e->findings & SBX_F_BAD_SIGNATURE);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const struct sbx_event *e = on_line(tl, bad[i]);
        assert_int_equal(e->tflags & (SBX_EVT_WEBHOOK | SBX_EVT_SIG_OK | SBX_EVT_SIG_BAD),
                         SBX_EVT_WEBHOOK | SBX_EVT_SIG_BAD);
        assert_false(e->findings & SBX_F_BAD_SIGNATURE); /* the summary's to set */
    }
    const struct sbx_event *first = on_line(tl, 1);
    assert_int_equal(first->kind, SBX_EV_LIFECYCLE);
    assert_string_equal(sbx_str(tl, first->label), "sandbox.paused");
    assert_string_equal(sbx_str(tl, first->sandbox), "7f3a2c10");
    assert_string_equal(sbx_str(tl, first->u.life.previous), "running");
    assert_int_equal(first->start, T0_NS);
    assert_int_equal(first->line_off, 0);
    assert_memory_equal(sbx_event_line(tl, first), "{\"headers\"", 10);
    assert_int_equal(sbx_event_line(tl, first)[sbx_ev_line_len(first)], '\n');
    assert_true(on_line(tl, 7)->findings & SBX_F_BAD_FIELD);
    assert_int_equal(on_line(tl, 10)->kind, SBX_EV_FILES);
    assert_string_equal(sbx_files_path(tl, on_line(tl, 10)->u.files, SBX_CHANGED, 0), "/etc/hosts");

    /* the same check, one delivery at a time, says why */
    struct sbx_webhook_secrets s;
    sbx_webhook_secrets_parse(&s, "new,old");
    static const enum sbx_sig why[] = {SBX_SIG_OK,       SBX_SIG_OK,        SBX_SIG_MISMATCH,
                                       SBX_SIG_NO_HEADER, SBX_SIG_TOO_OLD,  SBX_SIG_MISMATCH,
                                       SBX_SIG_MALFORMED, SBX_SIG_MALFORMED, SBX_SIG_MALFORMED,
                                       SBX_SIG_OK};
    const char *p = in.p;
    for (int i = 0; i < 10; i++) {
        const char *nl = strchr(p, '\n');
        if (sbx_runtime_delivery_check(p, (size_t)(nl - p), &s) != why[i])
            fail_msg("delivery %d: %s", i + 1, sbx_sig_name(sbx_runtime_delivery_check(p, (size_t)(nl - p), &s)));
        p = nl + 1;
    }
    sbx_webhook_secrets_free(&s);
    sbx_timeline_free(tl);
    free(tl);

    /* no secret given: every delivery is a webhook event, none checked, also
       when the environment holds one (the command line reads it, not the importer) */
    setenv("RUNTIME_WEBHOOK_SECRET", "new, old", 1);
    tl = load_deliveries(&in, NULL);
    unsetenv("RUNTIME_WEBHOOK_SECRET");
    assert_int_equal(tl->n, 9);
    for (size_t i = 0; i < tl->n; i++) {
        assert_int_equal(sbx_tl_at(tl, i)->tflags & (SBX_EVT_WEBHOOK | SBX_EVT_SIG_OK | SBX_EVT_SIG_BAD),
                         SBX_EVT_WEBHOOK);
        assert_false(sbx_tl_at(tl, i)->findings & SBX_F_BAD_SIGNATURE);
    }
    assert_int_equal(sbx_runtime_delivery_check(in.p, strchr(in.p, '\n') - in.p, NULL),
                     SBX_SIG_UNCHECKED);
    sbx_timeline_free(tl);
    free(tl);
    sbx_buf_free(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_answer),     cmocka_unit_test(good_and_bad),
        cmocka_unit_test(rotated),          cmocka_unit_test(too_old),
        cmocka_unit_test(missing_malformed_unchecked), cmocka_unit_test(secrets_list),
        cmocka_unit_test(importer_flags),   cmocka_unit_test(replay_keeps_the_time_difference),
        cmocka_unit_test(replay_of_every_kind_keeps_the_time_difference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
