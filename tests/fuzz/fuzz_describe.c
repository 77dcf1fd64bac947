/* Arbitrary bytes as a file nothing reads, and as an allow list: the
 * description is printable ASCII, within its buffer and NUL-terminated; the
 * allow list either parses (and then every entry line it accepted allows
 * itself) or names a line of the input. No crash, no leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/describe.h"
#include "analyses/allowlist.h"

static void check_description(const uint8_t *data, size_t size)
{
    char out[SBX_DESCRIBE_BUFSZ + 1];
    out[SBX_DESCRIBE_BUFSZ] = 'X'; /* a guard past the buffer given */
    sbx_describe_unread((const char *)data, size, out, SBX_DESCRIBE_BUFSZ);
    if (out[SBX_DESCRIBE_BUFSZ] != 'X' || !memchr(out, '\0', SBX_DESCRIBE_BUFSZ) || !out[0])
        abort();
    for (const char *p = out; *p; p++)
        if (*p < 0x20 || *p > 0x7e)
            abort();
}

static void check_allowlist(const uint8_t *data, size_t size)
{
    char err[512];
    struct sbx_allowlist *a = sbx_allowlist_parse((const char *)data, size, "f", err, sizeof err);
    if (!a) {
        unsigned line;
        if (sscanf(err, "f:%u:", &line) != 1 || line == 0)
            abort();
        return;
    }
    /* every plain entry (no '*', '#', port or bracket) allows itself */
    for (const char *p = (const char *)data, *end = p + size; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        bool plain = len && len <= 253;
        for (size_t i = 0; i < len && plain; i++)
            plain = (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= '0' && p[i] <= '9') || p[i] == '-' ||
                    (p[i] == '.' && i > 0 && p[i - 1] != '.' && i + 1 < len);
        if (plain && !sbx_allowlist_allows(a, p, len))
            abort();
        p = nl ? nl + 1 : end;
    }
    sbx_allowlist_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_description(data, size);
    check_allowlist(data, size);
    return 0;
}
