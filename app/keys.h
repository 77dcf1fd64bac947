/* Keys as the interface sees them, whatever sent them (the terminal or a
 * --keys script): a Unicode code point for a character, an ASCII control
 * code for Ctrl+letter, or one of the named keys below. Owns nothing. */
#ifndef SBX_KEYS_H
#define SBX_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    SBX_KEY_ENTER = '\n',
    SBX_KEY_ESC = 27,
    SBX_KEY_NAMED = 0x110000, /* past every code point */
    SBX_KEY_UP = SBX_KEY_NAMED,
    SBX_KEY_DOWN,
    SBX_KEY_LEFT,
    SBX_KEY_RIGHT,
    SBX_KEY_PGUP,
    SBX_KEY_PGDN,
    SBX_KEY_HOME,
    SBX_KEY_END,
    SBX_KEY_BACKSPACE,
    SBX_KEY_DELETE,
    SBX_KEY_TAB,
    SBX_KEY_BTAB,
    SBX_KEY_F1,
    SBX_KEY_F2,
    SBX_KEY_F3,
    SBX_KEY_ALT_SLASH,
    SBX_KEY_WHEEL_UP,   /* mouse: the position is passed beside the key */
    SBX_KEY_WHEEL_DOWN,
    SBX_KEY_CLICK,
    SBX_KEY_DOUBLE_CLICK,
    SBX_KEY_RESIZE,     /* the terminal changed size */
    SBX_KEY_LAST
};

static inline int sbx_ctrl(char c) { return c & 0x1f; }

/* "j", "Enter", "Ctrl-D", "PgDn", "F1", "Alt-/" … into buf (at least 16 bytes). */
const char *sbx_key_name(int key, char *buf);

/* "COLSxROWS" (each 1-1000, nothing after) into *cols and *rows. */
bool sbx_parse_size(const char *s, int *cols, int *rows);

/* One key from a key script, as --dump --keys takes them: a character
 * (UTF-8), "\n" Enter, "\e" Esc, "\t" Tab, "\\" a backslash, or a name in
 * angle brackets: <Up> <Down> <Left> <Right> <PgUp> <PgDn> <Home> <End>
 * <Enter> <Esc> <Tab> <BTab> <BS> <Del> <F1> <F2> <F3> <Alt-/> <C-x> (Ctrl+x)
 * <WheelUp> <WheelDown>, and <Resize:COLSxROWS> (*cols and *rows set).
 * Returns the bytes used (0 at the end), or SIZE_MAX for a bad name. */
size_t sbx_key_parse(const char *s, size_t n, int *key, int *cols, int *rows);

#endif
