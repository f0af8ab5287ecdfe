/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cert_packing.c -- what the packing certificate shares (theory/certificates/cert_packing.c,
 * proofs-notes/packing-lower-bounds.md): the multiset statement against a dense weighted
 * enclosure (pack_multiset_lower), and bad input for every entry point (the validation).
 * The diagonal-dominance pass: test_cert_packing_diagdom.c; the counting tail:
 * test_cert_packing_tail.c; the search: test_cert_packing_search.c. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include "testutil.h"
#include "numerics/rng.h"
#include "numerics/softmax.h"
#include "constructions/pointsets/pointset.h"
#include "constructions/pointsets/sphere.h"
#include "constructions/pointsets/sphere_code.h"
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_packing.h"
#include "packutil.h"

/* n > m: the weighted (multiset) matrix of the returned sub-packing, built
 * densely with integer multiplicities, must pass the dense diagonal check. */
START_TEST(test_multiset_claim)
{
    uint64_t seed = test_seed() * 1000 + 31;
    double eps = 0.1;
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_packing(&P, 3, 0.6, 40, seed, 0), AR_OK);
    size_t m = P.n;
    /* large margin (small max_R) and a margin near the threshold */
    double betas[2] = { 40.0, 9.0 };
    for (int b = 0; b < 2; b++) {
        pack_cert_t c;
        ck_assert_int_eq(pack_diagdom(&P, betas[b], eps, &c), AR_OK);
        if (!c.certified)
            continue;
        size_t ns[4] = { m / 2, m, 2 * m + 1, 7 * m + 3 };
        for (int k = 0; k < 4; k++) {
            size_t n = ns[k], kk = pack_multiset_lower(&c, n);
            ck_assert(kk >= 1 && kk <= (n < m ? n : m));
            if (n <= m)
                ck_assert_int_eq(kk, n);
            if (kk < 2)
                continue;
            /* weights on the first kk points: q or q+1, summing to n */
            size_t q = n / kk, rem = n % kk;
            if (n <= m) {
                q = 1;
                rem = 0;
            }
            pointset_t Q = { 0 };
            ck_assert_int_eq(pointset_init(&Q, kk, 3), AR_OK);
            memcpy(Q.x, P.x, kk * 3 * sizeof(double));
            ck_assert_int_eq(pointset_alloc_weights(&Q), AR_OK);
            for (size_t i = 0; i < kk; i++)
                fmpz_set_ui(Q.w + i, (ulong)(q + (i < rem)));
            smx_t A;
            memset(&A, 0, sizeof A);
            ck_assert_int_eq(smx_compute(&A, Q.x, kk, Q.x, kk, 3, Q.w, betas[b], 0, 2), AR_OK);
            size_t *id = malloc(kk * sizeof *id);
            for (size_t i = 0; i < kk; i++)
                id[i] = i;
            lower_cert_t ld;
            ck_assert_int_eq(lower_diagdom(&A, id, id, kk, eps, &ld), AR_OK);
            ck_assert_msg(ld.rank == kk, "beta=%g m=%zu n=%zu: claimed %zu, dense weighted "
                          "check gives %zu (max_R=%.17g)", betas[b], m, n, kk, ld.rank, c.max_R);
            free(id);
            smx_clear(&A);
            pointset_clear(&Q);
        }
    }
    pointset_clear(&P);
}
END_TEST

START_TEST(test_bad_input)
{
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_uniform(&P, 10, 3, 1), AR_OK);
    pack_cert_t c;
    ck_assert_int_eq(pack_diagdom(NULL, 1.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, NULL), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, -1.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, INFINITY, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.0, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 1.0, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, NAN, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom_phi(&P, 1.0, 0.1, -1.0, &c), AR_EINVAL);
    ck_assert_int_eq(pack_diagdom_phi(&P, 1.0, 0.1, NAN, &c), AR_EINVAL);
    double keep = P.x[4];
    P.x[4] = 1.6;
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, &c), AR_EINVAL);
    P.x[4] = NAN;
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, &c), AR_EINVAL);
    P.x[4] = keep;
    ck_assert_int_eq(pointset_alloc_weights(&P), AR_OK);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, &c), AR_OK);     /* all ones: accepted */
    fmpz_set_ui(P.w + 3, 2);
    ck_assert_int_eq(pack_diagdom(&P, 1.0, 0.1, &c), AR_EINVAL);
    ck_assert_int_eq(pack_invnorm(&P, 1.0, 0.1, &c), AR_EINVAL);
    pointset_clear(&P);
    ck_assert_int_eq(pointset_init(&P, 6001, 3), AR_OK);
    ck_assert_int_eq(pack_invnorm(&P, 1.0, 0.1, &c), AR_EINVAL);
    pointset_clear(&P);
    ck_assert_int_eq(pack_lower_search(1, 1.0, 0.1, 1, 10, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(17, 1.0, 0.1, 1, 10, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(3, -1.0, 0.1, 1, 10, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(3, 1.0, 1.5, 1, 10, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(3, 1.0, 0.1, 1, 0, &c), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search(3, 1.0, 0.1, 1, 10, NULL), AR_EINVAL);
    ck_assert_int_eq(pack_lower_search_with(3, 1.0, 0.1, 1, 7000, PACK_INVNORM, &c), AR_EINVAL);
    /* beta = 0: A = all 1/m, only one point can be certified */
    ck_assert_int_eq(pack_lower_search(3, 0.0, 0.1, 1, 10, &c), AR_OK);
    ck_assert_int_eq(c.m, 1);
    ck_assert_int_eq(c.certified, 1);
}
END_TEST

Suite *suite_cert_packing(void)
{
    Suite *s = suite_create("cert_packing");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_multiset_claim);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
