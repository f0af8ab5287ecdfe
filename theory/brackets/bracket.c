/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bracket.c -- certified bracket lower <= rank_eps(A) <= upper (THEORY 3.4, 3.5). */
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_impl.h"
#include "theory/brackets/bracket_status.h"
#include "numerics/clock.h"
#include "numerics/config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "numerics/amat.h"
#include "numerics/fps.h"
#include "numerics/linalg.h"
#include "numerics/softmax.h"
#include "numerics/softmax_dbl.h"

void bracket_copy_report(bracket_t *dst, const bracket_t *src)
{
    dst->maxerr = src->maxerr;
    dst->prec = src->prec;
    dst->seconds_enclose = src->seconds_enclose;
    dst->up_svd = src->up_svd;
    dst->up_symeig = src->up_symeig;
    dst->up_pchol = src->up_pchol;
    dst->up_rsvd = src->up_rsvd;
    dst->up_rsym = src->up_rsym;
    dst->rsvd = src->rsvd;
    dst->streamed = src->streamed;
    dst->enclosure = src->enclosure;
    dst->upper_flops = src->upper_flops;
    dst->lower_budget = src->lower_budget;
    dst->lower_spent = src->lower_spent;
    dst->lower_cut = src->lower_cut;
}

double bracket_full_flops(upper_method_t method, size_t m, size_t n)
{
    double r = (double)(m < n ? m : n), mn = (double)m * (double)n;
    /* the factorisation (dgesdd with vectors about 22 m n r, dsyevd with vectors about 9 n^3,
     * dpstrf n^3 / 3) and about three certifying passes of 2 m n r each */
    double f = method == UPPER_SVD ? 22.0 * mn * r : method == UPPER_SYMEIG ? 9.0 * mn * r : mn * r / 3.0;
    return f + 6.0 * mn * r;
}

int bracket_is_self(const pointset_t *Q, const pointset_t *K)
{
    return pointset_same_points(Q, K);
}

void bracket_opts_default(bracket_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->use_svd = -1;
    o->use_pchol = -1;
    o->use_symeig = -1;
    o->use_rsvd = -1;
    o->use_lower = 1;
}

ar_status bracket_stream_mib(size_t *mib)
{
    size_t v = ar_config()->stream_mib;
    *mib = v ? v : AR_CONFIG_STREAM_MIB;
    return AR_OK;
}

ar_status bracket_stream_bytes(const bracket_opts_t *o, size_t *bytes)
{
    if (o && o->stream_bytes) {
        *bytes = o->stream_bytes;
        return AR_OK;
    }
    ar_status st;
    size_t mib = ar_config()->stream_mib;
    if (mib) {                          /* the explicit override (ATTNRANK_STREAM_MIB) */
        *bytes = mib << 20;
        return AR_OK;
    }
    /* memory decides: the image is held when it fits under the allocation bound
     * (ATTNRANK_MAX_ALLOC_GB) and in half the machine's physical memory */
    size_t lim;
    if ((st = ar_max_alloc_effective(&lim)) != AR_OK)   /* the call's limit, or ATTNRANK_MAX_ALLOC_GB */
        return st;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0) {
        double half = 0.5 * (double)pages * (double)psz;
        if (half < (double)lim)
            lim = (size_t)half;
    }
    *bytes = lim;
    return AR_OK;
}

void bracket_say(const bracket_opts_t *o, const char *fmt, ...)
{
    if (!o || !o->progress)
        return;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    o->progress(o->progress_ctx, msg);
}

size_t bracket_sketch_size(size_t lower, size_t cap, size_t r)
{
    /* the certified upper end is typically 1.5-2.5x the block lower end; too small a sketch
     * costs a second one of twice the size (proofs-notes/upper-certificates.md) */
    size_t l = 3 * lower + 24;
    if (l < 32)
        l = 32;
    if (cap && cap + 16 < l)
        l = cap + 16;
    return l < r ? l : r;
}

void bracket_rsvd_opts(const bracket_opts_t *o, size_t l0, int power, rsvd_opts_t *ro)
{
    rsvd_opts_default(ro);
    ro->l0 = l0;
    ro->power = power;
    if (o->seed)
        ro->seed = o->seed;
    ro->progress = o->progress;
    ro->progress_ctx = o->progress_ctx;
}

