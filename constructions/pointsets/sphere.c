/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sphere.c -- polygon, Fibonacci, uniform and greedy-packing point sets on
 * the unit sphere.  Coordinates of the polygon and Fibonacci sets are the
 * correctly rounded doubles of the exact points (MPFR with a Ziv loop);
 * uniform points are Gaussians normalised in 128-bit MPFR arithmetic. */
#include "constructions/pointsets/sphere.h"
#include "constructions/pointsets/sphere_code.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "numerics/rng.h"
#include "base/parallel.h"

#define ZIV_PREC0 128
#define ZIV_PREC_MAX 8192
#define UNIT_PREC 128

/* If every real within 2^(EXP(v) - err) of v rounds to the same double,
 * store it in *out and return 1; otherwise return 0. */
static int ziv_round(const mpfr_t v, mpfr_exp_t err, double *out)
{
    if (mpfr_zero_p(v) || !mpfr_number_p(v))
        return 0;
    if (!mpfr_can_round(v, err, MPFR_RNDN, MPFR_RNDN, 53))
        return 0;
    *out = mpfr_get_d(v, MPFR_RNDN);
    return 1;
}

/* Correctly rounded (cos b, sin b) for b = pi k / (2 n), 0 <= k < n.
 * By Niven's theorem the only rational values in [0, pi/2) are cos 0 = 1,
 * sin 0 = 0, sin(pi/6) = cos(pi/3) = 1/2; these are set exactly, every other
 * value is irrational, so the Ziv loop terminates. */
static ar_status quarter_cos_sin(unsigned long k, unsigned long n, double *c, double *s,
                                 mpfr_t pi, mpfr_t b, mpfr_t cv, mpfr_t sv)
{
    if (k == 0) {
        *c = 1.0;
        *s = 0.0;
        return AR_OK;
    }
    int need_s = !(n % 3 == 0 && k == n / 3);        /* b = pi/6 */
    int need_c = !(n % 3 == 0 && k == 2 * (n / 3));  /* b = pi/3 */
    if (!need_s)
        *s = 0.5;
    if (!need_c)
        *c = 0.5;
    for (mpfr_prec_t p = ZIV_PREC0; p <= ZIV_PREC_MAX; p *= 2) {
        mpfr_set_prec(pi, p);
        mpfr_set_prec(b, p);
        mpfr_set_prec(cv, p);
        mpfr_set_prec(sv, p);
        /* b has relative error < 4.8 * 2^-p and b < 2, so |b~ - b| < 2^(3-p);
         * sin and cos are 1-Lipschitz and add half an ulp (<= 2^-p): the
         * total error is < 2^(4-p) = 2^(EXP(v) - (EXP(v) + p - 4)). */
        mpfr_const_pi(pi, MPFR_RNDN);
        mpfr_mul_ui(b, pi, k, MPFR_RNDN);
        mpfr_div_ui(b, b, n, MPFR_RNDN);
        mpfr_div_2ui(b, b, 1, MPFR_RNDN);
        mpfr_sin_cos(sv, cv, b, MPFR_RNDN);
        int okc = !need_c || ziv_round(cv, mpfr_get_exp(cv) + p - 4, c);
        int oks = !need_s || ziv_round(sv, mpfr_get_exp(sv) + p - 4, s);
        if (okc && oks)
            return AR_OK;
    }
    ar_error_set("sphere: could not round cos/sin(pi*%lu/(2*%lu)) correctly", k, n);
    return AR_ENUMERIC;
}

/* x_j = (cos 2 pi j/n, sin 2 pi j/n), each coordinate correctly rounded:
 * 2 pi j/n = q pi/2 + b with b = pi r/(2n), r = 4j - q n in [0, n), and the
 * quadrant is applied by exact sign changes and swaps. */
