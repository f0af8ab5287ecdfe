/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kdtree.c -- k-d tree and rigorous pair sums (see kdtree.h). */
#include "numerics/kdtree.h"

#include <fenv.h>
#include <stdatomic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "numerics/expd.h"
#include "numerics/fround.h"
#include "base/parallel.h"

#define STACK_MAX 256   /* > 2 * depth: depth <= log2(m) + 1 <= 65 */

void kdtree_free(kdtree_t *t)
{
    free(t->x);
    free(t->perm);
    free(t->nb);
    free(t->ne);
    free(t->kid);
    free(t->lo);
    free(t->hi);
    memset(t, 0, sizeof *t);
}

/* Reorder perm[b..e) so that the element of rank k (by coordinate c of x)
 * is at position k, smaller ones before, larger ones after (quickselect,
 * median-of-three pivot, ties by index: deterministic). */
static int less(const double *x, size_t d, size_t c, size_t i, size_t j)
{
    double a = x[i * d + c], b = x[j * d + c];
    return a < b || (a == b && i < j);
}

static void select_k(size_t *perm, const double *x, size_t d, size_t c, size_t b, size_t e, size_t k)
{
    while (e - b > 1) {
        size_t mid = b + (e - b) / 2, last = e - 1;
        /* median of three to perm[last] */
        if (less(x, d, c, perm[mid], perm[b])) { size_t s = perm[mid]; perm[mid] = perm[b]; perm[b] = s; }
        if (less(x, d, c, perm[last], perm[b])) { size_t s = perm[last]; perm[last] = perm[b]; perm[b] = s; }
        if (less(x, d, c, perm[mid], perm[last])) { size_t s = perm[mid]; perm[mid] = perm[last]; perm[last] = s; }
        size_t piv = perm[last], st = b;
        for (size_t i = b; i < last; i++)
            if (less(x, d, c, perm[i], piv)) {
                size_t s = perm[i]; perm[i] = perm[st]; perm[st] = s;
                st++;
            }
        perm[last] = perm[st];
        perm[st] = piv;
        if (st == k)
            return;
        if (k < st)
            e = st;
        else
            b = st + 1;
    }
}

typedef struct {
    kdtree_t *t;
    const double *x;   /* original coordinates */
    size_t cap;
} build_t;

static void box_of(build_t *B, size_t k)
{
    kdtree_t *t = B->t;
    size_t d = t->d;
    double *lo = t->lo + k * d, *hi = t->hi + k * d;
    for (size_t c = 0; c < d; c++) {
        lo[c] = INFINITY;
        hi[c] = -INFINITY;
    }
    for (size_t i = t->nb[k]; i < t->ne[k]; i++) {
        const double *p = B->x + t->perm[i] * d;
        for (size_t c = 0; c < d; c++) {
            if (p[c] < lo[c])
                lo[c] = p[c];
            if (p[c] > hi[c])
                hi[c] = p[c];
        }
    }
}

/* Node k covers [nb, ne): box, then split at the median of the widest coordinate. */
static void build_node(build_t *B, size_t k, int depth)
{
    kdtree_t *t = B->t;
    size_t d = t->d;
    box_of(B, k);
    t->kid[2 * k] = t->kid[2 * k + 1] = 0;
    size_t b = t->nb[k], e = t->ne[k];
    if (e - b <= KDTREE_LEAF || depth > 100 || t->nnode + 2 > B->cap)
        return;
    size_t cw = 0;
    double w = -1.0;
    for (size_t c = 0; c < d; c++) {
        double wc = t->hi[k * d + c] - t->lo[k * d + c];
        if (wc > w) {
            w = wc;
            cw = c;
        }
    }
    if (!(w > 0))                   /* all points equal: a leaf of any size */
        return;
    size_t mid = b + (e - b) / 2;
    select_k(t->perm, B->x, d, cw, b, e, mid);
    size_t l = t->nnode++, r = t->nnode++;
    t->nb[l] = b;
    t->ne[l] = mid;
    t->nb[r] = mid;
    t->ne[r] = e;
    t->kid[2 * k] = l;
    t->kid[2 * k + 1] = r;
    build_node(B, l, depth + 1);
    build_node(B, r, depth + 1);
}

