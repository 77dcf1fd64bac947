#include "importers/review.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "importers/json/jsonerr.h"
#include "importers/json/jsonload.h"
#include "importers/readfile.h"
#include "model/evid.h"
#include "model/findings.h"

enum { LINE_MAX_BYTES = 1 << 20 };

bool sbx_review_item_valid(const char *s, size_t n, bool finding_only)
{
    const char *slash = memchr(s, '/', n);
    size_t idn = slash ? (size_t)(slash - s) : n;
    if (idn < SBX_EVID_CHARS || !sbx_evid_prefix_valid(s, idn) ||
        (idn > SBX_EVID_CHARS && idn == SBX_EVID_CHARS + 1))
        return false;
    if (!slash)
        return !finding_only;
    char kind[64];
    size_t kn = n - idn - 1;
    if (!kn || kn >= sizeof kind)
        return false;
    memcpy(kind, slash + 1, kn);
    kind[kn] = '\0';
    return sbx_finding_by_name(kind) != 0;
}

bool sbx_review_tag_valid(const char *s)
{
    size_t n = strlen(s);
    if (!n || n > 64)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == ':' || c == '-'))
            return false;
    }
    return true;
}

/* A string member: NULL when absent; *bad when present but not a string
 * (or holding a NUL). */
static const char *str_member(json_t *o, const char *key, bool *bad)
{
    json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v)) {
        *bad = true;
        return NULL;
    }
    return json_string_value(v);
}

static char *dup_or_null(const char *s)
{
    return s ? sbx_xstrndup(s, strlen(s)) : NULL;
}

#define ID_CHARS "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-"

static bool hex64(const char *s)
{
    return s && strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

/* A target as sbxview writes one: printable ASCII, no space, a ':' after
 * the service's name. */
static bool target_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (!n || n > 300 || !memchr(s, ':', n) || s[0] == ':')
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] <= ' ' || s[i] > '~')
            return false;
    return true;
}

/* A "posted" line (what an export posted, model/review.h) into r->posts. */
static bool read_post(struct sbx_review *r, json_t *o, uint32_t file, uint32_t line_no,
                      int64_t when, const char *author, char *why, size_t whysz)
{
    bool bad = false;
    const char *target = str_member(o, "target", &bad), *exported = str_member(o, "export", &bad),
               *body = str_member(o, "body", &bad), *comment = str_member(o, "comment", &bad),
               *server = str_member(o, "server", &bad);
    if (bad) {
        snprintf(why, whysz, "a member is not a string (or holds a NUL)");
        return false;
    }
    if (!target_valid(target)) {
        snprintf(why, whysz, "\"target\" is not an export target (SERVICE:...)");
        return false;
    }
    if (!hex64(exported) || !hex64(body)) {
        snprintf(why, whysz, "\"export\" and \"body\" are not 64 hex digits each");
        return false;
    }
    if (comment && (!comment[0] || strlen(comment) > 64 ||
                    strspn(comment, ID_CHARS) !=
                        strlen(comment))) {
        snprintf(why, whysz, "\"comment\" is not 1 to 64 of A-Z a-z 0-9 _ -");
        return false;
    }
    if (server && (!server[0] || strlen(server) > SBX_REVIEW_SERVER_MAX ||
                   strspn(server, SBX_REVIEW_SERVER_CHARS) != strlen(server))) {
        snprintf(why, whysz, "\"server\" is not a host in lower case (1 to 255 of a-z 0-9 . - : [ ])");
        return false;
    }
    struct sbx_review_post *p = sbx_review_push_post(r);
    p->target = dup_or_null(target);
    p->server = dup_or_null(server);
    p->exported = dup_or_null(exported);
    p->body = dup_or_null(body);
    p->comment = dup_or_null(comment);
    p->author = dup_or_null(author);
    p->at = when;
    p->file = file;
    p->line = line_no;
    return true;
}

