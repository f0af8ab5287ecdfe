/* SPDX-License-Identifier: GPL-3.0-or-later */
/* claim_b.c -- claim-B sweep point (see claim_b.h). */
#include "theory/claims/claim_b.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "constructions/pointsets/ball.h"
#include "base/clock.h"
#include "theory/brackets/bracket_ball.h"
#include "theory/brackets/route.h"
#include "constructions/pointsets/ball_shells.h"
#include "theory/certificates/cert_ball.h"
#include "theory/certificates/cert_ball_harmonic.h"
#include "theory/certificates/cert_packing.h"

void claim_b_opts_default(claim_b_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->rho0 = sqrt(3.0) / 2.0;
    o->lower = 1;
    o->upper = 0;
    o->upper_family = "dense";
    o->npoints = 2500;
}

static const double scales[] = { 1.12, 1.06, 1.0, 0.95, 0.9 };
/* D_d lattice probes, per offset (0: a lattice point at the origin, 1: a deep hole): the
 * spacing 0.99 x the default (interior R ~ 0.78-0.80 < 9/11 at eps = 0.1), and the default
 * only when that fails */
static const double lattice_scales[] = { 0.99, 1.0 };

/* Best certified lower bound over the shells instances (unless lower_lattice = 2) and,
 * with lower_lattice, the D_d lattice instances; N of its instance into log10N;
 * *family: the winning instance family (BALL_SHELLS or BALL_PACKED). */
static ar_status shells_lower(size_t d, double beta, double eps, const claim_b_opts_t *o, ball_lower_t *best,
                              double *log10N, double *log10wmax, ball_family_t *family)
{
    memset(best, 0, sizeof *best);
    best->certified = 1;
    best->method = AR_METHOD_TRIVIAL;
    *log10N = 0;
    *log10wmax = 0;
    *family = BALL_SHELLS;
    size_t nsh = o->lower_lattice == 2 ? 0 : sizeof scales / sizeof scales[0];
    size_t nlat = o->lower_lattice ? 2 * (sizeof lattice_scales / sizeof lattice_scales[0]) : 0;
    int lattice_done[2] = { 0, 0 };
    for (size_t k = 0; k < nsh + nlat; k++) {
        int lattice = k >= nsh;
        unsigned off = lattice ? (unsigned)((k - nsh) % 2) : 0;
        if (lattice && lattice_done[off])
            continue;
        ball_spec_t s;
        ball_spec_default(&s, lattice ? BALL_PACKED : BALL_SHELLS, d, beta);
        s.rho0 = o->rho0;
        s.unweighted = o->unweighted;
        if (lattice) {
            s.c_lattice *= lattice_scales[(k - nsh) / 2];
            s.seed = off;
        } else {
            s.c_radial *= scales[k];
            s.c_angular *= scales[k];
        }
        pointset_t P;
        memset(&P, 0, sizeof P);
        ar_status st = ball_generate(&P, &s);
        if (st)
            return st;
        ball_lower_t c;
        /* the lattice: diagonal dominance only (its nets are coarser lattices' worse cousins) */
        st = lattice ? ball_cluster_lower(&P, beta, eps, 0.0, &c) : ball_lower_search(&P, beta, eps, &c);
        if (st == AR_OK && lattice && c.certified)
            lattice_done[off] = 1;
        if (st == AR_OK && c.certified > best->certified) {
            *best = c;
            *family = lattice ? BALL_PACKED : BALL_SHELLS;
            fmpz_t N;
            fmpz_init(N);
            *log10N = ball_total_count(&P, N);
            *log10wmax = ball_max_weight(&P, N);
            fmpz_clear(N);
        }
        pointset_clear(&P);
        if (st)
            return st;
    }
    return AR_OK;
}

/* The best ball lower bound over the shells (and lattice) instances into out (lower, its points and
 * method, log10 n, the note; inconclusive when nothing beyond the trivial bound is certified);
 * *ball_lower: the bound. */
