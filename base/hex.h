/* One hexadecimal digit's value. Header only; nothing is allocated. */
#ifndef SBX_HEX_H
#define SBX_HEX_H

/* 0-15 for 0-9, a-f, A-F; -1 for any other c (a negative char too). */
static inline int sbx_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif
