/* SPDX-License-Identifier: GPL-3.0-or-later */
/* calib.h -- claim E on the attention heads of a real model
 * (constructions/pointsets/model_heads.h: USE lite, PP-OCRv4, or a user's
 * model through a manifest): per (layer, head, temperature scale s) the
 * visible dimension, the certified tolerance-indexed dimension r(tau) and
 * its reduction relative to the head dimension, certified brackets of
 * rank_eps of the attention matrix of every input, the uncertified rank
 * measures of the same matrix (theory/heads/uncertified.h), and the
 * weights-only r(tau) of the bilinear form; then the association across
 * settings between effective-dimension reduction and the constructive upper
 * certificates (Spearman, permutation p-value, percentile bootstrap
 * interval over inputs), per layer and over all layers.  See
 * proofs-notes/claim-E.md.
 *
 * Instance of one input and head: Q, K (n x dh) as the model computes them
 * (biases included, q without its scale), beta = s c_l with c_l the model's
 * own logit scale, so s = 1 is the model's attention, A = rowsoftmax(beta Q
 * K^T) (n x n, every key multiplicity 1).
 *   r          visible_compute(...).r (numerical rank of the row-centred
 *              logits; an estimate, not a certificate)
 *   r_tau[t]   visible_rtau at taus[t] (certified: the rank-r_tau logits
 *              change A by <= tau in max-row-l1); VISIBLE_NONE -> min(n, dh)
 *   lower, upper   route_bracket(Q, K, beta, eps) and the route through the
 *              rank-r visible logits (rigorous)
 *   un         uncertified_measures(Q, K, beta, eps) (NOT certified)
 * Weights-only (when the model gives W_Q, W_K and the layer norm): the
 * augmented bilinear form [W_Q; b_Q] [W_K; b_K]^T on inputs [h, 1] with the a
 * priori radius sqrt(R^2 + 1), R = max|ln_scale| sqrt(d_in) + ||ln_bias||_2
 * (every layer-norm output has ||h||_2 <= R), rounded up; and again at the
 * empirical radius max ||[h, 1]||_2 over the inputs (then certified for
 * inputs within that radius only, the inputs included).
 * Reductions: 1 - r_tau/dh (relative to the head dimension, as in the claim)
 * and 1 - r_tau/r (relative to the visible dimension). */
#ifndef ATTNRANK_THEORY_CALIB_H
#define ATTNRANK_THEORY_CALIB_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"
#include "constructions/pointsets/model_heads.h"

#define CALIB_MAX_SCALES 16
#define CALIB_MAX_TAUS 8

typedef struct {
    size_t nscales;
    double scales[CALIB_MAX_SCALES];  /* multiples of the model's logit scale, > 0 */
    size_t ntau;
    double taus[CALIB_MAX_TAUS];      /* 0 < tau < 2, increasing */
    size_t tau_main;                  /* index of the tau used for the association */
    double eps;                       /* bracket tolerance, 0 < eps < 1 */
    size_t nperm;                     /* permutations for the p-value */
    size_t nboot;                     /* bootstrap replicates for the interval (>= 1) */
    double level;                     /* interval coverage, 0 < level < 1 */
    uint64_t seed;
    int threads;                      /* threads: calib_run's settings side by side (0 = par_threads()) */
    void (*progress)(size_t done, size_t total, void *ctx);  /* may be NULL */
    void *progress_ctx;
} calib_opts_t;

/* Defaults: scales {0.5, 1, 2, 4}, taus {0.05, 0.1, 0.2} (main 0.1),
 * eps 0.1, nperm 10000, nboot 2000, level 0.95, seed 1. */
void calib_opts_default(calib_opts_t *o);

typedef struct {
    size_t layer, head, dh;
    double scale, beta;
    size_t nsent;
    /* per input (nsent entries; r_tau is nsent x ntau) */
    size_t *ntok, *r, *r_tau, *lower, *upper;
    size_t *un_rank, *un_rank_eps;    /* uncertified numerical ranks (default tolerance, eps s_1) */
    double *un_stable, *un_eff;       /* uncertified stable and effective ranks */
    size_t ncertified;                /* inputs whose bracket status is "certified" */
    /* summaries over inputs */
    double r_median, r_tau_median[CALIB_MAX_TAUS], reduction_mean[CALIB_MAX_TAUS];
    double upper_mean, lower_mean, upper_median, lower_median;
    double upper_frac_mean;           /* mean of upper / n (fraction of full rank) */
    double reduction_vis_mean[CALIB_MAX_TAUS];  /* mean of 1 - r_tau / r (relative to the visible dimension) */
    double un_rank_mean, un_rank_eps_mean, un_stable_mean, un_eff_mean;
    /* inputs where an uncertified measure lies outside the certified bracket */
    size_t rank_above, rank_eps_below, rank_eps_above, stable_below, eff_below, eff_above;
    /* weights-only */
    int has_weights;                  /* 0: the model gives no weights (rw* are VISIBLE_NONE, radii NaN) */
    double radius;                    /* a priori radius (all inputs) */
    size_t rw, rw_tau[CALIB_MAX_TAUS];  /* VISIBLE_NONE when not certified */
    double radius_emp;                /* max ||[h, 1]||_2 over the inputs (rounded up) */
    size_t rw_tau_emp[CALIB_MAX_TAUS];  /* r(tau) certified for inputs within radius_emp */
    double seconds;
} calib_setting_t;