ar_status bracket_begin(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                        const bracket_opts_t **o, bracket_opts_t *def, bracket_t *out)
{
    if (!*o) {
        bracket_opts_default(def);
        *o = def;
    }
    if (!out) {
        ar_error_set("bracket_compute: NULL argument");
        return AR_EINVAL;
    }
    memset(out, 0, sizeof *out);
    out->status = AR_CERT_INCONCLUSIVE;
    if (!Q || !K) {
        ar_error_set("bracket_compute: NULL argument");
        return AR_EINVAL;
    }
    if (!isfinite(beta) || beta < 0) {
        ar_error_set("bracket_compute: beta must be finite and >= 0 (got %g)", beta);
        return AR_EINVAL;
    }
    if (!(eps > 0.0 && eps < 1.0)) {
        ar_error_set("bracket_compute: eps must satisfy 0 < eps < 1 (got %g)", eps);
        return AR_EINVAL;
    }
    ar_status st = pointset_validate(Q);
    if (st == AR_OK && K != Q)
        st = pointset_validate(K);
    if (st != AR_OK)
        return st;
    if (Q->d != K->d || Q->n == 0 || K->n == 0) {
        ar_error_set("bracket_compute: dimension mismatch (queries d = %zu, keys d = %zu)", Q->d, K->d);
        return AR_EINVAL;
    }
    return AR_OK;
}

void bracket_set_trivial(bracket_t *out, size_t m, size_t n)
{
    out->m = m;
    out->n = n;
    out->status = AR_CERT_INCONCLUSIVE;
    out->lower = 1;
    out->upper = m < n ? m : n;
    out->lo.rank = 1;
    out->lo.invnorm = 1.0;
    out->lo.method = AR_METHOD_TRIVIAL;
    out->up.rank = out->upper;
    out->up.err = 0.0;
    out->up.method = AR_METHOD_TRIVIAL;
}

/* A query index with its squared norm, for the outer order's sort (no global state: brackets
 * may run in several threads at once, api/attnrank.h). */
typedef struct {
    double norm2;
    size_t i;
} outer_key;

static int outer_cmp(const void *pa, const void *pb)
{
    const outer_key *a = pa, *b = pb;
    return a->norm2 > b->norm2 ? -1 : a->norm2 < b->norm2 ? 1 : (a->i > b->i) - (a->i < b->i);
}

size_t bracket_outer_order(const pointset_t *Q, size_t *order, size_t maxlen)
{
    size_t m = Q->n, d = Q->d;
    double lo = INFINITY, hi = 0;
    outer_key *key = m >= 4 && maxlen > 0 ? ar_calloc(m, sizeof *key, "query order") : NULL;
    if (!key)
        return 0;
    for (size_t i = 0; i < m; i++) {
        double s = 0;
        for (size_t c = 0; c < d; c++)
            s += Q->x[i * d + c] * Q->x[i * d + c];
        lo = fmin(lo, s);
        hi = fmax(hi, s);
        key[i] = (outer_key){ .norm2 = s, .i = i };
    }
    if (!(hi > 2.25 * lo)) {
        free(key);
        return 0;
    }
    size_t half = m / 2, len = half < maxlen ? half : maxlen;
    double *xs = ar_calloc(half * d, sizeof *xs, "outer queries");
    size_t *o2 = xs ? ar_calloc(len, sizeof *o2, "outer order") : NULL;
    if (!o2) {
        free(key);
        free(xs);
        return 0;
    }
    qsort(key, m, sizeof *key, outer_cmp);
    for (size_t t = 0; t < half; t++)
        memcpy(xs + t * d, Q->x + key[t].i * d, d * sizeof *xs);
    if (fps_prefix(xs, half, d, 0, len, o2, NULL) == AR_OK) {
        for (size_t t = 0; t < len; t++)
            order[t] = key[o2[t]].i;
    } else {
        len = 0;
    }
    free(key);
    free(xs);
    free(o2);
    return len;
}

/* The farthest-point prefix order of the queries (outer = 0) or of the outer half
 * (bracket_outer_order, outer = 1): up to len entries into order; returns how many (0: the
 * outer rule does not apply). */
static ar_status prefix_order(const pointset_t *Q, int outer, size_t len, size_t *order, size_t *got)
{
    *got = 0;
    if (outer) {
        *got = bracket_outer_order(Q, order, len);
        return AR_OK;
    }
    ar_status st = fps_prefix(Q->x, Q->n, Q->d, 0, len, order, NULL);
    if (st == AR_OK)
        *got = len;
    return st;
}

/* Longest failed prefix that bracket_blocks_fps bisects; above it the prefix is peeled. */
#define BRACKET_FPS_BISECT_MAX 1024

/* First prefix of the lazily computed orders below (a power of two). */
#define BRACKET_FPS_PREFIX0 256

