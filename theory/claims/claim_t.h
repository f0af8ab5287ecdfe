/* SPDX-License-Identifier: GPL-3.0-or-later */
/* claim_t.h -- the instances of claim T (tolerance-indexed visible
 * dimension, proofs-notes/claim-T.md) that `make verify` asserts, as
 * computable units: one record per planted head, and the judgement of a
 * record (the verify_T suite's assertions, also applied by `attnrank
 * merge` to shard files).
 *
 * A case: planted visible dimension r0 (queries and keys in a rotated
 * r0-dimensional subspace of dh, a common key offset, query parts outside
 * it) plus key noise of size delta in ten more directions, which the query
 * parts make visible.  The noise's own output error eta_noise = max_i 2
 * tanh(osc_i(beta Q E^T)/4) (E the key noise, evaluated in double from the
 * noise-free twin instance: a reference scale, not a certificate)
 * separates two regimes:
 *   tau >= 2 eta_noise (and below eta(r0 - 1)): r(tau) = r0 (recovered);
 *   tau <= eta_noise / 2:                       r(tau) > r0 (the noise counts).
 * On every instance the certified chain holds: the direct lower bracket of
 * A never exceeds the upper bracket of A_k at eps - eta(k), and the bracket
 * through A_k (lower at eps + eta, upper at eps - eta) overlaps the direct
 * one. */
#ifndef ATTNRANK_THEORY_CLAIM_T_H
#define ATTNRANK_THEORY_CLAIM_T_H

#include <stddef.h>
#include "numerics/status.h"
#include "theory/certificates/cert_status.h"

#define CLAIM_T_MAX_TAU 8

typedef struct {
    size_t r0, dh;
    double delta;
} claim_t_case_t;

/* The cases (static storage) and their number. */
const claim_t_case_t *claim_t_cases(size_t *n);

/* The inverse temperature (1/sqrt(dh)) and eps (0.1) of case c. */
void claim_t_case_params(const claim_t_case_t *c, double *beta, double *eps);

typedef struct {
    size_t r0, dh;
    double delta, beta, eps;
    int twin_same;                 /* 1: the noisy head and its twin have the same queries */
    size_t r;                      /* numerical visible dimension of the noisy head */
    double eta_noise, eta_below, eta_at, eta_above;   /* eta(r0 - 1), eta(r0), eta(r0 + 1) */
    size_t ntau;
    double tau[CLAIM_T_MAX_TAU];
    size_t rt[CLAIM_T_MAX_TAU];    /* r(tau) (VISIBLE_NONE: none certified) */
    double et[CLAIM_T_MAX_TAU];    /* eta(r(tau)) */
    size_t lower, upper;           /* the direct bracket of A */
    ar_cert_status_t status;       /* its status */
    size_t nchain;                 /* 1 or 2: k = r0 and k = r(0.05) when different */
    size_t chain_k[2];
    size_t chain_upper_via[2];     /* upper(A_k at eps - eta) */
    double chain_eta_upper[2];
    size_t chain_lo[2], chain_up[2];   /* the bracket through A_k */
    double chain_eta[2];
    char chain_method[2][48];     /* the chain bracket's status, as printed and serialised ("method") */
    double seconds;
} claim_t_record_t;

/* Compute case i (0 <= i < the number of cases).  AR_* only for failures of
 * the machinery. */
ar_status claim_t_compute(size_t i, claim_t_record_t *out);

/* 1 if the record satisfies every assertion above; otherwise 0 and the
 * first one that fails in reason. */
int claim_t_judge(const claim_t_record_t *t, char *reason, size_t cap);

#endif
