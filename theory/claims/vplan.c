/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vplan.c -- the point list of `attnrank verify` (see vplan.h). */
#include "theory/claims/vplan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/formats/shardfile.h"
#include "base/sha256.h"
#include "theory/heads/visible.h"

#define COST_POW 2.0
#define COST_DEFAULT 10.0
#define COST_T 0.5

ar_status vplan_tier_parse(const char *opt, const char *s, vtier_t *t)
{
    if (s && !strcmp(s, "default"))
        *t = VTIER_DEFAULT;
    else if (s && !strcmp(s, "extended"))
        *t = VTIER_EXTENDED;
    else if (s && !strcmp(s, "all"))
        *t = VTIER_ALL;
    else {
        ar_error_set("--%s: expected default, extended or all, got '%s'", opt, s ? s : "");
        return AR_EINVAL;
    }
    return AR_OK;
}

const char *vplan_tier_name(vtier_t t)
{
    return t == VTIER_EXTENDED ? "extended" : t == VTIER_ALL ? "all" : "default";
}

void vplan_clear(vplan_t *p)
{
    free(p->groups);
    free(p->units);
    memset(p, 0, sizeof *p);
}

static int is_sat(const law_t *L)
{
    return L->kind == LAW_SATURATION;
}

static int tier_ok(const law_t *L, vtier_t t)
{
    return t == VTIER_ALL || (t == VTIER_EXTENDED) == (law_extended(L) != 0);
}

/* The tier as the digest has always spelled it: "" for the default tier
 * (once a NULL string), so that the plan digest of existing shard files
 * is unchanged. */
static const char *digest_tier(const law_t *L)
{
    return L->tier == LAW_TIER_DEFAULT ? "" : law_tier_name(L->tier);
}

/* Append the declared fields of row L to the digest text. */
static void describe_row(sha256_stream_t *h, const law_t *L)
{
    char b[512];
    snprintf(b, sizeof b, "row %s %d %s %.17g %.17g %.17g %.17g %.17g %s %.17g %zu %zu %d %d %s %s %s|%s|",
             L->claim, L->dim, law_variable_name(L->variable), L->predicted, L->tol, L->eps, L->band_lo, L->band_hi,
             L->family ? L->family : "", L->n_per_law, L->n_min, L->n_max, L->engine, L->packing,
             law_upper_name(L->upper_source), law_kind_name(L->kind), digest_tier(L),
             L->scope ? L->scope : "");
    sha256_stream_update(h, b, strlen(b));
    for (size_t k = 0; k < L->nbetas; k++) {
        snprintf(b, sizeof b, " b%.17g", L->betas[k]);
        sha256_stream_update(h, b, strlen(b));
    }
    for (size_t k = 0; k < L->nns; k++) {
        snprintf(b, sizeof b, " n%.17g", L->ns[k]);
        sha256_stream_update(h, b, strlen(b));
    }
    if (L->packing_max) {
        snprintf(b, sizeof b, " pmax%zu", L->packing_max);
        sha256_stream_update(h, b, strlen(b));
    }
}

static ar_status grow(vplan_t *p, size_t *capg, size_t *capu, size_t addu)
{
    if (p->ngroups == *capg) {
        size_t nc = *capg ? 2 * *capg : 32;
        vgroup_t *g = realloc(p->groups, nc * sizeof *g);
        if (!g)
            goto oom;
        p->groups = g;
        *capg = nc;
    }
    if (p->nunits + addu > *capu) {
        size_t nc = *capu ? 2 * *capu : 128;
        while (nc < p->nunits + addu)
            nc *= 2;
        vunit_t *u = realloc(p->units, nc * sizeof *u);
        if (!u)
            goto oom;
        p->units = u;
        *capu = nc;
    }
    return AR_OK;
oom:
    ar_error_set("verify: out of memory for the point list");
    return AR_ENOMEM;
}

