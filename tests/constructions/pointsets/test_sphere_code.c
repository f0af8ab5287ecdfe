/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_sphere_code.c -- the recursive zonal code (sphere_code.h): the proven
 * chord checked over all pairs with exact rational arithmetic near the
 * bound, norms, count = generated size, determinism and prefixes, bad input
 * (proofs-notes/packing-lower-bounds.md, section 6, Lemma Z). */
#include <check.h>
#include <math.h>
#include <string.h>
#include <flint/fmpq.h>
#include "testutil.h"
#include "base/config.h"
#include "constructions/pointsets/family.h"
#include "constructions/pointsets/sphere_code.h"
#include "base/sha256.h"

/* q = x exactly (x finite). */
static void q_from_d(fmpq_t q, double x)
{
    int e;
    double f = frexp(x, &e);
    fmpq_set_si(q, (slong)ldexp(f, 53), 1);
    if (e - 53 >= 0)
        fmpq_mul_2exp(q, q, (ulong)(e - 53));
    else
        fmpq_div_2exp(q, q, (ulong)(53 - e));
}

/* exact |x - y|^2 >= c2lo (c2lo a double below (2 sin(theta/2))^2) */
static int chord2_at_least(const double *x, const double *y, size_t d, double c2lo)
{
    fmpq_t s, a, b;
    fmpq_init(s);
    fmpq_init(a);
    fmpq_init(b);
    for (size_t c = 0; c < d; c++) {
        q_from_d(a, x[c]);
        q_from_d(b, y[c]);
        fmpq_sub(a, a, b);
        fmpq_mul(a, a, a);
        fmpq_add(s, s, a);
    }
    q_from_d(a, c2lo);
    int ok = fmpq_cmp(s, a) >= 0;
    fmpq_clear(s);
    fmpq_clear(a);
    fmpq_clear(b);
    return ok;
}

/* Every pair: chord >= 2 sin(theta/2) (double test far from the bound, exact near it). */
START_TEST(test_zonal_separation)
{
    static const struct { size_t d; double theta; } cs[] = {
        { 2, 0.05 }, { 3, 0.12 }, { 4, 0.3 }, { 5, 0.45 }, { 6, 0.6 }, { 7, 0.8 }, { 8, 1.0 }, { 3, 2.5 }, { 5, 2.0 },
    };
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
        size_t d = cs[k].d;
        pointset_t P;
        ck_assert_msg(sphere_zonal(&P, d, cs[k].theta, 100000) == AR_OK, "%s", ar_error_get());
        ck_assert_msg(P.n >= 2 && P.n <= 4000, "d=%zu theta=%g: n=%zu", d, cs[k].theta, P.n);
        double c = 2.0 * sin(0.5 * cs[k].theta), c2lo = c * c * (1.0 - 1e-15);   /* below the exact c^2 */
        size_t exact = 0;
        for (size_t i = 0; i < P.n; i++) {
            double nrm = 0.0;
            for (size_t a = 0; a < d; a++)
                nrm += P.x[i * d + a] * P.x[i * d + a];
            ck_assert_msg(fabs(nrm - 1.0) < 0x1p-47, "d=%zu point %zu: |x|^2 = %.17g", d, i, nrm);
            for (size_t j = i + 1; j < P.n; j++) {
                double D = 0.0;
                for (size_t a = 0; a < d; a++) {
                    double u = P.x[i * d + a] - P.x[j * d + a];
                    D += u * u;
                }
                if (D > c2lo * (1.0 + 1e-12))
                    continue;
                exact++;
                ck_assert_msg(chord2_at_least(P.x + i * d, P.x + j * d, d, c2lo),
                              "d=%zu theta=%g: pair (%zu, %zu) chord^2 %.17g < %.17g", d, cs[k].theta, i, j,
                              D, c * c);
            }
        }
        pointset_clear(&P);
    }
}
END_TEST

