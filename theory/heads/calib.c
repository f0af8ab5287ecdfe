/* SPDX-License-Identifier: GPL-3.0-or-later */
/* calib.c -- claim E calibration on the heads of a real model (see calib.h). */
#include "theory/heads/calib.h"

#include <fenv.h>
#include <flint/flint.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/blas.h"
#include "base/clock.h"
#include "base/config.h"
#include "base/parallel.h"
#include "numerics/fround.h"
#include "numerics/rng.h"
#include "numerics/spearman.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/route.h"
#include "theory/heads/uncertified.h"
#include "theory/heads/visible.h"

void calib_opts_default(calib_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->nscales = 4;
    o->scales[0] = 0.5;
    o->scales[1] = 1.0;
    o->scales[2] = 2.0;
    o->scales[3] = 4.0;
    o->ntau = 3;
    o->taus[0] = 0.05;
    o->taus[1] = 0.1;
    o->taus[2] = 0.2;
    o->tau_main = 1;
    o->eps = 0.1;
    o->nperm = 10000;
    o->nboot = 2000;
    o->level = 0.95;
    o->seed = 1;
}

static ar_status check_opts(const calib_opts_t *o)
{
    if (o->nscales < 1 || o->nscales > CALIB_MAX_SCALES || o->ntau < 1 || o->ntau > CALIB_MAX_TAUS ||
        o->tau_main >= o->ntau) {
        ar_error_set("calib: need 1..%d scales, 1..%d taus and a main tau among them", CALIB_MAX_SCALES,
                     CALIB_MAX_TAUS);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < o->nscales; i++)
        if (!(o->scales[i] > 0) || !isfinite(o->scales[i])) {
            ar_error_set("calib: scales must be finite and > 0");
            return AR_EINVAL;
        }
    for (size_t t = 0; t < o->ntau; t++)
        if (!(o->taus[t] > 0 && o->taus[t] < 2) || (t && !(o->taus[t] > o->taus[t - 1]))) {
            ar_error_set("calib: taus must increase within (0, 2)");
            return AR_EINVAL;
        }
    if (!(o->eps > 0 && o->eps < 1)) {
        ar_error_set("calib: eps must lie in (0, 1)");
        return AR_EINVAL;
    }
    if (o->nperm < 1 || o->nboot < 1) {
        ar_error_set("calib: need at least one permutation and one bootstrap replicate");
        return AR_EINVAL;
    }
    if (!(o->level > 0 && o->level < 1)) {
        ar_error_set("calib: the interval level must lie in (0, 1)");
        return AR_EINVAL;
    }
    return AR_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n >= 1 size_t values (stride apart). */
static double median_sz(const size_t *v, size_t n, size_t stride, double *tmp)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = (double)v[i * stride];
    qsort(tmp, n, sizeof *tmp, cmp_double);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

/* Spearman's rho of (x, y) over n settings with its permutation p-value
 * (o->nperm permutations, o->seed) and its asymptotic t p-value. */
static ar_status association(const double *x, const double *y, size_t n, const calib_opts_t *o, double *rho,
                             double *p_perm, double *p_t)
{
    spearman_t s;
    ar_status st = spearman_test(x, y, n, o->nperm, o->seed, &s);
    if (st == AR_OK) {
        *rho = s.rho;
        *p_perm = s.p_perm;
        *p_t = s.p_t;
    }
    return st;
}

/* Upward-rounded radius bound: max|s| sqrt(d) + ||b||_2, then sqrt(R^2 + 1).
 * Run as an fround body in FE_UPWARD (numerics/fround.h): every operation
 * rounds up, so the result bounds the exact value. */
typedef struct {
    const double *s, *b;
    size_t d;
    double out;
} radius_ctx_t;

static FROUND_BODY void radius_body(void *vctx)
{
    radius_ctx_t *c = vctx;
    double ms = 0, bb = 0;
    for (size_t j = 0; j < c->d; j++) {
        ms = fmax(ms, fabs(c->s[j]));
        bb += c->b[j] * c->b[j];
    }
    double r = ms * sqrt((double)c->d) + sqrt(bb);
    /* margin 2^-40 for the rounding of the double forward pass (relative
     * error ~1e-15 at d <= 512; an a priori estimate, not an enclosure) */
    r = r * (1.0 + 0x1p-40);
    c->out = sqrt(r * r + 1.0);
}

static double radius_up(const double *s, const double *b, size_t d)
{
    radius_ctx_t c = { s, b, d, 0.0 };
    fround_run(FE_UPWARD, radius_body, &c);
    return c.out;
}

static ar_status weights_only(const model_heads_t *D, const calib_opts_t *o, double radius_emp, calib_setting_t *S)
{
    const model_heads_layer_t *L = &D->layer[S->layer];
    for (size_t t = 0; t < CALIB_MAX_TAUS; t++)
        S->rw_tau[t] = S->rw_tau_emp[t] = VISIBLE_NONE;
    S->rw = VISIBLE_NONE;
    S->radius = S->radius_emp = NAN;
    S->has_weights = L->WQ && L->WK && L->ln_scale && L->ln_bias;
    if (!S->has_weights)
        return AR_OK;
    size_t din = L->d_in, dh = S->dh;
    double *WQ, *WK, *bQ, *bK;
    ar_status st = model_heads_weights(D, S->layer, S->head, &WQ, &WK, &bQ, &bK);
    if (st)
        return st;
    double *AQ = ar_calloc((din + 1) * dh, sizeof(double), "augmented weights");
    double *AK = ar_calloc((din + 1) * dh, sizeof(double), "augmented weights");
    if (!AQ || !AK) {
        st = AR_ENOMEM;
        goto done;
    }
    memcpy(AQ, WQ, din * dh * sizeof(double));
    memcpy(AK, WK, din * dh * sizeof(double));
    memcpy(AQ + din * dh, bQ, dh * sizeof(double));
    memcpy(AK + din * dh, bK, dh * sizeof(double));
    S->radius = radius_up(L->ln_scale, L->ln_bias, din);
    visible_opts_t vo;
    visible_opts_default(&vo);
    vo.exact_max = 1;
    visible_bilinear_t vb;
    st = visible_bilinear(AQ, AK, din + 1, dh, S->beta, S->radius, &vo, &vb);
    if (st)
        goto done;
    S->rw = vb.r;
    st = visible_bilinear_rtau(&vb, o->taus, o->ntau, S->rw_tau, NULL);
    visible_bilinear_clear(&vb);
    if (st || !(radius_emp > 0))
        goto done;
    S->radius_emp = radius_emp;
    st = visible_bilinear(AQ, AK, din + 1, dh, S->beta, radius_emp, &vo, &vb);
    if (st)
        goto done;
    st = visible_bilinear_rtau(&vb, o->taus, o->ntau, S->rw_tau_emp, NULL);
    visible_bilinear_clear(&vb);
done:
    free(WQ); free(WK); free(bQ); free(bK); free(AQ); free(AK);
    return st;
}

/* One sentence of one setting. */
static ar_status one_sentence(const model_heads_t *D, const calib_opts_t *o, calib_setting_t *S, size_t s)
{
    pointset_t Q, K;
    ar_status st = model_heads_pointsets(D, S->layer, S->head, s, "calibration input", &Q, &K);
    if (st)
        return st;
    size_t n = D->n[s];
    S->ntok[s] = n;
    visible_opts_t vo;
    visible_opts_default(&vo);
    vo.exact_max = 1;
    visible_t v;
    bracket_opts_t bo;
    bracket_opts_default(&bo);
    if (o->threads > 0)
        bo.threads = o->threads;
    size_t vlo = 0, vup = 0;            /* the bracket through the rank-r visible logits (0: none) */
    st = visible_compute(Q.x, n, K.x, n, S->dh, S->beta, &vo, &v);
    if (!st) {
        S->r[s] = v.r;
        st = visible_rtau(&v, o->taus, o->ntau, S->r_tau + s * o->ntau, NULL);
        size_t cap = n < S->dh ? n : S->dh;
        for (size_t t = 0; t < o->ntau; t++)
            if (S->r_tau[s * o->ntau + t] == VISIBLE_NONE)
                S->r_tau[s * o->ntau + t] = cap;
        if (!st && v.r >= 1) {
            double veta;
            ar_status sv = visible_bracket_via(&v, v.r, K.w, o->eps, &bo, &vlo, &vup, &veta, NULL);
            if (sv == AR_EINVAL)
                vlo = vup = 0;          /* no slack around eps: the direct route only */
            else if (sv)
                st = sv;
            /* otherwise both ends are rigorous whatever the status; trivial ones (1, n) never win */
        }
        visible_clear(&v);
    }
    if (!st) {
        route_result_t rr;              /* every route that applies (cross-attention: the dense route) */
        st = route_bracket(&Q, &K, S->beta, o->eps, NULL, &rr);
        if (!st) {
            const bracket_t *b = &rr.b;
            S->lower[s] = vlo > b->lower ? vlo : b->lower;
            S->upper[s] = vup && vup < b->upper ? vup : b->upper;
            S->ncertified += b->status == AR_CERT_CERTIFIED;
            if (S->lower[s] > S->upper[s]) {
                ar_error_set("calib: BUG: certified lower %zu exceeds certified upper %zu", S->lower[s],
                             S->upper[s]);
                st = AR_ENUMERIC;
            }
        }
    }
    if (!st) {
        uncertified_t u;                /* not certificates: printed beside the bracket */
        st = uncertified_measures(Q.x, n, K.x, n, S->dh, S->beta, o->eps, &u);
        if (!st) {
            S->un_rank[s] = u.numrank_default;
            S->un_rank_eps[s] = u.numrank_eps;
            S->un_stable[s] = u.stable;
            S->un_eff[s] = u.effective;
        }
    }
    pointset_clear(&Q);
    pointset_clear(&K);
    return st;
}

static void summarise(const calib_opts_t *o, calib_setting_t *S, double *tmp)
{
    size_t ns = S->nsent;
    S->r_median = median_sz(S->r, ns, 1, tmp);
    for (size_t t = 0; t < o->ntau; t++) {
        S->r_tau_median[t] = median_sz(S->r_tau + t, ns, o->ntau, tmp);
        double red = 0;
        for (size_t s = 0; s < ns; s++)
            red += 1.0 - (double)S->r_tau[s * o->ntau + t] / (double)S->dh;
        S->reduction_mean[t] = red / (double)ns;
        double rv = 0;
        for (size_t s = 0; s < ns; s++)
            rv += S->r[s] ? 1.0 - (double)S->r_tau[s * o->ntau + t] / (double)S->r[s] : 0.0;
        S->reduction_vis_mean[t] = rv / (double)ns;
    }
    S->upper_median = median_sz(S->upper, ns, 1, tmp);
    S->lower_median = median_sz(S->lower, ns, 1, tmp);
    double up = 0, lo = 0, fr = 0;
    for (size_t s = 0; s < ns; s++) {
        up += (double)S->upper[s];
        lo += (double)S->lower[s];
        fr += (double)S->upper[s] / (double)S->ntok[s];
    }
    S->upper_mean = up / (double)ns;
    S->lower_mean = lo / (double)ns;
    S->upper_frac_mean = fr / (double)ns;
    double a = 0, b = 0, c = 0, e = 0;
    for (size_t s = 0; s < ns; s++) {
        double L = (double)S->lower[s], U = (double)S->upper[s];
        a += (double)S->un_rank[s];
        b += (double)S->un_rank_eps[s];
        c += S->un_stable[s];
        e += S->un_eff[s];
        S->rank_above += (double)S->un_rank[s] > U;
        S->rank_eps_below += (double)S->un_rank_eps[s] < L;
        S->rank_eps_above += (double)S->un_rank_eps[s] > U;
        S->stable_below += S->un_stable[s] < L;
        S->eff_below += S->un_eff[s] < L;
        S->eff_above += S->un_eff[s] > U;
    }
    S->un_rank_mean = a / (double)ns;
    S->un_rank_eps_mean = b / (double)ns;
    S->un_stable_mean = c / (double)ns;
    S->un_eff_mean = e / (double)ns;
}

void calib_result_clear(calib_result_t *R)
{
    if (!R)
        return;
    if (R->set)
        for (size_t i = 0; i < R->nset; i++) {
            calib_setting_t *S = &R->set[i];
            free(S->ntok); free(S->r); free(S->r_tau); free(S->lower); free(S->upper);
            free(S->un_rank); free(S->un_rank_eps); free(S->un_stable); free(S->un_eff);
        }
    free(R->set);
    free(R->layer);
    memset(R, 0, sizeof *R);
}

/* max_i ||[h_i, 1]||_2 over all inputs of layer l, every operation rounded
 * upward (an fround body run in FE_UPWARD); NaN when D has no inputs H. */
typedef struct {
    const model_heads_t *D;
    size_t l;
    double out;
} emp_ctx_t;

static FROUND_BODY void emp_radius_body(void *vctx)
{
    emp_ctx_t *c = vctx;
    const model_heads_layer_t *L = &c->D->layer[c->l];
    size_t d = L->d_in;
    double mx = 0;
    for (size_t s = 0; s < c->D->ninputs; s++) {
        if (!L->H[s]) {
            c->out = NAN;
            return;
        }
        for (size_t i = 0; i < c->D->n[s]; i++) {
            const double *h = L->H[s] + i * d;
            double ss = 1.0;
            for (size_t k = 0; k < d; k++)
                ss += h[k] * h[k];
            mx = fmax(mx, sqrt(ss));
        }
    }
    c->out = mx;
}

static double emp_radius_up(const model_heads_t *D, size_t l)
{
    if (!D->layer[l].d_in)
        return NAN;
    emp_ctx_t c = { D, l, 0.0 };
    fround_run(FE_UPWARD, emp_radius_body, &c);
    return c.out;
}

/* ---- association with a bootstrap interval over inputs ---- */

/* One model's settings for the association: S[0..ns) all run on ninputs inputs. */
typedef struct {
    const calib_setting_t *const *S;
    size_t ns, ninputs;
} assoc_group_t;

static double reduction_of(const calib_setting_t *S, const calib_opts_t *o, size_t s)
{
    return 1.0 - (double)S->r_tau[s * o->ntau + o->tau_main] / (double)S->dh;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of the sorted v[0..n) (linear interpolation, n >= 1). */
static double quantile(const double *v, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t i = (size_t)floor(pos);
    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

/* rho, permutation p and bootstrap interval over the settings of groups
 * G[0..ng) (x = mean reduction, y = mean upper end, both over inputs). */
static ar_status assoc_groups(const assoc_group_t *G, size_t ng, const calib_opts_t *o, calib_assoc_t *A)
{
    memset(A, 0, sizeof *A);
    A->rho = A->p_value = A->lo = A->hi = NAN;
    size_t ns = 0, maxin = 0;
    for (size_t g = 0; g < ng; g++) {
        ns += G[g].ns;
        maxin = G[g].ninputs > maxin ? G[g].ninputs : maxin;
    }
    A->nset = ns;
    if (ns < 2)
        return AR_OK;
    double *x = ar_calloc(ns, sizeof *x, "association"), *y = ar_calloc(ns, sizeof *y, "association");
    double *rb = ar_calloc(o->nboot, sizeof *rb, "bootstrap");
    size_t *pick = ar_calloc(maxin ? maxin : 1, sizeof *pick, "bootstrap");
    ar_status st = x && y && rb && pick ? AR_OK : AR_ENOMEM;
    size_t k = 0;
    for (size_t g = 0; !st && g < ng; g++)
        for (size_t i = 0; i < G[g].ns; i++, k++) {
            x[k] = G[g].S[i]->reduction_mean[o->tau_main];
            y[k] = G[g].S[i]->upper_mean;
        }
    if (!st)
        st = association(x, y, ns, o, &A->rho, &A->p_value, &A->p_value_t);
    rng_t rng;
    rng_init(&rng, o->seed ^ 0x9e3779b97f4a7c15ull);
    for (size_t b = 0; !st && b < o->nboot; b++) {
        k = 0;
        for (size_t g = 0; g < ng; g++) {
            size_t m = G[g].ninputs;
            for (size_t j = 0; j < m; j++)
                pick[j] = (size_t)(rng_u64(&rng) % m);
            for (size_t i = 0; i < G[g].ns; i++, k++) {
                const calib_setting_t *S = G[g].S[i];
                double sx = 0, sy = 0;
                for (size_t j = 0; j < m; j++) {
                    sx += reduction_of(S, o, pick[j]);
                    sy += (double)S->upper[pick[j]];
                }
                x[k] = sx / (double)m;
                y[k] = sy / (double)m;
            }
        }
        double r;
        if ((st = spearman_rho(x, y, ns, &r)))
            break;
        if (isfinite(r))
            rb[A->nboot_ok++] = r;
    }
    if (!st && A->nboot_ok) {
        qsort(rb, A->nboot_ok, sizeof *rb, cmp_dbl);
        A->lo = quantile(rb, A->nboot_ok, (1 - o->level) / 2);
        A->hi = quantile(rb, A->nboot_ok, (1 + o->level) / 2);
    }
    free(x); free(y); free(rb); free(pick);
    return st;
}

ar_status calib_assoc_pooled(const calib_result_t *R, size_t nr, calib_assoc_t *A)
{
    memset(A, 0, sizeof *A);
    if (nr < 1) {
        ar_error_set("calib: no results to pool");
        return AR_EINVAL;
    }
    assoc_group_t *G = ar_calloc(nr, sizeof *G, "association");
    const calib_setting_t **P = NULL;
    size_t total = 0;
    for (size_t i = 0; i < nr; i++)
        total += R[i].nset;
    if (G)
        P = ar_calloc(total ? total : 1, sizeof *P, "association");
    if (!G || !P) {
        free(G);
        return AR_ENOMEM;
    }
    ar_status st = AR_OK;
    for (size_t i = 0, k = 0; i < nr; i++) {
        G[i].S = P + k;
        G[i].ns = R[i].nset;
        G[i].ninputs = R[i].nsent;
        for (size_t j = 0; j < R[i].nset; j++)
            P[k++] = &R[i].set[j];
        if (R[i].opts.ntau != R[0].opts.ntau || R[i].opts.taus[R[i].opts.tau_main] != R[0].opts.taus[R[0].opts.tau_main]) {
            ar_error_set("calib: results with different taus cannot be pooled");
            st = AR_EINVAL;
        }
    }
    if (!st)
        st = assoc_groups(G, nr, &R[0].opts, A);
    free(G);
    free(P);
    return st;
}

/* The settings of one model in the stored order (layer by layer, then head,
 * then scale), each with its identity and zeroed per-input arrays. */
ar_status calib_alloc(calib_result_t *R, const calib_opts_t *o, const char *model, size_t nlayers,
                      const size_t *nheads, const size_t *dh, const double *logit_scale, size_t nsent)
{
    memset(R, 0, sizeof *R);
    ar_status st = check_opts(o);
    if (st)
        return st;
    if (nlayers < 1 || nsent < 1) {
        ar_error_set("calib: a model needs at least one layer and one input");
        return AR_EINVAL;
    }
    R->opts = *o;
    R->opts.progress = NULL;
    R->opts.progress_ctx = NULL;
    R->nsent = nsent;
    R->nlayers = nlayers;
    snprintf(R->model, sizeof R->model, "%s", model);
    for (size_t l = 0; l < nlayers; l++) {
        if (nheads[l] < 1 || dh[l] < 1 || !(logit_scale[l] > 0) || !isfinite(logit_scale[l])) {
            ar_error_set("calib: layer %zu needs heads, a head dimension and a finite logit scale > 0", l);
            return AR_EINVAL;
        }
        R->nset += nheads[l] * o->nscales;
    }
    R->layer = ar_calloc(nlayers, sizeof *R->layer, "calibration");
    R->set = ar_calloc(R->nset, sizeof *R->set, "calibration settings");
    if (!R->layer || !R->set) {
        calib_result_clear(R);
        return AR_ENOMEM;
    }
    size_t i = 0, ns = nsent;
    for (size_t l = 0; l < nlayers; l++)
        for (size_t h = 0; h < nheads[l]; h++)
            for (size_t c = 0; c < o->nscales; c++, i++) {
                calib_setting_t *S = &R->set[i];
                S->layer = l;
                S->head = h;
                S->scale = o->scales[c];
                S->dh = dh[l];
                S->beta = S->scale * logit_scale[l];
                S->nsent = ns;
                S->ntok = ar_calloc(ns, sizeof(size_t), "calibration");
                S->r = ar_calloc(ns, sizeof(size_t), "calibration");
                S->r_tau = ar_calloc(ns * o->ntau, sizeof(size_t), "calibration");
                S->lower = ar_calloc(ns, sizeof(size_t), "calibration");
                S->upper = ar_calloc(ns, sizeof(size_t), "calibration");
                S->un_rank = ar_calloc(ns, sizeof(size_t), "calibration");
                S->un_rank_eps = ar_calloc(ns, sizeof(size_t), "calibration");
                S->un_stable = ar_calloc(ns, sizeof(double), "calibration");
                S->un_eff = ar_calloc(ns, sizeof(double), "calibration");
                if (!S->ntok || !S->r || !S->r_tau || !S->lower || !S->upper || !S->un_rank || !S->un_rank_eps ||
                    !S->un_stable || !S->un_eff) {
                    calib_result_clear(R);
                    return AR_ENOMEM;
                }
            }
    return AR_OK;
}

ar_status calib_begin(const model_heads_t *D, const calib_opts_t *o, calib_result_t *R)
{
    memset(R, 0, sizeof *R);
    ar_status st = check_opts(o);
    if (st)
        return st;
    if ((st = model_heads_validate(D)))
        return st;
    size_t *nh = ar_calloc(D->nlayers, sizeof *nh, "calibration"), *dh = ar_calloc(D->nlayers, sizeof *dh, "calibration");
    double *sc = ar_calloc(D->nlayers, sizeof *sc, "calibration");
    if (!nh || !dh || !sc)
        st = AR_ENOMEM;
    for (size_t l = 0; !st && l < D->nlayers; l++) {
        nh[l] = D->layer[l].nheads;
        dh[l] = D->layer[l].dh;
        sc[l] = D->layer[l].scale;
    }
    if (!st)
        st = calib_alloc(R, o, D->name, D->nlayers, nh, dh, sc, D->ninputs);
    free(nh);
    free(dh);
    free(sc);
    return st;
}

double calib_setting_cost(const size_t *ntok, size_t ninputs, size_t dh)
{
    double c = 0;
    for (size_t s = 0; s < ninputs; s++) {
        double n = (double)ntok[s];
        c += n * n * (n + (double)dh);
    }
    return c;
}

/* The progress count of a run (shared by its threads: mu, when not NULL, serialises the count
 * and the callback). */
typedef struct {
    size_t done, total;
    pthread_mutex_t *mu;
} calib_tally_t;

static void tally_one(const calib_opts_t *o, calib_tally_t *t)
{
    if (t->mu)
        pthread_mutex_lock(t->mu);
    ++t->done;
    if (o->progress)
        o->progress(t->done, t->total, o->progress_ctx);
    if (t->mu)
        pthread_mutex_unlock(t->mu);
}

/* Setting S of D: weights-only (remp: emp_radius_up of its layer), every
 * input, summaries; progress per input. */
static ar_status setting_run(const model_heads_t *D, const calib_opts_t *o, double remp, calib_setting_t *S,
                             calib_tally_t *tally)
{
    if (S->layer >= D->nlayers || S->head >= D->layer[S->layer].nheads || S->nsent != D->ninputs ||
        S->dh != D->layer[S->layer].dh) {
        ar_error_set("calib: setting (layer %zu, head %zu) is not one of model '%s'", S->layer, S->head, D->name);
        return AR_EINVAL;
    }
    double ts = clock_now();
    /* One BLAS thread for the setting: its matrices are small (one input's
     * tokens), and LAPACK's floating-point by-products (the uncertified
     * stable and effective ranks) then do not move with OPENBLAS_NUM_THREADS,
     * so shards computed with other thread counts merge to the same numbers. */
    blas_single_begin();
    ar_status st = weights_only(D, o, remp, S);
    for (size_t s = 0; !st && s < S->nsent; s++) {
        st = one_sentence(D, o, S, s);
        tally_one(o, tally);
    }
    blas_single_end();
    if (!st)
        st = calib_setting_summarise(o, S);
    S->seconds = clock_now() - ts;
    return st;
}

ar_status calib_setting_run(const model_heads_t *D, const calib_opts_t *o, calib_setting_t *S)
{
    calib_tally_t tally = {.done = 0, .total = S->nsent, .mu = NULL};
    calib_opts_t q = *o;
    q.progress = NULL;
    if (S->layer >= D->nlayers) {
        ar_error_set("calib: setting (layer %zu, head %zu) is not one of model '%s'", S->layer, S->head, D->name);
        return AR_EINVAL;
    }
    return setting_run(D, &q, emp_radius_up(D, S->layer), S, &tally);
}

ar_status calib_setting_summarise(const calib_opts_t *o, calib_setting_t *S)
{
    if (S->nsent < 1) {
        ar_error_set("calib: a setting without inputs");
        return AR_EINVAL;
    }
    double *tmp = ar_calloc(S->nsent, sizeof *tmp, "medians");
    if (!tmp)
        return AR_ENOMEM;
    S->rank_above = S->rank_eps_below = S->rank_eps_above = S->stable_below = S->eff_below = S->eff_above = 0;
    summarise(o, S, tmp);
    free(tmp);
    return AR_OK;
}

ar_status calib_finish(calib_result_t *R)
{
    const calib_opts_t *o = &R->opts;
    size_t ns = R->nsent;
    ar_status st = AR_OK;
    const calib_setting_t **P = ar_calloc(R->nset ? R->nset : 1, sizeof *P, "association");
    if (!P)
        return AR_ENOMEM;
    for (size_t k = 0; k < R->nset; k++)
        P[k] = &R->set[k];
    assoc_group_t G = { P, R->nset, ns };
    st = assoc_groups(&G, 1, o, &R->all);
    for (size_t l = 0, first = 0; !st && l < R->nlayers; l++) {   /* settings are stored layer by layer */
        size_t per = 0;
        while (first + per < R->nset && R->set[first + per].layer == l)
            per++;
        assoc_group_t Gl = { P + first, per, ns };
        st = assoc_groups(&Gl, 1, o, &R->layer[l]);
        first += per;
    }
    for (size_t c = 0; !st && c < o->nscales; c++) {             /* at one temperature scale, across heads */
        size_t k = 0;
        for (size_t j = 0; j < R->nset; j++)
            if (R->set[j].scale == o->scales[c])
                P[k++] = &R->set[j];
        assoc_group_t Gc = { P, k, ns };
        st = assoc_groups(&Gc, 1, o, &R->at_scale[c]);
    }
    free(P);
    if (!st) {
        double *z = ar_calloc(R->nset, sizeof *z, "association"), *w = ar_calloc(R->nset, sizeof *w, "association"),
               *y = ar_calloc(R->nset, sizeof *y, "association");
        if (!z || !w || !y)
            st = AR_ENOMEM;
        for (size_t k = 0; !st && k < R->nset; k++) {
            z[k] = R->set[k].r_tau_median[o->tau_main];
            w[k] = R->set[k].reduction_vis_mean[o->tau_main];
            y[k] = R->set[k].upper_mean;
        }
        if (!st && R->nset >= 2)
            st = association(z, y, R->nset, o, &R->spearman_rtau, &R->p_value_rtau, &R->p_value_rtau_t);
        if (!st && R->nset >= 2)
            st = association(w, y, R->nset, o, &R->spearman_vis, &R->p_value_vis, &R->p_value_vis_t);
        if (R->nset < 2)
            R->spearman_rtau = R->p_value_rtau = R->p_value_rtau_t = R->spearman_vis = R->p_value_vis =
                R->p_value_vis_t = NAN;
        free(z); free(w); free(y);
    }
    return st;
}

/* The settings of one calib_run side by side: each is computed on its own (every number it holds
 * is its own, and every computation in it gives the same bits for any thread count), so the
 * result does not depend on which thread ran which setting nor on how many there were. */
typedef struct {
    const model_heads_t *D;
    const calib_opts_t *o;
    calib_result_t *R;
    const double *remp;         /* per layer */
    ar_status *st;              /* per setting (AR_OK: done or not run) */
    char (*msg)[256];           /* per setting: its error message */
    atomic_size_t next;
    atomic_int failed;
    calib_tally_t tally;
} calib_par_t;

static void calib_worker(void *arg)
{
    calib_par_t *P = *(calib_par_t **)arg;
    calib_opts_t q = *P->o;
    q.threads = 1;                      /* the parallelism is across settings */
    for (;;) {
        size_t i = atomic_fetch_add(&P->next, 1);
        if (i >= P->R->nset || atomic_load(&P->failed))
            break;
        calib_setting_t *S = &P->R->set[i];
        if ((P->st[i] = setting_run(P->D, &q, P->remp[S->layer], S, &P->tally)) != AR_OK) {
            snprintf(P->msg[i], sizeof P->msg[i], "%s", ar_error_get());
            atomic_store(&P->failed, 1);
        }
    }
}

ar_status calib_run(const model_heads_t *D, const calib_opts_t *o, calib_result_t *R)
{
    double t0 = clock_now();
    ar_status st = calib_begin(D, o, R);
    if (st)
        return st;
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    calib_par_t P = {.D = D, .o = o, .R = R, .tally = {.done = 0, .total = R->nset * R->nsent, .mu = &mu},
                     };
    double *remp = ar_calloc(D->nlayers ? D->nlayers : 1, sizeof *remp, "calibration radii");
    P.st = remp ? ar_calloc(R->nset ? R->nset : 1, sizeof *P.st, "calibration statuses") : NULL;
    P.msg = P.st ? ar_calloc(R->nset ? R->nset : 1, sizeof *P.msg, "calibration messages") : NULL;
    if (!P.msg)
        st = AR_ENOMEM;
    for (size_t l = 0; !st && l < D->nlayers; l++)
        remp[l] = emp_radius_up(D, l);   /* the empirical input radius, once per layer */
    if (!st) {
        ar_config_t one = *ar_config();
        one.threads = 1;
        P.remp = remp;
        atomic_init(&P.next, 0);
        atomic_init(&P.failed, 0);
        int nt = o->threads > 0 ? o->threads : par_threads();   /* --threads, or attnrank's count */
        if (nt > PAR_MAX_JOBS)
            nt = PAR_MAX_JOBS;
        if ((size_t)nt > R->nset)
            nt = R->nset ? (int)R->nset : 1;
        calib_par_t *jobs[PAR_MAX_JOBS];
        for (int t = 0; t < nt; t++)
            jobs[t] = &P;
        par_run_as(nt, calib_worker, flint_cleanup, jobs, sizeof jobs[0], &one);
        for (size_t i = 0; i < R->nset && !st; i++)     /* the first failed setting, in order */
            if ((st = P.st[i]) != AR_OK)
                ar_error_set("%s", P.msg[i]);
    }
    free(remp);
    free(P.st);
    free(P.msg);
    if (!st)
        st = calib_finish(R);
    R->seconds = clock_now() - t0;
    if (st)
        calib_result_clear(R);
    return st;
}