ar_status sphere_polygon(pointset_t *P, size_t n)
{
    if (n == 0 || n > (SIZE_MAX >> 3)) {
        ar_error_set("sphere_polygon: n must be in [1, 2^61) (n=%zu)", n);
        return AR_EINVAL;
    }
    ar_status st = pointset_init(P, n, 2);
    if (st != AR_OK)
        return st;
    mpfr_t pi, b, cv, sv;
    mpfr_inits2(ZIV_PREC0, pi, b, cv, sv, (mpfr_ptr)0);
    for (size_t j = 0; j < n && st == AR_OK; j++) {
        size_t q = (4 * j) / n, r = 4 * j - q * n;
        double c = 0.0, s = 0.0;
        st = quarter_cos_sin((unsigned long)r, (unsigned long)n, &c, &s, pi, b, cv, sv);
        double *x = P->x + 2 * j;
        switch (q) {
        case 0: x[0] = c;  x[1] = s;  break;
        case 1: x[0] = -s; x[1] = c;  break;
        case 2: x[0] = -c; x[1] = -s; break;
        default: x[0] = s; x[1] = -c; break;
        }
    }
    mpfr_clears(pi, b, cv, sv, (mpfr_ptr)0);
    if (st != AR_OK) {
        pointset_clear(P);
        return st;
    }
    pointset_set_provenance(P, "polygon n=%zu d=2", n);
    return AR_OK;
}

/* Number of bits of v (v >= 1): an upper bound for log2(v). */
static mpfr_exp_t bitlen(uint64_t v)
{
    mpfr_exp_t e = 0;
    while (v) {
        e++;
        v >>= 1;
    }
    return e;
}

/* Fibonacci point i of n: z = (n-2i-1)/n, rho = sqrt((2i+1)(2n-2i-1))/n
 * (= sqrt(1 - z^2) without cancellation), phi = i pi (3 - sqrt 5);
 * x = rho cos phi, y = rho sin phi.  Every coordinate correctly rounded.
 * For i >= 1, cos phi and sin phi are transcendental (Gelfond-Schneider),
 * so x, y are never dyadic and the Ziv loop terminates; for i = 0, y = 0
 * and x = rho, handled exactly when (2n-1) is a perfect square. */
static ar_status fibonacci_point(uint64_t i, uint64_t n, double *out, mpfr_t *v)
{
    mpfr_t zq;
    mpfr_init2(zq, 53);
    mpfr_set_prec(v[0], 64);
    mpfr_set_si(v[0], (long)n - 2 * (long)i - 1, MPFR_RNDN);   /* exact */
    mpfr_div_ui(zq, v[0], (unsigned long)n, MPFR_RNDN);        /* correctly rounded */
    out[2] = mpfr_get_d(zq, MPFR_RNDN);
    mpfr_clear(zq);

    uint64_t K = (2 * i + 1) * (2 * n - 2 * i - 1);           /* < 4 n^2 < 2^64 */
    if (i == 0) {
        out[1] = 0.0;
        uint64_t s = (uint64_t)sqrtl((long double)K);
        while (s * s > K)
            s--;
        while ((s + 1) * (s + 1) <= K)
            s++;
        if (s * s == K) {                                      /* rho = s/n rational */
            mpfr_set_prec(v[0], 64);
            mpfr_set_prec(v[1], 53);
            mpfr_set_ui(v[0], (unsigned long)s, MPFR_RNDN);
            mpfr_div_ui(v[1], v[0], (unsigned long)n, MPFR_RNDN);
            out[0] = mpfr_get_d(v[1], MPFR_RNDN);
            return AR_OK;
        }
    }
    /* Error: phi has relative error < 7.3 * 2^-p and phi < 2.4 i, cos/sin add
     * half an ulp, rho has relative error < 2.01 * 2^-p, the product half an
     * ulp: |x~ - x| < (17.6 i + 5) 2^-p <= 2^(bitlen(32 i + 8) - p). */
    mpfr_exp_t eb = bitlen(32 * i + 8);
    int need_x = 1, need_y = (i != 0);
    for (mpfr_prec_t p = ZIV_PREC0; p <= ZIV_PREC_MAX; p *= 2) {
        for (int k = 0; k < 5; k++)
            mpfr_set_prec(v[k], p);
        mpfr_t *rho = &v[0], *phi = &v[1], *c = &v[2], *s = &v[3], *t = &v[4];
        mpfr_set_ui(*rho, (unsigned long)K, MPFR_RNDN);         /* exact */
        mpfr_sqrt(*rho, *rho, MPFR_RNDN);
        mpfr_div_ui(*rho, *rho, (unsigned long)n, MPFR_RNDN);
        mpfr_sqrt_ui(*t, 5, MPFR_RNDN);
        mpfr_ui_sub(*t, 3, *t, MPFR_RNDN);
        mpfr_const_pi(*phi, MPFR_RNDN);
        mpfr_mul(*phi, *phi, *t, MPFR_RNDN);
        mpfr_mul_ui(*phi, *phi, (unsigned long)i, MPFR_RNDN);
        mpfr_sin_cos(*s, *c, *phi, MPFR_RNDN);
        mpfr_mul(*c, *c, *rho, MPFR_RNDN);
        mpfr_mul(*s, *s, *rho, MPFR_RNDN);
        if (need_x && ziv_round(*c, mpfr_get_exp(*c) + p - eb, &out[0]))
            need_x = 0;
        if (need_y && ziv_round(*s, mpfr_get_exp(*s) + p - eb, &out[1]))
            need_y = 0;
        if (!need_x && !need_y)
            return AR_OK;
    }
    ar_error_set("sphere_fibonacci: could not round point %llu of %llu correctly",
                 (unsigned long long)i, (unsigned long long)n);
    return AR_ENUMERIC;
}

