/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_golden.c -- regression goldens: certified brackets of fixed small
 * instances, one per construction, compared exactly with
 * tests/golden/brackets.tsv (see tests/golden/README.md). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "testutil.h"
#include "constructions/pointsets/family.h"
#include "constructions/pointsets/pointset.h"
#include "numerics/blas_select.h"
#include "theory/brackets/bracket.h"
#include "theory/certificates/cert_circulant.h"
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_poly.h"
#include "theory/brackets/route.h"

#define GOLDEN_PATH "tests/golden/brackets.tsv"
#define GOLDEN_MARGIN 1e-9   /* relative clearance of every golden end from its threshold */

typedef struct {
    const char *name, *family;
    size_t d, n;
    double beta, eps, theta;
    uint64_t seed;
    int weights;        /* 1: multiplicities w_j = 1 + (j mod 5) * 10^30 (cross-attention on the same points) */
} golden_case_t;

static const golden_case_t cases[] = {
    { "polygon-d2", "polygon", 2, 150, 100, 0.1, 0, 1, 0 },
    { "fibonacci-d3", "fibonacci", 3, 300, 10, 0.1, 0, 1, 0 },
    { "uniform-d4", "uniform", 4, 250, 8, 0.15, 0, 3, 0 },
    { "packing-d3", "packing", 3, 400, 200, 0.1, 0.2, 5, 0 },
    { "uniform-d3-weighted-cross", "uniform", 3, 120, 12, 0.2, 0, 9, 1 },
};

/* Compute one golden row into buf. */
static void golden_row(const golden_case_t *c, char *buf, size_t cap)
{
    sphere_family_t f;
    ck_assert_int_eq(sphere_family_parse(c->family, &f), AR_OK);
    pointset_t P = { 0 }, K = { 0 };
    ck_assert_msg(sphere_generate(&P, f, c->n, c->d, c->theta, c->seed) == AR_OK, "%s: %s", c->name, ar_error_get());
    route_result_t rr;
    ar_status st;
    if (c->weights) {
        ck_assert_int_eq(pointset_init(&K, P.n, P.d), AR_OK);
        memcpy(K.x, P.x, P.n * P.d * sizeof *P.x);
        ck_assert_int_eq(pointset_alloc_weights(&K), AR_OK);
        for (size_t j = 0; j < K.n; j++) {
            fmpz_set_ui(K.w + j, 10);
            fmpz_pow_ui(K.w + j, K.w + j, 30);
            fmpz_mul_ui(K.w + j, K.w + j, j % 5);
            fmpz_add_ui(K.w + j, K.w + j, 1);
        }
        st = route_bracket(&P, &K, c->beta, c->eps, NULL, &rr);
    } else {
        st = route_bracket(&P, &P, c->beta, c->eps, NULL, &rr);
    }
    ck_assert_msg(st == AR_OK, "%s: %s", c->name, ar_error_get());
    const bracket_t *b = &rr.b;
    /* Golden ends must not sit at a certification threshold, where another
     * BLAS core's rounding (~1e-15 relative) could move them: the certified
     * quantities must clear eps (upper) and 1 (lower) by GOLDEN_MARGIN. */
    if (b->up.method != AR_METHOD_TRIVIAL)
        ck_assert_msg(b->up.err <= c->eps * (1 - GOLDEN_MARGIN), "%s: upper end at a threshold (err %.17g, eps %g)",
                      c->name, b->up.err, c->eps);
    if (isfinite(b->lo.invnorm) && b->lo.method != AR_METHOD_TRIVIAL)
        ck_assert_msg(c->eps * b->lo.invnorm <= 1 - GOLDEN_MARGIN, "%s: lower end at a threshold (eps*bound %.17g)",
                      c->name, c->eps * b->lo.invnorm);
    snprintf(buf, cap, "%s\t%zu\t%zu\t%zu\t%s/%s\t%s/%s\t%s", c->name, P.n, b->lower, b->upper,
             ar_route_name(rr.lower_route), ar_method_name(b->lo.method), ar_route_name(rr.upper_route),
             ar_method_name(b->up.method), ar_cert_status_name(b->status));
    pointset_clear(&P);
    pointset_clear(&K);
}