static void add_unit(vplan_t *p, vunit_kind_t kind, size_t index, double cost, const char *fmt_tag, const char *what)
{
    vunit_t *u = &p->units[p->nunits++];
    memset(u, 0, sizeof *u);
    u->kind = kind;
    u->group = p->ngroups;
    u->index = index;
    u->cost = cost;
    snprintf(u->id, sizeof u->id, "%s/%s", fmt_tag, what);
}

ar_status vplan_build(const char *claim, int dim, vtier_t tier, vplan_t *p)
{
    memset(p, 0, sizeof *p);
    ar_status st = laws_check_selection(claim, dim);
    if (st)
        return st;
    snprintf(p->claim, sizeof p->claim, "%s", claim ? claim : "");
    p->dim = dim;
    p->tier = tier;
    size_t nl, capg = 0, capu = 0;
    const law_t *laws = laws_table(&nl);
    for (size_t i = 0; i < nl; i++) {
        const law_t *L = &laws[i];
        if ((claim && strcmp(claim, L->claim)) || (dim && L->dim != dim) || !tier_ok(L, tier))
            continue;
        size_t np = verify_npoints(L), k = 0;
        for (size_t j = 0; j < i; j++)
            k += !strcmp(laws[j].claim, L->claim) && laws[j].dim == L->dim && laws[j].kind == L->kind;
        if ((st = grow(p, &capg, &capu, np + 1)))
            goto fail;
        vgroup_t *g = &p->groups[p->ngroups];
        memset(g, 0, sizeof *g);
        g->kind = VG_LAW;
        g->law = L;
        g->first = p->nunits;
        snprintf(g->tag, sizeof g->tag, "%s.d%d.%s.%zu", L->claim, L->dim, law_kind_name(L->kind), k);
        double c0 = L->cost_s > 0 ? L->cost_s : COST_DEFAULT;
        char what[48];
        if (is_sat(L)) {
            add_unit(p, VU_PACKING, 0, c0, g->tag, "packing");
            for (size_t t = 0; t < np; t++) {
                snprintf(what, sizeof what, "n=%.10g", L->ns[t]);
                add_unit(p, VU_SIZE, t, c0 * L->ns[t] / L->ns[np - 1], g->tag, what);
            }
        } else {
            double last = law_value(L, L->betas[np - 1]);
            for (size_t t = 0; t < np; t++) {
                snprintf(what, sizeof what, "beta=%.10g", L->betas[t]);
                double r = law_value(L, L->betas[t]) / last;
                add_unit(p, VU_POINT, t, c0 * pow(isfinite(r) && r > 0 ? r : 1.0, COST_POW), g->tag, what);
            }
        }
        g->count = p->nunits - g->first;
        p->ngroups++;
    }
    /* claim T's planted heads: default tier, no dimension */
    if ((!claim || !strcmp(claim, "T")) && !dim && tier != VTIER_EXTENDED) {
        size_t nc;
        claim_t_cases(&nc);
        for (size_t c = 0; c < nc; c++) {
            if ((st = grow(p, &capg, &capu, 1)))
                goto fail;
            vgroup_t *g = &p->groups[p->ngroups];
            memset(g, 0, sizeof *g);
            g->kind = VG_T;
            g->tcase = c;
            g->first = p->nunits;
            g->count = 1;
            snprintf(g->tag, sizeof g->tag, "T");
            char what[32];
            snprintf(what, sizeof what, "case=%zu", c);
            add_unit(p, VU_T, c, COST_T, "T", what);
            p->ngroups++;
        }
    }
    sha256_stream_t h;
    sha256_stream_init(&h);
    char b[160];
    snprintf(b, sizeof b, "attnrank verify plan 1 claim=%s dim=%d tier=%s\n", p->claim, dim, vplan_tier_name(tier));
    sha256_stream_update(&h, b, strlen(b));
    for (size_t g = 0; g < p->ngroups; g++) {
        if (p->groups[g].kind == VG_LAW)
            describe_row(&h, p->groups[g].law);
        for (size_t u = p->groups[g].first; u < p->groups[g].first + p->groups[g].count; u++) {
            snprintf(b, sizeof b, "\nunit %s %.17g\n", p->units[u].id, p->units[u].cost);
            sha256_stream_update(&h, b, strlen(b));
        }
    }
    sha256_stream_hex(&h, p->digest);
    return AR_OK;
fail:
    vplan_clear(p);
    return st;
}