/* See bracket_impl.h.  lower_blocks_cap probes the prefix lengths 1, 2, 4, ... until one fails,
 * then bisects below it, so with a prefix of L = 2^j entries (L < the order's full length and
 * < A's columns) every probe it makes is a probe of the search on the whole order unless all L
 * rows are certified; then L is quadrupled and the search repeated. */
ar_status bracket_blocks_fps(const smx_t *A, const pointset_t *Q, int outer, double eps, size_t cap,
                             size_t *order, lower_cert_t *lc)
{
    size_t m = Q->n, full = outer ? m / 2 : m, top = full < A->n ? full : A->n;
    memset(lc, 0, sizeof *lc);
    for (size_t L = BRACKET_FPS_PREFIX0;; L *= 4) {
        size_t want = L < top ? L : full, got = 0;
        ar_status st = prefix_order(Q, outer, want, order, &got);
        if (st != AR_OK || got == 0)
            return st;
        size_t failed = 0;
        if ((st = lower_blocks_gallop(A, order, got, eps, cap, BRACKET_FPS_BISECT_MAX, lc, &failed)))
            return st;
        if (failed) {
            /* a failed prefix above BRACKET_FPS_BISECT_MAX rows: one peel of it (about 5 s^3
             * flops) instead of ~log2(s) bisection probes of up to 2 s^3 each (issue 32: 74 s of
             * 4096-row probes on a d = 128 self-attention head, whose peel certifies 4095 rows) */
            lower_ctl_t pc;
            lower_cert_t pl;
            memset(&pc, 0, sizeof pc);
            /* first its diagonally dominant rows (O(s n)): when they are all of it but one (a
             * near-identity image: a real head's self-attention at d = 128), no peel */
            if ((st = lower_dominant_rows(A, order, failed, eps, cap, &pl, NULL)))
                return st;
            if (pl.method != AR_METHOD_TRIVIAL && pl.rank > lc->rank)
                *lc = pl;
            if (lc->rank + 1 < failed) {
                if ((st = lower_peel_cap(A, order, failed, eps, cap, &pc, &pl, NULL)))
                    return st;
                if (pl.method != AR_METHOD_TRIVIAL && pl.rank > lc->rank)
                    *lc = pl;
            }
        }
        if (want == full || lc->rank < L)
            return AR_OK;
    }
}

void bracket_lower_ctl(const bracket_opts_t *o, double upper_flops, lower_ctl_t *ctl)
{
    memset(ctl, 0, sizeof *ctl);
    ctl->budget = upper_flops > BRACKET_LOWER_FLOOR ? upper_flops : BRACKET_LOWER_FLOOR;
    ctl->progress = o->progress;
    ctl->progress_ctx = o->progress_ctx;
}

double bracket_share_budget(const lower_ctl_t *ctl)
{
    if (!(ctl->budget > 0))
        return ctl->budget;
    double share = fmax(BRACKET_LOWER_FLOOR, BRACKET_SHARE * ctl->budget);
    return ctl->spent + share < ctl->budget ? ctl->spent + share : ctl->budget;
}

void bracket_lower_record(bracket_t *out, const lower_ctl_t *ctl)
{
    out->lower_budget = ctl->budget;
    out->lower_spent = ctl->spent;
    out->lower_cut = ctl->cut;
}

/* Estimated flops of the greedy growth over len candidates on an n-column image when every
 * candidate up to s rows is accepted (about s^4 / 2) and the rest refused at full size: an upper
 * estimate (sets that stay small cost far less). */
static double grow_cost(size_t len, size_t s, size_t n)
{
    double x = (double)s, rest = len > s ? (double)(len - s) : 0.0;
    return 0.5 * x * x * x * x + rest * 2.0 * x * x * x + 2.0 * (double)len * (double)n;
}