ar_status kdtree_build(kdtree_t *t, const double *x, size_t m, size_t d)
{
    memset(t, 0, sizeof *t);
    if (!x || m == 0 || d == 0 || d > KDTREE_MAXD || m > (size_t)UINT32_MAX) {
        ar_error_set("kdtree: need 1 <= m <= 2^32 - 1 points and 1 <= d <= %d", KDTREE_MAXD);
        return AR_EINVAL;
    }
    for (size_t i = 0; i < m * d; i++)
        if (!isfinite(x[i])) {
            ar_error_set("kdtree: coordinate %zu of point %zu is not finite", i % d, i / d);
            return AR_EINVAL;
        }
    /* leaves hold > KDTREE_LEAF / 2 points except in trees of <= KDTREE_LEAF points:
     * fewer than 2 m / (KDTREE_LEAF / 2) + 1 nodes */
    size_t cap = 4 * (m / KDTREE_LEAF) + 8;
    t->m = m;
    t->d = d;
    t->x = ar_calloc(m, d * sizeof(double), "k-d tree points");
    t->perm = ar_calloc(m, sizeof(size_t), "k-d tree permutation");
    t->nb = ar_calloc(cap, sizeof(size_t), "k-d tree nodes");
    t->ne = ar_calloc(cap, sizeof(size_t), "k-d tree nodes");
    t->kid = ar_calloc(cap, 2 * sizeof(size_t), "k-d tree nodes");
    t->lo = ar_calloc(cap, d * sizeof(double), "k-d tree boxes");
    t->hi = ar_calloc(cap, d * sizeof(double), "k-d tree boxes");
    if (!t->x || !t->perm || !t->nb || !t->ne || !t->kid || !t->lo || !t->hi) {
        kdtree_free(t);
        return AR_ENOMEM;
    }
    for (size_t i = 0; i < m; i++)
        t->perm[i] = i;
    build_t B = { t, x, cap };
    t->nnode = 1;
    t->nb[0] = 0;
    t->ne[0] = m;
    build_node(&B, 0, 0);
    for (size_t p = 0; p < m; p++)
        memcpy(t->x + p * d, x + t->perm[p] * d, d * sizeof(double));
    return AR_OK;
}

/* ---- pairs below a threshold (every decision rounded toward -inf) --------- */

typedef struct {
    const kdtree_t *t;
    double s, T, stop;
    double *S;
    const double *w;
    uint32_t *cnt;
    int (*fn)(size_t p, size_t q, void *ctx);
    void *ctx;
    kdtree_gauss_t res;
    int stopped;
    atomic_int *halt;          /* shared: set by the job that stops first */
    const size_t *tasks;       /* node pairs (a, b) of this job, ntask of them; NULL: the root */
    size_t ntask;
} pairs_t;

/* The squared gap of two intervals from the two candidate differences
 * (g1 = lo_b - hi_a, g2 = lo_a - hi_b, each rounded down): at most one is
 * positive, and a positive exact difference of doubles rounds down to a
 * positive double, so this is the square (rounded down) of the one that is
 * positive, else 0: the same value as the branch on the sign (if hi_a < lo_b
 * ... else if lo_a > hi_b ... else 0), computed without a branch (the
 * comparison's 0 or 1 times the square is exact). */
static inline double gap_sq_down(double g1, double g2)
{
    double g = g1 > g2 ? g1 : g2;
    return (double)(g > 0.0) * (g * g);
}

/* Downward-rounded (s/2) * squared gap between boxes of nodes a and b: a
 * lower bound of (s/2)|x_p - x_q|^2 for all p in a, q in b (in FE_DOWNWARD
 * every +, -, * of nonnegative operands is <= the exact value). */
static double box_gap(const kdtree_t *t, size_t a, size_t b, double half)
{
    size_t d = t->d;
    const double *alo = t->lo + a * d, *ahi = t->hi + a * d, *lo = t->lo + b * d, *hi = t->hi + b * d;
    double g2 = 0.0;
    for (size_t c = 0; c < d; c++) {
        g2 += gap_sq_down(lo[c] - ahi[c], alo[c] - hi[c]);
    }
    return g2 * half;
}

