/* SPDX-License-Identifier: GPL-3.0-or-later */
/* head.c -- attention-head instances of a given visible dimension r. */
#include "constructions/pointsets/head.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <mpfr.h>
#include <flint/fmpz.h>
#include "numerics/rng.h"

#define HEAD_MAX_POINTS 1000000

/* Enumerate h Z^r in [-K, K]^r and keep the points with |x| <= 1 (checked
 * on the stored doubles; the sum of squares is an upper-rounded estimate,
 * so a point is kept iff its computed norm^2 <= 1). */
ar_status head_ball_lattice(pointset_t *P, size_t r, double h)
{
    memset(P, 0, sizeof *P);
    if (r == 0 || r > 16 || !(h > 0) || !(h <= 1) || !isfinite(h)) {
        ar_error_set("head lattice: need 1 <= r <= 16 and 0 < h <= 1 (got r = %zu, h = %g)", r, h);
        return AR_EINVAL;
    }
    double Kd = floor(1.0 / h), side = 2.0 * Kd + 1.0;
    if (!(pow(side, (double)r) <= 64.0 * HEAD_MAX_POINTS)) {    /* also keeps K in range of a long */
        ar_error_set("head lattice: spacing %g too fine for r = %zu", h, r);
        return AR_EINVAL;
    }
    long K = (long)Kd;
    long *idx = calloc(r, sizeof *idx);
    double *buf = NULL;
    size_t cnt = 0, cap = 0;
    if (!idx)
        return AR_ENOMEM;
    for (size_t c = 0; c < r; c++)
        idx[c] = -K;
    for (;;) {
        double s = 0.0;
        for (size_t c = 0; c < r; c++) {
            double x = h * (double)idx[c];
            s += x * x;
        }
        if (s <= 1.0) {
            if (cnt == HEAD_MAX_POINTS) {
                free(idx); free(buf);
                ar_error_set("head lattice: more than %d points", HEAD_MAX_POINTS);
                return AR_EINVAL;
            }
            if (cnt == cap) {
                cap = cap ? 2 * cap : 256;
                double *nb = realloc(buf, cap * r * sizeof *nb);
                if (!nb) {
                    free(idx); free(buf);
                    ar_error_set("head lattice: out of memory");
                    return AR_ENOMEM;
                }
                buf = nb;
            }
            for (size_t c = 0; c < r; c++)
                buf[cnt * r + c] = h * (double)idx[c];
            cnt++;
        }
        size_t c = r;
        while (c > 0 && idx[c - 1] == K) {
            idx[c - 1] = -K;
            c--;
        }
        if (c == 0)
            break;
        idx[c - 1]++;
    }
    free(idx);
    ar_status st = pointset_init(P, cnt, r);
    if (!st) {
        memcpy(P->x, buf, cnt * r * sizeof *buf);
        pointset_set_provenance(P, "lattice h=%.6g in the unit %zu-ball (%zu points)", h, r, cnt);
    }
    free(buf);
    return st;
}

ar_status head_gaussian_weights(pointset_t *P, double beta)
{
    if (!P || !P->x || !isfinite(beta) || beta < 0) {
        ar_error_set("head weights: need a point set and finite beta >= 0");
        return AR_EINVAL;
    }
    ar_status st;
    if (!P->w && (st = pointset_alloc_weights(P)))
        return st;
    mpfr_t s, t;
    mpz_t z;
    mpfr_init2(s, 128);
    mpfr_init2(t, 128);
    mpz_init(z);
    for (size_t j = 0; j < P->n; j++) {
        mpfr_set_ui(s, 0, MPFR_RNDN);
        for (size_t c = 0; c < P->d; c++) {
            mpfr_set_d(t, P->x[j * P->d + c], MPFR_RNDN);
            mpfr_sqr(t, t, MPFR_RNDN);
            mpfr_add(s, s, t, MPFR_RNDN);
        }
        mpfr_ui_sub(s, 1, s, MPFR_RNDN);            /* 1 - |y|^2 */
        mpfr_mul_d(s, s, beta, MPFR_RNDN);
        mpfr_div_2ui(s, s, 1, MPFR_RNDN);
        mpfr_exp(s, s, MPFR_RNDN);
        mpfr_mul_2ui(s, s, 40, MPFR_RNDN);
        mpfr_get_z(z, s, MPFR_RNDN);
        if (mpz_cmp_ui(z, 1) < 0)
            mpz_set_ui(z, 1);
        fmpz_set_mpz(P->w + j, z);
    }
    mpz_clear(z);
    mpfr_clear(s);
    mpfr_clear(t);
    return AR_OK;
}

