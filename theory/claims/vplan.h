/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vplan.h -- the point list of `attnrank verify` (and of `make verify`),
 * known before anything runs, so that shards can split it (issue 17).
 *
 * Groups, in laws-table order, then claim T's cases:
 *   a law row of kind exponent or report: one unit per beta of its window;
 *   a saturation row: one unit for its certified cap packing, then one per
 *                     instance size;
 *   a claim-T case (theory/claims/claim_t.h): one unit.
 * Every unit has an id that names it ("S.d3.exponent.1/beta=50",
 * "S.d3.saturation.0/packing", "S.d3.saturation.0/n=8000", "T/case=2": the
 * claim, the dimension, the row's kind and its index among the rows of that
 * claim, dimension and kind, then the point) and an a-priori cost estimate
 * (the row's declared cost_s times (law(beta) / law(last beta))^2; sizes: times
 * n / n_max), which shard_assign (numerics/shard.h) uses to balance shards.
 * The plan's digest (SHA-256 over every unit's id and cost and every
 * declared field of its row) goes into each shard file: merging refuses
 * shards of another plan.
 *
 * A unit's result is its record: every certified number, certificate and
 * method string of the point (law_point_t), of the packing (pack_cert_t) or
 * of the T case (claim_t_record_t), with its time, as one JSON object; the
 * verdicts are rebuilt from records alone (vplan_judge_row), so a merged
 * run and a one-process run give the same numbers. */
#ifndef ATTNRANK_THEORY_VPLAN_H
#define ATTNRANK_THEORY_VPLAN_H

#include <stddef.h>
#include <jansson.h>
#include "base/status.h"
#include "theory/certificates/cert_packing.h"
#include "theory/claims/claim_t.h"
#include "theory/claims/laws.h"
#include "theory/claims/verify.h"

typedef enum { VTIER_DEFAULT = 0, VTIER_EXTENDED = 1, VTIER_ALL = 2 } vtier_t;

typedef enum { VU_POINT, VU_PACKING, VU_SIZE, VU_T } vunit_kind_t;

typedef struct {
    vunit_kind_t kind;
    size_t group;        /* its group */
    size_t index;        /* beta or size index (VU_POINT, VU_SIZE), case (VU_T) */
    double cost;         /* a-priori estimate, seconds */
    char id[96];
} vunit_t;

typedef enum { VG_LAW, VG_T } vgroup_kind_t;

typedef struct {
    vgroup_kind_t kind;
    const law_t *law;    /* VG_LAW */
    size_t tcase;        /* VG_T */
    size_t first, count; /* its units */
    char tag[48];        /* "S.d3.exponent.1", "T/case=2" */
} vgroup_t;

typedef struct {
    vgroup_t *groups;
    size_t ngroups;
    vunit_t *units;
    size_t nunits;
    char claim[8];       /* selection ("" = every claim) */
    int dim;             /* 0 = any */
    vtier_t tier;
    char digest[65];
} vplan_t;

/* The result of one unit. */
typedef struct {
    int done;
    law_point_t lp;          /* VU_POINT, VU_SIZE */
    pack_cert_t pk;          /* VU_PACKING */
    claim_t_record_t t;      /* VU_T */
} vresult_t;

/* Parse "default", "extended" or "all" (option --opt; AR_EINVAL). */
ar_status vplan_tier_parse(const char *opt, const char *s, vtier_t *t);
const char *vplan_tier_name(vtier_t t);

/* The plan of the rows selected by claim (NULL: all), dim (0: any) and tier
 * (laws_check_selection decides whether the selection is valid; claim T's
 * cases belong to the default tier and have no dimension). */
ar_status vplan_build(const char *claim, int dim, vtier_t tier, vplan_t *p);
void vplan_clear(vplan_t *p);

/* Compute unit u into r (r->done = 1).  AR_* for failures of the machinery. */
ar_status vplan_compute(const vplan_t *p, size_t u, vresult_t *r);

/* One line for progress messages: "claim S d=3: beta=50". */
void vplan_describe(const vplan_t *p, size_t u, char *buf, size_t cap);

/* The record of unit u (a new object with "point" = its id). NULL: no memory. */
json_t *vplan_record(const vplan_t *p, size_t u, const vresult_t *r);

/* Read unit u's record strictly (every member present and of its type, the
 * beta or size the plan says); `where` names the file and line. */
ar_status vplan_parse_record(const vplan_t *p, size_t u, const json_t *o, const char *where, vresult_t *r);

/* The verdict of law group g from its units' results (every unit done). */
ar_status vplan_judge_row(const vplan_t *p, size_t g, const vresult_t *res, verify_row_t *row);

/* law_point_t <-> JSON members (as in the records): added to o / read from
 * o (every member present, of its type; strings of the classes attnrank
 * writes: constructions/formats/shardfile.h). */
int law_point_json(json_t *o, const law_point_t *lp);
ar_status law_point_from_json(const json_t *o, const char *where, law_point_t *lp);

/* A point read from a record is one attnrank could have written for a sweep
 * at (d, beta, eps): those three equal; 1 <= lower <= lower_points; an upper
 * end at most the instance size n; lower <= upper (and lower_points = n)
 * when both bound the same instance; the error of a non-trivial upper end
 * in [0, eps]; log10 n and the time >= 0.  AR_EINVAL with one line starting
 * with `where` otherwise. */
ar_status law_point_check(const law_point_t *lp, int d, double beta, double eps, const char *where);

/* The group of the k-th default-tier row of claim (in table order), or of
 * claim T's case k: its index in p, or p->ngroups if p has none. */
size_t vplan_find_row(const vplan_t *p, const char *claim, size_t k);

#endif
