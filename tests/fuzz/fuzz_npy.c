/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_npy.c -- libFuzzer harness for npy_read (constructions/formats/npy.c).
 * Invariants on an accepted file: a non-empty r x c array of finite doubles
 * that survives npy_write + npy_read bit for bit; on a refused file: outputs
 * reset and a one-line message. */
#include <math.h>
#include <string.h>
#include "constructions/formats/npy.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    double *x = NULL;
    size_t r = 7, c = 7;
    ar_status st = npy_read(fuzz_file(data, size), &x, &r, &c);
    if (st != AR_OK) {
        FUZZ_REQUIRE(x == NULL && r == 0 && c == 0);
        const char *m = ar_error_get();
        FUZZ_REQUIRE(m[0] != '\0' && strchr(m, '\n') == NULL);
        return 0;
    }
    FUZZ_REQUIRE(x != NULL && r > 0 && c > 0);
    for (size_t e = 0; e < r * c; e++)
        FUZZ_REQUIRE(isfinite(x[e]));
    /* canonical re-save: the same array */
    static int fd = -1;   /* a second in-memory file for the re-save */
    static char tmp[64];
    if (fd < 0) {
        fd = memfd_create("attnrank-fuzz-out", 0);
        FUZZ_REQUIRE(fd >= 0);
        snprintf(tmp, sizeof tmp, "/proc/self/fd/%d", fd);
    }
    FUZZ_REQUIRE(npy_write(tmp, x, r, c) == AR_OK);
    double *y = NULL;
    size_t r2, c2;
    FUZZ_REQUIRE(npy_read(tmp, &y, &r2, &c2) == AR_OK);
    FUZZ_REQUIRE(r2 == r && c2 == c && memcmp(x, y, r * c * sizeof *x) == 0);
    free(x);
    free(y);
    return 0;
}
