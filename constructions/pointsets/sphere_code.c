/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sphere_code.c -- the recursive zonal code (see sphere_code.h).
 *
 * Exact points: level l (0 <= l <= d-3) picks a latitude phi = pi j / M of
 * the current sub-sphere S^{d-1-l} of radius rho (x_l = rho cos phi, the
 * remaining coordinates a point of S^{d-2-l} of radius rho sin phi); the
 * last level is a circle of radius rho with n points at angles
 * 2 pi (j + f) / n.  Every count is certified in Arb against the required
 * chord cr = 2 sin(theta/2)(1 + 2^-26): rho * 2 sin(pi/(2M)) >= cr for the
 * latitudes, rho * 2 sin(pi/n) >= cr for a circle (n = 1, or a single point
 * when even M = 1 fails, needs nothing).  Stored coordinates are the
 * nearest doubles of Arb balls of radius <= 2^-60 around the exact values. */
#include "constructions/pointsets/sphere_code.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "base/parallel.h"

#define ZPREC 96
#define ZMAXD 16
#define GOLDEN 0.6180339887498949   /* phases frac(k * GOLDEN): any doubles in [0, 1) would do */
#define RESTART 64                  /* recompute cos/sin directly every RESTART circle points */

typedef struct {
    size_t d, max, count;
    double *x;                 /* NULL: count only */
    arb_t cr;                  /* required chord 2 sin(theta/2) (1 + 2^-26) */
    arb_struct pre[ZMAXD];     /* coordinate balls of the current point */
    double xd[ZMAXD];          /* their nearest doubles */
    arb_t t1, t2, cs, sn, cb, sb, u;
    uint64_t circles;
    ar_status st;
} zgen_t;

/* 1 if rho * 2 sin(pi / q) >= cr is proven (q >= 2). */
static int spacing_ok(zgen_t *Z, const arb_t rho, uint64_t q)
{
    arb_set_ui(Z->t1, 1);
    arb_div_ui(Z->t1, Z->t1, (ulong)q, ZPREC);
    arb_sin_pi(Z->t1, Z->t1, ZPREC);
    arb_mul(Z->t1, Z->t1, rho, ZPREC);
    arb_mul_2exp_si(Z->t1, Z->t1, 1);
    return arb_ge(Z->t1, Z->cr);
}

/* Largest q >= 2 with spacing_ok(rho, mult * q'), q' = q, starting from the
 * double estimate; 0 if q = 2 fails.  mult = 1: circle count n; mult = 2:
 * latitude count M. */
static uint64_t largest_count(zgen_t *Z, const arb_t rho, uint64_t mult)
{
    uint64_t qmin = mult == 1 ? 2 : 1;            /* n >= 2 points, or M >= 1 */
    if (!spacing_ok(Z, rho, mult * qmin))
        return 0;
    /* estimate: the angle of chord cr / rho is 2 asin(cr / (2 rho)) */
    double r = arf_get_d(arb_midref(Z->cr), ARF_RND_NEAR) /
               (2.0 * arf_get_d(arb_midref(rho), ARF_RND_NEAR));
    double est = r < 1.0 ? (mult == 1 ? 2.0 * M_PI : M_PI) / (2.0 * asin(r)) : 0.0;
    uint64_t q = est > 4e9 ? (uint64_t)4e9 : est < (double)qmin ? qmin : (uint64_t)est;
    for (int it = 0; q > qmin && !spacing_ok(Z, rho, mult * q) && it < 64; it++)
        q--;
    while (q > qmin && !spacing_ok(Z, rho, mult * q))
        q = q / 2 > qmin ? q / 2 : qmin;          /* a wrong estimate: halve */
    for (int it = 0; it < 64 && q < (uint64_t)4e9 && spacing_ok(Z, rho, mult * (q + 1)); it++)
        q++;
    return q;
}

/* Coordinate c := ball v (its nearest double, radius checked). */
static void set_coord(zgen_t *Z, size_t c, const arb_t v)
{
    arb_set(Z->pre + c, v);
    Z->xd[c] = arf_get_d(arb_midref(v), ARF_RND_NEAR);
    if (Z->st == AR_OK && mag_cmp_2exp_si(arb_radref(v), -60) > 0) {
        ar_error_set("sphere_zonal: coordinate ball too wide (internal precision)");
        Z->st = AR_ENUMERIC;
    }
}

