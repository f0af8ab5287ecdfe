/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_poly_instance.c -- the instance error bound of a zonal polynomial: a-priori
 * constants of the stored points, the per-cell table and the O(n^2 d) pass in
 * upward rounding (two threads)
 * (see cert_poly.h and proofs-notes/polynomial-certificate.md). */
#include "theory/certificates/cert_poly.h"
#include "theory/certificates/cert_poly_impl.h"

#include <fenv.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "base/cancel.h"
#include "numerics/fround.h"

typedef struct {
    const double *x;
    size_t n, d;
    const double *wu, *wd;
    const double *dtab;    /* 2 per cell: Gd <= g(a_k - pad2), Bd <= beta Gd */
    const double *ntab;    /* 4K per cell: E, E1, C, S2h */
    int K;
    long ncell;
    double H, invH, r, pad2;
    int tid, nth;
    double *num;           /* K*n, thread-private */
    double *negden;        /* n, thread-private */
} pass_t;

/* Body, in FE_UPWARD: one thread's share of the O(n^2) pass. */
static FROUND_BODY void pass_body(void *arg)
{
    pass_t *p = arg;
    const size_t n = p->n, d = p->d;
    const int K = p->K;
    const long ncell = p->ncell;
    const double H = p->H, invH = p->invH, r = p->r, pad2 = p->pad2;
    for (size_t i = (size_t)p->tid; i < n; i += (size_t)p->nth) {
        const double *xi = p->x + i * d;
        double acc[CP_MAXK] = {0}, nd = 0;
        double wui = p->wu ? p->wu[i] : 1.0, wdi = p->wd ? p->wd[i] : 1.0;
        for (size_t j = i; j < n; j++) {
            const double *xj = p->x + j * d;
            double t = 0;
            for (size_t c = 0; c < d; c++)
                t += xi[c] * xj[c];
            double u = (t + 1.0) * invH;
            long k = u > 0 ? (long)u : 0;
            if (k >= ncell)
                k = ncell - 1;
            double a = (double)k * H - 1.0;                 /* exact */
            /* denominator: g(t) >= Gd + Bd (t - (a - pad2)), t >= t^ - r */
            const double *dt = p->dtab + 2 * k;
            double tmp = (a - pad2) + r;                    /* up */
            double xl = -(tmp - t);                         /* <= t^ - r - (a - pad2) */
            if (xl < 0)
                xl = 0;
            double negterm = (-dt[1]) * xl - dt[0];         /* >= -(Gd + Bd xl) */
            /* numerator */
            double xc = t - a;
            double x2 = xc * xc;
            const double *nt = p->ntab + (size_t)k * 4 * (size_t)K;
            double wuj = p->wu ? p->wu[j] : 1.0, wdj = p->wd ? p->wd[j] : 1.0;
            for (int q = 0; q < K; q++) {
                double E = nt[4 * q], E1 = nt[4 * q + 1], C = nt[4 * q + 2], S = nt[4 * q + 3];
                double y1 = E + xc * E1;
                double y2 = (-E) + (-xc) * E1;
                double y = y1 > y2 ? y1 : y2;
                double N = y + C + x2 * S;
                acc[q] += wuj * N;
                if (j != i)
                    p->num[(size_t)q * n + j] += wui * N;
            }
            nd += wdj * negterm;
            if (j != i)
                p->negden[j] += wdi * negterm;
        }
        for (int q = 0; q < K; q++)
            p->num[(size_t)q * n + i] += acc[q];
        p->negden[i] += nd;
    }
}

static void *pass_run(void *arg)
{
    fround_run(FE_UPWARD, pass_body, arg);
    return NULL;
}



void inst_clear(inst_t *I)
{
    free(I->wu);
    free(I->wd);
    I->wu = I->wd = NULL;
}

/* Validate P and compute the a-priori constants (rigorous). */
/* Body, in FE_UPWARD: the radii of inst_t from I->d and I->nu. */
static FROUND_BODY void inst_radii(void *arg)
{
    inst_t *I = arg;
    double dd = (double)I->d, nu = I->nu;
    double gam = dd * 0x1p-52 / (1.0 - dd * 0x1p-52);       /* gamma_d for u = 2^-52 */
    I->r = gam * (1.0 + nu) * (1.0 + nu) + dd * 0x1p-1074;  /* |t^ - t| <= r */
    I->delta = 2.0 * nu + nu * nu;                          /* |t - th| <= delta */
    I->rho = I->r + I->delta + 0x1p-50;                     /* |x_true - x_c| <= rho */
    double need = I->r + I->delta + 0x1p-49;
    double pad2 = 0x1p-48;
    while (pad2 < need)
        pad2 *= 2;
    I->pad2 = pad2;
}

