/* calib.h -- claim E on a real pretrained transformer (USE lite, 2 layers x 4
 * heads): per (layer, head, temperature scale s) the visible dimension, the
 * certified tolerance-indexed dimension r(tau) and its reduction relative to
 * the head dimension, certified brackets of rank_eps of the attention matrix
 * of every corpus sentence, and the weights-only r(tau) of the bilinear form;
 * then the association across settings between effective-dimension
 * reduction and the constructive upper certificates (Spearman, permutation
 * p-value).  See proofs-notes/claim-E.md.
 *
 * Instance of one sentence and head: Q = (H W_Q + 1 b_Q) (n x dh),
 * K = H W_K + 1 b_K, beta = s c_l with c_l the model's own query scale (the
 * float32 number nearest 1/sqrt(dh)), so s = 1 is the model's attention,
 * A = rowsoftmax(beta Q K^T) (n x n, every key multiplicity 1).
 *   r          visible_compute(...).r (numerical rank of the row-centred
 *              logits; an estimate, not a certificate)
 *   r_tau[t]   visible_rtau at taus[t] (certified: the rank-r_tau logits
 *              change A by <= tau in max-row-l1); VISIBLE_NONE -> min(n, dh)
 *   lower, upper   bracket_compute(Q, K, beta, eps) (rigorous)
 * Weights-only: the augmented bilinear form [W_Q; b_Q] [W_K; b_K]^T on inputs
 * [h, 1] with the a priori radius sqrt(R^2 + 1), R = max|ln_scale| sqrt(d_in)
 * + ||ln_bias||_2 (every layer-norm output has ||h||_2 <= R), rounded up;
 * and again at the empirical radius max ||[h, 1]||_2 over the corpus (then
 * certified for inputs within that radius only, the corpus included).
 * Reductions: 1 - r_tau/dh (relative to the head dimension, as in the claim)
 * and 1 - r_tau/r (relative to the visible dimension; short sentences have
 * r <= n - 1 < dh, which alone makes 1 - r_tau/dh large). */
#ifndef ATTNRANK_THEORY_CALIB_H
#define ATTNRANK_THEORY_CALIB_H

#include <stddef.h>
#include <stdint.h>
#include "numerics/status.h"
#include "constructions/models/real_model.h"
#include "constructions/formats/corpus.h"

#define CALIB_MAX_SCALES 16
#define CALIB_MAX_TAUS 8

typedef struct {
    size_t nscales;
    double scales[CALIB_MAX_SCALES];  /* multiples of the model's 1/sqrt(dh), > 0 */
    size_t ntau;
    double taus[CALIB_MAX_TAUS];      /* 0 < tau < 2, increasing */
    size_t tau_main;                  /* index of the tau used for the association */
    double eps;                       /* bracket tolerance, 0 < eps < 1 */
    size_t nperm;                     /* permutations for the p-value */
    uint64_t seed;
    int threads;                      /* bracket threads (0 = default) */
    void (*progress)(size_t done, size_t total, void *ctx);  /* may be NULL */
    void *progress_ctx;
} calib_opts_t;

/* Defaults: scales {0.5, 1, 2, 4}, taus {0.05, 0.1, 0.2} (main 0.1),
 * eps 0.1, nperm 10000, seed 1. */
void calib_opts_default(calib_opts_t *o);

typedef struct {
    size_t layer, head, dh;
    double scale, beta;
    size_t nsent;
    /* per sentence (nsent entries; r_tau is nsent x ntau) */
    size_t *ntok, *r, *r_tau, *lower, *upper;
    size_t ncertified;                /* sentences whose bracket status is "certified" */
    /* summaries over sentences */
    double r_median, r_tau_median[CALIB_MAX_TAUS], reduction_mean[CALIB_MAX_TAUS];
    double upper_mean, lower_mean, upper_median, lower_median;
    double upper_frac_mean;           /* mean of upper / n (fraction of full rank) */
    double reduction_vis_mean[CALIB_MAX_TAUS];  /* mean of 1 - r_tau / r (relative to the visible dimension) */
    /* weights-only */
    double radius;                    /* a priori radius (all inputs) */
    size_t rw, rw_tau[CALIB_MAX_TAUS];  /* VISIBLE_NONE when not certified */
    double radius_emp;                /* max ||[h, 1]||_2 over the corpus (rounded up) */
    size_t rw_tau_emp[CALIB_MAX_TAUS];  /* r(tau) certified for inputs within radius_emp */
    double seconds;
} calib_setting_t;

typedef struct {
    calib_opts_t opts;
    size_t nset;                      /* REAL_LAYERS * REAL_HEADS * nscales */
    calib_setting_t *set;
    size_t nsent;
    /* Spearman's rho, its permutation p-value (p_value*) and its asymptotic Student-t
     * p-value (p_value*_t), numerics/spearman.h */
    double spearman, p_value, p_value_t;             /* rho(reduction at tau_main, upper_mean) over settings */
    double spearman_rtau, p_value_rtau, p_value_rtau_t;  /* rho(r_tau median at tau_main, upper_mean) */
    double spearman_vis, p_value_vis, p_value_vis_t;     /* rho(reduction relative to r at tau_main, upper_mean) */
    double spearman_layer[REAL_LAYERS], p_value_layer[REAL_LAYERS],   /* main pair within one layer */
        p_value_layer_t[REAL_LAYERS];
    double seconds, seconds_forward;
} calib_result_t;

/* Run the whole calibration over the sentences of C with model M.
 * AR_EINVAL on bad options or a sentence the tokenizer refuses; errors of
 * the rank layer are passed on with their message. */
ar_status calib_run(const real_model_t *M, const corpus_t *C, const calib_opts_t *o, calib_result_t *R);

void calib_result_clear(calib_result_t *R);

#endif
