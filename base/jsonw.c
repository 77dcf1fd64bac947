#include "base/jsonw.h"

#include "base/utf8.h"

#include <inttypes.h>
#include <string.h>

void sbx_jw_init(struct sbx_jsonw *w, struct sbx_buf *out, bool pretty)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->pretty = pretty;
    w->first[0] = true;
}

static void newline(struct sbx_jsonw *w)
{
    if (!w->pretty)
        return;
    sbx_buf_addc(w->out, '\n');
    for (int i = 0; i < w->depth; i++)
        sbx_buf_add(w->out, "  ", 2);
}

void sbx_jw_spill(struct sbx_jsonw *w, size_t at, void (*spill)(void *ctx, const char *text, size_t len),
                  void *ctx)
{
    w->spill = spill;
    w->spill_ctx = ctx;
    w->spill_at = at;
}

/* Before a value: a comma and a new line unless it follows a key; out's
 * text spilled first when it is due (a point between two tokens). */
static void before_value(struct sbx_jsonw *w)
{
    if (w->spill && w->out->len >= w->spill_at) {
        w->spill(w->spill_ctx, w->out->p, w->out->len);
        sbx_buf_clear(w->out);
    }
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth > 0) {
        if (!w->first[w->depth])
            sbx_buf_addc(w->out, ',');
        newline(w);
    }
    w->first[w->depth] = false;
}

static void open_(struct sbx_jsonw *w, char c)
{
    before_value(w);
    sbx_buf_addc(w->out, c);
    if (w->depth + 1 < SBX_JSONW_MAX_DEPTH)
        w->depth++;
    w->first[w->depth] = true;
}

static void close_(struct sbx_jsonw *w, char c)
{
    bool empty = w->first[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (!empty)
        newline(w);
    sbx_buf_addc(w->out, c);
}

void sbx_jw_object(struct sbx_jsonw *w) { open_(w, '{'); }
void sbx_jw_array(struct sbx_jsonw *w) { open_(w, '['); }
void sbx_jw_end_object(struct sbx_jsonw *w) { close_(w, '}'); }
void sbx_jw_end_array(struct sbx_jsonw *w) { close_(w, ']'); }

void sbx_jw_key(struct sbx_jsonw *w, const char *key)
{
    before_value(w);
    sbx_buf_addc(w->out, '"');
    sbx_json_escape(w->out, key, strlen(key));
    sbx_buf_add(w->out, w->pretty ? "\": " : "\":", w->pretty ? 3 : 2);
    w->after_key = true;
}

static void add_u(struct sbx_buf *out, unsigned v)
{
    static const char hex[] = "0123456789abcdef";
    char b[6] = {'\\', 'u', hex[(v >> 12) & 15], hex[(v >> 8) & 15], hex[(v >> 4) & 15], hex[v & 15]};
    sbx_buf_add(out, b, 6);
}

void sbx_json_escape(struct sbx_buf *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && p[run] >= 0x20 && p[run] < 0x7F && p[run] != '"' && p[run] != '\\')
            run++;
        sbx_buf_add(out, p + i, run - i);
        i = run;
        if (i >= n)
            break;
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            sbx_buf_add(out, e, 2);
            i++;
        } else if (c == '\n') {
            sbx_buf_add(out, "\\n", 2);
            i++;
        } else if (c == '\t') {
            sbx_buf_add(out, "\\t", 2);
            i++;
        } else if (c < 0x80) {
            add_u(out, c);
            i++;
        } else {
            uint32_t cp;
            size_t len = sbx_utf8_decode(p + i, n - i, &cp);
            if (!len) {
                add_u(out, 0xFFFD);
                i++;
                continue;
            }
            if (cp >= 0x10000) {
                cp -= 0x10000;
                add_u(out, 0xD800 + (cp >> 10));
                add_u(out, 0xDC00 + (cp & 0x3FF));
            } else {
                add_u(out, cp);
            }
            i += len;
        }
    }
}

void sbx_jw_string(struct sbx_jsonw *w, const char *s, size_t n)
{
    before_value(w);
    sbx_buf_addc(w->out, '"');
    sbx_json_escape(w->out, s, n);
    sbx_buf_addc(w->out, '"');
}

void sbx_jw_cstr(struct sbx_jsonw *w, const char *s)
{
    if (s)
        sbx_jw_string(w, s, strlen(s));
    else
        sbx_jw_null(w);
}

void sbx_jw_int(struct sbx_jsonw *w, int64_t v)
{
    before_value(w);
    sbx_buf_addf(w->out, "%" PRId64, v);
}

void sbx_jw_null(struct sbx_jsonw *w)
{
    before_value(w);
    sbx_buf_add(w->out, "null", 4);
}

void sbx_jw_bool(struct sbx_jsonw *w, bool v)
{
    before_value(w);
    sbx_buf_adds(w->out, v ? "true" : "false");
}