void vplan_describe(const vplan_t *p, size_t u, char *buf, size_t cap)
{
    const vunit_t *x = &p->units[u];
    const vgroup_t *g = &p->groups[x->group];
    if (x->kind == VU_T)
        snprintf(buf, cap, "claim T: case %zu", x->index);
    else if (x->kind == VU_PACKING)
        snprintf(buf, cap, "saturation d=%d beta=%g: certifying a packing", g->law->dim, g->law->betas[0]);
    else if (x->kind == VU_SIZE)
        snprintf(buf, cap, "saturation d=%d beta=%g: n=%g", g->law->dim, g->law->betas[0], g->law->ns[x->index]);
    else
        snprintf(buf, cap, "claim %s d=%d: beta=%g (%zu/%zu)", g->law->claim, g->law->dim, g->law->betas[x->index],
                 x->index + 1, g->count);
}

ar_status vplan_compute(const vplan_t *p, size_t u, vresult_t *r)
{
    memset(r, 0, sizeof *r);
    const vunit_t *x = &p->units[u];
    const vgroup_t *g = &p->groups[x->group];
    ar_status st;
    switch (x->kind) {
    case VU_T:
        st = claim_t_compute(x->index, &r->t);
        break;
    case VU_PACKING:
        st = verify_packing(g->law, &r->pk);
        break;
    default:
        st = verify_point(g->law, x->index, &r->lp);
        break;
    }
    r->done = st == AR_OK;
    return st;
}

/* ---- records ---------------------------------------------------------- */

#define SET(o, k, v) bad |= json_object_set_new(o, k, v)

int law_point_json(json_t *o, const law_point_t *lp)
{
    int bad = 0;
    SET(o, "d", json_integer(lp->d));
    bad |= shardrec_set_real(o, "beta", lp->beta);
    bad |= shardrec_set_real(o, "eps", lp->eps);
    SET(o, "n", json_integer((json_int_t)lp->n));
    bad |= shardrec_set_real(o, "log10_n", lp->log10_n);
    SET(o, "lower", json_integer((json_int_t)lp->lower));
    SET(o, "lower_points", json_integer((json_int_t)lp->lower_points));
    SET(o, "lower_method", json_string(lp->lower_method));
    SET(o, "lower_on_instance", json_boolean(lp->lower_on_instance));
    SET(o, "upper", json_integer((json_int_t)lp->upper));
    SET(o, "upper_capped", json_boolean(lp->upper_capped));
    bad |= shardrec_set_real(o, "upper_err", lp->upper_err);
    SET(o, "upper_method", json_string(lp->upper_method));
    SET(o, "continuum", json_integer((json_int_t)lp->continuum));
    SET(o, "continuum_method", json_string(lp->continuum_method));
    SET(o, "status", json_string(ar_cert_status_name(lp->status)));
    bad |= shardrec_set_real(o, "seconds", lp->seconds);
    SET(o, "note", json_string(lp->note));
    return bad;
}

#define MAXN ((size_t)1 << 53)

