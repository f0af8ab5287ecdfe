/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cert_rsvd_search.c -- the certified search over the ranks of randomized factors U, V
 * (proofs-notes/upper-certificates.md section 4b): the residual bound ||A - U_k V_k^T||_r1 <= eps
 * of section 1 for several ranks k in one pass over A (rsvd_certify_rows), a guess of the rank
 * from the sample rows, ladders and bisection between the largest refuted and the least
 * certified rank, and the gap between them filled from per-row bounds (gap_fill, the gap lemma
 * of section 4b).  The sketch that makes U, V: cert_rsvd_sketch.c. */
#include "theory/certificates/cert_rsvd.h"
#include "theory/certificates/cert_rsvd_impl.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/fround.h"
#include "numerics/resid.h"

typedef struct {
    const double *U, *V, *cv;
    size_t m, n, kmax, b;
    const size_t *ks;
    size_t nk;
    double *work;         /* slots x (b n) residual scratch, one per slot */
    double *bound;        /* blocks x nk: each block's bounds (reduced in block order after) */
    double *rowbound;     /* NULL, or m x nk per-row bounds (leading dimension m) */
} cert_ctx;

/* One block (amat_visit_par): its bounds into its own row of c->bound, its rows' bounds. */
static ar_status cert_block(void *arg, const amat_block_t *blk, size_t slot)
{
    cert_ctx *c = arg;
    resid_block_t B = {.b = blk->b, .n = c->n, .a = blk->a, .lda = blk->lda, .rowmajor = blk->rowmajor,
                       .rowerr = blk->rowerr, .U = c->U + blk->i0, .ldu = c->m, .V = c->V, .ldv = c->n,
                       .cv = c->cv, .ks = c->ks, .nk = c->nk,
                       .rowbound = c->rowbound ? c->rowbound + blk->i0 : NULL, .ldr = c->m};
    resid_block_multi(&B, c->work + slot * c->b * c->n, c->bound + blk->i0 / c->b * c->nk);
    return AR_OK;
}

/* Contract: cert_rsvd.h.  rsvd_certify_rows without per-row bounds. */
ar_status rsvd_certify_ranks(amat_t *M, const double *U, const double *V, size_t kmax, const size_t *ks,
                             size_t nk, double *err)
{
    return rsvd_certify_rows(M, U, V, kmax, ks, nk, err, NULL);
}

/* Contract: cert_rsvd.h.  err[t] >= ||A - U_k V_k^T||_r1 for k = ks[t] (one pass over M), rowbound
 * (NULL, or m x nk) the per-row bounds.  The blocks of rows run side by side on attnrank's
 * threads (amat_visit_par), each block's bounds its own; the maximum over the blocks is taken
 * in block order afterwards, as resid_block_multi takes it over its parts (+INFINITY absorbs),
 * so err is the same bits for any thread count. */
ar_status rsvd_certify_rows(amat_t *M, const double *U, const double *V, size_t kmax, const size_t *ks,
                            size_t nk, double *err, double *rowbound)
{
    size_t m = M->m, n = M->n;
    size_t b = amat_block_rows(M), nb = m ? (m + b - 1) / b : 0;
    size_t slots = amat_visit_slots(M, b * n * sizeof(double));
    double *cv = ar_calloc(kmax ? kmax : 1, sizeof *cv, "residual column sums");
    double *bound = cv ? ar_calloc((nb ? nb : 1) * (nk ? nk : 1), sizeof *bound, "residual block bounds") : NULL;
    double *work = bound ? ar_calloc(slots * b * n, sizeof *work, "residual blocks") : NULL;
    if (!work) {
        free(cv);
        free(bound);
        return AR_ENOMEM;
    }
    resid_colsums_up(n, kmax, V, n, cv);
    cert_ctx c = {.U = U, .V = V, .cv = cv, .m = m, .n = n, .kmax = kmax, .b = b, .ks = ks, .nk = nk,
                  .work = work, .bound = bound, .rowbound = rowbound};
    ar_status st = amat_visit_par(M, b * n * sizeof(double), cert_block, &c);
    for (size_t t = 0; t < nk; t++) {
        double v = 0.0;
        for (size_t i = 0; i < nb; i++) {
            double pb = bound[i * nk + t];
            if (!(pb < INFINITY))
                v = INFINITY;
            else if (pb > v)
                v = pb;
        }
        err[t] = v;
    }
    free(cv);
    free(bound);
    free(work);
    return st;
}

