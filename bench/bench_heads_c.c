/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_heads_c.c -- the C door of bench/bench_heads.py: one certified bracket of
 * A = rowsoftmax(BETA Q K^T) through the public API only (include/attnrank.h),
 * printed as the library's JSON line, the same text `attnrank bracket --format json`
 * and the Python package print for the same result.
 *
 * Usage: bench_heads_c Q.npy [K.npy] BETA EPS
 *   one .npy: self-attention on its rows (keys NULL); two: queries and keys.
 * Prints attnrank_bracket_json(&r, "arrays", NULL, ...) and a newline, exit 0;
 * on failure one line on stderr (attnrank_error_message()), exit 1. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "include/attnrank.h"

static int fail(const char *what)
{
    const char *m = attnrank_error_message();
    if (m && *m)
        fprintf(stderr, "bench_heads_c: %s\n", m);   /* the library's line names the file or the call */
    else
        fprintf(stderr, "bench_heads_c: %s failed\n", what);
    return 1;
}

/* The whole argument as a finite double. */
static int number(const char *s, const char *name, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (end == s || *end != '\0' || errno != 0 || !isfinite(*v)) {
        fprintf(stderr, "bench_heads_c: %s must be a finite number, got '%s'\n", name, s);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: bench_heads_c Q.npy [K.npy] BETA EPS\n");
        return 1;
    }
    int cross = argc == 5;
    double beta, eps;
    if (number(argv[argc - 2], "BETA", &beta) || number(argv[argc - 1], "EPS", &eps))
        return 1;
    double *q = NULL, *k = NULL;
    size_t m = 0, n = 0, dq = 0, dk = 0;
    if (attnrank_npy_read(argv[1], &q, &m, &dq) != ATTNRANK_OK)
        return fail(argv[1]);
    if (cross && attnrank_npy_read(argv[2], &k, &n, &dk) != ATTNRANK_OK) {
        attnrank_free(q);
        return fail(argv[2]);
    }
    if (cross && dk != dq) {
        fprintf(stderr, "bench_heads_c: queries have %zu columns, keys %zu\n", dq, dk);
        attnrank_free(q);
        attnrank_free(k);
        return 1;
    }
    attnrank_bracket_result r;
    ATTNRANK_INIT(&r);
    attnrank_status st = attnrank_bracket_arrays(q, m, k, cross ? n : m, dq, NULL, NULL, beta, eps, NULL, &r);
    attnrank_free(q);
    attnrank_free(k);
    if (st != ATTNRANK_OK)
        return fail("attnrank_bracket_arrays");
    char *s = NULL;
    if (attnrank_bracket_json(&r, "arrays", NULL, &s) != ATTNRANK_OK) {
        attnrank_bracket_clear(&r);
        return fail("attnrank_bracket_json");
    }
    printf("%s\n", s);
    attnrank_free(s);
    attnrank_bracket_clear(&r);
    attnrank_cleanup();
    return fflush(stdout) == 0 ? 0 : 1;
}