ar_status inst_prepare(const pointset_t *P, double beta, inst_t *I)
{
    memset(I, 0, sizeof *I);
    if (!P || !P->x || P->n < 1 || P->d < 2 || P->d > 4096) {
        ar_error_set("poly: need a point set with n >= 1 and 2 <= d <= 4096");
        return AR_EINVAL;
    }
    if (!cp_beta_ok(beta)) {
        ar_error_set("poly: beta=%g must be finite, >= 0 (and <= %g)", beta, POLY_BETA_MAX);
        return AR_EINVAL;
    }
    ar_status st = pointset_validate(P);
    if (st != AR_OK)
        return st;
    I->n = P->n;
    I->d = P->d;
    arb_t s, t;
    arb_init(s);
    arb_init(t);
    double nu = 0;
    for (size_t i = 0; i < P->n; i++) {
        arb_zero(s);
        for (size_t c = 0; c < P->d; c++) {
            arb_set_d(t, P->x[i * P->d + c]);
            arb_addmul(s, t, t, 256);
        }
        arb_sqrt(s, s, 256);
        arb_sub_ui(s, s, 1, 256);
        double e = fmax(arbd_ub(s), -arbd_lb(s));
        if (!(e <= CP_NORM_TOL)) {
            arb_clear(s);
            arb_clear(t);
            ar_error_set("poly: point %zu is not on the unit sphere (| |x| - 1 | = %.3g > %g)", i, e,
                         CP_NORM_TOL);
            return AR_EINVAL;
        }
        nu = fmax(nu, e);
    }
    arb_clear(s);
    arb_clear(t);
    if (!((double)P->d * 0x1p-52 < 0.5)) {
        ar_error_set("poly: dimension too large");
        return AR_EINVAL;
    }
    I->nu = nu;
    fround_run(FE_UPWARD, inst_radii, I);
    if (P->w) {
        I->wu = ar_calloc(P->n, sizeof(double), "poly weights");
        I->wd = ar_calloc(P->n, sizeof(double), "poly weights");
        if (!I->wu || !I->wd) {
            inst_clear(I);
            return AR_ENOMEM;
        }
        fmpz_t mx;
        fmpz_init(mx);
        fmpz_set(mx, P->w);
        for (size_t i = 1; i < P->n; i++)
            if (fmpz_cmp(P->w + i, mx) > 0)
                fmpz_set(mx, P->w + i);
        arb_t q, den;
        arb_init(q);
        arb_init(den);
        arb_set_fmpz(den, mx);
        for (size_t i = 0; i < P->n; i++) {
            arb_set_fmpz(q, P->w + i);
            arb_div(q, q, den, 128);
            I->wu[i] = arbd_ub(q);
            I->wd[i] = fmax(arbd_lb(q), 0.0);
        }
        arb_clear(q);
        arb_clear(den);
        fmpz_clear(mx);
    }
    return AR_OK;
}


typedef struct {
    const inst_t *I;
    const taylor_t *T;
    int K;
    double beta, a, glo, gup, dlo, ebHs, Hx;
    double *dt, *nt;    /* this cell's 2 + 4K table entries */
    int bad;            /* out: index of a polynomial with a non-finite entry, or -1 */
} table_ctx;

/* Body, in FE_UPWARD: the table entries of one cell. */
static FROUND_BODY void table_cell(void *arg)
{
    table_ctx *x = arg;
    const inst_t *I = x->I;
    double beta = x->beta, Hx = x->Hx;
    x->dt[0] = x->dlo;
    x->dt[1] = dn_mul(beta, x->dlo);
    for (int q = 0; q < x->K; q++) {
        cell_t c;
        cell_eval(&x->T[q], beta, x->a, x->glo, x->gup, x->ebHs, &c);
        double C = c.errE + Hx * c.errE1 + I->rho * (fabs(c.E1) + c.errE1)
                 + (2.0 * I->rho * Hx + I->rho * I->rho) * c.S2h + I->delta * beta * c.gmax;
        double *nt = x->nt + 4 * (size_t)q;
        nt[0] = c.E;
        nt[1] = c.E1;
        nt[2] = C;
        nt[3] = c.S2h;
        if (!isfinite(C) || !isfinite(c.S2h) || !isfinite(c.E) || !isfinite(c.E1)) {
            x->bad = q;
            return;
        }
    }
}

typedef struct {
    const pass_t *pa;
    int nth, K;
    size_t n;
    double *errs;       /* out: K bounds */
} ratio_ctx;

/* Body, in FE_UPWARD: errs[q] >= max_i num_qi / den_i over the thread sums. */
static FROUND_BODY void pass_ratios(void *arg)
{
    ratio_ctx *x = arg;
    const pass_t *pa = x->pa;
    size_t n = x->n;
    double *errs = x->errs;
    for (int q = 0; q < x->K; q++)
        errs[q] = 0;
    for (size_t i = 0; i < n; i++) {
        double nd = 0;
        for (int t = 0; t < x->nth; t++)
            nd += pa[t].negden[i];
        double den = -nd;
        for (int q = 0; q < x->K; q++) {
            double num = 0;
            for (int t = 0; t < x->nth; t++)
                num += pa[t].num[(size_t)q * n + i];
            double e = den > 0 ? num / den : INFINITY;
            if (!(e <= errs[q]))
                errs[q] = isnan(e) ? INFINITY : e;
        }
    }
}

