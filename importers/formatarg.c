#include "importers/formatarg.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const struct sbx_format *sbx_format_named(const char *name, size_t len)
{
    for (size_t i = 0; sbx_formats[i]; i++)
        if (strlen(sbx_formats[i]->name) == len && memcmp(sbx_formats[i]->name, name, len) == 0)
            return sbx_formats[i];
    return NULL;
}

void sbx_format_names(struct sbx_buf *out)
{
    for (size_t i = 0; sbx_formats[i]; i++)
        sbx_buf_addf(out, "%s%s", i ? ", " : "", sbx_formats[i]->name);
}

/* name, escaped to printable ASCII and cut, for a message */
static void quote_name(struct sbx_buf *b, const char *name, size_t len)
{
    for (size_t i = 0; i < len && i < 40; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c >= 0x7f || c == '\\' || c == '\'')
            sbx_buf_addf(b, "\\x%02x", c);
        else
            sbx_buf_addc(b, (char)c);
    }
    if (len > 40)
        sbx_buf_adds(b, "...");
}

static void unknown(const char *name, size_t len, const char *arg, char *err, size_t errsz)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, "unknown format '");
    quote_name(&b, name, len);
    sbx_buf_adds(&b, "'");
    if (arg) {
        sbx_buf_adds(&b, " in '");
        quote_name(&b, arg, strlen(arg));
        sbx_buf_adds(&b, "'");
    }
    sbx_buf_adds(&b, " (known: auto, ");
    sbx_format_names(&b);
    sbx_buf_adds(&b, arg ? "; a file of that name: write ./" : ")");
    if (arg) {
        quote_name(&b, arg, strlen(arg));
        sbx_buf_adds(&b, ")");
    }
    snprintf(err, errsz, "%s", b.p);
    sbx_buf_free(&b);
}

static bool lookup(const char *name, size_t len, const struct sbx_format **fmt)
{
    if (len == 4 && memcmp(name, "auto", 4) == 0) {
        *fmt = NULL;
        return true;
    }
    *fmt = sbx_format_named(name, len);
    return *fmt != NULL;
}

bool sbx_format_arg(const char *name, const struct sbx_format **fmt, char *err, size_t errsz)
{
    if (lookup(name, strlen(name), fmt))
        return true;
    unknown(name, strlen(name), NULL, err, errsz);
    return false;
}

static bool could_be_name(const char *s, size_t n)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return false;
    }
    return true;
}

bool sbx_input_arg(const char *arg, bool *named, const struct sbx_format **fmt, const char **path,
                   char *err, size_t errsz)
{
    *named = false;
    *fmt = NULL;
    *path = arg;
    const char *colon = strchr(arg, ':');
    struct stat st;
    if (!colon || arg[0] == '/' || arg[0] == '.' || lstat(arg, &st) == 0)
        return true;
    size_t len = (size_t)(colon - arg);
    if (!could_be_name(arg, len))
        return true;
    if (!lookup(arg, len, fmt) || !colon[1]) {
        if (!colon[1] && (*fmt || (len == 4 && memcmp(arg, "auto", 4) == 0)))
            snprintf(err, errsz, "'%.*s:' names no input (write %.*s:FILE, or %.*s:- for standard input)",
                     (int)len, arg, (int)len, arg, (int)len, arg);
        else
            unknown(arg, len, arg, err, errsz);
        return false;
    }
    *named = true;
    *path = colon + 1;
    return true;
}