START_TEST(test_zonal_count_determinism_prefix)
{
    for (size_t d = 3; d <= 7; d++) {
        double theta = 0.25 + 0.1 * (double)d;
        size_t n = 0;
        pointset_t P, Q, R;
        ck_assert_int_eq(sphere_zonal_count(d, theta, 1000000, &n), AR_OK);
        ck_assert_int_eq(sphere_zonal(&P, d, theta, 1000000), AR_OK);
        ck_assert_int_eq(sphere_zonal(&Q, d, theta, 1000000), AR_OK);
        ck_assert_int_eq(P.n, n);
        ck_assert_int_eq(Q.n, n);
        ck_assert(memcmp(P.x, Q.x, n * d * sizeof(double)) == 0);
        ck_assert_int_eq(sphere_zonal(&R, d, theta, n / 2), AR_OK);      /* a prefix */
        ck_assert_int_eq(R.n, n / 2);
        ck_assert(memcmp(P.x, R.x, R.n * d * sizeof(double)) == 0);
        /* the family dispatch: --family packing is this code in d >= 3 */
        pointset_t F = { 0 };
        ck_assert_int_eq(sphere_generate(&F, FAMILY_PACKING, 1000000, d, theta, 7), AR_OK);
        ck_assert_int_eq(F.n, n);
        ck_assert(memcmp(P.x, F.x, n * d * sizeof(double)) == 0);
        pointset_clear(&F);
        /* smaller theta, more points (roughly theta^-(d-1)) */
        size_t n2 = 0;
        ck_assert_int_eq(sphere_zonal_count(d, theta / 1.5, 10000000, &n2), AR_OK);
        ck_assert_msg(n2 > n, "d=%zu: %zu points at theta/1.5, %zu at theta", d, n2, n);
        pointset_clear(&P);
        pointset_clear(&Q);
        pointset_clear(&R);
    }
}
END_TEST

/* The generation pass runs the top latitudes side by side (base/parallel.h):
 * the same points, bit for bit, for every thread count, including a prefix
 * that ends inside a latitude; and the same as the one-pass serial generator
 * they replaced (the SHA-256 of its coordinates, recorded at commit 547351e:
 * Arb's balls and their nearest doubles do not depend on the machine). */
START_TEST(test_zonal_threads)
{
    const struct { size_t d; double theta; size_t n; const char *sha; } cases[] = {
        { 3, 0.05, 4928, "c445c5e362dbdb184c7e5dad7cb4eeb4b8deb70e0065b08152be1f1348182497" },
        { 4, 0.12, 10760, "5cd028ca11970f82fcdf57e2ccc2e2e19a040b71e47e66137dae915cd856a750" },
        { 5, 0.3, 2584, "7bea19c25267c56618c5d6494029008fae2e4f8d6eaf2bbca10675803e957394" },
        { 6, 0.38, 2512, "9289cf2aaf1fb2429e384300e29d8348961242da0882fd96ada66dff2d679096" },
        { 7, 0.42, 3210, "47f930051efa395d416ba35fe7a927c6de26753d57a4e5dc2ca934596a11c01e" } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t d = cases[k].d, n = 0;
        double th = cases[k].theta;
        ck_assert_int_eq(sphere_zonal_count(d, th, SIZE_MAX, &n), AR_OK);
        ck_assert_msg(n == cases[k].n, "d=%zu: %zu points, %zu recorded", d, n, cases[k].n);
        /* the count pass counts the top latitudes side by side, each capped on its own: the
         * count is min(n, cap) for every cap and thread count */
        const size_t ccaps[] = { 1, 2, n / 7, n / 3 + 7, n - 1, n, n + 1, SIZE_MAX };
        for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++)
            for (size_t h = 0; h < sizeof ccaps / sizeof ccaps[0]; h++) {
                ar_config_t cfg;
                const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
                size_t got = 0;
                ck_assert_int_eq(sphere_zonal_count(d, th, ccaps[h], &got), AR_OK);
                ar_config_install(prev);
                ck_assert_msg(got == (ccaps[h] < n ? ccaps[h] : n), "d=%zu cap %zu, %d threads: %zu points",
                              d, ccaps[h], TEST_THREAD_COUNTS[c], got);
            }
        size_t caps[2] = { SIZE_MAX, n / 3 + 7 };
        pointset_t Pfull = { 0 };
        for (int w = 0; w < 2; w++) {
            pointset_t P0 = { 0 };
            for (size_t c = 0; c < TEST_NTHREAD_COUNTS; c++) {
                ar_config_t cfg;
                const ar_config_t *prev = test_threads_install(&cfg, TEST_THREAD_COUNTS[c]);
                pointset_t P;
                ck_assert_int_eq(sphere_zonal(&P, d, th, caps[w]), AR_OK);
                ar_config_install(prev);
                if (c == 0) {
                    P0 = P;
                    ck_assert_int_eq(P0.n, w ? caps[w] : n);
                    if (w == 0) {
                        ck_assert_int_eq(pointset_init(&Pfull, n, d), AR_OK);
                        memcpy(Pfull.x, P0.x, n * d * sizeof(double));
                    } else            /* a prefix in generation order (the circles' phases too) */
                        ck_assert(memcmp(P0.x, Pfull.x, P0.n * d * sizeof(double)) == 0);
                    char hex[65];
                    sha256_hex(P0.x, P0.n * d * sizeof(double), hex);
                    ck_assert_msg(w || strcmp(hex, cases[k].sha) == 0, "d=%zu theta=%g: coordinates %s, recorded %s",
                                  d, th, hex, cases[k].sha);
                    continue;
                }
                ck_assert_msg(P.n == P0.n && memcmp(P.x, P0.x, P.n * d * sizeof(double)) == 0,
                              "d=%zu theta=%g cap %zu: %d threads differ from one", d, th, caps[w],
                              TEST_THREAD_COUNTS[c]);
                pointset_clear(&P);
            }
            pointset_clear(&P0);
        }
        pointset_clear(&Pfull);
    }
}
END_TEST

