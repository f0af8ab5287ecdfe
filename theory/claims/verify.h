/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify.h -- judge one row of the laws table: sweep beta over the declared
 * window, bracket each instance, fit both bracket ends, check the band.
 *
 * verdict pass: every point certified, both fitted exponents within
 * law->tol of law->predicted, and every lower/law and upper/law inside
 * [band_lo, band_hi].  fail: all points certified but a condition
 * above is violated.  inconclusive: some point could not be certified,
 * an instance upper bound was the trivial rank <= n (instance too small),
 * or fewer than 3 points could be fitted. */
#ifndef ATTNRANK_THEORY_VERIFY_H
#define ATTNRANK_THEORY_VERIFY_H

#include <stddef.h>
#include "base/status.h"
#include "theory/claims/laws.h"
#include "theory/claims/fit.h"
#include "theory/claims/claim_s.h"
#include "theory/certificates/cert_packing.h"

#define VERIFY_MAX_POINTS 32

/* A row's verdict (names: "inconclusive", "pass", "fail"; see above). */
typedef enum { VERDICT_INCONCLUSIVE, VERDICT_PASS, VERDICT_FAIL } verify_verdict_t;

/* The verdict's name, for printing and the API's strings (the only place
 * the names are spelled). */
const char *verify_verdict_name(verify_verdict_t v);

typedef struct {
    double beta;
    claim_s_point_t p;      /* the certified evidence at this beta (saturation rows: at size p.n) */
    size_t upper_fitted;    /* the upper value that is fitted (instance or continuum) */
    double ratio;           /* upper_fitted / lower (NaN without an upper end) */
    double local_lower, local_upper;   /* local exponents d log(end) / d log(variable) from the previous
                                          point (NaN at the first point or without an end) */
} verify_point_t;

typedef struct {
    const law_t *law;
    verify_point_t pts[VERIFY_MAX_POINTS];
    size_t npts;
    fit_t fit_lower, fit_upper;
    double band_min, band_max;   /* observed extremes of lower/law and upper/law */
    double ratio_min, ratio_max, ratio_first, ratio_last;   /* upper/lower along the window (NaN: none) */
    fit_t fit_ratio;             /* log(upper/lower) against log(variable): the trend of the constants */
    verify_verdict_t verdict;    /* pass, fail or inconclusive */
    char reason[256];
    double seconds;
} verify_row_t;

/* Progress callback: called before each instance with a short message. */
typedef void (*verify_progress_fn)(const char *msg, void *ctx);

/* Run the law's sweep and judge it.  Saturation rows (law->kind
 * LAW_SATURATION, beta = law->betas[0], sizes law->ns): "pass" when every size
 * n <= the certified packing size is certified full rank (lower = n), the
 * upper bounds are non-decreasing in n, the two largest instances' upper
 * bounds differ by at most law->tol (relative) and the largest is below n/4
 * (a plateau, not the trivial rank <= n); fit_* stay zero.  Errors (AR_*) only for failures of the
 * machinery itself (allocation, LAPACK); a law the numbers do not support
 * is verdict fail, not an error. */
ar_status verify_law(const law_t *law, verify_row_t *row, verify_progress_fn progress, void *ctx);

/* verify_law in its three parts, so that a row's points can be computed
 * apart (shards, theory/claims/vplan.h) and judged later from their records:
 * verify_npoints: the row's number of points (nbetas, or nns for saturation
 * rows; at most VERIFY_MAX_POINTS);
 * verify_point:   point t alone (beta = betas[t]; saturation rows: the
 *                 instance at n = ns[t], beta = betas[0], before the
 *                 packing's lower end is applied);
 * verify_packing: the certified cap packing of a saturation row;
 * verify_judge:   the verdict from the npts points (and the packing of a
 *                 saturation row, else NULL); row->seconds is the sum of
 *                 the points' (and the packing's) times.
 * verify_law = the packing, every point in order, then verify_judge: a
 * row's numbers do not depend on where or in which order its points ran. */
size_t verify_npoints(const law_t *law);
ar_status verify_point(const law_t *law, size_t t, law_point_t *out);
ar_status verify_packing(const law_t *law, pack_cert_t *pk);
ar_status verify_judge(const law_t *law, const law_point_t *pts, size_t npts, const pack_cert_t *pk,
                       verify_row_t *row);

#endif
