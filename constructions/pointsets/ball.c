/* ball.c -- shells, dense lattices and uniform samples of the unit ball,
 * with exact Gaussian multiplicities (see ball.h). */
#include "constructions/pointsets/ball.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "constructions/pointsets/sphere.h"
#include "numerics/rng.h"

#define BALL_MAX_POINTS 5000000
#define WEIGHT_PREC_MAX (1L << 22)

static const char *const names[] = { "shells", "dense", "uniform" };

ar_status ball_family_parse(const char *name, ball_family_t *f)
{
    for (int i = 0; i < 3; i++)
        if (name && strcmp(name, names[i]) == 0) {
            *f = (ball_family_t)i;
            return AR_OK;
        }
    ar_error_set("unknown ball family '%s' (expected shells, dense or uniform)", name ? name : "");
    return AR_EINVAL;
}

const char *ball_family_name(ball_family_t f)
{
    return (unsigned)f < 3 ? names[f] : "unknown";
}

void ball_spec_default(ball_spec_t *s, ball_family_t f, size_t d, double beta)
{
    memset(s, 0, sizeof *s);
    s->family = f;
    s->d = d;
    s->beta = beta;
    s->rho0 = sqrt(3.0) / 2.0;
    if (d <= 2) {
        s->c_radial = 1.80;
        s->c_angular = 2.15;
    } else if (d == 3) {
        s->c_radial = 2.0;
        s->c_angular = 2.5;
    } else {
        s->c_radial = 2.2;
        s->c_angular = 2.7;
    }
    s->npoints = 2000;
    s->seed = 1;
    s->unweighted = 0;
    s->M0 = 1.0;
}

/* ---- growable coordinate buffer ------------------------------------------ */

typedef struct { double *x; size_t n, cap, d; } buf_t;

static ar_status buf_push(buf_t *b, const double *p)
{
    if (b->n >= BALL_MAX_POINTS) {
        ar_error_set("ball: more than %d distinct points requested (beta or npoints too large)",
                     BALL_MAX_POINTS);
        return AR_EINVAL;
    }
    if (b->n == b->cap) {
        size_t nc = b->cap ? 2 * b->cap : 1024;
        double *nx = realloc(b->x, nc * b->d * sizeof(double));
        if (!nx) {
            ar_error_set("ball: out of memory for %zu points", nc);
            return AR_ENOMEM;
        }
        b->x = nx;
        b->cap = nc;
    }
    memcpy(b->x + b->n * b->d, p, b->d * sizeof(double));
    b->n++;
    return AR_OK;
}

/* ---- shells -------------------------------------------------------------- */

/* Points of one shell of radius r > 0 (index k, for the stagger). */
static ar_status shell_points(buf_t *b, size_t d, double r, double a, size_t k, uint64_t seed)
{
    double p[16] = { 0 };
    if (d == 2) {
        size_t n = (size_t)floor(2.0 * M_PI * r / a);
        if (n < 1)
            n = 1;
        double off = (k % 2) ? 0.5 : 0.0;
        for (size_t j = 0; j < n; j++) {
            double phi = 2.0 * M_PI * ((double)j + off) / (double)n;
            p[0] = r * cos(phi);
            p[1] = r * sin(phi);
            ar_status st = buf_push(b, p);
            if (st)
                return st;
        }
        return AR_OK;
    }
    if (d == 3) {
        size_t n = (size_t)floor(4.0 * M_PI * r * r / (a * a * sqrt(3.0) / 2.0) + 0.5);
        if (n < 1)
            n = 1;
        double ga = M_PI * (3.0 - sqrt(5.0)), rot = 2.0 * M_PI * 0.618033988749895 * (double)k;
        for (size_t i = 0; i < n; i++) {
            double z = 1.0 - (2.0 * (double)i + 1.0) / (double)n;
            double s = sqrt(fmax(0.0, 1.0 - z * z)), phi = ga * (double)i + rot;
            /* alternate shells also flip the pole axis, so that spirals do not align */
            double zz = (k % 2) ? -z : z;
            p[0] = r * s * cos(phi);
            p[1] = r * s * sin(phi);
            p[2] = r * zz;
            ar_status st = buf_push(b, p);
            if (st)
                return st;
        }
        return AR_OK;
    }
    double theta = a >= 2.0 * r ? M_PI : 2.0 * asin(a / (2.0 * r));
    pointset_t S;
    memset(&S, 0, sizeof S);
    ar_status st = sphere_packing(&S, d, theta, BALL_MAX_POINTS, seed + k, 0);
    if (st)
        return st;
    for (size_t i = 0; i < S.n && st == AR_OK; i++) {
        for (size_t c = 0; c < d; c++)
            p[c] = r * S.x[i * d + c];
        st = buf_push(b, p);
    }
    pointset_clear(&S);
    return st;
}