/* One line to an operation; false with the reason. */
static bool read_line(struct sbx_review *r, uint32_t file, uint32_t line_no, const char *s,
                      size_t n, char *why, size_t whysz)
{
    if (n > LINE_MAX_BYTES) {
        snprintf(why, whysz, "the line is longer than %d bytes", LINE_MAX_BYTES);
        return false;
    }
    json_error_t e;
    json_t *o = sbx_json_load(s, n, JSON_DECODE_ANY, NULL, &e);
    if (!o) {
        snprintf(why, whysz, "not JSON: %s (byte %d)", sbx_json_problem(&e), e.position);
        return false;
    }
    bool ok = false, bad = false;
    json_t *magic = json_object_get(o, SBX_REVIEW_MAGIC);
    const char *opname, *at, *author, *item, *to, *text, *reason, *tag, *state;
    if (!json_is_object(o)) {
        snprintf(why, whysz, "not a JSON object");
        goto done;
    }
    if (!json_is_integer(magic)) {
        snprintf(why, whysz, "no \"%s\": %d (not a review line)", SBX_REVIEW_MAGIC, SBX_REVIEW_VERSION);
        goto done;
    }
    if (json_integer_value(magic) != SBX_REVIEW_VERSION) {
        snprintf(why, whysz, "\"%s\" is %lld; this sbxview reads version %d", SBX_REVIEW_MAGIC,
                 (long long)json_integer_value(magic), SBX_REVIEW_VERSION);
        goto done;
    }
    opname = str_member(o, "op", &bad);
    at = str_member(o, "at", &bad);
    author = str_member(o, "author", &bad);
    item = str_member(o, "item", &bad);
    to = str_member(o, "to", &bad);
    text = str_member(o, "text", &bad);
    reason = str_member(o, "reason", &bad);
    tag = str_member(o, "tag", &bad);
    state = str_member(o, "state", &bad);
    if (bad) {
        snprintf(why, whysz, "a member is not a string (or holds a NUL)");
        goto done;
    }
    enum sbx_review_op_kind kind =
        opname ? sbx_review_op_by_name(opname, strlen(opname)) : SBX_REVIEW_OP_COUNT;
    bool posted = opname && strcmp(opname, SBX_REVIEW_POSTED) == 0;
    if (kind == SBX_REVIEW_OP_COUNT && !posted) {
        snprintf(why, whysz, opname ? "unknown \"op\" (mark, unmark, note, tag, untag, triage, verdict, posted)"
                                    : "no \"op\"");
        goto done;
    }
    int64_t when = SBX_TIME_UNKNOWN;
    unsigned tflags = 0;
    if (!at || !sbx_time_parse(at, strlen(at), &when, &tflags) || when == SBX_TIME_UNKNOWN) {
        snprintf(why, whysz, "\"at\" is not an ISO 8601 time");
        goto done;
    }
    if (!author) {
        snprintf(why, whysz, "no \"author\"");
        goto done;
    }
    if (posted) {
        ok = read_post(r, o, file, line_no, when, author, why, whysz);
        goto done;
    }
    const char *needs = sbx_review_op_needs(kind);
    bool triage = kind == SBX_REVIEW_TRIAGE;
    if (strchr(needs, 'I') && (!item || !sbx_review_item_valid(item, strlen(item), triage))) {
        snprintf(why, whysz, triage ? "\"item\" is not a finding id (ID/kind)" : "\"item\" is not an event id");
        goto done;
    }
    if (!strchr(needs, 'I'))
        item = NULL;
    if (to && (!(kind == SBX_REVIEW_NOTE || kind == SBX_REVIEW_TAG || kind == SBX_REVIEW_UNTAG) ||
               !sbx_review_item_valid(to, strlen(to), false) || strchr(to, '/'))) {
        snprintf(why, whysz, "\"to\" is not an event id ending a range of a note or tag");
        goto done;
    }
    if (strchr(needs, 'T') && !text) {
        snprintf(why, whysz, "a note without \"text\"");
        goto done;
    }
    if (strchr(needs, 'G') && (!tag || !sbx_review_tag_valid(tag))) {
        snprintf(why, whysz, "\"tag\" is not 1 to 64 of A-Z a-z 0-9 . _ : -");
        goto done;
    }
    if (strchr(needs, 'S') &&
        !(triage ? sbx_triage_state_valid(state) : sbx_verdict_state_valid(state))) {
        snprintf(why, whysz, "\"state\" is not one of %s",
                 triage ? sbx_triage_states_text() : sbx_verdict_states_text());
        goto done;
    }
    struct sbx_review_op *op = sbx_review_push(r);
    op->kind = kind;
    op->item = dup_or_null(item);
    op->to = dup_or_null(to);
    op->text = dup_or_null(strchr(needs, 'T') ? text : strchr(needs, 'S') ? reason : NULL);
    op->tag = dup_or_null(strchr(needs, 'G') ? tag : NULL);
    op->state = dup_or_null(strchr(needs, 'S') ? state : NULL);
    op->author = dup_or_null(author);
    op->at = when;
    op->file = file;
    op->line = line_no;
    ok = true;
done:
    json_decref(o);
    return ok;
}

void sbx_review_read_bytes(struct sbx_review *r, uint32_t file, const char *data, size_t n)
{
    size_t i = 0;
    uint32_t line_no = 0;
    if (n >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n) {
        const char *nl = memchr(data + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - data) : n;
        size_t len = end - i;
        line_no++;
        if (len && data[i + len - 1] == '\r')
            len--;
        bool blank = true;
        for (size_t k = 0; k < len && blank; k++)
            blank = data[i + k] == ' ' || data[i + k] == '\t';
        char why[256];
        if (!blank && !read_line(r, file, line_no, data + i, len, why, sizeof why))
            sbx_review_problem(r, file, line_no, why);
        i = nl ? end + 1 : n;
    }
}

bool sbx_review_read_file(struct sbx_review *r, const char *path, char *err, size_t errsz)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return true;
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return false;
    }
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbx_buf_add(&b, chunk, got);
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        snprintf(err, errsz, "%s: could not be read", path);
        sbx_buf_free(&b);
        return false;
    }
    uint32_t file = sbx_review_add_file(r, path);
    sbx_review_read_bytes(r, file, b.p ? b.p : "", b.len);
    sbx_buf_free(&b);
    return true;
}