/* One evaluated pair p < q with L = (s/2)|x_p - x_q|^2 rounded down: count it,
 * and add its weight to both rows' upward sums (or hand it to the visitor).
 * Returns nonzero when the traversal must stop. */
static int pair_take(pairs_t *P, size_t p, size_t q, double L)
{
    P->res.pairs++;
    if (L < P->res.min_L)
        P->res.min_L = L;
    if (P->fn) {
        if (P->fn(p, q, P->ctx)) {
            P->stopped = 1;
            return 1;
        }
        return 0;
    }
    double e = L > 700.0 ? 0x1p-1000 : expd(-L);
    /* upward sums and products in downward mode: -((-a) - b) >= a + b,
     * -((-a) b) >= a b */
    double ep = P->w ? -((-e) * P->w[q]) : e, eq = P->w ? -((-e) * P->w[p]) : e;
    P->S[p] = -((-P->S[p]) - ep);
    P->S[q] = -((-P->S[q]) - eq);
    P->cnt[p]++;
    P->cnt[q]++;
    if (P->S[p] > P->stop || P->S[q] > P->stop) {
        P->stopped = 1;
        if (P->halt)
            atomic_store(P->halt, 1);
    }
    return 0;
}

/* |u - v| rounded down (in FE_DOWNWARD): both differences are rounded down and
 * the larger is the nonnegative one, the same value as the branch on the sign
 * (u > v ? u - v : v - u), without a branch. */
static inline double absdiff_down(double u, double v)
{
    double a = u - v, b = v - u;
    return a > b ? a : b;
}

/* Pairs p < q with p in leaf a, q in leaf b (a == b, or a's points all before b's).
 * For each p, the squared distances to four candidates q are formed side by
 * side (independent sums, each over the coordinates in order: the same
 * rounded value as one at a time), then the pairs are taken in the order of
 * q, so every row's sum sees the same terms in the same order as one pair at
 * a time would. */
static void leaf_pairs(pairs_t *P, size_t a, size_t b, double half)
{
    const kdtree_t *t = P->t;
    size_t d = t->d;
    double T = P->T;
    const double *lo = t->lo + b * d, *hi = t->hi + b * d;
    for (size_t p = t->nb[a]; p < t->ne[a] && !P->stopped; p++) {
        const double *xp = t->x + p * d;
        size_t q0 = t->nb[b] > p + 1 ? t->nb[b] : p + 1, qe = t->ne[b];
        if (q0 >= qe)
            continue;
        /* the point against leaf b's box (same downward bound) */
        double h2 = 0.0;
        for (size_t c = 0; c < d; c++) {
            h2 += gap_sq_down(lo[c] - xp[c], xp[c] - hi[c]);
        }
        if (h2 * half >= T)
            continue;
        size_t q = q0;
        for (; q + 4 <= qe; q += 4) {
            const double *x0 = t->x + q * d, *x1 = x0 + d, *x2 = x1 + d, *x3 = x2 + d;
            double D0 = 0.0, D1 = 0.0, D2 = 0.0, D3 = 0.0;
            for (size_t c = 0; c < d; c++) {
                D0 += absdiff_down(xp[c], x0[c]) * absdiff_down(xp[c], x0[c]);
                D1 += absdiff_down(xp[c], x1[c]) * absdiff_down(xp[c], x1[c]);
                D2 += absdiff_down(xp[c], x2[c]) * absdiff_down(xp[c], x2[c]);
                D3 += absdiff_down(xp[c], x3[c]) * absdiff_down(xp[c], x3[c]);
            }
            double L[4] = { D0 * half, D1 * half, D2 * half, D3 * half };
            for (size_t k = 0; k < 4; k++)
                if (L[k] < T && pair_take(P, p, q + k, L[k]))
                    return;
        }
        for (; q < qe; q++) {
            const double *xq = t->x + q * d;
            double D = 0.0;
            for (size_t c = 0; c < d; c++)
                D += absdiff_down(xp[c], xq[c]) * absdiff_down(xp[c], xq[c]);
            double L = D * half;
            if (L < T && pair_take(P, p, q, L))
                return;
        }
    }
}

