/* jansson with the three tolerances of jsonload.h: the flags do the first
 * two; integers beyond int64 are rewritten as strings in a copy of the
 * text, only after jansson has said a number was out of range. */
#include "importers/json/jsonload.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "importers/json/jsonscan.h"

static bool num_char(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

int sbx_json_bigint(const char *tok, size_t len)
{
    enum sbx_jtype type;
    int64_t i;
    double d;
    const char *why = sbx_json_number(tok, len, &type, &i, &d);
    return why && strcmp(why, "integer out of range") == 0;
}

/* text with every integer beyond int64 in a value's place put in quotes
 * (never one where a key belongs: that would make a key of it), into out;
 * starts[] gets where each one began in text. False when there is none (the
 * number out of range was a real, or text nests deeper than jansson reads). */
static bool quote_bigints(const char *text, size_t len, struct sbx_buf *out, size_t **starts,
                          size_t *n)
{
    enum { DEPTH = 2048 }; /* jansson's own limit */
    char open[DEPTH];      /* the brackets around the place being read */
    size_t depth = 0, i = 0, from = 0, cap = 0;
    char prev = 0;         /* the last byte outside strings and white space */
    while (i < len) {
        char c = text[i];
        if (c == '"') {
            for (i++; i < len && text[i] != '"'; i++)
                if (text[i] == '\\')
                    i++;
            i++;
            prev = '"';
            continue;
        }
        if (c == '[' || c == '{') {
            if (depth == DEPTH)
                return false;
            open[depth++] = c;
        } else if ((c == ']' || c == '}') && depth) {
            depth--;
        }
        if (c != '-' && !(c >= '0' && c <= '9')) {
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                prev = c;
            i++;
            continue;
        }
        size_t t = i;
        while (i < len && num_char(text[i]))
            i++;
        bool value = depth == 0 || prev == ':' ||
                     (open[depth - 1] == '[' && (prev == '[' || prev == ','));
        prev = '0';
        if (!value || !sbx_json_bigint(text + t, i - t))
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 4;
            *starts = sbx_xrealloc(*starts, cap * sizeof **starts);
        }
        (*starts)[(*n)++] = t;
        sbx_buf_add(out, text + from, t - from);
        sbx_buf_addc(out, '"');
        sbx_buf_add(out, text + t, i - t);
        sbx_buf_addc(out, '"');
        from = i;
        /* jansson loses one NUL byte read just after a number: so does the copy */
        if (i < len && text[i] == '\0') {
            sbx_buf_addc(out, ' ');
            from = ++i;
        }
    }
    if (*n == 0)
        return false;
    sbx_buf_add(out, text + from, len - from);
    return true;
}

/* A position in the rewritten copy, as a position in the original text. */
static int original_pos(int pos, const size_t *starts, size_t n)
{
    long p = pos;
    for (size_t k = 0; k < n; k++) {
        long open = (long)(starts[k] + 2 * k); /* the added '"' before token k */
        if (p <= open)
            break;
        p -= p == open + 1 ? 1 : 2;
    }
    return (int)p;
}

json_t *sbx_json_load(const char *text, size_t len, size_t flags, unsigned *facts,
                      json_error_t *e)
{
    json_error_t local;
    if (!e)
        e = &local;
    unsigned f = 0;
    size_t jflags = flags | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES;
    struct sbx_buf copy = SBX_BUF_INIT;
    size_t *starts = NULL, nstarts = 0;
    const char *t = text;
    size_t tlen = len;
    json_t *v;
    for (;;) {
        v = json_loadb(t, tlen, jflags, e);
        if (v)
            break;
        enum json_error_code code = json_error_code(e);
        if (code == json_error_duplicate_key && (jflags & JSON_REJECT_DUPLICATES)) {
            jflags &= ~(size_t)JSON_REJECT_DUPLICATES;
            f |= SBX_JLOAD_DUPLICATE;
            continue;
        }
        if (code == json_error_numeric_overflow && t == text &&
            quote_bigints(text, len, &copy, &starts, &nstarts)) {
            t = copy.p;
            tlen = copy.len;
            f |= SBX_JLOAD_BIGINT;
            continue;
        }
        break;
    }
    if (!v && nstarts)
        e->position = original_pos(e->position, starts, nstarts);
    free(starts);
    sbx_buf_free(&copy);
    if (facts)
        *facts = v ? f : 0;
    return v;
}

void sbx_jload_mark(struct sbx_evbuf *out, size_t from, unsigned facts)
{
    if (!(facts & SBX_JLOAD_DUPLICATE))
        return;
    for (size_t i = from; i < out->n; i++)
        sbx_evbuf_at(out, i)->tflags |= SBX_EVT_DUP_FIELD;
}
