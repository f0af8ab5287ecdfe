/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_spec.c -- the typed sweep specs, their checks and their JSON (see sweep_spec.h). */
#include "sweeps/sweep_spec.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "constructions/formats/shardfile.h"

/* ---- names */

static const char *const family_names[] = { NULL, "polygon", "fibonacci", "uniform" };
static const char *const engine_names[] = { "scale", "dense" };
static const char *const tier_names[] = { "default", "extended", "all" };
static const char *const model_names[] = { "use-lite", "pp-ocrv4", "all", "manifest" };

const char *scale_claim_name(scale_claim_t c)
{
    return c == SCALE_CLAIM_B ? "B" : "S";
}

const char *scale_family_name(scale_family_t f)
{
    return (unsigned)f < 4 ? family_names[f] : NULL;
}

const char *scale_engine_name(scale_engine_t e)
{
    return (unsigned)e < 2 ? engine_names[e] : "?";
}

const char *verify_tier_name(verify_tier_t t)
{
    return (unsigned)t < 3 ? tier_names[t] : "?";
}

const char *calib_model_name(calib_model_t m)
{
    return (unsigned)m < 4 ? model_names[m] : "?";
}

/* The index of s in names[first..n), or -1. */
static int name_index(const char *s, const char *const *names, int first, int n)
{
    for (int i = first; s && i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

ar_status scale_family_parse(const char *s, scale_family_t *f)
{
    int i = name_index(s, family_names, 1, 4);
    if (i < 0)
        return AR_EINVAL;
    *f = (scale_family_t)i;
    return AR_OK;
}

ar_status scale_engine_parse(const char *s, scale_engine_t *e)
{
    int i = name_index(s, engine_names, 0, 2);
    if (i < 0)
        return AR_EINVAL;
    *e = (scale_engine_t)i;
    return AR_OK;
}

ar_status verify_tier_parse(const char *s, verify_tier_t *t)
{
    int i = name_index(s, tier_names, 0, 3);
    if (i < 0)
        return AR_EINVAL;
    *t = (verify_tier_t)i;
    return AR_OK;
}

ar_status calib_model_parse(const char *s, calib_model_t *m)
{
    int i = name_index(s, model_names, 0, 4);
    if (i < 0)
        return AR_EINVAL;
    *m = (calib_model_t)i;
    return AR_OK;
}

/* ---- defaults (theory/claims/claim_s.c, claim_b.c, theory/heads/calib.c) */

void scale_spec_default(scale_spec_t *s, scale_claim_t claim)
{
    memset(s, 0, sizeof *s);
    s->claim = claim;
    s->family = SCALE_FAMILY_AUTO;
    s->packing = 1;
    s->instance = 1;
    s->seed = 1;
    s->engine = SCALE_ENGINE_SCALE;
    s->rho0 = sqrt(3.0) / 2.0;
    s->sphere = 1;
    s->npoints = 2500;
}

void verify_spec_default(verify_spec_t *s)
{
    memset(s, 0, sizeof *s);
    s->tier = VERIFY_TIER_DEFAULT;
}

void calib_spec_default(calib_spec_t *s)
{
    memset(s, 0, sizeof *s);
    s->model = CALIB_MODEL_USE_LITE;
    snprintf(s->data, sizeof s->data, "%s", ".cache/calib");
    s->sentences = SIZE_MAX;
    s->eps = 0.1;
    s->nscales = 4;
    s->scales[0] = 0.5;
    s->scales[1] = 1.0;
    s->scales[2] = 2.0;
    s->scales[3] = 4.0;
    s->ntau = 3;
    s->taus[0] = 0.05;
    s->taus[1] = 0.1;
    s->taus[2] = 0.2;
    s->tau_main = 1;
    s->perms = 10000;
    s->boot = 2000;
    s->level = 0.95;
    s->seed = 1;
}

/* ---- validation */

static ar_status bad(const char *what)
{
    ar_error_set("%s", what);
    return AR_EINVAL;
}

ar_status scale_spec_validate(const scale_spec_t *s)
{
    if (s->claim != SCALE_CLAIM_S && s->claim != SCALE_CLAIM_B)
        return bad("scale spec: claim must be S or B");
    if (s->d < 2 || s->d > 16) {
        ar_error_set("scale spec: d must be in 2..16, got %zu", s->d);
        return AR_EINVAL;
    }
    if (!(isfinite(s->beta_lo) && isfinite(s->beta_hi) && s->beta_lo >= 0 && s->beta_lo <= s->beta_hi)) {
        ar_error_set("scale spec: the beta range must have 0 <= LO <= HI, got %g:%g", s->beta_lo, s->beta_hi);
        return AR_EINVAL;
    }
    if (s->beta_count < 1 || s->beta_count > SWEEP_SCALE_MAX_COUNT) {
        ar_error_set("scale spec: beta_count must be in 1..%d, got %zu", SWEEP_SCALE_MAX_COUNT, s->beta_count);
        return AR_EINVAL;
    }
    if ((s->beta_count > 1 || s->claim == SCALE_CLAIM_B) && !(s->beta_lo > 0))
        return bad(s->claim == SCALE_CLAIM_B ? "scale spec: claim B needs beta LO > 0"
                                             : "scale spec: a geometric beta grid needs LO > 0");
    if (!(s->eps > 0 && s->eps < 1)) {
        ar_error_set("scale spec: eps must be strictly between 0 and 1, got %g", s->eps);
        return AR_EINVAL;
    }
    if ((unsigned)s->family > SCALE_FAMILY_UNIFORM || (unsigned)s->engine > SCALE_ENGINE_DENSE)
        return bad("scale spec: unknown family or engine");
    if ((s->family == SCALE_FAMILY_POLYGON && s->d != 2) || (s->family == SCALE_FAMILY_FIBONACCI && s->d != 3)) {
        ar_error_set("scale spec: family %s does not exist in d = %zu", scale_family_name(s->family), s->d);
        return AR_EINVAL;
    }
    if ((s->n && (s->n < 2 || s->n > (1u << 24))) || (s->n_max && (s->n_max < 2 || s->n_max > (1u << 24))))
        return bad("scale spec: n and n_max must be 0 (automatic) or in 2..16777216");
    if (!(s->rho0 >= 0 && s->rho0 < 1)) {
        ar_error_set("scale spec: rho0 must be in [0, 1), got %g", s->rho0);
        return AR_EINVAL;
    }
    if (s->npoints < 1 || s->npoints > 100000) {
        ar_error_set("scale spec: npoints must be in 1..100000, got %zu", s->npoints);
        return AR_EINVAL;
    }
    if (s->claim == SCALE_CLAIM_B && s->continuum && s->d > 4) {
        ar_error_set("scale spec: the shells continuum covers d = 2, 3, 4 (got d = %zu)", s->d);
        return AR_EINVAL;
    }
    if (s->hs != 0 && !(s->hs > 0 && s->hs <= SCALE_SPEC_HS_MAX && s->continuum && s->claim == SCALE_CLAIM_B)) {
        ar_error_set("scale spec: hs needs claim B with the continuum and a value in (0, 0.5], got %g", s->hs);
        return AR_EINVAL;
    }
    return AR_OK;
}

ar_status verify_spec_validate(const verify_spec_t *s)
{
    size_t n = strnlen(s->claim, sizeof s->claim);
    if (n == sizeof s->claim)
        return bad("verify spec: the claim is not terminated");
    for (size_t i = 0; i < n; i++)
        if (!(s->claim[i] >= 'A' && s->claim[i] <= 'Z'))
            return bad("verify spec: a claim is a capital letter (S, B, R, T, E, ...)");
    if (s->d > 64) {
        ar_error_set("verify spec: d must be 0 (every dimension) or in 1..64, got %zu", s->d);
        return AR_EINVAL;
    }
    if ((unsigned)s->tier > VERIFY_TIER_ALL)
        return bad("verify spec: tier must be default, extended or all");
    return AR_OK;
}

ar_status calib_spec_validate(const calib_spec_t *s)
{
    if ((unsigned)s->model > CALIB_MODEL_MANIFEST)
        return bad("calib spec: model must be use-lite, pp-ocrv4, all or manifest");
    if (strnlen(s->manifest, sizeof s->manifest) == sizeof s->manifest ||
        strnlen(s->data, sizeof s->data) == sizeof s->data ||
        strnlen(s->licenses, sizeof s->licenses) == sizeof s->licenses)
        return bad("calib spec: a path is not terminated");
    if ((s->model == CALIB_MODEL_MANIFEST) != (s->manifest[0] != '\0'))
        return bad("calib spec: a manifest file goes with model manifest, and only with it");
    if (!s->data[0])
        return bad("calib spec: data must name a directory");
    if (s->sentences != SIZE_MAX && (s->sentences < 1 || s->sentences > 1000000)) {
        ar_error_set("calib spec: sentences must be in 1..1000000 (or all), got %zu", s->sentences);
        return AR_EINVAL;
    }
    if (!(s->eps > 0 && s->eps < 1)) {
        ar_error_set("calib spec: eps must be strictly between 0 and 1, got %g", s->eps);
        return AR_EINVAL;
    }
    if (s->nscales < 1 || s->nscales > SWEEP_CALIB_MAX_SCALES || s->ntau < 1 || s->ntau > SWEEP_CALIB_MAX_TAUS)
        return bad("calib spec: 1..16 scales and 1..8 taus");
    for (size_t i = 0; i < s->nscales; i++)
        if (!(isfinite(s->scales[i]) && s->scales[i] > 0)) {
            ar_error_set("calib spec: scales[%zu] = %g is not a positive number", i, s->scales[i]);
            return AR_EINVAL;
        }
    for (size_t i = 0; i < s->ntau; i++)
        if (!(s->taus[i] > 0 && s->taus[i] < 2) || (i && !(s->taus[i] > s->taus[i - 1]))) {
            ar_error_set("calib spec: taus must increase inside (0, 2), taus[%zu] = %g", i, s->taus[i]);
            return AR_EINVAL;
        }
    if (s->tau_main >= s->ntau)
        return bad("calib spec: tau_main must be one of the taus");
    if (s->perms < 1 || s->perms > 10000000 || s->boot < 1 || s->boot > 1000000)
        return bad("calib spec: perms must be in 1..10000000 and boot in 1..1000000");
    if (!(s->level > 0 && s->level < 1)) {
        ar_error_set("calib spec: level must be in (0, 1), got %g", s->level);
        return AR_EINVAL;
    }
    if (s->threads > 64) {
        ar_error_set("calib spec: threads must be 0 (default) or in 1..64, got %zu", s->threads);
        return AR_EINVAL;
    }
    return AR_OK;
}

/* ---- JSON out */

static int set_size(json_t *o, const char *k, size_t v)
{
    return json_object_set_new(o, k, json_integer((json_int_t)v));
}

static int set_real(json_t *o, const char *k, double v)
{
    return json_object_set_new(o, k, json_real(v));
}

static int set_bool(json_t *o, const char *k, int v)
{
    return json_object_set_new(o, k, json_boolean(v));
}

static int set_str(json_t *o, const char *k, const char *v)
{
    return json_object_set_new(o, k, v ? json_string(v) : json_null());
}

static int set_u64(json_t *o, const char *k, uint64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRIu64, v);
    return set_str(o, k, b);
}

static json_t *done(json_t *o, int failed)
{
    if (failed) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *scale_spec_json(const scale_spec_t *s)
{
    json_t *o = json_object();
    int b = !o;
    if (!b)
        b = set_str(o, "claim", scale_claim_name(s->claim)) || set_size(o, "d", s->d) ||
            set_real(o, "beta_lo", s->beta_lo) || set_real(o, "beta_hi", s->beta_hi) ||
            set_size(o, "beta_count", s->beta_count) || set_real(o, "eps", s->eps) ||
            set_bool(o, "continuum", s->continuum);
    if (!b && s->claim == SCALE_CLAIM_S)
        b = set_str(o, "family", scale_family_name(s->family)) || set_size(o, "n", s->n) ||
            set_size(o, "n_max", s->n_max) || set_bool(o, "packing", s->packing) ||
            set_bool(o, "instance", s->instance) || set_u64(o, "seed", s->seed) ||
            set_str(o, "engine", scale_engine_name(s->engine));
    if (!b && s->claim == SCALE_CLAIM_B)
        b = set_real(o, "rho0", s->rho0) || set_bool(o, "unweighted", s->unweighted) ||
            set_bool(o, "upper", s->upper) || set_bool(o, "sphere", s->sphere) ||
            set_size(o, "npoints", s->npoints) || set_real(o, "hs", s->hs);
    return done(o, b);
}

json_t *verify_spec_json(const verify_spec_t *s)
{
    /* the members and their order of the verify shard header's params (unchanged since shards began) */
    return json_pack("{s:s?,s:i,s:s}", "claim", s->claim[0] ? s->claim : NULL, "d", (json_int_t)s->d, "tier",
                     verify_tier_name(s->tier));
}

static json_t *reals(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_real(v[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

json_t *calib_spec_json(const calib_spec_t *s)
{
    json_t *o = json_object();
    json_t *sc = reals(s->scales, s->nscales), *ta = reals(s->taus, s->ntau);
    int b = !o || !sc || !ta;
    if (!b)
        b = set_str(o, "model", calib_model_name(s->model)) ||
            set_str(o, "manifest", s->model == CALIB_MODEL_MANIFEST ? s->manifest : NULL) ||
            set_str(o, "data", s->data) || set_str(o, "licenses", s->licenses[0] ? s->licenses : NULL) ||
            (s->sentences == SIZE_MAX ? set_str(o, "sentences", "all") : set_size(o, "sentences", s->sentences)) ||
            set_real(o, "eps", s->eps) || json_object_set(o, "scales", sc) || json_object_set(o, "taus", ta) ||
            set_real(o, "tau_main", s->taus[s->tau_main < s->ntau ? s->tau_main : 0]) ||
            set_size(o, "perms", s->perms) || set_size(o, "boot", s->boot) || set_real(o, "level", s->level) ||
            set_u64(o, "seed", s->seed) || set_size(o, "threads", s->threads);
    json_decref(sc);
    json_decref(ta);
    return done(o, b);
}

/* ---- JSON in */

/* AR_OK when o is an object with exactly the members names[0..n) (any order). */
static ar_status members(const json_t *o, const char *const *names, size_t n, const char *what, const char *kind)
{
    if (!json_is_object(o)) {
        ar_error_set("%s: the %s spec must be a JSON object", what, kind);
        return AR_EINVAL;
    }
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        size_t i = 0;
        while (i < n && strcmp(k, names[i]))
            i++;
        if (i == n) {
            ar_error_set("%s: the %s spec has an unknown member '%s' (a spec holds only what defines the sweep's "
                         "points: no shard, output file, format, key or help)", what, kind, k);
            return AR_EINVAL;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (!json_object_get(o, names[i])) {
            ar_error_set("%s: the %s spec lacks the member '%s'", what, kind, names[i]);
            return AR_EINVAL;
        }
    return AR_OK;
}

static ar_status get_name(const json_t *o, const char *k, int null_ok, const char *what, const char **v)
{
    const json_t *x = json_object_get(o, k);
    if (null_ok && json_is_null(x)) {
        *v = NULL;
        return AR_OK;
    }
    if (!json_is_string(x)) {
        ar_error_set("%s: '%s' must be a string%s", what, k, null_ok ? " or null" : "");
        return AR_EINVAL;
    }
    *v = json_string_value(x);
    return AR_OK;
}

static ar_status get_bool(const json_t *o, const char *k, const char *what, int *v)
{
    return shardrec_bool(o, k, what, v);
}

static ar_status get_real(const json_t *o, const char *k, const char *what, double *v)
{
    return shardrec_real(o, k, 0, what, v);
}

static ar_status get_u64(const json_t *o, const char *k, const char *what, uint64_t *v)
{
    const char *s;
    ar_status st = get_name(o, k, 0, what, &s);
    if (st)
        return st;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (!*s || *end || s[0] == '-' || s[0] == '+' || (s[0] == '0' && s[1]) || strlen(s) > 20 ||
        (x == ULLONG_MAX && strcmp(s, "18446744073709551615"))) {
        ar_error_set("%s: '%s' must be a decimal 64-bit unsigned integer as a string", what, k);
        return AR_EINVAL;
    }
    *v = (uint64_t)x;
    return AR_OK;
}

/* A path member: a string shorter than cap (or null -> ""). */
static ar_status get_path(const json_t *o, const char *k, const char *what, char *buf, size_t cap)
{
    const char *s;
    ar_status st = get_name(o, k, 1, what, &s);
    if (st)
        return st;
    if (s && (strlen(s) >= cap || strlen(s) != json_string_length(json_object_get(o, k)))) {
        ar_error_set("%s: '%s' must be a path of at most %zu bytes without NUL", what, k, cap - 1);
        return AR_EINVAL;
    }
    snprintf(buf, cap, "%s", s ? s : "");
    return AR_OK;
}

static ar_status get_reals(const json_t *o, const char *k, size_t max, const char *what, double *v, size_t *n)
{
    const json_t *a = json_object_get(o, k);
    if (!json_is_array(a) || json_array_size(a) < 1 || json_array_size(a) > max) {
        ar_error_set("%s: '%s' must be an array of 1..%zu numbers", what, k, max);
        return AR_EINVAL;
    }
    *n = json_array_size(a);
    return shardrec_reals(o, k, *n, 0, what, v);
}

/* st of a validation, its message prefixed with `what`. */
static ar_status named(ar_status st, const char *what)
{
    if (st) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s", ar_error_get());
        ar_error_set("%s: %s", what, msg);
    }
    return st;
}

ar_status scale_spec_from_json(const json_t *o, const char *what, scale_spec_t *s)
{
    static const char *const nS[] = { "claim", "d", "beta_lo", "beta_hi", "beta_count", "eps", "continuum",
                                      "family", "n", "n_max", "packing", "instance", "seed", "engine" };
    static const char *const nB[] = { "claim", "d", "beta_lo", "beta_hi", "beta_count", "eps", "continuum",
                                      "rho0", "unweighted", "upper", "sphere", "npoints", "hs" };
    const char *claim, *v;
    if (!json_is_object(o)) {
        ar_error_set("%s: the scale spec must be a JSON object", what);
        return AR_EINVAL;
    }
    ar_status st = get_name(o, "claim", 0, what, &claim);
    if (st)
        return st;
    if (strcmp(claim, "S") && strcmp(claim, "B")) {
        ar_error_set("%s: 'claim' must be S or B (the claims with a scale sweep)", what);
        return AR_EINVAL;
    }
    int isB = !strcmp(claim, "B");
    scale_spec_default(s, isB ? SCALE_CLAIM_B : SCALE_CLAIM_S);
    if (isB)
        st = members(o, nB, sizeof nB / sizeof nB[0], what, "scale");
    else
        st = members(o, nS, sizeof nS / sizeof nS[0], what, "scale");
    if (st || (st = shardrec_size(o, "d", 16, what, &s->d)) || (st = get_real(o, "beta_lo", what, &s->beta_lo)) ||
        (st = get_real(o, "beta_hi", what, &s->beta_hi)) ||
        (st = shardrec_size(o, "beta_count", SWEEP_SCALE_MAX_COUNT, what, &s->beta_count)) ||
        (st = get_real(o, "eps", what, &s->eps)) || (st = get_bool(o, "continuum", what, &s->continuum)))
        return st;
    if (!isB) {
        if ((st = get_name(o, "family", 1, what, &v)))
            return st;
        if (v && scale_family_parse(v, &s->family)) {
            ar_error_set("%s: 'family' must be null, polygon, fibonacci or uniform", what);
            return AR_EINVAL;
        }
        if ((st = shardrec_size(o, "n", 1u << 24, what, &s->n)) ||
            (st = shardrec_size(o, "n_max", 1u << 24, what, &s->n_max)) ||
            (st = get_bool(o, "packing", what, &s->packing)) || (st = get_bool(o, "instance", what, &s->instance)) ||
            (st = get_u64(o, "seed", what, &s->seed)) || (st = get_name(o, "engine", 0, what, &v)))
            return st;
        if (scale_engine_parse(v, &s->engine)) {
            ar_error_set("%s: 'engine' must be scale or dense", what);
            return AR_EINVAL;
        }
    } else {
        if ((st = get_real(o, "rho0", what, &s->rho0)) || (st = get_bool(o, "unweighted", what, &s->unweighted)) ||
            (st = get_bool(o, "upper", what, &s->upper)) || (st = get_bool(o, "sphere", what, &s->sphere)) ||
            (st = shardrec_size(o, "npoints", 100000, what, &s->npoints)) || (st = get_real(o, "hs", what, &s->hs)))
            return st;
    }
    return named(scale_spec_validate(s), what);
}

ar_status verify_spec_from_json(const json_t *o, const char *what, verify_spec_t *s)
{
    static const char *const names[] = { "claim", "d", "tier" };
    verify_spec_default(s);
    const char *c, *t;
    ar_status st = members(o, names, 3, what, "verify");
    if (st || (st = get_name(o, "claim", 1, what, &c)) || (st = shardrec_size(o, "d", 64, what, &s->d)) ||
        (st = get_name(o, "tier", 0, what, &t)))
        return st;
    if (c && (strlen(c) >= sizeof s->claim || !*c)) {
        ar_error_set("%s: 'claim' must be null or a claim's letter", what);
        return AR_EINVAL;
    }
    snprintf(s->claim, sizeof s->claim, "%s", c ? c : "");
    if (verify_tier_parse(t, &s->tier)) {
        ar_error_set("%s: 'tier' must be default, extended or all", what);
        return AR_EINVAL;
    }
    return named(verify_spec_validate(s), what);
}

ar_status calib_spec_from_json(const json_t *o, const char *what, calib_spec_t *s)
{
    static const char *const names[] = { "model", "manifest", "data", "licenses", "sentences", "eps", "scales",
                                         "taus", "tau_main", "perms", "boot", "level", "seed", "threads" };
    calib_spec_default(s);
    const char *m;
    ar_status st = members(o, names, sizeof names / sizeof names[0], what, "calib");
    if (st || (st = get_name(o, "model", 0, what, &m)))
        return st;
    if (calib_model_parse(m, &s->model)) {
        ar_error_set("%s: 'model' must be use-lite, pp-ocrv4, all or manifest", what);
        return AR_EINVAL;
    }
    const json_t *se = json_object_get(o, "sentences");
    double tm;
    if ((st = get_path(o, "manifest", what, s->manifest, sizeof s->manifest)) ||
        (st = get_path(o, "data", what, s->data, sizeof s->data)) ||
        (st = get_path(o, "licenses", what, s->licenses, sizeof s->licenses)))
        return st;
    if (json_is_string(se) && !strcmp(json_string_value(se), "all"))
        s->sentences = SIZE_MAX;
    else if ((st = shardrec_size(o, "sentences", 1000000, what, &s->sentences)))
        return st;
    if ((st = get_real(o, "eps", what, &s->eps)) ||
        (st = get_reals(o, "scales", SWEEP_CALIB_MAX_SCALES, what, s->scales, &s->nscales)) ||
        (st = get_reals(o, "taus", SWEEP_CALIB_MAX_TAUS, what, s->taus, &s->ntau)) ||
        (st = get_real(o, "tau_main", what, &tm)) || (st = shardrec_size(o, "perms", 10000000, what, &s->perms)) ||
        (st = shardrec_size(o, "boot", 1000000, what, &s->boot)) || (st = get_real(o, "level", what, &s->level)) ||
        (st = get_u64(o, "seed", what, &s->seed)) || (st = shardrec_size(o, "threads", 64, what, &s->threads)))
        return st;
    s->tau_main = 0;
    while (s->tau_main < s->ntau && s->taus[s->tau_main] != tm)
        s->tau_main++;
    if (s->tau_main == s->ntau) {
        ar_error_set("%s: 'tau_main' %g is not one of the taus", what, tm);
        return AR_EINVAL;
    }
    return named(calib_spec_validate(s), what);
}