static ar_status gen_shells(buf_t *b, const ball_spec_t *s)
{
    double sq = sqrt(s->beta), hr = s->c_radial / sq, a = s->c_angular / sq;
    /* K + 1 shells from radius 1 down to exactly rho0, spacing (1 - rho0)/K >= h_r;
     * K = 0 (shell thinner than h_r): the unit sphere alone */
    size_t K = (size_t)floor((1.0 - s->rho0) / hr + 1e-9);
    double step = K ? (1.0 - s->rho0) / (double)K : 0.0;
    for (size_t k = 0; k <= K; k++) {
        double r = k == K ? (K ? s->rho0 : 1.0) : 1.0 - (double)k * step;
        if (r == 0.0) {                 /* rho0 = 0: the centre */
            double p[16] = { 0 };
            return buf_push(b, p);
        }
        ar_status st = shell_points(b, s->d, r, a, k, s->seed);
        if (st)
            return st;
    }
    return AR_OK;
}

/* ---- dense lattice and uniform samples ---------------------------------- */

static double shell_volume(size_t d, double rho0)
{
    double vb = pow(M_PI, (double)d / 2.0) / tgamma((double)d / 2.0 + 1.0);
    return vb * (1.0 - pow(rho0, (double)d));
}

static ar_status gen_dense(buf_t *b, const ball_spec_t *s)
{
    size_t d = s->d;
    double h = pow(shell_volume(d, s->rho0) / (double)s->npoints, 1.0 / (double)d);
    long L = (long)ceil(1.0 / h) + 1;
    long idx[16];
    double p[16] = { 0 };
    double r02 = s->rho0 * s->rho0;
    for (size_t c = 0; c < d; c++)
        idx[c] = -L;
    for (;;) {
        double n2 = 0.0;
        for (size_t c = 0; c < d; c++) {
            p[c] = ((double)idx[c] + 0.5) * h;
            n2 += p[c] * p[c];
        }
        if (n2 <= 1.0 && n2 >= r02) {
            ar_status st = buf_push(b, p);
            if (st)
                return st;
        }
        size_t c = 0;
        while (c < d && idx[c] == L)
            idx[c++] = -L;
        if (c == d)
            break;
        idx[c]++;
    }
    return AR_OK;
}

static ar_status gen_uniform(buf_t *b, const ball_spec_t *s)
{
    rng_t r;
    rng_init(&r, s->seed);
    double p[16] = { 0 }, r02 = s->rho0 * s->rho0;
    while (b->n < s->npoints) {
        double n2 = 0.0;
        for (size_t c = 0; c < s->d; c++) {
            p[c] = 2.0 * rng_uniform(&r) - 1.0;
            n2 += p[c] * p[c];
        }
        if (n2 <= 1.0 && n2 >= r02) {
            ar_status st = buf_push(b, p);
            if (st)
                return st;
        }
    }
    return AR_OK;
}

/* ---- multiplicities ------------------------------------------------------ */

ar_status ball_gaussian_weights(pointset_t *P, double beta, double M0)
{
    if (!P || !P->x || P->n == 0) {
        ar_error_set("ball_gaussian_weights: empty point set");
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0 || !isfinite(M0) || M0 < 1) {
        ar_error_set("ball_gaussian_weights: need beta >= 0 and M0 >= 1 finite (beta=%g, M0=%g)",
                     beta, M0);
        return AR_EINVAL;
    }
    ar_status st = AR_OK;
    if (!P->w && (st = pointset_alloc_weights(P)) != AR_OK)
        return st;
    size_t d = P->d;
    /* the exponent is at most beta/2 + beta * |x|^2 (no more than beta/2 + 2.25 d beta) */
    long prec0 = 64 + (long)ceil((beta / 2.0) * 1.4426950408889634 + log2(M0));
    arb_t s, t, B, M;
    arb_init(s);
    arb_init(t);
    arb_init(B);
    arb_init(M);
    arb_set_d(B, beta);
    arb_set_d(M, M0);
    fmpz_t f;
    fmpz_init(f);
    for (size_t i = 0; i < P->n && st == AR_OK; i++) {
        const double *x = P->x + i * d;
        int done = 0;
        for (long prec = prec0; prec <= WEIGHT_PREC_MAX && !done; prec *= 2) {
            arb_zero(s);
            for (size_t c = 0; c < d; c++) {
                arb_set_d(t, x[c]);
                arb_addmul(s, t, t, prec + 128);
            }
            arb_sub_ui(s, s, 1, prec + 128);
            arb_neg(s, s);
            arb_mul(s, s, B, prec + 128);
            arb_mul_2exp_si(s, s, -1);
            arb_exp(t, s, prec);
            arb_mul(t, t, M, prec);
            arb_set_d(s, 0.5);
            arb_add(t, t, s, prec);
            arb_floor(t, t, prec);
            if (arb_get_unique_fmpz(f, t))
                done = 1;
        }
        if (!done) {
            ar_error_set("ball_gaussian_weights: rounding of point %zu not decided at %ld bits", i,
                         WEIGHT_PREC_MAX);
            st = AR_ENUMERIC;
        } else if (fmpz_cmp_ui(f, 1) < 0) {
            ar_error_set("ball_gaussian_weights: point %zu (|x| > 1?) gets multiplicity 0", i);
            st = AR_EINVAL;
        } else {
            fmpz_set(P->w + i, f);
        }
    }
    fmpz_clear(f);
    arb_clear(s);
    arb_clear(t);
    arb_clear(B);
    arb_clear(M);
    return st;
}