ar_status sphere_fibonacci(pointset_t *P, size_t n)
{
    if (n == 0 || n > ((size_t)1 << 30)) {
        ar_error_set("sphere_fibonacci: n must be in [1, 2^30] (n=%zu)", n);
        return AR_EINVAL;
    }
    ar_status st = pointset_init(P, n, 3);
    if (st != AR_OK)
        return st;
    mpfr_t v[5];
    for (int k = 0; k < 5; k++)
        mpfr_init2(v[k], ZIV_PREC0);
    for (size_t i = 0; i < n && st == AR_OK; i++)
        st = fibonacci_point(i, n, P->x + 3 * i, v);
    for (int k = 0; k < 5; k++)
        mpfr_clear(v[k]);
    if (st != AR_OK) {
        pointset_clear(P);
        return st;
    }
    pointset_set_provenance(P, "fibonacci n=%zu d=3", n);
    return AR_OK;
}

/* One uniform point of S^{d-1}: d normals g (redrawn if all zero), then
 * x_c = g_c / |g| with |g| and the quotients in 128-bit MPFR, each rounded
 * to nearest: every x_c is within 0.5 ulp + 2^-120 |x_c| of the exact unit
 * vector g/|g|. */
static void unit_gaussian(rng_t *r, size_t d, double *x, mpfr_t s, mpfr_t t)
{
    for (;;) {
        mpfr_set_zero(s, 1);
        for (size_t c = 0; c < d; c++) {
            x[c] = rng_normal(r);
            mpfr_set_d(t, x[c], MPFR_RNDN);
            mpfr_sqr(t, t, MPFR_RNDN);
            mpfr_add(s, s, t, MPFR_RNDN);
        }
        if (!mpfr_zero_p(s))
            break;
    }
    mpfr_sqrt(s, s, MPFR_RNDN);
    for (size_t c = 0; c < d; c++) {
        mpfr_set_d(t, x[c], MPFR_RNDN);
        mpfr_div(t, t, s, MPFR_RNDN);
        x[c] = mpfr_get_d(t, MPFR_RNDN);
    }
}

ar_status sphere_uniform(pointset_t *P, size_t n, size_t d, uint64_t seed)
{
    if (n == 0 || d == 0) {
        ar_error_set("sphere_uniform: n and d must be >= 1 (n=%zu, d=%zu)", n, d);
        return AR_EINVAL;
    }
    ar_status st = pointset_init(P, n, d);
    if (st != AR_OK)
        return st;
    rng_t r;
    rng_init(&r, seed);
    mpfr_t s, t;
    mpfr_inits2(UNIT_PREC, s, t, (mpfr_ptr)0);
    for (size_t i = 0; i < n; i++)
        unit_gaussian(&r, d, P->x + i * d, s, t);
    mpfr_clears(s, t, (mpfr_ptr)0);
    pointset_set_provenance(P, "uniform n=%zu d=%zu seed=%llu", n, d, (unsigned long long)seed);
    return AR_OK;
}

/* ---- greedy packing ---------------------------------------------------- */

