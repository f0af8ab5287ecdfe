/* SPDX-License-Identifier: GPL-3.0-or-later */
/* claim_s.c -- one point of a claim-S sweep (see claim_s.h). */
#include "theory/claims/claim_s.h"
#include "base/clock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "constructions/pointsets/family.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/route.h"
#include "theory/certificates/cert_circulant.h"
#include "theory/certificates/cert_packing.h"
#include "theory/certificates/cert_poly.h"

#define CIRC_DEFAULT_N 20160   /* 2^6 3^2 5 7: many divisors for the block lower certificate */

void claim_s_opts_default(claim_s_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->engine = CLAIM_S_SCALE;
    o->packing = 1;
    o->instance = 1;
    o->continuum = 0;
    o->packing_max = 60000;
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

static size_t auto_size(const claim_s_opts_t *o, int d, double beta, double fac, size_t lo, size_t hi)
{
    if (o->n)
        return o->n;
    double f = o->n_factor > 0 ? o->n_factor : fac;
    size_t nlo = o->n_min ? o->n_min : lo, nhi = o->n_max ? o->n_max : hi;
    double nf = ceil(f * claim_s_law(d, beta));
    return nf > (double)nhi ? nhi : nf < (double)nlo ? nlo : (size_t)nf;
}

static void set_lower(claim_s_point_t *out, size_t v, size_t points, const char *method, int on_instance)
{
    if (v > out->lower || out->lower_points == 0) {
        out->lower = v;
        out->lower_points = points;
        out->lower_on_instance = on_instance;
        snprintf(out->lower_method, sizeof out->lower_method, "%s", method);
    }
}

/* The family's instance of size n on S^{d-1} (*fam_name receives the family's name). */
static ar_status cs_instance(int d, size_t n, const claim_s_opts_t *o, pointset_t *P, const char **fam_name)
{
    *fam_name = o->family ? o->family : default_family(d);
    sphere_family_t fam;
    ar_status st = sphere_family_parse(*fam_name, &fam);
    if (st)
        return st;
    return sphere_generate(P, fam, n, (size_t)d, 0.0, o->seed);
}

/* Dense engine: one bracket of the family's instance through the route chooser (dense
 * factorisations, plus the circulant and polynomial routes where they apply). */
static ar_status point_dense(int d, double beta, double eps, const claim_s_opts_t *o, claim_s_point_t *out)
{
    const char *fam_name;
    size_t n = auto_size(o, d, beta, 20.0, 16, 2000);
    pointset_t P = { 0 };
    ar_status st = cs_instance(d, n, o, &P, &fam_name);
    if (st)
        return st;
    route_result_t rr;
    st = route_bracket(&P, &P, beta, eps, NULL, &rr);    /* every route affordable at n <= 2000 */
    pointset_clear(&P);
    if (st)
        return st;
    const bracket_t *b = &rr.b;
    if (b->status != AR_CERT_CERTIFIED)
        out->status = AR_CERT_INCONCLUSIVE;
    char m[48];
    out->n = n;
    out->upper = b->upper;
    out->upper_capped = b->upper >= n;
    out->upper_err = b->up.err;
    snprintf(out->upper_method, sizeof out->upper_method, "%s/%s", fam_name, ar_method_name(b->up.method));
    snprintf(m, sizeof m, "%s/%s", fam_name, ar_method_name(b->lo.method));
    set_lower(out, b->lower, n, m, 1);
    return AR_OK;
}

/* Scale engine, d = 2: the circulant bracket of the dense n-gon. */
static ar_status point_circulant(double beta, double eps, const claim_s_opts_t *o, claim_s_point_t *out)
{
    size_t n = o->n ? o->n : CIRC_DEFAULT_N;
    circ_bracket_t cb;
    ar_status st = circ_bracket(n, beta, eps, 0, &cb);
    if (st)
        return st;
    if (cb.status != AR_CERT_CERTIFIED)
        out->status = AR_CERT_INCONCLUSIVE;
    out->n = n;
    out->upper = cb.upper;
    out->upper_capped = cb.upper >= n;
    out->upper_err = cb.upper_err;
    snprintf(out->upper_method, sizeof out->upper_method, "polygon/%s",
             ar_method_name(cb.upper == cb.upper_lp ? AR_METHOD_CIRCULANT_L1LP : AR_METHOD_CIRCULANT_PROJECTION));
    set_lower(out, cb.lower, n, "polygon/circulant-blocks", 1);
    return AR_OK;
}

/* Scale engine, d >= 3: the polynomial certificate on the family's instance. */
static ar_status point_poly(int d, double beta, double eps, const claim_s_opts_t *o, claim_s_point_t *out)
{
    const char *fam_name;
    size_t n = auto_size(o, d, beta, 40.0, 2000, 20000);
    pointset_t P = { 0 };
    ar_status st = cs_instance(d, n, o, &P, &fam_name);
    if (st)
        return st;
    poly_cert_t pc;
    st = poly_upper_instance(&P, beta, eps, &pc);
    pointset_clear(&P);
    if (st)
        return st;
    out->n = n;
    out->upper = pc.rank;
    out->upper_capped = pc.capped;
    out->upper_err = pc.err;
    snprintf(out->upper_method, sizeof out->upper_method, "%s/%s", fam_name,
             ar_method_name(pc.capped ? AR_METHOD_TRIVIAL : AR_METHOD_POLYNOMIAL));
    return AR_OK;
}

ar_status claim_s_point(int d, double beta, double eps, const claim_s_opts_t *o, claim_s_point_t *out)
{
    claim_s_opts_t def;
    if (!o) {
        claim_s_opts_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    if (d < 2 || d > 16 || !(beta >= 0) || !isfinite(beta) || !(eps > 0 && eps < 1)) {
        ar_error_set("claim_s_point: need 2 <= d <= 16, finite beta >= 0, 0 < eps < 1");
        return AR_EINVAL;
    }
    int poly_instance = o->instance && o->engine != CLAIM_S_DENSE && d >= 3, poly_continuum = o->continuum && d >= 3;
    if ((poly_instance || poly_continuum) && beta > POLY_BETA_MAX) {
        ar_error_set("scale claim S: beta = %g is above %g, the largest beta of the polynomial upper certificate "
                     "(%s in d = %d); lower beta, or %s", beta, POLY_BETA_MAX,
                     poly_instance ? "the scale engine's instance upper end" : "the continuum upper end", d,
                     poly_instance ? "use engine dense or no-instance" : "drop continuum");
        return AR_EINVAL;
    }
    double t0 = clock_now();
    out->d = d;
    out->beta = beta;
    out->eps = eps;
    out->status = AR_CERT_CERTIFIED;
    set_lower(out, 1, 1, "trivial", 0);
    ar_status st = AR_OK;
    if (o->instance) {
        if (o->engine == CLAIM_S_DENSE)
            st = point_dense(d, beta, eps, o, out);
        else if (d == 2)
            st = point_circulant(beta, eps, o, out);
        else
            st = point_poly(d, beta, eps, o, out);
        if (st)
            return st;
    }
    if (o->packing) {
        pack_cert_t pk;
        st = pack_lower_search_gen((size_t)d, beta, eps, o->seed, o->packing_max, PACK_DIAGDOM,
                                   o->packing_zonal ? PACK_GEN_ZONAL : PACK_GEN_AUTO, &pk);
        if (st)
            return st;
        if (pk.certified) {
            char m[48];
            snprintf(m, sizeof m, "packing/%s", ar_method_name(pk.method));
            set_lower(out, pk.certified, pk.m, m, 0);
        }
    }
    if (o->continuum && d >= 3) {
        poly_cert_t pc;
        st = poly_upper_continuum(d, beta, eps, &pc);
        if (st)
            return st;
        out->continuum = pc.rank;
        snprintf(out->continuum_method, sizeof out->continuum_method, "continuum/polynomial L=%lu", pc.L);
    }
    out->seconds = clock_now() - t0;
    return AR_OK;
}

ar_status claim_s_law_point(const law_t *L, double beta, law_point_t *out)
{
    int continuum = L->upper_source == LAW_UPPER_CONTINUUM;
    int saturation = L->kind == LAW_SATURATION;
    claim_s_opts_t co;
    claim_s_opts_default(&co);
    co.engine = L->engine ? CLAIM_S_SCALE : CLAIM_S_DENSE;
    co.family = L->family;
    co.n_factor = L->n_per_law;
    co.n_min = L->n_min;
    co.n_max = L->n_max;
    co.packing = saturation ? 0 : L->packing;
    co.instance = !continuum;
    co.continuum = continuum;
    co.n = saturation ? out->n : 0;
    if (L->packing_max)
        co.packing_max = L->packing_max;
    co.packing_zonal = L->packing_zonal;
    return claim_s_point(L->dim, beta, L->eps, &co, out);
}