/* Dual traversal of node pairs (a, b) with a == b or a's points all before
 * b's: every unordered pair p < q lies in exactly one leaf pair reached this
 * way unless a box gap bound >= T prunes it. */
static void dual(pairs_t *P, size_t a, size_t b, double half)
{
    if (P->stopped || (P->halt && atomic_load(P->halt) && (P->stopped = 1)))
        return;
    const kdtree_t *t = P->t;
    if (box_gap(t, a, b, half) >= P->T)
        return;
    size_t al = t->kid[2 * a], ar = t->kid[2 * a + 1], bl = t->kid[2 * b], br = t->kid[2 * b + 1];
    if (a == b) {
        if (al == 0) {
            leaf_pairs(P, a, a, half);
            return;
        }
        dual(P, al, al, half);
        dual(P, al, ar, half);
        dual(P, ar, ar, half);
        return;
    }
    if (al == 0 && bl == 0) {
        leaf_pairs(P, a, b, half);
        return;
    }
    if (al != 0 && (bl == 0 || t->ne[a] - t->nb[a] >= t->ne[b] - t->nb[b])) {
        dual(P, al, b, half);
        dual(P, ar, b, half);
    } else {
        dual(P, a, bl, half);
        dual(P, a, br, half);
    }
}

/* Executed in FE_DOWNWARD (numerics/fround). */
static FROUND_BODY void pairs_body(void *arg)
{
    pairs_t *P = arg;
    P->res.pairs = 0;
    P->res.min_L = INFINITY;
    if (!P->tasks)
        dual(P, 0, 0, P->s * 0.5);
    for (size_t k = 0; P->tasks && k < P->ntask; k++)
        dual(P, P->tasks[2 * k], P->tasks[2 * k + 1], P->s * 0.5);
    P->res.stopped = P->stopped;
}

/* The node pairs of dual(0, 0) expanded until both nodes hold <= grain
 * points (or are leaves), in traversal order; pruned pairs are dropped
 * (box gaps rounded toward -inf, as in dual). */
typedef struct {
    const kdtree_t *t;
    double half, T;
    size_t grain, n, cap;
    size_t *v;
    int oom;
} tasks_t;

static void task_push(tasks_t *K, size_t a, size_t b)
{
    if (K->n == K->cap) {
        size_t nc = K->cap ? 2 * K->cap : 256;
        size_t *v = realloc(K->v, nc * 2 * sizeof(size_t));
        if (!v) {
            K->oom = 1;
            return;
        }
        K->v = v;
        K->cap = nc;
    }
    K->v[2 * K->n] = a;
    K->v[2 * K->n + 1] = b;
    K->n++;
}

static void task_split(tasks_t *K, size_t a, size_t b)
{
    const kdtree_t *t = K->t;
    if (K->oom || box_gap(t, a, b, K->half) >= K->T)
        return;
    size_t al = t->kid[2 * a], ar = t->kid[2 * a + 1], bl = t->kid[2 * b], br = t->kid[2 * b + 1];
    size_t sa = t->ne[a] - t->nb[a], sb = t->ne[b] - t->nb[b];
    if ((sa <= K->grain || al == 0) && (sb <= K->grain || bl == 0)) {
        task_push(K, a, b);
        return;
    }
    if (a == b) {
        task_split(K, al, al);
        task_split(K, al, ar);
        task_split(K, ar, ar);
    } else if (al != 0 && sa > K->grain && (bl == 0 || sb <= K->grain || sa >= sb)) {
        task_split(K, al, b);
        task_split(K, ar, b);
    } else {
        task_split(K, a, bl);
        task_split(K, a, br);
    }
}

static FROUND_BODY void tasks_body(void *arg)
{
    tasks_t *K = arg;
    task_split(K, 0, 0);
}

