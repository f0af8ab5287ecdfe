/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fit.c -- log-log least squares with the slope's standard error. */
#include "theory/claims/fit.h"

#include <math.h>

ar_status fit_loglog(const double *x, const double *y, size_t n, fit_t *out)
{
    if (n < 2) {
        ar_error_set("fit_loglog: need at least 2 points, got %zu", n);
        return AR_EINVAL;
    }
    double sx = 0, sy = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !(y[i] > 0) || !isfinite(x[i]) || !isfinite(y[i])) {
            ar_error_set("fit_loglog: point %zu (%g, %g) is not positive and finite", i, x[i], y[i]);
            return AR_EINVAL;
        }
        sx += log(x[i]);
        sy += log(y[i]);
    }
    double mx = sx / n, my = sy / n, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        double dx = log(x[i]) - mx;
        sxx += dx * dx;
        sxy += dx * (log(y[i]) - my);
    }
    if (!(sxx > 0)) {
        ar_error_set("fit_loglog: all x values are equal");
        return AR_EINVAL;
    }
    out->slope = sxy / sxx;
    out->intercept = my - out->slope * mx;
    out->npts = n;
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        double e = log(y[i]) - out->intercept - out->slope * log(x[i]);
        ss += e * e;
    }
    out->slope_se = n > 2 ? sqrt(ss / (double)(n - 2) / sxx) : 0.0;
    return AR_OK;
}

int fit_band_ok(const double *ratio, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++)
        if (!(ratio[i] >= lo && ratio[i] <= hi))
            return 0;
    return 1;
}
