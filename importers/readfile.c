#include "importers/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

/* The cap in words: "2 GiB", "512 MiB", "1000 bytes". */
static void cap_words(uint64_t cap, char *out, size_t n)
{
    static const char *const units[] = {"TiB", "GiB", "MiB", "KiB"};
    for (int i = 0; i < 4; i++) {
        uint64_t u = 1ULL << (10 * (4 - i));
        if (cap >= u && cap % u == 0) {
            snprintf(out, n, "%llu %s", (unsigned long long)(cap / u), units[i]);
            return;
        }
    }
    snprintf(out, n, "%llu bytes", (unsigned long long)cap);
}

/* Whether nothing in p[0..n) but NUL bytes. */
static bool all_nul(const char *p, size_t n)
{
    return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* The binary check of a stream, as it arrives: once SBX_SNIFF_BYTES are in
 * (or at the end), what sbx_sniff_not_text says of them, except that NUL
 * bytes may be the start of a NUL tail (sbx_nul_tail): after the first NUL,
 * only NULs may follow. The reason, or NULL to read on. */
struct stream_check {
    bool sniffed;
    bool in_tail; /* every byte since the first NUL is a NUL */
};

static const char *check_stream(struct stream_check *c, const char *p, size_t from, size_t len,
                                bool at_end)
{
    if (!c->sniffed) {
        if (len < SBX_SNIFF_BYTES && !at_end)
            return NULL;
        c->sniffed = true;
        size_t head = len < SBX_SNIFF_BYTES ? len : SBX_SNIFF_BYTES;
        const char *nul = memchr(p, 0, head);
        if (nul && !memchr(p, '\n', (size_t)(nul - p)))
            return "binary (NUL bytes)"; /* no line before the NULs: no NUL tail */
        if (nul) {
            if (!all_nul(nul, (size_t)(p + len - nul)))
                return "binary (NUL bytes)";
            c->in_tail = true;
            return NULL;
        }
        return sbx_sniff_not_text(p, head);
    }
    if (c->in_tail && !all_nul(p + from, len - from))
        return "binary (NUL bytes)";
    return NULL;
}

static bool read_all(int fd, uint64_t max, const char *what, const char **data, size_t *size,
                     char *err, size_t errsz)
{
    struct sbx_buf b = SBX_BUF_INIT;
    struct stream_check check = {0};
    if (!max)
        max = SBX_MAX_INPUT_DEFAULT;
    for (;;) {
        sbx_buf_reserve(&b, 1 << 16);
        size_t room = b.cap - b.len - 1;
        if (room > max - b.len + 1)
            room = (size_t)(max - b.len + 1); /* one byte past the cap tells */
        ssize_t r = read(fd, b.p + b.len, room);
        if (r == 0)
            break;
        if (r < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                /* a FIFO opened non-blocking with a writer that is slow: wait for it */
                fd_set rd;
                FD_ZERO(&rd);
                FD_SET(fd, &rd);
                select(fd + 1, &rd, NULL, NULL, NULL);
                continue;
            }
            snprintf(err, errsz, "%s", strerror(errno));
            sbx_buf_free(&b);
            return false;
        }
        size_t from = b.len;
        b.len += (size_t)r;
        const char *why = check_stream(&check, b.p, from, b.len, false);
        if (!why && b.len > max) {
            char cap[32];
            cap_words(max, cap, sizeof cap);
            snprintf(err, errsz, "%s holds more than %s (--max-input SIZE reads more)", what, cap);
            sbx_buf_free(&b);
            return false;
        }
        if (why) {
            snprintf(err, errsz, "%s", why);
            sbx_buf_free(&b);
            return false;
        }
    }
    /* a stream shorter than SBX_SNIFF_BYTES is judged at its end */
    const char *why = check.sniffed ? NULL : check_stream(&check, b.p ? b.p : "", 0, b.len, true);
    if (why && b.len) {
        snprintf(err, errsz, "%s", why);
        sbx_buf_free(&b);
        return false;
    }
    *data = b.p ? b.p : sbx_xcalloc(1, 1);
    *size = b.len;
    return true;
}