/* *hi = the least certified rank (state 2; 0: none, *best its error) and *lo = the largest
 * refuted rank (state 1) below it (0: none), over every rank probed so far with these factors. */
static void lo_hi(const unsigned char *state, const double *errk, size_t l, size_t *lo, size_t *hi, double *best)
{
    *hi = *lo = 0;
    for (size_t k = 1; k <= l && !*hi; k++)
        if (state[k] == 2) {
            *hi = k;
            *best = errk[k];
        }
    if (*hi)
        for (size_t k = *hi - 1; k >= 1 && !*lo; k--)
            if (state[k] == 1)
                *lo = k;
}

/* Certified error of each rank in ks (with the search's factors), recorded in state[k] (1
 * refuted, 2 certified); rows (NULL, or m x nk) receives the per-row bounds; then lo_hi over
 * every rank probed so far (*lo, s->hi, s->best). */
static ar_status probe(rsvd_search_t *s, const size_t *ks, size_t nk, unsigned char *state, double *errk,
                       size_t *lo, double *rows)
{
    double err[RSVD_FINE + RSVD_LADDER];
    ar_status st = rsvd_certify_rows(s->M, s->U, s->V, s->l, ks, nk, err, rows);
    if (st)
        return st;
    s->info->probes += nk;
    for (size_t t = 0; t < nk; t++) {
        state[ks[t]] = err[t] <= s->eps ? 2 : 1;
        errk[ks[t]] = err[t];
    }
    lo_hi(state, errk, s->l, lo, &s->hi, &s->best);
    return AR_OK;
}

/* Body, in FE_UPWARD: the triangle-inequality bounds of the gap ranks lo < k < hi on every row
 * from the certified per-row bounds of ranks lo and hi of the same factors:
 *     ||A_i - (U_k V_k^T)_i||_1 <= rlo_i + sum_{c=lo}^{k-1} |U_ic| cv_c       (k > lo)
 *                                <= rhi_i + sum_{c=k}^{hi-1} |U_ic| cv_c       (k < hi),
 * U_k V_k^T - U_lo V_lo^T being the columns lo..k-1 of U times those of V, whose row i has
 * l1 norm at most sum_c |U_ic| sum_j |V_jc| <= sum_c |U_ic| cv_c (cv rounded up).  cheap (m x ng,
 * leading dimension m) receives the smaller bound, flag[i] = 1 when some gap rank's exceeds eps
 * (or is not finite). */
typedef struct {
    size_t m, lo, hi;
    const double *U, *cv, *rlo, *rhi;
    double eps, *cheap;
    unsigned char *flag;
} gap_ctx;

static FROUND_BODY void gap_body(void *arg)
{
    gap_ctx *g = arg;
    size_t m = g->m;
    for (size_t i = 0; i < m; i++) {
        double below = g->rlo[i];
        for (size_t k = g->lo + 1; k < g->hi; k++) {
            below += fabs(g->U[i + (k - 1) * m]) * g->cv[k - 1];
            g->cheap[i + (k - g->lo - 1) * m] = below;
        }
        double above = g->rhi[i];
        g->flag[i] = 0;
        for (size_t k = g->hi - 1; k > g->lo; k--) {
            above += fabs(g->U[i + k * m]) * g->cv[k];
            double *ck = g->cheap + i + (k - g->lo - 1) * m;
            if (above < *ck)
                *ck = above;
            if (!(*ck <= g->eps))
                g->flag[i] = 1;
        }
    }
}

/* Maximum of x over the entries not skipped (+INFINITY when one is not finite; exact). */
static double max_of(const double *x, size_t len, const unsigned char *skip)
{
    double mx = 0.0;
    for (size_t i = 0; i < len; i++)
        if (!skip || !skip[i]) {
            if (!(x[i] < INFINITY))
                return INFINITY;
            if (x[i] > mx)
                mx = x[i];
        }
    return mx;
}

