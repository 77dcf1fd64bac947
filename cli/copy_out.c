#include "cli/copy_out.h"

#include <stdlib.h>

#include "base/buf.h"
#include "app/copyout.h"
#include "tui/term.h"

static void to_clipboard(struct sbx_app *app, const char *text, size_t n, bool on_terminal)
{
    enum sbx_clip_setting setting;
    if (!sbx_clip_setting_parse(getenv("SBXVIEW_CLIPBOARD"), &setting)) {
        sbx_app_message(app, true, "not sent: SBXVIEW_CLIPBOARD is on, off or auto");
        return;
    }
    if (!on_terminal) {
        sbx_app_message(app, false, "not sent: no terminal (--dump)");
        return;
    }
    struct sbx_buf esc = SBX_BUF_INIT;
    sbx_osc52(text, n, &esc);
    char why[256];
    if (!sbx_osc52_allowed(setting, sbx_term_has_ms(), esc.len, why, sizeof why))
        sbx_app_message(app, true, "%s %s", app->out_what, why);
    else if (!sbx_term_send(esc.p, esc.len))
        sbx_app_message(app, true, "not sent: the terminal could not be written");
    else
        sbx_app_message(app, false, "%s copied to the clipboard (OSC 52, %zu bytes)", app->out_what, n);
    sbx_buf_free(&esc);
}

static void to_pager(struct sbx_app *app, const char *text, size_t n, bool on_terminal)
{
    if (!on_terminal) {
        sbx_app_message(app, false, "no pager: no terminal (--dump)");
        return;
    }
    const char *pager = getenv("PAGER");
    if (!pager || !*pager)
        pager = "less";
    int status;
    char why[256];
    if (!sbx_term_pager(pager, text, n, &status, why, sizeof why))
        sbx_app_message(app, true, "%s", why);
    else if (status == 127 || status == 126)
        sbx_app_message(app, true, "the pager could not be run ($PAGER, exit %d)", status);
    else
        sbx_app_message(app, false, "%s shown in the pager", app->out_what);
}

void sbx_copy_out(struct sbx_app *app, bool on_terminal)
{
    int to;
    size_t n;
    const char *text = sbx_app_output(app, &to, &n);
    if (to == 'Y')
        to_clipboard(app, text, n, on_terminal);
    else if (to == '|')
        to_pager(app, text, n, on_terminal);
    sbx_app_output_done(app);
}
