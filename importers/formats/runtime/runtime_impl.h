/* Internal to the Runtime importers (importers/formats/runtime/runtime*.c): the state each
 * import keeps, the record kinds, and the helpers their item readers share.
 *
 * runtime.c knows the saved shapes (items as JSONL, an array, a page, pages
 * one per line, any of them printed over many lines) and hands each item, a
 * JSON object already validated by jansson, to its kind's reader together
 * with the item's own bytes in the source.
 *
 * Ownership: a state is made by sbx_rt_state_new and freed by
 * sbx_rt_state_free (it wipes its copy of the webhook secrets). Events and
 * skips go to the caller's evbuf; interned strings to the timeline. */
#ifndef SBX_RUNTIME_IMPL_H
#define SBX_RUNTIME_IMPL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importers/format.h"
#include "analyses/webhook.h"

enum { SBX_RT_CACHE = 256, SBX_RT_CACHE_MAX = 48 };

/* A small cache of interned strings: sandbox ids, programs and actors repeat
 * on nearly every item, and the string table takes a lock. */
struct sbx_rt_cached {
    uint64_t hash;
    uint32_t id, len;
    char s[SBX_RT_CACHE_MAX];
};

struct sbx_rt_kind;

struct sbx_rt_state {
    struct sbx_timeline *tl;
    uint32_t source;
    const char *base; /* the source's bytes: events keep offsets into them */
    const struct sbx_rt_kind *kind;
    struct sbx_webhook_secrets secrets; /* webhook deliveries only */
    /* line numbers: `at` (a byte of the text being imported) is on line `line`;
       positions asked for only move forward */
    const char *at;
    uint32_t line;
    struct sbx_rt_cached cache[SBX_RT_CACHE];
};

/* Reads one item (a JSON object) into events; text[0..len) is the item's own
 * JSON text in the source. False (nothing pushed) when the item cannot be
 * read, with the reason (ASCII, quoting no input). Problems inside an item
 * that leave the rest readable are reported by the reader itself (a field
 * of the wrong type: SBX_F_BAD_FIELD; a broken metrics point: a skip). */
typedef bool (*sbx_rt_item_fn)(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *item,
                               const char *text, size_t len, char *reason, size_t reasonsz);

struct sbx_rt_kind {
    const char *name;      /* "command record", … for reasons */
    const char *sig[3][2]; /* keys every item has, camelCase and snake_case; NULL ends */
    bool audit_envelope;   /* {"events": [...], "next": …} says this kind even when empty */
    sbx_rt_item_fn item;
};

extern const struct sbx_rt_kind sbx_rt_commands, sbx_rt_events, sbx_rt_audit, sbx_rt_metrics,
    sbx_rt_webhooks;

/* The format callbacks, shared by every kind (runtime.c). */
/* The webhook secrets are parsed from opts into the state (wiped when freed). */
void *sbx_rt_state_new(struct sbx_timeline *tl, uint32_t source, const struct sbx_rt_kind *kind,
                       const struct sbx_import_opts *opts);
void sbx_rt_state_free(void *state);
bool sbx_rt_detect(const struct sbx_rt_kind *kind, const char *data, size_t size);
enum sbx_line_status sbx_rt_line(void *state, struct sbx_evbuf *out, const char *line, size_t len,
                                 uint64_t off, uint32_t line_no, char *reason, size_t reasonsz);
bool sbx_rt_spans_lines(const char *data, size_t size);
void sbx_rt_file(void *state, struct sbx_evbuf *out, const char *data, size_t size, uint64_t off);

/* Helpers for the item readers (runtime_items.c). */

/* The line of p (at or after the last position asked for). */
uint32_t sbx_rt_line_of(struct sbx_rt_state *st, const char *p);
/* A skip at the line of p. */
void sbx_rt_skip(struct sbx_rt_state *st, struct sbx_evbuf *out, const char *p, const char *fmt,
                 ...) __attribute__((format(printf, 4, 5)));
/* A new event whose raw text is text[0..len), on the line where it starts. */
struct sbx_event *sbx_rt_push(struct sbx_rt_state *st, struct sbx_evbuf *out, const char *text,
                              size_t len);
/* A member by either spelling (snake may be NULL); NULL when absent. */
json_t *sbx_rt_get(json_t *o, const char *camel, const char *snake);
/* The id of a string's bytes; 0 for the empty string. */
uint32_t sbx_rt_intern(struct sbx_rt_state *st, const char *s, size_t n);
/* A string member interned: 0 when absent or null; 0 and *bad set when of
 * another type. */
uint32_t sbx_rt_string(struct sbx_rt_state *st, json_t *v, bool *bad);
/* An ISO 8601 time: false when v is no string or no valid time. */
bool sbx_rt_time(json_t *v, int64_t *ns, uint8_t *tflags);
/* The value of member `key` in the object text[0..len) (already valid
 * JSON): false when absent. */
bool sbx_rt_member(const char *text, size_t len, const char *key, const char **v,
                   const char **vend);

/* What an audit entry changed (runtime_audit.c): a's family and its facts
 * from detail (an object, or NULL), *bad for a field of the wrong type. */
void sbx_rt_audit_change(struct sbx_rt_state *st, struct sbx_audit *a, const char *action,
                         json_t *detail, json_t *target, bool *bad);

/* A lifecycle event (the events kind's reader, also a webhook's body): the
 * event pushed, or NULL with the reason. */
struct sbx_event *sbx_rt_lifecycle(struct sbx_rt_state *st, struct sbx_evbuf *out, json_t *item,
                                   const char *text, size_t len, char *reason, size_t reasonsz);

#endif
