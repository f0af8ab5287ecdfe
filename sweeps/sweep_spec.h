/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep_spec.h -- the typed specs of the sweeps: what `attnrank scale`,
 * `attnrank verify` and `attnrank calib` compute, as C values.
 *
 * A spec holds every parameter that defines a sweep's points and numbers,
 * with every default filled in; it holds nothing about how the result is
 * shown (the format), where it goes (--shard, --out) or who may read it
 * (--key): those are the run's (sweeps/sweeps.h, sweep_run_t).  The CLI
 * fills a spec from its options (cli/sweep_args.c); a shard header stores
 * its JSON (sweep_spec_*_json) and a merge reads it back
 * (sweep_spec_*_from_json), never a command line.
 *
 * JSON round trip: X_from_json(X_json(s)) == s for every valid s, member
 * by member (doubles are written with 17 significant digits, the 64-bit
 * seeds as decimal strings, so that a reader that takes every number as a
 * double, as the shard reader does, gets them back exactly).
 * X_validate: AR_OK, or AR_EINVAL with one line naming the member and the
 * value (eps outside (0, 1), an empty or reversed beta range, ...).  The
 * readers refuse a member that is missing, unknown or of another type, and
 * validate what they read. */
#ifndef ATTNRANK_SWEEPS_SWEEP_SPEC_H
#define ATTNRANK_SWEEPS_SWEEP_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "base/status.h"

#define SWEEP_SCALE_MAX_COUNT 64     /* most beta values of a scale sweep */
#define SWEEP_SPEC_PATH_LEN 4096     /* paths of a calib spec, with the terminating NUL */
#define SWEEP_CALIB_MAX_SCALES 16    /* = CALIB_MAX_SCALES (theory/heads/calib.h) */
#define SWEEP_CALIB_MAX_TAUS 8       /* = CALIB_MAX_TAUS */
#define SCALE_SPEC_HS_MAX 0.5        /* = CLAIM_B_HS_MAX (theory/claims/claim_b.h) */

/* `attnrank scale`: a beta grid of claim S or claim B. */
typedef enum { SCALE_CLAIM_S, SCALE_CLAIM_B } scale_claim_t;
typedef enum { SCALE_FAMILY_AUTO, SCALE_FAMILY_POLYGON, SCALE_FAMILY_FIBONACCI, SCALE_FAMILY_UNIFORM } scale_family_t;
typedef enum { SCALE_ENGINE_SCALE, SCALE_ENGINE_DENSE } scale_engine_t;

typedef struct {
    scale_claim_t claim;
    size_t d;                  /* 2..16 */
    double beta_lo, beta_hi;   /* 0 <= lo <= hi (claim B: lo > 0; a grid of count > 1: lo > 0) */
    size_t beta_count;         /* 1..SWEEP_SCALE_MAX_COUNT geometrically spaced values */
    double eps;                /* 0 < eps < 1 */
    int continuum;             /* the continuum column */
    /* claim S */
    scale_family_t family;     /* AUTO: polygon (d = 2), fibonacci (d = 3), uniform */
    size_t n, n_max;           /* instance size and its automatic cap, 2..2^24; 0: automatic */
    int packing, instance;     /* the cap-packing lower end; the instance's upper end */
    uint64_t seed;
    scale_engine_t engine;
    /* claim B */
    double rho0;               /* [0, 1) */
    int unweighted, upper, sphere;
    size_t npoints;            /* distinct points of the upper instance, 1..100000 */
    double hs;                 /* continuum radial spacing, (0, 0.5]; 0 (default) without continuum */
} scale_spec_t;

/* `attnrank verify`: rows of the laws table. */
typedef enum { VERIFY_TIER_DEFAULT, VERIFY_TIER_EXTENDED, VERIFY_TIER_ALL } verify_tier_t;
typedef struct {
    char claim[8];             /* "" (every claim) or the claim's letter */
    size_t d;                  /* 0 (every dimension) or 1..64 */
    verify_tier_t tier;
} verify_spec_t;

/* `attnrank calib`: claim E on the heads of real models. */
typedef enum { CALIB_MODEL_USE_LITE, CALIB_MODEL_PPOCR, CALIB_MODEL_ALL, CALIB_MODEL_MANIFEST } calib_model_t;
typedef struct {
    calib_model_t model;
    char manifest[SWEEP_SPEC_PATH_LEN];   /* CALIB_MODEL_MANIFEST: the manifest file */
    char data[SWEEP_SPEC_PATH_LEN];       /* the cache of `make calib-data` */
    char licenses[SWEEP_SPEC_PATH_LEN];   /* "": the corpus's default directory */
    size_t sentences;                     /* first inputs of each model, 1..10^6; SIZE_MAX: all */
    double eps;                           /* 0 < eps < 1 */
    size_t nscales;
    double scales[SWEEP_CALIB_MAX_SCALES];
    size_t ntau;
    double taus[SWEEP_CALIB_MAX_TAUS];
    size_t tau_main;                      /* index into taus */
    size_t perms;                         /* 1..10^7 */
    size_t boot;                          /* 1..10^6 */
    double level;                         /* 0 < level < 1 */
    uint64_t seed;
    size_t threads;                       /* 0 (default) or 1..64 */
} calib_spec_t;

/* The defaults of each sweep (what the command runs without options; a
 * scale spec still needs d, the grid and eps). */
void scale_spec_default(scale_spec_t *s, scale_claim_t claim);
void verify_spec_default(verify_spec_t *s);
void calib_spec_default(calib_spec_t *s);

/* AR_OK, or AR_EINVAL with one line naming the bad member. */
ar_status scale_spec_validate(const scale_spec_t *s);
ar_status verify_spec_validate(const verify_spec_t *s);
ar_status calib_spec_validate(const calib_spec_t *s);

/* The spec as a new JSON object (NULL when out of memory). */
json_t *scale_spec_json(const scale_spec_t *s);
json_t *verify_spec_json(const verify_spec_t *s);
json_t *calib_spec_json(const calib_spec_t *s);

/* The spec read from JSON o (as written by X_json, every number possibly a
 * double) and validated; `what` names o in the one-line error. */
ar_status scale_spec_from_json(const json_t *o, const char *what, scale_spec_t *s);
ar_status verify_spec_from_json(const json_t *o, const char *what, verify_spec_t *s);
ar_status calib_spec_from_json(const json_t *o, const char *what, calib_spec_t *s);

/* Names of the enums, as the options and the JSON spell them; the parse
 * functions return AR_EINVAL without a message for an unknown name. */
const char *scale_claim_name(scale_claim_t c);
const char *scale_family_name(scale_family_t f);   /* NULL for AUTO */
const char *scale_engine_name(scale_engine_t e);
const char *verify_tier_name(verify_tier_t t);
const char *calib_model_name(calib_model_t m);
ar_status scale_family_parse(const char *s, scale_family_t *f);
ar_status scale_engine_parse(const char *s, scale_engine_t *e);
ar_status verify_tier_parse(const char *s, verify_tier_t *t);
ar_status calib_model_parse(const char *s, calib_model_t *m);

#endif
