#include "app/app_keyhelp.h"

#include <stdio.h>
#include <string.h>

#include "app/keys.h"

void sbx_keyhelp_where(unsigned bits, unsigned all, const char *const *names, int count, char *b,
                       size_t n)
{
    size_t used = 0;
    b[0] = '\0';
    if (bits == all)
        return;
    for (int i = 0; i < count; i++)
        if (bits & (1u << i))
            used += (size_t)snprintf(b + used, used < n ? n - used : 0, "%s%s", used ? ", " : " [",
                                     names[i]);
    snprintf(b + (used < n ? used : n - 1), used < n ? n - used : 1, "]");
}

void sbx_keyhelp_line(struct sbx_doc *d, int cols, const int keys[4], const char *help,
                      const char *where)
{
    enum { KEYS_W = 24 };
    char list[96] = "", name[16];
    for (int j = 0; j < 4 && keys[j]; j++) {
        if (j)
            strcat(list, ", ");
        strcat(list, sbx_key_name(keys[j], name));
    }
    if (cols >= 2 * KEYS_W) {
        sbx_doc_set_indent(d, KEYS_W);
        sbx_doc_addf(d, SBX_STYLE_KEY, "  %-*s", KEYS_W - 2, list);
    } else { /* narrow: the keys on a line of their own */
        sbx_doc_addf(d, SBX_STYLE_KEY, "  %s", list);
        sbx_doc_end_line(d);
        sbx_doc_set_indent(d, 6);
        sbx_doc_adds(d, SBX_STYLE_NORMAL, "      ");
    }
    sbx_doc_adds(d, SBX_STYLE_NORMAL, help);
    sbx_doc_adds(d, SBX_STYLE_NOTE, where);
    sbx_doc_end_line(d);
}
