#include "model/findings.h"

#include <string.h>
#include <strings.h>

const struct sbx_finding_info sbx_findings[] = {
#define ROW(id, bit, name, mark, style, serious, word, words, check, needs) \
    {1u << (bit), name, mark, serious, word, words, check, needs},
    SBX_FINDINGS(ROW)
#undef ROW
};

const size_t sbx_nfindings = sizeof sbx_findings / sizeof sbx_findings[0];

size_t sbx_finding_rank(uint32_t bit)
{
    size_t i = 0;
    while (i < sbx_nfindings && sbx_findings[i].bit != bit)
        i++;
    return i;
}

const struct sbx_finding_info *sbx_finding_of(uint32_t bit)
{
    size_t i = sbx_finding_rank(bit);
    return i < sbx_nfindings ? &sbx_findings[i] : NULL;
}

uint32_t sbx_finding_heaviest(uint32_t findings)
{
    for (size_t i = 0; findings && i < sbx_nfindings; i++)
        if (findings & sbx_findings[i].bit)
            return sbx_findings[i].bit;
    return 0;
}

uint32_t sbx_finding_by_name(const char *name)
{
    for (size_t i = 0; i < sbx_nfindings; i++)
        if (strcmp(name, sbx_findings[i].name) == 0)
            return sbx_findings[i].bit;
    return 0;
}

uint32_t sbx_finding_by_mark(char mark)
{
    for (size_t i = 0; i < sbx_nfindings; i++)
        if (sbx_findings[i].mark == mark)
            return sbx_findings[i].bit;
    return 0;
}

uint32_t sbx_findings_by_word(const char *w, size_t n, bool any_case)
{
    uint32_t bits = 0;
    for (size_t i = 0; i < sbx_nfindings; i++) {
        const char *word = sbx_findings[i].word;
        if (word && strlen(word) == n &&
            (any_case ? strncasecmp(word, w, n) : strncmp(word, w, n)) == 0)
            bits |= sbx_findings[i].bit;
    }
    return bits;
}