ar_status law_point_from_json(const json_t *o, const char *where, law_point_t *lp)
{
    memset(lp, 0, sizeof *lp);
    size_t d;
    char status[16];
    ar_status st;
    if ((st = shardrec_size(o, "d", 1000, where, &d)) || (st = shardrec_real(o, "beta", 0, where, &lp->beta)) ||
        (st = shardrec_real(o, "eps", 0, where, &lp->eps)) || (st = shardrec_size(o, "n", MAXN, where, &lp->n)) ||
        (st = shardrec_real(o, "log10_n", 0, where, &lp->log10_n)) ||
        (st = shardrec_size(o, "lower", MAXN, where, &lp->lower)) ||
        (st = shardrec_size(o, "lower_points", MAXN, where, &lp->lower_points)) ||
        (st = shardrec_string(o, "lower_method", SHARDREC_NAME, lp->lower_method, sizeof lp->lower_method, where)) ||
        (st = shardrec_bool(o, "lower_on_instance", where, &lp->lower_on_instance)) ||
        (st = shardrec_size(o, "upper", MAXN, where, &lp->upper)) ||
        (st = shardrec_bool(o, "upper_capped", where, &lp->upper_capped)) ||
        (st = shardrec_real(o, "upper_err", 1, where, &lp->upper_err)) ||
        (st = shardrec_string(o, "upper_method", SHARDREC_NAME, lp->upper_method, sizeof lp->upper_method, where)) ||
        (st = shardrec_size(o, "continuum", MAXN, where, &lp->continuum)) ||
        (st = shardrec_string(o, "continuum_method", SHARDREC_NAME, lp->continuum_method, sizeof lp->continuum_method,
                              where)) ||
        (st = shardrec_string(o, "status", SHARDREC_NAME, status, sizeof status, where)) ||
        (st = shardrec_real(o, "seconds", 0, where, &lp->seconds)) ||
        (st = shardrec_string(o, "note", SHARDREC_NOTE, lp->note, sizeof lp->note, where)))
        return st;
    lp->d = (int)d;
    if (ar_cert_status_parse(status, &lp->status) != AR_OK) {
        ar_error_set("%s: 'status' must be \"certified\" or \"inconclusive\", got '%s'", where, status);
        return AR_EINVAL;
    }
    return AR_OK;
}

ar_status law_point_check(const law_point_t *lp, int d, double beta, double eps, const char *where)
{
    const char *why = NULL;
    char buf[200];
    if (lp->d != d || lp->beta != beta || lp->eps != eps) {
        snprintf(buf, sizeof buf, "its d, beta or eps (%d, %.17g, %.17g) is not the plan's (%d, %.17g, %.17g)", lp->d,
                 lp->beta, lp->eps, d, beta, eps);
        why = buf;
    } else if (lp->lower < 1 || lp->lower_points < 1 || lp->lower > lp->lower_points) {
        snprintf(buf, sizeof buf, "lower end %zu of a set of %zu points (a rank lies in [1, size])", lp->lower,
                 lp->lower_points);
        why = buf;
    } else if (lp->upper && lp->n && lp->upper > lp->n) {
        snprintf(buf, sizeof buf, "upper end %zu above the instance's %zu points", lp->upper, lp->n);
        why = buf;
    } else if (lp->upper && lp->lower_on_instance && (lp->lower > lp->upper || (lp->n && lp->lower_points != lp->n))) {
        snprintf(buf, sizeof buf, "lower end %zu (of %zu points) and upper end %zu (of %zu) do not bracket one instance",
                 lp->lower, lp->lower_points, lp->upper, lp->n);
        why = buf;
    } else if (!isnan(lp->upper_err) && !(lp->upper_err >= 0)) {
        why = "a negative upper error";
    } else if (lp->upper && !lp->upper_capped && !ar_method_label_trivial(lp->upper_method) &&
               !(lp->upper_err >= 0 && lp->upper_err <= eps)) {
        snprintf(buf, sizeof buf, "a certified upper end whose error upper_err = %.17g is not in [0, eps = %.17g]",
                 lp->upper_err, eps);
        why = buf;
    } else if (!(lp->log10_n >= 0) || !(lp->seconds >= 0)) {
        why = "a negative log10 n or time";
    }
    if (why) {
        ar_error_set("%s: %s", where, why);
        return AR_EINVAL;
    }
    return AR_OK;
}

static int pack_json(json_t *o, const pack_cert_t *pk)
{
    int bad = 0;
    SET(o, "d", json_integer((json_int_t)pk->d));
    bad |= shardrec_set_real(o, "beta", pk->beta);
    bad |= shardrec_set_real(o, "eps", pk->eps);
    bad |= shardrec_set_real(o, "theta", pk->theta);
    SET(o, "m", json_integer((json_int_t)pk->m));
    SET(o, "certified", json_integer((json_int_t)pk->certified));
    bad |= shardrec_set_real(o, "max_R", pk->max_R);
    SET(o, "method", json_string(ar_method_name(pk->method)));
    bad |= shardrec_set_real(o, "max_tail", pk->max_tail);
    bad |= shardrec_set_real(o, "phi2", pk->phi2);
    SET(o, "near_pairs", json_integer((json_int_t)pk->near_pairs));
    bad |= shardrec_set_real(o, "seconds", pk->seconds);
    return bad;
}

