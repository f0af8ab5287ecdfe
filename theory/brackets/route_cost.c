/* SPDX-License-Identifier: GPL-3.0-or-later */
/* route_cost.c -- the route chooser's cost model (see route_cost.h). */
#include "theory/brackets/route_cost.h"

#include <math.h>
#include "theory/brackets/bracket.h"

double route_cost_dense(size_t m, size_t n, size_t d, int self)
{
    double M = (double)m, N = (double)n, r = (double)(m < n ? m : n);
    double enclose = M * N * (2.0 * (double)d + 40.0);
    double factor = self ? 15.0 * N * N * N + (n <= BRACKET_SVD_SELF_MAX_N ? 28.0 * N * N * N : 0.0)
                         : 28.0 * M * N * r;
    return (enclose + 2.0 * factor) / ROUTE_FLOPS_PER_S;
}

double route_cost_polynomial(size_t n, size_t d, double beta)
{
    double L = 3.5 * sqrt(beta) + 8.0, N = (double)n;
    return N * N * ((double)d + 4.0 * L) / ROUTE_FLOPS_PER_S;
}

double route_cost_packing(size_t n, size_t d)
{
    double N = (double)n;
    return N * (log2(N + 2.0) * (double)d * 8.0 + 64.0 * ((double)d + 40.0)) / ROUTE_FLOPS_PER_S;
}

double route_cost_scale(size_t n, size_t d)
{
    double N = (double)n, S = n < 2048 ? N : 2048.0;
    return (S * N * ((double)d + 40.0) + 4.0 * S * S * S) / ROUTE_FLOPS_PER_S;
}

double route_cost_circulant(size_t n)
{
    return 1e-3 + 2e-6 * (double)n;
}

double route_cost_ball(double visits)
{
    return visits * ROUTE_BALL_VISIT_S;
}
