/* Fuzz target for model/program: any bytes, no crash, bounded output, and
 * the label agrees with the per-command walk. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/program.h"

static void check_prog(const char *prog, size_t len, void *ctx)
{
    size_t *total = ctx;
    if (len > 128 || (len && !prog))
        abort();
    *total += len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *cmd = (const char *)data;
    char big[512], small[6];
    memset(big, 'Z', sizeof big);
    size_t n = sbx_program_label(cmd, size, big, sizeof big);
    if (n > 2 * 128 + 1 || big[n] != '\0')
        abort();
    size_t m = sbx_program_label(cmd, size, small, sizeof small);
    if (m != (n < 5 ? n : 5) || small[m] != '\0' || memcmp(small, big, m) != 0)
        abort();
    size_t total = 0;
    size_t calls = sbx_program_each(cmd, size, check_prog, &total);
    if (calls == 0 && n != 0)
        abort();
    if (calls > size)
        abort();
    if (sbx_program_each(cmd, size, NULL, NULL) != calls)
        abort();
    return 0;
}
