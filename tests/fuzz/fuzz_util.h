/* fuzz_util.h -- shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c;
 * built by `make fuzz`, not by the Check runner).  The readers under test
 * take a path, so each input is written to an in-memory file (memfd) that is
 * read back through /proc/self/fd/N: the regular-file code path. */
#ifndef ATTNRANK_FUZZ_UTIL_H
#define ATTNRANK_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Replace the contents of the memfd behind *path (created on first use)
 * by data[0, size); returns the path to read. */
static const char *fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("attnrank-fuzz", 0);
        if (fd < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
        perror("memfd write");
        abort();
    }
    return path;
}

/* A finding that is not a crash: report and abort so libFuzzer keeps the input. */
#define FUZZ_REQUIRE(cond)                                                             \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            abort();                                                                   \
        }                                                                              \
    } while (0)

#endif
