#include "app/keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

static const struct {
    int key;
    const char *name;
} names[] = {
    {SBX_KEY_UP, "Up"},          {SBX_KEY_DOWN, "Down"},          {SBX_KEY_LEFT, "Left"},
    {SBX_KEY_RIGHT, "Right"},    {SBX_KEY_PGUP, "PgUp"},          {SBX_KEY_PGDN, "PgDn"},
    {SBX_KEY_HOME, "Home"},      {SBX_KEY_END, "End"},            {SBX_KEY_ENTER, "Enter"},
    {SBX_KEY_ESC, "Esc"},        {SBX_KEY_TAB, "Tab"},            {SBX_KEY_BTAB, "BTab"},
    {SBX_KEY_BACKSPACE, "BS"},   {SBX_KEY_DELETE, "Del"},         {SBX_KEY_F1, "F1"},
    {SBX_KEY_F2, "F2"},          {SBX_KEY_F3, "F3"},              {SBX_KEY_ALT_SLASH, "Alt-/"},
    {SBX_KEY_WHEEL_UP, "WheelUp"}, {SBX_KEY_WHEEL_DOWN, "WheelDown"}, {' ', "Space"},
};

bool sbx_parse_size(const char *s, int *cols, int *rows)
{
    char x;
    int used = -1;
    return sscanf(s, "%d%c%d%n", cols, &x, rows, &used) == 3 && x == 'x' && used >= 0 &&
           s[used] == '\0' && *cols >= 1 && *rows >= 1 && *cols <= 1000 && *rows <= 1000;
}

const char *sbx_key_name(int key, char *buf)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].key == key) {
            snprintf(buf, 16, "%s", names[i].name);
            return buf;
        }
    if (key > 0 && key < 32) {
        snprintf(buf, 16, "Ctrl-%c", key + 'A' - 1);
    } else if (key > 32 && key < 127) {
        snprintf(buf, 16, "%c", key);
    } else {
        snprintf(buf, 16, "U+%04X", (unsigned)key);
    }
    return buf;
}

size_t sbx_key_parse(const char *s, size_t n, int *key, int *cols, int *rows)
{
    if (n == 0)
        return 0;
    if (s[0] == '\\' && n >= 2) {
        switch (s[1]) {
        case 'n': *key = SBX_KEY_ENTER; return 2;
        case 'e': *key = SBX_KEY_ESC; return 2;
        case 't': *key = SBX_KEY_TAB; return 2;
        case '\\': *key = '\\'; return 2;
        case '<': *key = '<'; return 2;
        default: return SIZE_MAX;
        }
    }
    if (s[0] == '<') {
        const char *close = memchr(s, '>', n);
        if (!close || close == s + 1) { /* a lone '<' is the character */
            *key = '<';
            return 1;
        }
        size_t len = (size_t)(close - s - 1);
        const char *name = s + 1;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i].name) == len && memcmp(names[i].name, name, len) == 0) {
                *key = names[i].key;
                return len + 2;
            }
        if (len == 3 && name[0] == 'C' && name[1] == '-' && name[2] >= '@' && name[2] <= 'z') {
            *key = name[2] & 0x1f;
            return len + 2;
        }
        if (len > 7 && memcmp(name, "Resize:", 7) == 0) {
            char tmp[32];
            if (len - 7 >= sizeof tmp)
                return SIZE_MAX;
            memcpy(tmp, name + 7, len - 7);
            tmp[len - 7] = '\0';
            int c, r;
            if (!sbx_parse_size(tmp, &c, &r))
                return SIZE_MAX;
            *cols = c;
            *rows = r;
            *key = SBX_KEY_RESIZE;
            return len + 2;
        }
        return SIZE_MAX;
    }
    uint32_t cp;
    size_t len = sbx_utf8_decode((const unsigned char *)s, n, &cp);
    if (!len)
        return SIZE_MAX;
    *key = (int)cp;
    return len;
}
