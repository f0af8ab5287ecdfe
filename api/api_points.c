/* SPDX-License-Identifier: GPL-3.0-or-later */
/* api_points.c -- point sets of the public API: from arrays, files and the
 * sphere and ball generators. */
#include "api/api_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/formats/npy.h"
#include "constructions/pointsets/ball.h"
#include "constructions/pointsets/family.h"
#include "constructions/pointsets/sphere.h"

#define API_MAX_POINTS ((size_t)1 << 26)   /* the CLI's --n limit of the sphere families */
#define API_MAX_DIM 4096

static attnrank_status points_wrap(pointset_t *P, attnrank_points **out)
{
    attnrank_points *p = malloc(sizeof *p);
    if (!p) {
        pointset_clear(P);
        ar_error_set("out of memory for a point set");
        return ATTNRANK_ENOMEM;
    }
    p->P = *P;
    *out = p;
    return ATTNRANK_OK;
}

/* 1 if s is one or more ASCII digits, not all zeros. */
static int positive_decimal(const char *s)
{
    int nonzero = 0;
    if (!s || !*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        nonzero |= *s != '0';
    }
    return nonzero;
}

static attnrank_status points_new_impl(const double *x, size_t n, size_t d, const uint64_t *w64,
                                       const char *const *wdec, const char *provenance, attnrank_points **out)
{
    ar_error_set("%s", "");
    if (!out) {
        ar_error_set("points: NULL output");
        return ATTNRANK_EINVAL;
    }
    *out = NULL;
    if (!x) {
        ar_error_set("points: NULL coordinates");
        return ATTNRANK_EINVAL;
    }
    if (n == 0 || d == 0) {
        ar_error_set("points: shape %zu x %zu (need at least one point and one coordinate)", n, d);
        return ATTNRANK_EINVAL;
    }
    if (w64 && wdec) {
        ar_error_set("points: give the multiplicities once (w64 or wdec)");
        return ATTNRANK_EINVAL;
    }
    if (n > SIZE_MAX / d / sizeof(double)) {
        ar_error_set("points: %zu x %zu coordinates overflow", n, d);
        return ATTNRANK_ENOMEM;
    }
    for (size_t i = 0; i < n * d; i++)
        if (!isfinite(x[i])) {
            ar_error_set("points: coordinate %zu of point %zu is not finite (%g)", i % d, i / d, x[i]);
            return ATTNRANK_EINVAL;
        }
    pointset_t P;
    memset(&P, 0, sizeof P);
    ar_status st = pointset_init(&P, n, d);
    if (st)
        return (attnrank_status)st;
    memcpy(P.x, x, n * d * sizeof *x);
    if (w64 || wdec) {
        if ((st = pointset_alloc_weights(&P))) {
            pointset_clear(&P);
            return (attnrank_status)st;
        }
        for (size_t i = 0; i < n; i++) {
            if (w64) {
                if (w64[i] == 0) {
                    ar_error_set("points: multiplicity %zu is 0 (must be >= 1)", i);
                    st = AR_EINVAL;
                    break;
                }
                fmpz_set_ui(P.w + i, (ulong)w64[i]);
            } else {
                if (!positive_decimal(wdec[i])) {
                    ar_error_set("points: multiplicity %zu is not a positive decimal integer", i);
                    st = AR_EINVAL;
                    break;
                }
                fmpz_set_str(P.w + i, wdec[i], 10);
            }
        }
        if (st) {
            pointset_clear(&P);
            return (attnrank_status)st;
        }
    }
    pointset_set_provenance(&P, "%s", provenance ? provenance : "arrays");
    if ((st = pointset_validate(&P))) {
        pointset_clear(&P);
        return (attnrank_status)st;
    }
    return points_wrap(&P, out);
}

attnrank_status attnrank_points_new(const double *x, size_t n, size_t d, const uint64_t *w64,
                                    const char *const *wdec, const char *provenance, attnrank_points **out)
{
    api_call_t c;
    attnrank_status as = api_begin(NULL, &c);
    return as ? as : api_end(&c, (ar_status)points_new_impl(x, n, d, w64, wdec, provenance, out));
}

static attnrank_status points_read_impl(const char *npy_path, const char *mult_path, attnrank_points **out)
{
    ar_error_set("%s", "");
    if (!out || !npy_path) {
        ar_error_set("points_read: NULL argument");
        return ATTNRANK_EINVAL;
    }
    *out = NULL;
    pointset_t P;
    memset(&P, 0, sizeof P);
    ar_status st = pointset_read(&P, npy_path, mult_path);
    if (st)
        return (attnrank_status)st;
    return points_wrap(&P, out);
}

attnrank_status attnrank_points_read(const char *npy_path, const char *mult_path, attnrank_points **out)
{
    api_call_t c;
    attnrank_status as = api_begin(NULL, &c);
    return as ? as : api_end(&c, (ar_status)points_read_impl(npy_path, mult_path, out));
}

double attnrank_sphere_packing_theta(double beta)
{
    return sphere_packing_theta(beta);
}