double ball_total_count(const pointset_t *P, fmpz_t N)
{
    pointset_total_multiplicity(N, P);
    return fmpz_dlog(N) / log(10.0);
}

double ball_max_weight(const pointset_t *P, fmpz_t wmax)
{
    fmpz_one(wmax);
    if (P->w)
        for (size_t i = 0; i < P->n; i++)
            if (fmpz_cmp(P->w + i, wmax) > 0)
                fmpz_set(wmax, P->w + i);
    return fmpz_dlog(wmax) / log(10.0);
}

/* ---- generation ---------------------------------------------------------- */

ar_status ball_generate(pointset_t *P, const ball_spec_t *s)
{
    if (!P || !s) {
        ar_error_set("ball_generate: NULL argument");
        return AR_EINVAL;
    }
    if (s->d < 2 || s->d > 16) {
        ar_error_set("ball: need 2 <= d <= 16 (d=%zu)", s->d);
        return AR_EINVAL;
    }
    if (!isfinite(s->beta) || !(s->beta > 0)) {
        ar_error_set("ball: need beta > 0 finite (beta=%g)", s->beta);
        return AR_EINVAL;
    }
    if (!(s->rho0 >= 0 && s->rho0 < 1)) {
        ar_error_set("ball: need 0 <= rho0 < 1 (rho0=%g)", s->rho0);
        return AR_EINVAL;
    }
    if (s->family == BALL_SHELLS &&
        (!(s->c_radial > 0) || !(s->c_angular > 0) || !isfinite(s->c_radial) || !isfinite(s->c_angular))) {
        ar_error_set("ball: shell spacings must be positive (c_radial=%g, c_angular=%g)", s->c_radial,
                     s->c_angular);
        return AR_EINVAL;
    }
    if ((s->family == BALL_DENSE || s->family == BALL_UNIFORM) &&
        (s->npoints < 1 || s->npoints > BALL_MAX_POINTS)) {
        ar_error_set("ball: npoints must be in [1, %d] (npoints=%zu)", BALL_MAX_POINTS, s->npoints);
        return AR_EINVAL;
    }
    if (!s->unweighted && !(s->M0 >= 1 && isfinite(s->M0))) {
        ar_error_set("ball: M0 must be >= 1 (M0=%g)", s->M0);
        return AR_EINVAL;
    }
    buf_t b = { NULL, 0, 0, s->d };
    ar_status st;
    switch (s->family) {
    case BALL_SHELLS: st = gen_shells(&b, s); break;
    case BALL_DENSE: st = gen_dense(&b, s); break;
    case BALL_UNIFORM: st = gen_uniform(&b, s); break;
    default:
        ar_error_set("ball: unknown family");
        st = AR_EINVAL;
    }
    if (st == AR_OK && b.n == 0) {
        ar_error_set("ball: the %s family produced no point (rho0=%g)", ball_family_name(s->family),
                     s->rho0);
        st = AR_EINVAL;
    }
    if (st == AR_OK)
        st = pointset_init(P, b.n, s->d);
    if (st == AR_OK) {
        memcpy(P->x, b.x, b.n * s->d * sizeof(double));
        if (!s->unweighted)
            st = ball_gaussian_weights(P, s->beta, s->M0);
        if (st != AR_OK)
            pointset_clear(P);
    }
    free(b.x);
    if (st != AR_OK)
        return st;
    if (s->family == BALL_SHELLS)
        pointset_set_provenance(P, "ball shells d=%zu beta=%.17g rho0=%.17g c_radial=%g c_angular=%g %s M0=%g",
                                s->d, s->beta, s->rho0, s->c_radial, s->c_angular,
                                s->unweighted ? "unweighted" : "gaussian", s->M0);
    else
        pointset_set_provenance(P, "ball %s d=%zu beta=%.17g rho0=%.17g npoints=%zu seed=%llu %s M0=%g",
                                ball_family_name(s->family), s->d, s->beta, s->rho0, s->npoints,
                                (unsigned long long)s->seed, s->unweighted ? "unweighted" : "gaussian",
                                s->M0);
    return AR_OK;
}
