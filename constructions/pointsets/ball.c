/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ball.c -- shells, dense lattices and uniform samples of the unit ball,
 * with exact Gaussian multiplicities (see ball.h). */
#include "constructions/pointsets/ball.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "constructions/pointsets/sphere.h"
#include "numerics/rng.h"

#define WEIGHT_PREC_MAX (1L << 22)
#define WEIGHT_BITS_MAX ((1 << 22) - 64)   /* multiplicities the Ziv loop can decide: bits + 64 <= WEIGHT_PREC_MAX */
#define WEIGHT_TOTAL_BITS_MAX 4e9          /* all multiplicities of one instance: minutes of Arb exp, not hours */

static const char *const names[] = { "shells", "dense", "uniform", "packed" };

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
    return (unsigned)f < 4 ? names[f] : "unknown";
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
    s->seed = f == BALL_PACKED ? 0 : 1;
    s->unweighted = 0;
    s->M0 = 1.0;
    s->c_lattice = d <= 2 ? 1.92 : d == 3 ? 2.38 : d == 4 ? 2.65 : d == 5 ? 2.84 : 3.0;
}

/* ---- the spec ------------------------------------------------------------ */

static ar_status spec_check(const ball_spec_t *s)
{
    if (!s) {
        ar_error_set("ball: NULL spec");
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
    if (s->family == BALL_PACKED && (!(s->c_lattice > 0) || !isfinite(s->c_lattice) || s->seed > 1)) {
        ar_error_set("ball packed: need c_lattice > 0 finite and seed 0 or 1 (c_lattice=%g, seed=%llu)",
                     s->c_lattice, (unsigned long long)s->seed);
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
    if ((unsigned)s->family > BALL_PACKED) {
        ar_error_set("ball: unknown family");
        return AR_EINVAL;
    }
    return AR_OK;
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

/* ---- sizes and work, computed before generating (ball_cost) ----------- */

static double shell_volume(size_t d, double rho0)
{
    double vb = pow(M_PI, (double)d / 2.0) / tgamma((double)d / 2.0 + 1.0);
    return vb * (1.0 - pow(rho0, (double)d));
}

/* K of the shells family (K + 1 shells from radius 1 down to exactly rho0, spacing
 * (1 - rho0)/K >= h_r; K = 0 when the shell is thinner than h_r: the unit sphere
 * alone), as a double: it overflows no integer type. */
static double shells_K(const ball_spec_t *s)
{
    double hr = s->c_radial / sqrt(s->beta);
    return floor((1.0 - s->rho0) / hr + 1e-9);
}

/* Radius of shell k of K + 1 (0 for the centre when rho0 = 0). */
static double shell_radius(const ball_spec_t *s, size_t K, size_t k)
{
    double step = K ? (1.0 - s->rho0) / (double)K : 0.0;
    return k == K ? (K ? s->rho0 : 1.0) : 1.0 - (double)k * step;
}

/* Points on one shell of radius r > 0 with spacing a: exact for d = 2, 3 (the
 * counts shell_points uses), for d >= 4 the covering lower bound of a maximal
 * cap packing of angle theta = 2 asin(a / 2r): caps of radius theta around
 * the points cover the sphere, so n >= |S^{d-1}| / |cap(theta)|
 * >= B((d-1)/2, 1/2) (d-1) / theta^{d-1} (sin t <= t; theta <= pi/2). */
static double shell_count(size_t d, double r, double a)
{
    double n;
    if (d == 2)
        n = floor(2.0 * M_PI * r / a);
    else if (d == 3)
        n = floor(4.0 * M_PI * r * r / (a * a * sqrt(3.0) / 2.0) + 0.5);
    else {
        double theta = a >= 2.0 * r ? M_PI : 2.0 * asin(a / (2.0 * r)), dm = (double)d - 1.0;
        double logB = lgamma(dm / 2.0) + lgamma(0.5) - lgamma((double)d / 2.0);
        n = theta <= M_PI / 2.0 ? exp(logB + log(dm) - dm * log(theta)) : 1.0;
    }
    return n >= 1.0 ? n : 1.0;
}

/* The dense lattice: spacing h for about npoints points in the shell, and L
 * (cells -L..L per axis) as a double. */
static double dense_spacing(const ball_spec_t *s)
{
    return pow(shell_volume(s->d, s->rho0) / (double)s->npoints, 1.0 / (double)s->d);
}

static double dense_L(double h)
{
    return ceil(1.0 / h) + 1.0;
}

/* The packed family: D_d scaled by sc = a / sqrt(2) (nearest spacing a), integer
 * coordinates k_c in -Lp..Lp with Lp = ceil(1 / sc) + 1. */
static double packed_scale(const ball_spec_t *s)
{
    return s->c_lattice / sqrt(s->beta) / sqrt(2.0);
}

static double packed_L(double sc)
{
    return ceil(1.0 / sc) + 1.0;
}

/* Expected draws from the cube [-1, 1]^d for npoints uniform points of the shell. */
static double uniform_draws(const ball_spec_t *s)
{
    double frac = shell_volume(s->d, s->rho0) / pow(2.0, (double)s->d);
    return (double)s->npoints / frac;
}

/* Bits of M0 exp(e), e = beta (1 - n2) / 2 the exponent of a point with |x|^2 = n2. */
static double weight_bits(double beta, double n2, double M0)
{
    double e = beta * (1.0 - n2) / 2.0;
    return (e > 0 ? e * 1.4426950408889634 : 0.0) + log2(M0);
}

ar_status ball_cost(const ball_spec_t *s, ball_cost_t *c)
{
    ar_status st = spec_check(s);
    if (st)
        return st;
    memset(c, 0, sizeof *c);
    size_t d = s->d;
    if (s->family == BALL_SHELLS) {
        double Kd = shells_K(s), a = s->c_angular / sqrt(s->beta);
        if (!(Kd + 1.0 <= BALL_MAX_POINTS)) {
            ar_error_set("ball shells: %.3g shells at beta = %g, more than the %d distinct points allowed; lower "
                         "beta (shells are spaced ~1/sqrt(beta)) or raise rho0", Kd + 1.0, s->beta,
                         BALL_MAX_POINTS);
            return AR_EINVAL;
        }
        size_t K = (size_t)Kd;
        for (size_t k = 0; k <= K && c->points <= BALL_MAX_POINTS; k++) {
            double r = shell_radius(s, K, k);
            double n = r == 0.0 ? 1.0 : shell_count(d, r, a);
            c->points += n;
            c->weight_bytes += n * (s->unweighted ? 0.0 : weight_bits(s->beta, r * r, s->M0) / 8.0 + 16.0);
            /* d >= 4: the greedy packing checks each candidate against min(3^d, n) points
             * (its grid of cells for d <= 8 once n > 3^d, every kept point otherwise) */
            c->work += d >= 4 ? n * (double)d * fmin(d <= 8 ? pow(3.0, (double)d) : n, n) : n * (double)d;
            if (r == 0.0)
                break;
        }
        if (!(c->points <= BALL_MAX_POINTS)) {
            ar_error_set("ball shells: d = %zu at beta = %g needs about %.3g distinct points, more than %d; lower "
                         "beta (spacings ~1/sqrt(beta)), raise rho0 or lower d", d, s->beta, c->points,
                         BALL_MAX_POINTS);
            return AR_EINVAL;
        }
        if (!(c->work <= BALL_MAX_WORK)) {
            ar_error_set("ball shells: the cap packings of about %.3g points in d = %zu at beta = %g take about %.3g "
                         "steps, more than %.3g; lower beta or d", c->points, d, s->beta, c->work,
                         (double)BALL_MAX_WORK);
            return AR_EINVAL;
        }
    } else if (s->family == BALL_DENSE) {
        double h = dense_spacing(s), cells = exp((double)d * log(2.0 * dense_L(h) + 1.0));
        c->points = (double)s->npoints;
        c->work = cells * (double)d;
        if (!(h > 0) || !(c->work <= BALL_MAX_WORK)) {
            ar_error_set("ball dense: a lattice of about %zu points in %.17g <= |x| <= 1 (d = %zu) has spacing %.3g "
                         "and walks %.3g cells of [-1, 1]^%zu, more than %.3g steps; lower d, n or "
                         "rho0", s->npoints, s->rho0, d, h, cells, d,
                         (double)BALL_MAX_WORK);
            return AR_EINVAL;
        }
    } else if (s->family == BALL_PACKED) {
        double sc = packed_scale(s), cells = exp((double)d * log(2.0 * packed_L(sc) + 1.0));
        c->points = shell_volume(d, s->rho0) / (2.0 * pow(sc, (double)d));   /* volume / covolume */
        c->work = cells * (double)d;
        if (!(sc > 0) || !(c->points <= BALL_MAX_POINTS) || !(c->work <= BALL_MAX_WORK)) {
            ar_error_set("ball packed: the D%zu lattice of spacing %.3g in %.17g <= |x| <= 1 has about %.3g points "
                         "and walks %.3g cells, more than %d points or %.3g steps; lower beta or d", d,
                         sc * sqrt(2.0), s->rho0, c->points, cells, BALL_MAX_POINTS, (double)BALL_MAX_WORK);
            return AR_EINVAL;
        }
    } else {
        double draws = uniform_draws(s);
        c->points = (double)s->npoints;
        c->work = draws * (double)d;
        if (!(c->work <= BALL_MAX_WORK)) {
            ar_error_set("ball uniform: %.17g <= |x| <= 1 fills a fraction %.3g of [-1, 1]^%zu, so %zu points need "
                         "about %.3g draws, more than %.3g; lower rho0, d or n", s->rho0,
                         (double)s->npoints / draws, d, s->npoints, draws, (double)BALL_MAX_WORK / (double)d);
            return AR_EINVAL;
        }
    }
    if (!s->unweighted) {
        c->weight_bits = weight_bits(s->beta, s->rho0 * s->rho0, s->M0);
        if (!(c->weight_bits <= WEIGHT_BITS_MAX)) {
            ar_error_set("ball: multiplicities round(M0 exp(beta (1 - |x|^2)/2)) reach about 10^%.3g at beta = %g, "
                         "rho0 = %g (more than %d bits); lower beta, raise rho0 or use unweighted",
                         c->weight_bits * 0.30102999566398120, s->beta, s->rho0, WEIGHT_BITS_MAX);
            return AR_EINVAL;
        }
        if (s->family != BALL_SHELLS)           /* every point at most the innermost radius's bits */
            c->weight_bytes = c->points * (c->weight_bits / 8.0 + 16.0);
        double bytes = c->weight_bytes, total_bits = 8.0 * (bytes - 16.0 * c->points);
        if (!(total_bits <= WEIGHT_TOTAL_BITS_MAX)) {
            ar_error_set("ball: the %.3g exact multiplicities total about %.3g bits, more than %.3g (hours of exact "
                         "evaluation); lower beta, raise rho0 or use unweighted",
                         c->points, total_bits, WEIGHT_TOTAL_BITS_MAX);
            return AR_EINVAL;
        }
        if (!(bytes <= (double)ar_max_alloc())) {
            ar_error_set("ball: %.3g multiplicities of up to %.3g bits need about %.3g GiB (limit %.3g GiB, "
                         "ATTNRANK_MAX_ALLOC_GB); lower beta, raise rho0 or use unweighted", c->points,
                         c->weight_bits, bytes / 1073741824.0, (double)ar_max_alloc() / 1073741824.0);
            return AR_EINVAL;
        }
    }
    return AR_OK;
}

/* ---- shells -------------------------------------------------------------- */

/* Points of one shell of radius r > 0 (index k, for the stagger). */
static ar_status shell_points(buf_t *b, size_t d, double r, double a, size_t k, uint64_t seed)
{
    double p[16] = { 0 };
    if (d == 2) {
        size_t n = (size_t)shell_count(2, r, a);    /* <= BALL_MAX_POINTS: ball_cost ran first */
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
        size_t n = (size_t)shell_count(3, r, a);
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
    double a = s->c_angular / sqrt(s->beta);
    size_t K = (size_t)shells_K(s);                 /* < BALL_MAX_POINTS: ball_cost ran first */
    for (size_t k = 0; k <= K; k++) {
        double r = shell_radius(s, K, k);
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


static ar_status gen_dense(buf_t *b, const ball_spec_t *s)
{
    size_t d = s->d;
    double h = dense_spacing(s);
    long L = (long)dense_L(h);                      /* (2L+1)^d cells <= BALL_MAX_WORK: ball_cost ran first */
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

/* D_d = { k in Z^d : sum k even } times sc, plus the offset (sc, 0, .., 0) for
 * seed 1 (a deep hole of D_d for d >= 3, a point of the other coset), kept
 * where rho0^2 <= |x|^2 <= 1 in double. */
static ar_status gen_packed(buf_t *b, const ball_spec_t *s)
{
    size_t d = s->d;
    double sc = packed_scale(s);
    long L = (long)packed_L(sc);                    /* (2L+1)^d cells <= BALL_MAX_WORK: ball_cost ran first */
    long idx[16];
    double p[16] = { 0 };
    double r02 = s->rho0 * s->rho0;
    for (size_t c = 0; c < d; c++)
        idx[c] = -L;
    for (;;) {
        long sum = 0;
        for (size_t c = 0; c < d; c++)
            sum += idx[c];
        if (sum % 2 == 0) {
            double n2 = 0.0;
            for (size_t c = 0; c < d; c++) {
                p[c] = ((double)idx[c] + (c == 0 && s->seed == 1 ? 1.0 : 0.0)) * sc;
                n2 += p[c] * p[c];
            }
            if (n2 <= 1.0 && n2 >= r02) {
                ar_status st = buf_push(b, p);
                if (st)
                    return st;
            }
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
    /* at most 4x the expected number of draws (and BALL_MAX_WORK coordinates): a shell
     * whose doubles hold far fewer points than its volume says ends here */
    double cap = fmin(4.0 * uniform_draws(s) + 1e6, 2.0 * BALL_MAX_WORK / (double)s->d);
    for (double draws = 0; b->n < s->npoints; draws++) {
        if (draws >= cap) {
            ar_error_set("ball uniform: only %zu of %zu points of %.17g <= |x| <= 1 after %.3g draws; lower rho0 "
                         "or n", b->n, s->npoints, s->rho0, draws);
            return AR_EINVAL;
        }
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
        /* start at the bits of this point's multiplicity (+64): the Ziv loop below decides
         * the same integer from any start, and a point near the sphere needs few bits */
        double n2 = 0;
        for (size_t c = 0; c < d; c++)
            n2 += x[c] * x[c];
        double bits = weight_bits(beta, n2, M0);
        if (!(bits <= WEIGHT_BITS_MAX)) {
            ar_error_set("ball_gaussian_weights: the multiplicity of point %zu has about %.3g bits (more than %d); "
                         "lower beta or M0", i, bits, WEIGHT_BITS_MAX);
            st = AR_EINVAL;
            break;
        }
        int done = 0;
        for (long prec = 64 + (long)ceil(bits); prec <= WEIGHT_PREC_MAX && !done; prec *= 2) {
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
    if (!P) {
        ar_error_set("ball_generate: NULL argument");
        return AR_EINVAL;
    }
    ball_cost_t cost;
    ar_status st = ball_cost(s, &cost);           /* refuses what cannot finish, before any work */
    if (st)
        return st;
    buf_t b = { NULL, 0, 0, s->d };
    switch (s->family) {
    case BALL_SHELLS: st = gen_shells(&b, s); break;
    case BALL_DENSE: st = gen_dense(&b, s); break;
    case BALL_UNIFORM: st = gen_uniform(&b, s); break;
    case BALL_PACKED: st = gen_packed(&b, s); break;
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
    else if (s->family == BALL_PACKED)
        pointset_set_provenance(P, "ball packed D%zu d=%zu beta=%.17g rho0=%.17g c_lattice=%.17g offset=%llu %s M0=%g",
                                s->d, s->d, s->beta, s->rho0, s->c_lattice, (unsigned long long)s->seed,
                                s->unweighted ? "unweighted" : "gaussian", s->M0);
    else
        pointset_set_provenance(P, "ball %s d=%zu beta=%.17g rho0=%.17g npoints=%zu seed=%llu %s M0=%g",
                                ball_family_name(s->family), s->d, s->beta, s->rho0, s->npoints,
                                (unsigned long long)s->seed, s->unweighted ? "unweighted" : "gaussian",
                                s->M0);
    return AR_OK;
}