/* Kept points with a spatial hash on cells of side h (h >= required chord,
 * so conflicting points lie in neighbouring cells). */
typedef struct {
    size_t d, count, cap, nb;
    double h;
    double *pts;      /* cap * d */
    int64_t *key;     /* cap * d cell coordinates */
    size_t *next;     /* cap: chain in bucket */
    size_t *bucket;   /* nb heads, SIZE_MAX = empty */
} pack_grid;

#define NONE SIZE_MAX

static uint64_t key_hash(const int64_t *k, size_t d)
{
    uint64_t h = UINT64_C(0x243f6a8885a308d3);
    for (size_t c = 0; c < d; c++) {
        h ^= (uint64_t)k[c] + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
        h *= UINT64_C(0xbf58476d1ce4e5b9);
    }
    return h ^ (h >> 31);
}

static void cell_of(const pack_grid *g, const double *x, int64_t *k)
{
    for (size_t c = 0; c < g->d; c++)
        k[c] = (int64_t)floor((x[c] + 1.0) / g->h);
}

static void *grow(void *p, size_t nmemb, size_t size)
{
    if (nmemb > SIZE_MAX / size || nmemb * size > ar_max_alloc())
        return NULL;
    return realloc(p, nmemb * size);
}

static ar_status grid_rehash(pack_grid *g, size_t nb)
{
    size_t *b = ar_calloc(nb, sizeof(size_t), "packing hash table");
    if (!b)
        return AR_ENOMEM;
    for (size_t i = 0; i < nb; i++)
        b[i] = NONE;
    for (size_t j = 0; j < g->count; j++) {
        size_t slot = (size_t)(key_hash(g->key + j * g->d, g->d) & (nb - 1));
        g->next[j] = b[slot];
        b[slot] = j;
    }
    free(g->bucket);
    g->bucket = b;
    g->nb = nb;
    return AR_OK;
}

static ar_status grid_insert(pack_grid *g, const double *x)
{
    size_t d = g->d;
    if (g->count == g->cap) {
        size_t nc = g->cap * 2;
        double *p = grow(g->pts, nc, d * sizeof(double));
        if (p)
            g->pts = p;
        int64_t *k = p ? grow(g->key, nc, d * sizeof(int64_t)) : NULL;
        if (k)
            g->key = k;
        size_t *nx = k ? grow(g->next, nc, sizeof(size_t)) : NULL;
        if (!nx) {
            ar_error_set("sphere_packing: cannot grow to %zu points (allocation limit)", nc);
            return AR_ENOMEM;
        }
        g->next = nx;
        g->cap = nc;
    }
    size_t j = g->count++;
    memcpy(g->pts + j * d, x, d * sizeof(double));
    cell_of(g, x, g->key + j * d);
    if (g->count > g->nb / 2)
        return grid_rehash(g, g->nb * 2);
    size_t slot = (size_t)(key_hash(g->key + j * d, d) & (g->nb - 1));
    g->next[j] = g->bucket[slot];
    g->bucket[slot] = j;
    return AR_OK;
}

static double dist2(const double *a, const double *b, size_t d)
{
    double s = 0.0;
    for (size_t c = 0; c < d; c++) {
        double t = a[c] - b[c];
        s += t * t;
    }
    return s;
}