ar_status bracket_grow_lower(const smx_t *A, size_t *cand, size_t len, double eps, size_t cap,
                             const bracket_opts_t *o, bracket_t *out, lower_ctl_t *ctl)
{
    size_t *rows = ar_calloc(len, sizeof *rows, "grown rows");
    unsigned char *in = rows ? ar_calloc(A->m, 1, "grown row marks") : NULL;
    if (!in) {
        free(rows);
        return AR_ENOMEM;
    }
    /* peeling first (one LU and Schur updates, lower_peel_cap) when its estimate fits in what is left
     * of the budget and the set is not small; then the greedy growth, under the budget, when its
     * upper estimate fits too or the peel certified less than a quarter of the candidates (issue 32:
     * the growth made 2048 LU factorisations of up to 1700 rows, 190 s; on a flat cross-attention
     * image the peel certifies nothing and the growth's small sets cost little); the larger wins */
    size_t smax = len < A->n ? len : A->n;
    if (cap < smax)
        smax = cap;
    double left = ctl->budget > 0 ? ctl->budget - ctl->spent : INFINITY;
    int peel = smax >= BRACKET_PEEL_MIN && lower_peel_cost(smax, A->n) <= left;
    lower_cert_t lc, lg;
    ar_status st = AR_OK;
    memset(&lc, 0, sizeof lc);
    lc.rank = 1;
    lc.method = AR_METHOD_TRIVIAL;
    if (peel) {
        bracket_say(o, "lower: peeling %zu pivoted-QR rows of the certified factor", smax);
        st = lower_peel_cap(A, cand, len, eps, cap, ctl, &lc, rows);
    }
    size_t sp = lc.method != AR_METHOD_TRIVIAL ? lc.rank : 0;
    if (peel && ctl->repeat) {                 /* the same rows as a peel before: nothing new to find */
        free(rows);
        free(in);
        return st;
    }
    int grow_fits = grow_cost(len, smax, A->n) <= left;
    double whole = ctl->budget;
    if (st == AR_OK && !grow_fits && 4 * sp < smax)
        ctl->budget = bracket_share_budget(ctl);   /* a rescue of a failed peel: a share only */
    if (st == AR_OK && (grow_fits || 4 * sp < smax)) {
        bracket_say(o, "lower: growth over %zu pivoted-QR rows of the certified factor", len);
        size_t *rows_g = ar_calloc(len, sizeof *rows_g, "grown rows");
        if (!rows_g)
            st = AR_ENOMEM;
        else if ((st = lower_grow_ctl(A, cand, len, eps, cap, ctl, &lg, rows_g)) == AR_OK &&
                 lg.method != AR_METHOD_TRIVIAL && lg.rank > sp) {
            lc = lg;
            memcpy(rows, rows_g, lg.rank * sizeof *rows);
        }
        free(rows_g);
    }
    ctl->budget = whole;
    if (st == AR_OK) {
        size_t s0 = lc.method != AR_METHOD_TRIVIAL ? lc.rank : 0;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
        /* the certified rows first, then the other candidates in their order */
        for (size_t t = 0; t < s0; t++)
            in[rows[t]] = 1;
        size_t q = s0;
        for (size_t t = 0; t < len; t++)
            if (!in[cand[t]])
                rows[q++] = cand[t];
        memcpy(cand, rows, len * sizeof *cand);
        bracket_say(o, "lower: weighted test matrices beyond %zu rows", s0);
        if ((st = lower_weighted_ctl(A, cand, len, s0, eps, cap, ctl, &lc, NULL, NULL)) == AR_OK &&
            lc.rank > out->lo.rank)
            out->lo = lc;
    }
    free(rows);
    free(in);
    return st;
}

ar_status bracket_finish(bracket_t *out)
{
    out->lower = out->lo.rank;
    out->upper = out->up.rank;
    if (out->lower > out->upper) {
        ar_error_set("bracket_compute: BUG: certified lower bound %zu (%s) exceeds certified "
                     "upper bound %zu (%s)", out->lower, ar_method_name(out->lo.method), out->upper,
                     ar_method_name(out->up.method));
        out->status = AR_CERT_INCONCLUSIVE;
        return AR_ENUMERIC;
    }
    out->status = bracket_status_decide(out->lower, out->lo.method, out->upper, out->up.method);
    return AR_OK;
}

/* max log t - min log t over n >= 1 entries */
static double logt_spread(const double *logt, size_t n)
{
    double lo = logt[0], hi = logt[0];
    for (size_t i = 1; i < n; i++) {
        lo = fmin(lo, logt[i]);
        hi = fmax(hi, logt[i]);
    }
    return hi - lo;
}

int bracket_svd_needed(size_t n, const double *logt, const upper_cert_t *best)
{
    if (!logt || !best || best->method == AR_METHOD_TRIVIAL || best->rank == 0)
        return 1;                      /* symeig and pchol did not apply or certified nothing */
    if (n <= BRACKET_SVD_ALWAYS_N)
        return 1;
    if (n > BRACKET_SVD_SELF_MAX_N)
        return 0;                      /* 22 n^3 against symeig's 9 n^3: symeig's certificate stands */
    return !(logt_spread(logt, n) <= BRACKET_SVD_SPREAD);
}

/* keep the better (smaller-rank) upper certificate */
static void take_upper(bracket_t *out, const upper_cert_t *c)
{
    if (c->rank > 0 && c->rank < out->up.rank)
        out->up = *c;
}

