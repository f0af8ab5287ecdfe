/* cert_poly.c -- polynomial (zonal) upper certificate on the sphere, instance
 * and continuum (see cert_poly.h and proofs-notes/polynomial-certificate.md).
 *
 * Conventions.  g(s) = exp(beta (s - 1)); q = the scaled polynomial (Chebyshev
 * coefficients), e = g - q.  Everything labelled "up" or "In FE_UPWARD mode"
 * is computed with the FPU in FE_UPWARD mode, inside fround bodies
 * (numerics/fround.h: the compiler cannot move their arithmetic out of the
 * mode); lower bounds are obtained as negated upper bounds (dn_* helpers). */
#include "theory/cert_poly.h"
#include "numerics/clock.h"

#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arb.h>
#include <arb_hypgeom.h>
#include <flint/fmpz.h>
#include "numerics/cheb.h"
#include "numerics/fround.h"
#include "numerics/lp_l1.h"
#include "theory/funkhecke.h"

#define CP_MAXDER 6          /* Taylor data q^{(j)}(a)/j!, j <= 6, per cell */
#define CP_MAXL 4000UL       /* largest degree fitted */
#define CP_MAXK 4            /* polynomials per O(n^2) pass */
#define CP_NORM_TOL 1e-12    /* accepted | |x_i| - 1 | */
#define CP_THREADS 2
#define CP_PREC 128

/* ---------- small helpers ---------- */

/* In FE_UPWARD mode: lower bounds by negation (GCC keeps these with
 * -frounding-math: sign-dependent rounding is honoured). */
static inline double dn_mul(double a, double b) { return -((-a) * b); }
static inline double dn_sub(double a, double b) { return -(b - a); }

static double arb_ub(const arb_t x)
{
    arf_t u;
    arf_init(u);
    arb_get_ubound_arf(u, x, 64);
    double r = arf_get_d(u, ARF_RND_CEIL);
    arf_clear(u);
    return r;
}

static double arb_lb(const arb_t x)
{
    arf_t u;
    arf_init(u);
    arb_get_lbound_arf(u, x, 64);
    double r = arf_get_d(u, ARF_RND_FLOOR);
    arf_clear(u);
    return r;
}

/* enclosure [lo, up] of g(a) = exp(beta (a - 1)) */
static void cp_g(double beta, double a, double *lo, double *up)
{
    arb_t s, b;
    arb_init(s);
    arb_set_d(s, a);
    arb_sub_ui(s, s, 1, CP_PREC);
    arb_init(b);
    arb_set_d(b, beta);
    arb_mul(s, s, b, CP_PREC);
    arb_exp(s, s, CP_PREC);
    *lo = arb_lb(s);
    *up = arb_ub(s);
    if (*lo < 0)
        *lo = 0;
    arb_clear(s);
    arb_clear(b);
}

/* up(exp(beta * h)) */
static double cp_exp_up(double beta, double h)
{
    arb_t s, b;
    arb_init(s);
    arb_set_d(s, h);
    arb_init(b);
    arb_set_d(b, beta);
    arb_mul(s, s, b, CP_PREC);
    arb_exp(s, s, CP_PREC);
    double r = arb_ub(s);
    arb_clear(s);
    arb_clear(b);
    return r;
}

size_t poly_dim(int d, unsigned long L)
{
    if (d < 2)
        return 0;
    fmpz_t a, b;
    fmpz_init(a);
    fmpz_init(b);
    fmpz_bin_uiui(a, L + (ulong)d - 1, (ulong)d - 1);
    fmpz_bin_uiui(b, L + (ulong)d - 2, (ulong)d - 1);
    fmpz_add(a, a, b);
    size_t r = SIZE_MAX;
    if (fmpz_sgn(a) >= 0 && fmpz_bits(a) < 63)
        r = (size_t)fmpz_get_ui(a);
    fmpz_clear(a);
    fmpz_clear(b);
    return r;
}