/* The gap lo < k < hi (at most RSVD_FINE ranks) from the per-row bounds rlo, rhi of ranks lo and
 * hi (issue 24: a second full pass over A only for the ranks in between cost 6 s of 42 at 16000
 * points).  Each row's bound at k is the smaller triangle-inequality bound (gap_body); the rows
 * where some gap rank's exceeds eps are evaluated exactly (the same certified residual bound as
 * a full pass, on those rows of the enclosure), and their bound is the smaller of the two.  The
 * maximum over the rows is then a certified error of rank k, exactly as a full pass gives
 * (proofs-notes/upper-certificates.md, the gap lemma); a rank is refuted only when a row
 * evaluated exactly exceeds eps.  *done = 0 (nothing recorded) when more than RSVD_GAP_ROWS
 * (or m / 16) rows need the exact evaluation: the caller then makes the full pass. */
#define RSVD_GAP_ROWS 512
static ar_status gap_fill(amat_t *M, const double *U, const double *V, size_t l, size_t lo, size_t hi,
                          const double *rlo, const double *rhi, double eps, unsigned char *state, double *errk,
                          rsvd_info_t *info, int *done)
{
    size_t m = M->m, n = M->n, ng = hi - lo - 1, lim = m / 16 > RSVD_GAP_ROWS ? m / 16 : RSVD_GAP_ROWS;
    *done = 0;
    double *cv = ar_calloc(hi, sizeof *cv, "gap column sums");
    double *cheap = cv ? ar_calloc(m * ng, sizeof *cheap, "gap row bounds") : NULL;
    unsigned char *flag = cheap ? ar_calloc(m, 1, "gap rows") : NULL;
    if (!flag) {
        free(cv); free(cheap);
        return AR_ENOMEM;
    }
    resid_colsums_up(n, hi, V, n, cv);
    gap_ctx g = {.m = m, .lo = lo, .hi = hi, .U = U, .cv = cv, .rlo = rlo, .rhi = rhi, .eps = eps,
                 .cheap = cheap, .flag = flag};
    fround_run(FE_UPWARD, gap_body, &g);
    size_t cnt = 0;
    for (size_t i = 0; i < m; i++)
        cnt += flag[i];
    ar_status st = AR_OK;
    size_t *rows = NULL, ks[RSVD_FINE];
    double *Us = NULL, *rb = NULL, err[RSVD_FINE];
    if (cnt > lim)
        goto out;                                   /* the full pass is cheaper */
    for (size_t t = 0; t < ng; t++)
        ks[t] = lo + 1 + t;
    if (cnt > 0) {
        rows = ar_calloc(cnt, sizeof *rows, "gap rows");
        Us = rows ? ar_calloc(cnt * l, sizeof *Us, "gap rows of U") : NULL;
        rb = Us ? ar_calloc(cnt * ng, sizeof *rb, "gap exact row bounds") : NULL;
        if (!rb) {
            st = AR_ENOMEM;
            goto out;
        }
        for (size_t i = 0, t = 0; i < m; i++)
            if (flag[i])
                rows[t++] = i;
        for (size_t c = 0; c < l; c++)
            for (size_t t = 0; t < cnt; t++)
                Us[t + c * cnt] = U[rows[t] + c * m];
        smx_t R;
        if ((st = amat_rows(M, rows, cnt, &R)))
            goto out;
        amat_t Ms;
        amat_memory(&Ms, &R);
        st = rsvd_certify_rows(&Ms, Us, V, l, ks, ng, err, rb);
        smx_clear(&R);
        if (st)
            goto out;
    }
    for (size_t t = 0; t < ng; t++) {
        double e = max_of(cheap + t * m, m, flag);
        for (size_t r = 0; r < cnt && e < INFINITY; r++) {
            double x = rb[r + t * cnt], y = cheap[rows[r] + t * m];
            double v = y < x ? y : x;                 /* both are certified bounds of that row */
            if (!(v < INFINITY))
                e = INFINITY;
            else if (v > e)
                e = v;
        }
        state[ks[t]] = e <= eps ? 2 : 1;
        errk[ks[t]] = e;
    }
    info->probes += ng;
    info->gap_fills++;
    *done = 1;
out:
    free(cv); free(cheap); free(flag); free(rows); free(Us); free(rb);
    return st;
}

