/* laws.h -- the one table of the paper's laws, with declared exponents,
 * tolerances, fit windows and Theta bands (THEORY sections 2 and 4).
 * Every verdict of `attnrank verify` is judged against this table and
 * nothing else; change a tolerance here, in one place, with a reason. */
#ifndef ATTNRANK_THEORY_LAWS_H
#define ATTNRANK_THEORY_LAWS_H

#include <stddef.h>

typedef struct {
    const char *claim;        /* "S", "B", "R", "T", "E" */
    int dim;                  /* d (claims S, B) or r (claim R) */
    const char *variable;     /* the law's variable, e.g. "1+beta" */
    double predicted;         /* predicted exponent of the variable */
    double tol;               /* verdict needs |fitted - predicted| <= tol for both bracket ends */
    double eps;               /* the eps of the eps-rank */
    double band_lo, band_hi;  /* Theta band: lower/law and upper/law must stay inside */
    const double *betas;      /* sample points of the fit window */
    size_t nbetas;
    const char *family;       /* instance family (constructions/family.h) */
    double n_per_law;         /* instance size n = clamp(n_per_law * law(beta), n_min, n_max) */
    size_t n_min, n_max;
    const char *scope;        /* what this row does and does not test */
    int engine;               /* claim_s_engine_t: 0 dense O(n^3) instance, 1 structured certificates */
    int packing;              /* 1: cap packings also certify the lower end */
    const char *upper_source; /* "instance" or "continuum": which upper bound is fitted */
    const char *kind;         /* "exponent" (fit over betas) or "saturation" (fixed beta = betas[0],
                                 instance sizes ns: the min{n, law} shape of claim S) */
    const double *ns;         /* saturation rows: instance sizes, increasing */
    size_t nns;
} law_t;

/* The table (static storage) and its length. */
const law_t *laws_table(size_t *count);

/* The law's value (1+beta)^predicted for claim S. */
double law_value(const law_t *L, double beta);

/* Claims named by the paper that have no check in this version: a
 * NULL-terminated list of {claim, reason} pairs. */
const char *const *laws_untested(void);

#endif

#ifndef ATTNRANK_THEORY_LAWS_PACKING
#define ATTNRANK_THEORY_LAWS_PACKING
/* Default angular separation of a cap packing for inverse temperature beta
 * (THEORY 3.6): theta = min(pi, 3 / sqrt(1 + beta)), so that neighbours have
 * A_ij / A_ii = exp(-beta (1 - cos theta)) ~ exp(-4.5). */
double law_packing_theta(double beta);
#endif