/* 1 if some kept point has squared chord distance < req2 to x. */
static int grid_conflict(const pack_grid *g, const double *x, double req2, int use_grid)
{
    size_t d = g->d;
    if (!use_grid) {
        for (size_t j = 0; j < g->count; j++)
            if (dist2(x, g->pts + j * d, d) < req2)
                return 1;
        return 0;
    }
    /* Odometer over the offsets each coordinate needs, own cell first (most
     * conflicts are found there): a neighbour cell -1 (+1) in coordinate c
     * can hold a point within the chord only if x is closer than the chord
     * to that face of its cell (with a margin far above the rounding of
     * the cell coordinates), so with cells of side >= 2 chords at most one
     * side per coordinate is visited: 2^d cells instead of 3^d.  The same
     * points are found as with all 3^d neighbours, so the decision is
     * unchanged. */
    int64_t kc[16], kn[16];
    int off[16], opts[16][3], nopt[16];
    double reach = sqrt(req2) * (1.0 + 1e-9) + 1e-12;
    cell_of(g, x, kc);
    for (size_t c = 0; c < d; c++) {
        double u = (x[c] + 1.0) - (double)kc[c] * g->h;   /* position inside the cell, ~[0, h) */
        nopt[c] = 0;
        opts[c][nopt[c]++] = 0;
        if (u < reach)
            opts[c][nopt[c]++] = -1;
        if (g->h - u < reach)
            opts[c][nopt[c]++] = 1;
        off[c] = 0;
    }
    for (;;) {
        for (size_t c = 0; c < d; c++)
            kn[c] = kc[c] + opts[c][off[c]];
        size_t slot = (size_t)(key_hash(kn, d) & (g->nb - 1));
        for (size_t j = g->bucket[slot]; j != NONE; j = g->next[j])
            if (dist2(x, g->pts + j * d, d) < req2)
                return 1;
        size_t c = 0;
        while (c < d && off[c] == nopt[c] - 1)
            off[c++] = 0;
        if (c == d)
            return 0;
        off[c]++;
    }
}

/* d = 2: the regular n-gon with the largest n such that 2 pi/n >= theta +
 * 2^-50 (so that the rounded points still have pairwise angles >= theta;
 * n = 2 and 4 are exact and only need 2 pi/n >= theta), capped at
 * max_points.  Equals floor(2 pi/theta) unless 2 pi/theta lies within
 * ~1e-15 above an integer. */