/* Ranks strictly between lo and hi: all of them when few, else RSVD_LADDER evenly spaced. */
static size_t between(size_t lo, size_t hi, size_t *ks)
{
    size_t gap = hi - lo - 1, nk = 0;
    if (gap <= RSVD_FINE) {
        for (size_t k = lo + 1; k < hi; k++)
            ks[nk++] = k;
        return nk;
    }
    for (size_t t = 1; t <= RSVD_LADDER; t++) {
        size_t k = lo + (gap + 1) * t / (RSVD_LADDER + 1);
        if (k > lo && k < hi && (nk == 0 || k > ks[nk - 1]))
            ks[nk++] = k;
    }
    return nk;
}

/* Geometric ladder of at most RSVD_LADDER ranks in [from, top], ascending, top included. */
static size_t ladder(size_t from, size_t top, size_t *ks)
{
    size_t nk = 0;
    for (double k = (double)top; nk < RSVD_LADDER && k >= (double)from; k *= 0.87) {
        size_t kk = (size_t)k;
        if (kk >= from && (nk == 0 || kk < ks[nk - 1]))
            ks[nk++] = kk;
    }
    for (size_t a = 0, b = nk ? nk - 1 : 0; a < b; a++, b--) {
        size_t t = ks[a]; ks[a] = ks[b]; ks[b] = t;
    }
    return nk;
}

/* Contract: cert_rsvd_impl.h.  Least rank k <= top whose error on M is <= eps with k - 1 observed
 * above eps (or k = 1): s->hi = k (0 if none, s->best its error).  First probes ks0[0..nk0) when
 * nk0 > 0 (a guess; when err0 is not NULL the caller has made that pass: err0 its errors, rows0
 * its m x nk0 per-row bounds), then ladders above the largest refuted rank and the ranks between
 * refuted and certified. */
ar_status rsvd_search(rsvd_search_t *s)
{
    amat_t *M = s->M;
    const rsvd_opts_t *o = s->o;
    size_t l = s->l, top = s->top;
    unsigned char *state = ar_calloc(l + 1, 1, "rank states");
    double *errk = state ? ar_calloc(l + 1, sizeof *errk, "rank errors") : NULL;
    if (!errk) {
        free(state);
        return AR_ENOMEM;
    }
    size_t ks[RSVD_FINE + RSVD_LADDER], nk, lo = 0, m = M->m;
    /* the per-row bounds of a pass's ranks, for the gap between its refuted and certified ranks */
    double *rows = ar_calloc(m * (RSVD_FINE + RSVD_LADDER), sizeof *rows, "per-row bounds");
    s->hi = 0;
    ar_status st = AR_OK;
    if (s->nk0 > 0) {
        memcpy(ks, s->ks0, s->nk0 * sizeof *ks);
        nk = s->nk0;
    } else {
        nk = ladder(1, top, ks);
    }
    for (int pass = 1;; pass++) {
        if (o)
            rsvd_say(o, "upper: certifying %zu ranks from %zu", nk, ks[0]);
        if (pass == 1 && s->err0) {         /* the first pass was made by the caller */
            for (size_t t = 0; t < nk; t++) {
                state[ks[t]] = s->err0[t] <= s->eps ? 2 : 1;
                errk[ks[t]] = s->err0[t];
            }
            if (rows)
                memcpy(rows, s->rows0, m * nk * sizeof *rows);
            lo_hi(state, errk, l, &lo, &s->hi, &s->best);
        } else if ((st = probe(s, ks, nk, state, errk, &lo, rows))) {
            break;
        }
        /* the ranks in between from the rows of lo and hi (gap_fill), when both were probed in
         * this pass: the full pass over A is then made only if too many rows need it */
        size_t ilo = nk, ihi = nk, hi = s->hi;
        for (size_t t = 0; rows && t < nk; t++) {
            ilo = ks[t] == lo ? t : ilo;
            ihi = ks[t] == hi ? t : ihi;
        }
        if (hi > 0 && lo > 0 && hi - lo > 1 && hi - lo - 1 <= RSVD_FINE && ilo < nk && ihi < nk &&
            !(o && o->no_gap_fill)) {
            int done = 0;
            if ((st = gap_fill(M, s->U, s->V, l, lo, hi, rows + ilo * m, rows + ihi * m, s->eps, state, errk,
                               s->info, &done)))
                break;
            if (done)
                lo_hi(state, errk, l, &lo, &s->hi, &s->best);
        }
        hi = s->hi;
        s->lo = lo;
        if (hi > 0 && (hi - lo <= 1 || (s->max_passes > 0 && pass >= s->max_passes)))
            break;
        if (hi > 0) {
            nk = between(lo, hi, ks);
            continue;
        }
        /* nothing certified yet: a ladder above the largest refuted rank */
        size_t mx = 0;
        for (size_t k = l; k >= 1 && !mx; k--)
            if (state[k] == 1)
                mx = k;
        if (mx >= top || state[top] == 1)
            break;                                  /* top refuted: nothing certified */
        nk = ladder(mx + 1, top, ks);
        if (nk == 0)
            break;
    }
    free(state);
    free(errk);
    free(rows);
    return st;
}