static int cp_beta_ok(double beta) { return isfinite(beta) && beta >= 0 && beta <= 1e7; }

/* ---------- candidate: weighted l1 fit ---------- */

ar_status poly_fit(int d, double beta, unsigned long L, double *coef, double *est)
{
    if (d < 2 || d > 64 || !cp_beta_ok(beta) || L > CP_MAXL || !coef) {
        ar_error_set("poly_fit: need 2 <= d <= 64, 0 <= beta <= 1e7, L <= %lu (got d=%d, beta=%g, L=%lu)",
                     CP_MAXL, d, beta, L);
        return AR_EINVAL;
    }
    size_t k = L + 1;
    size_t m = 24 * k;
    if (m < 2048)
        m = 2048;
    double *F = ar_calloc(m * k, sizeof(double), "poly_fit matrix");
    double *f = ar_calloc(m, sizeof(double), "poly_fit values");
    double *w = ar_calloc(m, sizeof(double), "poly_fit weights");
    if (!F || !f || !w) {
        free(F);
        free(f);
        free(w);
        return AR_ENOMEM;
    }
    double mass = 0;
    for (size_t i = 0; i < m; i++) {
        double th = M_PI * ((double)i + 0.5) / (double)m;
        double s = cos(th);
        f[i] = exp(beta * (s - 1.0));
        double wi = pow(sin(th), d - 2) * (M_PI / (double)m);
        w[i] = wi > 1e-300 ? wi : 1e-300;
        mass += w[i] * f[i];
        for (size_t j = 0; j < k; j++)
            F[i + j * m] = cos((double)j * th);
    }
    double obj = 0;
    ar_status st = lp_l1_solve(m, k, F, f, w, coef, &obj);
    if (st == AR_OK && est)
        *est = mass > 0 ? obj / mass : INFINITY;
    free(F);
    free(f);
    free(w);
    return st;
}

/* ---------- per-cell Taylor data ---------- */

typedef struct {
    size_t len;                    /* L + 1 */
    int m;                         /* highest stored Taylor order */
    double *ser[CP_MAXDER + 1];    /* Chebyshev coefficients of q^{(j)}/j! (len - j entries) */
    double R[CP_MAXDER + 1];       /* sum_k |ser[j][k] - exact| <= R[j] */
    double tail;                   /* >= sum_{j>m} max|q^{(j)}|/j! Hs^{j-2} */
    double Hs;                     /* Taylor radius */
} taylor_t;

static void taylor_clear(taylor_t *T)
{
    for (int j = 0; j <= CP_MAXDER; j++) {
        free(T->ser[j]);
        T->ser[j] = NULL;
    }
}

typedef struct {
    const taylor_t *T;
    const double *coef;
    double tail;    /* out */
} tail_ctx;

/* Body, in FE_UPWARD: tail >= sum_{k} |c_k| sum_{j=m+1}^{k} T_k^{(j)}(1)/j!
 * Hs^{j-2} (Markov brothers). */
static FROUND_BODY void taylor_tail(void *arg)
{
    tail_ctx *c = arg;
    const taylor_t *T = c->T;
    const double *coef = c->coef;
    double Hs = T->Hs;
    double tail = 0;
    for (size_t k = (size_t)T->m + 1; k < T->len; k++) {
        double v = 1, s = 0, kk = (double)k * (double)k;
        for (size_t j = 0; j < k; j++) {
            /* v = T_k^{(j)}(1)/j! Hs^j  ->  j+1 */
            v = v * (kk - (double)j * (double)j);
            v = v * Hs;
            v = v / ((double)(2 * j + 1) * (double)(j + 1));
            if (j + 1 > (size_t)T->m)
                s += v;
        }
        tail += fabs(coef[k]) * s;
    }
    c->tail = tail / (Hs * Hs);
}

