/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ball_shells.c -- the shells continuum of the ball (see ball_shells.h). */
#include "constructions/pointsets/ball_shells.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHELLS_MAX_Q 100000

void ball_shells_clear(ball_shells_t *S)
{
    if (!S)
        return;
    free(S->radius);
    free(S->weight);
    memset(S, 0, sizeof *S);
}

ar_status ball_shells_make(ball_shells_t *S, int d, double beta, double rho0, double hs, int weighted)
{
    memset(S, 0, sizeof *S);
    if (d < 2 || d > 16) {
        ar_error_set("ball shells: dimension d=%d must be in 2..16", d);
        return AR_EINVAL;
    }
    if (!(beta > 0) || !isfinite(beta)) {
        ar_error_set("ball shells: beta=%g must be finite and > 0", beta);
        return AR_EINVAL;
    }
    if (!(rho0 >= 0 && rho0 < 1)) {
        ar_error_set("ball shells: rho0=%g must be in [0, 1)", rho0);
        return AR_EINVAL;
    }
    if (!(hs > 0) || !isfinite(hs)) {
        ar_error_set("ball shells: radial spacing hs=%g (in kernel widths) must be finite and > 0", hs);
        return AR_EINVAL;
    }
    double qf = ceil((1.0 - rho0) * sqrt(beta) / hs);
    if (!(qf <= SHELLS_MAX_Q)) {
        ar_error_set("ball shells: %.3g spheres needed for spacing %g kernel widths at beta=%g (at most %d: "
                     "raise the spacing or lower beta)", qf, hs, beta, SHELLS_MAX_Q);
        return AR_EINVAL;
    }
    size_t Q = qf < 1 ? 1 : (size_t)qf;
    S->radius = ar_calloc(Q, sizeof(double), "ball shell radii");
    S->weight = ar_calloc(Q, sizeof(double), "ball shell weights");
    if (!S->radius || !S->weight) {
        ball_shells_clear(S);
        return AR_ENOMEM;
    }
    double h = (1.0 - rho0) / (double)Q, lmax = -INFINITY;
    double *lw = S->weight;
    for (size_t q = 0; q < Q; q++) {
        double a = rho0 + h * (double)q, b = q + 1 == Q ? 1.0 : rho0 + h * (double)(q + 1);
        double r = 0.5 * (a + b);
        S->radius[q] = r;
        /* log of the cell volume (b^d - a^d)/d, plus beta r^2 / 2 when unweighted */
        double vol = (pow(b, d) - pow(a, d)) / (double)d;
        lw[q] = log(vol) + (weighted ? 0.0 : 0.5 * beta * r * r);
        lmax = lw[q] > lmax ? lw[q] : lmax;
    }
    for (size_t q = 0; q < Q; q++)
        lw[q] = exp(lw[q] - lmax);
    S->d = d;
    S->beta = beta;
    S->rho0 = rho0;
    S->hs = hs;
    S->h_sqrt_beta = h * sqrt(beta);
    S->weighted = weighted;
    S->Q = Q;
    return AR_OK;
}