/* Contract: cert_rsvd_impl.h (the sample rows, rsvd_sample_t). */
void rsvd_sample_clear(rsvd_sample_t *S)
{
    free(S->rows);
    if (S->R.a)
        smx_clear(&S->R);
    memset(S, 0, sizeof *S);
}

/* The sample rows and their enclosure S->R (once: AR_OK at once when S->R is made). */
static ar_status sample_make(amat_t *M, rsvd_sample_t *S)
{
    if (S->R.a)
        return AR_OK;
    size_t m = M->m, s = m / 16 > RSVD_SAMPLE ? m / 16 : RSVD_SAMPLE;
    if (s > m)
        s = m;
    if (!(S->rows = ar_calloc(s, sizeof *S->rows, "sample rows")))
        return AR_ENOMEM;
    S->s = s;
    for (size_t t = 0; t < s; t++)
        S->rows[t] = (size_t)((double)t * (double)m / (double)s);
    ar_status st = amat_rows(M, S->rows, s, &S->R);
    if (st)
        memset(&S->R, 0, sizeof S->R);
    return st;
}

/* The sample rows of A (sample_make) and the same rows of U, as an in-memory enclosure: the
 * errors on them (not a certificate: a maximum over fewer rows) guess the rank to certify.
 * *guess = the least rank certified on the sample (0: none up to top, and then *next = a larger
 * sketch size predicted from the decay of the sample errors).  Contract: cert_rsvd_impl.h. */
