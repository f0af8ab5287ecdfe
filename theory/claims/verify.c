/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify.c -- sweep, bracket, fit and judge one law. */
#include "theory/claims/verify.h"
#include "base/cancel.h"
#include "base/clock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "theory/certificates/cert_packing.h"

/* The verdicts' names (verify.h). */
static const char *const verdict_names[] = { [VERDICT_INCONCLUSIVE] = "inconclusive", [VERDICT_PASS] = "pass",
                                             [VERDICT_FAIL] = "fail" };

const char *verify_verdict_name(verify_verdict_t v)
{
    return (size_t)v < sizeof verdict_names / sizeof verdict_names[0] ? verdict_names[v] : "?";
}

ar_status verify_packing(const law_t *law, pack_cert_t *pk)
{
    return pack_lower_search((size_t)law->dim, law->betas[0], law->eps, 1, 60000, pk);
}

size_t verify_npoints(const law_t *law)
{
    size_t n = law->kind == LAW_SATURATION ? law->nns : law->nbetas;
    return n < VERIFY_MAX_POINTS ? n : VERIFY_MAX_POINTS;
}

ar_status verify_point(const law_t *law, size_t t, law_point_t *out)
{
    if (!law->point) {
        ar_error_set("verify_law: row of claim %s has no point function", law->claim);
        return AR_EINVAL;
    }
    if (t >= verify_npoints(law)) {
        ar_error_set("verify_point: row of claim %s d=%d has no point %zu", law->claim, law->dim, t);
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    if (law->kind == LAW_SATURATION) {
        out->n = (size_t)law->ns[t];
        return law->point(law, law->betas[0], out);
    }
    return law->point(law, law->betas[t], out);
}

/* Saturation row: see verify.h. */
static ar_status judge_saturation(const law_t *law, const law_point_t *pts, size_t npts, const pack_cert_t *pk,
                                  verify_row_t *row)
{
    double beta = law->betas[0];
    int ok = 1, certified = 1;
    size_t prev = 0;
    row->band_min = INFINITY;
    row->band_max = -INFINITY;
    row->seconds = pk->seconds;
    for (size_t t = 0; t < npts; t++) {
        size_t n = (size_t)law->ns[t];
        verify_point_t *pt = &row->pts[row->npts++];
        pt->beta = beta;
        pt->p = pts[t];
        row->seconds += pts[t].seconds;
        /* lower end: an n-point subset of the certified packing (full rank) */
        size_t k = pack_multiset_lower(pk, n);
        if (k > pt->p.lower) {
            pt->p.lower = k;
            pt->p.lower_points = n;
            pt->p.lower_on_instance = 0;
            snprintf(pt->p.lower_method, sizeof pt->p.lower_method, "%s/%s",
                     n <= pk->m ? "packing-subset" : "packing-multiset", ar_method_name(pk->method));
        }
        pt->upper_fitted = pt->p.upper;
        if (pt->p.status != AR_CERT_CERTIFIED)
            certified = 0;
        if (n <= pk->certified && pt->p.lower != n)
            ok = 0;                          /* below the packing size: must be certified full rank */
        if (pt->p.upper < prev)
            ok = 0;
        prev = pt->p.upper;
        double lawv = pow(1 + beta, 0.5 * (law->dim - 1));   /* the claim-S law at this beta */
        double r = (double)pt->p.upper / lawv;
        if (!pt->p.upper_capped) {
            row->band_min = fmin(row->band_min, r);
            row->band_max = fmax(row->band_max, r);
        }
    }
    if (row->npts < 3 || !certified) {
        row->verdict = VERDICT_INCONCLUSIVE;
        snprintf(row->reason, sizeof row->reason, "too few sizes or a point not certified");
        return AR_OK;
    }
    const verify_point_t *a = &row->pts[row->npts - 2], *b = &row->pts[row->npts - 1];
    double rel = fabs((double)b->p.upper - (double)a->p.upper) / (double)b->p.upper;
    int plateau = rel <= law->tol && 4 * b->p.upper < b->p.n && !b->p.upper_capped;
    row->verdict = ok && plateau ? VERDICT_PASS : VERDICT_FAIL;
    snprintf(row->reason, sizeof row->reason,
             "packing of %zu points certified (so every n <= %zu has worst case n); upper %zu -> %zu over the last "
             "doubling (change %.1f%%, tol %.0f%%)%s",
             pk->certified, pk->certified, a->p.upper, b->p.upper, 100 * rel, 100 * law->tol,
             ok ? "" : "; a size below the packing was not certified full rank or the upper bound decreased");
    return AR_OK;
}

/* upper/lower at every point, its extremes and its trend, and the local
 * exponents between consecutive points (a reader sees whether the
 * constants stay bounded and how the exponents converge). */
static void ratio_stats(verify_row_t *row, const double *xs, const double *lo, const double *up)
{
    double rx[VERIFY_MAX_POINTS], ry[VERIFY_MAX_POINTS];
    size_t nr = 0;
    row->ratio_min = row->ratio_first = row->ratio_last = NAN;
    row->ratio_max = NAN;
    for (size_t t = 0; t < row->npts; t++) {
        verify_point_t *p = &row->pts[t];
        p->ratio = lo[t] > 0 && up[t] > 0 ? up[t] / lo[t] : NAN;
        p->local_lower = p->local_upper = NAN;
        if (t > 0 && xs[t] > xs[t - 1]) {
            double dx = log(xs[t]) - log(xs[t - 1]);
            if (lo[t] > 0 && lo[t - 1] > 0)
                p->local_lower = (log(lo[t]) - log(lo[t - 1])) / dx;
            if (up[t] > 0 && up[t - 1] > 0)
                p->local_upper = (log(up[t]) - log(up[t - 1])) / dx;
        }
        if (isnan(p->ratio))
            continue;
        if (nr == 0)
            row->ratio_first = p->ratio;
        row->ratio_last = p->ratio;
        row->ratio_min = nr == 0 ? p->ratio : fmin(row->ratio_min, p->ratio);
        row->ratio_max = nr == 0 ? p->ratio : fmax(row->ratio_max, p->ratio);
        rx[nr] = xs[t];
        ry[nr] = p->ratio;
        nr++;
    }
    memset(&row->fit_ratio, 0, sizeof row->fit_ratio);
    if (nr >= 2 && fit_loglog(rx, ry, nr, &row->fit_ratio) != AR_OK)
        memset(&row->fit_ratio, 0, sizeof row->fit_ratio);
}

ar_status verify_judge(const law_t *law, const law_point_t *pts, size_t npts, const pack_cert_t *pk,
                       verify_row_t *row)
{
    memset(row, 0, sizeof *row);
    row->law = law;
    if (npts != verify_npoints(law)) {
        ar_error_set("verify_judge: claim %s d=%d: %zu points given, the row has %zu", law->claim, law->dim, npts,
                     verify_npoints(law));
        return AR_EINVAL;
    }
    if (law->kind == LAW_SATURATION) {
        if (!pk) {
            ar_error_set("verify_judge: saturation row without its packing");
            return AR_EINVAL;
        }
        return judge_saturation(law, pts, npts, pk, row);
    }
    int continuum = law->upper_source == LAW_UPPER_CONTINUUM;
    int all_certified = 1;
    double xs[VERIFY_MAX_POINTS], lo[VERIFY_MAX_POINTS], up[VERIFY_MAX_POINTS];
    row->band_min = INFINITY;
    row->band_max = -INFINITY;
    for (size_t t = 0; t < npts; t++) {
        double beta = law->betas[t];
        verify_point_t *pt = &row->pts[row->npts];
        pt->beta = beta;
        pt->p = pts[t];
        row->seconds += pts[t].seconds;
        row->npts++;
        pt->upper_fitted = continuum ? pt->p.continuum : pt->p.upper;
        if (pt->p.status != AR_CERT_CERTIFIED || pt->upper_fitted == 0)
            all_certified = 0;
        /* an instance upper end pinned at n means the instance was too small to see the law */
        if (!continuum && pt->p.upper_capped)
            all_certified = 0;
        double lawv = law_value(law, beta);
        xs[t] = law_variable(law, beta);
        lo[t] = (double)pt->p.lower;
        up[t] = (double)pt->upper_fitted;
        double r1 = lo[t] / lawv, r2 = up[t] / lawv;
        row->band_min = fmin(row->band_min, fmin(r1, r2));
        row->band_max = fmax(row->band_max, fmax(r1, r2));
    }
    ratio_stats(row, xs, lo, up);
    if (!all_certified || row->npts < 3) {
        row->verdict = VERDICT_INCONCLUSIVE;
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
        row->verdict = VERDICT_PASS;
        snprintf(row->reason, sizeof row->reason, "both exponents within %.2g of %.3g; ratios in [%.3g, %.3g]",
                 law->tol, law->predicted, row->band_min, row->band_max);
    } else {
        row->verdict = VERDICT_FAIL;
        snprintf(row->reason, sizeof row->reason,
                 "lower exponent off by %.3f, upper (%s) by %.3f (tol %.2g); ratios [%.3g, %.3g] vs band [%.3g, %.3g]",
                 dl, continuum ? "continuum" : "instance", du, law->tol, row->band_min, row->band_max,
                 law->band_lo, law->band_hi);
    }
    return AR_OK;
}

ar_status verify_law(const law_t *law, verify_row_t *row, verify_progress_fn progress, void *ctx)
{
    memset(row, 0, sizeof *row);
    row->law = law;
    size_t np = verify_npoints(law);
    int sat = law->kind == LAW_SATURATION;
    law_point_t *pts = ar_calloc(np ? np : 1, sizeof *pts, "verify points");
    if (!pts)
        return AR_ENOMEM;
    pack_cert_t pk;
    memset(&pk, 0, sizeof pk);
    ar_status st = cancel_check();       /* base/cancel.h: before the packing and each point */
    if (sat && st == AR_OK) {
        if (progress)
            progress("saturation: certifying a packing", ctx);
        st = verify_packing(law, &pk);
    }
    for (size_t t = 0; st == AR_OK && t < np; t++) {
        if (progress) {
            char msg[160];
            if (sat)
                snprintf(msg, sizeof msg, "saturation d=%d beta=%g: n=%g (%zu/%zu)", law->dim, law->betas[0],
                         law->ns[t], t + 1, np);
            else
                snprintf(msg, sizeof msg, "claim %s d=%d: beta=%g (%zu/%zu)", law->claim, law->dim, law->betas[t],
                         t + 1, np);
            progress(msg, ctx);
        }
        if ((st = cancel_check()))
            break;
        st = verify_point(law, t, &pts[t]);
    }
    if (st == AR_OK)
        st = verify_judge(law, pts, np, sat ? &pk : NULL, row);
    free(pts);
    return st;
}