static ar_status pack_from_json(const json_t *o, const char *where, pack_cert_t *pk)
{
    memset(pk, 0, sizeof *pk);
    char method[32];
    ar_status st;
    if ((st = shardrec_size(o, "d", 1000, where, &pk->d)) || (st = shardrec_real(o, "beta", 0, where, &pk->beta)) ||
        (st = shardrec_real(o, "eps", 0, where, &pk->eps)) || (st = shardrec_real(o, "theta", 1, where, &pk->theta)) ||
        (st = shardrec_size(o, "m", MAXN, where, &pk->m)) ||
        (st = shardrec_size(o, "certified", MAXN, where, &pk->certified)) ||
        (st = shardrec_real(o, "max_R", 1, where, &pk->max_R)) ||
        (st = shardrec_string(o, "method", SHARDREC_NAME, method, sizeof method, where)) ||
        (st = shardrec_real(o, "max_tail", 1, where, &pk->max_tail)) ||
        (st = shardrec_real(o, "phi2", 1, where, &pk->phi2)) ||
        (st = shardrec_size(o, "near_pairs", MAXN, where, &pk->near_pairs)) ||
        (st = shardrec_real(o, "seconds", 0, where, &pk->seconds)))
        return st;
    if (ar_method_parse(method, &pk->method) != AR_OK ||
        (pk->method != AR_METHOD_DIAGDOM && pk->method != AR_METHOD_INVNORM &&
         pk->method != AR_METHOD_INVNORM_VARAH && pk->method != AR_METHOD_TRIVIAL)) {
        ar_error_set("%s: unknown packing method '%s'", where, method);
        return AR_EINVAL;
    }
    if (pk->certified > pk->m) {
        ar_error_set("%s: packing certifies %zu of %zu points", where, pk->certified, pk->m);
        return AR_EINVAL;
    }
    return AR_OK;
}

/* size_t arrays as JSON arrays, VISIBLE_NONE as null */
static json_t *sizes_json(const size_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, v[i] == VISIBLE_NONE ? json_null() : json_integer((json_int_t)v[i]));
    return a;
}

static json_t *reals_json(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, isfinite(v[i]) ? json_real(v[i]) : json_null());
    return a;
}

static ar_status array_of(const json_t *o, const char *key, size_t n, const char *where, const json_t **a)
{
    *a = json_object_get(o, key);
    if (!json_is_array(*a) || json_array_size(*a) != n) {
        ar_error_set("%s: '%s' must be an array of %zu values", where, key, n);
        return AR_EINVAL;
    }
    return AR_OK;
}