static attnrank_status sphere_generate_impl(const char *family, size_t d, size_t n, double theta, double beta,
                                            uint64_t seed, attnrank_points **out)
{
    ar_error_set("%s", "");
    if (!out || !family) {
        ar_error_set("sphere_generate: NULL argument");
        return ATTNRANK_EINVAL;
    }
    *out = NULL;
    sphere_family_t fam;
    ar_status st = sphere_family_parse(family, &fam);
    if (st)
        return (attnrank_status)st;
    if (d < 1 || d > API_MAX_DIM) {
        ar_error_set("d: expected an integer in [1, %d], got %zu", API_MAX_DIM, d);
        return ATTNRANK_EINVAL;
    }
    if (n < 1 || n > API_MAX_POINTS) {
        ar_error_set("n: expected an integer in [1, %zu], got %zu", API_MAX_POINTS, n);
        return ATTNRANK_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("sphere_generate: beta must be finite and >= 0 (got %g)", beta);
        return ATTNRANK_EINVAL;
    }
    if (isnan(theta))
        theta = sphere_packing_theta(beta);
    pointset_t P;
    memset(&P, 0, sizeof P);
    if ((st = sphere_generate(&P, fam, n, d, theta, seed)))
        return (attnrank_status)st;
    return points_wrap(&P, out);
}

attnrank_status attnrank_sphere_generate(const char *family, size_t d, size_t n, double theta, double beta,
                                         uint64_t seed, attnrank_points **out)
{
    api_call_t c;
    attnrank_status as = api_begin(NULL, &c);
    return as ? as : api_end(&c, (ar_status)sphere_generate_impl(family, d, n, theta, beta, seed, out));
}

attnrank_status attnrank_ball_spec_default_sized(attnrank_ball_spec *s, size_t size, const char *family, size_t d,
                                                 double beta)
{
    ar_error_set("%s", "");
    if (!s || !family) {
        ar_error_set("ball_spec_default: NULL argument");
        return ATTNRANK_EINVAL;
    }
    ar_status st = api_size_check(size, API_MIN_BALL_SPEC, "attnrank_ball_spec");
    if (st)
        return (attnrank_status)st;
    s->size = size;
    api_size_zero(s, API_MIN_BALL_SPEC, sizeof *s);
    ball_family_t f;
    if ((st = ball_family_parse(family, &f)))
        return (attnrank_status)st;
    ball_spec_t b;
    ball_spec_default(&b, f, d, beta);
    attnrank_ball_spec full;
    memset(&full, 0, sizeof full);
    api_copy(full.family, sizeof full.family, ball_family_name(f));
    full.d = b.d;
    full.beta = b.beta;
    full.rho0 = b.rho0;
    full.npoints = b.npoints;
    full.seed = b.seed;
    full.unweighted = b.unweighted;
    full.m0 = b.M0;
    api_size_out(s, &full, sizeof full);
    return ATTNRANK_OK;
}

/* The internal spec of s, checked as the CLI checks its options (its size
 * first; every field of API 0.3 lies within the smallest size accepted, so
 * none takes a default here: a later field must). */
ar_status api_ball_spec(const attnrank_ball_spec *s, ball_spec_t *b);
ar_status api_ball_spec(const attnrank_ball_spec *s0, ball_spec_t *b)
{
    ball_family_t f;
    ar_status st;
    if (!s0) {
        ar_error_set("ball: NULL spec");
        return AR_EINVAL;
    }
    if ((st = api_size_check(s0->size, API_MIN_BALL_SPEC, "attnrank_ball_spec")))
        return st;
    attnrank_ball_spec full;
    api_size_in(&full, NULL, sizeof full, s0);
    const attnrank_ball_spec *s = &full;
    char fam[sizeof s->family + 1];
    memcpy(fam, s->family, sizeof s->family);
    fam[sizeof s->family] = '\0';
    if ((st = ball_family_parse(fam, &f)))
        return st;
    if (s->d < 2 || s->d > 16) {
        ar_error_set("d: expected an integer in [2, 16], got %zu", s->d);
        return AR_EINVAL;
    }
    if (!isfinite(s->beta) || !(s->beta > 0)) {
        ar_error_set("a ball instance needs beta > 0");
        return AR_EINVAL;
    }
    if (!(s->rho0 >= 0 && s->rho0 < 1)) {
        ar_error_set("rho0 must be in [0, 1), got %g", s->rho0);
        return AR_EINVAL;
    }
    if (s->npoints < 1 || s->npoints > 5000000) {
        ar_error_set("n: expected an integer in [1, 5000000], got %zu", s->npoints);
        return AR_EINVAL;
    }
    if (!(s->m0 >= 1) || !isfinite(s->m0)) {
        ar_error_set("m0 must be >= 1, got %g", s->m0);
        return AR_EINVAL;
    }
    ball_spec_default(b, f, s->d, s->beta);
    b->rho0 = s->rho0;
    b->npoints = s->npoints;
    b->seed = s->seed;
    b->unweighted = s->unweighted != 0;
    b->M0 = s->m0;
    return AR_OK;
}