static void zero_from(zgen_t *Z, size_t c)
{
    for (; c < Z->d; c++) {
        arb_zero(Z->pre + c);
        Z->xd[c] = 0.0;
    }
}

static void emit(zgen_t *Z)
{
    if (Z->count >= Z->max || Z->st != AR_OK)
        return;
    if (Z->x)
        memcpy(Z->x + Z->count * Z->d, Z->xd, Z->d * sizeof(double));
    Z->count++;
}

/* The circle of radius rho in coordinates d-2, d-1. */
static void gen_circle(zgen_t *Z, const arb_t rho)
{
    size_t d = Z->d;
    uint64_t n = largest_count(Z, rho, 1);
    if (n == 0)
        n = 1;
    double f = fmod((double)Z->circles * GOLDEN, 1.0);
    Z->circles++;
    if (!Z->x) {
        size_t room = Z->max - Z->count;
        Z->count += n < room ? (size_t)n : room;
        return;
    }
    for (uint64_t j = 0; j < n && Z->count < Z->max && Z->st == AR_OK; j++) {
        if (j % RESTART == 0) {
            /* angle 2 pi (j + f) / n: (cs, sn); step 2 pi / n: (cb, sb) */
            arb_set_d(Z->u, f);
            arb_add_ui(Z->u, Z->u, (ulong)j, ZPREC);
            arb_mul_2exp_si(Z->u, Z->u, 1);
            arb_div_ui(Z->u, Z->u, (ulong)n, ZPREC);
            arb_sin_cos_pi(Z->sn, Z->cs, Z->u, ZPREC);
            if (j == 0) {
                arb_set_ui(Z->u, 2);
                arb_div_ui(Z->u, Z->u, (ulong)n, ZPREC);
                arb_sin_cos_pi(Z->sb, Z->cb, Z->u, ZPREC);
            }
        } else {
            /* rotate by the step: (c, s) <- (c cb - s sb, s cb + c sb) */
            arb_mul(Z->t1, Z->cs, Z->cb, ZPREC);
            arb_submul(Z->t1, Z->sn, Z->sb, ZPREC);
            arb_mul(Z->t2, Z->sn, Z->cb, ZPREC);
            arb_addmul(Z->t2, Z->cs, Z->sb, ZPREC);
            arb_swap(Z->cs, Z->t1);
            arb_swap(Z->sn, Z->t2);
        }
        arb_mul(Z->t1, rho, Z->cs, ZPREC);
        set_coord(Z, d - 2, Z->t1);
        arb_mul(Z->t1, rho, Z->sn, ZPREC);
        set_coord(Z, d - 1, Z->t1);
        emit(Z);
    }
}

/* The sub-sphere S^{d-1-l} of radius rho in coordinates l..d-1. */
static void gen_level(zgen_t *Z, size_t l, const arb_t rho)
{
    if (Z->st != AR_OK || Z->count >= Z->max)
        return;
    size_t d = Z->d;
    if (d - 1 - l == 1) {
        gen_circle(Z, rho);
        return;
    }
    uint64_t M = largest_count(Z, rho, 2);
    if (M == 0) {                    /* one point: (rho, 0, ..., 0) */
        if (Z->x) {
            set_coord(Z, l, rho);
            zero_from(Z, l + 1);
        }
        emit(Z);
        return;
    }
    arb_t c, s, r2;
    arb_init(c);
    arb_init(s);
    arb_init(r2);
    /* latitudes pi (j + 1/2) / M, j = 0..M-1: spacing pi / M, no pole */
    for (uint64_t j = 0; j < M && Z->st == AR_OK && Z->count < Z->max; j++) {
        arb_set_ui(c, (ulong)(2 * j + 1));
        arb_div_ui(c, c, (ulong)(2 * M), ZPREC);
        arb_sin_cos_pi(s, c, c, ZPREC);
        if (Z->x) {
            arb_mul(c, c, rho, ZPREC);
            set_coord(Z, l, c);
        }
        arb_mul(r2, s, rho, ZPREC);
        gen_level(Z, l + 1, r2);
    }
    arb_clear(c);
    arb_clear(s);
    arb_clear(r2);
}

