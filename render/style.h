/* The styles render/ draws with, by name. A theme (themes/) says how each
 * looks; render only says which style a piece of output has.
 *
 * SBX_STYLES is the one list: enum name, the name theme files use, and the
 * built-in look (foreground, background: a colour 0-255 or -1 for the
 * terminal's default; attributes from render/theme.h's SBX_ATTR_*, spelled
 * here as SBX_B(old) SBX_D(im) SBX_U(nderline) SBX_R(everse)). The built-in look has no
 * background colours and no white or black text, so it reads on dark and
 * light terminals alike. */
#ifndef SBX_STYLE_H
#define SBX_STYLE_H

#define SBX_STYLES(X)                                                                         \
    X(NORMAL, "normal", -1, -1, 0)                                                            \
    X(LABEL, "summary.label", -1, -1, SBX_B)             /* a summary line's topic */            \
    X(FINDING, "summary.finding", 1, -1, SBX_B)          /* refused hosts, secrets, /etc */      \
    X(WARNING, "summary.warning", 3, -1, 0)           /* failures, skipped lines */           \
    X(DETAIL, "summary.detail", -1, -1, 0)            /* evidence under a finding */          \
    X(ESCAPE, "text.escape", 5, -1, 0)                /* an inert token for hidden text */    \
    X(HEADER, "view.header", -1, -1, SBX_R)              /* the top line: run, span, counts */   \
    X(STATUS, "view.status", -1, -1, SBX_R)              /* the bottom line: position, filter */ \
    X(PROMPT, "view.prompt", -1, -1, SBX_B)              /* a question being typed */            \
    X(ERROR, "view.error", 1, -1, SBX_B)                 /* a message about a mistake */         \
    X(MATCH, "search.match", 3, -1, SBX_R)               /* text a search matched */             \
    X(CURSOR, "timeline.cursor", -1, -1, SBX_R)          /* the selected row */                  \
    X(TIME, "timeline.time", 6, -1, 0)                                                        \
    X(DURATION, "timeline.duration", -1, -1, SBX_D)                                              \
    X(KIND, "timeline.kind", 4, -1, SBX_B)               /* the kind mark: $ F N … */            \
    X(EXIT_OK, "timeline.exit", -1, -1, SBX_D)                                                   \
    X(NOTE, "timeline.note", -1, -1, SBX_D)              /* notes and lesser events */           \
    X(REFUSED, "timeline.refused", 1, -1, SBX_B | SBX_R)    /* the findings, heaviest first */      \
    X(OUTSIDE, "timeline.outside", 5, -1, SBX_B | SBX_R)                                            \
    X(ACCOUNT, "timeline.account", 5, -1, SBX_B)                                                 \
    X(SYSTEM, "timeline.system", 1, -1, SBX_B)                                                   \
    X(SECRET, "timeline.secret", 5, -1, SBX_B)                                                   \
    X(HIDDEN, "timeline.hidden", 5, -1, SBX_B | SBX_U) /* invisible or bidi characters */      \
    X(TIMEDOUT, "timeline.timedout", 3, -1, SBX_B)                                               \
    X(FAILED, "timeline.failed", 3, -1, 0)                                                    \
    X(SANDBOX1, "timeline.sandbox1", 2, -1, 0)        /* sandboxes, when there are several */ \
    X(SANDBOX2, "timeline.sandbox2", 4, -1, 0)                                                \
    X(SANDBOX3, "timeline.sandbox3", 6, -1, 0)                                                \
    X(SANDBOX4, "timeline.sandbox4", 5, -1, 0)                                                \
    X(SANDBOX5, "timeline.sandbox5", 3, -1, 0)                                                \
    X(SANDBOX6, "timeline.sandbox6", 1, -1, 0)                                                \
    X(HEADING, "detail.heading", -1, -1, SBX_B | SBX_U)     /* "stdout (3 lines)" */                \
    X(FIELD, "detail.field", 6, -1, 0)                /* a field's name */                    \
    X(STDERR, "detail.stderr", 3, -1, 0)                                                      \
    X(GOOD, "detail.good", 2, -1, 0)                  /* a check that passed */               \
    X(DIFF_ADD, "diff.add", 2, -1, 0)                 /* a diff's added line */               \
    X(DIFF_DEL, "diff.del", 1, -1, 0)                 /* a diff's removed line */             \
    X(DIFF_HUNK, "diff.hunk", 6, -1, 0)               /* @@ -1,7 +1,7 @@ */                   \
    X(CMP_SAME, "compare.same", -1, -1, SBX_D)         /* compare: a pair alike */             \
    X(CMP_CHANGED, "compare.changed", 3, -1, SBX_B)    /* a pair that differs */               \
    X(CMP_ONLY_A, "compare.only_a", 1, -1, 0)          /* a command only in A */               \
    X(CMP_ONLY_B, "compare.only_b", 2, -1, 0)          /* a command only in B */               \
    X(CMP_MOVED, "compare.moved", 4, -1, 0)            /* a command at another place */        \
    X(CMP_REPLACED, "compare.replaced", 5, -1, 0)      /* A ran one command, B another */      \
    X(CMP_GAP, "compare.gap", -1, -1, SBX_D)           /* the empty side of a row */           \
    X(KEY, "help.key", -1, -1, SBX_B)

enum { SBX_SANDBOX_STYLES = 6 };

/* Attribute spellings for the table (the same bits as SBX_ATTR_*). */
enum { SBX_B = 1u, SBX_D = 2u, SBX_U = 4u, SBX_R = 8u };

enum sbx_style {
#define SBX_STYLE_ENUM(e, name, fg, bg, attrs) SBX_STYLE_##e,
    SBX_STYLES(SBX_STYLE_ENUM)
#undef SBX_STYLE_ENUM
    SBX_STYLE_COUNT
};

/* "summary.label", …; NULL past the end. Static strings. */
const char *sbx_style_name(enum sbx_style s);
/* The style called name, or -1. */
int sbx_style_by_name(const char *name);
/* The built-in look of s. */
void sbx_style_builtin(enum sbx_style s, int *fg, int *bg, unsigned *attrs);

#endif
