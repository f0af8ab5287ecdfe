/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pointset.c -- allocation, validation and provenance of point sets. */
#include "constructions/pointsets/pointset.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flint/fmpz_vec.h>

/* n x d zero coordinates, w = NULL, empty provenance.  P's previous content
 * is overwritten, not freed.  On failure P is zeroed. */
ar_status pointset_init(pointset_t *P, size_t n, size_t d)
{
    memset(P, 0, sizeof *P);
    if (n == 0 || d == 0) {
        ar_error_set("pointset_init: n and d must be >= 1 (n=%zu, d=%zu)", n, d);
        return AR_EINVAL;
    }
    if (n > SIZE_MAX / d) {
        ar_error_set("pointset_init: %zu x %zu coordinates overflow", n, d);
        return AR_ENOMEM;
    }
    P->x = ar_calloc(n * d, sizeof(double), "pointset coordinates");
    if (!P->x)
        return AR_ENOMEM;
    P->n = n;
    P->d = d;
    return AR_OK;
}

/* Replaces any existing weights by n ones. */
ar_status pointset_alloc_weights(pointset_t *P)
{
    if (P->n == 0) {
        ar_error_set("pointset_alloc_weights: empty point set");
        return AR_EINVAL;
    }
    if (P->w)
        _fmpz_vec_clear(P->w, (slong)P->n);
    /* n fmpz (one word each) is no larger than the n*d doubles already held. */
    P->w = _fmpz_vec_init((slong)P->n);
    for (size_t i = 0; i < P->n; i++)
        fmpz_one(P->w + i);
    return AR_OK;
}

void pointset_clear(pointset_t *P)
{
    free(P->x);
    if (P->w)
        _fmpz_vec_clear(P->w, (slong)P->n);
    memset(P, 0, sizeof *P);
}

void pointset_total_multiplicity(fmpz_t N, const pointset_t *P)
{
    if (!P->w) {
        fmpz_set_ui(N, (ulong)P->n);
        return;
    }
    fmpz_zero(N);
    for (size_t i = 0; i < P->n; i++)
        fmpz_add(N, N, P->w + i);
}

ar_status pointset_validate(const pointset_t *P)
{
    if (P->n == 0 || P->d == 0 || !P->x) {
        ar_error_set("pointset: empty (n=%zu, d=%zu)", P->n, P->d);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < P->n; i++)
        for (size_t c = 0; c < P->d; c++)
            if (!isfinite(P->x[i * P->d + c])) {
                ar_error_set("pointset (%s): non-finite coordinate at point %zu, column %zu",
                             P->provenance, i, c);
                return AR_EINVAL;
            }
    if (P->w)
        for (size_t i = 0; i < P->n; i++)
            if (fmpz_cmp_ui(P->w + i, 1) < 0) {
                ar_error_set("pointset (%s): multiplicity of point %zu is < 1", P->provenance, i);
                return AR_EINVAL;
            }
    return AR_OK;
}

void pointset_set_provenance(pointset_t *P, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->provenance, sizeof P->provenance, fmt, ap);
    va_end(ap);
    for (char *p = P->provenance; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

int pointset_same_points(const pointset_t *a, const pointset_t *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->n != b->n || a->d != b->d || !a->x || !b->x)
        return 0;
    return memcmp(a->x, b->x, a->n * a->d * sizeof *a->x) == 0;
}

int pointset_has_multiplicities(const pointset_t *P)
{
    if (P->w)
        for (size_t i = 0; i < P->n; i++)
            if (!fmpz_is_one(P->w + i))
                return 1;
    return 0;
}