/* The structured certificates of issue #3, one row each. */
static size_t golden_structured(char rows[][256], size_t k)
{
    circ_bracket_t cb;
    ck_assert_msg(circ_bracket(2520, 1000, 0.1, 0, &cb) == AR_OK, "circulant: %s", ar_error_get());
    snprintf(rows[k++], 256, "circulant-2520-gon\t2520\t%zu\t%zu\tcirculant-blocks\t%s\t%s", cb.lower, cb.upper,
             cb.upper == cb.upper_lp ? "circulant-l1lp" : "circulant-projection", ar_cert_status_name(cb.status));
    pointset_t P = { 0 };
    ck_assert_int_eq(sphere_generate(&P, FAMILY_FIBONACCI, 3000, 3, 0, 1), AR_OK);
    poly_cert_t pc;
    ck_assert_msg(poly_upper_instance(&P, 20, 0.1, &pc) == AR_OK, "poly: %s", ar_error_get());
    snprintf(rows[k++], 256, "polynomial-fibonacci-d3\t3000\t-\t%zu\t-\tpolynomial L=%lu\tcertified", pc.rank, pc.L);
    pointset_clear(&P);
    ck_assert_msg(poly_upper_continuum(4, 50, 0.1, &pc) == AR_OK, "continuum: %s", ar_error_get());
    snprintf(rows[k++], 256, "continuum-d4\t-\t-\t%zu\t-\tpolynomial L=%lu\tcertified", pc.rank, pc.L);
    pack_cert_t pk;
    ck_assert_msg(pack_lower_search(4, 50, 0.1, 1, 60000, &pk) == AR_OK, "packing: %s", ar_error_get());
    snprintf(rows[k++], 256, "packing-search-d4\t%zu\t%zu\t-\t%s\t-\tcertified", pk.m, pk.certified,
             ar_method_name(pk.method));
    return k;
}

START_TEST(test_golden_brackets)
{
    size_t nc0 = sizeof cases / sizeof cases[0];
    char rows[16][256];
    for (size_t i = 0; i < nc0; i++)
        golden_row(&cases[i], rows[i], sizeof rows[i]);
    size_t nc = golden_structured(rows, nc0);
    if (getenv("ATTNRANK_GOLDEN_UPDATE")) {
        FILE *f = fopen(GOLDEN_PATH, "w");
        ck_assert_msg(f != NULL, "cannot write %s", GOLDEN_PATH);
        fprintf(f, "# certified brackets of fixed instances; recorded with BLAS core %s\n", blas_corename());
        fprintf(f, "# name\tn\tlower\tupper\tlower_certificate\tupper_certificate\tstatus\n");
        for (size_t i = 0; i < nc; i++)
            fprintf(f, "%s\n", rows[i]);
        fclose(f);
        return;
    }
    FILE *f = fopen(GOLDEN_PATH, "r");
    ck_assert_msg(f != NULL, "cannot open %s (run from the repository root)", GOLDEN_PATH);
    char line[512];
    size_t k = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = '\0';
        ck_assert_msg(k < nc, "golden file has more rows than cases");
        ck_assert_msg(strcmp(line, rows[k]) == 0, "golden row %zu moved:\n  recorded: %s\n  computed: %s", k, line,
                      rows[k]);
        k++;
    }
    fclose(f);
    ck_assert_msg(k == nc, "golden file has %zu rows, expected %zu", k, nc);
}
END_TEST

Suite *suite_golden(void)
{
    Suite *s = suite_create("golden");
    TEST_TCASE(tc, "golden");
    tcase_add_test(tc, test_golden_brackets);
    suite_add_tcase(s, tc);
    return s;
}
