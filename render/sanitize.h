/* sbx_san: untrusted text -> text that is safe to put on a terminal, by the
 * allow-list in docs/hostile-inputs.md ("What reaches the terminal").
 *
 * The input is split into segments: TEXT (bytes of the input, or spaces for
 * a TAB, that may be drawn as they are), ESCAPE (a visible stand-in for
 * something that may not be drawn: show it in a distinct style) and NEWLINE.
 * Nothing else is ever interpreted, and no segment ever holds a C0 or C1
 * control, DEL, ESC, invalid UTF-8, or an invisible/bidi character.
 *
 *   invalid UTF-8 (overlong, surrogate, > U+10FFFF, cut short), each byte
 *                                             -> \xFF
 *   ESC + CSI/OSC/DCS/SOS/PM/APC or nF/Fp/Fe/Fs sequence (ECMA-48; a string
 *     ends at BEL, ESC \, 0x9C, U+009C, any other ESC, or the input's end)
 *                                             -> ⟨ESC]52;c;SGVsbG8…⟩
 *        (at most 16 bytes after the ESC shown, 64 for an OSC 8 hyperlink so
 *        its target can be read, or 8 more rather than cut; the shown bytes
 *        escaped: ^X, \xNN; a longer sequence ends in "… +N bytes", N the
 *        bytes not shown)
 *   a lone ESC                                -> ^[
 *   CR, BS, other C0, DEL                     -> ^M, ^H, ^X, ^?
 *   LF                                        -> NEWLINE; ↵ with SBX_SAN_ONE_LINE
 *   TAB                                       -> spaces up to the next multiple of 8
 *        columns, counted from the start of the line (of the input string)
 *   C1 code points U+0080..U+009F             -> \u009B
 *   invisible: U+00AD, U+061C, U+115F-1160, U+180E, U+200B-200F, U+2028-202E,
 *     U+2060-206F, U+3164, U+FEFF, U+FFA0, U+FFF9-FFFB, U+E0000-E007F, private
 *     use, wcwidth < 0, and variation selectors (U+180B-180D, U+180F,
 *     U+FE00-FE0F, U+E0100-E01EF) except one directly after a base character
 *                                             -> <U+202E>, and hidden text is flagged
 *   combining (zero-width) marks: 2 per base character are kept, the rest
 *     dropped and counted                     -> <+4998 marks>
 *     a mark with no base character to attach to gets a ◌ (dotted circle)
 *   with SBX_SAN_ASCII (non-UTF-8 locale) also every other non-ASCII
 *     character -> <U+00E9>; and ↵ ⟨ ⟩ … become ^J < > ...; wcwidth is not
 *     asked then: marks are known by block (U+0300-036F, U+1AB0-1AFF,
 *     U+1DC0-1DFF, U+20D0-20FF, U+FE20-FE2F) and unassigned code points
 *     are shown but not flagged
 *
 * Sanitised text is a fixed point: sanitising it again (same flags, no
 * max_cols) changes nothing and finds no hidden text.
 *
 * Widths come from wcwidth(), so LC_CTYPE must be a UTF-8 locale unless
 * SBX_SAN_ASCII is given. No allocation except into the caller's sbx_buf;
 * no global state: safe from any thread.
 *
 * Ownership: a segment's text points either into the caller's input (which
 * must outlive its use), into the sanitizer (valid until the next
 * sbx_san_next call on it), or into constant storage. Nothing to free. */
#ifndef SBX_SANITIZE_H
#define SBX_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

enum sbx_seg_kind {
    SBX_SEG_TEXT,
    SBX_SEG_ESCAPE,  /* a visible escape like \xFF, ^M, <U+202E>, ⟨ESC]52;…⟩ */
    SBX_SEG_NEWLINE, /* an LF (only without SBX_SAN_ONE_LINE): text "\n", width 0 */
};

struct sbx_seg {
    enum sbx_seg_kind kind;
    const char *text;
    size_t len;
    int width; /* display columns */
};

enum {
    SBX_SAN_ONE_LINE = 1u, /* LF -> visible "↵" escape */
    SBX_SAN_ASCII = 2u,    /* non-UTF-8 locale: only ASCII out */
};

#define SBX_SAN_ESCBUF 320

/* Iterator state over one input string; the caller owns it (on the stack is
 * fine). Fields are private. */
struct sbx_sanitizer {
    const unsigned char *s;
    size_t n, i;
    unsigned flags;
    int col;         /* columns since the start of the line, modulo 8 (TAB) */
    unsigned marks;  /* combining marks kept on the current base */
    bool base;       /* the last thing drawn can carry marks */
    bool vs_ok;      /* a variation selector may follow */
    bool hidden;
    size_t steps;    /* bytes the loops looked at (sbx_sanitize_work) */
    char esc[SBX_SAN_ESCBUF];
};

void sbx_san_begin(struct sbx_sanitizer *z, const char *s, size_t n, unsigned flags);

/* The next segment; false at the end (seg untouched). Empty input -> no
 * segments. */
bool sbx_san_next(struct sbx_sanitizer *z, struct sbx_seg *seg);

/* True once an invisible or bidi character was seen ("hidden text"). */
bool sbx_san_hidden(const struct sbx_sanitizer *z);

/* The whole string sanitised and appended to out, escapes as plain text.
 * When max_cols > 0, each line is cut to at most max_cols columns, never
 * inside a wide character, with "…" ("..." in ASCII mode, which needs
 * max_cols >= 3 to show) as the last column when cut. Returns true if hidden
 * text was found anywhere in s, even past a cut. */
bool sbx_sanitize(struct sbx_buf *out, const char *s, size_t n, unsigned flags, int max_cols);

/* The work sbx_sanitize does on s: the bytes its loops looked at, a step
 * each (segments, escapes, marks, the cut). It grows linearly with n
 * whatever s holds; the tests check that instead of timing. */
size_t sbx_sanitize_work(const char *s, size_t n, unsigned flags, int max_cols);

/* Display width of already-sanitised UTF-8 (wcwidth per code point; LF 0;
 * an invalid byte or a code point wcwidth rejects counts 1). */
int sbx_text_width(const char *s, size_t n);

#endif
