/* calib.c -- claim E calibration on the real model (see calib.h). */
#include "theory/heads/calib.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/clock.h"
#include "numerics/fround.h"
#include "numerics/spearman.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/route.h"
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
    if (o->nperm < 1) {
        ar_error_set("calib: need at least one permutation");
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

static ar_status weights_only(const real_model_t *M, const calib_opts_t *o, double radius_emp, calib_setting_t *S)
{
    const real_layer_t *L = &M->layer[S->layer];
    size_t din = L->d_in, dh = S->dh;
    double *WQ, *WK, *bQ, *bK;
    ar_status st = real_head_weights(M, S->layer, S->head, &WQ, &WK, &bQ, &bK);
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
    if (st)
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
static ar_status one_sentence(const real_model_t *M, const real_acts_t *A, const calib_opts_t *o,
                              calib_setting_t *S, size_t s)
{
    pointset_t Q, K;
    ar_status st = real_head_pointsets(M, A, S->layer, S->head, "calibration sentence", &Q, &K);
    if (st)
        return st;
    size_t n = A->n;
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
            S->ncertified += strcmp(b->status, "certified") == 0;
            if (S->lower[s] > S->upper[s]) {
                ar_error_set("calib: BUG: certified lower %zu exceeds certified upper %zu", S->lower[s],
                             S->upper[s]);
                st = AR_ENUMERIC;
            }
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
}

void calib_result_clear(calib_result_t *R)
{
    if (!R)
        return;
    if (R->set)
        for (size_t i = 0; i < R->nset; i++) {
            calib_setting_t *S = &R->set[i];
            free(S->ntok); free(S->r); free(S->r_tau); free(S->lower); free(S->upper);
        }
    free(R->set);
    memset(R, 0, sizeof *R);
}

/* max_i ||[h_i, 1]||_2 over all sentences for layer l, every operation
 * rounded upward (an fround body run in FE_UPWARD). */
typedef struct {
    const real_model_t *M;
    const real_acts_t *acts;
    size_t ns, l;
    double out;
} emp_ctx_t;

static FROUND_BODY void emp_radius_body(void *vctx)
{
    emp_ctx_t *c = vctx;
    size_t d = c->M->layer[c->l].d_in;
    double mx = 0;
    for (size_t s = 0; s < c->ns; s++)
        for (size_t i = 0; i < c->acts[s].n; i++) {
            const double *h = c->acts[s].h[c->l] + i * d;
            double ss = 1.0;
            for (size_t k = 0; k < d; k++)
                ss += h[k] * h[k];
            mx = fmax(mx, sqrt(ss));
        }
    c->out = mx;
}

static double emp_radius_up(const real_model_t *M, const real_acts_t *acts, size_t ns, size_t l)
{
    emp_ctx_t c = { M, acts, ns, l, 0.0 };
    fround_run(FE_UPWARD, emp_radius_body, &c);
    return c.out;
}

/* Token ids of every sentence through the forward pass.  Errors name the
 * sentence (its index, and its file and index in the corpus manifest) and
 * the vocabulary that encoded it. */
static ar_status forward_all(const real_model_t *M, const corpus_t *C, real_acts_t *acts)
{
    const char *vocab = M->vocab.path ? M->vocab.path : "(unnamed vocabulary)";
    for (size_t s = 0; s < C->n; s++) {
        char where[160] = "";
        if (C->entry)
            snprintf(where, sizeof where, " (%s, sentence %zu)", C->entry[s].file, C->entry[s].index);
        int *ids;
        size_t n;
        ar_status st = spm_encode(&M->vocab, C->text[s], &ids, &n);
        if (st)
            return st;
        if (n > M->max_tokens) {
            free(ids);
            ar_error_set("calib: sentence %zu%s of %zu characters becomes %zu tokens under the vocabulary %s, "
                         "the model reads at most %zu: this vocabulary does not fit the model",
                         s, where, strlen(C->text[s]), n, vocab, M->max_tokens);
            return AR_EINVAL;
        }
        if (n < 2) {
            free(ids);
            ar_error_set("calib: sentence %zu%s has fewer than 2 tokens under the vocabulary %s", s, where, vocab);
            return AR_EINVAL;
        }
        st = real_model_forward(M, ids, n, &acts[s]);
        free(ids);
        if (st) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", ar_error_get());
            ar_error_set("calib: sentence %zu%s: %s", s, where, msg);
            return st;
        }
    }
    return AR_OK;
}

ar_status calib_run(const real_model_t *M, const corpus_t *C, const calib_opts_t *o, calib_result_t *R)
{
    memset(R, 0, sizeof *R);
    ar_status st = check_opts(o);
    if (st)
        return st;
    if (C->n < 1) {
        ar_error_set("calib: empty corpus");
        return AR_EINVAL;
    }
    R->opts = *o;
    R->nsent = C->n;
    double t0 = clock_now();
    real_acts_t *acts = ar_calloc(C->n, sizeof *acts, "activations");
    double *tmp = ar_calloc(C->n, sizeof *tmp, "medians");
    if (!acts || !tmp) {
        free(acts);
        free(tmp);
        return AR_ENOMEM;
    }
    st = forward_all(M, C, acts);
    R->seconds_forward = clock_now() - t0;
    R->nset = REAL_LAYERS * REAL_HEADS * o->nscales;
    if (!st) {
        R->set = ar_calloc(R->nset, sizeof *R->set, "calibration settings");
        if (!R->set)
            st = AR_ENOMEM;
    }
    double remp[REAL_LAYERS] = { 0 };
    if (!st)
        for (size_t l = 0; l < REAL_LAYERS; l++)
            remp[l] = emp_radius_up(M, acts, C->n, l);
    size_t total = R->nset * C->n, done = 0;
    for (size_t i = 0; !st && i < R->nset; i++) {
        calib_setting_t *S = &R->set[i];
        double ts = clock_now();
        S->layer = i / (REAL_HEADS * o->nscales);
        S->head = (i / o->nscales) % REAL_HEADS;
        S->scale = o->scales[i % o->nscales];
        S->dh = real_model_head_dim(M, S->layer);
        S->beta = S->scale * M->layer[S->layer].scale;
        S->nsent = C->n;
        S->ntok = ar_calloc(C->n, sizeof(size_t), "calibration");
        S->r = ar_calloc(C->n, sizeof(size_t), "calibration");
        S->r_tau = ar_calloc(C->n * o->ntau, sizeof(size_t), "calibration");
        S->lower = ar_calloc(C->n, sizeof(size_t), "calibration");
        S->upper = ar_calloc(C->n, sizeof(size_t), "calibration");
        if (!S->ntok || !S->r || !S->r_tau || !S->lower || !S->upper) {
            st = AR_ENOMEM;
            break;
        }
        st = weights_only(M, o, remp[S->layer], S);
        for (size_t s = 0; !st && s < C->n; s++) {
            st = one_sentence(M, &acts[s], o, S, s);
            done++;
            if (o->progress)
                o->progress(done, total, o->progress_ctx);
        }
        if (!st)
            summarise(o, S, tmp);
        S->seconds = clock_now() - ts;
    }
    if (!st) {
        double *x = ar_calloc(R->nset, sizeof *x, "association"), *y = ar_calloc(R->nset, sizeof *y, "association"),
               *z = ar_calloc(R->nset, sizeof *z, "association"), *w = ar_calloc(R->nset, sizeof *w, "association");
        if (!x || !y || !z || !w)
            st = AR_ENOMEM;
        for (size_t i = 0; !st && i < R->nset; i++) {
            x[i] = R->set[i].reduction_mean[o->tau_main];
            z[i] = R->set[i].r_tau_median[o->tau_main];
            w[i] = R->set[i].reduction_vis_mean[o->tau_main];
            y[i] = R->set[i].upper_mean;
        }
        if (!st)
            st = association(x, y, R->nset, o, &R->spearman, &R->p_value, &R->p_value_t);
        if (!st)
            st = association(z, y, R->nset, o, &R->spearman_rtau, &R->p_value_rtau, &R->p_value_rtau_t);
        if (!st)
            st = association(w, y, R->nset, o, &R->spearman_vis, &R->p_value_vis, &R->p_value_vis_t);
        /* within one layer (settings are stored layer by layer) */
        size_t per = R->nset / REAL_LAYERS;
        for (size_t l = 0; !st && l < REAL_LAYERS; l++) {
            if (per >= 2)
                st = association(x + l * per, y + l * per, per, o, &R->spearman_layer[l], &R->p_value_layer[l],
                                 &R->p_value_layer_t[l]);
            else
                R->spearman_layer[l] = R->p_value_layer[l] = R->p_value_layer_t[l] = NAN;
        }
        free(x); free(y); free(z); free(w);
    }
    for (size_t s = 0; s < C->n; s++)
        real_acts_clear(&acts[s]);
    free(acts);
    free(tmp);
    R->seconds = clock_now() - t0;
    if (st)
        calib_result_clear(R);
    return st;
}