/* log t_i = (lognorm_i + log w_i) / 2 for symeig and pchol (n entries, caller frees). */
static double *make_logt(const smx_t *A, const pointset_t *K)
{
    size_t n = A->n;
    double *logt = ar_calloc(n, sizeof *logt, "log t");
    if (!logt)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        double lw = 0.0;
        if (K->w) {
            slong e;
            double mant = fmpz_get_d_2exp(&e, K->w + i);
            lw = log(mant) + (double)e * M_LN2;
        }
        logt[i] = 0.5 * (A->lognorm[i] + lw);
    }
    return logt;
}

/* Row orders of the certified factors, growth candidates of bracket_grow_lower: slot 0 the
 * randomized factor's, slots 1..3 those of the full symeig, pchol and SVD factors (every one that
 * certified a non-trivial rank: the growth runs over each, so that its result does not depend on
 * which of them gave the upper end). */
#define BRACKET_ORDERS 4
typedef struct {
    size_t *ord[BRACKET_ORDERS];
    size_t len[BRACKET_ORDERS];
} factor_orders_t;

/* A row and its largest entry, for the peak order's sort. */
typedef struct {
    double peak;
    size_t i;
} peak_key;

static int peak_cmp(const void *pa, const void *pb)
{
    const peak_key *a = pa, *b = pb;
    return a->peak > b->peak ? -1 : a->peak < b->peak ? 1 : (a->i > b->i) - (a->i < b->i);
}

size_t bracket_peak_order(const smx_t *A, size_t *order)
{
    size_t m = A->m, n = A->n;
    peak_key *key = ar_calloc(m, sizeof *key, "peak order");
    if (!key)
        return 0;
    for (size_t i = 0; i < m; i++)
        key[i].i = i;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < m; i++)
            if (A->a[i + j * m] > key[i].peak)
                key[i].peak = A->a[i + j * m];
    qsort(key, m, sizeof *key, peak_cmp);
    for (size_t i = 0; i < m; i++)
        order[i] = key[i].i;
    free(key);
    return m;
}

/* One full factorisation; the certified factor U (m x rank) in pivoted-QR row order into slot. */
static ar_status full_one(const smx_t *A, upper_method_t method, const double *logt, double eps,
                          upper_cert_t *c, bracket_t *out, factor_orders_t *fo, int slot)
{
    double *U = NULL, *V = NULL;
    int want = fo && fo->ord[slot];
    ar_status st = upper_certify(A, method, logt, eps, c, want ? &U : NULL, want ? &V : NULL);
    out->upper_flops += bracket_full_flops(method, A->m, A->n);
    if (st == AR_OK && U && c->rank > 0 && c->method != AR_METHOD_TRIVIAL)
        fo->len[slot] = rsvd_pivots_worth(A->m, A->n, c->rank) ? la_row_pivots(A->m, c->rank, U, fo->ord[slot])
                                                               : bracket_peak_order(A, fo->ord[slot]);
    free(U);
    free(V);
    if (st == AR_OK)
        take_upper(out, c);
    return st;
}

/* The full factorisations (svd, symeig, pchol) under the policy of bracket_opts_t; fo (or NULL):
 * the row orders of their certified factors (slots 1..3). */
static ar_status full_uppers(const smx_t *A, const pointset_t *K, int self, int rsvd_auto, double eps,
                             const bracket_opts_t *o, bracket_t *out, factor_orders_t *fo)
{
    ar_status st = AR_OK;
    int symeig_on = o->use_symeig > 0 || (o->use_symeig < 0 && !rsvd_auto);
    int pchol_on = o->use_pchol > 0 || (o->use_pchol < 0 && !rsvd_auto);
    double *logt = NULL;
    if (self && (symeig_on || pchol_on)) {
        if (!(logt = make_logt(A, K)))
            return AR_ENOMEM;
        if (symeig_on) {
            bracket_say(o, "upper: symmetric eigendecomposition (n = %zu)", A->n);
            if ((st = full_one(A, UPPER_SYMEIG, logt, eps, &out->up_symeig, out, fo, 1)))
                goto done;
        }
        /* pivoted Cholesky: when asked, or (auto) when symeig certified nothing non-trivial */
        if (o->use_pchol > 0 || (pchol_on && out->up.method != AR_METHOD_SYMEIG)) {
            bracket_say(o, "upper: pivoted Cholesky (n = %zu)", A->n);
            if ((st = full_one(A, UPPER_PCHOL, logt, eps, &out->up_pchol, out, fo, 2)))
                goto done;
        }
    }
    /* The truncated SVD: always when asked or for cross-attention; in auto
     * mode for self-attention too unless symeig already is the truncated SVD
     * up to a near-scalar similarity (see bracket_svd_needed); never in auto
     * mode when rsvd replaces the full factorisations. */
    int svd_auto = !self || bracket_svd_needed(A->n, logt, &out->up);
    /* unweighted self-attention above BRACKET_SVD_UNWEIGHTED_MAX_N: symeig's end stands */
    if (self && svd_auto && logt && A->n > BRACKET_SVD_UNWEIGHTED_MAX_N && !pointset_has_multiplicities(K) &&
        out->up.method != AR_METHOD_TRIVIAL && out->up.rank > 0 && logt_spread(logt, A->n) > BRACKET_SVD_SPREAD)
        svd_auto = 0;
    if (o->use_svd > 0 || (o->use_svd < 0 && !rsvd_auto && svd_auto)) {
        bracket_say(o, "upper: truncated SVD (%zu x %zu)", A->m, A->n);
        if ((st = full_one(A, UPPER_SVD, NULL, eps, &out->up_svd, out, fo, 3)))
            goto done;
    }
done:
    free(logt);
    return st;
}