static int args_ok(size_t d, double theta, size_t max_points)
{
    if (d < 2 || d > ZMAXD || !(theta >= SPHERE_ZONAL_THETA_MIN && theta <= M_PI) || max_points == 0) {
        ar_error_set("sphere_zonal: need 2 <= d <= %d, %g <= theta <= pi, max_points >= 1 "
                     "(d=%zu, theta=%g, max_points=%zu)", ZMAXD, SPHERE_ZONAL_THETA_MIN, d, theta,
                     max_points);
        return 0;
    }
    return 1;
}

static void zgen_init(zgen_t *Z, size_t d, double theta, size_t max_points, double *x)
{
    memset(Z, 0, sizeof *Z);
    Z->d = d;
    Z->max = max_points;
    Z->x = x;
    arb_init(Z->cr);
    arb_init(Z->t1);
    arb_init(Z->t2);
    arb_init(Z->cs);
    arb_init(Z->sn);
    arb_init(Z->cb);
    arb_init(Z->sb);
    arb_init(Z->u);
    for (size_t c = 0; c < ZMAXD; c++)
        arb_init(Z->pre + c);
    /* cr = 2 sin(theta / 2) (1 + 2^-26) */
    arb_set_d(Z->u, theta);
    arb_mul_2exp_si(Z->u, Z->u, -1);
    arb_sin(Z->cr, Z->u, ZPREC);
    arb_mul_2exp_si(Z->cr, Z->cr, 1);
    arb_mul_2exp_si(Z->t1, Z->cr, -26);
    arb_add(Z->cr, Z->cr, Z->t1, ZPREC);
}

static void zgen_clear(zgen_t *Z)
{
    arb_clear(Z->cr);
    arb_clear(Z->t1);
    arb_clear(Z->t2);
    arb_clear(Z->cs);
    arb_clear(Z->sn);
    arb_clear(Z->cb);
    arb_clear(Z->sb);
    arb_clear(Z->u);
    for (size_t c = 0; c < ZMAXD; c++)
        arb_clear(Z->pre + c);
}

/* One pass (count only when x == NULL). */
static ar_status zgen_run(size_t d, double theta, size_t max_points, double *x, size_t *count)
{
    zgen_t Z;
    zgen_init(&Z, d, theta, max_points, x);
    arb_t one;
    arb_init(one);
    arb_one(one);
    if (d == 2)
        gen_circle(&Z, one);
    else
        gen_level(&Z, 0, one);
    arb_clear(one);
    *count = Z.count;
    ar_status st = Z.st;
    zgen_clear(&Z);
    return st;
}

/* The points of the top level's latitudes (d >= 3) written side by side: a
 * serial count pass records, for each top latitude j, how many points and
 * circles come before it; then each latitude is generated on its own (any
 * thread) from that offset and circle index, into its own rows of x.  Every
 * point is computed by the same operations as in the serial pass, so x is the
 * same bit for bit for any thread count. */
typedef struct {
    size_t d, max;
    double theta;
    uint64_t M;                /* top latitudes */
    size_t *first;             /* M + 1: points before latitude j */
    uint64_t *circles;         /* M: circles before latitude j */
    double *x;
    ar_status *st;             /* M: each latitude's status */
} ztop_t;

/* Latitude j of the top level: gen_level's loop body at l = 0 with rho = one
 * (the same operations, so the same balls). */
static void gen_top_latitude(zgen_t *Z, uint64_t j, uint64_t M, const arb_t one)
{
    arb_t c, s, r2;
    arb_init(c);
    arb_init(s);
    arb_init(r2);
    arb_set_ui(c, (ulong)(2 * j + 1));
    arb_div_ui(c, c, (ulong)(2 * M), ZPREC);
    arb_sin_cos_pi(s, c, c, ZPREC);
    if (Z->x) {
        arb_mul(c, c, one, ZPREC);
        set_coord(Z, 0, c);
    }
    arb_mul(r2, s, one, ZPREC);
    gen_level(Z, 1, r2);
    arb_clear(c);
    arb_clear(s);
    arb_clear(r2);
}

