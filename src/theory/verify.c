/* verify.c -- sweep, bracket, fit and judge one law. */
#include "theory/verify.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "constructions/family.h"

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
    sphere_family_t fam;
    ar_status st = sphere_family_parse(law->family, &fam);
    if (st)
        return st;
    int all_certified = 1;
    double xs[VERIFY_MAX_POINTS], lo[VERIFY_MAX_POINTS], up[VERIFY_MAX_POINTS];
    row->band_min = INFINITY;
    row->band_max = -INFINITY;
    for (size_t t = 0; t < law->nbetas && t < VERIFY_MAX_POINTS; t++) {
        double beta = law->betas[t];
        double nf = ceil(law->n_per_law * law_value(law, beta));
        size_t n = nf < (double)law->n_min ? law->n_min : nf > (double)law->n_max ? law->n_max : (size_t)nf;
        if (progress) {
            char msg[160];
            snprintf(msg, sizeof msg, "claim %s d=%d: beta=%g n=%zu (%zu/%zu)", law->claim, law->dim,
                     beta, n, t + 1, law->nbetas);
            progress(msg, ctx);
        }
        pointset_t P = { 0 };
        st = sphere_generate(&P, fam, n, (size_t)law->dim, 0.0, 1);
        if (st)
            return st;
        verify_point_t *pt = &row->pts[row->npts];
        pt->beta = beta;
        pt->n = n;
        st = bracket_compute(&P, &P, beta, law->eps, NULL, &pt->b);
        pointset_clear(&P);
        if (st)
            return st;
        row->npts++;
        if (strcmp(pt->b.status, "certified") != 0)
            all_certified = 0;
        double lawv = law_value(law, beta);
        xs[t] = 1.0 + beta;
        lo[t] = (double)pt->b.lower;
        up[t] = (double)pt->b.upper;
        double r1 = lo[t] / lawv, r2 = up[t] / lawv;
        row->band_min = fmin(row->band_min, fmin(r1, r2));
        row->band_max = fmax(row->band_max, fmax(r1, r2));
        /* an upper end pinned at n means the instance was too small to see the law */
        if (pt->b.upper >= n)
            all_certified = 0;
    }
    row->seconds = verify_now() - t0;
    if (!all_certified || row->npts < 3) {
        row->verdict = "inconclusive";
        snprintf(row->reason, sizeof row->reason,
                 row->npts < 3 ? "fewer than 3 points" : "a bracket was not certified or hit the instance size");
        if (row->npts >= 2) {
            fit_loglog(xs, lo, row->npts, &row->fit_lower);
            fit_loglog(xs, up, row->npts, &row->fit_upper);
        }
        return AR_OK;
    }
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
                 "lower exponent off by %.3f, upper by %.3f (tol %.2g); ratios [%.3g, %.3g] vs band [%.3g, %.3g]",
                 dl, du, law->tol, row->band_min, row->band_max, law->band_lo, law->band_hi);
    }
    return AR_OK;
}