ar_status rsvd_sample_guess(amat_t *M, rsvd_sample_t *S, const double *U, const double *V, size_t l, size_t top,
                            double eps, size_t *guess, size_t *next)
{
    size_t m = M->m;
    *guess = 0;
    *next = 2 * l;
    ar_status st = sample_make(M, S);
    if (st)
        return st;
    size_t s = S->s;
    const size_t *rows = S->rows;
    double *Us = ar_calloc(s * l, sizeof *Us, "sample U");
    if (!Us)
        return AR_ENOMEM;
    for (size_t c = 0; c < l; c++)
        for (size_t t = 0; t < s; t++)
            Us[t + c * s] = U[rows[t] + c * m];
    amat_t Ms;
    amat_memory(&Ms, &S->R);
    rsvd_info_t scratch;
    memset(&scratch, 0, sizeof scratch);
    size_t ks[RSVD_LADDER];
    double err[RSVD_LADDER];
    size_t nk = ladder(1, top, ks);
    double *rb = ar_calloc(s * (nk ? nk : 1), sizeof *rb, "sample row bounds");
    st = rb ? rsvd_certify_rows(&Ms, Us, V, l, ks, nk, err, rb) : AR_ENOMEM;
    if (st == AR_OK && nk > 0 && !(err[nk - 1] <= eps)) {
        /* log err ~ linear in k between the two largest rungs: extrapolate to eps */
        if (nk >= 2 && err[nk - 1] < err[nk - 2] && err[nk - 1] > 0 && isfinite(err[nk - 2])) {
            double slope = (log(err[nk - 1]) - log(err[nk - 2])) / (double)(ks[nk - 1] - ks[nk - 2]);
            double kstar = (double)ks[nk - 1] + (log(eps) - log(err[nk - 1])) / slope;
            double want = 1.15 * kstar + 24;
            /* uncapped here (next_size caps the step at 4 l): the caller also reads it as the
             * sample's prediction of the rank */
            *next = !(want < 1e15) ? (size_t)1e15 : want > 2.0 * (double)l ? (size_t)want : 2 * l;
        }
    } else if (st == AR_OK) {
        /* two passes, the ladder's being the first: the sample's least certified rank is then
         * within 2 of its largest refuted one lo, the guess is lo + 1, and the first full pass
         * probes from lo up (every rank to guess + 5: lo is refuted there too, the full
         * maximum being larger) */
        rsvd_search_t sr = {.M = &Ms, .U = Us, .V = V, .l = l, .top = top, .eps = eps, .ks0 = ks, .nk0 = nk,
                            .err0 = err, .rows0 = rb, .o = NULL, .info = &scratch, .max_passes = 2,
                            .best = INFINITY};
        st = rsvd_search(&sr);
        *guess = sr.hi;
        if (st == AR_OK && *guess > sr.lo + 1)
            *guess = sr.lo + 1;          /* the least rank not refuted on the sample */
    }
    free(rb);
    free(Us);
    return st;
}

/* The guess's ranks: every rank up to guess + 5, then spread (scaled above 200); into ks0.
 * Contract: cert_rsvd_impl.h. */
size_t rsvd_guess_ranks(size_t guess, size_t top, size_t *ks0)
{
    static const size_t off[RSVD_GUESS] = { 0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 17, 22, 28, 36 };
    size_t nk0 = 0;
    for (size_t j = 0; j < RSVD_GUESS; j++) {
        size_t k = guess - 1 + (off[j] <= 6 ? off[j] : off[j] * (guess > 200 ? guess / 100 : 1));
        if (k >= 1 && k <= top && (nk0 == 0 || k > ks0[nk0 - 1]))
            ks0[nk0++] = k;
    }
    return nk0;
}

/* Contract: cert_rsvd.h.  The least certified rank <= top of the given factors (sample guess,
 * then rsvd_search). */
ar_status rsvd_search_factors(amat_t *M, const double *U, const double *V, size_t l, size_t top, double eps,
                              const rsvd_opts_t *o, size_t *rank, double *err, rsvd_info_t *info)
{
    rsvd_info_t inf0;
    memset(&inf0, 0, sizeof inf0);
    if (!info)
        info = &inf0;
    *rank = 0;
    *err = INFINITY;
    if (!M || !U || !V || l == 0 || top == 0 || top > l || !(eps > 0.0 && eps < 1.0)) {
        ar_error_set("rsvd_search_factors: bad arguments");
        return AR_EINVAL;
    }
    size_t passes0 = M->passes;
    rsvd_sample_t smp;
    memset(&smp, 0, sizeof smp);
    size_t guess = 0, next = 0, hi = 0;
    double best = INFINITY;
    ar_status st = rsvd_sample_guess(M, &smp, U, V, l, top, eps, &guess, &next);
    /* nothing certified on the sample rows: nothing can be on all rows (a maximum over more rows) */
    if (st == AR_OK && guess > 0) {
        size_t ks0[RSVD_GUESS];
        size_t nk0 = rsvd_guess_ranks(guess, top, ks0);
        rsvd_search_t sr = {.M = M, .U = U, .V = V, .l = l, .top = top, .eps = eps, .ks0 = ks0, .nk0 = nk0,
                            .o = o, .info = info, .best = best};
        st = rsvd_search(&sr);
        hi = sr.hi;
        best = sr.best;
    }
    rsvd_sample_clear(&smp);
    if (st == AR_OK && hi > 0) {
        *rank = hi;
        *err = best;
    }
    info->passes += M->passes - passes0;
    return st;
}