ar_status head_construction(pointset_t *Q, pointset_t *K, size_t r, double beta, double h)
{
    memset(Q, 0, sizeof *Q);
    memset(K, 0, sizeof *K);
    ar_status st;
    if ((st = head_ball_lattice(Q, r, h)) || (st = head_ball_lattice(K, r, h)) ||
        (st = head_gaussian_weights(K, beta))) {
        pointset_clear(Q);
        pointset_clear(K);
        return st;
    }
    pointset_set_provenance(Q, "head construction r=%zu queries: lattice h=%.6g in the unit ball (%zu)", r, h, Q->n);
    pointset_set_provenance(K, "head construction r=%zu keys: lattice h=%.6g, Gaussian weights beta=%.6g (%zu)",
                            r, h, beta, K->n);
    return AR_OK;
}

/* uniform point in the unit r-ball: normal direction, radius U^{1/r} */
static void ball_point(rng_t *g, size_t r, double *x)
{
    double s = 0.0;
    do {
        s = 0.0;
        for (size_t c = 0; c < r; c++) {
            x[c] = rng_normal(g);
            s += x[c] * x[c];
        }
    } while (s == 0.0);
    double rad = pow(rng_uniform(g), 1.0 / (double)r) / sqrt(s);
    for (size_t c = 0; c < r; c++)
        x[c] *= rad;
}

ar_status head_random_ball(pointset_t *Q, pointset_t *K, size_t r, size_t m, size_t n, uint64_t seed)
{
    memset(Q, 0, sizeof *Q);
    memset(K, 0, sizeof *K);
    if (r == 0 || m == 0 || n == 0) {
        ar_error_set("random head: need r, m, n >= 1");
        return AR_EINVAL;
    }
    ar_status st;
    if ((st = pointset_init(Q, m, r)) || (st = pointset_init(K, n, r))) {
        pointset_clear(Q);
        pointset_clear(K);
        return st;
    }
    rng_t g;
    rng_init(&g, seed);
    for (size_t i = 0; i < m; i++)
        ball_point(&g, r, Q->x + i * r);
    for (size_t j = 0; j < n; j++)
        ball_point(&g, r, K->x + j * r);
    pointset_set_provenance(Q, "random head r=%zu: %zu queries uniform in the unit ball, seed %llu", r, m,
                            (unsigned long long)seed);
    pointset_set_provenance(K, "random head r=%zu: %zu keys uniform in the unit ball, seed %llu", r, n,
                            (unsigned long long)seed);
    return AR_OK;
}

/* G (dh x dh, row-major, orthonormal columns up to rounding): modified
 * Gram-Schmidt, two passes, on a seeded Gaussian matrix. */
static ar_status random_rotation(size_t dh, rng_t *g, double *G)
{
    for (size_t t = 0; t < dh * dh; t++)
        G[t] = rng_normal(g);
    for (size_t c = 0; c < dh; c++)
        for (int pass = 0; pass < 2; pass++) {
            for (size_t p = 0; p < c; p++) {
                double d = 0.0;
                for (size_t i = 0; i < dh; i++)
                    d += G[i * dh + p] * G[i * dh + c];
                for (size_t i = 0; i < dh; i++)
                    G[i * dh + c] -= d * G[i * dh + p];
            }
            double s = 0.0;
            for (size_t i = 0; i < dh; i++)
                s += G[i * dh + c] * G[i * dh + c];
            s = sqrt(s);
            if (!(s > 0)) {
                ar_error_set("head embed: degenerate random rotation");
                return AR_ENUMERIC;
            }
            for (size_t i = 0; i < dh; i++)
                G[i * dh + c] /= s;
        }
    return AR_OK;
}

/* H/sqrt(dh) (Sylvester) with rows permuted and signs flipped at random:
 * entries +-2^-k for dh = 4^k, exactly orthogonal in doubles. */
static ar_status hadamard_rotation(size_t dh, rng_t *g, double *G)
{
    size_t k = 0;
    while (((size_t)1 << (2 * k)) < dh)
        k++;
    if (((size_t)1 << (2 * k)) != dh) {
        ar_error_set("head embed: the exact Hadamard rotation needs dh a power of 4 (got %zu)", dh);
        return AR_EINVAL;
    }
    size_t *perm = malloc(dh * sizeof *perm);
    if (!perm)
        return AR_ENOMEM;
    for (size_t i = 0; i < dh; i++)
        perm[i] = i;
    for (size_t i = dh; i > 1; i--) {
        size_t j = (size_t)(rng_u64(g) % i);
        size_t t = perm[i - 1]; perm[i - 1] = perm[j]; perm[j] = t;
    }
    double scale = ldexp(1.0, -(int)k);
    for (size_t i = 0; i < dh; i++) {
        double sg = (rng_u64(g) & 1) ? -1.0 : 1.0;
        for (size_t c = 0; c < dh; c++) {
            int par = __builtin_popcountll((unsigned long long)(perm[i] & c)) & 1;
            G[i * dh + c] = sg * (par ? -scale : scale);
        }
    }
    free(perm);
    return AR_OK;
}

