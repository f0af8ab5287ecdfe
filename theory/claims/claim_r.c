/* SPDX-License-Identifier: GPL-3.0-or-later */
/* claim_r.c -- claim R sweep points (proofs-notes/claim-R.md). */
#include "theory/claims/claim_r.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "constructions/pointsets/head.h"
#include "numerics/clock.h"
#include "theory/brackets/bracket.h"
#include "theory/brackets/bracket_status.h"
#include "theory/heads/visible.h"

static double log10_total(const pointset_t *K)
{
    fmpz_t N;
    fmpz_init(N);
    pointset_total_multiplicity(N, K);
    slong e;
    double mant = fmpz_get_d_2exp(&e, N);
    fmpz_clear(N);
    return log10(mant) + (double)e * log10(2.0);
}

/* 1 if the end one_end computed (which = 0: lower, 1: upper) is a non-trivial
 * certificate (theory/brackets/bracket_status.h); the other end of such a
 * bracket is trivial by construction, so the bracket's own status says
 * nothing about the end used. */
static int end_certified(const bracket_t *b, int which)
{
    return !ar_method_is_trivial(which ? b->up.method : b->lo.method);
}

/* bracket with only the lower (which = 0) or only the upper (which = 1) end */
static ar_status one_end(const pointset_t *Q, const pointset_t *K, double beta, double eps, int which,
                         bracket_t *b)
{
    bracket_opts_t o;
    bracket_opts_default(&o);
    /* the constructions of the image alone: an embedding with the keys equal to the queries is
     * self-attention (bracket_is_self) and would also run symeig, whose candidate the embedded
     * (cross) instances of the same image never see */
    o.image_only = 1;
    /* the Arb image: correctly rounded, so the exactly rotated and offset embeddings (dh = 16, 64)
     * have the same image bit for bit and the invariance check compares certificates of one
     * matrix (the double enclosure rounds each embedding's dot products differently) */
    o.prec = 96;
    /* the lower end's row heuristics read the image, not the coordinates: an embedding's
     * invisible query parts change the queries' distances and norms, not the image, so the
     * lower end of one image is one number (proofs-notes/claim-R.md) */
    if (which == 0) {
        o.use_svd = o.use_symeig = o.use_pchol = 0;
        o.lower_from_matrix = 1;
    } else {
        o.use_lower = 0;
    }
    return bracket_compute(Q, K, beta, eps, &o, b);
}

static ar_status random_point(int r, double beta, double eps, const claim_r_opts_t *o, law_point_t *out)
{
    pointset_t Q, K;
    ar_status st = head_random_ball(&Q, &K, (size_t)r, o->n_random, o->n_random, o->seed);
    if (st)
        return st;
    bracket_t b;
    st = bracket_compute(&Q, &K, beta, eps, NULL, &b);
    if (!st) {
        out->n = K.n;
        out->log10_n = log10((double)K.n);
        out->lower = b.lower;
        out->lower_points = Q.n;
        out->lower_on_instance = 1;
        snprintf(out->lower_method, sizeof out->lower_method, "random/%s", ar_method_name(b.lo.method));
        out->upper = b.upper;
        out->upper_capped = b.up.method == AR_METHOD_TRIVIAL;
        out->upper_err = b.up.err;
        snprintf(out->upper_method, sizeof out->upper_method, "random/%s", ar_method_name(b.up.method));
        out->status = b.status;
        snprintf(out->note, sizeof out->note, "%zu queries, %zu keys uniform in the unit %d-ball, seed %llu",
                 Q.n, K.n, r, (unsigned long long)o->seed);
    }
    pointset_clear(&Q);
    pointset_clear(&K);
    return st;
}

