/* claim_s.c -- one point of a claim-S sweep (see claim_s.h). */
#include "theory/claim_s.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "constructions/family.h"
#include "theory/bracket.h"

static double cs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

void claim_s_opts_default(claim_s_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->n_factor = 20.0;
    o->n_max = 2000;
    o->packing = 1;
    o->continuum = 0;
    o->seed = 1;
}

double claim_s_law(int d, double beta)
{
    return pow(1.0 + beta, 0.5 * (d - 1));
}

static const char *default_family(int d)
{
    return d == 2 ? "polygon" : d == 3 ? "fibonacci" : "uniform";
}

ar_status claim_s_point(int d, double beta, double eps, const claim_s_opts_t *o, claim_s_point_t *out)
{
    claim_s_opts_t def;
    if (!o) {
        claim_s_opts_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    if (d < 2 || !(beta >= 0) || !isfinite(beta) || !(eps > 0 && eps < 1)) {
        ar_error_set("claim_s_point: need d >= 2, finite beta >= 0, 0 < eps < 1");
        return AR_EINVAL;
    }
    double t0 = cs_now();
    out->d = d;
    out->beta = beta;
    out->eps = eps;
    out->status = "certified";
    snprintf(out->lower_method, sizeof out->lower_method, "trivial");
    out->lower = 1;
    out->lower_points = 1;

    /* dense instance: both ends */
    const char *fam_name = o->family ? o->family : default_family(d);
    sphere_family_t fam;
    ar_status st = sphere_family_parse(fam_name, &fam);
    if (st)
        return st;
    size_t n = o->n;
    if (n == 0) {
        double nf = ceil(o->n_factor * claim_s_law(d, beta));
        n = nf > (double)o->n_max ? o->n_max : nf < 16 ? 16 : (size_t)nf;
    }
    pointset_t P = { 0 };
    if ((st = sphere_generate(&P, fam, n, (size_t)d, 0.0, o->seed)))
        return st;
    bracket_t b;
    st = bracket_compute(&P, &P, beta, eps, NULL, &b);
    pointset_clear(&P);
    if (st)
        return st;
    if (strcmp(b.status, "certified") != 0)
        out->status = "inconclusive";
    out->n = n;
    out->upper = b.upper;
    out->upper_err = b.up.err;
    snprintf(out->upper_method, sizeof out->upper_method, "%s/%s", fam_name, b.up.method);
    out->lower = b.lower;
    out->lower_points = n;
    snprintf(out->lower_method, sizeof out->lower_method, "%s/%s", fam_name, b.lo.method);
    out->seconds = cs_now() - t0;
    return AR_OK;
}