static ar_status packing_circle(pointset_t *P, double theta, size_t max_points)
{
    mpfr_t a, b;
    mpfr_inits2(256, a, b, (mpfr_ptr)0);
    /* floor(2 pi/theta) rigorously: 2 pi/theta is irrational, so a lower and
     * an upper bound with the same floor exist; 256 bits suffice for any
     * double theta >= 2^-1000, else fall back to the cap. */
    mpfr_const_pi(a, MPFR_RNDD);
    mpfr_mul_2ui(a, a, 1, MPFR_RNDD);
    mpfr_div_d(a, a, theta, MPFR_RNDD);
    mpfr_const_pi(b, MPFR_RNDU);
    mpfr_mul_2ui(b, b, 1, MPFR_RNDU);
    mpfr_div_d(b, b, theta, MPFR_RNDU);
    mpfr_floor(a, a);
    mpfr_floor(b, b);
    size_t n;
    if (mpfr_cmp_ui(a, (unsigned long)max_points) >= 0)
        n = max_points;
    else if (mpfr_equal_p(a, b))
        n = (size_t)mpfr_get_ui(a, MPFR_RNDN);
    else {
        mpfr_clears(a, b, (mpfr_ptr)0);
        ar_error_set("sphere_packing: cannot determine floor(2 pi/theta) for theta=%.17g", theta);
        return AR_ENUMERIC;
    }
    /* Lower the count until 2 pi/n - theta >= 2^-50 (rounded down). */
    while (n > 1 && n != 2 && n != 4) {
        mpfr_const_pi(a, MPFR_RNDD);
        mpfr_mul_2ui(a, a, 1, MPFR_RNDD);
        mpfr_div_ui(a, a, (unsigned long)n, MPFR_RNDD);
        mpfr_sub_d(a, a, theta, MPFR_RNDD);
        if (mpfr_cmp_d(a, 0x1p-50) >= 0)
            break;
        n--;
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
    ar_status st = sphere_polygon(P, n);
    if (st != AR_OK)
        return st;
    pointset_set_provenance(P, "packing d=2 theta=%.17g n=%zu (regular polygon)", theta, n);
    return AR_OK;
}

/* Candidates: unit_gaussian points from rng_init(seed).  A candidate x is
 * kept iff |x - y|^2 >= req^2 in double for every kept y, with
 * req = 2 sin(theta/2) (1 + 1e-12) + 2^-48.  The relative margin covers the
 * rounding of the distance computation and of libm sin; the absolute one
 * covers the deviation (< 4e-16) of the stored points from unit length.
 * Hence the exact angles between stored points are >= theta. */
ar_status sphere_packing(pointset_t *P, size_t d, double theta, size_t max_points,
                         uint64_t seed, size_t patience)
{
    if (d < 2 || d > 16 || !(theta > 0.0 && theta <= M_PI) || max_points == 0) {
        ar_error_set("sphere_packing: need 2 <= d <= 16, 0 < theta <= pi, max_points >= 1 "
                     "(d=%zu, theta=%g, max_points=%zu)", d, theta, max_points);
        return AR_EINVAL;
    }
    if (d == 2)
        return packing_circle(P, theta, max_points);
    if (patience == 0)
        patience = 2000;
    double req = 2.0 * sin(0.5 * theta) * (1.0 + 1e-12) + 0x1p-48;
    double req2 = req * req;
    pack_grid g;
    memset(&g, 0, sizeof g);
    g.d = d;
    g.h = fmax(2.0 * req * (1.0 + 1e-9), 0x1p-19);   /* >= 2 chords: grid_conflict visits <= 2^d cells */
    g.cap = max_points < 1024 ? max_points : 1024;
    g.pts = ar_calloc(g.cap, d * sizeof(double), "packing points");
    g.key = ar_calloc(g.cap, d * sizeof(int64_t), "packing cells");
    g.next = ar_calloc(g.cap, sizeof(size_t), "packing chains");
    ar_status st = AR_ENOMEM;
    if (g.pts && g.key && g.next)
        st = grid_rehash(&g, 64);
    size_t grid_min = 1;                  /* grid pays off above 3^d points */
    for (size_t c = 0; c < d && grid_min < SIZE_MAX / 3; c++)
        grid_min *= 3;
    if (d > 8)
        grid_min = SIZE_MAX;
    rng_t r;
    rng_init(&r, seed);
    mpfr_t s, t;
    mpfr_inits2(UNIT_PREC, s, t, (mpfr_ptr)0);
    double x[16];
    size_t fails = 0;
    while (st == AR_OK && g.count < max_points && fails < patience) {
        unit_gaussian(&r, d, x, s, t);
        if (grid_conflict(&g, x, req2, g.count > grid_min)) {
            fails++;
            continue;
        }
        fails = 0;
        st = grid_insert(&g, x);
    }
    mpfr_clears(s, t, (mpfr_ptr)0);
    if (st == AR_OK)
        st = pointset_init(P, g.count, d);
    if (st == AR_OK) {
        memcpy(P->x, g.pts, g.count * d * sizeof(double));
        pointset_set_provenance(P, "packing d=%zu theta=%.17g seed=%llu patience=%zu n=%zu",
                                d, theta, (unsigned long long)seed, patience, g.count);
    }
    free(g.pts);
    free(g.key);
    free(g.next);
    free(g.bucket);
    return st;
}

/* The pooled greedy keeps a candidate iff no point kept before it lies
 * within the chord.  It runs in batches of POOL_BATCH candidates: first every
 * candidate of the batch is tested against the points kept before the batch
 * (read only, in blocks of POOL_BLOCK on any number of threads); a candidate
 * that conflicts there conflicts in the serial order too and is dropped; the
 * others are then tested in order against the grid as it grows, exactly as
 * one at a time.  The kept points, and their order, are therefore those of
 * the serial greedy for any thread count (and any batch size). */
#define POOL_BATCH 16384
#define POOL_BLOCK 1024

typedef struct {
    const pack_grid *g;
    const double *x;           /* the candidates' coordinates */
    const size_t *order;       /* the batch's candidates, in order */
    size_t n;                  /* the batch's size */
    double req2;
    int use_grid;
    unsigned char *flag;       /* out: flag[k] = 1 if candidate k conflicts with the kept points */
} pool_check_t;

static void pool_check_block(void *ctx, size_t b)
{
    pool_check_t *pc = ctx;
    size_t d = pc->g->d, k1 = (b + 1) * POOL_BLOCK < pc->n ? (b + 1) * POOL_BLOCK : pc->n;
    for (size_t k = b * POOL_BLOCK; k < k1; k++)
        pc->flag[k] = (unsigned char)grid_conflict(pc->g, pc->x + pc->order[k] * d, pc->req2, pc->use_grid);
}

ar_status sphere_packing_pool(pointset_t *P, size_t d, double theta, size_t max_points, uint64_t seed,
                              size_t max_pool)
{
    if (d < 3 || d > 16 || !(theta >= 2 * SPHERE_ZONAL_THETA_MIN && theta <= M_PI) || max_points == 0 ||
        max_pool == 0) {
        ar_error_set("sphere_packing_pool: need 3 <= d <= 16, %g <= theta <= pi, max_points >= 1, max_pool >= 1 "
                     "(d=%zu, theta=%g, max_points=%zu)", 2 * SPHERE_ZONAL_THETA_MIN, d, theta, max_points);
        return AR_EINVAL;
    }
    size_t npool;
    ar_status st = sphere_zonal_count(d, 0.5 * theta, SIZE_MAX, &npool);
    if (st)
        return st;
    if (npool > max_pool) {
        ar_error_set("sphere_packing_pool: the candidate pool (the zonal code at theta/2) has %zu points, above "
                     "the limit %zu", npool, max_pool);
        return AR_EINVAL;
    }
    pointset_t C;
    if ((st = sphere_zonal(&C, d, 0.5 * theta, SIZE_MAX)))
        return st;
    size_t *order = ar_calloc(C.n, sizeof *order, "packing candidate order");
    if (!order) {
        pointset_clear(&C);
        return AR_ENOMEM;
    }
    rng_t r;
    rng_init(&r, seed);
    for (size_t i = 0; i < C.n; i++)
        order[i] = i;
    for (size_t i = C.n; i > 1; i--) {     /* Fisher-Yates: a seeded random order of the candidates */
        size_t j = (size_t)(rng_u64(&r) % i);
        size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    double req = 2.0 * sin(0.5 * theta) * (1.0 + 1e-12) + 0x1p-48;
    double req2 = req * req;
    pack_grid g;
    memset(&g, 0, sizeof g);
    g.d = d;
    g.h = fmax(2.0 * req * (1.0 + 1e-9), 0x1p-19);   /* >= 2 chords: grid_conflict visits <= 2^d cells */
    g.cap = max_points < 1024 ? max_points : 1024;
    g.pts = ar_calloc(g.cap, d * sizeof(double), "packing points");
    g.key = ar_calloc(g.cap, d * sizeof(int64_t), "packing cells");
    g.next = ar_calloc(g.cap, sizeof(size_t), "packing chains");
    st = AR_ENOMEM;
    if (g.pts && g.key && g.next)
        st = grid_rehash(&g, 64);
    size_t grid_min = 1;
    for (size_t c = 0; c < d && grid_min < SIZE_MAX / 3; c++)
        grid_min *= 3;
    if (d > 8)
        grid_min = SIZE_MAX;
    unsigned char *flag = ar_calloc(POOL_BATCH, 1, "packing candidate flags");
    if (!flag)
        st = AR_ENOMEM;
    for (size_t i0 = 0; st == AR_OK && i0 < C.n && g.count < max_points; i0 += POOL_BATCH) {
        size_t nb = C.n - i0 < POOL_BATCH ? C.n - i0 : POOL_BATCH;
        pool_check_t pc = { &g, C.x, order + i0, nb, req2, g.count > grid_min, flag };
        par_for((nb + POOL_BLOCK - 1) / POOL_BLOCK, pool_check_block, &pc, NULL);
        for (size_t k = 0; k < nb && st == AR_OK && g.count < max_points; k++) {
            const double *x = C.x + order[i0 + k] * d;
            if (!flag[k] && !grid_conflict(&g, x, req2, g.count > grid_min))
                st = grid_insert(&g, x);
        }
    }
    free(flag);
    free(order);
    pointset_clear(&C);
    if (st == AR_OK)
        st = pointset_init(P, g.count, d);
    if (st == AR_OK) {
        memcpy(P->x, g.pts, g.count * d * sizeof(double));
        pointset_set_provenance(P, "packing-pool d=%zu theta=%.17g seed=%llu pool=%zu n=%zu", d, theta,
                                (unsigned long long)seed, npool, g.count);
    }
    free(g.pts);
    free(g.key);
    free(g.next);
    free(g.bucket);
    return st;
}

double sphere_packing_theta(double beta)
{
    double t = 3.0 / sqrt(1.0 + beta);
    return t < M_PI ? t : M_PI;
}