ar_status claim_r_point(int r, double beta, double eps, const claim_r_opts_t *o, law_point_t *out)
{
    double t0 = clock_now();
    memset(out, 0, sizeof *out);
    out->d = r;
    out->beta = beta;
    out->eps = eps;
    out->status = AR_CERT_INCONCLUSIVE;
    if (r < 1 || !(beta >= 0) || !isfinite(beta) || !(eps > 0 && eps < 1) || !o) {
        ar_error_set("claim R point: need r >= 1, finite beta >= 0, 0 < eps < 1 and options");
        return AR_EINVAL;
    }
    if (o->n_random) {
        ar_status st = random_point(r, beta, eps, o, out);
        out->seconds = clock_now() - t0;
        return st;
    }
    double s = sqrt(1.0 + beta);
    double hl = fmin(1.0, ldexp(nearbyint(ldexp(o->c_lower / s, 10)), -10));
    double hu = fmin(1.0, ldexp(nearbyint(ldexp(o->c_upper / s, 10)), -10));
    if (!(hl > 0) || !(hu > 0)) {
        ar_error_set("claim R point: lattice spacing below 2^-10 at beta = %g", beta);
        return AR_EINVAL;
    }
    pointset_t Ql, Kl, Qu, Ku;
    memset(&Ql, 0, sizeof Ql); memset(&Kl, 0, sizeof Kl);
    memset(&Qu, 0, sizeof Qu); memset(&Ku, 0, sizeof Ku);
    ar_status st;
    bracket_t bl, bu;
    if ((st = head_construction(&Ql, &Kl, (size_t)r, beta, hl)) ||
        (st = head_construction(&Qu, &Ku, (size_t)r, beta, hu)) ||
        (st = one_end(&Ql, &Kl, beta, eps, 0, &bl)) || (st = one_end(&Qu, &Ku, beta, eps, 1, &bu)))
        goto done;
    out->lower = bl.lower;
    out->lower_points = Ql.n;
    snprintf(out->lower_method, sizeof out->lower_method, "lattice h=%.3g/%.20s", hl, ar_method_name(bl.lo.method));
    out->n = Qu.n;
    out->log10_n = log10_total(&Ku);
    out->upper = bu.upper;
    out->upper_capped = bu.up.method == AR_METHOD_TRIVIAL;
    out->upper_err = bu.up.err;
    snprintf(out->upper_method, sizeof out->upper_method, "lattice h=%.3g/%.20s", hu, ar_method_name(bu.up.method));
    int certified = end_certified(&bl, 0) && end_certified(&bu, 1);
    int same = 1;
    char dhs[64] = "";
    size_t used = 0;
    for (size_t t = 0; t < o->ndh && st == AR_OK; t++) {
        size_t dh = o->dhs[t];
        if (dh <= (size_t)r)
            continue;
        head_embed_t e = { .dh = dh, .key_offset = 2.0, .query_invisible = 1.0, .nnoise = 0, .delta = 0,
                           .rotate = HEAD_ROT_HADAMARD, .seed = o->seed + dh, .dyadic = 1 };
        pointset_t Qe, Ke, Qf, Kf;
        bracket_t b1, b2;
        visible_t v;
        if ((st = head_embed(&Ql, &Kl, &e, &Qe, &Ke)))
            break;
        if ((st = head_embed(&Qu, &Ku, &e, &Qf, &Kf))) {
            pointset_clear(&Qe); pointset_clear(&Ke);
            break;
        }
        st = one_end(&Qe, &Ke, beta, eps, 0, &b1);
        if (!st)
            st = one_end(&Qf, &Kf, beta, eps, 1, &b2);
        visible_opts_t vo;
        visible_opts_default(&vo);
        vo.exact_max = 1;                             /* no exact rank here */
        if (!st)
            st = visible_compute(Qf.x, Qf.n, Kf.x, Kf.n, dh, beta, &vo, &v);
        if (!st) {
            if (b1.lower != bl.lower || b2.upper != bu.upper || v.r != (size_t)r) {
                same = 0;
                snprintf(out->note, sizeof out->note,
                         "dh=%zu differs: lower %zu (vs %zu), upper %zu (vs %zu), visible r %zu (vs %d)", dh,
                         b1.lower, bl.lower, b2.upper, bu.upper, v.r, r);
            }
            if (!end_certified(&b1, 0) || !end_certified(&b2, 1))
                certified = 0;
            visible_clear(&v);
            if (used + 24 < sizeof dhs)
                used += (size_t)snprintf(dhs + used, sizeof dhs - used, ",%zu", dh);
        }
        pointset_clear(&Qe); pointset_clear(&Ke); pointset_clear(&Qf); pointset_clear(&Kf);
    }
    if (st)
        goto done;
    if (same && o->ndh)
        snprintf(out->note, sizeof out->note,
                 "same lower and upper in dh = %d%s (exact Hadamard rotation, key offset, invisible query parts); "
                 "visible r = %d", r, dhs, r);
    out->status = certified && same ? AR_CERT_CERTIFIED : AR_CERT_INCONCLUSIVE;
done:
    pointset_clear(&Ql); pointset_clear(&Kl); pointset_clear(&Qu); pointset_clear(&Ku);
    out->seconds = clock_now() - t0;
    return st;
}

ar_status claim_r_law_point(const law_t *L, double beta, law_point_t *out)
{
    static const claim_r_opts_t dflt = { .c_lower = 2.0, .c_upper = 1.0, .dhs = { 16, 64 }, .ndh = 2,
                                         .n_random = 0, .seed = 1 };
    const claim_r_opts_t *o = L->opts ? (const claim_r_opts_t *)L->opts : &dflt;
    return claim_r_point(L->dim, beta, L->eps, o, out);
}
