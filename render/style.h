/* The styles render/ draws with, by name. A theme (themes/) says how each
 * looks; render only says which style a piece of output has. */
#ifndef SBX_STYLE_H
#define SBX_STYLE_H

enum sbx_style {
    SBX_STYLE_NORMAL,
    SBX_STYLE_LABEL,    /* a summary line's topic: "Commands:" */
    SBX_STYLE_FINDING,  /* what a reviewer must look at: refused hosts, secrets, system changes */
    SBX_STYLE_WARNING,  /* failures, skipped lines */
    SBX_STYLE_DETAIL,   /* evidence and commands under a finding */
    SBX_STYLE_ESCAPE,   /* an inert token standing for hidden or control text */
    SBX_STYLE_COUNT
};

/* "summary.label", …; NULL past the end. Static strings. */
const char *sbx_style_name(enum sbx_style s);
/* The style called name, or -1. */
int sbx_style_by_name(const char *name);

#endif