static attnrank_status ball_generate_impl(const attnrank_ball_spec *s, attnrank_points **out)
{
    ar_error_set("%s", "");
    if (!out) {
        ar_error_set("ball_generate: NULL output");
        return ATTNRANK_EINVAL;
    }
    *out = NULL;
    ball_spec_t b;
    ar_status st = api_ball_spec(s, &b);
    if (st)
        return (attnrank_status)st;
    pointset_t P;
    memset(&P, 0, sizeof P);
    if ((st = ball_generate(&P, &b)))
        return (attnrank_status)st;
    return points_wrap(&P, out);
}

attnrank_status attnrank_ball_generate(const attnrank_ball_spec *s, attnrank_points **out)
{
    api_call_t c;
    attnrank_status as = api_begin(NULL, &c);
    return as ? as : api_end(&c, (ar_status)ball_generate_impl(s, out));
}

void attnrank_points_free(attnrank_points *p)
{
    if (!p)
        return;
    pointset_clear(&p->P);
    free(p);
}

size_t attnrank_points_count(const attnrank_points *p)
{
    return p ? p->P.n : 0;
}

size_t attnrank_points_dim(const attnrank_points *p)
{
    return p ? p->P.d : 0;
}

const double *attnrank_points_coords(const attnrank_points *p)
{
    return p ? p->P.x : NULL;
}

int attnrank_points_weighted(const attnrank_points *p)
{
    return p && p->P.w != NULL;
}

const char *attnrank_points_provenance(const attnrank_points *p)
{
    return p ? p->P.provenance : "";
}

attnrank_status attnrank_points_weight(const attnrank_points *p, size_t i, char *buf, size_t cap, size_t *need)
{
    ar_error_set("%s", "");
    if (!p || !buf) {
        ar_error_set("points_weight: NULL argument");
        return ATTNRANK_EINVAL;
    }
    if (i >= p->P.n) {
        ar_error_set("points_weight: index %zu out of range (n = %zu)", i, p->P.n);
        return ATTNRANK_EINVAL;
    }
    fmpz_t one;
    fmpz_init_set_ui(one, 1);
    const fmpz *w = p->P.w ? p->P.w + i : one;
    size_t k = fmpz_sizeinbase(w, 10) + 2;   /* may exceed the digits by one, plus a sign */
    if (need)
        *need = k;
    if (cap < k) {
        fmpz_clear(one);
        ar_error_set("points_weight: buffer of %zu bytes too small (%zu needed)", cap, k);
        return ATTNRANK_EINVAL;
    }
    fmpz_get_str(buf, 10, w);
    fmpz_clear(one);
    return ATTNRANK_OK;
}

attnrank_status attnrank_points_total(const attnrank_points *p, char **out)
{
    ar_error_set("%s", "");
    if (!p || !out) {
        ar_error_set("points_total: NULL argument");
        return ATTNRANK_EINVAL;
    }
    fmpz_t N;
    fmpz_init(N);
    pointset_total_multiplicity(N, &p->P);
    *out = api_fmpz_str(N);
    fmpz_clear(N);
    return *out ? ATTNRANK_OK : ATTNRANK_ENOMEM;
}

static attnrank_status points_write_npy_impl(const attnrank_points *p, const char *path)
{
    ar_error_set("%s", "");
    if (!p || !path) {
        ar_error_set("points_write_npy: NULL argument");
        return ATTNRANK_EINVAL;
    }
    return (attnrank_status)npy_write(path, p->P.x, p->P.n, p->P.d);
}

attnrank_status attnrank_points_write_npy(const attnrank_points *p, const char *path)
{
    api_call_t c;
    attnrank_status as = api_begin(NULL, &c);
    return as ? as : api_end(&c, (ar_status)points_write_npy_impl(p, path));
}

static attnrank_status npy_read_impl(const char *path, double **x, size_t *rows, size_t *cols)
{
    ar_error_set("%s", "");
    if (!path || !x || !rows || !cols) {
        ar_error_set("npy_read: NULL argument");
        return ATTNRANK_EINVAL;
    }
    *x = NULL;
    return (attnrank_status)npy_read(path, x, rows, cols);
}

attnrank_status attnrank_npy_read(const char *path, double **x, size_t *rows, size_t *cols)
{
    api_call_t c;
    attnrank_status as = api_begin(NULL, &c);
    return as ? as : api_end(&c, (ar_status)npy_read_impl(path, x, rows, cols));
}

static attnrank_status npy_read_bias_impl(const char *path, double **x, size_t *rows, size_t *cols)
{
    ar_error_set("%s", "");
    if (!path || !x || !rows || !cols) {
        ar_error_set("npy_read: NULL argument");
        return ATTNRANK_EINVAL;
    }
    *x = NULL;
    return (attnrank_status)npy_read_bias(path, x, rows, cols);
}

attnrank_status attnrank_npy_read_bias(const char *path, double **x, size_t *rows, size_t *cols)
{
    api_call_t c;
    attnrank_status as = api_begin(NULL, &c);
    return as ? as : api_end(&c, (ar_status)npy_read_bias_impl(path, x, rows, cols));
}
