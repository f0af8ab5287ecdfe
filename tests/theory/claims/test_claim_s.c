/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_claim_s.c -- claim S's sweep point (theory/claims/claim_s.h): the lower
 * end's construction.  packing_zonal = 1 takes the zonal code at every beta
 * (one construction across a window, proofs-notes/claim-S.md "The far windows
 * of issue 36"); the default lets the search choose (PACK_GEN_AUTO: the pooled
 * greedy while its pool fits).  The point's lower end is exactly the search's
 * certified size on the chosen generator. */
#include <check.h>
#include <string.h>
#include "testutil.h"
#include "theory/claims/claim_s.h"
#include "theory/certificates/cert_packing.h"

static void lower_of(int zonal, double beta, law_point_t *p)
{
    claim_s_opts_t o;
    claim_s_opts_default(&o);
    ck_assert_int_eq(o.packing_zonal, 0);
    o.instance = 0;
    o.packing_zonal = zonal;
    ck_assert_int_eq(claim_s_point(4, beta, 0.1, &o, p), AR_OK);
}

START_TEST(test_packing_zonal)
{
    const double beta = 20.0;
    law_point_t pz, pa;
    pack_cert_t cz, ca;
    lower_of(1, beta, &pz);
    lower_of(0, beta, &pa);
    ck_assert_int_eq(pack_lower_search_gen(4, beta, 0.1, 1, 60000, PACK_DIAGDOM, PACK_GEN_ZONAL, &cz), AR_OK);
    ck_assert_int_eq(pack_lower_search_gen(4, beta, 0.1, 1, 60000, PACK_DIAGDOM, PACK_GEN_AUTO, &ca), AR_OK);
    ck_assert(cz.certified && ca.certified);
    ck_assert_uint_eq(pz.lower, cz.m);
    ck_assert_uint_eq(pa.lower, ca.m);
    /* the two generators differ here (zonal 150, pooled 142 points:
     * proofs-notes/packing-lower-bounds.md section 6), so the switch is seen */
    ck_assert_uint_ne(pz.lower, pa.lower);
    ck_assert(strncmp(pz.lower_method, "packing/", 8) == 0);
}
END_TEST

Suite *suite_claim_s(void)
{
    Suite *s = suite_create("claim_s");
    TEST_TCASE(tc, "claim_s");
    tcase_add_test(tc, test_packing_zonal);
    suite_add_tcase(s, tc);
    return s;
}
