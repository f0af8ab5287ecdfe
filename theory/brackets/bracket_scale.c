/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_scale.c -- bracket of a large spherical instance (see bracket_scale.h). */
#include "theory/brackets/bracket_scale.h"
#include "numerics/clock.h"
#include "numerics/config.h"
#include "theory/brackets/bracket_status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "numerics/fps.h"
#include "numerics/softmax.h"
#include "theory/certificates/cert_poly.h"

ar_status bracket_scale_max_n(size_t *out)
{
    *out = ar_config()->scale_max_n;
    return AR_OK;
}

int bracket_scale_applies(const pointset_t *P)
{
    if (!P || P->d < 2)
        return 0;
    for (size_t i = 0; i < P->n; i++) {
        double s = 0;
        for (size_t c = 0; c < P->d; c++)
            s += P->x[i * P->d + c] * P->x[i * P->d + c];
        if (!(fabs(sqrt(s) - 1.0) <= 5e-13))   /* a margin below the certificate's 1e-12 check */
            return 0;
    }
    return 1;
}

ar_status bracket_compute_scale(const pointset_t *P, double beta, double eps, const bracket_opts_t *o,
                                bracket_t *out)
{
    bracket_opts_t def;
    if (!o) {
        bracket_opts_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    out->status = AR_CERT_INCONCLUSIVE;
    double t0 = clock_now();
    if (!(beta >= 0) || !isfinite(beta) || !(eps > 0 && eps < 1)) {
        ar_error_set("bracket: need finite beta >= 0 and 0 < eps < 1");
        return AR_EINVAL;
    }
    ar_status st = pointset_validate(P);
    if (st)
        return st;
    size_t n = P->n, d = P->d, nmax;
    if ((st = bracket_scale_max_n(&nmax)))
        return st;
    if (n > nmax) {
        ar_error_set("bracket: n = %zu exceeds the scale engine's limit of %zu points (O(n^2) work per degree; "
                     "set ATTNRANK_MAX_SCALE_N to raise it)", n, nmax);
        return AR_EINVAL;
    }
    out->m = out->n = n;
    /* upper: polynomial certificate */
    poly_cert_t pc;
    if ((st = poly_upper_instance(P, beta, eps, &pc)))
        return st;
    out->upper = pc.rank;
    out->up.rank = pc.rank;
    out->up.err = pc.err;
    out->up.seconds = pc.seconds;
    out->up.method = pc.capped ? AR_METHOD_TRIVIAL : AR_METHOD_POLYNOMIAL;
    /* lower: block certificates on the rows of a farthest-point prefix */
    double t1 = clock_now();
    size_t M = pc.rank < n ? pc.rank : n;
    size_t *order = ar_calloc(n, sizeof *order, "farthest-point order");
    double *xs = ar_calloc(M * d, sizeof *xs, "prefix points");
    if (!order || !xs) {
        free(order); free(xs);
        return AR_ENOMEM;
    }
    if ((st = fps_prefix(P->x, n, d, 0, M ? M : 1, order, NULL))) {   /* only M rows are read */
        free(order); free(xs);
        return st;
    }
    for (size_t t = 0; t < M; t++)
        memcpy(xs + t * d, P->x + order[t] * d, d * sizeof *xs);
    smx_t A;
    memset(&A, 0, sizeof A);
    st = smx_compute(&A, xs, M, P->x, n, d, P->w, beta, o->prec, o->threads);
    out->seconds_enclose = clock_now() - t1;
    if (st) {
        free(order); free(xs);
        return st;
    }
    out->maxerr = A.maxerr;
    out->prec = A.prec;
    out->lo.rank = 1;
    out->lo.invnorm = 1.0;
    out->lo.method = AR_METHOD_TRIVIAL;
    if (2.0 * A.maxerr < eps) {
        for (size_t t = 0; t < M; t++)
            order[t] = t;                      /* rows of A are already in farthest-point order */
        lower_cert_t lc;
        if ((st = lower_blocks(&A, order, M, eps, &lc)))
            goto done;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
        if ((st = lower_nets(&A, xs, d, eps, &lc)))
            goto done;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
    } else {
        out->upper = out->up.rank = n;         /* enclosure too wide: trivial bracket only */
        out->up.method = AR_METHOD_TRIVIAL;
    }
    out->lower = out->lo.rank;
    out->status = bracket_status_decide(out->lower, out->lo.method, out->upper, out->up.method);
    out->seconds_lower = clock_now() - t1;
    if (out->lower > out->upper) {
        ar_error_set("bracket: BUG: certified lower bound %zu (%s) exceeds certified upper bound %zu (%s)",
                     out->lower, ar_method_name(out->lo.method), out->upper, ar_method_name(out->up.method));
        st = AR_ENUMERIC;
        out->status = AR_CERT_INCONCLUSIVE;
    }
done:
    smx_clear(&A);
    free(order);
    free(xs);
    out->seconds = clock_now() - t0;
    return st;
}
