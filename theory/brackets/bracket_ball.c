/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket_ball.c -- bracket of a weighted instance in the ball (see bracket_ball.h). */
#include "theory/brackets/bracket_ball.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "numerics/clock.h"
#include "numerics/config.h"
#include "theory/brackets/bracket_status.h"
#include "theory/brackets/bracket_impl.h"

ar_status bracket_ball_dense_max(size_t *out)
{
    *out = ar_config()->ball_dense_max;
    return AR_OK;
}

/* Varah bound of the cluster test matrix: ||M^-1||_inf <= (1 + R)/(1 - R), rounded up. */
static double varah_bound(double maxR)
{
    arb_t a, b;
    arb_init(a);
    arb_init(b);
    arb_set_d(a, maxR);
    arb_add_ui(b, a, 1, 96);
    arb_sub_ui(a, a, 1, 96);
    arb_neg(a, a);
    arb_div(a, b, a, 96);
    arf_t u;
    arf_init(u);
    arb_get_ubound_arf(u, a, 96);
    double v = arf_get_d(u, ARF_RND_UP);
    arf_clear(u);
    arb_clear(a);
    arb_clear(b);
    return v;
}

static int coords_in_cube(const pointset_t *P)
{
    for (size_t i = 0; i < P->n * P->d; i++)
        if (!(fabs(P->x[i]) <= 1.0))
            return 0;
    return 1;
}

ar_status bracket_compute_ball_ex(const pointset_t *P, double beta, double eps,
                                  const bracket_opts_t *o, bracket_t *out, ball_bracket_info_t *info)
{
    ball_bracket_info_t loc;
    if (!info)
        info = &loc;
    memset(info, 0, sizeof *info);
    if (!out) {
        ar_error_set("bracket_compute_ball: out is NULL");
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    out->status = AR_CERT_INCONCLUSIVE;
    double t0 = clock_now();
    if (!P) {
        ar_error_set("bracket_compute_ball: P is NULL");
        return AR_EINVAL;
    }
    ar_status st = pointset_validate(P);
    if (st)
        return st;
    size_t n = P->n;
    out->m = out->n = n;
    /* lower: cluster certificate */
    lower_ctl_t ctl = { .progress = o ? o->progress : NULL, .progress_ctx = o ? o->progress_ctx : NULL };
    if ((st = ball_lower_search_ctl(P, beta, eps, &ctl, &info->cluster)))
        return st;
    out->lo.rank = info->cluster.certified ? info->cluster.certified : 1;
    out->lo.seconds = info->cluster.seconds;
    /* the reported bound must show the certificate's inequality itself (eps * bound < 1, rounded
     * upward): the Arb check can hold where the bound rounded to a double cannot show it (issue 32:
     * "||M^-1|| <= 1, eps * bound = 1 < 1" at eps = 1 - 2^-53); such a certificate is not reported */
    double vb = info->cluster.certified ? varah_bound(info->cluster.max_R) : INFINITY;
    if (info->cluster.certified && info->cluster.method != AR_METHOD_TRIVIAL && lower_certifies(eps, vb)) {
        out->lo.invnorm = vb;
        out->lo.method = ar_method_ball(info->cluster.method);
    } else {
        out->lo.rank = 1;
        out->lo.invnorm = 1.0;
        out->lo.method = AR_METHOD_TRIVIAL;
    }
    out->seconds_lower = info->cluster.seconds;
    /* upper: tensor Chebyshev (trivial n if not applicable) */
    out->up.rank = n;
    out->up.err = 0.0;
    out->up.method = AR_METHOD_TRIVIAL;
    if (coords_in_cube(P)) {
        bracket_say(o, "ball: tensor-Chebyshev upper certificate");
        if ((st = ball_upper_tensor(P, beta, eps, &info->tensor)))
            return st;
        out->up.seconds = info->tensor.seconds;
        if (!info->tensor.capped) {
            out->up.rank = info->tensor.rank;
            out->up.err = info->tensor.err;
            out->up.method = AR_METHOD_TENSOR_CHEB;
        }
    }
    /* dense certificates when affordable */
    size_t dmax;
    if ((st = bracket_ball_dense_max(&dmax)))
        return st;
    if (n <= dmax) {
        bracket_t b;
        double t1 = clock_now();
        if ((st = bracket_compute(P, P, beta, eps, o, &b)))
            return st;
        info->dense_run = 1;
        info->seconds_dense = clock_now() - t1;
        info->dense_lower = b.lower;
        info->dense_upper = b.upper;
        bracket_copy_report(out, &b);   /* enclosure, streaming, every upper construction, the sketch */
        /* each end is rigorous on its own (trivial ends are 1 and n, which never win) */
        if (b.lower > out->lo.rank)
            out->lo = b.lo;
        if (b.upper < out->up.rank)
            out->up = b.up;
    }
    out->lower = out->lo.rank;
    out->upper = out->up.rank;
    out->status = bracket_status_decide(out->lower, out->lo.method, out->upper, out->up.method);
    out->seconds = clock_now() - t0;
    if (out->lower > out->upper) {
        ar_error_set("bracket: BUG: certified lower bound %zu (%s) exceeds certified upper bound %zu (%s)",
                     out->lower, ar_method_name(out->lo.method), out->upper, ar_method_name(out->up.method));
        out->status = AR_CERT_INCONCLUSIVE;
        return AR_ENUMERIC;
    }
    return AR_OK;
}

ar_status bracket_compute_ball(const pointset_t *P, double beta, double eps, const bracket_opts_t *o,
                               bracket_t *out)
{
    return bracket_compute_ball_ex(P, beta, eps, o, out, NULL);
}
