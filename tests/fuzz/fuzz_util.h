/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_util.h -- shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c;
 * built by `make fuzz`, not by the Check runner).  The readers under test
 * take a path, so each input is written to an in-memory file (memfd) that is
 * read back through /proc/self/fd/N: the regular-file code path. */
#ifndef ATTNRANK_FUZZ_UTIL_H
#define ATTNRANK_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "base/status.h"

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

/* A refused input leaves one non-empty message line. */
#define FUZZ_REQUIRE_ONE_LINE()                                                        \
    do {                                                                               \
        const char *m_ = ar_error_get();                                               \
        FUZZ_REQUIRE(m_[0] != '\0' && strchr(m_, '\n') == NULL);                      \
    } while (0)

/* A directory on tmpfs (/dev/shm) for readers that open several files of one
 * directory (model.json and its shards); removed at exit. */
static char fuzz_dir_path[64];
static const char *fuzz_dir_names[8];
static size_t fuzz_dir_n;

static void fuzz_dir_cleanup(void)
{
    char p[128];
    for (size_t i = 0; i < fuzz_dir_n; i++) {
        snprintf(p, sizeof p, "%s/%s", fuzz_dir_path, fuzz_dir_names[i]);
        unlink(p);
    }
    rmdir(fuzz_dir_path);
}

/* Write data[0, size) to the file `name` (a string literal; at most 8
 * names) of the fuzz directory; returns the directory. */
static const char *fuzz_dir_file(const char *name, const uint8_t *data, size_t size)
{
    if (!fuzz_dir_path[0]) {
        strcpy(fuzz_dir_path, "/dev/shm/attnrank-fuzz-XXXXXX");
        if (!mkdtemp(fuzz_dir_path)) {
            perror("mkdtemp");
            abort();
        }
        atexit(fuzz_dir_cleanup);
    }
    size_t i = 0;
    while (i < fuzz_dir_n && strcmp(fuzz_dir_names[i], name) != 0)
        i++;
    if (i == fuzz_dir_n) {
        if (fuzz_dir_n == 8)
            abort();
        fuzz_dir_names[fuzz_dir_n++] = name;
    }
    char p[128];
    snprintf(p, sizeof p, "%s/%s", fuzz_dir_path, name);
    FILE *f = fopen(p, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror("fuzz_dir_file");
        abort();
    }
    return fuzz_dir_path;
}

#endif
