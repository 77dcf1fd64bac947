#include "importers/runs_keys.h"

#include <string.h>

size_t sbx_runs_key_folder(const char *key, size_t plen)
{
    if (strlen(key) < plen)
        return 0;
    const char *slash = strchr(key + plen, '/');
    return slash ? (size_t)(slash - key) + 1 - plen : 0;
}

static bool same_run(const char *a, const char *b, size_t plen)
{
    size_t la = sbx_runs_key_folder(a, plen);
    return la && la == sbx_runs_key_folder(b, plen) && memcmp(a + plen, b + plen, la) == 0;
}

size_t sbx_runs_keys_whole(const char *const *keys, size_t n, size_t plen, bool last_page)
{
    if (last_page || !n || !sbx_runs_key_folder(keys[n - 1], plen))
        return n;
    size_t k = n - 1;
    while (k && same_run(keys[k - 1], keys[n - 1], plen))
        k--;
    return k;
}

size_t sbx_runs_keys_count(const char *const *keys, size_t n, size_t plen)
{
    size_t runs = 0;
    for (size_t i = 0; i < n; i++)
        if (sbx_runs_key_folder(keys[i], plen) && (!i || !same_run(keys[i - 1], keys[i], plen)))
            runs++;
    return runs;
}