START_TEST(test_zonal_bad_input)
{
    pointset_t P;
    size_t n = 5;
    ck_assert_int_eq(sphere_zonal(&P, 1, 0.5, 10), AR_EINVAL);
    ck_assert_int_eq(sphere_zonal(&P, 17, 0.5, 10), AR_EINVAL);
    ck_assert_int_eq(sphere_zonal(&P, 3, 0.0, 10), AR_EINVAL);
    ck_assert_int_eq(sphere_zonal(&P, 3, 1e-7, 10), AR_EINVAL);
    ck_assert_int_eq(sphere_zonal(&P, 3, 3.2, 10), AR_EINVAL);
    ck_assert_int_eq(sphere_zonal(&P, 3, NAN, 10), AR_EINVAL);
    ck_assert_int_eq(sphere_zonal(&P, 3, 0.5, 0), AR_EINVAL);
    ck_assert_int_eq(sphere_zonal_count(0, 0.5, 10, &n), AR_EINVAL);
    ck_assert_int_eq(n, 0);
    ck_assert(strchr(ar_error_get(), '\n') == NULL);
    /* beyond the allocation limit: one line, before the coordinates are allocated */
    ar_config_t cfg;
    ar_config_default(&cfg);
    cfg.max_alloc_bytes = (size_t)(0.0001 * 1073741824.0);    /* 107 kB: 2237 points in d = 6 */
    ar_config_install(&cfg);
    ck_assert_int_eq(sphere_zonal(&P, 6, 0.1, SIZE_MAX), AR_ENOMEM);
    ck_assert(strstr(ar_error_get(), "allocation limit") != NULL);
    ck_assert(strchr(ar_error_get(), '\n') == NULL);
    ck_assert_int_eq(sphere_zonal(&P, 6, 0.1, 1000), AR_OK);  /* a prefix that fits */
    ck_assert_int_eq(P.n, 1000);
    pointset_clear(&P);
    ar_config_install(NULL);
    /* one point when theta = pi allows only antipodes: d = 3 gives the two poles of one circle */
    ck_assert_int_eq(sphere_zonal(&P, 3, M_PI, 100), AR_OK);
    ck_assert_int_le(P.n, 2);
    pointset_clear(&P);
}
END_TEST

Suite *suite_sphere_code(void)
{
    Suite *s = suite_create("sphere_code");
    TEST_TCASE(tc, "core");
    tcase_add_test(tc, test_zonal_separation);
    tcase_add_test(tc, test_zonal_count_determinism_prefix);
    tcase_add_test(tc, test_zonal_threads);
    tcase_add_test(tc, test_zonal_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