bool sbx_read_input(const char *path, uint64_t max_stream, const char **data, size_t *size,
                    enum sbx_data_how *how, char *err, size_t errsz)
{
    if (strcmp(path, "-") == 0) {
        *how = SBX_DATA_HEAP;
        return read_all(0, max_stream, "standard input", data, size, err, errsz);
    }
    /* O_NONBLOCK so that opening a FIFO with no writer does not hang */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errsz, "%s", strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errsz, "%s", strerror(errno));
        close(fd);
        return false;
    }
    bool ok = false;
    if (S_ISFIFO(st.st_mode)) {
        *how = SBX_DATA_HEAP;
        ok = read_all(fd, max_stream, "the FIFO", data, size, err, errsz);
    } else if (S_ISDIR(st.st_mode)) {
        snprintf(err, errsz, "is a folder");
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err, errsz, "not a regular file");
    } else if (st.st_size == 0) {
        *data = sbx_xcalloc(1, 1);
        *size = 0;
        *how = SBX_DATA_HEAP;
        ok = true;
    } else {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            snprintf(err, errsz, "cannot map: %s", strerror(errno));
        } else {
            madvise(p, (size_t)st.st_size, MADV_WILLNEED); /* start reading a cold file ahead */
            *data = p;
            *size = (size_t)st.st_size;
            *how = SBX_DATA_MAPPED;
            ok = true;
        }
    }
    close(fd);
    return ok;
}

bool sbx_read_input_copy(const char *path, uint64_t max_stream, const char **data, size_t *size,
                         enum sbx_data_how *how, char *err, size_t errsz)
{
    if (strcmp(path, "-") != 0) {
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            *how = SBX_DATA_HEAP;
            /* a file is read whole, however large: the cap is for streams */
            bool ok = read_all(fd, UINT64_MAX - 1, "the file", data, size, err, errsz);
            close(fd);
            return ok;
        }
        if (fd >= 0)
            close(fd);
    }
    return sbx_read_input(path, max_stream, data, size, how, err, errsz); /* says what is wrong, or reads a stream */
}

bool sbx_read_prefix(const char *path, size_t prefix, const char **data, size_t *size,
                     size_t *file_size, bool *cut, char *err, size_t errsz)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errsz, "%s", strerror(errno));
        return false;
    }
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (S_ISDIR(st.st_mode))
        why = "is a folder";
    else if (S_ISFIFO(st.st_mode))
        why = "a pipe (it can be read only once)";
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    if (why) {
        snprintf(err, errsz, "%s", why);
        close(fd);
        return false;
    }
    size_t want = (uint64_t)st.st_size < prefix ? (size_t)st.st_size : prefix;
    char *buf = sbx_xmalloc(want + 1);
    size_t got = 0;
    while (got < want) {
        ssize_t r = pread(fd, buf + got, want - got, (off_t)got);
        if (r == 0)
            break; /* shorter than it was a moment ago */
        if (r < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errsz, "%s", strerror(errno));
            free(buf);
            close(fd);
            return false;
        }
        got += (size_t)r;
    }
    close(fd);
    *cut = got == want && (uint64_t)st.st_size > want;
    if (*cut) {
        const char *nl = memrchr(buf, '\n', got);
        got = nl ? (size_t)(nl - buf) + 1 : 0;
    }
    buf[got] = '\0';
    *data = buf;
    *size = got;
    *file_size = (size_t)st.st_size;
    return true;
}

void sbx_release_input(const char *data, size_t size, enum sbx_data_how how)
{
    if (how == SBX_DATA_MAPPED && size)
        munmap((void *)data, size);
    else if (how == SBX_DATA_HEAP)
        free((void *)data);
}

const char *sbx_sniff_not_text(const char *data, size_t size)
{
    const unsigned char *p = (const unsigned char *)data;
    if (size >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return "gzip-compressed (decompress it first: zcat FILE | sbxview summary -)";
    if (size >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff)))
        return "UTF-16 text (sbxview reads UTF-8)";
    size_t n = size < SBX_SNIFF_BYTES ? size : SBX_SNIFF_BYTES;
    if (memchr(p, 0, n))
        return "binary (NUL bytes)";
    return NULL;
}

size_t sbx_nul_tail(const char *data, size_t size)
{
    size_t t = size;
    while (t > 0 && data[t - 1] == '\0')
        t--;
    /* a log before it has at least one line: "\x7fELF\0\0" is binary */
    return t < size && memchr(data, '\n', t) ? t : size;
}

void sbx_trim_input(const char *data, size_t *size, size_t keep, enum sbx_data_how how)
{
    if (keep >= *size)
        return;
    if (how == SBX_DATA_MAPPED) {
        /* give back the pages past the kept bytes: munmap of the kept size
           later releases the rest */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t from = (keep + page - 1) / page * page;
        if (from < *size)
            munmap((char *)data + from, *size - from);
    }
    *size = keep;
}

static void (*sigbus_restore)(void);

static void on_sigbus(int sig)
{
    (void)sig;
    if (sigbus_restore)
        sigbus_restore();
    static const char msg[] =
        "sbxview: an input file shrank while it was being read (truncated?); nothing was written\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(2);
}

void sbx_install_sigbus_handler(void (*restore_terminal)(void))
{
    sigbus_restore = restore_terminal;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}