/* x rounded to a multiple of 2^-8 when dyadic */
static double maybe_dyadic(double x, int dyadic)
{
    return dyadic ? ldexp(nearbyint(ldexp(x, 8)), -8) : x;
}

ar_status head_embed(const pointset_t *Q, const pointset_t *K, const head_embed_t *e,
                     pointset_t *Qh, pointset_t *Kh)
{
    memset(Qh, 0, sizeof *Qh);
    memset(Kh, 0, sizeof *Kh);
    if (!Q || !K || !e || Q->d != K->d || Q->d == 0) {
        ar_error_set("head embed: queries and keys must have the same dimension r >= 1");
        return AR_EINVAL;
    }
    size_t r = Q->d, dh = e->dh;
    if (dh < r + e->nnoise || dh > 4096) {
        ar_error_set("head embed: need r + nnoise <= dh <= 4096 (r = %zu, nnoise = %zu, dh = %zu)", r,
                     e->nnoise, dh);
        return AR_EINVAL;
    }
    if (!isfinite(e->key_offset) || !isfinite(e->query_invisible) || !isfinite(e->delta)) {
        ar_error_set("head embed: offsets and noise must be finite");
        return AR_EINVAL;
    }
    rng_t g;
    rng_init(&g, e->seed);
    double *G = NULL, *o = NULL, *x = NULL;
    ar_status st = AR_ENOMEM;
    G = calloc(dh * dh, sizeof *G);
    o = calloc(dh, sizeof *o);
    x = calloc(dh, sizeof *x);
    if (!G || !o || !x) {
        ar_error_set("head embed: out of memory");
        goto fail;
    }
    if (e->rotate == HEAD_ROT_RANDOM)
        st = random_rotation(dh, &g, G);
    else if (e->rotate == HEAD_ROT_HADAMARD)
        st = hadamard_rotation(dh, &g, G);
    else {
        for (size_t i = 0; i < dh; i++)
            G[i * dh + i] = 1.0;
        st = AR_OK;
    }
    if (st)
        goto fail;
    for (size_t c = 0; c < dh; c++)
        o[c] = e->key_offset != 0 ? maybe_dyadic(e->key_offset * rng_normal(&g), e->dyadic) : 0.0;
    if ((st = pointset_init(Qh, Q->n, dh)) || (st = pointset_init(Kh, K->n, dh)))
        goto fail;
    for (size_t i = 0; i < Q->n; i++) {
        memset(x, 0, dh * sizeof *x);
        memcpy(x, Q->x + i * r, r * sizeof *x);
        if (e->query_invisible != 0)
            for (size_t c = r; c < dh; c++)
                x[c] = maybe_dyadic(e->query_invisible * rng_normal(&g), e->dyadic);
        for (size_t a = 0; a < dh; a++) {
            double s = 0.0;
            for (size_t c = 0; c < dh; c++)
                s += G[a * dh + c] * x[c];
            Qh->x[i * dh + a] = s;
        }
    }
    for (size_t j = 0; j < K->n; j++) {
        memset(x, 0, dh * sizeof *x);
        memcpy(x, K->x + j * r, r * sizeof *x);
        if (e->delta != 0)
            for (size_t c = r; c < r + e->nnoise; c++)
                x[c] = maybe_dyadic(e->delta * rng_normal(&g), e->dyadic);
        for (size_t a = 0; a < dh; a++) {
            double s = 0.0;
            for (size_t c = 0; c < dh; c++)
                s += G[a * dh + c] * x[c];
            Kh->x[j * dh + a] = s + o[a];
        }
    }
    if ((st = pointset_validate(Qh)) || (st = pointset_validate(Kh)))
        goto fail;
    if (K->w) {
        if ((st = pointset_alloc_weights(Kh)))
            goto fail;
        for (size_t j = 0; j < K->n; j++)
            fmpz_set(Kh->w + j, K->w + j);
    }
    static const char *rn[] = { "none", "random", "hadamard" };
    const char *rs = (unsigned)e->rotate < 3 ? rn[e->rotate] : "?";
    pointset_set_provenance(Qh, "embed dh=%zu rot=%s seed=%llu qinv=%g of: %s", dh, rs,
                            (unsigned long long)e->seed, e->query_invisible, Q->provenance);
    pointset_set_provenance(Kh, "embed dh=%zu rot=%s seed=%llu offset=%g noise=%zux%g of: %s", dh, rs,
                            (unsigned long long)e->seed, e->key_offset, e->nnoise, e->delta, K->provenance);
    free(G); free(o); free(x);
    return AR_OK;
fail:
    free(G); free(o); free(x);
    pointset_clear(Qh);
    pointset_clear(Kh);
    return st;
}
