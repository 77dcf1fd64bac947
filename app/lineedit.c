/* The status line's one-line editor: see app/lineedit.h. */
#include "app/lineedit.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"
#include "app/keys.h"

static bool is_cont(char c)
{
    return ((unsigned char)c & 0xc0) == 0x80;
}

static size_t encode(uint32_t cp, char u[4])
{
    if (cp < 0x80) {
        u[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    u[0] = (char)(0xf0 | cp >> 18);
    u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    u[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A code point the text may hold: not a control, not a surrogate. */
static bool typable(uint32_t cp)
{
    return cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp < 0xa0) &&
           !(cp >= 0xd800 && cp <= 0xdfff) && cp < 0x110000;
}

static void insert(struct sbx_lineedit *ed, uint32_t cp)
{
    char u[4];
    size_t n = encode(cp, u);
    if (ed->text.len + n > SBX_LINEEDIT_MAX)
        return;
    sbx_buf_reserve(&ed->text, n + 1);
    memmove(ed->text.p + ed->cursor + n, ed->text.p + ed->cursor, ed->text.len - ed->cursor + 1);
    memcpy(ed->text.p + ed->cursor, u, n);
    ed->text.len += n;
    ed->cursor += n;
}

/* Deletes text[from..to). */
static void cut(struct sbx_lineedit *ed, size_t from, size_t to)
{
    memmove(ed->text.p + from, ed->text.p + to, ed->text.len - to + 1);
    ed->text.len -= to - from;
    if (ed->cursor >= to)
        ed->cursor -= to - from;
    else if (ed->cursor > from)
        ed->cursor = from;
}

static size_t prev_cp(const struct sbx_lineedit *ed, size_t at)
{
    if (!at)
        return 0;
    at--;
    while (at && is_cont(ed->text.p[at]))
        at--;
    return at;
}

static size_t next_cp(const struct sbx_lineedit *ed, size_t at)
{
    if (at >= ed->text.len)
        return ed->text.len;
    at++;
    while (at < ed->text.len && is_cont(ed->text.p[at]))
        at++;
    return at;
}

void sbx_lineedit_start(struct sbx_lineedit *ed, const char *initial, size_t n)
{
    sbx_buf_clear(&ed->text);
    sbx_buf_add(&ed->text, "", 0); /* p is never NULL */
    ed->cursor = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = sbx_utf8_decode((const unsigned char *)initial + i, n - i, &cp);
        if (!k) {
            i++;
            continue;
        }
        i += k;
        if (typable(cp))
            insert(ed, cp);
    }
}

void sbx_lineedit_free(struct sbx_lineedit *ed)
{
    sbx_buf_free(&ed->text);
    ed->cursor = 0;
}

const char *sbx_lineedit_text(const struct sbx_lineedit *ed)
{
    return ed->text.p ? ed->text.p : "";
}

enum sbx_lineedit_result sbx_lineedit_key(struct sbx_lineedit *ed, int key)
{
    if (!ed->text.p)
        sbx_buf_add(&ed->text, "", 0);
    if (key == SBX_KEY_ENTER || key == '\r')
        return SBX_EDIT_ACCEPT;
    if (key == SBX_KEY_ESC || key == sbx_ctrl('c') || key == sbx_ctrl('g'))
        return SBX_EDIT_CANCEL;
    if (key == SBX_KEY_LEFT || key == sbx_ctrl('b')) {
        ed->cursor = prev_cp(ed, ed->cursor);
    } else if (key == SBX_KEY_RIGHT || key == sbx_ctrl('f')) {
        ed->cursor = next_cp(ed, ed->cursor);
    } else if (key == SBX_KEY_HOME || key == sbx_ctrl('a')) {
        ed->cursor = 0;
    } else if (key == SBX_KEY_END || key == sbx_ctrl('e')) {
        ed->cursor = ed->text.len;
    } else if (key == SBX_KEY_BACKSPACE || key == 127 || key == sbx_ctrl('h')) {
        cut(ed, prev_cp(ed, ed->cursor), ed->cursor);
    } else if (key == SBX_KEY_DELETE || key == sbx_ctrl('d')) {
        cut(ed, ed->cursor, next_cp(ed, ed->cursor));
    } else if (key == sbx_ctrl('u')) {
        cut(ed, 0, ed->cursor);
    } else if (key == sbx_ctrl('k')) {
        cut(ed, ed->cursor, ed->text.len);
    } else if (key == sbx_ctrl('w')) {
        size_t at = ed->cursor;
        while (at && ed->text.p[at - 1] == ' ')
            at--;
        while (at && ed->text.p[at - 1] != ' ')
            at = prev_cp(ed, at);
        cut(ed, at, ed->cursor);
    } else if (key >= 0 && key < SBX_KEY_NAMED && typable((uint32_t)key)) {
        insert(ed, (uint32_t)key);
    }
    return SBX_EDIT_GOING;
}