static ar_status point_lower(size_t d, double beta, double eps, const claim_b_opts_t *o, law_point_t *out,
                             double *ball_lower)
{
    ar_status st;
    double l10N = 0, l10w = 0;
    ball_lower_t c;
    ball_family_t fam = BALL_SHELLS;
    if ((st = shells_lower(d, beta, eps, o, &c, &l10N, &l10w, &fam)))
        return st;
    *ball_lower = (double)c.certified;
    out->lower = c.certified;
    out->lower_points = c.m;
    if (fam == BALL_PACKED)
        snprintf(out->lower_method, sizeof out->lower_method, "ball-%s/D%zu", ar_method_name(c.method), d);
    else
        snprintf(out->lower_method, sizeof out->lower_method, "ball-%s/shells", ar_method_name(c.method));
    out->log10_n = l10N;
    if (!c.certified || c.method == AR_METHOD_TRIVIAL)
        out->status = AR_CERT_INCONCLUSIVE;
    double need = beta / 8.0 / log(10.0);
    snprintf(out->note, sizeof out->note,
             "%s rho0=%.4g%s: N = 10^%.1f points, max multiplicity 10^%.1f; n >= e^{beta/8} = 10^%.1f %s",
             fam == BALL_PACKED ? "lattice" : "shells", o->rho0, o->unweighted ? " unweighted" : "",
             l10N, l10w, need, l10N >= need ? "holds" : "does NOT hold");
    return AR_OK;
}

/* The sphere-packing contrast: the packing's lower bound replaces out's, and the note compares it
 * with the ball's bound ball_lower. */
static ar_status point_sphere_contrast(size_t d, double beta, double eps, const claim_b_opts_t *o, law_point_t *out,
                                       double ball_lower)
{
    ar_status st;
    pack_cert_t pk;
    if ((st = pack_lower_search(d, beta, eps, 1, 200000, &pk)))
        return st;
    out->lower = pk.certified ? pk.certified : 1;
    out->lower_points = pk.m;
    snprintf(out->lower_method, sizeof out->lower_method, "sphere-packing/%s", ar_method_name(pk.method));
    out->log10_n = log10((double)pk.m);
    snprintf(out->note, sizeof out->note,
             "sphere packing %zu vs ball shells (rho0=%.4g) %.0f: ball/sphere = %.3g, /sqrt(beta) = %.3g",
             out->lower, o->rho0, ball_lower, ball_lower / (double)out->lower,
             ball_lower / (double)out->lower / sqrt(beta));
    if (!pk.certified)
        out->status = AR_CERT_INCONCLUSIVE;
    return AR_OK;
}

/* The upper bound of the o->upper_family instance through the route chooser into out (and its
 * lower bound when better than out's). */
static ar_status point_upper(size_t d, double beta, double eps, const claim_b_opts_t *o, law_point_t *out)
{
    ar_status st;
    ball_spec_t s;
    ball_family_t f = BALL_DENSE;
    if (o->upper_family && (st = ball_family_parse(o->upper_family, &f)))
        return st;
    ball_spec_default(&s, f, d, beta);
    s.rho0 = o->rho0;
    s.unweighted = o->unweighted;
    s.npoints = o->npoints;
    pointset_t P;
    memset(&P, 0, sizeof P);
    if ((st = ball_generate(&P, &s)))
        return st;
    route_result_t rr;             /* the one route chooser (ball route + dense where affordable) */
    st = route_bracket(&P, &P, beta, eps, NULL, &rr);
    const bracket_t b = rr.b;
    if (st == AR_OK) {
        out->n = P.n;
        out->upper = b.upper;
        out->upper_capped = b.upper >= P.n;
        out->upper_err = b.up.err;
        snprintf(out->upper_method, sizeof out->upper_method, "%s/%s", ar_method_name(b.up.method),
                 ball_family_name(f));
        if (b.lower > out->lower) {
            out->lower = b.lower;
            out->lower_points = P.n;
            out->lower_on_instance = 1;
            snprintf(out->lower_method, sizeof out->lower_method, "%s/%s", ar_method_name(b.lo.method),
                     ball_family_name(f));
        }
        if (!o->lower) {
            fmpz_t N;
            fmpz_init(N);
            out->log10_n = ball_total_count(&P, N);
            fmpz_clear(N);
        }
        if (b.status != AR_CERT_CERTIFIED)
            out->status = AR_CERT_INCONCLUSIVE;
    }
    pointset_clear(&P);
    return st;
}

/* The default shells instance through the route chooser: its certified lower bound into out when
 * better. */
