/* SPDX-License-Identifier: GPL-3.0-or-later */
/* calib_record.c -- calibration settings as shard records (see calib_record.h). */
#include "theory/heads/calib_record.h"

#include <math.h>
#include <string.h>
#include "constructions/formats/shardfile.h"
#include "theory/heads/visible.h"

static json_t *size_or_null(size_t v)
{
    return v == VISIBLE_NONE ? json_null() : json_integer((json_int_t)v);
}

static json_t *sizes(const size_t *v, size_t n, int none_as_null)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, none_as_null ? size_or_null(v[i]) : json_integer((json_int_t)v[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static json_t *reals(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, isfinite(v[i]) ? json_real(v[i]) : json_null())) {
            json_decref(a);
            return NULL;
        }
    return a;
}

int calib_record_put(json_t *o, const calib_setting_t *S, size_t ntau)
{
    size_t ns = S->nsent;
    int bad = 0;
#define SETN(k, v) bad |= json_object_set_new(o, k, v)
    SETN("layer", json_integer((json_int_t)S->layer));
    SETN("head", json_integer((json_int_t)S->head));
    SETN("dh", json_integer((json_int_t)S->dh));
    SETN("nsent", json_integer((json_int_t)ns));
    bad |= shardrec_set_real(o, "scale", S->scale);
    bad |= shardrec_set_real(o, "beta", S->beta);
    SETN("ntok", sizes(S->ntok, ns, 0));
    SETN("r", sizes(S->r, ns, 0));
    SETN("r_tau", sizes(S->r_tau, ns * ntau, 0));
    SETN("lower", sizes(S->lower, ns, 0));
    SETN("upper", sizes(S->upper, ns, 0));
    SETN("ncertified", json_integer((json_int_t)S->ncertified));
    SETN("un_rank", sizes(S->un_rank, ns, 0));
    SETN("un_rank_eps", sizes(S->un_rank_eps, ns, 0));
    SETN("un_stable", reals(S->un_stable, ns));
    SETN("un_eff", reals(S->un_eff, ns));
    SETN("has_weights", json_boolean(S->has_weights));
    bad |= shardrec_set_real(o, "radius", S->radius);
    bad |= shardrec_set_real(o, "radius_emp", S->radius_emp);
    SETN("rw", size_or_null(S->rw));
    SETN("rw_tau", sizes(S->rw_tau, ntau, 1));
    SETN("rw_tau_emp", sizes(S->rw_tau_emp, ntau, 1));
    bad |= shardrec_set_real(o, "seconds", S->seconds);
#undef SETN
    return bad;
}