static int t_json(json_t *o, const claim_t_record_t *t)
{
    int bad = 0;
    SET(o, "r0", json_integer((json_int_t)t->r0));
    SET(o, "dh", json_integer((json_int_t)t->dh));
    bad |= shardrec_set_real(o, "delta", t->delta);
    bad |= shardrec_set_real(o, "beta", t->beta);
    bad |= shardrec_set_real(o, "eps", t->eps);
    SET(o, "twin_same", json_boolean(t->twin_same));
    SET(o, "r", json_integer((json_int_t)t->r));
    bad |= shardrec_set_real(o, "eta_noise", t->eta_noise);
    bad |= shardrec_set_real(o, "eta_below", t->eta_below);
    bad |= shardrec_set_real(o, "eta_at", t->eta_at);
    bad |= shardrec_set_real(o, "eta_above", t->eta_above);
    SET(o, "tau", reals_json(t->tau, t->ntau));
    SET(o, "r_tau", sizes_json(t->rt, t->ntau));
    SET(o, "eta_tau", reals_json(t->et, t->ntau));
    SET(o, "lower", json_integer((json_int_t)t->lower));
    SET(o, "upper", json_integer((json_int_t)t->upper));
    SET(o, "status", json_string(ar_cert_status_name(t->status)));
    SET(o, "chain_k", sizes_json(t->chain_k, t->nchain));
    SET(o, "chain_upper_via", sizes_json(t->chain_upper_via, t->nchain));
    SET(o, "chain_eta_upper", reals_json(t->chain_eta_upper, t->nchain));
    SET(o, "chain_lower", sizes_json(t->chain_lo, t->nchain));
    SET(o, "chain_upper", sizes_json(t->chain_up, t->nchain));
    SET(o, "chain_eta", reals_json(t->chain_eta, t->nchain));
    json_t *m = json_array();
    for (size_t q = 0; m && q < t->nchain; q++)
        json_array_append_new(m, json_string(t->chain_method[q]));
    SET(o, "chain_method", m);
    bad |= shardrec_set_real(o, "seconds", t->seconds);
    return bad;
}

/* A claim-T record's own consistency: numbers that are ranks, errors and
 * tolerances of one head (an eta is an l1 distance of two stochastic rows:
 * in [0, 2]). */
static ar_status t_check(const claim_t_record_t *t, const char *where)
{
    const char *why = NULL;
    if (!(t->beta > 0) || !(t->eps > 0 && t->eps < 1) || !(t->delta >= 0))
        why = "beta, eps or delta out of range";
    else if (t->r > t->dh || t->r0 > t->dh)
        why = "a visible dimension above the head dimension";
    else if (t->lower < 1 || t->lower > t->upper)
        why = "its bracket is not 1 <= lower <= upper";
    else if ((unsigned)t->status >= AR_CERT_STATUS_COUNT)   /* t_from_json's mark of an unknown name */
        why = "'status' is neither certified nor inconclusive";
    for (size_t k = 0; !why && k < 4; k++) {
        double e = k == 0 ? t->eta_noise : k == 1 ? t->eta_below : k == 2 ? t->eta_at : t->eta_above;
        if (!(e >= 0 && e <= 2))
            why = "an eta outside [0, 2]";
    }
    for (size_t k = 0; !why && k < t->ntau; k++)
        if (!(t->tau[k] > 0) || (t->rt[k] != VISIBLE_NONE && t->rt[k] > t->dh) ||
            (!isnan(t->et[k]) && !(t->et[k] >= 0 && t->et[k] <= 2)) || (t->rt[k] != VISIBLE_NONE && isnan(t->et[k])))
            why = "a tau, r(tau) or eta(r(tau)) out of range";
    for (size_t q = 0; !why && q < t->nchain; q++) {
        if (t->chain_k[q] == VISIBLE_NONE)
            continue;
        if (t->chain_k[q] > t->dh || t->chain_lo[q] == VISIBLE_NONE || t->chain_up[q] == VISIBLE_NONE ||
            t->chain_upper_via[q] == VISIBLE_NONE || t->chain_lo[q] > t->chain_up[q] || isnan(t->chain_eta[q]) ||
            isnan(t->chain_eta_upper[q]) || t->chain_eta[q] < 0 || t->chain_eta_upper[q] < 0)
            why = "a chain's bracket or eta is impossible";
    }
    if (why) {
        ar_error_set("%s: claim-T record: %s", where, why);
        return AR_EINVAL;
    }
    return AR_OK;
}

