#include "render/theme.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sbx_theme_default(struct sbx_theme *t)
{
    for (int i = 0; i < SBX_STYLE_COUNT; i++)
        sbx_style_builtin((enum sbx_style)i, &t->look[i].fg, &t->look[i].bg, &t->look[i].attrs);
}

static const char *const color_names[] = {"black", "red", "green", "yellow",
                                          "blue", "magenta", "cyan", "white"};

static bool parse_color(const char *w, int *out)
{
    if (strcmp(w, "default") == 0) {
        *out = SBX_COLOR_DEFAULT;
        return true;
    }
    for (int i = 0; i < 8; i++)
        if (strcmp(w, color_names[i]) == 0) {
            *out = i;
            return true;
        }
    char *end;
    errno = 0;
    long v = strtol(w, &end, 10);
    if (*w && !*end && !errno && v >= 0 && v <= 255) {
        *out = (int)v;
        return true;
    }
    return false;
}

static bool parse_attr(const char *w, unsigned *attrs)
{
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {{"bold", SBX_ATTR_BOLD}, {"dim", SBX_ATTR_DIM},
                 {"underline", SBX_ATTR_UNDERLINE}, {"reverse", SBX_ATTR_REVERSE}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(w, names[i].name) == 0) {
            *attrs |= names[i].bit;
            return true;
        }
    return false;
}

/* One line, already cut from the file and NUL-terminated; false with why. */
static bool parse_line(struct sbx_theme *t, char *line, const char **why)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *words[8];
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save)) {
        if (n == 8) {
            *why = "too many words";
            return false;
        }
        words[n++] = w;
    }
    if (n == 0)
        return true;
    if (strcmp(words[0], "style") != 0 || n < 4) {
        *why = "expected: style NAME FOREGROUND BACKGROUND [ATTRIBUTE...]";
        return false;
    }
    int style = sbx_style_by_name(words[1]);
    if (style < 0) {
        *why = "unknown style name";
        return false;
    }
    struct sbx_look look = {0, 0, 0};
    if (!parse_color(words[2], &look.fg) || !parse_color(words[3], &look.bg)) {
        *why = "a colour is a name (red …), default, or 0-255";
        return false;
    }
    for (int i = 4; i < n; i++)
        if (!parse_attr(words[i], &look.attrs)) {
            *why = "an attribute is bold, dim, underline or reverse";
            return false;
        }
    t->look[style] = look;
    return true;
}

bool sbx_theme_parse(struct sbx_theme *t, const char *text, size_t n, char *err, size_t errsz)
{
    const char *p = text, *end = text + n;
    for (unsigned line_no = 1; p < end; line_no++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *line = sbx_xstrndup(p, len);
        const char *why = NULL;
        bool ok = memchr(p, '\0', len) == NULL && parse_line(t, line, &why);
        free(line);
        if (!ok) {
            snprintf(err, errsz, "line %u: %s", line_no, why ? why : "NUL byte");
            return false;
        }
        p += len + 1;
    }
    return true;
}

static bool read_small_file(const char *path, struct sbx_buf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0 && out->len < (1u << 20))
        sbx_buf_add(out, chunk, got);
    fclose(f);
    return true;
}

bool sbx_theme_load(struct sbx_theme *t, const char *name, const char *const *dirs, size_t ndirs,
                    char *err, size_t errsz)
{
    sbx_theme_default(t);
    if (!*name || strchr(name, '/')) {
        snprintf(err, errsz, "a theme name is a plain name, like default");
        return false;
    }
    for (size_t i = 0; i < ndirs; i++) {
        if (!dirs[i] || !*dirs[i])
            continue;
        struct sbx_buf path = SBX_BUF_INIT, text = SBX_BUF_INIT;
        sbx_buf_addf(&path, "%s/%s.theme", dirs[i], name);
        bool found = read_small_file(path.p, &text), ok = false;
        if (found) {
            char why[160];
            ok = sbx_theme_parse(t, text.p ? text.p : "", text.len, why, sizeof why);
            if (!ok)
                snprintf(err, errsz, "%s: %s", path.p, why);
        }
        sbx_buf_free(&path);
        sbx_buf_free(&text);
        if (found)
            return ok;
    }
    snprintf(err, errsz, "no theme called %s", name);
    return false;
}

void sbx_look_sgr(const struct sbx_look *l, struct sbx_buf *out)
{
    if (l->fg == SBX_COLOR_DEFAULT && l->bg == SBX_COLOR_DEFAULT && !l->attrs)
        return;
    sbx_buf_adds(out, "\033[0");
    if (l->attrs & SBX_ATTR_BOLD)
        sbx_buf_adds(out, ";1");
    if (l->attrs & SBX_ATTR_DIM)
        sbx_buf_adds(out, ";2");
    if (l->attrs & SBX_ATTR_UNDERLINE)
        sbx_buf_adds(out, ";4");
    if (l->attrs & SBX_ATTR_REVERSE)
        sbx_buf_adds(out, ";7");
    if (l->fg >= 0)
        sbx_buf_addf(out, l->fg < 8 ? ";3%d" : ";38;5;%d", l->fg);
    if (l->bg >= 0)
        sbx_buf_addf(out, l->bg < 8 ? ";4%d" : ";48;5;%d", l->bg);
    sbx_buf_addc(out, 'm');
}
