/* verify_T.c -- claim T (tolerance-indexed visible dimension,
 * proofs-notes/claim-T.md), asserted by `make verify`.
 *
 * Approximately low-dimensional heads: planted visible dimension r0 (queries
 * and keys in a rotated r0-dimensional subspace of dh, a common key offset,
 * query parts outside it) plus key noise of size delta in ten more
 * directions, which the query parts make visible.  The noise's own output
 * error eta_noise = max_i 2 tanh(osc_i(beta Q E^T)/4) (E the key noise,
 * evaluated in double from the noise-free twin instance: a reference scale,
 * not a certificate) separates two regimes:
 *   tau >= 2 eta_noise (and below eta(r0 - 1)): r(tau) = r0 (recovered);
 *   tau <= eta_noise / 2:                       r(tau) > r0 (the noise counts).
 * On every instance the certified chain holds: the direct lower bracket of
 * A never exceeds the upper bracket of A_k at eps - eta(k), and the bracket
 * through A_k (lower at eps + eta, upper at eps - eta) overlaps the direct
 * one.  The table of r(tau) against tau is printed. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/pointsets/head.h"
#include "theory/brackets/bracket.h"
#include "theory/heads/visible.h"

typedef struct {
    size_t r0, dh;
    double delta;
} t_case_t;

static const t_case_t cases[] = {
    { 1, 16, 1e-3 }, { 2, 16, 1e-3 }, { 2, 64, 1e-2 }, { 3, 64, 1e-4 }, { 3, 64, 1e-3 }, { 4, 64, 1e-3 },
};

/* build the noisy head and its noise-free twin (same seed: identical queries) */
static void build(const t_case_t *c, int noisy, pointset_t *Qh, pointset_t *Kh)
{
    pointset_t Q, K;
    ck_assert_int_eq(head_random_ball(&Q, &K, c->r0, 200, 200, 77 + c->r0), AR_OK);
    for (size_t t = 0; t < 200 * c->r0; t++) {
        Q.x[t] *= 4.0;
        K.x[t] *= 4.0;
    }
    head_embed_t e = { .dh = c->dh, .key_offset = 2.0, .query_invisible = 1.0, .nnoise = noisy ? 10 : 0,
                       .delta = noisy ? c->delta : 0.0, .rotate = HEAD_ROT_RANDOM, .seed = 5 + c->dh };
    ck_assert_int_eq(head_embed(&Q, &K, &e, Qh, Kh), AR_OK);
    pointset_clear(&Q);
    pointset_clear(&K);
}

