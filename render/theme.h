/* Themes: how each style (render/style.h) looks. A theme file has one line
 * per style, `style NAME FOREGROUND BACKGROUND [ATTRIBUTE...]`, with colours
 * `default`, the eight names (black red green yellow blue magenta cyan
 * white) or 0-255, attributes bold dim underline reverse, and `#` comments.
 * Styles a file leaves out keep the built-in default theme's look.
 *
 * A theme called NAME is the file NAME.theme in the first of the folders
 * the caller names that holds one (the command line names the user's,
 * then the installed one: cli/cli_util.h); nothing here reads the
 * environment.
 * Ownership: the caller owns the sbx_theme (a plain value); nothing to free. */
#ifndef SBX_THEME_H
#define SBX_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "render/style.h"

enum { SBX_COLOR_DEFAULT = -1 };
enum { SBX_ATTR_BOLD = 1u, SBX_ATTR_DIM = 2u, SBX_ATTR_UNDERLINE = 4u, SBX_ATTR_REVERSE = 8u };

struct sbx_look {
    int fg, bg; /* 0-255 or SBX_COLOR_DEFAULT */
    unsigned attrs;
};

struct sbx_theme {
    struct sbx_look look[SBX_STYLE_COUNT];
};

/* The built-in default: readable on dark and light terminals (no fixed
 * background, colours that keep contrast on both). */
void sbx_theme_default(struct sbx_theme *t);

/* Applies theme text (the contents of a theme file) over t. Returns false
 * with "line N: reason" in err at the first bad line (lines before it apply). */
bool sbx_theme_parse(struct sbx_theme *t, const char *text, size_t n, char *err, size_t errsz);

/* Finds NAME.theme in dirs[0..ndirs), in order (NULL and "" entries are
 * passed over), and applies it over the default. False with a reason when
 * no folder holds it or the first that does holds a bad one. */
bool sbx_theme_load(struct sbx_theme *t, const char *name, const char *const *dirs, size_t ndirs,
                    char *err, size_t errsz);

/* The SGR escape sequence that turns a look on ("" for a plain look). */
void sbx_look_sgr(const struct sbx_look *l, struct sbx_buf *out);

#endif
