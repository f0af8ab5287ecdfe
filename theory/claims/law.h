/* SPDX-License-Identifier: GPL-3.0-or-later */
/* law.h -- one row of the laws table (theory/claims/laws.h): the declared
 * exponent, tolerance, window and band of a law, the function that computes
 * one of its sweep points, and the row's derived values.  Each claim's point
 * module (claim_s, claim_b, claim_r) needs this type and nothing of the
 * table. */
#ifndef ATTNRANK_THEORY_LAW_H
#define ATTNRANK_THEORY_LAW_H

#include <stddef.h>
#include "base/status.h"
#include "theory/claims/law_point.h"

typedef struct law law_t;

/* The law's variable (names: "1+beta", "beta", "n"). */
typedef enum { LAW_VAR_ONE_PLUS_BETA, LAW_VAR_BETA, LAW_VAR_N } law_variable_t;

/* Which upper bound a row fits (names: "instance", "continuum"). */
typedef enum { LAW_UPPER_INSTANCE, LAW_UPPER_CONTINUUM } law_upper_t;

/* A row's kind (names: "exponent", "saturation", "report"): exponent rows
 * fit over betas and are asserted; saturation rows (fixed beta = betas[0],
 * sizes ns: the min{n, law} shape of claim S) are asserted; report rows (a
 * method's limitation or a contrast) are printed, never asserted. */
typedef enum { LAW_EXPONENT, LAW_SATURATION, LAW_REPORT } law_kind_t;

/* A row's tier (names: "default", "extended"): default rows are run by
 * `make verify` and `attnrank verify`; extended rows only when asked for
 * (`attnrank verify --tier extended|all`, or --d D). */
typedef enum { LAW_TIER_DEFAULT, LAW_TIER_EXTENDED } law_tier_t;

/* Computes one certified sweep point of row L at inverse temperature beta
 * (for saturation rows: at instance size L->ns[k] passed through out->n on
 * entry).  Returns AR_* only for failures of the machinery; a point that
 * cannot be certified has status "inconclusive". */
typedef ar_status (*law_point_fn)(const law_t *L, double beta, law_point_t *out);

struct law {
    const char *claim;        /* "S", "B", "R", "T", "E" */
    int dim;                  /* d (claims S, B) or r (claim R) */
    law_variable_t variable;  /* the law's variable: 1+beta, beta (or n: saturation rows) */
    double predicted;         /* predicted exponent of the variable */
    double tol;               /* verdict needs |fitted - predicted| <= tol for both bracket ends */
    double eps;               /* the eps of the eps-rank */
    double band_lo, band_hi;  /* Theta band: lower/law and upper/law must stay inside */
    const double *betas;      /* sample points of the fit window */
    size_t nbetas;
    const char *family;       /* instance family (constructions/pointsets/family.h, constructions/pointsets/ball.h, ...) */
    double n_per_law;         /* instance size n = clamp(n_per_law * law(beta), n_min, n_max) */
    size_t n_min, n_max;
    const char *scope;        /* what this row does and does not test */
    int engine;               /* claim S: claim_s_engine_t (0 dense O(n^3) instance, 1 structured) */
    int packing;              /* 1: cap packings also certify the lower end */
    law_upper_t upper_source; /* instance or continuum: which upper bound is fitted */
    law_kind_t kind;          /* exponent, saturation or report (law_kind_t) */
    const double *ns;         /* saturation rows: instance sizes, increasing */
    size_t nns;
    law_point_fn point;       /* one sweep point of this row (required for exponent and report rows) */
    double (*law)(const law_t *L, double beta);   /* the law's value; NULL: variable^predicted */
    const void *opts;         /* row-specific options for `point` (NULL: defaults) */
    law_tier_t tier;          /* default or extended (law_tier_t) */
    size_t packing_max;       /* claim S: the largest cap packing searched for the lower end (0: 60000) */
    int packing_zonal;        /* claim S: 1 = the lower end from the zonal code at every beta of the
                                 window (one construction; proofs-notes/claim-S.md, issue 36) */
    double cost_s;            /* a-priori cost in seconds of the row's point at its last beta, one process
                                 of two on 2 cores (0: 10 s); a point at beta costs cost_s (law(beta) /
                                 law(last))^2, fitted to measured rows (bench/results/verify_costs.txt);
                                 balances shards only (theory/claims/vplan.h), no result depends on it */
};

/* The names of the enums above, for printing and the API's strings (the
 * only place they are spelled). */
const char *law_variable_name(law_variable_t v);
const char *law_upper_name(law_upper_t u);
const char *law_kind_name(law_kind_t k);
const char *law_tier_name(law_tier_t t);

/* The value of the law's variable at beta: beta for LAW_VAR_BETA, else 1+beta. */
double law_variable(const law_t *L, double beta);

/* The law's value at beta: L->law(L, beta) if set, else law_variable^predicted. */
double law_value(const law_t *L, double beta);

/* 1 if the row is of tier extended (outside the default run). */
int law_extended(const law_t *L);

/* 1 if the row's verdict is asserted by `make verify` (kind exponent or saturation). */
int law_asserted(const law_t *L);

#endif
