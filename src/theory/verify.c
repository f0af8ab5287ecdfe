/* verify.c -- sweep, bracket, fit and judge one law. */
#include "theory/verify.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double verify_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

ar_status verify_law(const law_t *law, verify_row_t *row, verify_progress_fn progress, void *ctx)
{
    memset(row, 0, sizeof *row);
    row->law = law;
    double t0 = verify_now();
    int continuum = law->upper_source && strcmp(law->upper_source, "continuum") == 0;
    claim_s_opts_t co;
    claim_s_opts_default(&co);
    co.engine = law->engine ? CLAIM_S_SCALE : CLAIM_S_DENSE;
    co.family = law->family;
    co.n_factor = law->n_per_law;
    co.n_min = law->n_min;
    co.n_max = law->n_max;
    co.packing = law->packing;
    co.instance = !continuum;
    co.continuum = continuum;
    if (strcmp(law->claim, "S") != 0) {
        ar_error_set("verify_law: no sweep for claim %s", law->claim);
        return AR_EINVAL;
    }
    int all_certified = 1;
    double xs[VERIFY_MAX_POINTS], lo[VERIFY_MAX_POINTS], up[VERIFY_MAX_POINTS];
    row->band_min = INFINITY;
    row->band_max = -INFINITY;
    for (size_t t = 0; t < law->nbetas && t < VERIFY_MAX_POINTS; t++) {
        double beta = law->betas[t];
        if (progress) {
            char msg[160];
            snprintf(msg, sizeof msg, "claim %s d=%d: beta=%g (%zu/%zu)", law->claim, law->dim, beta, t + 1,
                     law->nbetas);
            progress(msg, ctx);
        }
        verify_point_t *pt = &row->pts[row->npts];
        pt->beta = beta;
        ar_status st = claim_s_point(law->dim, beta, law->eps, &co, &pt->p);
        if (st)
            return st;
        row->npts++;
        pt->upper_fitted = continuum ? pt->p.continuum : pt->p.upper;
        if (strcmp(pt->p.status, "certified") != 0 || pt->upper_fitted == 0)
            all_certified = 0;
        /* an instance upper end pinned at n means the instance was too small to see the law */
        if (!continuum && pt->p.upper_capped)
            all_certified = 0;
        double lawv = law_value(law, beta);
        xs[t] = 1.0 + beta;
        lo[t] = (double)pt->p.lower;
        up[t] = (double)pt->upper_fitted;
        double r1 = lo[t] / lawv, r2 = up[t] / lawv;
        row->band_min = fmin(row->band_min, fmin(r1, r2));
        row->band_max = fmax(row->band_max, fmax(r1, r2));
    }
    row->seconds = verify_now() - t0;
    if (!all_certified || row->npts < 3) {
        row->verdict = "inconclusive";
        snprintf(row->reason, sizeof row->reason, "%s",
                 row->npts < 3 ? "fewer than 3 points"
                               : "a point was not certified or its instance upper bound was the trivial rank <= n");
        if (row->npts >= 2) {
            fit_loglog(xs, lo, row->npts, &row->fit_lower);
            if (fit_loglog(xs, up, row->npts, &row->fit_upper) != AR_OK)
                memset(&row->fit_upper, 0, sizeof row->fit_upper);
        }
        return AR_OK;
    }
    ar_status st;
    if ((st = fit_loglog(xs, lo, row->npts, &row->fit_lower)) ||
        (st = fit_loglog(xs, up, row->npts, &row->fit_upper)))
        return st;
    double dl = fabs(row->fit_lower.slope - law->predicted);
    double du = fabs(row->fit_upper.slope - law->predicted);
    int band_ok = row->band_min >= law->band_lo && row->band_max <= law->band_hi;
    if (dl <= law->tol && du <= law->tol && band_ok) {
        row->verdict = "pass";
        snprintf(row->reason, sizeof row->reason, "both exponents within %.2g of %.3g; ratios in [%.3g, %.3g]",
                 law->tol, law->predicted, row->band_min, row->band_max);
    } else {
        row->verdict = "fail";
        snprintf(row->reason, sizeof row->reason,
                 "lower exponent off by %.3f, upper (%s) by %.3f (tol %.2g); ratios [%.3g, %.3g] vs band [%.3g, %.3g]",
                 dl, continuum ? "continuum" : "instance", du, law->tol, row->band_min, row->band_max,
                 law->band_lo, law->band_hi);
    }
    return AR_OK;
}