ar_status inst_errors(const inst_t *I, const pointset_t *P, double beta, int K,
                             const double *const *coefs, const unsigned long *Ls, double *errs)
{
    if (K < 1 || K > CP_MAXK) {
        ar_error_set("poly_instance_errors: 1 <= k <= %d polynomials per pass", CP_MAXK);
        return AR_EINVAL;
    }
    ar_status cst = cancel_check();      /* one check per O(n^2 d) pass */
    if (cst)
        return cst;
    unsigned long Lmax = 0;
    for (int q = 0; q < K; q++) {
        if (Ls[q] > CP_MAXL) {
            ar_error_set("poly_instance_errors: degree %lu > %lu", Ls[q], CP_MAXL);
            return AR_EINVAL;
        }
        Lmax = Ls[q] > Lmax ? Ls[q] : Lmax;
    }
    int h = cp_cell_exp(beta, Lmax, 32.0, 10, 21);
    long ncell = 2L << h;
    double H = ldexp(1.0, -h);
    size_t n = I->n;
    ar_status st = AR_OK;
    double *dtab = ar_calloc((size_t)ncell * 2, sizeof(double), "poly denominator table");
    double *ntab = ar_calloc((size_t)ncell * 4 * (size_t)K, sizeof(double), "poly numerator table");
    double *acc = ar_calloc((size_t)CP_THREADS * (size_t)(K + 1) * n, sizeof(double), "poly row sums");
    taylor_t T[CP_MAXK];
    memset(T, 0, sizeof T);
    if (!dtab || !ntab || !acc) {
        st = AR_ENOMEM;
        goto done;
    }
    double Hx = fround_add_up(H, I->pad2);
    double Hs = fround_add_up(Hx, I->rho);
    double ebHs = cp_exp_up(beta, Hs);
    for (int q = 0; q < K; q++) {
        st = taylor_init(&T[q], coefs[q], Ls[q] + 1, Hs);
        if (st != AR_OK)
            goto done;
    }
    for (long k = 0; k < ncell; k++) {
        double a = (double)k * H - 1.0;
        double glo, gup, dlo, dup;
        cp_g(beta, a, &glo, &gup);
        cp_g(beta, a - I->pad2, &dlo, &dup);
        table_ctx tc = {.I = I, .T = T, .K = K, .beta = beta, .a = a, .glo = glo, .gup = gup,
                        .dlo = dlo, .ebHs = ebHs, .Hx = Hx, .dt = dtab + 2 * k,
                        .nt = ntab + (size_t)k * 4 * (size_t)K, .bad = -1};
        fround_run(FE_UPWARD, table_cell, &tc);
        if (tc.bad >= 0) {
            ar_error_set("poly: non-finite table entry (cell %ld, degree %lu)", k, Ls[tc.bad]);
            st = AR_ENUMERIC;
            goto done;
        }
    }
    pthread_t th[CP_THREADS];
    pass_t pa[CP_THREADS];
    int nth = n >= 64 ? CP_THREADS : 1;
    for (int t = 0; t < nth; t++) {
        pass_t *p = &pa[t];
        p->x = P->x;
        p->n = n;
        p->d = I->d;
        p->wu = I->wu;
        p->wd = I->wd;
        p->dtab = dtab;
        p->ntab = ntab;
        p->K = K;
        p->ncell = ncell;
        p->H = H;
        p->invH = 1.0 / H;
        p->r = I->r;
        p->pad2 = I->pad2;
        p->tid = t;
        p->nth = nth;
        p->num = acc + (size_t)t * (size_t)(K + 1) * n;
        p->negden = p->num + (size_t)K * n;
    }
    int started = 0;
    for (int t = 1; t < nth; t++) {
        if (pthread_create(&th[t], NULL, pass_run, &pa[t]) != 0)
            break;
        started++;
    }
    pass_run(&pa[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(th[t], NULL);
    if (started < nth - 1)           /* run the threads that could not start */
        for (int t = started + 1; t < nth; t++)
            pass_run(&pa[t]);
    ratio_ctx rc = {.pa = pa, .nth = nth, .n = n, .K = K, .errs = errs};
    fround_run(FE_UPWARD, pass_ratios, &rc);
done:
    for (int q = 0; q < K; q++)
        taylor_clear(&T[q]);
    free(dtab);
    free(ntab);
    free(acc);
    return st;
}

ar_status poly_instance_errors(const pointset_t *P, double beta, int k, const double *const *coefs,
                               const unsigned long *Ls, double *errs)
{
    inst_t I;
    ar_status st = inst_prepare(P, beta, &I);
    if (st != AR_OK)
        return st;
    st = inst_errors(&I, P, beta, k, coefs, Ls, errs);
    inst_clear(&I);
    return st;
}

ar_status poly_instance_error(const pointset_t *P, double beta, const double *coef, unsigned long L,
                              double *err_bound)
{
    const double *cs[1] = {coef};
    unsigned long Ls[1] = {L};
    return poly_instance_errors(P, beta, 1, cs, Ls, err_bound);
}
