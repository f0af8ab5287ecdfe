/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_ball_impl.h -- private to the ball certificates
 * (theory/certificates/cert_ball_*.c): the exact preparation of a weighted
 * point set (coordinates, squared norms, log-weights in Arb) and the
 * evaluation of the Gaussian kernel around one row with a rigorous tail.
 * Not part of the public interface (cert_ball.h). */
#ifndef ATTNRANK_THEORY_CERT_BALL_IMPL_H
#define ATTNRANK_THEORY_CERT_BALL_IMPL_H

#include <stddef.h>
#include <arb.h>
#include "numerics/arbd.h"
#include "base/status.h"
#include "constructions/pointsets/pointset.h"

#define BPREC 96
#define COORD_MAX 1.5
#define PHI2_ALL 4.6          /* > (2 * 1.0)^2 + margin: every pair of the unit ball */
#define PHI2_MIN 0x1p-30
#define P_MAX 4096

typedef struct {
    const pointset_t *P;
    size_t n, d;
    double beta;
    arb_ptr X;       /* n*d exact coordinates */
    arb_ptr nrm;     /* |x_j|^2 */
    arb_ptr L;       /* log g_j = log w_j + beta |x_j|^2 / 2 */
    double Lmax;     /* upper bound of max L_j */
    double Lmin;     /* lower bound of min L_j */
} prep_t;

typedef struct {
    const prep_t *p;
    size_t row;              /* index of the row point */
    double phi2;
    const size_t *block;     /* block id of each point (NULL: not needed) */
    size_t own;              /* block of the row */
    arb_t in, out, t, B;     /* sums (normalised by g_row) */
    size_t count;            /* evaluated points */
    int rel_lmax;            /* 1: normalise by e^{Lmax} instead of g_row */
    arb_t Lm;
} visit_t;

void ball_prep_clear(prep_t *p);

ar_status ball_prep_init(prep_t *p, const pointset_t *P, double beta, double eps, double cmax, const char *who);

/* Grid cell size for evaluated squared radius phi2, and Dlow: a lower bound
 * of |y - x_j|^2 for every point j that is not evaluated (not visited, or
 * visited with fl(D) >= phi2; fl(D) has relative error < 2^-40). */
double ball_cell_size(double phi2);

double ball_dlow_of(double phi2);

double ball_dist2(const double *a, const double *b, size_t d);

int ball_visit_fn(size_t j, void *ctx);

void ball_visit_init(visit_t *v, const prep_t *p, double phi2);

void ball_visit_clear(visit_t *v);

/* Tail bound (count) * exp(Lmax - L_row - beta Dlow / 2) into res. */
void ball_tail_bound(arb_t res, const prep_t *p, size_t row, size_t count, double dlow);

#endif