ar_status calib_record_get(const json_t *o, const char *where, const calib_opts_t *opts, const size_t *positions,
                           calib_setting_t *S)
{
    size_t layer, head, dh, ns, ntau = opts->ntau;
    double scale, beta;
    ar_status st;
    if ((st = shardrec_size(o, "layer", (size_t)1 << 20, where, &layer)) ||
        (st = shardrec_size(o, "head", (size_t)1 << 20, where, &head)) ||
        (st = shardrec_size(o, "dh", (size_t)1 << 20, where, &dh)) ||
        (st = shardrec_size(o, "nsent", (size_t)1 << 30, where, &ns)) ||
        (st = shardrec_real(o, "scale", 0, where, &scale)) || (st = shardrec_real(o, "beta", 0, where, &beta)))
        return st;
    if (layer != S->layer || head != S->head || dh != S->dh || ns != S->nsent || scale != S->scale ||
        beta != S->beta) {
        ar_error_set("%s: the setting (layer %zu, head %zu, dh %zu, %zu inputs, scale %.17g, beta %.17g) is not the "
                     "plan's (layer %zu, head %zu, dh %zu, %zu inputs, scale %.17g, beta %.17g)", where, layer, head,
                     dh, ns, scale, beta, S->layer, S->head, S->dh, S->nsent, S->scale, S->beta);
        return AR_EINVAL;
    }
    const size_t big = (size_t)1 << 40;
    int hw;
    if ((st = shardrec_sizes(o, "ntok", ns, big, 0, where, S->ntok)) ||
        (st = shardrec_sizes(o, "r", ns, big, 0, where, S->r)) ||
        (st = shardrec_sizes(o, "r_tau", ns * ntau, big, 0, where, S->r_tau)) ||
        (st = shardrec_sizes(o, "lower", ns, big, 0, where, S->lower)) ||
        (st = shardrec_sizes(o, "upper", ns, big, 0, where, S->upper)) ||
        (st = shardrec_size(o, "ncertified", ns, where, &S->ncertified)) ||
        (st = shardrec_sizes(o, "un_rank", ns, big, 0, where, S->un_rank)) ||
        (st = shardrec_sizes(o, "un_rank_eps", ns, big, 0, where, S->un_rank_eps)) ||
        (st = shardrec_reals(o, "un_stable", ns, 0, where, S->un_stable)) ||
        (st = shardrec_reals(o, "un_eff", ns, 0, where, S->un_eff)) ||
        (st = shardrec_bool(o, "has_weights", where, &hw)) ||
        (st = shardrec_real(o, "radius", 1, where, &S->radius)) ||
        (st = shardrec_real(o, "radius_emp", 1, where, &S->radius_emp)) ||
        (st = shardrec_real(o, "seconds", 0, where, &S->seconds)))
        return st;
    S->has_weights = hw;
    if (json_is_null(json_object_get(o, "rw")))
        S->rw = VISIBLE_NONE;
    else if ((st = shardrec_size(o, "rw", big, where, &S->rw)))
        return st;
    for (size_t t = ntau; t < CALIB_MAX_TAUS; t++)
        S->rw_tau[t] = S->rw_tau_emp[t] = VISIBLE_NONE;
    if ((st = shardrec_sizes(o, "rw_tau", ntau, big, 1, where, S->rw_tau)) ||
        (st = shardrec_sizes(o, "rw_tau_emp", ntau, big, 1, where, S->rw_tau_emp)))
        return st;
    /* the weights-only members exist only for a head whose model gives its weights */
    int wok = S->has_weights ? isfinite(S->radius) && S->radius > 0 && (!isfinite(S->radius_emp) || S->radius_emp > 0)
                             : isnan(S->radius) && isnan(S->radius_emp) && S->rw == VISIBLE_NONE;
    for (size_t t = 0; wok && t < ntau; t++)
        wok = S->has_weights || (S->rw_tau[t] == VISIBLE_NONE && S->rw_tau_emp[t] == VISIBLE_NONE);
    if (!wok) {
        ar_error_set("%s: the weights-only members (radius %.17g, radius_emp %.17g, rw) do not agree with "
                     "has_weights = %s", where, S->radius, S->radius_emp, S->has_weights ? "true" : "false");
        return AR_EINVAL;
    }
    for (size_t s = 0; s < ns; s++) {
        if (S->ntok[s] != positions[s]) {
            ar_error_set("%s: input %zu has %zu tokens in its record, %zu in the header's positions", where, s,
                         S->ntok[s], positions[s]);
            return AR_EINVAL;
        }
        size_t cap = S->ntok[s] < dh ? S->ntok[s] : dh;
        double nt = (double)S->ntok[s];
        int ok = S->ntok[s] >= 1 && S->lower[s] >= 1 && S->lower[s] <= S->upper[s] && S->upper[s] <= S->ntok[s] &&
                 S->r[s] <= cap && S->un_rank[s] <= S->ntok[s] && S->un_rank_eps[s] <= S->ntok[s] &&
                 S->un_stable[s] >= 0 && S->un_stable[s] <= nt * (1 + 1e-9) && S->un_eff[s] >= 0 &&
                 S->un_eff[s] <= nt * (1 + 1e-9);
        for (size_t t = 0; ok && t < ntau; t++)
            ok = S->r_tau[s * ntau + t] <= cap;
        if (!ok) {
            ar_error_set("%s: input %zu: the bracket [%zu, %zu] or a dimension is impossible for %zu tokens of "
                         "head dimension %zu", where, s, S->lower[s], S->upper[s], S->ntok[s], dh);
            return AR_EINVAL;
        }
    }
    return calib_setting_summarise(opts, S);
}