START_TEST(test_planted_recovery_and_chain)
{
    const t_case_t *c = &cases[_i];
    pointset_t Q, K, Q0, K0;
    build(c, 1, &Q, &K);
    build(c, 0, &Q0, &K0);
    size_t m = Q.n, n = K.n, dh = c->dh;
    double beta = 1.0 / sqrt((double)dh), eps = 0.1;
    ck_assert(memcmp(Q.x, Q0.x, m * dh * sizeof(double)) == 0);
    /* the noise's own output error (reference scale) */
    double eta_noise = 0.0;
    for (size_t i = 0; i < m; i++) {
        double hi = -INFINITY, lo = INFINITY;
        for (size_t j = 0; j < n; j++) {
            double s = 0.0;
            for (size_t a = 0; a < dh; a++)
                s += Q.x[i * dh + a] * (K.x[j * dh + a] - K0.x[j * dh + a]);
            s *= beta;
            hi = fmax(hi, s);
            lo = fmin(lo, s);
        }
        eta_noise = fmax(eta_noise, 2 * tanh((hi - lo) / 4));
    }
    visible_t v;
    ck_assert_int_eq(visible_compute(Q.x, m, K.x, n, dh, beta, NULL, &v), AR_OK);
    double e_below, e_at, e_above;
    ck_assert_int_eq(visible_eta(&v, c->r0 - 1, &e_below), AR_OK);
    ck_assert_int_eq(visible_eta(&v, c->r0, &e_at), AR_OK);
    ck_assert_int_eq(visible_eta(&v, c->r0 + 1, &e_above), AR_OK);
    printf("T  r0=%zu dh=%-3zu delta=%-6g  r=%-3zu  eta_noise=%-10.4g eta(r0-1)=%-10.4g eta(r0)=%-10.4g "
           "eta(r0+1)=%-10.4g\n", c->r0, dh, c->delta, v.r, eta_noise, e_below, e_at, e_above);
    ck_assert_msg(v.r > c->r0, "the noise should be visible to the numerical rank (r = %zu)", v.r);
    const double mult[] = { 0.1, 0.25, 0.5, 2.0, 4.0, 16.0, 64.0 };
    size_t nt = 0;
    double taus[8];
    for (size_t t = 0; t < sizeof mult / sizeof mult[0]; t++)
        if (mult[t] * eta_noise < 2)
            taus[nt++] = mult[t] * eta_noise;
    taus[nt++] = 0.05;
    size_t rt[8];
    double et[8];
    ck_assert_int_eq(visible_rtau(&v, taus, nt, rt, et), AR_OK);
    printf("   tau/eta_noise:");
    for (size_t t = 0; t < nt; t++)
        printf(" %.3g", taus[t] / eta_noise);
    printf("\n   r(tau):");
    for (size_t t = 0; t < nt; t++) {
        if (rt[t] == VISIBLE_NONE)
            printf("  tau=%-9.3g none", taus[t]);
        else
            printf("  tau=%-9.3g r=%zu (eta %.3g)", taus[t], rt[t], et[t]);
    }
    printf("\n");
    for (size_t t = 0; t < nt; t++) {
        if (taus[t] >= 2 * eta_noise && taus[t] < e_below)
            ck_assert_msg(rt[t] == c->r0, "r0=%zu dh=%zu delta=%g tau=%g (%.3g x eta_noise): r(tau)=%zu", c->r0, dh,
                          c->delta, taus[t], taus[t] / eta_noise, rt[t]);
        if (taus[t] <= eta_noise / 2)
            ck_assert_msg(rt[t] == VISIBLE_NONE || rt[t] > c->r0,   /* none certified: also more than r0 */
                          "r0=%zu dh=%zu delta=%g tau=%g (%.3g x eta_noise): r(tau)=%zu does not exceed r0",
                          c->r0, dh, c->delta, taus[t], taus[t] / eta_noise, rt[t]);
    }
    /* the chain, at eps = 0.1, for k = r0 and k = r(0.05) */
    bracket_t b;
    ck_assert_int_eq(bracket_compute(&Q, &K, beta, eps, NULL, &b), AR_OK);
    ck_assert_str_eq(b.status, "certified");
    size_t ks[2] = { c->r0, rt[nt - 1] };
    for (int q = 0; q < 2; q++) {
        if (q == 1 && ks[1] == ks[0])
            break;
        size_t k = ks[q], up, lo;
        double eta;
        const char *s;
        ck_assert(k != VISIBLE_NONE);
        ck_assert_int_eq(visible_upper_via(&v, k, K.w, eps, NULL, &up, &eta, NULL), AR_OK);
        ck_assert_msg(b.lower <= up, "chain broken: lower(A) = %zu > upper(A_%zu at eps - %.3g) = %zu", b.lower, k,
                      eta, up);
        ck_assert_int_eq(visible_bracket_via(&v, k, K.w, eps, NULL, &lo, &up, &eta, &s), AR_OK);
        ck_assert_msg(lo <= b.upper && b.lower <= up, "via A_%zu [%zu, %zu] vs direct [%zu, %zu]", k, lo, up,
                      b.lower, b.upper);
        printf("   chain k=%zu: direct [%zu, %zu]  via A_k [%zu, %zu] (eta %.3g, %s)\n", k, b.lower, b.upper, lo, up,
               eta, s);
    }
    visible_clear(&v);
    pointset_clear(&Q); pointset_clear(&K); pointset_clear(&Q0); pointset_clear(&K0);
}
END_TEST

Suite *suite_verify_T(void)
{
    Suite *s = suite_create("verify_T");
    TCase *tc = tcase_create("planted");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_planted_recovery_and_chain, 0, (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, tc);
    return s;
}