static void ztop_block(void *ctx, size_t j)
{
    ztop_t *T = ctx;
    if (T->first[j] >= T->first[j + 1])
        return;
    zgen_t Z;
    zgen_init(&Z, T->d, T->theta, T->first[j + 1], T->x);
    Z.count = T->first[j];
    Z.circles = T->circles[j];
    arb_t one;
    arb_init(one);
    arb_one(one);
    gen_top_latitude(&Z, j, T->M, one);
    arb_clear(one);
    T->st[j] = Z.st;
    zgen_clear(&Z);
}

static void ztop_clear(ztop_t *T)
{
    free(T->first);
    free(T->circles);
    free(T->st);
    memset(T, 0, sizeof *T);
}

/* The count of one wave of top latitudes j0 .. j0 + nw - 1, each on its own
 * (any thread): its points, at most max, and its circles.  A latitude's count
 * is an exact integer that does not depend on the others, so the prefix sums
 * zgen_plan takes are those of the serial pass for any thread count. */
typedef struct {
    size_t d, max;
    double theta;
    uint64_t M, j0;
    size_t *cnt;               /* wave: points of latitude j0 + i (at most max, the wave's cap) */
    uint64_t *circ;            /* wave: its circles */
    ar_status *st;             /* wave: its status */
} zcount_t;

static void zcount_block(void *ctx, size_t i)
{
    zcount_t *C = ctx;
    zgen_t Z;
    zgen_init(&Z, C->d, C->theta, C->max, NULL);
    arb_t one;
    arb_init(one);
    arb_one(one);
    gen_top_latitude(&Z, C->j0 + i, C->M, one);
    arb_clear(one);
    C->cnt[i] = Z.count;
    C->circ[i] = Z.circles;
    C->st[i] = Z.st;
    zgen_clear(&Z);
}

/* The offsets of the serial count pass from per-latitude counts: latitudes are
 * counted in waves of par_threads(), each capped on its own at what the
 * running total leaves below max (the serial pass stops at max: a latitude
 * that starts below max is counted by both in full up to the cap, and every
 * latitude before it is complete), until the running total reaches max.
 * first[j] = min(points before j, max), circles[j] = the circles before j
 * (exact whenever first[j] < max, the only latitudes zgen_fill generates).  A wave costs at most par_threads() times the serial
 * pass's work on those latitudes and runs them side by side. */
static ar_status zgen_count_top(ztop_t *T, size_t max, size_t *n)
{
    size_t wave = (size_t)par_threads();
    uint64_t M = T->M;
    if (wave > M)
        wave = (size_t)M;
    zcount_t C = {.d = T->d, .max = max, .theta = T->theta, .M = M};
    C.cnt = ar_calloc(wave, sizeof *C.cnt, "zonal counts");
    C.circ = C.cnt ? ar_calloc(wave, sizeof *C.circ, "zonal circle counts") : NULL;
    C.st = C.circ ? ar_calloc(wave, sizeof *C.st, "zonal count statuses") : NULL;
    ar_status st = C.st ? AR_OK : AR_ENOMEM;
    size_t total = 0;
    uint64_t circles = 0, j = 0;
    for (size_t nw = 0; st == AR_OK && j < M && total < max; j += nw) {
        C.j0 = j;
        C.max = max - total;            /* no latitude of the wave adds more than that */
        nw = M - j > wave ? wave : (size_t)(M - j);
        par_for(nw, zcount_block, &C, flint_cleanup);
        for (size_t i = 0; i < nw && st == AR_OK; i++) {
            T->first[j + i] = total;
            T->circles[j + i] = circles;
            total = C.cnt[i] >= max - total ? max : total + C.cnt[i];
            circles += C.circ[i];
            st = C.st[i];
        }
    }
    for (; j < M; j++) {                /* after the cap: nothing to generate */
        T->first[j] = total;
        T->circles[j] = circles;
    }
    T->first[M] = total;
    *n = total;
    free(C.cnt);
    free(C.circ);
    free(C.st);
    return st;
}

/* The count pass of sphere_zonal for d >= 3 (at most max_points): *n, and in
 * T the top latitudes' offsets (T->M = 0 when the top level is one point). */