static ar_status taylor_init(taylor_t *T, const double *coef, size_t len, double Hs)
{
    memset(T, 0, sizeof *T);
    T->len = len;
    T->Hs = Hs;
    T->m = (int)(len - 1 < CP_MAXDER ? len - 1 : CP_MAXDER);
    for (int j = 0; j <= T->m; j++) {
        T->ser[j] = ar_calloc(len, sizeof(double), "poly taylor series");
        if (!T->ser[j]) {
            taylor_clear(T);
            return AR_ENOMEM;
        }
    }
    for (size_t k = 0; k < len; k++) {
        if (!isfinite(coef[k])) {
            taylor_clear(T);
            ar_error_set("poly: non-finite coefficient %zu", k);
            return AR_EINVAL;
        }
        T->ser[0][k] = coef[k];
    }
    T->R[0] = 0;
    slong prec = 256;
    arb_ptr cur = _arb_vec_init((slong)len), nxt = _arb_vec_init((slong)len);
    arb_t diff;
    arb_init(diff);
    for (size_t k = 0; k < len; k++)
        arb_set_d(cur + k, coef[k]);
    for (int j = 1; j <= T->m; j++) {
        size_t lj = len - (size_t)j + 1;            /* length of current series */
        cheb_deriv_arb(nxt, cur, lj, prec);         /* lj - 1 entries */
        double R = 0;
        for (size_t k = 0; k + 1 < lj; k++) {
            arb_div_ui(nxt + k, nxt + k, (ulong)j, prec);   /* (q^{(j-1)}/(j-1)!)' / j */
            double v = arf_get_d(arb_midref(nxt + k), ARF_RND_NEAR);
            T->ser[j][k] = v;
            arb_set_d(diff, v);
            arb_sub(diff, diff, nxt + k, prec);
            double e = arb_ub(diff) > -arb_lb(diff) ? arb_ub(diff) : -arb_lb(diff);
            R = fround_add_up(R, e);
        }
        T->R[j] = R;
        _arb_vec_swap(cur, nxt, (slong)(lj - 1));
    }
    arb_clear(diff);
    _arb_vec_clear(cur, (slong)len);
    _arb_vec_clear(nxt, (slong)len);
    tail_ctx tc = {.T = T, .coef = coef};
    fround_run(FE_UPWARD, taylor_tail, &tc);
    double tail = tc.tail;
    if (!isfinite(tail)) {
        taylor_clear(T);
        ar_error_set("poly: Taylor tail bound overflows (len=%zu, Hs=%g)", len, Hs);
        return AR_ENUMERIC;
    }
    T->tail = tail;
    return AR_OK;
}

typedef struct {
    double E, errE;    /* |E - e(a)| <= errE */
    double E1, errE1;  /* |E1 - e'(a)| <= errE1 */
    double S2h;        /* |e(a+x) - e(a) - x e'(a)| <= x^2 S2h for |x| <= Hs */
    double gmax;       /* >= g(a + Hs) */
} cell_t;

/* In FE_UPWARD mode.  [glo, gup] encloses g(a); ebHs >= exp(beta Hs); a in [-1, 1]. */
static void cell_eval(const taylor_t *T, double beta, double a, double glo, double gup,
                      double ebHs, cell_t *o)
{
    double v[CP_MAXDER + 1] = {0}, ev[CP_MAXDER + 1] = {0};
    for (int j = 0; j <= T->m; j++) {
        v[j] = cheb_clenshaw(T->ser[j], T->len - (size_t)j, a, &ev[j]);
        ev[j] = ev[j] + T->R[j];
    }
    o->E = gup - v[0];
    o->errE = ev[0] + (gup - glo) + fabs(o->E) * 0x1p-52 + 0x1p-1074;
    double bgu = beta * gup, bgl = dn_mul(beta, glo);
    o->E1 = bgu - v[1];
    o->errE1 = ev[1] + (bgu - bgl) + fabs(o->E1) * 0x1p-52 + 0x1p-1074;
    double s = gup * beta * beta * 0.5 * ebHs, hp = 1;
    for (int j = 2; j <= T->m; j++) {
        s += (fabs(v[j]) + ev[j]) * hp;
        hp = hp * T->Hs;
    }
    o->S2h = s + T->tail;
    o->gmax = gup * ebHs;
}

