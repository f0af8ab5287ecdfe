/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_packing_impl.h -- what the packing certificate's files share (not a public interface):
 * the Arb precision, the validation and the certificate's start (cert_packing.c), the dominance
 * test over [0, maxR] (cert_packing.c), the counting tail and its threshold (cert_packing_tail.c)
 * and one diagonal-dominance run (cert_packing_diagdom.c, called by the search). */
#ifndef ATTNRANK_THEORY_CERT_PACKING_IMPL_H
#define ATTNRANK_THEORY_CERT_PACKING_IMPL_H

#include <stddef.h>
#include <arb.h>
#include "theory/certificates/cert_packing.h"

#define PACK_PREC 96
#define PACK_INVNORM_MAX 6000   /* pack_invnorm's dense O(m^3) certificate: m at most this */

/* 1 when P (unit multiplicities, 1 <= d <= 16, |coordinates| <= 1.5), beta (finite, >= 0) and
 * eps (0 < eps < 1) are valid, else 0 with a message naming `who`. */
int pack_check_args(const pointset_t *P, double beta, double eps, const char *who);

/* *out zeroed, then d, beta, eps, m = P->n, method; theta = NAN. */
void pack_cert_init(pack_cert_t *out, const pointset_t *P, double beta, double eps, ar_method_t method);

/* pack_dominance_holds for every R in [0, maxR] (the bound is decreasing in R). */
int pack_dominance_holds_up_to(double maxR, double eps);

/* Upper bound (Arb) of the counting tail (proofs-notes/packing-lower-bounds.md section 6) of the
 * pairs not evaluated, with sigma <= (beta/2) |x_i - x_j|^2 for every pair and T <= (beta/2) D
 * for every pair not evaluated; sigma <= 0: +inf (0 when m < 2).  eta >= | |x_j| - 1 | for
 * every j, or +inf for the R^d count alone. */
void pack_counting_tail(arb_t out, double sigma, double T, size_t m, size_t d, double beta, const arb_t eta);

/* Automatic exponent threshold (no rigour; any T is sound): the smallest T in steps of the
 * tail's annuli whose estimated counting tail at the separation sigma is <= target, at most
 * ln m + ln(1e4 / tau) + 1. */
double pack_tail_threshold(size_t m, size_t d, double sigma, double tau, double target);

/* pack_diagdom_phi, and for the search: stop_early = 1 abandons a pass as soon as some row's
 * evaluated sum exceeds tau (the verdict is then "not certified", as the complete pass would
 * give; max_R = +inf). */
ar_status pack_diagdom_run(const pointset_t *P, double beta, double eps, double phi2, int stop_early,
                           pack_cert_t *out);

#endif
