#include "importers/describe.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analyses/secrets/secrets.h"
#include "importers/json/jsonscan.h"
#include "importers/readfile.h"

/* A first line longer than this is not parsed for its keys. */
enum { PARSE_MAX = 1 << 20, QUOTE_MAX = 40, KEY_MAX = 20, KEYS_SHOWN = 6, REDACT_MAX = 4096 };

struct out {
    char *p;
    size_t size, len;
};

static void put(struct out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n && o->len + 1 < o->size; i++)
        o->p[o->len++] = s[i];
    o->p[o->len] = '\0';
}

static void puts_(struct out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* Up to max bytes of s, redacted first (a .env file's token must not reach
 * a message, a summary or a ticket, nor its start when the quote is cut),
 * then escaped to printable ASCII; "..." when cut, and for a mask's "…". */
static void quote(struct out *o, const char *s, size_t n, size_t max)
{
    struct sbx_buf red = SBX_BUF_INIT;
    sbx_secrets_redact_any(s, n < REDACT_MAX ? n : REDACT_MAX, &red);
    s = red.p ? red.p : "";
    n = red.len;
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (n - i >= 3 && memcmp(s + i, "\xe2\x80\xa6", 3) == 0) {
            snprintf(esc, sizeof esc, "...");
            i += 2;
        } else if (c == '\\' || c == '\'')
            snprintf(esc, sizeof esc, "\\%c", c);
        else if (c == '\t')
            snprintf(esc, sizeof esc, "\\t");
        else if (c == 0x1b)
            snprintf(esc, sizeof esc, "\\e");
        else if (c < 0x20 || c >= 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", c);
        else
            snprintf(esc, sizeof esc, "%c", c);
        size_t len = strlen(esc);
        if (shown + len > max) {
            puts_(o, "...");
            break;
        }
        puts_(o, esc);
        shown += len;
    }
    sbx_buf_free(&red);
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void describe_json(struct out *o, const char *line, size_t len)
{
    struct sbx_jscan s;
    sbx_jscan_init(&s);
    if (len > PARSE_MAX) {
        puts_(o, "a JSON object too long to look into");
    } else if (sbx_jscan_line(&s, line, len)) {
        if (!s.n) {
            puts_(o, "an empty JSON object");
        } else {
            puts_(o, "a JSON object with keys ");
            for (size_t i = 0; i < s.n && i < KEYS_SHOWN; i++) {
                if (i)
                    puts_(o, ", ");
                quote(o, s.m[i].ukey, s.m[i].ukey_len, KEY_MAX);
            }
            if (s.n > KEYS_SHOWN) {
                char more[32];
                snprintf(more, sizeof more, " (+%zu more)", s.n - KEYS_SHOWN);
                puts_(o, more);
            }
        }
    } else if (s.err_code == SBX_JERR_TRUNCATED) {
        puts_(o, "the start of a JSON object that goes on over more lines");
    } else {
        char why[160];
        /* jsonscan's reasons are ASCII and quote no input bytes */
        snprintf(why, sizeof why, "JSON that does not parse (%s at byte %zu)", s.err, s.err_pos);
        puts_(o, why);
    }
    sbx_jscan_free(&s);
}

void sbx_describe_unread(const char *data, size_t size, char *buf, size_t bufsz)
{
    if (!bufsz)
        return;
    struct out o = {buf, bufsz, 0};
    buf[0] = '\0';
    const char *not_text = sbx_sniff_not_text(data, size);
    if (not_text) {
        puts_(&o, not_text);
        return;
    }
    if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3;
        size -= 3;
    }
    if (!size) {
        puts_(&o, "empty file");
        return;
    }
    const char *p = data, *end = data + size;
    while (p < end && blank(*p))
        p++;
    if (p == end) {
        puts_(&o, "only blank lines");
        return;
    }
    while (p > data && p[-1] != '\n')
        p--; /* the line's own indentation is part of it */
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (len && p[len - 1] == '\r')
        len--;
    const char *q = p;
    while (q < p + len && blank(*q))
        q++;
    puts_(&o, "no format matches: first line ");
    if (*q == '{') {
        puts_(&o, "looks like ");
        describe_json(&o, p, len);
    } else if (*q == '[') {
        puts_(&o, "looks like a JSON array: '");
        quote(&o, p, len, QUOTE_MAX);
        puts_(&o, "'");
    } else {
        puts_(&o, "is text: '");
        quote(&o, p, len, QUOTE_MAX);
        puts_(&o, "'");
    }
}

void sbx_skip_nul_tail(struct sbx_timeline *tl, uint32_t source, size_t nul_bytes)
{
    const struct sbx_source *src = &tl->sources[source];
    uint64_t lines = 1;
    for (const char *p = src->data, *end = p + src->size; p < end; lines++) {
        p = memchr(p, '\n', (size_t)(end - p));
        if (!p)
            break;
        p++;
    }
    struct sbx_evbuf b = {0};
    sbx_evbuf_skip(&b, tl, source, lines > UINT32_MAX ? UINT32_MAX : (uint32_t)lines,
                   "%zu NUL byte%s from byte %zu to the end (what a crash leaves)",
                   nul_bytes, nul_bytes == 1 ? "" : "s", src->size + 1);
    sbx_timeline_adopt(tl, &b);
}
