/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_packing.c -- what the packing certificate (proofs-notes/packing-lower-bounds.md) shares,
 * and its two small certificates: the validation of a point set, the criterion
 * (1 - R) / (1 + R) > eps exact for the stored doubles (section 1, pack_dominance_holds), the
 * dense inverse-norm variant (section 4, pack_invnorm) and the multiset lower bound
 * (pack_multiset_lower).  Diagonal dominance in O(m * neighbours): cert_packing_diagdom.c (section
 * 2); its counting tail: cert_packing_tail.c (section 6); the search over theta:
 * cert_packing_search.c (section 5). */
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_packing_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "numerics/arbd.h"
#include "numerics/clock.h"
#include "numerics/softmax.h"
#include "theory/certificates/cert_lower.h"

#define COORD_MAX 1.5

/* ---- validation ---------------------------------------------------------- */

/* Contract: cert_packing_impl.h. */
int pack_check_args(const pointset_t *P, double beta, double eps, const char *who)
{
    if (!P || !P->x || P->n == 0 || P->d == 0 || P->d > 16) {
        ar_error_set("%s: need a point set with n >= 1 and 1 <= d <= 16", who);
        return 0;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("%s: beta must be finite and >= 0 (beta=%g)", who, beta);
        return 0;
    }
    if (!(eps > 0 && eps < 1)) {
        ar_error_set("%s: need 0 < eps < 1 (eps=%g)", who, eps);
        return 0;
    }
    for (size_t i = 0; i < P->n * P->d; i++)
        if (!isfinite(P->x[i]) || fabs(P->x[i]) > COORD_MAX) {
            ar_error_set("%s: coordinate %zu of point %zu is %g (need finite, |x| <= %g)", who,
                         i % P->d, i / P->d, P->x[i], COORD_MAX);
            return 0;
        }
    if (P->w)
        for (size_t i = 0; i < P->n; i++)
            if (!fmpz_is_one(P->w + i)) {
                ar_error_set("%s: unit multiplicities required (point %zu has weight != 1)",
                             who, i);
                return 0;
            }
    return 1;
}

/* Contract: cert_packing_impl.h. */
void pack_cert_init(pack_cert_t *out, const pointset_t *P, double beta, double eps, ar_method_t method)
{
    memset(out, 0, sizeof *out);
    out->d = P->d;
    out->beta = beta;
    out->eps = eps;
    out->theta = NAN;
    out->m = P->n;
    out->method = method;
}

/* Contract: cert_packing.h.  (1 - R) / (1 + R) > eps, decided in Arb. */
int pack_dominance_holds(const arb_t R, double eps)
{
    arb_t a, b, e;
    arb_init(a);
    arb_init(b);
    arb_init(e);
    arb_sub_ui(a, R, 1, PACK_PREC);
    arb_neg(a, a);
    arb_add_ui(b, R, 1, PACK_PREC);
    arb_div(a, a, b, PACK_PREC);
    arb_set_d(e, eps);
    int ok = arb_gt(a, e);
    arb_clear(a);
    arb_clear(b);
    arb_clear(e);
    return ok;
}

/* Contract: cert_packing_impl.h.  pack_dominance_holds for every R in [0, maxR] (the bound is
 * decreasing in R). */
int pack_dominance_holds_up_to(double maxR, double eps)
{
    arb_t r;
    arb_init(r);
    arb_set_d(r, maxR);
    int ok = pack_dominance_holds(r, eps);
    arb_clear(r);
    return ok;
}

/* Contract: cert_packing.h.  The dense certificate: lower_blocks_rows on every row (m <= 6000). */
ar_status pack_invnorm(const pointset_t *P, double beta, double eps, pack_cert_t *out)
{
    if (!out) {
        ar_error_set("pack_invnorm: out is NULL");
        return AR_EINVAL;
    }
    if (!pack_check_args(P, beta, eps, "pack_invnorm"))
        return AR_EINVAL;
    if (P->n > PACK_INVNORM_MAX) {
        ar_error_set("pack_invnorm: m = %zu > %d (dense O(m^3) certificate)", P->n,
                     PACK_INVNORM_MAX);
        return AR_EINVAL;
    }
    double t0 = clock_now();
    size_t m = P->n;
    pack_cert_init(out, P, beta, eps, AR_METHOD_INVNORM);
    out->max_R = NAN;
    smx_t A;
    memset(&A, 0, sizeof A);
    ar_status st = smx_compute(&A, P->x, m, P->x, m, P->d, NULL, beta, 0, 2);
    if (st != AR_OK)
        return st;
    size_t *rows = ar_calloc(m, sizeof(size_t), "pack_invnorm rows");
    if (!rows) {
        smx_clear(&A);
        return AR_ENOMEM;
    }
    for (size_t i = 0; i < m; i++)
        rows[i] = i;
    lower_cert_t lc;
    st = lower_blocks_rows(&A, rows, m, eps, &lc);
    free(rows);
    smx_clear(&A);
    if (st != AR_OK)
        return st;
    out->certified = lc.rank == m ? m : 0;
    if (out->certified && lc.method == AR_METHOD_DIAGDOM)
        out->method = AR_METHOD_INVNORM_VARAH;
    out->seconds = clock_now() - t0;
    return AR_OK;
}

/* Contract: cert_packing.h.  A certified lower bound for a multiset of n points over c's support. */
size_t pack_multiset_lower(const pack_cert_t *c, size_t n)
{
    if (!c || n == 0 || c->certified == 0 || c->m == 0)
        return n > 0 ? 1 : 0;
    size_t m = c->m;
    if (!isfinite(c->max_R))                     /* invnorm: same matrix only */
        return n % m == 0 ? m : 1;
    if (n <= m)
        return n;
    for (size_t mp = m; mp >= 2; mp--) {
        size_t q = n / mp, r = n % mp;
        if (r == 0)
            return mp;                            /* equal weights: same R */
        arb_t R;
        arb_init(R);
        arb_set_d(R, c->max_R);
        arb_mul_ui(R, R, (ulong)(q + 1), PACK_PREC);
        arb_div_ui(R, R, (ulong)q, PACK_PREC);
        double rho_R = arbd_ub(R);
        arb_clear(R);
        if (pack_dominance_holds_up_to(rho_R, c->eps))
            return mp;
    }
    return 1;
}