/* The pair search's fixed partition (base/parallel.h): the node pairs of
 * dual(0, 0), expanded to a grain of m / 64 points (tasks_t), are dealt in
 * traversal order to the part with the smallest load so far (points of both
 * nodes; ties to the lower part), and each part sums its pairs into its own
 * rows S_j, cnt_j; the rows are then added part after part.  The number of
 * parts is a function of m alone: 1 below 4096 points (the whole traversal),
 * PAIR_PARTS_SMALL below PAIR_PARTS_BIG_M (the two fixed jobs of earlier
 * versions, whose bits every recorded packing below that size keeps), else
 * PAIR_PARTS_BIG, when the extra rows fit the allocation limit. */
#define PAIR_PARTS_SMALL 2
#define PAIR_PARTS_BIG 8
#define PAIR_PARTS_BIG_M ((size_t)1 << 21)

/* Contract: kdtree.h. */
size_t kdtree_pair_parts(size_t m)
{
    if (m < 4096)
        return 1;
    if (m < PAIR_PARTS_BIG_M || (double)m * (PAIR_PARTS_BIG - 1) * (sizeof(double) + sizeof(uint32_t)) >
                                    (double)ar_max_alloc())
        return PAIR_PARTS_SMALL;
    return PAIR_PARTS_BIG;
}

static void pairs_part(void *ctx, size_t j)
{
    pairs_t *J = ctx;
    fround_run(FE_DOWNWARD, pairs_body, J + j);
}

/* The parts' node pairs: own[j] (2 * nown[j] entries) for each part j < np. */
static ar_status pairs_deal(const kdtree_t *t, const tasks_t *K, size_t np, size_t **own, size_t *nown)
{
    double load[PAIR_PARTS_BIG] = { 0 };
    for (size_t j = 0; j < np; j++) {
        own[j] = ar_calloc(K->n, 2 * sizeof(size_t), "pair tasks");
        if (!own[j])
            return AR_ENOMEM;
    }
    for (size_t k = 0; k < K->n; k++) {
        size_t a = K->v[2 * k], b = K->v[2 * k + 1], j = 0;
        for (size_t i = 1; i < np; i++)
            if (load[i] < load[j])
                j = i;
        load[j] += (double)(t->ne[a] - t->nb[a]) + (double)(t->ne[b] - t->nb[b]);
        own[j][2 * nown[j]] = a;
        own[j][2 * nown[j] + 1] = b;
        nown[j]++;
    }
    return AR_OK;
}

/* Contract: kdtree.h. */
ar_status kdtree_gauss_pairs(const kdtree_t *t, double s, double T, double stop, const double *w,
                             double *S, uint32_t *cnt, kdtree_gauss_t *out)
{
    return kdtree_gauss_pairs_parts(t, s, T, stop, w, S, cnt, t ? kdtree_pair_parts(t->m) : 1, out);
}

