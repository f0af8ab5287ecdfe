/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_rsvd.c -- the randomized upper certificates' driver (theory/certificates/cert_rsvd.c,
 * cert_rsvd.h): upper_rsvd returns a certified rank whose predecessor fails, a fixed seed gives
 * the same certificate, held and streamed agree; upper_rsym against the full symeig; bad
 * arguments.  The sketch: test_cert_rsvd_sketch.c; the certified search over the ranks (the
 * certified errors of several ranks in one pass, checked in MPFR against a 300-bit Arb
 * enclosure, and the gap fill): test_cert_rsvd_search.c. */
#include <check.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include "testutil.h"
#include "numerics/amat.h"
#include "numerics/linalg.h"
#include "numerics/rng.h"
#include "numerics/softmax.h"
#include "numerics/softmax_dbl.h"
#include "theory/certificates/cert_rsvd.h"
#include "theory/certificates/cert_upper.h"
#include "rsvdutil.h"

/* upper_rsvd: certified, minimal in its search (rank - 1 refuted with the same sketch seed is
 * not observable here, so: the truncated SVD of the same rank - 1 fails or rsvd is within 1 of
 * it), deterministic for a seed, and the same held or streamed. */
START_TEST(test_upper_rsvd_search)
{
    test_rng_init(test_seed() + 32);
    size_t m = 300, n = 260, d = 3;
    double *q = malloc(m * d * sizeof *q), *k = malloc(n * d * sizeof *k);
    points(q, m * d);
    points(k, n * d);
    for (int it = 0; it < 2; it++) {
        double beta = it ? 30.0 : 8.0, eps = it ? 0.1 : 0.2;
        smx_t A;
        smxd_t S;
        ck_assert_int_eq(smx_compute_dbl(&A, q, m, k, n, d, NULL, beta, 0), AR_OK);
        ck_assert_int_eq(smxd_prepare(&S, q, m, k, n, d, NULL, beta, 0), AR_OK);
        amat_t Mh, Ms;
        amat_memory(&Mh, &A);
        amat_stream(&Ms, &S);
        Ms.blk = 40;
        rsvd_opts_t o;
        rsvd_opts_default(&o);
        o.l0 = 16;                                   /* forces at least one larger sketch */
        upper_cert_t a, b, c, svd;
        rsvd_info_t ia, ib, ic;
        ck_assert_int_eq(upper_rsvd(&Mh, eps, &o, &a, &ia), AR_OK);
        ck_assert_int_eq(upper_rsvd(&Mh, eps, &o, &b, &ib), AR_OK);
        ck_assert_int_eq(upper_rsvd(&Ms, eps, &o, &c, &ic), AR_OK);
        ck_assert_int_eq(upper_svd(&A, eps, &svd), AR_OK);
        ck_assert_str_eq(ar_method_name(a.method), "rsvd");
        ck_assert(a.err <= eps && a.rank >= 1);
        ck_assert_uint_eq(a.rank, b.rank);
        ck_assert(a.err == b.err);                   /* same seed, same kernels: same bits */
        ck_assert_uint_eq(a.rank, c.rank);          /* held vs streamed */
        ck_assert(fabs(a.err - c.err) <= 1e-12);
        ck_assert_msg(a.rank <= svd.rank + 1 + svd.rank / 100, "rsvd %zu vs svd %zu", a.rank, svd.rank);
        ck_assert(ia.rounds >= 2 && ia.sketch >= a.rank);
        ck_assert(ia.passes >= 2 * (size_t)o.power + 2);
        smx_clear(&A);
        smxd_clear(&S);
    }
    free(q);
    free(k);
}
END_TEST

START_TEST(test_upper_rsvd_args)
{
    upper_cert_t c;
    amat_t M;
    memset(&M, 0, sizeof M);
    ck_assert_int_eq(upper_rsvd(&M, 0.1, NULL, &c, NULL), AR_EINVAL);
    double q[2] = { 0.1, 0.2 };
    smx_t A;
    ck_assert_int_eq(smx_compute_dbl(&A, q, 2, q, 2, 1, NULL, 1.0, 0), AR_OK);
    amat_memory(&M, &A);
    ck_assert_int_eq(upper_rsvd(&M, 1.0, NULL, &c, NULL), AR_EINVAL);
    ck_assert_int_eq(upper_rsvd(&M, 0.5, NULL, &c, NULL), AR_OK);
    ck_assert(c.rank >= 1 && c.rank <= 2);
    smx_clear(&A);
}
END_TEST

/* upper_rsym: the randomized symeig of S = T A T^{-1} on weighted self-attention is within 1%
 * (or 1) of the full symeig on the same matrix, and certified; it refuses non-square input and
 * falls back to the trivial certificate when log t spans more than 600. */
START_TEST(test_upper_rsym)
{
    test_rng_init(test_seed() + 33);
    size_t n = 280, d = 2;
    double *x = malloc(n * d * sizeof *x);
    points(x, n * d);
    fmpz *w = _fmpz_vec_init((slong)n);
    for (size_t j = 0; j < n; j++) {
        fmpz_set_ui(w + j, 1 + (ulong)(j % 7));
        fmpz_mul_2exp(w + j, w + j, (ulong)(j % 11));
    }
    smx_t A;
    ck_assert_int_eq(smx_compute_dbl(&A, x, n, x, n, d, w, 10.0, 0), AR_OK);
    double *logt = malloc(n * sizeof *logt);
    for (size_t i = 0; i < n; i++)
        logt[i] = 0.5 * (A.lognorm[i] + log(fmpz_get_d(w + i)));
    amat_t M;
    amat_memory(&M, &A);
    upper_cert_t rs, se;
    rsvd_info_t info;
    rsvd_opts_t o;
    rsvd_opts_default(&o);
    o.l0 = 40;
    ck_assert_int_eq(upper_rsym(&M, logt, 0.1, &o, &rs, &info), AR_OK);
    ck_assert_int_eq(upper_symeig(&A, logt, 0.1, &se), AR_OK);
    ck_assert_str_eq(ar_method_name(rs.method), "rsym");
    ck_assert(rs.err <= 0.1);
    ck_assert_msg(rs.rank <= se.rank + 1 + se.rank / 100, "rsym %zu vs symeig %zu", rs.rank, se.rank);
    ck_assert(info.passes >= (size_t)o.power + 2);
    logt[0] += 700;
    ck_assert_int_eq(upper_rsym(&M, logt, 0.1, &o, &rs, &info), AR_OK);
    ck_assert_str_eq(ar_method_name(rs.method), "trivial");
    smx_t B;
    ck_assert_int_eq(smx_compute_dbl(&B, x, 3, x, n, d, w, 10.0, 0), AR_OK);
    amat_memory(&M, &B);
    ck_assert_int_eq(upper_rsym(&M, logt, 0.1, &o, &rs, &info), AR_EINVAL);
    smx_clear(&A);
    smx_clear(&B);
    free(x);
    free(logt);
    _fmpz_vec_clear(w, (slong)n);
}
END_TEST

Suite *suite_cert_rsvd(void)
{
    Suite *s = suite_create("cert_rsvd");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_upper_rsvd_search);
    tcase_add_test(tc, test_upper_rsvd_args);
    tcase_add_test(tc, test_upper_rsym);
    suite_add_tcase(s, tc);
    return s;
}
