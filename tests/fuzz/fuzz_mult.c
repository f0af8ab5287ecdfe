/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_mult.c -- libFuzzer harness for mult_read (constructions/formats/npy.c).
 * Invariants on an accepted file: one multiplicity >= 1 per line, each equal
 * to the decimal digits of its line; on a refused file: outputs reset and a
 * one-line message. */
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include "constructions/formats/npy.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fmpz *w = (fmpz *)1;
    size_t n = 7;
    ar_status st = mult_read(fuzz_file(data, size), &w, &n);
    if (st != AR_OK) {
        FUZZ_REQUIRE(w == NULL && n == 0);
        const char *m = ar_error_get();
        FUZZ_REQUIRE(m[0] != '\0' && strchr(m, '\n') == NULL);
        return 0;
    }
    /* an independent reading: lines, blanks trimmed, digits only */
    size_t lines = 0, pos = 0;
    fmpz_t v;
    fmpz_init(v);
    while (pos < size) {
        size_t end = pos;
        while (end < size && data[end] != '\n')
            end++;
        size_t a = pos, b = end;
        while (a < b && (data[a] == ' ' || data[a] == '\t' || data[a] == '\r'))
            a++;
        while (b > a && (data[b - 1] == ' ' || data[b - 1] == '\t' || data[b - 1] == '\r'))
            b--;
        FUZZ_REQUIRE(a < b && lines < n);
        char *s = malloc(b - a + 1);
        FUZZ_REQUIRE(s != NULL);
        memcpy(s, data + a, b - a);
        s[b - a] = '\0';
        for (size_t k = 0; k < b - a; k++)
            FUZZ_REQUIRE(s[k] >= '0' && s[k] <= '9');
        FUZZ_REQUIRE(fmpz_set_str(v, s, 10) == 0);
        free(s);
        FUZZ_REQUIRE(fmpz_cmp_ui(v, 1) >= 0 && fmpz_equal(v, w + lines));
        lines++;
        pos = end + 1;
    }
    FUZZ_REQUIRE(lines == n && n >= 1);
    fmpz_clear(v);
    _fmpz_vec_clear(w, (slong)n);
    return 0;
}