/* Contract: kdtree.h. */
ar_status kdtree_gauss_pairs_parts(const kdtree_t *t, double s, double T, double stop, const double *w,
                                   double *S, uint32_t *cnt, size_t np, kdtree_gauss_t *out)
{
    if (!t || !t->x || !S || !cnt || !out || !(s >= 0) || !isfinite(s) || !isfinite(T) || isnan(stop) ||
        np < 1 || np > PAIR_PARTS_BIG || (np > 1 && t->m < 4096)) {
        ar_error_set("kdtree_gauss_pairs: need a tree, outputs, finite s >= 0, finite T and 1 <= parts <= %d "
                     "(1 below 4096 points)", PAIR_PARTS_BIG);
        return AR_EINVAL;
    }
    size_t m = t->m;
    memset(S, 0, m * sizeof(double));
    memset(cnt, 0, m * sizeof(uint32_t));
    expd_init();
    atomic_int halt;
    atomic_init(&halt, 0);
    pairs_t J[PAIR_PARTS_BIG];
    double *Sj[PAIR_PARTS_BIG] = { S };
    uint32_t *cj[PAIR_PARTS_BIG] = { cnt };
    size_t *own[PAIR_PARTS_BIG] = { NULL }, nown[PAIR_PARTS_BIG] = { 0 };
    tasks_t K = { t, s * 0.5, T, m / 64 > 64 ? m / 64 : 64, 0, 0, NULL, 0 };
    ar_status st = AR_OK;
    if (np > 1) {
        fround_run(FE_DOWNWARD, tasks_body, &K);
        if (K.oom)
            st = AR_ENOMEM;
        for (size_t j = 1; j < np && st == AR_OK; j++) {
            Sj[j] = ar_calloc(m, sizeof(double), "pair sums (one part)");
            cj[j] = ar_calloc(m, sizeof(uint32_t), "pair counts (one part)");
            if (!Sj[j] || !cj[j])
                st = AR_ENOMEM;
        }
        if (st == AR_OK && K.n > 0)
            st = pairs_deal(t, &K, np, own, nown);
    }
    if (st == AR_OK) {
        size_t nrun = K.n > 0 ? np : 1;     /* no task: a small tree, the whole traversal in one part */
        for (size_t j = 0; j < nrun; j++) {
            pairs_t z = { t, s, T, stop, Sj[j], w, cj[j], NULL, NULL, { 0, INFINITY, 0 }, 0, &halt,
                          K.n > 0 ? own[j] : NULL, nown[j] };
            J[j] = z;
        }
        par_for(nrun, pairs_part, J, NULL);
        *out = J[0].res;
        for (size_t j = 1; j < nrun; j++) {
            for (size_t p = 0; p < m; p++) {
                if (Sj[j][p] != 0)
                    S[p] = nextafter(S[p] + Sj[j][p], INFINITY);     /* round to nearest, one step up */
                cnt[p] += cj[j][p];
            }
            out->pairs += J[j].res.pairs;
            if (J[j].res.min_L < out->min_L)
                out->min_L = J[j].res.min_L;
            out->stopped |= J[j].res.stopped;
        }
    }
    for (size_t j = 0; j < np; j++) {
        free(own[j]);
        if (j > 0) {
            free(Sj[j]);
            free(cj[j]);
        }
    }
    free(K.v);
    if (st == AR_ENOMEM)
        ar_error_set("kdtree_gauss_pairs: out of memory");
    return st;
}

void kdtree_pairs_visit(const kdtree_t *t, double s, double T,
                        int (*fn)(size_t p, size_t q, void *ctx), void *ctx)
{
    pairs_t P = { t, s, T, INFINITY, NULL, NULL, NULL, fn, ctx, { 0, INFINITY, 0 }, 0, NULL, NULL, 0 };
    fround_run(FE_DOWNWARD, pairs_body, &P);
}

/* ---- single rows (every decision rounded toward -inf) --------------------- */

/* One row p: the pairs (p, q), q != p, with L_pq < T (the downward value leaf_pairs forms), in
 * the depth-first order of the tree (left child first); boxes pruned at a downward point-to-box
 * bound >= T.  S, cnt, min_L as kdtree_gauss_rows. */
static void row_sum(const kdtree_t *t, size_t p, double half, double T, double *S, uint32_t *cnt, double *min_L)
{
    size_t d = t->d, stack[STACK_MAX], top = 0;
    const double *xp = t->x + p * d;
    double sum = 0.0, mn = INFINITY;
    uint32_t n = 0;
    stack[top++] = 0;
    while (top > 0) {
        size_t k = stack[--top];
        const double *lo = t->lo + k * d, *hi = t->hi + k * d;
        double h2 = 0.0;
        for (size_t c = 0; c < d; c++)
            h2 += gap_sq_down(lo[c] - xp[c], xp[c] - hi[c]);
        if (h2 * half >= T)
            continue;
        if (t->kid[2 * k] != 0) {
            stack[top++] = t->kid[2 * k + 1];
            stack[top++] = t->kid[2 * k];
            continue;
        }
        for (size_t q = t->nb[k]; q < t->ne[k]; q++) {
            if (q == p)
                continue;
            const double *xq = t->x + q * d;
            double D = 0.0;
            for (size_t c = 0; c < d; c++)
                D += absdiff_down(xp[c], xq[c]) * absdiff_down(xp[c], xq[c]);
            double L = D * half;
            if (L < T) {
                double e = L > 700.0 ? 0x1p-1000 : expd(-L);
                sum = -((-sum) - e);
                n++;
                if (L < mn)
                    mn = L;
            }
        }
    }
    *S = sum;
    *cnt = n;
    *min_L = mn;
}