static ar_status t_from_json(const json_t *o, const char *where, claim_t_record_t *t)
{
    memset(t, 0, sizeof *t);
    char status[16];
    const json_t *a;
    ar_status st;
    if ((st = shardrec_size(o, "r0", 1000, where, &t->r0)) || (st = shardrec_size(o, "dh", 100000, where, &t->dh)) ||
        (st = shardrec_real(o, "delta", 0, where, &t->delta)) || (st = shardrec_real(o, "beta", 0, where, &t->beta)) ||
        (st = shardrec_real(o, "eps", 0, where, &t->eps)) || (st = shardrec_bool(o, "twin_same", where, &t->twin_same)) ||
        (st = shardrec_size(o, "r", MAXN, where, &t->r)) ||
        (st = shardrec_real(o, "eta_noise", 0, where, &t->eta_noise)) ||
        (st = shardrec_real(o, "eta_below", 0, where, &t->eta_below)) ||
        (st = shardrec_real(o, "eta_at", 0, where, &t->eta_at)) ||
        (st = shardrec_real(o, "eta_above", 0, where, &t->eta_above)) ||
        (st = shardrec_size(o, "lower", MAXN, where, &t->lower)) ||
        (st = shardrec_size(o, "upper", MAXN, where, &t->upper)) ||
        (st = shardrec_string(o, "status", SHARDREC_NAME, status, sizeof status, where)) ||
        (st = shardrec_real(o, "seconds", 0, where, &t->seconds)))
        return st;
    if (ar_cert_status_parse(status, &t->status) != AR_OK)
        t->status = AR_CERT_STATUS_COUNT;   /* rejected by t_check, in its order of checks */
    a = json_object_get(o, "tau");
    t->ntau = json_is_array(a) ? json_array_size(a) : 0;
    a = json_object_get(o, "chain_k");
    t->nchain = json_is_array(a) ? json_array_size(a) : 0;
    if (t->ntau < 1 || t->ntau > CLAIM_T_MAX_TAU || t->nchain < 1 || t->nchain > 2) {
        ar_error_set("%s: 'tau' must hold 1..%d values and 'chain_k' 1 or 2", where, CLAIM_T_MAX_TAU);
        return AR_EINVAL;
    }
    if ((st = shardrec_reals(o, "tau", t->ntau, 0, where, t->tau)) ||
        (st = shardrec_sizes(o, "r_tau", t->ntau, (size_t)1e15, 1, where, t->rt)) ||
        (st = shardrec_reals(o, "eta_tau", t->ntau, 1, where, t->et)) ||
        (st = shardrec_sizes(o, "chain_k", t->nchain, (size_t)1e15, 1, where, t->chain_k)) ||
        (st = shardrec_sizes(o, "chain_upper_via", t->nchain, (size_t)1e15, 1, where, t->chain_upper_via)) ||
        (st = shardrec_reals(o, "chain_eta_upper", t->nchain, 1, where, t->chain_eta_upper)) ||
        (st = shardrec_sizes(o, "chain_lower", t->nchain, (size_t)1e15, 1, where, t->chain_lo)) ||
        (st = shardrec_sizes(o, "chain_upper", t->nchain, (size_t)1e15, 1, where, t->chain_up)) ||
        (st = shardrec_reals(o, "chain_eta", t->nchain, 1, where, t->chain_eta)) ||
        (st = array_of(o, "chain_method", t->nchain, where, &a)))
        return st;
    for (size_t q = 0; q < t->nchain; q++) {
        const json_t *s = json_array_get(a, q);
        if (!json_is_string(s) || json_string_length(s) >= sizeof t->chain_method[q] ||
            strlen(json_string_value(s)) != json_string_length(s) ||
            !shardrec_text_ok(json_string_value(s), SHARDREC_NAME)) {
            ar_error_set("%s: 'chain_method'[%zu] must be a short method name", where, q);
            return AR_EINVAL;
        }
        memcpy(t->chain_method[q], json_string_value(s), json_string_length(s) + 1);
    }
    return t_check(t, where);
}

static const char *kind_name(vunit_kind_t k)
{
    return k == VU_T ? "T" : k == VU_PACKING ? "packing" : k == VU_SIZE ? "size" : "point";
}

