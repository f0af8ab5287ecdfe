/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_lower_nets.c -- the delta-net lower certificate (see cert_lower.h lower_nets): greedy
 * delta-nets of the query points in index order, each net's rows certified by the block test
 * matrix (cert_lower_blocks.c; eps ||M^{-1}||_inf < 1, THEORY 3.4b), with a bisection on
 * log(delta).  proofs-notes/lower-certificates.md 2b and 3.3 (lower_nets, the caps of issue 16). */
#include "theory/certificates/cert_lower.h"
#include "theory/certificates/cert_lower_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/clock.h"

/* Greedy delta-net in index order: keep point i when its squared distance to
 * every kept point is >= delta2.  Returns the count written to rows. */
static size_t greedy_net(const double *x, size_t n, size_t d, double delta2, size_t *rows)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const double *xi = x + i * d;
        int keep = 1;
        for (size_t t = 0; t < m && keep; t++) {
            const double *xs = x + rows[t] * d;
            double s = 0.0;
            for (size_t c = 0; c < d; c++) {
                double u = xi[c] - xs[c];
                s += u * u;
            }
            if (s < delta2)
                keep = 0;
        }
        if (keep)
            rows[m++] = i;
    }
    return m;
}

/* Contract: cert_lower.h.  lower_nets_cap without a cap. */
ar_status lower_nets(const smx_t *A, const double *x, size_t d, double eps, lower_cert_t *out)
{
    return lower_nets_cap(A, x, d, eps, (size_t)-1, out);
}

/* Contract: cert_lower.h.  lower_nets_ctl without a work control. */
ar_status lower_nets_cap(const smx_t *A, const double *x, size_t d, double eps, size_t cap, lower_cert_t *out)
{
    return lower_nets_ctl(A, x, d, eps, cap, NULL, out);
}

/* Contract: cert_lower.h.  The largest certified greedy delta-net of the points x (m x d), by
 * bisection on log delta; nets above cap, or over ctl's budget, are not probed. */
ar_status lower_nets_ctl(const smx_t *A, const double *x, size_t d, double eps, size_t cap, lower_ctl_t *ctl,
                         lower_cert_t *out)
{
    double t0 = clock_now(), tick = t0;
    memset(out, 0, sizeof *out);
    if (!lower_check_common(A, eps, "lower_nets"))
        return AR_EINVAL;
    if (!x || d == 0) {
        ar_error_set("lower_nets: no coordinates");
        return AR_EINVAL;
    }
    size_t m = A->m, n = A->n;
    size_t *rows = ar_calloc(m, sizeof *rows, "net rows");
    size_t *blk = ar_calloc(n, sizeof *blk, "column blocks");
    double *M = ar_calloc(m < n ? m * m : n * n, sizeof *M, "test matrix");
    if (!rows || !blk || !M) {
        free(rows); free(blk); free(M);
        return AR_ENOMEM;
    }
    /* scale of the cloud: squared diameter bound from the bounding box */
    double diam2 = 0.0;
    for (size_t c = 0; c < d; c++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < m; i++) {
            lo = fmin(lo, x[i * d + c]);
            hi = fmax(hi, x[i * d + c]);
        }
        diam2 += (hi - lo) * (hi - lo);
    }
    lower_cert_t best, probe;
    lower_set_trivial(&best);
    if (diam2 > 0) {
        /* bisection on log(delta): lo_d fails (or is the finest scale), hi_d certifies */
        double hi_d = sqrt(diam2) * 1.0000001, lo_d = 0.0;
        for (int it = 0; it < 30; it++) {
            double mid = lo_d > 0 ? sqrt(lo_d * hi_d) : hi_d / 64.0;
            size_t k = greedy_net(x, m, d, mid * mid, rows);
            /* a probe of k rows: the net (m k d), the blocks (2 k n) and the inverse norm (4 k^3) */
            double kk = (double)k, cost = kk * ((double)m * (double)d + 2.0 * (double)n + 4.0 * kk * kk);
            int run = k <= n && k >= 2 && k <= cap;
            if (run && ctl && k <= ctl->floor) {
                hi_d = mid;                 /* no larger than the caller's: look at finer nets */
                if (lo_d > 0 && hi_d / lo_d < 1.003)
                    break;
                continue;
            }
            if (run && lower_over_budget(ctl, cost)) {
                ctl->cut = 1;
                break;
            }
            if (run) {
                lower_spend(ctl, cost);
                lower_tick(ctl, &tick, "lower: nets, %zu points", k);
                lower_blocks_probe(A, rows, k, eps, blk, M, &probe);
            } else {
                lower_set_trivial(&probe);
            }
            if (k >= 2 && probe.rank == k && probe.method != AR_METHOD_TRIVIAL) {
                if (k > best.rank)
                    best = probe;
                hi_d = mid;
                if (k == m || k == n)
                    break;
            } else {
                lo_d = mid;
            }
            if (lo_d > 0 && hi_d / lo_d < 1.003)
                break;
        }
    }
    free(rows); free(blk); free(M);
    *out = best;
    out->seconds = clock_now() - t0;
    return AR_OK;
}
