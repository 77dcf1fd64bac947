/* sha256sum manifests: each line checked here; the lines become evidence
 * only when the whole run is read (importers/mdiff.h: sbx_mdiff_link), so
 * this importer makes no events, only skips for lines that are not a
 * manifest's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "importers/mdiff.h"

/* Hex digit values, -1 for any other byte: a manifest of a big tree holds
 * millions of hashes, read twice (here and when paired). */
static const signed char hex_value[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
    ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
    ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hex_digit(char c)
{
    return hex_value[(unsigned char)c] - 1; /* stored plus one: 0 is "not a digit" */
}

static bool read_hash(const char *s, size_t n, unsigned char hash[32])
{
    if (n < 64)
        return false;
    int bad = 0;
    for (int i = 0; i < 32; i++) {
        int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
        bad |= hi | lo;
        hash[i] = (unsigned char)((unsigned)(hi & 15) << 4 | (unsigned)(lo & 15));
    }
    return bad >= 0 && (n == 64 || hex_digit(s[64]) < 0);
}

/* The name as written, decoded when the line was escaped. */
static bool add_name(struct sbx_buf *path, const char *s, size_t n, bool escaped)
{
    while (n >= 2 && s[0] == '.' && s[1] == '/' && n > 2) {
        s += 2;
        n -= 2;
    }
    if (!escaped) {
        sbx_buf_add(path, s, n);
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            sbx_buf_addc(path, s[i]);
            continue;
        }
        if (++i >= n)
            return false;
        char c = s[i] == '\\' ? '\\' : s[i] == 'n' ? '\n' : s[i] == 'r' ? '\r' : 0;
        if (!c)
            return false;
        sbx_buf_addc(path, c);
    }
    return true;
}

bool sbx_manifest_line(const char *line, size_t len, unsigned char hash[32], struct sbx_buf *path,
                       const char **why)
{
    sbx_buf_clear(path);
    if (len && line[len - 1] == '\r')
        len--;
    bool escaped = len && line[0] == '\\';
    const char *s = line + escaped;
    size_t n = len - escaped;
    if (n > 8 && memcmp(s, "SHA256 (", 8) == 0) {
        /* BSD form: SHA256 (path) = hex */
        if (n < 8 + 1 + 4 + 64 || memcmp(s + n - 68, ") = ", 4) != 0 || !read_hash(s + n - 64, 64, hash)) {
            *why = "not a manifest line (SHA256 (path) = 64 hex digits)";
            return false;
        }
        if (!add_name(path, s + 8, n - 8 - 68, escaped) || !path->len) {
            *why = "a manifest line whose file name cannot be read";
            return false;
        }
        return true;
    }
    if (!read_hash(s, n, hash) || n < 67 || s[64] != ' ' || (s[65] != ' ' && s[65] != '*')) {
        *why = "not a manifest line (64 hex digits, two spaces or \" *\", a file name)";
        return false;
    }
    if (!add_name(path, s + 66, n - 66, escaped) || !path->len) {
        *why = "a manifest line whose file name cannot be read";
        return false;
    }
    return true;
}

struct manifest_state {
    struct sbx_buf path;
};

static void *state_new(struct sbx_timeline *tl, uint32_t source,
                       const struct sbx_import_opts *opts)
{
    (void)opts; /* this format needs nothing from outside its file */
    (void)tl;
    (void)source;
    return sbx_xcalloc(1, sizeof(struct manifest_state));
}

static void state_free(void *p)
{
    struct manifest_state *st = p;
    sbx_buf_free(&st->path);
    free(st);
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

static enum sbx_line_status import_line(void *state, struct sbx_evbuf *out, const char *line,
                                        size_t len, uint64_t off, uint32_t line_no, char *reason,
                                        size_t reasonsz)
{
    struct manifest_state *st = state;
    (void)out;
    (void)off;
    (void)line_no;
    if (blank(line, len))
        return SBX_LINE_BLANK;
    unsigned char hash[32];
    const char *why;
    if (sbx_manifest_line(line, len, hash, &st->path, &why))
        return SBX_LINE_OK;
    snprintf(reason, reasonsz, "%s", why);
    return SBX_LINE_BAD;
}

/* A manifest: its first line that is not blank is a manifest line, and of
 * the first twenty such lines nearly all are. */
static bool detect(const char *data, size_t size)
{
    struct sbx_buf path = SBX_BUF_INIT;
    unsigned char hash[32];
    const char *why;
    int good = 0, bad = 0;
    const char *p = data, *end = data + size;
    while (p < end && good + bad < 20) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (!blank(p, len)) {
            if (sbx_manifest_line(p, len, hash, &path, &why))
                good++;
            else if (!good)
                break;
            else
                bad++;
        }
        p += len + 1;
    }
    sbx_buf_free(&path);
    return good > 0 && bad * 4 <= good;
}

const struct sbx_format sbx_format_manifest = {
    .name = "manifest",
    .detect = detect,
    .state_new = state_new,
    .state_free = state_free,
    .line = import_line,
    .derived = true,
};