json_t *vplan_record(const vplan_t *p, size_t u, const vresult_t *r)
{
    const vunit_t *x = &p->units[u];
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = json_object_set_new(o, "point", json_string(x->id));
    bad |= json_object_set_new(o, "kind", json_string(kind_name(x->kind)));
    if (x->kind == VU_T)
        bad |= t_json(o, &r->t);
    else if (x->kind == VU_PACKING)
        bad |= pack_json(o, &r->pk);
    else
        bad |= law_point_json(o, &r->lp);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

ar_status vplan_parse_record(const vplan_t *p, size_t u, const json_t *o, const char *where, vresult_t *r)
{
    memset(r, 0, sizeof *r);
    const vunit_t *x = &p->units[u];
    const vgroup_t *g = &p->groups[x->group];
    const json_t *k = json_object_get(o, "kind");
    if (!json_is_string(k) || strcmp(json_string_value(k), kind_name(x->kind))) {
        ar_error_set("%s: point '%s' must have \"kind\":\"%s\"", where, x->id, kind_name(x->kind));
        return AR_EINVAL;
    }
    ar_status st;
    if (x->kind == VU_T) {
        size_t nc;
        const claim_t_case_t *c = claim_t_cases(&nc) + x->index;
        if ((st = t_from_json(o, where, &r->t)))
            return st;
        double beta, eps;
        claim_t_case_params(c, &beta, &eps);
        if (r->t.r0 != c->r0 || r->t.dh != c->dh || r->t.delta != c->delta || r->t.beta != beta || r->t.eps != eps) {
            ar_error_set("%s: point '%s' is not claim T's case %zu (r0, dh, delta, beta or eps differ)", where, x->id,
                         x->index);
            return AR_EINVAL;
        }
    } else if (x->kind == VU_PACKING) {
        if ((st = pack_from_json(o, where, &r->pk)))
            return st;
        if (r->pk.beta != g->law->betas[0] || r->pk.d != (size_t)g->law->dim || r->pk.eps != g->law->eps) {
            ar_error_set("%s: point '%s': the packing is not at the row's d, beta and eps", where, x->id);
            return AR_EINVAL;
        }
        if (r->pk.m < 1) {
            ar_error_set("%s: point '%s': a packing of %zu points certifying %zu", where, x->id, r->pk.m,
                         r->pk.certified);
            return AR_EINVAL;
        }
    } else {
        if ((st = law_point_from_json(o, where, &r->lp)))
            return st;
        double beta = x->kind == VU_SIZE ? g->law->betas[0] : g->law->betas[x->index];
        if (r->lp.beta != beta || r->lp.d != g->law->dim || r->lp.eps != g->law->eps ||
            (x->kind == VU_SIZE && r->lp.n != (size_t)g->law->ns[x->index])) {
            ar_error_set("%s: point '%s': its d, beta, eps or n is not the plan's", where, x->id);
            return AR_EINVAL;
        }
        if ((st = law_point_check(&r->lp, g->law->dim, beta, g->law->eps, where)))
            return st;
    }
    r->done = 1;
    return AR_OK;
}

ar_status vplan_judge_row(const vplan_t *p, size_t gi, const vresult_t *res, verify_row_t *row)
{
    const vgroup_t *g = &p->groups[gi];
    if (g->kind != VG_LAW) {
        ar_error_set("vplan_judge_row: group %zu is not a law row", gi);
        return AR_EINVAL;
    }
    law_point_t pts[VERIFY_MAX_POINTS];
    const pack_cert_t *pk = NULL;
    size_t np = 0;
    for (size_t u = g->first; u < g->first + g->count; u++) {
        if (!res[u].done) {
            ar_error_set("verify: point '%s' has no result", p->units[u].id);
            return AR_EINVAL;
        }
        if (p->units[u].kind == VU_PACKING)
            pk = &res[u].pk;
        else if (np < VERIFY_MAX_POINTS)
            pts[np++] = res[u].lp;
    }
    return verify_judge(g->law, pts, np, pk, row);
}

size_t vplan_find_row(const vplan_t *p, const char *claim, size_t k)
{
    size_t seen = 0;
    for (size_t g = 0; g < p->ngroups; g++) {
        const char *c = p->groups[g].kind == VG_T ? "T" : p->groups[g].law->claim;
        if (!strcmp(c, claim) && seen++ == k)
            return g;
    }
    return p->ngroups;
}
