#include "export/services/target_rules.h"

#include <stdio.h>
#include <string.h>

bool sbx_rule_fail(char *err, size_t errsz, const char *msg)
{
    if (errsz)
        snprintf(err, errsz, "%s", msg);
    return false;
}

bool sbx_rule_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool sbx_rule_number(const char *s, size_t n, uint32_t *v)
{
    if (n == 0 || n > 10 || s[0] == '0')
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    if (x > 2147483647u)
        return false;
    *v = (uint32_t)x;
    return true;
}

bool sbx_rule_split_number(const char *s, size_t *hash, uint32_t *n)
{
    const char *h = strrchr(s, '#');
    if (!h)
        return false;
    *hash = (size_t)(h - s);
    return sbx_rule_number(h + 1, strlen(h + 1), n);
}

bool sbx_rule_name_segment(const char *s, size_t n, size_t max)
{
    if (n == 0 || n > max || s[0] == '-' || s[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!sbx_rule_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
            return false;
    return true;
}
