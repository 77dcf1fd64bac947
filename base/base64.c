#include "base/base64.h"

void sbx_base64(const void *data, size_t n, struct sbx_buf *out)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = data;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        char q[4] = {digits[v >> 18], digits[v >> 12 & 63], digits[v >> 6 & 63], digits[v & 63]};
        sbx_buf_add(out, q, 4);
    }
    if (i < n) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);
        char q[4] = {digits[v >> 18], digits[v >> 12 & 63], i + 1 < n ? digits[v >> 6 & 63] : '=', '='};
        sbx_buf_add(out, q, 4);
    }
}