static ar_status zgen_plan(size_t d, double theta, size_t max_points, ztop_t *T, size_t *n)
{
    memset(T, 0, sizeof *T);
    T->d = d;
    T->theta = theta;
    zgen_t Z;
    zgen_init(&Z, d, theta, max_points, NULL);
    arb_t one;
    arb_init(one);
    arb_one(one);
    uint64_t M = largest_count(&Z, one, 2);
    ar_status st = AR_OK;
    if (M == 0) {
        gen_level(&Z, 0, one);      /* one point: (1, 0, ..., 0) */
    } else {
        T->M = M;
        T->first = ar_calloc((size_t)M + 1, sizeof(size_t), "zonal offsets");
        T->circles = ar_calloc((size_t)M, sizeof(uint64_t), "zonal circle offsets");
        T->st = ar_calloc((size_t)M, sizeof(ar_status), "zonal statuses");
        if (!T->first || !T->circles || !T->st)
            st = AR_ENOMEM;
        else
            st = zgen_count_top(T, max_points, &Z.count);
    }
    *n = Z.count;
    if (st == AR_OK)
        st = Z.st;
    arb_clear(one);
    zgen_clear(&Z);
    if (st != AR_OK)
        ztop_clear(T);
    return st;
}

/* The generation pass for d >= 3 after zgen_plan counted n points: x (n rows). */
static ar_status zgen_fill(ztop_t *T, size_t d, double theta, size_t n, double *x, size_t *got)
{
    if (T->M == 0)
        return zgen_run(d, theta, n, x, got);
    T->x = x;
    T->max = n;
    par_for((size_t)T->M, ztop_block, T, flint_cleanup);
    ar_status st = AR_OK;
    for (uint64_t j = 0; j < T->M && st == AR_OK; j++)
        st = T->st[j];
    *got = T->first[T->M];
    return st;
}

ar_status sphere_zonal_count(size_t d, double theta, size_t max_points, size_t *count)
{
    *count = 0;
    if (!args_ok(d, theta, max_points))
        return AR_EINVAL;
    if (d == 2)
        return zgen_run(d, theta, max_points, NULL, count);
    ztop_t T;
    ar_status st = zgen_plan(d, theta, max_points, &T, count);    /* the top latitudes side by side */
    ztop_clear(&T);
    if (st != AR_OK)
        *count = 0;
    return st;
}

ar_status sphere_zonal(pointset_t *P, size_t d, double theta, size_t max_points)
{
    memset(P, 0, sizeof *P);
    if (!args_ok(d, theta, max_points))
        return AR_EINVAL;
    /* count at most one point more than the allocation limit holds (the count
     * pass is then bounded by memory too) */
    size_t room = ar_max_alloc() / (d * sizeof(double));
    size_t cap = max_points <= room ? max_points : room + 1, n = 0;
    ztop_t T;
    memset(&T, 0, sizeof T);
    ar_status st = d >= 3 ? zgen_plan(d, theta, cap, &T, &n) : zgen_run(d, theta, cap, NULL, &n);
    if (st != AR_OK)
        return st;
    if (n > room) {
        ztop_clear(&T);
        ar_error_set("sphere_zonal: more than %zu points in d = %zu (theta = %g) exceed the allocation "
                     "limit (ATTNRANK_MAX_ALLOC_GB); lower the number of points or raise theta", room, d,
                     theta);
        return AR_ENOMEM;
    }
    if ((st = pointset_init(P, n, d)) != AR_OK) {
        ztop_clear(&T);
        return st;
    }
    size_t got = 0;
    st = d >= 3 ? zgen_fill(&T, d, theta, n, P->x, &got) : zgen_run(d, theta, n, P->x, &got);
    ztop_clear(&T);
    if (st == AR_OK && got != n) {
        ar_error_set("sphere_zonal: internal error (%zu points counted, %zu generated)", n, got);
        st = AR_ENUMERIC;
    }
    if (st != AR_OK) {
        pointset_clear(P);
        return st;
    }
    pointset_set_provenance(P, "zonal code d=%zu theta=%.17g n=%zu", d, theta, n);
    return AR_OK;
}
