#include "base/asciifold.h"

#include <stdint.h>

#include "base/utf8.h"

static const struct {
    uint32_t cp;
    const char *ascii;
} folds[] = {
    {0x00d7, "x"},   /* × */
    {0x00b7, "."},   /* · */
    {0x00a0, " "},   /* no-break space */
    {0x2010, "-"},   {0x2011, "-"}, {0x2012, "-"},
    {0x2013, "-"},   /* – */
    {0x2014, "--"},  /* — */
    {0x2018, "'"},   {0x2019, "'"}, {0x201c, "\""}, {0x201d, "\""},
    {0x2022, "*"},   /* • */
    {0x2026, "..."}, /* … */
    {0x2190, "<-"},  {0x2192, "->"}, {0x2194, "<->"}, {0x21b5, "^J"}, /* ↵ */
    {0x2248, "~"},   {0x2260, "!="}, {0x2264, "<="}, {0x2265, ">="},
    {0x2212, "-"},   /* − */
    {0x27e8, "<"},   {0x27e9, ">"},  /* ⟨ ⟩ */
};

void sbx_ascii_fold(struct sbx_buf *out, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, plain = 0;
    while (i < n) {
        uint32_t cp;
        size_t len = u[i] < 0x80 ? 1 : sbx_utf8_decode(u + i, n - i, &cp);
        const char *to = NULL;
        for (size_t k = 0; len > 1 && k < sizeof folds / sizeof *folds && !to; k++)
            if (folds[k].cp == cp)
                to = folds[k].ascii;
        if (!to) {
            i += len ? len : 1;
            continue;
        }
        sbx_buf_add(out, s + plain, i - plain);
        sbx_buf_adds(out, to);
        i += len;
        plain = i;
    }
    sbx_buf_add(out, s + plain, n - plain);
}