/* The randomized certificates on the held matrix.  Cross-attention: rsvd.  Self-attention:
 * rsym (the randomized symeig) alone when log t is nearly constant (then S is a multiple of A and
 * the two coincide, bracket_svd_needed); otherwise rsvd first, then rsym seeking only ranks below
 * rsvd's (on weighted sets rsym can be much better; on unweighted sets with a spread of
 * normalisers, such as the ball, much worse).  Every run is capped by the caller's certified
 * upper end.  out->rsvd describes the sketch of the better one. */

static ar_status random_uppers(const smx_t *A, const pointset_t *K, int self, double eps, size_t l0,
                               size_t max_sketch, const bracket_opts_t *o, bracket_t *out, size_t *order,
                               size_t *order_len)
{
    amat_t M;
    amat_memory(&M, A);
    rsvd_opts_t ro;
    bracket_rsvd_opts(o, l0, BRACKET_RSVD_POWER, &ro);
    ro.cap = o->lower_cap;
    ro.max_sketch = max_sketch;
    double *logt = NULL;
    ar_status st = AR_OK;
    rsvd_info_t info;
    size_t len2 = 0;
    *order_len = 0;
    if (self && !(logt = make_logt(A, K)))
        return AR_ENOMEM;
    /* bracket_svd_needed with a non-trivial certificate: n <= BRACKET_SVD_ALWAYS_N or log t spreads */
    upper_cert_t some = { .rank = 1, .method = AR_METHOD_RSYM };
    int svd_first = !self || bracket_svd_needed(A->n, logt, &some);
    int sym_on = self;
    if (self && o->one_random) {          /* one factorisation: rsym on weighted sets, rsvd otherwise */
        if (pointset_has_multiplicities(K))
            svd_first = 0;
        else if (svd_first)
            sym_on = 0;
    }
    if (svd_first) {
        ro.row_order = order;
        ro.row_order_len = order_len;
        if ((st = upper_rsvd(&M, eps, &ro, &out->up_rsvd, &info)))
            goto done;
        out->rsvd = info;
        take_upper(out, &out->up_rsvd);
        if (out->up_rsvd.method == AR_METHOD_RSVD && (ro.cap == 0 || out->up_rsvd.rank < ro.cap))
            ro.cap = out->up_rsvd.rank;
        /* rsym then seeks only ranks below rsvd's (sketches of at most cap + 16 columns): it
         * starts at that size, rsvd's sketch having shown what the rank needs, instead of
         * growing to it again from the lower end's guess (issue 24: 3 rounds -> 1 on the
         * 4000-point self-attention instance of bench_dense) */
        if (out->up_rsvd.method == AR_METHOD_RSVD && ro.l0 < ro.cap + 16)
            ro.l0 = ro.cap + 16 < info.sketch ? ro.cap + 16 : info.sketch;
    }
    if (sym_on) {
        /* order NULL: no row order wanted (no lower end to grow) */
        size_t *o2 = order && *order_len ? ar_calloc(A->m, sizeof *o2, "sketch row order") : order;
        if (order && !o2) {
            st = AR_ENOMEM;
            goto done;
        }
        ro.row_order = o2;
        ro.row_order_len = o2 ? &len2 : NULL;
        if ((st = upper_rsym(&M, logt, eps, &ro, &out->up_rsym, &info))) {
            if (o2 != order)
                free(o2);
            goto done;
        }
        if (!svd_first || (out->up_rsym.method == AR_METHOD_RSYM && out->up_rsym.rank < out->up.rank))
            out->rsvd = info;
        else if (out->up_rsym.method == AR_METHOD_RSYM)
            out->rsvd.exhausted = 0;        /* something randomized was certified */
        if (o2 != order) {                  /* keep the order of the better certificate */
            if (len2 && out->up_rsym.method == AR_METHOD_RSYM && out->up_rsym.rank < out->up.rank) {
                memcpy(order, o2, len2 * sizeof *order);
                *order_len = len2;
            }
            free(o2);
        } else {
            *order_len = len2;
        }
        take_upper(out, &out->up_rsym);
    }
done:
    /* each pass over A costs about 2 m n flops per sketch column */
    out->upper_flops += (double)M.passes * 2.0 * (double)A->m * (double)A->n *
                        (double)(out->rsvd.sketch ? out->rsvd.sketch : l0);
    free(logt);
    return st;
}

