#include "app/copyout.h"

#include <stdio.h>
#include <string.h>

#include "base/base64.h"
#include "render/doc.h"
#include "render/sanitize.h"
#include "render/untrusted.h"

const char *sbx_copy_name(int letter)
{
    switch (letter) {
#define SBX_COPY_NAME(l, name) case l: return name;
        SBX_COPY_WHAT(SBX_COPY_NAME)
#undef SBX_COPY_NAME
    default: return NULL;
    }
}

/* A text field redacted and sanitised, lines kept. */
static void add_field(const struct sbx_timeline *tl, const struct sbx_event *e,
                      const struct sbx_text *t, bool ascii, struct sbx_buf *out)
{
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t n;
    const char *s = sbx_text_get(tl, e, t, &scratch, &n);
    sbx_untrusted_text(out, s, n, ascii ? SBX_SAN_ASCII : 0, 0);
    sbx_buf_free(&scratch);
}

/* The detail as its view shows it (already safe), wide enough that lines
 * wrap as little as they can; redacted once more, as every text out. */
static void add_detail(struct sbx_rows_look *look, const struct sbx_event *e, bool ascii,
                       struct sbx_buf *out)
{
    struct sbx_doc d;
    sbx_doc_init(&d, 1000, ascii);
    sbx_detail_doc(&d, look, e, false);
    struct sbx_buf plain = SBX_BUF_INIT;
    for (size_t r = 0; r < d.nrows; r++) {
        const struct sbx_doc_row *dr = &d.rows[r];
        for (uint32_t k = 0; k < dr->nspans; k++)
            sbx_buf_add(&plain, d.text.p + d.spans[dr->span0 + k].off, d.spans[dr->span0 + k].len);
        sbx_buf_addc(&plain, '\n');
    }
    sbx_untrusted_text(out, plain.p ? plain.p : "", plain.len, ascii ? SBX_SAN_ASCII : 0, 0);
    sbx_buf_free(&plain);
    sbx_doc_free(&d);
}

bool sbx_copy_text(const struct sbx_timeline *tl, struct sbx_rows_look *look,
                   const struct sbx_event *e, int letter, bool ascii, struct sbx_buf *out,
                   char *why, size_t whysz)
{
    if (!e) {
        snprintf(why, whysz, "no event selected");
        return false;
    }
    if (letter == 'd') {
        add_detail(look, e, ascii, out);
        return true;
    }
    if (letter != 'c' && letter != 'o') {
        snprintf(why, whysz, "copy what? c the command line, o the output, d the detail");
        return false;
    }
    if (e->kind != SBX_EV_COMMAND) {
        snprintf(why, whysz, "this event is no command: d copies its detail");
        return false;
    }
    const struct sbx_command *c = &e->u.cmd;
    if (letter == 'c') {
        add_field(tl, e, &c->command, ascii, out);
        return true;
    }
    size_t had = out->len;
    add_field(tl, e, &c->out, ascii, out);
    const struct sbx_text err = sbx_cmd_err(c);
    if (sbx_text_len(&err)) {
        if (out->len > had && out->p[out->len - 1] != '\n')
            sbx_buf_addc(out, '\n');
        add_field(tl, e, &err, ascii, out);
    }
    if (out->len == had) {
        snprintf(why, whysz, "the command printed nothing");
        return false;
    }
    return true;
}

void sbx_osc52(const char *text, size_t n, struct sbx_buf *out)
{
    sbx_buf_adds(out, "\033]52;c;");
    sbx_base64(text, n, out);
    sbx_buf_addc(out, '\a');
}

bool sbx_osc52_allowed(enum sbx_clip_setting setting, bool terminal_has_ms, size_t escape_len,
                       char *why, size_t whysz)
{
    if (setting == SBX_CLIP_OFF) {
        snprintf(why, whysz, "not sent: the clipboard is off (SBXVIEW_CLIPBOARD=off); w writes a file");
        return false;
    }
    if (setting == SBX_CLIP_AUTO && !terminal_has_ms) {
        snprintf(why, whysz,
                 "not sent: this terminal's terminfo has no Ms (it may not take OSC 52); "
                 "SBXVIEW_CLIPBOARD=on sends it anyway, w writes a file");
        return false;
    }
    if (escape_len > SBX_OSC52_MAX) {
        snprintf(why, whysz, "not sent: %zu bytes is too long for the clipboard escape; w writes a file",
                 escape_len);
        return false;
    }
    return true;
}

bool sbx_clip_setting_parse(const char *s, enum sbx_clip_setting *out)
{
    if (!s || !*s || strcmp(s, "auto") == 0)
        *out = SBX_CLIP_AUTO;
    else if (strcmp(s, "on") == 0)
        *out = SBX_CLIP_ON;
    else if (strcmp(s, "off") == 0)
        *out = SBX_CLIP_OFF;
    else
        return false;
    return true;
}