/* Spearman's rho across settings of x = mean reduction 1 - r(tau_main)/dh
 * and y = mean certified upper end, its two-sided permutation p-value, its
 * asymptotic Student-t p-value (numerics/spearman.h) and a percentile
 * bootstrap interval: each replicate redraws the inputs of every
 * model with replacement (seeded), recomputes both means of every setting
 * and rho; lo, hi are the (1 - level)/2 and (1 + level)/2 quantiles of the
 * replicates whose rho is defined (nboot_ok of them). */
typedef struct {
    size_t nset;
    double rho, p_value, p_value_t, lo, hi;
    size_t nboot_ok;
} calib_assoc_t;

typedef struct {
    calib_opts_t opts;
    char model[MODEL_HEADS_NAME_LEN];
    size_t nlayers;
    size_t nset;                      /* nlayers * nheads * nscales, stored layer by layer */
    calib_setting_t *set;
    size_t nsent;
    calib_assoc_t all;                /* over every setting of the model */
    calib_assoc_t *layer;             /* nlayers: within one layer */
    calib_assoc_t at_scale[CALIB_MAX_SCALES];  /* nscales: across the heads of every layer at one scale */
    /* permutation p-value (p_value*) and asymptotic Student-t p-value (p_value*_t), numerics/spearman.h */
    double spearman_rtau, p_value_rtau, p_value_rtau_t;  /* rho(r_tau median at tau_main, upper_mean) */
    double spearman_vis, p_value_vis, p_value_vis_t;     /* rho(reduction relative to r at tau_main, upper_mean) */
    double seconds;
} calib_result_t;

/* Run the whole calibration over the heads of D (model_heads_validate'd):
 * calib_begin, calib_setting_run on every setting, calib_finish.
 * AR_EINVAL on bad options or a bad D; errors of the rank layer are passed
 * on with their message. */
ar_status calib_run(const model_heads_t *D, const calib_opts_t *o, calib_result_t *R);

/* The pieces of calib_run, for a calibration computed in shards (one
 * setting per unit) and assembled elsewhere; the assembled result is
 * identical to calib_run's but for the times.
 *
 * calib_alloc: R with the settings of a model of nlayers layers (nheads[l]
 * heads of dimension dh[l], logit scale logit_scale[l]) over nsent inputs,
 * in the stored order (layer by layer, then head, then scale), each with its
 * identity (layer, head, scale, dh, beta = scale * logit_scale, nsent) and
 * zeroed per-input arrays; R->opts = *o without the progress callback.
 * AR_EINVAL on bad options or shapes.
 * calib_begin: the same from a model_heads_validate'd D. */
ar_status calib_alloc(calib_result_t *R, const calib_opts_t *o, const char *model, size_t nlayers,
                      const size_t *nheads, const size_t *dh, const double *logit_scale, size_t nsent);
ar_status calib_begin(const model_heads_t *D, const calib_opts_t *o, calib_result_t *R);

/* Compute setting S (fresh from calib_begin on the same D and o): the
 * weights-only r(tau), every input's measures and certified bracket, and
 * the summaries; S->seconds its time. */
ar_status calib_setting_run(const model_heads_t *D, const calib_opts_t *o, calib_setting_t *S);

/* The summaries of S (medians, means, counts of uncertified measures
 * outside the bracket) from its per-input arrays, recomputed from scratch. */
ar_status calib_setting_summarise(const calib_opts_t *o, calib_setting_t *S);

/* An a-priori estimate of the cost of a setting of head dimension dh over
 * inputs of ntok[0..ninputs) tokens (sum of n^2 (n + dh)), to balance
 * shards; no result depends on it. */
double calib_setting_cost(const size_t *ntok, size_t ninputs, size_t dh);

/* The associations of R (all settings, per layer, per scale, r(tau) and
 * the reduction relative to r) from its summarised settings. */
ar_status calib_finish(calib_result_t *R);

/* The association over the settings of several results (several models)
 * pooled, as in calib_assoc_t, the bootstrap redrawing each model's inputs
 * separately.  Every result must have been run with the same taus. */
ar_status calib_assoc_pooled(const calib_result_t *R, size_t nr, calib_assoc_t *A);

void calib_result_clear(calib_result_t *R);

#endif