ar_status bracket_compute(const pointset_t *Q, const pointset_t *K, double beta, double eps,
                          const bracket_opts_t *o, bracket_t *out)
{
    double t0 = clock_now();
    bracket_opts_t def;
    ar_status st = bracket_begin(Q, K, beta, eps, &o, &def, out);
    if (st != AR_OK)
        return st;
    if (Q != K && bracket_is_self(Q, K))
        Q = K;                                  /* the keys' multiplicities; the same rows */
    int self = (Q == K) && !o->image_only && !o->bias;   /* a bias: the image's constructions only */
    size_t m = Q->n, n = K->n, r = m < n ? m : n, big = m > n ? m : n;
    int rsvd_auto = o->use_rsvd < 0 && o->use_svd < 0 && big > BRACKET_RSVD_MIN_N;
    int rsvd_on = o->use_rsvd > 0 || rsvd_auto;
    int forced_full = o->use_svd > 0 || o->use_symeig > 0 || o->use_pchol > 0;
    size_t stream_bytes = 0, stream_max = 0;
    if (rsvd_on && !forced_full && o->prec == 0 && (st = bracket_stream_bytes(o, &stream_bytes)))
        return st;
    if (rsvd_on && !forced_full && o->prec == 0 && (double)m * (double)n * 8.0 > (double)stream_bytes) {
        st = bracket_compute_stream(Q, K, beta, eps, o, out);
        if (st != AR_EINVAL || out->enclosure || bracket_stream_max_n(&stream_max) || big > stream_max)
            return st;
        /* the double enclosure does not apply: the whole matrix in Arb below (if it fits) */
        memset(out, 0, sizeof *out);
    }

    smx_t A;
    memset(&A, 0, sizeof A);
    double t1 = clock_now();
    bracket_say(o, "enclosure of A (%zu x %zu)", m, n);
    st = o->prec == 0 ? smx_compute_dbl_bias(&A, Q->x, m, K->x, n, Q->d, K->w, o->bias, beta, o->threads)
                      : smx_compute_bias(&A, Q->x, m, K->x, n, Q->d, K->w, o->bias, beta, o->prec, o->threads);
    out->seconds_enclose = clock_now() - t1;
    if (st != AR_OK)
        return st;
    out->maxerr = A.maxerr;
    out->prec = A.prec;
    out->enclosure = A.method;
    bracket_set_trivial(out, m, n);
    if (!(2.0 * A.maxerr < eps)) {
        smx_clear(&A);
        out->seconds = clock_now() - t0;
        return AR_OK;                       /* status stays "inconclusive" */
    }
    size_t cap = o->lower_cap ? o->lower_cap : (size_t)-1;

    /* lower, first part: block test matrices on farthest-point prefixes (sizes the sketch) */
    size_t *order = NULL;
    factor_orders_t fo;
    memset(&fo, 0, sizeof fo);
    /* the points the lower end's row heuristics see: the queries, or the image's rows */
    pointset_t Qh = *Q;
    double *arows = NULL;
    if (o->use_lower && o->lower_from_matrix) {
        if (!(arows = ar_calloc(m * n, sizeof *arows, "image rows"))) {
            st = AR_ENOMEM;
            goto done;
        }
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < m; i++)
                arows[i * n + j] = A.a[i + j * m];
        Qh.x = arows;
        Qh.d = n;
    }
    if (o->use_lower) {
        double t2 = clock_now();
        bracket_say(o, "lower: block test matrices on farthest-point rows");
        order = ar_calloc(m, sizeof *order, "farthest-point order");
        if (!order) {
            st = AR_ENOMEM;
            goto done;
        }
        lower_cert_t lc;
        if ((st = bracket_blocks_fps(&A, &Qh, 0, eps, cap, order, &lc)))
            goto done;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
        if (!self && (st = bracket_blocks_fps(&A, &Qh, 1, eps, cap, order, &lc)))
            goto done;
        if (!self && lc.rank > out->lo.rank)
            out->lo = lc;
        out->seconds_lower += clock_now() - t2;
    }
    /* a lower end of min(m, n) decides the bracket (rank_eps <= rank A <= min(m, n), the trivial
     * upper end): no factorisation or further lower search can change it, so none runs unless
     * one was asked for (the ball route's full-rank shells instances: 75 s -> 16 s at n = 3576) */
    if (out->lo.rank == r && !forced_full && o->use_rsvd <= 0) {
        bracket_say(o, "lower end %zu = min(m, n): the bracket is decided", r);
        st = bracket_finish(out);
        goto done;
    }
    /* a lower end of min(m, n) - 1 above BRACKET_NEAR_FULL_N: an upper construction could move the
     * trivial upper end by one at most, at the cost of a full factorisation (issue 32: 41 s of
     * symeig, pchol and SVD on a 4096-token d = 128 head bracketed [4095, 4096]); none runs unless
     * one was asked for.  Below it the factorisation is cheap and may decide the bracket. */
    if (out->lo.rank + 1 == r && r > BRACKET_NEAR_FULL_N && !forced_full && o->use_rsvd <= 0) {
        bracket_say(o, "lower end %zu = min(m, n) - 1: no upper construction can gain more than one", out->lo.rank);
        st = bracket_finish(out);
        goto done;
    }

    double t3 = clock_now();
    /* a sketch of more than half the matrix costs more than factoring it: then (auto mode) the
     * full factorisations run instead, also when the randomized ones certified nothing by then */
    size_t l0 = bracket_sketch_size(out->lo.rank, o->lower_cap, r);
    if (rsvd_auto && 2 * l0 > r)
        rsvd_auto = rsvd_on = 0;
    int grow = o->use_lower && !o->no_grow;
    for (int q = 0; grow && q < BRACKET_ORDERS; q++)
        if (!(fo.ord[q] = ar_calloc(m, sizeof *fo.ord[q], "factor row order"))) {
            st = AR_ENOMEM;
            goto done;
        }
    size_t scratch_len = 0;
    if (rsvd_on && (st = random_uppers(&A, K, self, eps, l0, rsvd_auto ? r / 2 : 0, o, out, fo.ord[0],
                                       grow ? &fo.len[0] : &scratch_len)))
        goto done;
    /* a randomized certificate above half the full rank leaves no pivoted order (cert_rsvd.h) */
    if (grow && fo.len[0] == 0 && !rsvd_pivots_worth(m, n, out->up.rank) &&
        out->up.method != AR_METHOD_TRIVIAL)
        fo.len[0] = bracket_peak_order(&A, fo.ord[0]);
    if (rsvd_auto && out->rsvd.exhausted && out->up.method == AR_METHOD_TRIVIAL) {
        bracket_say(o, "upper: randomized sketches exhausted at %zu columns, full factorisation", r / 2);
        rsvd_auto = 0;
    }
    if ((st = full_uppers(&A, K, self, rsvd_auto, eps, o, out, grow ? &fo : NULL)))
        goto done;
    out->seconds_upper = clock_now() - t3;

    /* lower, second part, under one budget tied to the upper constructions' cost (issue 32):
     * growth (or peeling) over the rows of each certified factor (randomized or full) in
     * pivoted-QR order, then index-order nets; never larger than a certified upper end */
    if (o->use_lower) {
        double t2 = clock_now();
        size_t ncap = out->up.rank < cap ? out->up.rank : cap;
        lower_ctl_t ctl;
        bracket_lower_ctl(o, out->upper_flops, &ctl);
        for (int q = 0; q < BRACKET_ORDERS; q++)
            if (fo.len[q] && (st = bracket_grow_lower(&A, fo.ord[q], fo.len[q], eps, ncap, o, out, &ctl)))
                goto done;
        bracket_say(o, "lower: nets of at most %zu points", ncap);
        ctl.floor = out->lo.rank;          /* nets no larger than the lower end held: not probed */
        double whole = ctl.budget;
        ctl.budget = bracket_share_budget(&ctl);
        lower_cert_t lc;
        st = lower_nets_ctl(&A, Qh.x, Qh.d, eps, ncap, &ctl, &lc);
        ctl.budget = whole;
        if (st)
            goto done;
        if (lc.rank > out->lo.rank)
            out->lo = lc;
        bracket_lower_record(out, &ctl);
        out->seconds_lower += clock_now() - t2;
    }
    st = bracket_finish(out);

done:
    for (int q = 0; q < BRACKET_ORDERS; q++)
        free(fo.ord[q]);
    free(order);
    free(arows);
    smx_clear(&A);
    out->seconds = clock_now() - t0;
    return st;
}