typedef struct {
    const kdtree_t *t;
    double half, T;
    const size_t *rows;
    size_t nrows, nblk;
    double *S, *minb;
    uint32_t *cnt;
} rows_t;

#define ROWS_BLOCK 64

static FROUND_BODY void rows_body(void *arg)
{
    void **a = arg;
    rows_t *R = a[0];
    size_t j = *(size_t *)a[1], b = j * ROWS_BLOCK, e = b + ROWS_BLOCK < R->nrows ? b + ROWS_BLOCK : R->nrows;
    double mn = INFINITY;
    for (size_t k = b; k < e; k++) {
        double m1;
        row_sum(R->t, R->rows[k], R->half, R->T, R->S + k, R->cnt + k, &m1);
        if (m1 < mn)
            mn = m1;
    }
    R->minb[j] = mn;
}

static void rows_block(void *ctx, size_t j)
{
    void *a[2] = { ctx, &j };
    fround_run(FE_DOWNWARD, rows_body, a);
}

/* Contract: kdtree.h. */
ar_status kdtree_gauss_rows(const kdtree_t *t, double s, double T, const size_t *rows, size_t nrows, double *S,
                            uint32_t *cnt, double *min_L)
{
    if (!t || !t->x || (nrows && (!rows || !S || !cnt)) || !min_L || !(s >= 0) || !isfinite(s) ||
        !isfinite(T)) {
        ar_error_set("kdtree_gauss_rows: need a tree, rows and outputs, finite s >= 0 and finite T");
        return AR_EINVAL;
    }
    for (size_t k = 0; k < nrows; k++)
        if (rows[k] >= t->m) {
            ar_error_set("kdtree_gauss_rows: row %zu is not a tree position (m = %zu)", rows[k], t->m);
            return AR_EINVAL;
        }
    *min_L = INFINITY;
    if (nrows == 0)
        return AR_OK;
    expd_init();
    size_t nblk = (nrows + ROWS_BLOCK - 1) / ROWS_BLOCK;
    double *minb = ar_calloc(nblk, sizeof(double), "row minima");
    if (!minb)
        return AR_ENOMEM;
    rows_t R = { t, s * 0.5, T, rows, nrows, nblk, S, minb, cnt };
    par_for(nblk, rows_block, &R, NULL);
    for (size_t j = 0; j < nblk; j++)
        if (minb[j] < *min_L)
            *min_L = minb[j];
    free(minb);
    return AR_OK;
}

/* ---- nearest neighbour (an estimate) -------------------------------------- */

double kdtree_nn_sqdist(const kdtree_t *t, size_t p)
{
    size_t d = t->d, stack[STACK_MAX], top = 0;
    const double *xp = t->x + p * d;
    double best = INFINITY;
    stack[top++] = 0;
    while (top > 0) {
        size_t k = stack[--top];
        const double *lo = t->lo + k * d, *hi = t->hi + k * d;
        double g2 = 0.0;
        for (size_t c = 0; c < d; c++) {
            double g = xp[c] < lo[c] ? lo[c] - xp[c] : xp[c] > hi[c] ? xp[c] - hi[c] : 0.0;
            g2 += g * g;
        }
        if (g2 >= best)
            continue;
        if (t->kid[2 * k] != 0) {
            size_t l = t->kid[2 * k], r = t->kid[2 * k + 1];
            /* nearer child last (popped first) */
            int in_l = 1;
            for (size_t c = 0; c < d && in_l; c++)
                if (xp[c] < t->lo[l * d + c] || xp[c] > t->hi[l * d + c])
                    in_l = 0;
            stack[top++] = in_l ? r : l;
            stack[top++] = in_l ? l : r;
            continue;
        }
        for (size_t q = t->nb[k]; q < t->ne[k]; q++) {
            if (q == p)
                continue;
            double D = 0.0;
            for (size_t c = 0; c < d; c++) {
                double u = xp[c] - t->x[q * d + c];
                D += u * u;
            }
            if (D < best)
                best = D;
        }
    }
    return best;
}
