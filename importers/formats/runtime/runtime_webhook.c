/* Webhook deliveries saved with their headers: {"headers": {...}, "body":
 * "<raw body>"}. The body is a lifecycle event; its signature is checked
 * over the body's exact bytes (the JSON string decoded), so a body saved as
 * an object instead cannot be verified. */
#include <stdint.h>
#include <stdio.h>
#include <strings.h>

#include "importers/formats/runtime/runtime.h"
#include "importers/formats/runtime/runtime_impl.h"
#include "importers/json/jsonload.h"
#include "base/timefmt.h"
#include "model/files.h"

/* The signature header's value; NULL when absent. Header names are
 * case-insensitive; two headers by that name, or a value that is not one
 * string (a list of one string is accepted), make it malformed. */
static const char *signature_header(json_t *headers, size_t *len, bool *malformed)
{
    const char *key, *found = NULL;
    json_t *v;
    int n = 0;
    if (!json_is_object(headers))
        return NULL;
    json_object_foreach(headers, key, v)
    {
        if (strcasecmp(key, "Runtime-Signature") != 0)
            continue;
        if (++n > 1) {
            *malformed = true;
            return NULL;
        }
        if (json_is_array(v) && json_array_size(v) == 1)
            v = json_array_get(v, 0);
        if (!json_is_string(v)) {
            *malformed = true;
            return NULL;
        }
        found = json_string_value(v);
        *len = json_string_length(v);
    }
    return found;
}

static enum sbx_sig delivery_sig(const struct sbx_webhook_secrets *secrets, json_t *headers,
                                 const char *body, size_t body_len, int64_t at, int64_t *off_s)
{
    *off_s = 0;
    if (!secrets || secrets->n == 0)
        return SBX_SIG_UNCHECKED;
    bool malformed = false;
    size_t len = 0;
    const char *h = signature_header(headers, &len, &malformed);
    if (malformed || !body)
        return SBX_SIG_MALFORMED;
    return sbx_webhook_verify(secrets, h, len, body, body_len, at, SBX_WEBHOOK_TOLERANCE_S, off_s);
}

static bool read_delivery(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *o,
                          const char *text, size_t len, char *reason, size_t reasonsz)
{
    json_t *headers = json_object_get(o, "headers"), *body = json_object_get(o, "body");
    const char *raw = NULL;
    size_t raw_len = 0;
    json_t *ev;
    unsigned facts = 0; /* of the body, a JSON text of its own */
    bool bad = headers && !json_is_object(headers);
    if (json_is_string(body)) {
        raw = json_string_value(body);
        raw_len = json_string_length(body);
        ev = sbx_json_load(raw, raw_len, 0, &facts, NULL);
        if (!json_is_object(ev)) {
            json_decref(ev);
            snprintf(reason, reasonsz, "webhook delivery whose body is not a JSON object");
            return false;
        }
    } else if (json_is_object(body)) {
        ev = json_incref(body); /* saved parsed: readable, but its signed bytes are gone */
        bad = true;
    } else {
        snprintf(reason, reasonsz, "webhook delivery %s",
                 body ? "whose body is not a string" : "without a body");
        return false;
    }
    char why[160];
    struct sbx_event *e = sbx_rt_lifecycle(st, out, ev, text, len, why, sizeof why);
    json_decref(ev);
    if (!e) {
        snprintf(reason, reasonsz, "webhook body: %s", why);
        return false;
    }
    e->tflags |= SBX_EVT_WEBHOOK | (facts & SBX_JLOAD_DUPLICATE ? SBX_EVT_DUP_FIELD : 0);
    int64_t off_s;
    enum sbx_sig sig = delivery_sig(&st->secrets, headers, raw, raw_len, e->start, &off_s);
    if (sig == SBX_SIG_OK) {
        e->tflags |= SBX_EVT_SIG_OK;
    } else if (sig != SBX_SIG_UNCHECKED) {
        e->tflags |= SBX_EVT_SIG_BAD; /* the records analysis makes it a finding */
    }
    if (sig == SBX_SIG_TOO_OLD) { /* a replay, and how late */
        int32_t off = (int32_t)(off_s > INT32_MAX ? INT32_MAX : off_s < -INT32_MAX ? -INT32_MAX : off_s);
        if (e->kind == SBX_EV_FILES && e->u.files)
            sbx_files_more_mut(e->u.files)->signed_off_s = off;
        else if (e->kind == SBX_EV_LIFECYCLE || e->kind == SBX_EV_NOTE)
            e->u.life.signed_off_s = off;
    }
    if (bad)
        e->findings |= SBX_F_BAD_FIELD;
    return true;
}

enum sbx_sig sbx_runtime_delivery_check(const char *json, size_t len,
                                        const struct sbx_webhook_secrets *secrets)
{
    if (!secrets || secrets->n == 0)
        return SBX_SIG_UNCHECKED;
    enum sbx_sig r = SBX_SIG_MALFORMED;
    json_t *o = sbx_json_load(json, len, 0, NULL, NULL);
    json_t *body = json_object_get(o, "body");
    json_t *ev = json_is_string(body) ? sbx_json_load(json_string_value(body),
                                                      json_string_length(body), 0, NULL, NULL)
                                      : NULL;
    int64_t at, off_s;
    uint8_t tf;
    if (json_is_object(ev) && sbx_rt_time(sbx_rt_get(ev, "createdAt", "created_at"), &at, &tf))
        r = delivery_sig(secrets, json_object_get(o, "headers"), json_string_value(body),
                         json_string_length(body), at, &off_s);
    json_decref(ev);
    json_decref(o);
    return r;
}

const struct sbx_rt_kind sbx_rt_webhooks = {
    "webhook delivery", {{"headers", NULL}, {"body", NULL}}, false, read_delivery};