/* ---------- instance ---------- */

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

typedef struct {
    size_t n, d;
    double nu, r, delta, rho, pad2;
    double *wu, *wd;      /* scaled multiplicities (NULL: all one) */
} inst_t;

static void inst_clear(inst_t *I)
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

static ar_status inst_prepare(const pointset_t *P, double beta, inst_t *I)
{
    memset(I, 0, sizeof *I);
    if (!P || !P->x || P->n < 1 || P->d < 2 || P->d > 4096) {
        ar_error_set("poly: need a point set with n >= 1 and 2 <= d <= 4096");
        return AR_EINVAL;
    }
    if (!cp_beta_ok(beta)) {
        ar_error_set("poly: beta=%g must be finite, >= 0 (and <= 1e7)", beta);
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
        double e = fmax(arb_ub(s), -arb_lb(s));
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
            I->wu[i] = arb_ub(q);
            I->wd[i] = fmax(arb_lb(q), 0.0);
        }
        arb_clear(q);
        arb_clear(den);
        fmpz_clear(mx);
    }
    return AR_OK;
}

/* cell exponent h: H = 2^-h */
static int cp_cell_exp(double beta, unsigned long Lmax, double kb, int hmin, int hmax)
{
    int h = hmin;
    double L2 = 4.0 * ((double)Lmax * (double)Lmax + 1.0);
    while (h < hmax && (ldexp(1.0, -h) * L2 > 1.0 || ldexp(1.0, -h) * kb * beta > 1.0))
        h++;
    return h;
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

static ar_status inst_errors(const inst_t *I, const pointset_t *P, double beta, int K,
                             const double *const *coefs, const unsigned long *Ls, double *errs)
{
    if (K < 1 || K > CP_MAXK) {
        ar_error_set("poly_instance_errors: 1 <= k <= %d polynomials per pass", CP_MAXK);
        return AR_EINVAL;
    }
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

/* In FE_UPWARD mode: upper bound of |E + x E1|. */
static double cp_lin_abs(const cell_t *c, double x)
{
    return fmax(c->E + x * c->E1, (-c->E) + (-x) * c->E1);
}

/* In FE_UPWARD mode: sup of w(s) = c_d (1 - s^2)^{(d-3)/2} over [lo, hi]
 * (for d = 2 requires max(|lo|, |hi|) < 1). */
static double cp_wsup(int d, double cd, double lo, double hi)
{
    if (d == 3)
        return cd;
    if (d == 2) {
        double sf = fmax(fabs(lo), fabs(hi));
        double base = dn_sub(1.0, sf * sf);
        if (!(base > 0))
            return INFINITY;
        double sd = dn_mul(sqrt(base), 1.0 - 0x1p-51);
        return cd / sd;
    }
    double sn = (lo <= 0 && hi >= 0) ? 0.0 : fmin(fabs(lo), fabs(hi));
    double base = 1.0 - dn_mul(sn, sn);
    double pw = 1.0;
    for (int e2 = 0; e2 + 2 <= d - 3; e2 += 2)
        pw = pw * base;
    if ((d - 3) % 2)
        pw = pw * sqrt(base);
    return cd * pw;
}

/* In FE_UPWARD mode: upper bound of int_{a+x0}^{a+x1} |e(s)| w(s) ds for
 * 0 <= x0 < x1 <= H (cell data c at anchor a): sup w times the trapezoid of
 * the convex |E + x E1| plus the integrated error terms. */
static double cp_piece(const cell_t *c, int d, double cd, double a, double x0, double x1)
{
    double len = x1 - x0;
    double trap = len * (cp_lin_abs(c, x0) + cp_lin_abs(c, x1)) * 0.5;
    double x1s = x1 * x1, x0s = dn_mul(x0, x0);
    double x1c = x1s * x1, x0c = dn_mul(x0s, x0);
    double rem = len * c->errE + (x1s - x0s) * 0.5 * c->errE1 + (x1c - x0c) / 3.0 * c->S2h;
    double slo = -((-a) - x0), shi = a + x1;     /* outward-rounded piece */
    return cp_wsup(d, cd, slo, shi) * (trap + rem);
}

typedef struct {
    const taylor_t *T;
    int d;
    long k, ncell;
    double beta, a, glo, gup, ebH, cd, wend, H;
    double acc;         /* in/out: accumulated upper bound */
} cont_ctx;

/* Body, in FE_UPWARD: adds cell k's share of the continuum integral to acc. */
static FROUND_BODY void cont_cell(void *arg)
{
    cont_ctx *x = arg;
    const taylor_t *T = x->T;
    int d = x->d;
    long k = x->k, ncell = x->ncell;
    double beta = x->beta, a = x->a, glo = x->glo, gup = x->gup, ebH = x->ebH, cd = x->cd;
    double wend = x->wend, H = x->H, acc = x->acc;
    cell_t c;
    cell_eval(T, beta, a, glo, gup, ebH, &c);
    if (d == 2 && (k == 0 || k == ncell - 1)) {
        /* w unbounded at the end: a tiny end piece by sup|e| * mu(piece), the
         * rest in dyadic ranges, each split uniformly */
        double us = ldexp(H, -20);
        int left = (k == 0);                   /* singular end at x = 0 (s = -1) */
        double x0 = left ? 0.0 : H - us, x1 = left ? us : H;
        double sup = fmax(cp_lin_abs(&c, x0), cp_lin_abs(&c, x1)) + c.errE + H * c.errE1 + H * H * c.S2h;
        acc += sup * wend;
        for (int jd = 0; jd < 20; jd++) {
            double u0 = ldexp(H, -jd - 1), u1 = ldexp(H, -jd);   /* distance from the end */
            for (int q = 0; q < 512; q++) {
                double v0 = u0 + (u1 - u0) * q / 512.0, v1 = u0 + (u1 - u0) * (q + 1) / 512.0;
                if (q == 511)
                    v1 = u1;
                double y0 = left ? v0 : H - v1, y1 = left ? v1 : H - v0;
                acc += cp_piece(&c, d, cd, a, y0, y1);
            }
        }
    } else {
        /* split when the weight varies by more than ~5e-4 across the cell */
        double wa = cp_wsup(d, cd, a, a), wb = cp_wsup(d, cd, a + H, a + H);
        double wmn = fmin(wa, wb), wmx = fmax(wa, wb);
        long S = 1;
        if (d != 3) {
            if (!(wmn > 0))
                S = 4096;
            else if (wmx > wmn * (1 + 5e-4))
                S = (long)fmin(4096.0, ceil((wmx / wmn - 1.0) / 5e-4));
        }
        for (long q = 0; q < S; q++) {
            double y0 = H * (double)q / (double)S, y1 = q + 1 == S ? H : H * (double)(q + 1) / (double)S;
            acc += cp_piece(&c, d, cd, a, y0, y1);
        }
    }
    x->acc = acc;
}

/* ---------- continuum ---------- */

ar_status poly_continuum_error(int d, double beta, const double *coef, unsigned long L,
                               double *err_bound)
{
    if (d < 2 || d > 64 || !cp_beta_ok(beta) || L > CP_MAXL) {
        ar_error_set("poly_continuum_error: need 2 <= d <= 64, 0 <= beta <= 1e7, L <= %lu", CP_MAXL);
        return AR_EINVAL;
    }
    double kb = 256.0 * (d > 5 ? (double)(d - 3) / 2.0 : 1.0);
    int h = cp_cell_exp(beta, L, kb, 10, 21);
    long ncell = 2L << h;
    double H = ldexp(1.0, -h);
    taylor_t T;
    ar_status st = taylor_init(&T, coef, L + 1, H);
    if (st != AR_OK)
        return st;
    double ebH = cp_exp_up(beta, H);
    /* c_d = Gamma(d/2) / (sqrt(pi) Gamma((d-1)/2)); the end-cell mass for d = 2 */
    double cd, wend = 0, lam0;
    {
        arb_t a, b;
        arb_init(a);
        arb_init(b);
        arb_set_ui(a, (ulong)d);
        arb_mul_2exp_si(a, a, -1);
        arb_gamma(a, a, CP_PREC);
        arb_set_ui(b, (ulong)d - 1);
        arb_mul_2exp_si(b, b, -1);
        arb_gamma(b, b, CP_PREC);
        arb_div(a, a, b, CP_PREC);
        arb_const_sqrt_pi(b, CP_PREC);
        arb_div(a, a, b, CP_PREC);
        cd = arb_ub(a);
        if (d == 2) {              /* mu_2([1-u, 1]) = acos(1 - u) / pi, u = H 2^-20 */
            arb_set_d(a, 1.0 - ldexp(H, -20));
            arb_acos(a, a, CP_PREC);
            arb_const_pi(b, CP_PREC);
            arb_div(a, a, b, CP_PREC);
            wend = arb_ub(a);
        }
        st = fh_eigenvalue_scaled(a, d, 0, beta, CP_PREC);
        lam0 = arb_lb(a);
        arb_clear(a);
        arb_clear(b);
        if (st != AR_OK) {
            taylor_clear(&T);
            return st;
        }
    }
    cont_ctx cc = {.T = &T, .d = d, .beta = beta, .ebH = ebH, .cd = cd, .wend = wend, .H = H,
                   .ncell = ncell, .acc = 0};
    for (long k = 0; k < ncell; k++) {
        cc.k = k;
        cc.a = (double)k * H - 1.0;
        cp_g(beta, cc.a, &cc.glo, &cc.gup);
        fround_run(FE_UPWARD, cont_cell, &cc);
    }
    taylor_clear(&T);
    double e = lam0 > 0 ? fround_div_up(cc.acc, lam0) : INFINITY;
    if (!isfinite(e)) {
        ar_error_set("poly_continuum_error: no finite bound (d=%d, beta=%g, L=%lu)", d, beta, L);
        return AR_ENUMERIC;
    }
    *err_bound = e;
    return AR_OK;
}

/* ---------- degree search ---------- */

typedef int (*cp_ok_fn)(void *ctx, unsigned long L, ar_status *st);

/* Least L in [lo, hi] with ok(L), galloping from the guess L0 then
 * bisection.  Returns hi + 1 if none was found; *st != AR_OK aborts. */
static unsigned long cp_search(cp_ok_fn ok, void *ctx, unsigned long L0, unsigned long lo,
                               unsigned long hi, ar_status *st)
{
    *st = AR_OK;
    if (lo > hi)
        return hi + 1;
    long fail = (long)lo - 1, succ = (long)hi + 1;
    long L = (long)(L0 < lo ? lo : (L0 > hi ? hi : L0));
    if (ok(ctx, (unsigned long)L, st)) {
        succ = L;
        for (long step = 1; *st == AR_OK; step *= 2) {
            long c = succ - step;
            if (c <= fail)
                break;
            if (ok(ctx, (unsigned long)c, st))
                succ = c;
            else {
                fail = c;
                break;
            }
        }
    } else {
        fail = L;
        for (long step = 1; *st == AR_OK; step *= 2) {
            long c = fail + step;
            if (c >= succ)
                break;
            if (ok(ctx, (unsigned long)c, st)) {
                succ = c;
                break;
            }
            fail = c;
        }
    }
    while (*st == AR_OK && succ - fail > 1) {
        long mid = fail + (succ - fail) / 2;
        if (ok(ctx, (unsigned long)mid, st))
            succ = mid;
        else
            fail = mid;
    }
    return (unsigned long)succ;
}

typedef struct {
    int d;
    double beta, eps;
    unsigned long cap;          /* size of the caches */
    double **coef;              /* fitted polynomials (lazy) */
    double *est;                /* LP estimates */
    double *err;                /* certified bounds (NAN = not computed) */
    const pointset_t *P;        /* NULL for the continuum */
    inst_t I;
    int last_ok;
    unsigned evals;
} search_t;

static ar_status sr_fit(search_t *S, unsigned long L)
{
    if (S->coef[L])
        return AR_OK;
    double *c = ar_calloc(L + 1, sizeof(double), "poly coefficients");
    if (!c)
        return AR_ENOMEM;
    ar_status st = poly_fit(S->d, S->beta, L, c, &S->est[L]);
    if (st != AR_OK) {
        free(c);
        return st;
    }
    S->coef[L] = c;
    return AR_OK;
}

static int sr_est_ok(void *ctx, unsigned long L, ar_status *st)
{
    search_t *S = ctx;
    *st = sr_fit(S, L);
    return *st == AR_OK && S->est[L] <= S->eps;
}

static int sr_cont_ok(void *ctx, unsigned long L, ar_status *st)
{
    search_t *S = ctx;
    if (isnan(S->err[L])) {
        *st = sr_fit(S, L);
        if (*st != AR_OK)
            return 0;
        *st = poly_continuum_error(S->d, S->beta, S->coef[L], L, &S->err[L]);
        if (*st != AR_OK)
            return 0;
        S->evals++;
    }
    return S->err[L] <= S->eps;
}

static int sr_inst_ok(void *ctx, unsigned long L, ar_status *st)
{
    search_t *S = ctx;
    *st = AR_OK;
    if (isnan(S->err[L])) {
        unsigned long Ls[2];
        int K = 0;
        Ls[K++] = L;
        /* evaluate a neighbour in the same pass: below after a success, above after a failure */
        unsigned long nb = S->last_ok ? (L > 0 ? L - 1 : L + 1) : L + 1;
        if (nb < S->cap && nb != L && isnan(S->err[nb]))
            Ls[K++] = nb;
        const double *cs[2];
        for (int q = 0; q < K; q++) {
            *st = sr_fit(S, Ls[q]);
            if (*st != AR_OK)
                return 0;
            cs[q] = S->coef[Ls[q]];
        }
        double e[2];
        *st = inst_errors(&S->I, S->P, S->beta, K, cs, Ls, e);
        if (*st != AR_OK)
            return 0;
        for (int q = 0; q < K; q++)
            S->err[Ls[q]] = e[q];
        S->evals += (unsigned)K;
    }
    S->last_ok = S->err[L] <= S->eps;
    return S->last_ok;
}

static ar_status sr_init(search_t *S, int d, double beta, double eps, unsigned long cap)
{
    memset(S, 0, sizeof *S);
    S->d = d;
    S->beta = beta;
    S->eps = eps;
    S->cap = cap;
    S->coef = ar_calloc(cap, sizeof(double *), "poly search");
    S->est = ar_calloc(cap, sizeof(double), "poly search");
    S->err = ar_calloc(cap, sizeof(double), "poly search");
    if (!S->coef || !S->est || !S->err)
        return AR_ENOMEM;
    for (unsigned long L = 0; L < cap; L++)
        S->err[L] = NAN;
    return AR_OK;
}

static void sr_clear(search_t *S)
{
    if (S->coef)
        for (unsigned long L = 0; L < S->cap; L++)
            free(S->coef[L]);
    free(S->coef);
    free(S->est);
    free(S->err);
    inst_clear(&S->I);
}

/* rough starting degree ~ sqrt(2 beta log(1/eps)) (only a galloping start) */
static unsigned long cp_guess(double beta, double eps)
{
    double g = 1.2 * sqrt(2.0 * beta * log(1.0 / eps)) + 1.0;
    return g > (double)CP_MAXL ? CP_MAXL : (unsigned long)g;
}

static int cp_eps_ok(double eps) { return isfinite(eps) && eps > 0 && eps < 1; }

ar_status poly_upper_continuum(int d, double beta, double eps, poly_cert_t *out)
{
    double t0 = clock_now();
    if (d < 2 || d > 64 || !cp_beta_ok(beta) || !cp_eps_ok(eps) || !out) {
        ar_error_set("poly_upper_continuum: need 2 <= d <= 64, 0 <= beta <= 1e7, 0 < eps < 1 (got d=%d, beta=%g, eps=%g)",
                     d, beta, eps);
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    search_t S;
    ar_status st = sr_init(&S, d, beta, eps, CP_MAXL + 1);
    if (st == AR_OK) {
        unsigned long L0 = cp_search(sr_est_ok, &S, cp_guess(beta, eps), 0, CP_MAXL, &st);
        if (st == AR_OK) {
            unsigned long L = cp_search(sr_cont_ok, &S, L0 > CP_MAXL ? CP_MAXL : L0, 0, CP_MAXL, &st);
            if (st == AR_OK && L > CP_MAXL) {
                ar_error_set("poly_upper_continuum: no degree <= %lu certifies eps=%g (d=%d, beta=%g)",
                             CP_MAXL, eps, d, beta);
                st = AR_ENUMERIC;
            }
            if (st == AR_OK) {
                out->L = L;
                out->err = S.err[L];
                out->err_below = L > 0 ? S.err[L - 1] : NAN;
                out->dim = poly_dim(d, L);
                out->rank = out->dim;
            }
        }
    }
    out->d = d;
    out->beta = beta;
    out->eps = eps;
    out->evals = S.evals;
    sr_clear(&S);
    out->seconds = clock_now() - t0;
    return st;
}

ar_status poly_upper_instance(const pointset_t *P, double beta, double eps, poly_cert_t *out)
{
    double t0 = clock_now();
    if (!cp_eps_ok(eps) || !out) {
        ar_error_set("poly_upper_instance: eps=%g must be in (0, 1)", eps);
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    inst_t I;
    ar_status st = inst_prepare(P, beta, &I);
    if (st != AR_OK)
        return st;
    size_t n = P->n;
    int d = (int)P->d;
    /* Lcap: least L with dim >= n (then the trivial bound rank <= n is as good) */
    unsigned long Lcap = 0;
    while (Lcap < CP_MAXL && poly_dim(d, Lcap) < n)
        Lcap++;
    search_t S;
    st = sr_init(&S, d, beta, eps, Lcap + 2);
    S.I = I;
    S.P = P;
    unsigned long L = Lcap;
    if (st == AR_OK && Lcap > 0) {
        unsigned long hi = Lcap - 1;
        unsigned long L0 = cp_search(sr_est_ok, &S, cp_guess(beta, eps) > hi ? hi : cp_guess(beta, eps),
                                     0, hi, &st);
        if (st == AR_OK)
            L = cp_search(sr_inst_ok, &S, L0 > hi ? hi : L0, 0, hi, &st);
    }
    if (st == AR_OK) {
        out->n = n;
        if (L >= Lcap) {             /* nothing below the cap: trivial certificate B = A */
            out->L = Lcap;
            out->err = 0;
            out->rank = n;
            out->capped = 1;
            out->dim = poly_dim(d, Lcap);
            out->err_below = Lcap > 0 ? S.err[Lcap - 1] : NAN;
        } else {
            out->L = L;
            out->err = S.err[L];
            out->err_below = L > 0 ? S.err[L - 1] : NAN;
            out->dim = poly_dim(d, L);
            out->rank = out->dim < n ? out->dim : n;
            out->capped = out->dim >= n;
        }
    }
    out->d = d;
    out->beta = beta;
    out->eps = eps;
    out->evals = S.evals;
    sr_clear(&S);              /* also frees I */
    out->seconds = clock_now() - t0;
    return st;
}