static ar_status point_lower_route(size_t d, double beta, double eps, const claim_b_opts_t *o, law_point_t *out)
{
    ar_status st;
    ball_spec_t s;
    ball_spec_default(&s, BALL_SHELLS, d, beta);
    s.rho0 = o->rho0;
    s.unweighted = o->unweighted;
    pointset_t P;
    memset(&P, 0, sizeof P);
    if ((st = ball_generate(&P, &s)))
        return st;
    route_result_t rr;
    st = route_bracket(&P, &P, beta, eps, NULL, &rr);
    if (st == AR_OK && rr.b.status == AR_CERT_CERTIFIED && rr.b.lower > out->lower) {
        out->lower = rr.b.lower;
        out->lower_points = P.n;
        out->lower_on_instance = 0;
        snprintf(out->lower_method, sizeof out->lower_method, "%s/shells", ar_method_name(rr.b.lo.method));
    }
    pointset_clear(&P);
    return st;
}

/* The shells continuum of the same ball (radial spacing o->hs, at most CLAIM_B_HS_MAX): its certified
 * rank into out, its sizes appended to the note. */
static ar_status point_continuum(size_t d, double beta, double eps, const claim_b_opts_t *o, law_point_t *out)
{
    ar_status st;
    if (!(o->hs >= 0 && o->hs <= CLAIM_B_HS_MAX)) {
        ar_error_set("claim B: a radial spacing of %g kernel widths is coarser than %g: the shells continuum "
                     "would no longer measure the ball", o->hs, CLAIM_B_HS_MAX);
        return AR_EINVAL;
    }
    ball_shells_t S;
    if ((st = ball_shells_make(&S, (int)d, beta, o->rho0, o->hs > 0 ? o->hs : CLAIM_B_HS_MAX, !o->unweighted)))
        return st;
    ball_harmonic_cert_t hc;
    st = ball_harmonic_upper(&S, eps, NULL, &hc);
    if (st == AR_OK) {
        if (hc.certified) {
            out->continuum = hc.rank;
            snprintf(out->continuum_method, sizeof out->continuum_method, "shells-continuum hs=%.3g Q=%zu L=%lu",
                     hc.h_sqrt_beta, hc.Q, hc.L);
        } else
            out->status = AR_CERT_INCONCLUSIVE;
        char extra[96];   /* no time here: a point's numbers and notes do not depend on the machine */
        snprintf(extra, sizeof extra, "%scontinuum: %zu spheres, h sqrt(beta) = %.2f, err %.4f",
                 out->note[0] ? "; " : "", hc.Q, hc.h_sqrt_beta, hc.err);
        size_t used = strlen(out->note);
        snprintf(out->note + used, sizeof out->note - used, "%s", extra);
    }
    ball_harmonic_cert_clear(&hc);
    ball_shells_clear(&S);
    return st;
}

ar_status claim_b_point(size_t d, double beta, double eps, const claim_b_opts_t *o, law_point_t *out)
{
    claim_b_opts_t def;
    if (!o) {
        claim_b_opts_default(&def);
        o = &def;
    }
    if (!out) {
        ar_error_set("claim_b_point: out is NULL");
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    out->d = (int)d;
    out->beta = beta;
    out->eps = eps;
    out->status = AR_CERT_CERTIFIED;
    if (d < 2 || d > 16 || !(beta > 0) || !isfinite(beta) || !(eps > 0 && eps < 1)) {
        ar_error_set("claim_b_point: need 2 <= d <= 16, beta > 0 finite, 0 < eps < 1");
        return AR_EINVAL;
    }
    double t0 = clock_now();
    ar_status st;
    double ball_lower = 0;
    if ((o->lower || o->sphere_contrast) && (st = point_lower(d, beta, eps, o, out, &ball_lower)))
        return st;
    if (o->sphere_contrast && (st = point_sphere_contrast(d, beta, eps, o, out, ball_lower)))
        return st;
    if (o->upper && (st = point_upper(d, beta, eps, o, out)))
        return st;
    if (o->lower_route && (st = point_lower_route(d, beta, eps, o, out)))
        return st;
    if (o->continuum && (st = point_continuum(d, beta, eps, o, out)))
        return st;
    out->seconds = clock_now() - t0;
    return AR_OK;
}

ar_status claim_b_law_point(const law_t *L, double beta, law_point_t *out)
{
    const claim_b_opts_t *o = L->opts;
    return claim_b_point((size_t)L->dim, beta, L->eps, o, out);
}
